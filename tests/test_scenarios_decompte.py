"""Scenario tests for « Fin du jeu » — the final score — and the Merveilles whose bonus the cards print,
named after the rulebook paragraph they check.  Every expectation is the exact total, added up by hand
from the costs the rulebook prints (Temple 1, Manoir 3, Palais 5, …), so a changed bonus (+3 → +2,
+4 → +3, a Merveille's 5 → 4) or a changed threshold fails here, not only on the golden book pages.

Built like tests/test_scenarios_powers.py: a game set up with ``Engine.start``, the cards placed; the
turns that complete a city are played through with every answer scripted by the label offered."""

from __future__ import annotations

from checker.front.configurations import select
from checker.runtime.agents import ScriptedAgent
from conftest import bundled
from test_scenarios import engine
from test_scenarios_powers import choose, give


def table(players: int, *wonders: str, scripts=None, config: str = "Première partie"):
    """A game of ``config`` whose pile also holds the Merveilles named (any selection of Merveilles is a
    legal game: « D'autres manières de jouer »)."""
    e = engine()
    e.recording = True
    program = bundled().program
    cards = dict(select(program, program.configurations[config], players).cards)
    cards["District"] = tuple(cards["District"]) + tuple(w for w in wonders if w not in cards["District"])
    agents = [ScriptedAgent(s) for s in (scripts or [[] for _ in range(players)])]
    st = e.start(cards, players, 0, agents)
    for p in range(players):
        st.vars["trésor"][p] = 0
    return e, st, agents


def score(e, player: int) -> int:
    e.invalidate()
    return e.quantity("score", (player,))


# ==================================================================== « Fin du jeu » : le décompte

def test_fin_du_jeu_cout_de_construction_total_des_quartiers_de_la_cite():
    """« Coût de construction total des quartiers de la cité. »  Temple 1 + Manoir 3 + Palais 5; the
    Artiste's embellishment adds 1 to the cost of the district it is on."""
    e, st, _ = table(4)
    temple, *_ = give(e, st, 0, "cité", "Temple", "Manoir", "Palais")
    assert score(e, 0) == 9 and score(e, 1) == 0
    st.vars["embellissement"][temple] = 1
    assert score(e, 0) == 10


def test_fin_du_jeu_plus_3_si_la_cite_comprend_les_cinq_types():
    """« +3 si la cité comprend des quartiers des cinq types (couleurs) différents. »  Four types: the
    costs only; the fifth type (a Merveille without a bonus of its own, the Donjon): +3."""
    e, st, _ = table(4, "Donjon")
    give(e, st, 0, "cité", "Temple", "Tour de guet", "Manoir", "Taverne")
    assert score(e, 0) == 1 + 1 + 3 + 1
    give(e, st, 0, "cité", "Donjon")
    assert score(e, 0) == 1 + 1 + 3 + 1 + 3 + 3
    give(e, st, 0, "cité", "Église")                    # a second Religieux adds its cost, not a bonus
    assert score(e, 0) == 9 + 2 + 3


def test_fin_du_jeu_plus_4_pour_le_premier_et_plus_2_pour_les_autres_cites_completes():
    """« +4 pour le premier joueur ayant complété sa cité. » « +2 pour les autres joueurs ayant complété
    leur cité. »  Played through: Joueur 1 (the Marchande) builds his seventh district and is the first
    to complete his city; Joueur 2 (the Architecte) builds his seventh afterwards."""
    first, second = 0, 1
    e, st, agents = table(4, scripts=[["pièces", "bâtir(Joueur 1, Palais)", "Terminer son tour"],
                                      ["pièces", "bâtir(Joueur 2, Palais)", "Terminer son tour"], [], []])
    choose(e, st, first, "Marchande")
    choose(e, st, second, "Architecte")
    give(e, st, first, "cité", "Temple", "Église", "Monastère", "Tour de guet", "Prison", "Caserne")
    give(e, st, second, "cité", "Temple", "Église", "Monastère", "Tour de guet", "Prison", "Caserne")
    give(e, st, first, "main", "Palais")
    give(e, st, second, "main", "Palais")
    st.vars["trésor"].update({first: 3, second: 3})
    costs = 1 + 2 + 3 + 1 + 2 + 3 + 5                  # Religieux, Militaire, Noble: not five types
    assert score(e, first) == score(e, second) == costs - 5

    e.call("tour", (first, e.card("Marchande")))
    assert len(st.zone("cité", first)) == 7 and st.vars["premier_complet"] == first
    assert score(e, first) == costs + 4
    e.call("tour", (second, e.card("Architecte")))
    assert len(st.zone("cité", second)) == 7 and st.vars["premier_complet"] == first
    assert score(e, second) == costs + 2, "+2, not +4: he was not the first"
    assert score(e, first) == costs + 4
    assert agents[first].answers == agents[second].answers == []


