"""Scenario tests for the characters' powers and the Merveilles, named after the rulebook
paragraph they check (« Pouvoirs des personnages », « Quelques précisions sur les Merveilles »).

Each test builds a game with ``Engine.start`` (nothing is played), places the cards, sets the
markers, then drives one turn (``tour``), one call (``appel``) or one window, with every
player's answers scripted by the exact label the engine offers.  A question a script does not
answer fails the test (ScriptError), so a script is also a check of what was asked.
"""

from __future__ import annotations

import pytest

from checker.front.configurations import select
from checker.runtime.agents import RandomAgent, ScriptedAgent
from conftest import bundled
from test_scenarios import engine, names, setup


def setup_with(config: str, players: int, scripts: list[list[str]], swap: dict[str, str]):
    """Like ``setup``, with some cards of the configuration replaced (« D'autres manières de jouer »:
    any selection of one character per rank is a legal game)."""
    e = engine()
    e.recording = True
    program = bundled().program
    cards = {kind: tuple(swap.get(n, n) for n in chosen)
             for kind, chosen in select(program, program.configurations[config], players).cards.items()}
    agents = [ScriptedAgent(s) for s in scripts]
    st = e.start(cards, players, 0, agents)
    return e, st, agents


def give(e, st, player: int, zone: str, *cards: str) -> list[int]:
    """Put the first free copy of each named card in ``zone[player]`` (free: still in the pile)."""
    placed = []
    for name in cards:
        card = next(c for c in e.instances[e.def_ids[name]] if st.where[c][0] == "pioche")
        st.put(card, zone, player, "top")
        placed.append(card)
    return placed


def choose(e, st, player: int, *characters: str) -> None:
    for name in characters:
        st.put(e.card(name), "choisis", player, "top")


def offered(agent) -> list[str]:
    """Every label a scripted agent was shown, over all its decisions."""
    return [label for _prompt, labels, _answer in agent.seen for label in labels]


def prompts(agent) -> list[str]:
    return [prompt for prompt, _labels, _answer in agent.seen]


# ==================================================================== rang 1

def test_assassin_le_personnage_assassine_passe_son_tour():
    """Assassin : « Lorsque le personnage assassiné sera appelé, il ne se révélera pas et passera donc
    son tour. »"""
    killer, victim = 0, 1
    e, st, agents = setup("Première partie", 4, [
        ["pièces", "assassinat (Assassin)", "Marchande", "Terminer son tour"], [], [], []])
    choose(e, st, killer, "Assassin")
    choose(e, st, victim, "Marchande")
    give(e, st, victim, "main", "Marché")
    st.vars["trésor"].update({killer: 0, victim: 5})

    e.call("tour", (killer, e.card("Assassin")))
    assert st.vars["assassiné"][e.card("Marchande")] is True
    e.call("appel", (6,))

    assert agents[victim].seen == [], "the assassinated player is asked nothing: no resources, no build"
    assert st.vars["révélé"].get(e.card("Marchande"), False) is False, "il ne se révélera pas"
    assert st.vars["trésor"][victim] == 5 and names(e, st.zone("cité", victim)) == []
    legal, forbidding, _, _ = e.legal("assassiner", (killer, e.card("Assassin")))
    assert not legal and forbidding == ["assassin_pas_lui_même"]


def test_sorciere_le_personnage_ensorcele_recoit_ses_ressources_et_son_tour_se_termine():
    """Sorcière : « Lorsque le personnage ensorcelé est appelé, le joueur le révèle, reçoit ses
    ressources, et son tour se termine. » puis « Vous reprenez alors votre tour interrompu, comme si
    vous étiez le personnage ensorcelé. … Vous jouez avec les cartes de votre main, payez avec votre
    or … et construisez des quartiers dans votre cité. »"""
    witch, victim = 0, 1
    e, st, agents = setup("Confrontation", 4, [
        ["pièces", "Architecte",                                  # her own turn: resources, then the spell
         "deux_cartes (Architecte)",                              # resumed as the Architecte
         "bâtir(Joueur 1, Temple)", "bâtir(Joueur 1, Église)", "bâtir(Joueur 1, Monastère)"],
        ["pièces"], [], []])
    choose(e, st, witch, "Sorcière")
    choose(e, st, victim, "Architecte")
    give(e, st, witch, "main", "Temple", "Église", "Monastère")
    give(e, st, victim, "main", "Caserne", "Manoir")
    st.vars["trésor"].update({witch: 4, victim: 5})

    e.call("tour", (witch, e.card("Sorcière")))
    assert st.vars["ensorcelé_par"][e.card("Architecte")] == witch
    assert names(e, st.zone("cité", witch)) == [], "« Vous ne pouvez donc pas à ce moment bâtir de quartier »"
    assert st.vars["trésor"][witch] == 6
    hand_before = len(st.zone("main", witch))

    e.call("tour", (victim, e.card("Architecte")))

    assert st.vars["révélé"][e.card("Architecte")] is True, "le joueur le révèle"
    assert st.vars["trésor"][victim] == 5 + 2, "reçoit ses ressources"
    assert agents[victim].seen == [("recevoir_des_ressources — choisir r", ["pièces", "cartes"], "pièces")], \
        "… et son tour se termine: no build, no power offered to the bewitched player"
    assert names(e, st.zone("cité", victim)) == [] and len(st.zone("main", victim)) == 2
    # the witch plays as the Architecte: its power, its permit of three, her hand, her gold, her city
    assert names(e, st.zone("cité", witch)) == ["Temple", "Église", "Monastère"]
    assert st.vars["trésor"][witch] == 6 - 1 - 2 - 3
    assert len(st.zone("main", witch)) == hand_before + 2 - 3
    assert agents[witch].answers == [], "the whole script was used"


def test_sorciere_si_le_personnage_ensorcele_n_est_pas_en_jeu_son_tour_ne_reprend_pas():
    """Sorcière : « Si le personnage ensorcelé n'est pas en jeu ce tour-ci, votre tour ne reprend pas. »
    and Parc / Hospice : « Si la Sorcière ne reprend pas son tour de jeu, elle ne le termine donc pas et
    ne peut pas utiliser l'effet du Parc [de l'Hospice] à la fin de son tour. »"""
    witch, other = 0, 1
    e, st, agents = setup("Confrontation", 4, [
        ["cartes", "Temple", "Architecte"], ["pièces", "Terminer son tour"], [], []])
    choose(e, st, witch, "Sorcière")
    choose(e, st, other, "Condottiere")                          # nobody chose the Architecte
    give(e, st, witch, "cité", "Parc", "Hospice")
    st.vars["trésor"].update({witch: 0, other: 0})
    for card in ("Temple", "Église"):                           # the two cards she draws
        st.put(e.instances[e.def_ids[card]][0], "pioche", None, "top")

    for rank in range(1, 10):
        e.call("appel", (rank,))
    e.signal("fin_des_appels", ())

    assert agents[witch].answers == [], "she drew, kept the Temple and bewitched the Architecte"
    assert prompts(agents[witch])[-1] == "ensorcellement (Sorcière) — choisir cible", \
        "nothing was offered to her after the spell: her turn never resumed"
    assert names(e, st.zone("main", witch)) == ["Temple"], "the Temple is not built, the Parc does not draw"
    assert st.vars["trésor"][witch] == 0, "the Hospice gives nothing: her turn did not end"
    assert names(e, st.zone("cité", witch)) == ["Parc", "Hospice"]


def test_sorciere_annoncez_le_personnage_que_vous_ensorcelez():
    """Sorcière : « Ensuite, annoncez le personnage que vous ensorcelez, puis interrompez votre tour. »
    The spell is mandatory (decision sorcière_pouvoir_obligatoire) and names another character
    (decision cible_autre_que_soi): naming herself must not be offered, or she would escape the
    interruption and go on playing (and building) as the Sorcière."""
    witch = 0
    e, st, agents = setup("Confrontation", 4, [["pièces", "Architecte"], [], [], []])
    choose(e, st, witch, "Sorcière")
    give(e, st, witch, "main", "Temple")
    st.vars["trésor"][witch] = 3

    e.call("tour", (witch, e.card("Sorcière")))

    prompt, labels, _ = agents[witch].seen[-1]
    assert prompt == "ensorcellement (Sorcière) — choisir cible"
    assert "Sorcière" not in labels and len(labels) == 7
    assert st.vars["interrompu"][e.card("Sorcière")] is True
    assert agents[witch].answers == [], "nothing is offered after the spell"
    assert names(e, st.zone("cité", witch)) == [], "« Vous ne pouvez donc pas à ce moment bâtir de quartier »"
    legal, forbidding, _, _ = e.legal("bâtir", (witch, st.zone("main", witch)[0]))
    assert not legal and forbidding == ["sorcière_tour_interrompu"]