def test_fin_du_jeu_a_2_ou_3_joueurs_il_faut_huit_quartiers():
    """« Une cité est complète lorsqu'elle comprend au moins sept quartiers (4 à 8 joueurs) ou huit
    quartiers (2 ou 3 joueurs). »  At 3 players the seventh district completes nothing (no bonus, no
    end); the eighth does."""
    player = 0
    e, st, agents = table(3, scripts=[["pièces", "bâtir(Joueur 1, Palais)", "Terminer son tour"], [], []])
    choose(e, st, player, "Marchande")
    give(e, st, player, "cité", "Temple", "Église", "Monastère", "Tour de guet", "Prison", "Caserne", "Manoir")
    give(e, st, player, "main", "Palais")
    st.vars["trésor"][player] = 3
    assert not e.quantity("complète", (player,)) and score(e, player) == 15
    e.call("tour", (player, e.card("Marchande")))
    assert len(st.zone("cité", player)) == 8 and st.vars["premier_complet"] == player
    assert st.vars["fin_de_partie_annoncée"] is True
    assert score(e, player) == 15 + 5 + 4


def test_fin_du_jeu_sept_quartiers_a_4_joueurs_et_pas_six():
    """The threshold at 4 to 8 players is seven: six districts are not a complete city."""
    e, st, _ = table(4)
    give(e, st, 0, "cité", "Temple", "Église", "Monastère", "Tour de guet", "Prison", "Caserne")
    assert e.quantity("complète", (0,)) is False
    give(e, st, 0, "cité", "Manoir")
    assert e.quantity("complète", (0,)) is True


def test_fin_du_jeu_le_plus_haut_score_gagne_et_l_egalite_va_au_rang_le_plus_eleve():
    """« Le joueur qui a le score le plus élevé est vainqueur. » « En cas d'égalité, la victoire va à celui
    des ex œquo qui avait révélé, au dernier tour, le personnage de rang le plus élevé. Un personnage
    assassiné n'est pas considéré comme révélé. »"""
    e, st, _ = table(4)
    give(e, st, 0, "cité", "Palais")                    # 5
    give(e, st, 1, "cité", "Manoir", "Échoppe")         # 5
    give(e, st, 2, "cité", "Château")                   # 4
    for player, character in ((0, "Roi"), (1, "Marchande"), (2, "Condottiere")):
        choose(e, st, player, character)
        st.vars["révélé"][e.card(character)] = True
    result = e.result()
    assert result.scores == {0: 5, 1: 5, 2: 4, 3: 0}
    assert result.winners == [1], "Joueur 2 revealed rank 6, Joueur 1 rank 4"
    st.vars["assassiné"][e.card("Marchande")] = True
    assert e.result().winners == [0], "the assassinated Marchande is not revealed: the Roi's rank 4 wins"
    give(e, st, 2, "cité", "Taverne", "Temple")
    assert e.result().winners == [2], "the highest score wins, whatever the ranks"


# ==================================================================== « Quelques précisions sur les Merveilles »