def test_sorciere_si_le_roi_est_ensorcele_il_prend_quand_meme_la_couronne():
    """Sorcière : « Si le Roi ou le Patricien est ensorcelé, il prend quand méme la Couronne. »
    The Sorcière, resuming as the Roi, collects the Roi's income for her own Noble districts."""
    witch, king = 0, 1
    e, st, agents = setup("Confrontation", 2, [
        ["pièces", "Roi", "revenus_du_roi (Roi)", "Terminer son tour"], ["pièces"]])
    choose(e, st, witch, "Sorcière")
    choose(e, st, king, "Roi")
    give(e, st, witch, "cité", "Manoir", "Palais")
    give(e, st, king, "cité", "Château")
    st.vars["couronne"] = witch
    st.vars["trésor"].update({witch: 0, king: 0})

    e.call("tour", (witch, e.card("Sorcière")))
    e.call("tour", (king, e.card("Roi")))

    assert st.vars["couronne"] == king, "the bewitched Roi still takes the Crown"
    assert st.vars["trésor"][witch] == 2 + 2, "her resources, then the Roi's income for her two Noble districts"
    assert st.vars["trésor"][king] == 2, "the bewitched player only receives his resources"


def test_sorciere_si_le_patricien_est_ensorcele_il_prend_quand_meme_la_couronne():
    """Sorcière : « Si le Roi ou le Patricien est ensorcelé, il prend quand méme la Couronne. »"""
    witch, patrician = 0, 1
    e, st, agents = setup_with("Confrontation", 4, [
        ["pièces", "Patricien", "revenus_du_patricien (Patricien)", "Terminer son tour"], ["pièces"], [], []],
        swap={"Empereur": "Patricien"})
    choose(e, st, witch, "Sorcière")
    choose(e, st, patrician, "Patricien")
    give(e, st, witch, "cité", "Manoir")
    st.vars["couronne"] = witch

    e.call("tour", (witch, e.card("Sorcière")))
    hand = len(st.zone("main", witch))
    e.call("tour", (patrician, e.card("Patricien")))

    assert st.vars["couronne"] == patrician
    assert len(st.zone("main", witch)) == hand + 1, "the Patricien's income (1 card per Noble district) is hers"


def test_sorciere_si_l_empereur_est_ensorcele_c_est_la_sorciere_qui_donne_la_couronne():
    """Sorcière : « Si l'Empereur est ensorcelé, en revanche, c'est la Sorcière qui décide à qui donner
    la Couronne et qui prend une ressource de ce joueur. »  Empereur : « Vous ne pouvez ni prendre la
    Couronne pour vous-même ni la laisser au joueur qui l'avait auparavant. »"""
    witch, emperor, crowned, other = 0, 1, 2, 3
    e, st, agents = setup("Confrontation", 4, [
        ["pièces", "Empereur", "couronne_impériale (Empereur)", "Joueur 4", "Terminer son tour"],
        ["pièces"], [], []])
    choose(e, st, witch, "Sorcière")
    choose(e, st, emperor, "Empereur")
    st.vars["couronne"] = crowned
    st.vars["trésor"].update({witch: 0, emperor: 0, crowned: 0, other: 3})

    e.call("tour", (witch, e.card("Sorcière")))
    e.call("tour", (emperor, e.card("Empereur")))

    assert st.vars["couronne"] == other
    assert st.vars["trésor"][other] == 2 and st.vars["trésor"][witch] == 2 + 1, \
        "the new holder pays the Sorcière (he has no cards: 1 gold)"
    assert agents[emperor].seen[1:] == [], "the bewitched Empereur decides nothing"
    crown_question = [labels for prompt, labels, _ in agents[witch].seen if "choisir q" in prompt]
    assert crown_question == [["Joueur 2", "Joueur 4"]], \
        "neither herself nor the player who held the Crown can be chosen"


def test_echevin_le_quartier_confisque_compte_dans_le_permis_et_l_or_est_rendu():
    """Échevin : « Vous confisquez alors le quartier qui allait étre bâti pour le mettre directement et
    gratuitement dans votre cité. Le quartier confisqué n'est pas ajouté à la cité du joueur ciblé, mais
    il compte quand méme dans son permis de construire. Le joueur dont le quartier est confisqué récupère
    l'or payé à la banque pour le bâtir. »"""
    alderman, builder = 0, 1
    e, st, agents = setup("Développement", 4, [
        ["oui"], ["pièces", "bâtir(Joueur 2, Château)", "Terminer son tour"], [], []])
    choose(e, st, alderman, "Échevin")
    choose(e, st, builder, "Évêque")
    give(e, st, builder, "main", "Château", "Temple")
    st.vars["trésor"].update({alderman: 1, builder: 3})
    st.vars["mandat"][e.card("Évêque")] = "signé"

    e.call("tour", (builder, e.card("Évêque")))

    assert names(e, st.zone("cité", alderman)) == ["Château"], "directement et gratuitement dans votre cité"
    assert st.vars["trésor"][alderman] == 1
    assert names(e, st.zone("cité", builder)) == []
    assert st.vars["trésor"][builder] == 3 + 2, "the 4 gold paid for the Château are given back"
    assert st.vars["quartiers_bâtis"] == 1
    after = agents[builder].seen[-1][1]
    assert not any(label.startswith("bâtir") for label in after), "the permit of one district is used up"
    legal, forbidding, _, _ = e.legal("bâtir", (builder, st.zone("main", builder)[0]))
    assert not legal and forbidding == ["permis_de_construire_limité"]


def test_echevin_pas_de_confiscation_d_un_quartier_identique():
    """Échevin : « Vous ne pouvez pas confisquer un quartier si vous en avez déjà un identique dans
    votre cité. »"""
    alderman, builder = 0, 1
    e, st, agents = setup("Développement", 4, [
        [], ["pièces", "bâtir(Joueur 2, Château)", "Terminer son tour"], [], []])
    choose(e, st, alderman, "Échevin")
    choose(e, st, builder, "Évêque")
    give(e, st, alderman, "cité", "Château")
    give(e, st, builder, "main", "Château", "Temple")
    st.vars["trésor"].update({alderman: 1, builder: 3})
    st.vars["mandat"][e.card("Évêque")] = "signé"

    e.call("tour", (builder, e.card("Évêque")))

    assert agents[alderman].seen == [], "the Échevin is not offered a confiscation he may not make"
    assert names(e, st.zone("cité", builder)) == ["Château"]
    assert names(e, st.zone("cité", alderman)) == ["Château"]
    assert st.vars["trésor"][builder] == 1


def test_chantier_l_echevin_peut_confisquer_le_premier_autre_quartier():
    """Chantier : « L'Échevin ne peut pas confisquer un quartier bâti en détruisant le Chantier, mais il
    peut confisquer le premier autre quartier bâti par son propriétaire. »"""
    alderman, architect = 0, 1
    e, st, agents = setup("Développement", 4, [
        ["oui"],
        ["pièces", "bâtir_en_détruisant_le_chantier(Joueur 2, Palais)", "bâtir(Joueur 2, Manoir)",
         "Terminer son tour"], [], []])
    choose(e, st, alderman, "Échevin")
    choose(e, st, architect, "Architecte")
    give(e, st, architect, "cité", "Chantier")
    give(e, st, architect, "main", "Palais", "Manoir")
    st.vars["trésor"].update({alderman: 0, architect: 1})
    st.vars["mandat"][e.card("Architecte")] = "signé"

    e.call("tour", (architect, e.card("Architecte")))

    assert names(e, st.zone("cité", architect)) == ["Palais"]
    assert names(e, st.zone("cité", alderman)) == ["Manoir"], "the first paid district is confiscated"
    assert st.vars["trésor"][architect] == 3


def test_ecuries_confisquees_le_joueur_peut_quand_meme_batir():
    """Écuries : « Si les Écuries sont confisquées par l'Échevin, le joueur peut quand même bâtir un
    autre quartier ce tour-ci. »"""
    alderman, builder = 0, 1
    e, st, agents = setup("Développement", 4, [
        ["oui"], ["pièces", "bâtir(Joueur 2, Écuries)", "bâtir(Joueur 2, Manoir)", "Terminer son tour"], [], []])
    choose(e, st, alderman, "Échevin")
    choose(e, st, builder, "Évêque")
    give(e, st, builder, "main", "Écuries", "Manoir")
    st.vars["trésor"].update({alderman: 0, builder: 3})
    st.vars["mandat"][e.card("Évêque")] = "signé"

    e.call("tour", (builder, e.card("Évêque")))

    assert names(e, st.zone("cité", alderman)) == ["Écuries"]
    assert names(e, st.zone("cité", builder)) == ["Manoir"]
    assert st.vars["trésor"][builder] == 5 - 3


# ==================================================================== rang 2

def test_voleur_ni_le_rang_1_ni_l_assassine_ni_l_ensorcele():
    """Voleur : « Vous ne pouvez voler ni le personnage de rang 1 (Assassin, Sorcière ou Échevin) ni le
    personnage assassiné ou ensorcelé. »"""
    thief, witch = 0, 1
    e, st, _ = setup_with("Tranquille", 4, [[], [], [], []], swap={"Espion": "Voleur"})
    choose(e, st, thief, "Voleur")
    choose(e, st, witch, "Sorcière")

    def forbidden_by(target: str) -> list[str]:
        legal, forbidding, _, _ = e.legal("voler", (thief, e.card(target)))
        assert legal == (forbidding == [])
        return forbidding

    assert forbidden_by("Marchande") == [] and forbidden_by("Empereur") == []
    assert forbidden_by("Sorcière") == ["voleur_cibles"]
    st.vars["assassiné"][e.card("Marchande")] = True
    assert forbidden_by("Marchande") == ["voleur_cibles"]
    st.vars["ensorcelé_par"][e.card("Empereur")] = witch
    assert forbidden_by("Empereur") == ["voleur_cibles"]
    assert forbidden_by("Voleur") == ["voleur_pas_lui_même"]
    for config, rank_1 in (("Première partie", "Assassin"), ("Développement", "Échevin")):
        e, st, _ = setup(config, 4, [[], [], [], []])
        legal, forbidding, _, _ = e.legal("voler", (thief, e.card(rank_1)))
        assert not legal and forbidding == ["voleur_cibles"], rank_1


def test_voleur_lorsque_le_personnage_vole_est_revele_vous_lui_prenez_toutes_ses_pieces():
    """Voleur : « Lorsque le personnage volé sera appelé et révélé, vous lui prendrez toutes ses pièces
    d'or. »  The gold is taken on revelation, before the victim receives his resources."""
    thief, victim = 0, 1
    e, st, agents = setup("Première partie", 4, [[], ["pièces", "Terminer son tour"], [], []])
    choose(e, st, thief, "Voleur")
    choose(e, st, victim, "Marchande")
    st.vars["trésor"].update({thief: 1, victim: 4})
    st.vars["volé_par"][e.card("Marchande")] = thief
    e.call("tour", (victim, e.card("Marchande")))
    assert st.vars["trésor"][thief] == 1 + 4
    assert st.vars["trésor"][victim] == 2


# ==================================================================== rangs 5 et 8

def test_eveque_ses_quartiers_ne_peuvent_pas_etre_affectes_par_le_rang_8():
    """Évêque : « Vos quartiers ne peuvent pas étre affectés par les pouvoirs des personnages de rang 8 »
    and « Si vous êtes assassiné, vous n'êtes plus Évêque ; vous êtes mort, et vos Quartiers peuvent donc
    étre la cible des personnages de rang 8. »"""
    bishop, warlord = 1, 2
    e, st, _ = setup("Première partie", 4, [[], [], [], []])
    choose(e, st, bishop, "Évêque")
    choose(e, st, warlord, "Condottiere")
    (temple,) = give(e, st, bishop, "cité", "Temple")
    st.vars["trésor"][warlord] = 5
    st.vars["personnage_actif"] = e.card("Condottiere")

    legal, forbidding, _, _ = e.legal("détruire_par_le_condottiere", (warlord, bishop, temple))
    assert not legal and forbidding == ["évêque_protège"]
    st.vars["assassiné"][e.card("Évêque")] = True
    legal, forbidding, _, _ = e.legal("détruire_par_le_condottiere", (warlord, bishop, temple))
    assert legal and forbidding == []


def test_eveque_ensorcele_les_quartiers_de_la_sorciere_sont_proteges():
    """Évêque : « De même, si vous êtes ensorcelé, les quartiers de la Sorcière sont protégés contre les
    personnages de rang 8, mais pas les vôtres. »"""
    witch, bishop, warlord = 0, 1, 2
    e, st, _ = setup("Tranquille", 4, [[], [], [], []])      # Sorcière, Évêque, Diplomate
    choose(e, st, witch, "Sorcière")
    choose(e, st, bishop, "Évêque")
    choose(e, st, warlord, "Diplomate")
    (hers,) = give(e, st, witch, "cité", "Temple")
    (his,) = give(e, st, bishop, "cité", "Église")
    (mine,) = give(e, st, warlord, "cité", "Monastère")
    st.vars["trésor"][warlord] = 5
    st.vars["ensorcelé_par"][e.card("Évêque")] = witch
    legal, forbidding, _, _ = e.legal("échanger", (warlord, hers, witch, mine))
    assert not legal and forbidding == ["évêque_protège"]
    assert e.legal("échanger", (warlord, his, bishop, mine))[0]


def test_condottiere_pas_de_destruction_dans_une_cite_complete():
    """Condottiere : « Vous ne pouvez pas détruire un quartier d'une cité déjà complète. »"""
    warlord, owner = 0, 1
    e, st, _ = setup("Première partie", 4, [[], [], [], []])
    choose(e, st, warlord, "Condottiere")
    city = give(e, st, owner, "cité", "Temple", "Église", "Monastère", "Caserne", "Manoir", "Château")
    st.vars["trésor"][warlord] = 9
    assert e.legal("détruire_par_le_condottiere", (warlord, owner, city[0]))[0], "six districts: not complete"
    give(e, st, owner, "cité", "Palais")
    legal, forbidding, _, _ = e.legal("détruire_par_le_condottiere", (warlord, owner, city[0]))
    assert not legal and forbidding == ["détruire_cité_complète"]


def test_condottiere_detruire_un_quartier_en_payant_son_cout_moins_1():
    """Condottiere : « Vous pouvez détruire un quartier de votre choix dans une cité en payant son coût de
    construction moins 1. » — « Les quartiers détruits sont défaussés, face cachée, en dessous de la
    pioche. »"""
    warlord, bishop, owner = 0, 1, 2
    e, st, agents = setup("Première partie", 4, [
        ["pièces", "détruire_un_quartier (Condottiere)", "Joueur 3", "Château", "Terminer son tour"], [], [], []])
    choose(e, st, warlord, "Condottiere")
    choose(e, st, bishop, "Évêque")
    give(e, st, bishop, "cité", "Temple")
    give(e, st, owner, "cité", "Château", "Taverne")
    give(e, st, 3, "cité", "Tour de guet")
    st.vars["trésor"][warlord] = 1
    e.call("tour", (warlord, e.card("Condottiere")))
    assert names(e, st.zone("cité", owner)) == ["Taverne"]
    assert st.vars["trésor"][warlord] == 1 + 2 - 3
    assert e.show_card(st.zone("pioche")[0]) == "Château"


def test_eveque_la_cite_de_l_eveque_n_est_pas_une_cible_du_condottiere():
    """Évêque : « Vos quartiers ne peuvent pas étre affectés par les pouvoirs des personnages de rang 8 »
    — the Évêque's city is not a target the Condottiere may choose (choosing it would use his power up
    with nothing destroyed)."""
    warlord, bishop, owner, other = 0, 1, 2, 3
    e, st, agents = setup("Première partie", 4, [
        ["pièces", "détruire_un_quartier (Condottiere)", "Joueur 3", "Terminer son tour"], [], [], []])
    choose(e, st, warlord, "Condottiere")
    choose(e, st, bishop, "Évêque")
    give(e, st, bishop, "cité", "Temple")
    give(e, st, owner, "cité", "Taverne")
    give(e, st, other, "cité", "Tour de guet")
    st.vars["trésor"][warlord] = 0
    e.call("tour", (warlord, e.card("Condottiere")))
    assert names(e, st.zone("cité", owner)) == []
    targets = [labels for prompt, labels, _ in agents[warlord].seen if prompt.endswith("choisir q")]
    assert targets == [["Joueur 3", "Joueur 4"]], "the Évêque's player (Joueur 2) is not offered"


# ==================================================================== rang 6, 7

def test_hospice_l_alchimiste_utilise_l_effet_de_l_hospice_avant_son_propre_pouvoir():
    """Hospice : « L'Alchimiste utilise l'effet de l'Hospice avant d'appliquer son propre pouvoir. »
    Alchimiste : « À la fin de votre tour, tout l'or que vous avez dépensé pour bâtir des quartiers vous
    est rendu. »  Having spent all his gold building, he has none when the Hospice applies: it gives him
    1, then the Alchimiste gives back the 3 spent."""
    alchemist = 1
    e, st, agents = setup("Confrontation", 4, [
        [], ["pièces", "bâtir(Joueur 2, Monastère)", "oui"], [], []])
    choose(e, st, alchemist, "Alchimiste")
    give(e, st, alchemist, "cité", "Hospice")
    give(e, st, alchemist, "main", "Monastère")
    st.vars["trésor"][alchemist] = 1

    e.call("tour", (alchemist, e.card("Alchimiste")))

    assert agents[alchemist].seen[-1][0] == "utiliser hospice_recevoir (Hospice) ?"
    assert st.vars["trésor"][alchemist] == 1 + 3


def test_alchimiste_l_or_depense_pour_d_autres_raisons_n_est_pas_rendu():
    """Alchimiste : « L'or dépensé pour d'autres raisons (par exemple pour la Forge ou pour payer le Bailli)
    ne vous est pas rendu. »"""
    alchemist = 1
    e, st, agents = setup("Confrontation", 4, [
        [], ["pièces", "forge_piocher (Forge)", "bâtir(Joueur 2, Temple)", "Terminer son tour"], [], []])
    choose(e, st, alchemist, "Alchimiste")
    give(e, st, alchemist, "cité", "Forge")
    give(e, st, alchemist, "main", "Temple")
    st.vars["trésor"][alchemist] = 1
    e.call("tour", (alchemist, e.card("Alchimiste")))
    assert names(e, st.zone("cité", alchemist)) == ["Forge", "Temple"]
    assert st.vars["trésor"][alchemist] == 1 + 2 - 2 - 1 + 1, "the Temple's 1 gold comes back, not the Forge's 2"