def test_dracoport_en_fin_de_partie_2_points_supplementaires():
    """Dracoport (coût 6) : « En fin de partie, 2 points supplémentaires. »"""
    e, st, _ = table(4, "Dracoport")
    give(e, st, 0, "cité", "Dracoport", "Temple")
    assert score(e, 0) == 6 + 1 + 2


def test_musee_1_point_par_carte_placee_dessous():
    """Musée (coût 4) : « en fin de partie, 1 point par carte placée dessous. »"""
    e, st, _ = table(4, "Musée")
    museum, = give(e, st, 0, "cité", "Musée")
    assert score(e, 0) == 4
    for card in give(e, st, 0, "main", "Temple", "Manoir", "Palais"):
        st.put(card, "dessous", museum, "top")
    assert score(e, 0) == 4 + 3


def test_salle_des_cartes_1_point_par_carte_dans_sa_main():
    """Salle des Cartes (coût 5) : « En fin de partie, 1 point par carte dans sa main. »"""
    e, st, _ = table(4, "Salle des Cartes")
    give(e, st, 0, "cité", "Salle des Cartes")
    give(e, st, 0, "main", "Temple", "Palais")
    give(e, st, 1, "main", "Manoir")
    assert score(e, 0) == 5 + 2 and score(e, 1) == 0


def test_fontaine_aux_souhaits_1_point_par_merveille_elle_comprise():
    """Fontaine aux Souhaits (coût 5) : « En fin de partie, 1 point par Merveille de sa cité, elle
    comprise. »"""
    e, st, _ = table(4, "Fontaine aux Souhaits", "Donjon", "Dracoport")
    give(e, st, 0, "cité", "Fontaine aux Souhaits", "Temple")
    assert score(e, 0) == 5 + 1 + 1
    give(e, st, 0, "cité", "Donjon")
    assert score(e, 0) == 5 + 1 + 3 + 2


def test_tresor_imperial_1_point_par_piece_d_or():
    """Trésor Impérial (coût 5) : « En fin de partie, 1 point par pièce d'or de son trésor. »"""
    e, st, _ = table(4, "Trésor Impérial")
    give(e, st, 0, "cité", "Trésor Impérial")
    st.vars["trésor"].update({0: 7, 1: 7})
    assert score(e, 0) == 5 + 7 and score(e, 1) == 0


def test_statue_equestre_5_points_si_on_a_la_couronne():
    """Statue Équestre (coût 3) : « Si on a la Couronne en fin de partie, 5 points supplémentaires. »"""
    e, st, _ = table(4, "Statue Équestre")
    give(e, st, 0, "cité", "Statue Équestre")
    st.vars["couronne"] = 1
    assert score(e, 0) == 3
    st.vars["couronne"] = 0
    assert score(e, 0) == 3 + 5


def test_tour_d_ivoire_5_points_si_c_est_la_seule_merveille():
    """Tour d'Ivoire (coût 5) : « Si c'est la seule Merveille de sa cité en fin de partie, 5 points
    supplémentaires. »"""
    e, st, _ = table(4, "Tour d'Ivoire", "Donjon")
    give(e, st, 0, "cité", "Tour d'Ivoire", "Temple")
    assert score(e, 0) == 5 + 1 + 5
    give(e, st, 0, "cité", "Donjon")
    assert score(e, 0) == 5 + 1 + 3


def test_cour_des_miracles_et_tour_d_ivoire():
    """Tour d'Ivoire : « Si la Cour des Miracles et la Tour d'Ivoire sont dans la méme cité, et si leur
    propriétaire décide de considérer la Cour des Miracles comme n'étant pas une Merveille, il peut alors
    bénéficier du bonus de la Tour d'Ivoire. »  The Cour des Miracles (coût 2) counted as Noble."""
    e, st, _ = table(4, "Tour d'Ivoire", "Cour des Miracles")
    _, court = give(e, st, 0, "cité", "Tour d'Ivoire", "Cour des Miracles")
    assert score(e, 0) == 5 + 2
    st.vars["type_choisi"][court] = "Noble"
    assert score(e, 0) == 5 + 2 + 5