def test_parc_si_on_n_a_aucune_carte_en_main_a_la_fin_de_son_tour_piocher_2_cartes():
    """Parc : « Si on n'a aucune carte en main à la fin de son tour, piocher 2 cartes. »"""
    owner = 1
    e, st, agents = setup("Confrontation", 4, [
        [], ["pièces", "bâtir(Joueur 2, Temple)", "oui"], [], []])
    choose(e, st, owner, "Abbé")
    give(e, st, owner, "cité", "Parc")
    give(e, st, owner, "main", "Temple")
    st.vars["trésor"][owner] = 0
    # the Abbé's powers are still offered after the build: ending the turn is then a choice
    agents[owner].answers[2:2] = ["Terminer son tour"]

    e.call("tour", (owner, e.card("Abbé")))

    assert agents[owner].seen[-1][0] == "utiliser parc_piocher (Parc) ?"
    assert len(st.zone("main", owner)) == 2


def test_parc_la_sorciere_qui_reprend_son_tour_le_termine():
    """Parc : « Si la Sorcière ne reprend pas son tour de jeu, elle ne le termine donc pas … » — and so,
    when she does resume it, she ends it: with an empty hand, her Parc draws 2 cards."""
    witch, victim = 0, 1
    e, st, agents = setup("Confrontation", 4, [
        ["pièces", "Abbé", "bâtir(Joueur 1, Temple)", "Terminer son tour", "oui"], ["cartes", "Taverne"], [], []])
    choose(e, st, witch, "Sorcière")
    choose(e, st, victim, "Abbé")
    give(e, st, witch, "cité", "Parc")
    give(e, st, witch, "main", "Temple")
    give(e, st, victim, "cité", "Hospice")
    st.vars["trésor"].update({witch: 0, victim: 0})
    for card in ("Marché", "Taverne"):                          # the two cards the bewitched player draws
        st.put(e.instances[e.def_ids[card]][0], "pioche", None, "top")

    e.call("tour", (witch, e.card("Sorcière")))
    e.call("tour", (victim, e.card("Abbé")))

    assert names(e, st.zone("cité", witch)) == ["Parc", "Temple"]
    assert len(st.zone("main", witch)) == 2, "her own Parc, at the end of the turn she resumed"
    assert names(e, st.zone("main", victim)) == ["Taverne"]
    assert st.vars["trésor"][victim] == 0, "the bewitched player's turn just stops: his Hospice does nothing"


def test_navigatrice_ne_peut_batir_aucun_quartier_meme_par_une_merveille():
    """Navigatrice : « Vous ne pouvez bâtir aucun quartier durant votre tour, méme ceux auxquels pourrait
    vous donner droit l'effet d'une Merveille. »"""
    navigator = 1
    e, st, agents = setup("Bluff", 4, [
        [], ["pièces", "quatre_ressources (Navigatrice)", "pièces", "Terminer son tour"], [], []])
    choose(e, st, navigator, "Navigatrice")
    give(e, st, navigator, "cité", "Chantier", "Temple")
    hand = give(e, st, navigator, "main", "Écuries", "Tripot", "Nécropole", "Manoir")
    st.vars["trésor"][navigator] = 10

    e.call("tour", (navigator, e.card("Navigatrice")))

    assert not any("bâtir" in label for label in offered(agents[navigator]))
    assert st.vars["trésor"][navigator] == 10 + 2 + 4
    assert names(e, st.zone("cité", navigator)) == ["Chantier", "Temple"]
    écuries, tripot, nécropole, manoir = hand
    temple = st.zone("cité", navigator)[1]
    for action, args in (("bâtir", (navigator, écuries)), ("bâtir", (navigator, manoir)),
                         ("bâtir_le_tripot", (navigator, tripot)),
                         ("bâtir_la_nécropole", (navigator, nécropole, temple)),
                         ("bâtir_en_détruisant_le_chantier", (navigator, manoir))):
        legal, forbidding, _, _ = e.legal(action, args)
        assert not legal and forbidding == ["navigatrice_ne_bâtit_pas"], action


def test_architecte_jusqu_a_trois_quartiers_et_les_ecuries_hors_permis():
    """Architecte : « Vous pouvez bâtir jusqu'à trois quartiers durant votre tour. »  Écuries : « Bâtir
    les Écuries ne compte pas dans le permis de construire du tour. »"""
    architect = 1
    e, st, agents = setup("Développement", 4, [
        [], ["pièces", "bâtir(Joueur 2, Écuries)", "bâtir(Joueur 2, Temple)", "bâtir(Joueur 2, Église)",
             "bâtir(Joueur 2, Monastère)", "Terminer son tour"], [], []])
    choose(e, st, architect, "Architecte")
    give(e, st, architect, "main", "Écuries", "Temple", "Église", "Monastère", "Manoir")
    st.vars["trésor"][architect] = 20

    e.call("tour", (architect, e.card("Architecte")))

    assert names(e, st.zone("cité", architect)) == ["Écuries", "Temple", "Église", "Monastère"]
    last = agents[architect].seen[-1][1]
    assert last == ["deux_cartes (Architecte)", "Terminer son tour"], "a fifth district (the Manoir) is not offered"
    assert st.vars["trésor"][architect] == 22 - 2 - 1 - 2 - 3


# ==================================================================== rang 9

def test_bailli_taxe_apres_avoir_bati_un_quartier():
    """Bailli : « Immédiatetnent après avoir bâti un quartier, un joueur doit payer 1 pièce d'or qui est
    placée sur le jeton Personnage du Bailli. … Si, après avoir bâti un quartier, un joueur n'a plus
    d'or, il ne paie pas la taxe. Le Bailli lui-même ne la paie pas non plus. »"""
    payer, broke, bailiff = 0, 1, 2
    e, st, agents = setup("Confrontation", 8, [
        ["pièces", "bâtir(Joueur 1, Temple)", "Terminer son tour"],
        ["pièces", "bâtir(Joueur 2, Château)", "Terminer son tour"],
        ["pièces", "bâtir(Joueur 3, Manoir)", "Terminer son tour"]] + [[]] * 5)
    bailli = e.card("Bailli")
    choose(e, st, payer, "Abbé")
    choose(e, st, broke, "Condottiere")
    choose(e, st, bailiff, "Bailli")
    give(e, st, payer, "main", "Temple")
    give(e, st, broke, "main", "Château")
    give(e, st, bailiff, "main", "Manoir")
    st.vars["trésor"].update({payer: 1, broke: 2, bailiff: 5})

    e.call("tour", (payer, e.card("Abbé")))
    assert st.vars["trésor"][payer] == 1 + 2 - 1 - 1 and st.vars["jeton"][bailli] == 1
    e.call("tour", (broke, e.card("Condottiere")))
    assert st.vars["trésor"][broke] == 0 and st.vars["jeton"][bailli] == 1, "no gold left: no tax"
    e.call("tour", (bailiff, e.card("Bailli")))
    assert st.vars["trésor"][bailiff] == 5 + 2 - 3 and st.vars["jeton"][bailli] == 1, "the Bailli pays no tax"


def test_bailli_plusieurs_quartiers_une_taxe_pour_chacun():
    """Bailli : « Si un joueur bâtit plusieurs quartiers durant son tour, il doit payer la taxe après avoir
    bâti chacun d'entre eux. »"""
    architect, bailiff = 0, 1
    e, st, agents = setup("Confrontation", 8, [
        ["pièces", "bâtir(Joueur 1, Temple)", "bâtir(Joueur 1, Église)", "Terminer son tour"]] + [[]] * 7)
    choose(e, st, architect, "Architecte")
    choose(e, st, bailiff, "Bailli")
    give(e, st, architect, "main", "Temple", "Église")
    st.vars["trésor"][architect] = 4
    e.call("tour", (architect, e.card("Architecte")))
    assert st.vars["jeton"][e.card("Bailli")] == 2
    assert st.vars["trésor"][architect] == 6 - 1 - 1 - 2 - 1


def test_bailli_taxe_due_meme_sans_payer_d_or():
    """Bailli : « Cette taxe est due même lorsque le joueur n'a pas eu à payer d'or pour bâtir le
    quartier. »  Nécropole : « On peut bâtir la Nécropole en détruisant un quartier de sa cité au lieu de
    payer son coût. »"""
    builder, bailiff = 0, 1
    e, st, agents = setup("Confrontation", 8, [
        ["pièces", "bâtir_la_nécropole(Joueur 1, Nécropole, Temple)", "Terminer son tour"]] + [[]] * 7)
    choose(e, st, builder, "Abbé")
    choose(e, st, bailiff, "Bailli")
    give(e, st, builder, "cité", "Temple", "Église")
    give(e, st, builder, "main", "Nécropole")
    st.vars["trésor"][builder] = 0
    e.call("tour", (builder, e.card("Abbé")))
    assert names(e, st.zone("cité", builder)) == ["Église", "Nécropole"]
    assert e.show_card(st.zone("pioche")[0]) == "Temple", "the destroyed district goes under the pile"
    assert st.vars["trésor"][builder] == 2 - 1 and st.vars["jeton"][e.card("Bailli")] == 1


def test_bailli_ensorcele_la_sorciere_ne_paie_pas_la_taxe():
    """Sorcière : « Vous bénéficiez des pouvoirs de ce personnage, … les effets passifs … » with Bailli :
    « Le Bailli lui-même ne la paie pas non plus. »  Playing the bewitched Bailli's turn, the Sorcière is
    the Bailli: she builds without paying the tax; she, not the bewitched player, may take the token's gold."""
    witch, bailiff = 0, 1
    e, st, agents = setup("Confrontation", 8, [
        ["pièces", "Bailli", "bâtir(Joueur 1, Temple)", "Terminer son tour"], ["pièces"]] + [[]] * 6)
    bailli = e.card("Bailli")
    choose(e, st, witch, "Sorcière")
    choose(e, st, bailiff, "Bailli")
    give(e, st, witch, "main", "Temple")
    st.vars["trésor"].update({witch: 0, bailiff: 0})
    st.vars["jeton"][bailli] = 3

    e.call("tour", (witch, e.card("Sorcière")))
    e.call("tour", (bailiff, bailli))

    assert names(e, st.zone("cité", witch)) == ["Temple"]
    assert st.vars["trésor"][witch] == 2 - 1 and st.vars["jeton"][bailli] == 3, "no tax on her Temple"
    assert "prendre_l_or_du_jeton (Bailli)" in agents[witch].seen[-1][1]
    assert st.vars["trésor"][bailiff] == 2


def test_bailli_l_echevin_qui_confisque_paie_la_taxe():
    """Bailli : « Lorsque l'Échevin confisque un quartier nouvellement bâti, c'est l'Échevin qui doit payer
    la taxe et non sa victime. »"""
    alderman, builder, bailiff = 0, 1, 2
    e, st, agents = setup_with("Développement", 8, [
        ["oui"], ["pièces", "bâtir(Joueur 2, Manoir)", "Terminer son tour"]] + [[]] * 6,
        swap={"Reine": "Bailli"})
    choose(e, st, alderman, "Échevin")
    choose(e, st, builder, "Évêque")
    choose(e, st, bailiff, "Bailli")
    give(e, st, builder, "main", "Manoir")
    st.vars["trésor"].update({alderman: 2, builder: 3})
    st.vars["mandat"][e.card("Évêque")] = "signé"

    e.call("tour", (builder, e.card("Évêque")))

    assert names(e, st.zone("cité", alderman)) == ["Manoir"]
    assert st.vars["trésor"][alderman] == 1 and st.vars["jeton"][e.card("Bailli")] == 1
    assert st.vars["trésor"][builder] == 5, "the victim is refunded and pays no tax"


# ==================================================================== more characters

def test_maitre_chanteuse_le_joueur_menace_peut_payer_la_moitie_de_son_or():
    """Maître-Chanteuse : « Lorsqu'un joueur menacé est appelé et commence son tour, il reçoit d'abord des
    ressources … Ensuite, il peut décider de vous payer la moitié de son or, arrondi à l'inférieur, pour
    retirer le jeton Menace sans le révéler. »"""
    blackmailer, victim = 0, 1
    e, st, agents = setup("Confrontation", 4, [[], ["pièces", "oui", "Terminer son tour"], [], []])
    choose(e, st, blackmailer, "Maître-Chanteuse")
    choose(e, st, victim, "Abbé")
    st.vars["menace"][e.card("Abbé")] = "fleur"
    st.vars["trésor"].update({blackmailer: 0, victim: 5})

    e.call("tour", (victim, e.card("Abbé")))

    assert prompts(agents[victim])[:2] == ["recevoir_des_ressources — choisir r",
                                           "chantage (Maître-Chanteuse) — choisir paie"], \
        "the threat is dealt with after the resources and before anything else"
    assert st.vars["trésor"][blackmailer] == 3 and st.vars["trésor"][victim] == 7 - 3
    assert st.vars["menace"].get(e.card("Abbé")) is None, "the token is removed without being revealed"
    assert agents[blackmailer].seen == []


@pytest.mark.parametrize("token, taken", [("fleur", 7), ("leurre", 0)])
def test_maitre_chanteuse_si_c_est_celui_a_la_fleur_le_joueur_vous_donne_tout_son_or(token, taken):
    """Maître-Chanteuse : « Si le joueur ne vous paie pas, vous pouvez révéler le jeton. Si c'est celui à
    la fleur, le joueur vous donne tout son or. »"""
    blackmailer, victim = 0, 1
    e, st, agents = setup("Confrontation", 4, [["oui"], ["pièces", "non", "Terminer son tour"], [], []])
    choose(e, st, blackmailer, "Maître-Chanteuse")
    choose(e, st, victim, "Abbé")
    st.vars["menace"][e.card("Abbé")] = token
    st.vars["trésor"].update({blackmailer: 0, victim: 5})
    e.call("tour", (victim, e.card("Abbé")))
    assert st.vars["trésor"][blackmailer] == taken and st.vars["trésor"][victim] == 7 - taken


def test_maitre_chanteuse_ensorcelee_la_sorciere_recoit_l_or():
    """Sorcière : « Si la Maitre-Chanteuse est ensorcelée, c'est la Sorcière qui … reçoit l'or des joueurs
    menacés, et qui décide de révéler ou non le jeton d'un joueur qui n'a pas payé. »"""
    witch, blackmailer, victim = 0, 1, 2
    e, st, agents = setup("Confrontation", 4, [["oui"], [], ["pièces", "non", "Terminer son tour"], []])
    choose(e, st, witch, "Sorcière")
    choose(e, st, blackmailer, "Maître-Chanteuse")
    choose(e, st, victim, "Abbé")
    st.vars["ensorcelé_par"][e.card("Maître-Chanteuse")] = witch
    st.vars["menace"][e.card("Abbé")] = "fleur"
    st.vars["trésor"].update({witch: 0, blackmailer: 0, victim: 4})
    e.call("tour", (victim, e.card("Abbé")))
    assert st.vars["trésor"][witch] == 6 and st.vars["trésor"][blackmailer] == 0
    assert agents[blackmailer].seen == []


def test_magicienne_si_vous_n_avez_aucune_carte_vous_prenez_les_cartes_de_l_autre_joueur():
    """Magicienne : « échanger toutes les cartes de votre main avec celles d'un autre joueur. Si vous
    n'avez aucune carte en main, vous prenez simplement les cartes de l'autre joueur. »"""
    magician, other = 0, 1
    e, st, agents = setup("Première partie", 4, [
        ["pièces", "magie (Magicienne)", "Joueur 2", "Terminer son tour"], [], [], []])
    choose(e, st, magician, "Magicienne")
    give(e, st, other, "main", "Temple", "Palais")
    e.call("tour", (magician, e.card("Magicienne")))
    assert sorted(names(e, st.zone("main", magician))) == ["Palais", "Temple"]
    assert st.zone("main", other) == []


def test_magicienne_defausser_des_cartes_et_piocher_le_meme_nombre():
    """Magicienne : « défausser un certain nombre de cartes de votre main, les placer sous la pioche et
    piocher le même nombre de cartes du dessus de la pioche. »"""
    magician = 0
    e, st, agents = setup("Première partie", 4, [
        ["pièces", "magie (Magicienne)", "renouvellement", "Temple", "Église", "(rien)", "Terminer son tour"],
        [], [], []])
    choose(e, st, magician, "Magicienne")
    give(e, st, magician, "main", "Temple", "Église", "Palais")
    for card in ("Marché", "Port"):
        st.put(e.instances[e.def_ids[card]][0], "pioche", None, "top")
    e.call("tour", (magician, e.card("Magicienne")))
    assert sorted(names(e, st.zone("main", magician))) == ["Marché", "Palais", "Port"]
    assert sorted(names(e, st.zone("pioche")[:2])) == ["Temple", "Église"]


def test_diplomate_grande_muraille_le_rang_8_paie_1_piece_de_plus():
    """Diplomate : « vous devez payer la différence en or au joueur avec lequel vous faites l'échange. »
    Grande Muraille : « Le personnage de rang 8 paie 1 pièce d'or de plus pour utiliser son pouvoir sur un
    quartier de cette cité. »"""
    diplomat, owner = 0, 1
    e, st, agents = setup("Tranquille", 4, [
        ["pièces", "échanger_un_quartier (Diplomate)", "Château", "Terminer son tour"], [], [], []])
    choose(e, st, diplomat, "Diplomate")
    give(e, st, diplomat, "cité", "Temple")
    give(e, st, owner, "cité", "Grande Muraille", "Château")
    st.vars["trésor"].update({diplomat: 7, owner: 0})
    e.call("tour", (diplomat, e.card("Diplomate")))
    assert names(e, st.zone("cité", diplomat)) == ["Château"]
    assert names(e, st.zone("cité", owner)) == ["Grande Muraille", "Temple"]
    assert st.vars["trésor"][owner] == (4 - 1) + 1 and st.vars["trésor"][diplomat] == 9 - 4