def test_basilique_1_point_par_quartier_de_cout_impair():
    """Basilique (coût 4) : « En fin de partie, 1 point par quartier de sa cité dont le coût est
    impair. »  Temple 1, Monastère 3, Palais 5 are odd, Église 2 is not; an embellished Église is."""
    e, st, _ = table(4, "Basilique")
    _, _, _, _, eglise = give(e, st, 0, "cité", "Basilique", "Temple", "Monastère", "Palais", "Église")
    assert score(e, 0) == 4 + 1 + 3 + 5 + 2 + 3
    st.vars["embellissement"][eglise] = 1
    assert score(e, 0) == 4 + 1 + 3 + 5 + 3 + 4


def test_catacombes_la_reveler_de_sa_main_rapporte_3_points():
    """Catacombes (coût 0) : « En fin de partie, la révéler de sa main rapporte 3 points. »"""
    e, st, _ = table(4, "Catacombes")
    give(e, st, 0, "main", "Catacombes")
    assert score(e, 0) == 3 and score(e, 1) == 0


def test_capitole_3_points_avec_au_moins_3_quartiers_d_un_meme_type():
    """Capitole (coût 5) : « Si on a au moins 3 quartiers d'un même type en fin de partie, 3 points
    supplémentaires. »  Two Religieux: nothing; three: +3; four: still +3 (« qu'une seule fois »)."""
    e, st, _ = table(4, "Capitole")
    give(e, st, 0, "cité", "Capitole", "Temple", "Église", "Manoir")
    assert score(e, 0) == 5 + 1 + 2 + 3
    give(e, st, 0, "cité", "Monastère")
    assert score(e, 0) == 5 + 1 + 2 + 3 + 3 + 3
    give(e, st, 0, "cité", "Cathédrale")
    assert score(e, 0) == 5 + 1 + 2 + 3 + 3 + 5 + 3


def test_monument_compte_pour_2_quartiers_et_pas_avec_5_quartiers_ou_plus():
    """Monument (coût 4) : « Ne peut pas être bâti si on a déjà 5 quartiers ou plus; compte pour 2
    quartiers pour compléter sa cité. »  Four districts: it may be built; five: not; with five others it
    makes a complete city of six cards."""
    e, st, _ = table(4, "Monument")
    monument, = give(e, st, 0, "main", "Monument")
    choose(e, st, 0, "Marchande")
    st.vars["personnage_actif"] = e.card("Marchande")
    st.vars["trésor"][0] = 9
    give(e, st, 0, "cité", "Temple", "Église", "Monastère", "Tour de guet")
    assert e.legal("bâtir", (0, monument))[0]
    give(e, st, 0, "cité", "Prison")
    legal, forbidding, _, _ = e.legal("bâtir", (0, monument))
    assert not legal and forbidding
    st.put(monument, "cité", 0, "top")
    e.invalidate()
    assert e.quantity("taille_cité", (0,)) == 7 and e.quantity("complète", (0,)) is True
    assert score(e, 0) == 1 + 2 + 3 + 1 + 2 + 4 + 2, "complete, not the first (placed, not built): +2"


def test_mine_d_or_recevoir_1_piece_d_or_de_plus():
    """Mine d'Or : « Quand on choisit l'or en recevant ses ressources, recevoir 1 pièce d'or de plus. »
    2 + 1 = 3 with it, 2 without (the same turn, nothing else taken)."""
    player = 0
    for wonder, gold in (("Mine d'Or", 3), ("Donjon", 2)):
        e, st, agents = table(4, wonder, scripts=[["pièces", "Terminer son tour"], [], [], []])
        choose(e, st, player, "Marchande")
        give(e, st, player, "cité", wonder)
        e.call("tour", (player, e.card("Marchande")))
        assert st.vars["trésor"][player] == gold, wonder
        assert agents[player].answers == []