def test_grande_muraille_n_affecte_pas_la_cite_du_diplomate():
    """Grande Muraille : « La Grande Muraille n'affecte pas le coût de construction des quartiers de la
    cité du Diplomate quand il utilise son pouvoir. »"""
    diplomat, owner = 0, 1
    e, st, agents = setup("Tranquille", 4, [
        ["pièces", "échanger_un_quartier (Diplomate)", "Temple", "Terminer son tour"], [], [], []])
    choose(e, st, diplomat, "Diplomate")
    give(e, st, diplomat, "cité", "Grande Muraille", "Temple")
    give(e, st, owner, "cité", "Château")
    st.vars["trésor"].update({diplomat: 3, owner: 0})
    e.call("tour", (diplomat, e.card("Diplomate")))
    assert names(e, st.zone("cité", diplomat)) == ["Grande Muraille", "Château"]
    assert st.vars["trésor"][owner] == 3 and st.vars["trésor"][diplomat] == 5 - 3


def test_diplomate_pas_de_quartier_d_une_cite_complete_ni_identique():
    """Diplomate : « Vous ne pouvez pas prendre un quartier d'une cité complète ni un quartier identique à
    l'un des vôtres. En revanche, vous pouvez faire un échange même si votre cité est complète. »"""
    diplomat, owner = 0, 1
    e, st, _ = setup("Tranquille", 4, [[], [], [], []])
    choose(e, st, diplomat, "Diplomate")
    mine = give(e, st, diplomat, "cité", "Temple", "Église", "Monastère", "Caserne", "Manoir", "Château", "Palais")
    theirs = give(e, st, owner, "cité", "Marché", "Temple")
    st.vars["trésor"].update({diplomat: 9, owner: 9})
    assert e.legal("échanger", (diplomat, theirs[0], owner, mine[1]))[0], "his own city may be complete"
    legal, forbidding, _, _ = e.legal("échanger", (diplomat, theirs[1], owner, mine[1]))
    assert not legal and forbidding == ["diplomate_pas_de_doublon"]
    legal, forbidding, _, _ = e.legal("échanger", (diplomat, theirs[0], owner, mine[0]))
    assert not legal and forbidding == ["diplomate_cède_sans_doublon"]
    legal, forbidding, _, _ = e.legal("échanger", (owner, mine[3], diplomat, theirs[0]))
    assert not legal and forbidding == ["diplomate_cité_complète"]


def test_capitaine_prendre_un_quartier_de_cout_3_ou_moins_en_payant_son_cout():
    """Capitaine : « Vous pouvez prendre dans la cité d'un autre joueur un quartier dont le coût de
    construction est de 3 ou moins et le déplacer dans votre cité, en payant le coût de construction à
    son propriétaire. »"""
    captain, owner = 0, 1
    e, st, agents = setup("Développement", 4, [
        ["pièces", "prendre_un_quartier (Capitaine)", "Monastère", "Terminer son tour"], [], [], []])
    choose(e, st, captain, "Capitaine")
    château, monastère, _ = give(e, st, owner, "cité", "Château", "Monastère", "Temple")
    st.vars["trésor"].update({captain: 5, owner: 0})
    legal, forbidding, _, _ = e.legal("prendre", (captain, château, owner))
    assert not legal and forbidding == ["capitaine_coût_3_ou_moins"]
    e.call("tour", (captain, e.card("Capitaine")))
    assert names(e, st.zone("cité", captain)) == ["Monastère"]
    assert names(e, st.zone("cité", owner)) == ["Château", "Temple"]
    assert st.vars["trésor"][owner] == 3 and st.vars["trésor"][captain] == 5 + 2 - 3


def test_empereur_assassine_son_conseiller_donne_la_couronne_a_un_autre_joueur():
    """Empereur : « Si vous êtes assassiné, … après que tous les autres joueurs ont joué, vous révélez que
    vous aviez choisi l'Empereur et, en tant que son conseiller, donnez la Couronne à un autre joueur. »
    « Vous ne pouvez ni prendre la Couronne pour vous-même ni la laisser au joueur qui l'avait
    auparavant. »"""
    emperor, crowned = 1, 2
    e, st, agents = setup("Confrontation", 4, [[], ["Joueur 1"], [], []])
    choose(e, st, emperor, "Empereur")
    st.vars["couronne"] = crowned
    st.vars["assassiné"][e.card("Empereur")] = True
    e.call("appel", (4,))
    assert st.vars["couronne"] == crowned
    e.signal("fin_des_appels", ())
    assert st.vars["couronne"] == 0
    assert agents[emperor].seen[0][1] == ["Joueur 1", "Joueur 4"]


def test_marchande_ensorcelee_la_piece_supplementaire_va_a_la_sorciere():
    """Sorcière : « Il ne peut ni bâtir de quartier ni utiliser les pouvoirs du personnage (pas méme ceux
    qui rapportent des ressources supplémentaires, comme l'or de la Marchande). » … « Vous bénéficiez des
    pouvoirs de ce personnage, y compris ceux qui apportent des ressources supplémentaires … percevez des
    revenus pour votre cité »."""
    witch, merchant = 0, 1
    e, st, agents = setup("Tranquille", 4, [
        ["pièces", "Marchande", "pièce_supplémentaire (Marchande)", "revenus_commerçants (Marchande)"],
        ["pièces"], [], []])
    choose(e, st, witch, "Sorcière")
    choose(e, st, merchant, "Marchande")
    give(e, st, witch, "cité", "Marché", "Taverne")
    give(e, st, merchant, "cité", "Port", "Comptoir", "Échoppe")
    st.vars["trésor"].update({witch: 0, merchant: 0})
    e.call("tour", (witch, e.card("Sorcière")))
    e.call("tour", (merchant, e.card("Marchande")))
    assert st.vars["trésor"][witch] == 2 + 1 + 2, "the extra coin, and the income of her own two Commerçant districts"
    assert st.vars["trésor"][merchant] == 2


# ==================================================================== rang 9

def test_reine_trois_pieces_a_cote_du_rang_4():
    """Reine : « Recevez 3 pièces d'or si vous étes assis à côté du joueur qui a choisi ce tour-ci le
    personnage de rang 4 (Roi, Empereur ou Patricien). »"""
    queen, patrician, far = 0, 1, 4
    e, st, agents = setup("Développement", 8, [
        ["pièces", "trois_pièces (Reine)", "Terminer son tour"]] + [[]] * 7)
    choose(e, st, queen, "Reine")
    choose(e, st, patrician, "Patricien")
    st.vars["trésor"][queen] = 0
    e.call("tour", (queen, e.card("Reine")))
    assert st.vars["trésor"][queen] == 2 + 3
    st.put(e.card("Patricien"), "choisis", far, "top")
    assert not e.quantity("voisin_du_rang_4", (queen, False))


def test_reine_le_rang_4_voisin_assassine_elle_recoit_les_3_pieces_apres_son_tour():
    """Reine : « Si ce joueur est assis à côté de vous, mais a été assassiné, vous recevez ces 3 pièces
    après votre tour, lorsque cela est révélé. »"""
    queen, patrician = 0, 7                                      # seat 7 is seat 0's right neighbour
    e, st, agents = setup("Développement", 8, [["pièces", "Terminer son tour"]] + [[]] * 7)
    choose(e, st, queen, "Reine")
    choose(e, st, patrician, "Patricien")
    st.vars["assassiné"][e.card("Patricien")] = True
    st.vars["trésor"][queen] = 0
    e.call("tour", (queen, e.card("Reine")))
    assert "trois_pièces (Reine)" not in offered(agents[queen])
    assert st.vars["trésor"][queen] == 2
    e.signal("fin_des_appels", ())
    assert st.vars["trésor"][queen] == 2 + 3


def test_artiste_embellir_un_ou_deux_quartiers():
    """Artiste : « Vous pouvez embellir un ou deux quartiers de votre cité en plaçant sur chacun d'entre
    eux 1 pièce d'or de votre trésor. Le coût de construction d'un quartier ainsi embelli est augmenté de 1.
    Il rapporte donc 1 point de plus en fin de partie … Chaque quartier ne peut étre embelli qu'une
    fois »."""
    artist = 0
    e, st, agents = setup("Combinaisons", 3, [
        ["pièces", "embellir_des_quartiers (Artiste)", "Temple", "Château", "Terminer son tour"], [], []])
    choose(e, st, artist, "Artiste")
    temple, château, palais = give(e, st, artist, "cité", "Temple", "Château", "Palais")
    st.vars["trésor"][artist] = 0
    before = e.result().scores[artist]
    e.call("tour", (artist, e.card("Artiste")))
    assert st.vars["trésor"][artist] == 0
    assert st.vars["embellissement"][temple] == 1 and st.vars["embellissement"][château] == 1
    assert e.result().scores[artist] == before + 2
    legal, forbidding, _, _ = e.legal("embellir", (artist, temple))
    assert not legal and "artiste_une_seule_fois" in forbidding


# ==================================================================== Merveilles

def test_musee_une_carte_dessous_un_point_et_defaussees_si_detruit():
    """Musée : « Une fois par tour, placer face cachée une carte de sa main sous le Musée; en fin de
    partie, 1 point par carte placée dessous. » — « Si le Musée est détruit, les cartes sont défaussées,
    face cachée, sous la pioche. »"""
    owner, warlord = 0, 1
    e, st, agents = setup("Confrontation", 4, [
        ["pièces", "musée_placer_une_carte (Musée)", "Terminer son tour"],      # the Palais, his only card
        ["pièces", "détruire_un_quartier (Condottiere)", "Terminer son tour"], [], []])   # the Musée is forced
    choose(e, st, owner, "Abbé")
    choose(e, st, warlord, "Condottiere")
    (musée,) = give(e, st, owner, "cité", "Musée")
    give(e, st, owner, "main", "Palais")
    st.vars["trésor"].update({owner: 0, warlord: 1})
    e.call("tour", (owner, e.card("Abbé")))
    assert names(e, st.zone("dessous", musée)) == ["Palais"]
    assert e.result().scores[owner] == 4 + 1
    e.call("tour", (warlord, e.card("Condottiere")))
    assert st.zone("cité", owner) == [] and st.zone("dessous", musée) == []
    assert sorted(names(e, st.zone("pioche")[:2])) == ["Musée", "Palais"]


def test_tripot_payer_avec_des_cartes_de_sa_main():
    """Tripot : « On peut payer tout ou partie du coût du Tripot avec des cartes de sa main, 1 carte pour
    1 pièce d'or. »"""
    owner = 0
    e, st, agents = setup("Première partie", 4, [
        ["pièces", "bâtir_le_tripot(Joueur 1, Tripot)", "Temple", "Église", "Palais",   # the Manoir is forced
         "Terminer son tour"], [], [], []])
    choose(e, st, owner, "Marchande")
    give(e, st, owner, "main", "Tripot", "Temple", "Église", "Palais", "Manoir")
    st.vars["trésor"][owner] = 0
    e.call("tour", (owner, e.card("Marchande")))
    assert names(e, st.zone("cité", owner)) == ["Tripot"]
    assert st.vars["trésor"][owner] == 0 and st.zone("main", owner) == []
    assert sorted(names(e, st.zone("pioche")[:4])) == sorted(["Temple", "Église", "Palais", "Manoir"])


def test_theatre_echanger_son_personnage_contre_celui_d_un_adversaire():
    """Théâtre : « À la fin de chaque phase de choix des personnages, on peut échanger son personnage contre
    celui d'un adversaire. »"""
    owner, other = 0, 2
    e, st, agents = setup("Confrontation", 4, [["oui", "Joueur 3"], [], [], []])
    choose(e, st, owner, "Abbé")
    choose(e, st, 1, "Architecte")
    choose(e, st, other, "Condottiere")
    give(e, st, owner, "cité", "Théâtre")
    e.signal("fin_du_choix", ())
    assert names(e, st.zone("choisis", owner)) == ["Condottiere"]
    assert names(e, st.zone("choisis", other)) == ["Abbé"]


# ==================================================================== more interactions

def test_echevin_vous_ne_pouvez_confisquer_que_le_premier_quartier():
    """Échevin : « Si un joueur peut bâtir plus d'un quartier durant son tour, vous ne pouvez confisquer
    que le premier qu'il bâtit. »"""
    alderman, architect = 0, 1
    e, st, agents = setup("Développement", 4, [
        ["non"], ["pièces", "bâtir(Joueur 2, Temple)", "bâtir(Joueur 2, Château)", "Terminer son tour"], [], []])
    choose(e, st, alderman, "Échevin")
    choose(e, st, architect, "Architecte")
    give(e, st, architect, "main", "Temple", "Château")
    st.vars["trésor"][architect] = 3
    st.vars["mandat"][e.card("Architecte")] = "signé"
    e.call("tour", (architect, e.card("Architecte")))
    assert prompts(agents[alderman]) == ["utiliser confiscation (Échevin) ?"], "asked for the Temple only"
    assert names(e, st.zone("cité", architect)) == ["Temple", "Château"]


def test_echevin_l_or_rembourse_n_est_pas_rendu_par_l_alchimiste():
    """Échevin : « Le joueur dont le quartier est confisqué récupère l'or payé à la banque pour le bâtir. »
    Alchimiste : « tout l'or que vous avez dépensé pour bâtir des quartiers vous est rendu » — the
    refunded gold was not spent: it is not given back a second time."""
    alderman, alchemist = 0, 1
    e, st, agents = setup("Bluff", 4, [["oui"], ["pièces", "bâtir(Joueur 2, Château)", "Terminer son tour"], [], []])
    choose(e, st, alderman, "Échevin")
    choose(e, st, alchemist, "Alchimiste")
    give(e, st, alchemist, "main", "Château", "Temple")
    st.vars["trésor"][alchemist] = 2
    st.vars["mandat"][e.card("Alchimiste")] = "signé"
    e.call("tour", (alchemist, e.card("Alchimiste")))
    assert names(e, st.zone("cité", alderman)) == ["Château"]
    assert st.vars["trésor"][alchemist] == 4


def test_navigatrice_ensorcelee_la_sorciere_ne_peut_pas_batir():
    """Sorcière : « Vous bénéficiez des pouvoirs de ce personnage, … et les restrictions (comme
    l'impossibilité de construire pour la Navigatrice). »"""
    witch, navigator = 0, 1
    e, st, agents = setup_with("Confrontation", 4, [
        ["pièces", "Navigatrice", "quatre_ressources (Navigatrice)", "pièces"], ["pièces"], [], []],
        swap={"Architecte": "Navigatrice"})
    choose(e, st, witch, "Sorcière")
    choose(e, st, navigator, "Navigatrice")
    (temple,) = give(e, st, witch, "main", "Temple")
    st.vars["trésor"].update({witch: 0, navigator: 0})
    e.call("tour", (witch, e.card("Sorcière")))
    e.call("tour", (navigator, e.card("Navigatrice")))
    assert st.vars["trésor"][witch] == 2 + 4
    assert not any("bâtir" in label for label in offered(agents[witch]))
    legal, forbidding, _, _ = e.legal("bâtir", (witch, temple))
    assert not legal and forbidding == ["navigatrice_ne_bâtit_pas"]


def test_empereur_le_nouveau_detenteur_paie_une_carte_au_hasard_ou_une_piece():
    """Empereur : « Vous devez prendre la Couronne à son propriétaire et la donner à un autre joueur de
    votre choix qui vous donne en paiement, selon son choix, 1 pièce d'or ou 1 carte Quartier, au hasard,
    de sa main. »"""
    emperor, crowned, other = 0, 1, 2
    e, st, agents = setup("Confrontation", 4, [
        ["pièces", "couronne_impériale (Empereur)", "Joueur 3", "Terminer son tour"], [], ["cartes"], []])
    choose(e, st, emperor, "Empereur")
    st.vars["couronne"] = crowned
    give(e, st, other, "main", "Palais")
    st.vars["trésor"].update({emperor: 0, other: 4})
    e.call("tour", (emperor, e.card("Empereur")))
    assert st.vars["couronne"] == other
    assert names(e, st.zone("main", emperor)) == ["Palais"] and st.vars["trésor"][other] == 4
    assert agents[other].seen[0][1] == ["pièces", "cartes"]


def test_sorcier_la_carte_prise_batie_immediatement_ne_compte_pas_dans_le_permis():
    """Sorcier : « soit la bâtir immédiatement dans votre cité en en payant normalement le coût, mais elle
    ne compte pas dans votre permis de construire. Vous pouvez donc bâtir deux quartiers, un de votre main
    et celui que vous prenez dans la main d'un autre joueur. »"""
    wizard, other = 0, 1
    e, st, agents = setup("Développement", 4, [
        ["pièces", "sortilège (Sorcier)", "Joueur 2", "Palais", "oui", "bâtir(Joueur 1, Manoir)"], [], [], []])
    choose(e, st, wizard, "Sorcier")
    give(e, st, other, "main", "Palais", "Temple")
    give(e, st, wizard, "main", "Manoir")
    st.vars["trésor"][wizard] = 6
    e.call("tour", (wizard, e.card("Sorcier")))
    assert names(e, st.zone("cité", wizard)) == ["Palais", "Manoir"]
    assert names(e, st.zone("main", other)) == ["Temple"]
    assert st.vars["trésor"][wizard] == 8 - 5 - 3


def test_negociant_autant_de_quartiers_commercants_que_vous_le_souhaitez():
    """Négociant : « Durant votre tour, vous pouvez bâtir un quartier non Commerçant et autant de quartiers
    Commerçants que vous le souhaitez. »"""
    trader = 0
    e, st, agents = setup("Développement", 4, [
        ["pièces", "bâtir(Joueur 1, Taverne)", "bâtir(Joueur 1, Marché)", "bâtir(Joueur 1, Temple)",
         "bâtir(Joueur 1, Échoppe)", "Terminer son tour"], [], [], []])
    choose(e, st, trader, "Négociant")
    give(e, st, trader, "main", "Taverne", "Marché", "Temple", "Échoppe", "Église")
    st.vars["trésor"][trader] = 8
    e.call("tour", (trader, e.card("Négociant")))
    assert names(e, st.zone("cité", trader)) == ["Taverne", "Marché", "Temple", "Échoppe"]
    assert "bâtir(Joueur 1, Église)" not in agents[trader].seen[-1][1], "only one non-Commerçant district"


def test_abbe_le_joueur_le_plus_riche_doit_vous_donner_1_piece_d_or():
    """Abbé : « si vous n'êtes pas le joueur le plus riche, le joueur le plus riche doit vous donner 1 pièce
    d'or. En cas dègalité, vous choisissez celui des joueurs les plus riches qui vous donne 1 pièce
    d'or. »"""
    abbot = 0
    e, st, agents = setup("Confrontation", 4, [
        ["pièces", "aumône (Abbé)", "Joueur 3", "Terminer son tour"], [], [], []])
    choose(e, st, abbot, "Abbé")
    st.vars["trésor"].update({abbot: 0, 1: 5, 2: 5, 3: 4})
    e.call("tour", (abbot, e.card("Abbé")))
    assert agents[abbot].seen[2][1] == ["Joueur 2", "Joueur 3"], "the richest players only"
    assert st.vars["trésor"][abbot] == 3 and st.vars["trésor"][2] == 4 and st.vars["trésor"][1] == 5


def test_cardinal_prendre_les_pieces_manquantes_et_donner_une_carte_par_piece():
    """Cardinal : « Si vous souhaitez bâtir un quartier, mais n'avez pas suffisamment d'or, vous pouvez
    prendre les pièces d'or manquantes à un autre joueur de votre choix. Pour chaque pièce ainsi prise,
    vous devez donner à ce joueur 1 carte de votre main. »"""
    cardinal, lender = 0, 1
    e, st, agents = setup("Combinaisons", 4, [
        # the Château is the only district that needs a loan, and player 2 the only lender: both forced
        ["pièces", "bâtir_avec_l_or_d_un_autre (Cardinal)", "Temple", "Terminer son tour"], [], [], []])
    choose(e, st, cardinal, "Cardinal")
    give(e, st, cardinal, "main", "Château", "Temple", "Taverne")
    st.vars["trésor"].update({cardinal: 0, lender: 5})
    e.call("tour", (cardinal, e.card("Cardinal")))
    assert names(e, st.zone("cité", cardinal)) == ["Château"]
    assert st.vars["trésor"][cardinal] == 0 and st.vars["trésor"][lender] == 5 - 2
    assert sorted(names(e, st.zone("main", lender))) == ["Taverne", "Temple"]
    assert st.zone("main", cardinal) == []


def test_necropole_batie_sans_payer_l_echevin_ne_peut_pas_la_confisquer():
    """Nécropole : « Le Bailli [l'Échevin] ne peut pas confisquer la Nécropole si elle est bâtie sans payer
    son coût de construction » (decision bailli_lu_comme_échevin)."""
    alderman, builder = 0, 1
    e, st, agents = setup("Bluff", 4, [
        [], ["pièces", "bâtir_la_nécropole(Joueur 2, Nécropole, Temple)", "Terminer son tour"], [], []])
    choose(e, st, alderman, "Échevin")
    choose(e, st, builder, "Abbé")
    give(e, st, builder, "cité", "Temple")
    give(e, st, builder, "main", "Nécropole")
    st.vars["mandat"][e.card("Abbé")] = "signé"
    e.call("tour", (builder, e.card("Abbé")))
    assert agents[alderman].seen == []
    assert names(e, st.zone("cité", builder)) == ["Nécropole"]


def test_tripot_confisque_rembourse_de_l_or_seulement():
    """Tripot : « Si le Tripot est confisqué par l'Échevin, le joueur n'est remboursé que de l'or qu'il a
    dépensé, pas des cartes. »"""
    alderman, builder = 0, 1
    e, st, agents = setup("Bluff", 4, [
        ["oui"], ["pièces", "bâtir_le_tripot(Joueur 2, Tripot)", "Temple", "Église", "(rien)", "Terminer son tour"],
        [], []])
    choose(e, st, alderman, "Échevin")
    choose(e, st, builder, "Abbé")
    give(e, st, builder, "main", "Tripot", "Temple", "Église", "Palais")
    st.vars["trésor"][builder] = 2
    st.vars["mandat"][e.card("Abbé")] = "signé"
    e.call("tour", (builder, e.card("Abbé")))
    assert names(e, st.zone("cité", alderman)) == ["Tripot"]
    assert st.vars["trésor"][builder] == 2 + 2, "the 4 gold paid (6 minus 2 cards) are given back"
    assert names(e, st.zone("main", builder)) == ["Palais"], "the 2 cards given are not"


def test_sorciere_le_joueur_ensorcele_utilise_les_merveilles_des_ressources():
    """Sorcière : « Les seules Merveilles qu'il puisse utiliser sont, là aussi, celles qui font effet
    lorsqu'il reçoit des ressources en début de tour. »  (Mine d'Or : « Quand on choisit l'or en recevant
    ses ressources, recevoir 1 pièce d'or de plus. »)"""
    witch, victim = 0, 1
    e, st, agents = setup("Confrontation", 4, [["pièces", "Abbé", "Terminer son tour"], ["pièces"], [], []])
    choose(e, st, witch, "Sorcière")
    choose(e, st, victim, "Abbé")
    give(e, st, victim, "cité", "Mine d'Or", "Forge")
    st.vars["trésor"].update({witch: 0, victim: 0})
    e.call("tour", (witch, e.card("Sorcière")))
    e.call("tour", (victim, e.card("Abbé")))
    assert st.vars["trésor"][victim] == 3
    assert "forge_piocher (Forge)" not in offered(agents[witch]), "not the Merveilles of the bewitched city"


def test_espion_il_vous_donne_1_piece_par_carte_du_type_et_vous_piochez():
    """Espion : « Pour chaque carte de sa main du type que vous avez choisi, il vous donne 1 pièce d'or et vous
    piochez 1 carte Quartier » — « Si le joueur a moins d'or que de cartes Quartier du type choisi, vous prenez
    tout son or et piochez quand même 1 carte pour chaque carte Quartier correspondante. »"""
    spy, target = 0, 1
    e, st, agents = setup("Tranquille", 4, [
        ["pièces", "espionnage (Espion)", "Joueur 2", "Noble", "Terminer son tour"], [], [], []])
    choose(e, st, spy, "Espion")
    give(e, st, target, "main", "Manoir", "Château", "Temple")
    st.vars["trésor"].update({spy: 0, target: 1})
    e.call("tour", (spy, e.card("Espion")))
    assert st.vars["trésor"][target] == 0, "fewer gold than Noble cards: he gives all he has"
    assert st.vars["trésor"][spy] == 2 + 1
    assert len(st.zone("main", spy)) == 2, "one card drawn per Noble card in his hand"
    assert len(st.zone("main", target)) == 3, "the cards come from the pile, not from his hand"


def test_voyante_prendre_une_carte_a_chaque_joueur_puis_en_donner_une():
    """Voyante : « Prenez 1 carte au hasard de la main de chaque autre joueur … Ensuite, donnez 1 carte de votre
    main à chacun des joueurs auxquels vous en avez pris une. Si un joueur n'a pas de carte en main, vous ne lui
    en prenez donc pas et ne lui en donnez pas non plus. »"""
    seer = 0
    for seed in range(10):
        e, st, agents = setup("Tranquille", 4, [[], [], [], []])
        e.agents = [RandomAgent(seed * 10 + i) for i in range(4)]
        choose(e, st, seer, "Voyante")
        give(e, st, 1, "main", "Manoir", "Temple")
        give(e, st, 2, "main", "Port")
        before = {p: len(st.zone("main", p)) for p in range(4)}
        power = next(x for x in e.powers_of[e.def_ids["Voyante"]] if x.name == "divination")
        e.run_power(power, seer, e.card("Voyante"), {"me": seer, "this": e.card("Voyante")})
        assert {p: len(st.zone("main", p)) for p in range(4)} == before, "one taken, one given back, to each"
        assert st.zone("main", 3) == []


def test_archiviste_piochez_7_cartes_et_choisissez_en_une():
    """Archiviste : « Piochez 7 cartes Quartier et choisissez-en une que vous ajoutez à votre main. Remettez les
    6 autres cartes dans la pioche et mélangez-la. »"""
    scholar = 0
    e, st, agents = setup("Tranquille", 4, [[], [], [], []])
    e.agents = [RandomAgent(i) for i in range(4)]
    choose(e, st, scholar, "Archiviste")
    pile = len(st.zone("pioche"))
    power = next(x for x in e.powers_of[e.def_ids["Archiviste"]] if x.name == "sept_cartes")
    e.run_power(power, scholar, e.card("Archiviste"), {"me": scholar, "this": e.card("Archiviste")})
    assert len(st.zone("main", scholar)) == 1
    assert len(st.zone("pioche")) == pile - 1 and st.zone("en_vue", scholar) == []
