"""The fan expansion (spec/extension-fan, seed 002): every card played, named after its paragraph.

Each test builds a game with ``Engine.start`` from one of the expansion's configurations (nothing is
played), places the cards, sets the markers, then drives one turn (``tour``), one call (``appeler``)
or one window, with every player's answers scripted by the exact label the engine offers (a question
a script does not answer fails the test).  A few seeded whole games check that the expansion plays to
the end and that Z3 agrees with the interpreter on it.
"""

from __future__ import annotations

import collections
import functools
import os
from pathlib import Path

import pytest

from checker.front.configurations import select
from checker.human import Table
from checker.prose import Lexicon
from checker.runtime import Engine, RandomAgent
from checker.runtime.agents import ScriptedAgent
from conftest import ROOT
from test_scenarios_powers import choose, give, offered

FAN = [Path("spec/citadelles"), Path("spec/extension-fan")]


@functools.cache
def checked():
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        from checker.front.check import check_paths
        return check_paths(FAN)
    finally:
        os.chdir(cwd)


@functools.cache
def engine() -> Engine:
    return Engine(checked().typed)


def setup(config: str, scripts: list[list[str]], swap: dict[str, str] | None = None):
    """A game of ``config`` set up for len(scripts) players (some characters swapped), nothing played."""
    e = engine()
    e.recording = True
    program = checked().program
    players = len(scripts)
    cards = select(program, program.configurations[config], players).cards
    cards = {kind: tuple((swap or {}).get(n, n) for n in names) for kind, names in cards.items()}
    agents = [ScriptedAgent(s) for s in scripts]
    st = e.start(cards, players, 0, agents)
    st.vars["trésor"].update({p: 0 for p in range(players)})
    return e, st, agents


def top(e, st, *cards: str) -> None:
    """Put these cards on top of the pile, the last named on the very top."""
    for name in cards:
        card = next(c for c in e.instances[e.def_ids[name]] if st.where[c][0] == "pioche")
        st.put(card, "pioche", None, "top")


def names(e, cards) -> list[str]:
    return sorted(e.show_card(c) for c in cards)


def turn(e, player: int, character: str) -> None:
    e.call("tour", (player, e.card(character)))


def call(e, character: str) -> None:
    e.call("appeler", (e.card(character),))


def gold(st) -> dict:
    return st.vars["trésor"]


NP, NP2, MIX = "Nouveaux Personnages", "Nouveaux Personnages II", "Éditions mêlées"


def test_the_expansion_checks_with_every_card():
    result = checked()
    assert result.ok, [d.message for d in result.reporter.errors]
    assert not [d for d in result.reporter.sorted() if d.code.startswith("W")]
    program = result.program
    fan_characters = [c for c in program.cards.values() if c.kind == "Character" and "Nouveaux" in
                      next((a.value.value for a in c.attrs if a.name == "origin"), "")]
    assert len(fan_characters) == 23
    fan_districts = [c.name for c in program.cards.values() if c.kind == "District" and
                     any(cite.source == "fan" for cite in c.cites)]
    assert len(fan_districts) == 22 + 4


# ==================================================================== Les Nouveaux Personnages

def test_mercenaire_contre_une_attaque_et_rend_sa_piece():
    """Mercenaire : « on place une pièce d'or de la banque sur cette carte … le Mercenaire peut donner la
    pièce d'or se trouvant sur sa carte à l'attaquant et l'attaque est contrée » ; la pièce inutilisée
    retourne à la banque quand tous les personnages ont été joués."""
    merc, attacker = 0, 1
    e, st, agents = setup(MIX, [
        ["pièces", "oui"],                          # the Mercenaire's turn; then it counters
        ["pièces", "détruire_un_quartier (Condottiere)", "Terminer son tour"],
        [], [], []])
    choose(e, st, merc, "Mercenaire")
    choose(e, st, attacker, "Condottiere")
    give(e, st, merc, "cité", "Temple")
    turn(e, merc, "Mercenaire")
    assert st.vars["jeton"][e.card("Mercenaire")] == 1, "a coin from the bank on the card when it enters play"
    turn(e, attacker, "Condottiere")
    assert names(e, st.zone("cité", merc)) == ["Temple"], "the destruction was countered"
    assert gold(st)[attacker] == 2 + 1 and st.vars["jeton"][e.card("Mercenaire")] == 0, "the coin goes to the attacker"
    cancel = next(ev for ev in e.events if ev["kind"] == "cancel")
    told = Table(e, Lexicon.load(ROOT / "docs/lexique.toml"), None).event(0, cancel)
    assert told == "  Détruire un quartier dans la cité d'un joueur en payant le coût d'un quartier moins 1 : " \
                   "n'a pas lieu, l'action est contrée.", "the log says it in the book's words"
    e2, st2, _ = setup(MIX, [["pièces"], [], [], [], []])
    choose(e2, st2, 0, "Mercenaire")
    turn(e2, 0, "Mercenaire")
    e2.signal("fin_des_appels", ())
    assert st2.vars["jeton"][e2.card("Mercenaire")] == 0, "unused, the coin goes back to the bank"


def test_mercenaire_repond_a_l_assassinat_quand_son_personnage_est_appele():
    """« Si le second personnage se fait assassiner, voler, ensorceler, etc. le joueur attend de révéler son
    second personnage avant de choisir s'il veut se défendre ou non. »"""
    merc, killer = 0, 1
    e, st, agents = setup(MIX, [
        ["pièces", "oui", "pièces", "Terminer son tour"],
        ["pièces", "assassinat (Assassin)", "Marchande", "Terminer son tour"], [], [], []])
    choose(e, st, merc, "Mercenaire", "Marchande")
    choose(e, st, killer, "Assassin")
    call(e, "Mercenaire")
    call(e, "Assassin")
    assert st.vars["assassiné"][e.card("Marchande")] is True
    call(e, "Marchande")
    assert st.vars["assassiné"][e.card("Marchande")] is False, "countered when the Marchande is called"
    assert st.vars["révélé"][e.card("Marchande")] is True and gold(st)[merc] == 2 + 2
    assert gold(st)[killer] == 2 + 1


def test_geolier_prive_le_personnage_emprisonne_de_son_choix_de_depart():
    """Geôlier : « Lorsque le personnage emprisonné arrive en jeu, ce dernier est privé de son choix de
    départ » ; « 1 pièce d'or pour chaque quartier militaire (rouge) »."""
    jailer, victim = 0, 1
    e, st, agents = setup(NP, [
        ["pièces", "emprisonnement (Geôlier)", "Oracle", "revenus_militaires (Geôlier)"],
        ["Terminer son tour"], []])
    choose(e, st, jailer, "Geôlier")
    choose(e, st, victim, "Oracle")
    give(e, st, jailer, "cité", "Prison", "Caserne", "Temple")
    call(e, "Geôlier")
    assert gold(st)[jailer] == 2 + 2
    call(e, "Oracle")
    assert gold(st)[victim] == 0
    assert not any(prompt.startswith("recevoir_des_ressources") for prompt, _, _ in agents[victim].seen)


def test_charlatan_le_personnage_arnaque_paie_a_sa_revelation():
    """Charlatan : « Lorsque le personnage arnaqué arrive en jeu, ce dernier choisit entre : Donner 2 cartes
    de son choix … » ; « Si le personnage arnaqué n'a pas de pièces d'or, il doit choisir la 1re option. »"""
    crook, victim = 0, 1
    e, st, agents = setup(NP, [
        ["pièces", "arnaque (Charlatan)", "Oracle"],
        ["Temple", "Église", "pièces", "Terminer son tour"], []])
    choose(e, st, crook, "Charlatan")
    choose(e, st, victim, "Oracle")
    give(e, st, victim, "main", "Temple", "Église", "Manoir")
    call(e, "Charlatan")
    call(e, "Oracle")
    assert names(e, st.zone("main", crook)) == ["Temple", "Église"]
    assert "carte_et_pièce" not in offered(agents[victim]), "no gold: only the first option"



def test_le_vol_passe_avant_l_arnaque_du_meme_personnage():
    """Voleur (gemme ronde) et Charlatan (pentagonale), tous deux de rang 2, visent l'Oracle : à sa révélation le
    Voleur prend d'abord tout son or (décision vol_avant_arnaque), puis l'arnaqué, sans or, donne 2 cartes."""
    thief, crook, victim = 0, 1, 2
    e, st, agents = setup(NP, [
        ["pièces", "vol (Voleur)", "Oracle"],
        ["pièces", "arnaque (Charlatan)", "Oracle"],
        ["Temple", "Église", "pièces", "Terminer son tour"]], swap={"Prince": "Voleur"})
    choose(e, st, thief, "Voleur")
    choose(e, st, crook, "Charlatan")
    choose(e, st, victim, "Oracle")
    give(e, st, victim, "main", "Temple", "Église", "Manoir")
    call(e, "Voleur")
    call(e, "Charlatan")
    gold(st)[victim] = 3
    call(e, "Oracle")
    assert gold(st)[thief] == 2 + 3
    assert names(e, st.zone("main", crook)) == ["Temple", "Église"]
    assert "carte_et_pièce" not in offered(agents[victim]), "robbed first: no gold left, only the first option"

def test_oracle_retourne_la_pioche_jusqu_a_la_couleur_annoncee():
    """Oracle : « jusqu'à ce qu'elle tombe sur 1 carte de la couleur annoncée et la prend dans sa main.
    Toutes les cartes retournées sans avoir été prises sont placées dans la défause. »"""
    e, st, agents = setup(NP, [["pièces", "oracle (Oracle)", "Religieux", "Terminer son tour"], [], []])
    choose(e, st, 0, "Oracle")
    top(e, st, "Temple", "Manoir", "Caserne")
    turn(e, 0, "Oracle")
    assert names(e, st.zone("main", 0)) == ["Temple"]
    assert names(e, st.zone("défausse")) == ["Caserne", "Manoir"]
    assert "Maudit" not in offered(agents[0]), "« sauf le noir »"


def test_prince_decide_du_sens_du_prochain_choix_et_deplace_la_couronne():
    """Prince : sans Roi ni Empereur en jeu, il décide du sens du prochain choix et « doit déplacer
    obligatoirement la couronne » ; 1 pièce d'or par quartier valant 5 à 7 ; le choix suivant se fait
    dans l'autre sens, puis de nouveau dans le sens horaire."""
    e, st, agents = setup(NP, [
        ["pièces", "sens_du_tour (Prince)", "antihoraire", "à_gauche", "revenus_du_prince (Prince)"], [], []])
    choose(e, st, 0, "Prince")
    give(e, st, 0, "cité", "Palais", "Cathédrale", "Manoir")
    st.vars["couronne"] = 2
    turn(e, 0, "Prince")
    assert st.vars["couronne"] == 0, "from Joueur 3 to his left: Joueur 1"
    assert st.vars["sens_horaire"] is False and gold(st)[0] == 2 + 2
    order = []
    e.observer = lambda d: order.append(d.player) if d.prompt.startswith("choisir_un_personnage") else None
    e.agents = [RandomAgent(k) for k in range(3)]
    e.call("ranger_les_personnages", ())
    e.call("choix_des_personnages", ())
    e.observer = None
    assert order[:3] == [0, 2, 1], "counter-clockwise from the crown: Joueur 1, Joueur 3, Joueur 2"
    assert st.vars["sens_horaire"] is True, "only for the next choice"


def test_historien_prend_dans_la_defausse_et_ses_merveilles_par_paire():
    """Historien : « prend les 4 premières cartes de la défausse et en garde 1 » ; « 1 pièce d'or pour
    chaque second quartier merveille »."""
    e, st, agents = setup(NP, [
        ["pièces", "archives (Historien)", "Palais", "revenus_merveilles (Historien)", "Terminer son tour"], [], []])
    choose(e, st, 0, "Historien")
    for name in ("Temple", "Église", "Palais", "Manoir", "Taverne"):
        st.put(next(c for c in e.instances[e.def_ids[name]] if st.where[c][0] == "pioche"), "défausse", None, "top")
    give(e, st, 0, "cité", "Forge", "Musée", "Parc")
    turn(e, 0, "Historien")
    assert names(e, st.zone("main", 0)) == ["Palais"]
    assert names(e, st.zone("défausse")) == ["Manoir", "Taverne", "Temple", "Église"]
    assert gold(st)[0] == 2 + 1, "three Merveilles: one pair"


def test_magistrat_retourne_un_quartier_qui_perd_valeur_pouvoir_et_couleur():
    """Magistrat : « Le quartier retourné perd momentanément sa valeur, son pouvoir et sa couleur » ; son
    propriétaire le retourne à nouveau au prix d'une construction ; pas un quartier embelli."""
    mag, victim = 0, 1
    e, st, agents = setup(NP, [
        ["pièces", "retournement (Magistrat)", "Terminer son tour"],
        ["cartes", "Temple", "redresser(Joueur 2, Observatoire)", "Terminer son tour"], []])
    choose(e, st, mag, "Magistrat")
    choose(e, st, victim, "Oracle")
    obs, manoir = give(e, st, victim, "cité", "Observatoire", "Manoir")
    st.vars["embellissement"][manoir] = 1
    assert e.quantity("cartes_piochées", (victim,)) == 3 and e.quantity("revenus", (victim, "Merveille")) == 1
    call(e, "Magistrat")
    assert st.vars["retourné"][obs] is True
    assert e.quantity("valeur", (obs,)) == 0, "no value"
    assert e.quantity("cartes_piochées", (victim,)) == 2, "no power: the Observatoire's rule no longer applies"
    assert e.quantity("revenus", (victim, "Merveille")) == 0, "no colour"
    assert not e.allowed("retourner", (mag, victim, manoir)), "an embellished district cannot be turned over"
    top(e, st, "Temple", "Église")
    call(e, "Oracle")
    assert st.vars["retourné"][obs] is False
    gold(st)[victim] = 9
    caserne = give(e, st, victim, "main", "Caserne")[0]
    assert not e.allowed("bâtir", (victim, caserne)), "turning it back used the turn's construction"


def test_courtisane_tire_un_de_et_attaque_ce_numero():
    """Courtisane : « Le résultat du dé définit par le numéro à quel personnage elle peut s'attaquer » ;
    elle lui pique 2 pièces d'or."""
    e, st, agents = setup(NP, [["pièces", "dé_de_la_courtisane (Courtisane)", "non", "deux_pièces"], [], []])
    choose(e, st, 0, "Courtisane")
    choose(e, st, 1, "Oracle")
    gold(st)[1] = 5
    st.rng.choice = lambda options: 3 if options == list(range(1, 7)) else options[0]
    turn(e, 0, "Courtisane")
    assert gold(st) == {0: 2 + 2, 1: 3, 2: 0}


def test_troubadour_percoit_pour_une_couleur_d_une_cite_adverse():
    """Troubadour : « il perçoit 1 pièce d'or de la banque par quartier de cette couleur dans cette cité.
    Il peut également regarder la main du joueur possédant la cité. »"""
    e, st, agents = setup(NP, [["pièces", "chanson (Troubadour)", "Joueur 2", "Religieux"], [], []])
    choose(e, st, 0, "Troubadour")
    give(e, st, 1, "cité", "Temple", "Église", "Manoir")
    turn(e, 0, "Troubadour")
    assert gold(st)[0] == 2 + 2
    assert "Joueur 1" not in offered(agents[0]), "« il est interdit de jouer dans sa propre cité »"
    assert {"Merveille", "Maudit"}.isdisjoint(offered(agents[0])), "« sauf le violet et le noir »"
    assert any(ev["kind"] == "reveal" and ev.get("to") == 0 for ev in e.events)


def test_paysan_percoit_avant_son_choix_de_depart_et_ne_batit_que_petit():
    """Paysan : « Avant de faire son choix de départ, le Paysan perçoit 1 pièce d'or pour chaque quartier
    valant 1 ou 2 » ; « ne peut que construire qu'un quartier valant 3 pièces d'or ou moins »."""
    e, st, agents = setup(NP, [["pièces", "Terminer son tour"], [], []])
    choose(e, st, 0, "Paysan")
    give(e, st, 0, "cité", "Temple", "Église", "Manoir")
    give(e, st, 0, "main", "Cathédrale", "Monastère")
    gold(st)[0] = 10
    turn(e, 0, "Paysan")
    assert gold(st)[0] == 10 + 2 + 2
    assert agents[0].seen[0][0].startswith("recevoir_des_ressources") and gold(st)[0] == 14
    assert "bâtir(Joueur 1, Monastère)" in offered(agents[0])
    assert "bâtir(Joueur 1, Cathédrale)" not in offered(agents[0])


def test_prevot_taxe_les_adversaires_puis_pioche_a_la_fin_de_son_tour():
    """Prévôt : « S'il reste des pièces d'or à des joueurs adverses, le Prévôt les oblige à rendre 1 pièce à
    la banque. Enfin lorsque son tour est terminé, il pioche 2 cartes et 1 pièce d'or. »"""
    e, st, agents = setup(NP, [["pièces"], [], []])
    choose(e, st, 0, "Prévôt")
    gold(st)[1] = 3
    turn(e, 0, "Prévôt")
    assert gold(st) == {0: 2 + 1, 1: 2, 2: 0}
    assert len(st.zone("main", 0)) == 2


# ==================================================================== Les Nouveaux Personnages II

def test_kraken_prend_un_personnage_au_hasard_et_la_victime_en_pioche_un_ecarte():
    """Kraken : « cible un joueur qui doit donner aléatoirement un de ses personnages au possesseur du
    Kraken. Le joueur lésé pioche ensuite une carte au hasard parmi les personnages écartés » ; il n'a
    pas de choix de départ et ne peut pas construire."""
    e, st, agents = setup(NP2, [["Joueur 2"], [], []])
    choose(e, st, 0, "Kraken")
    choose(e, st, 1, "Lich")
    choose(e, st, 2, "Paladin")
    st.put(e.card("Templier"), "écartés_visibles", None, "top")
    give(e, st, 0, "main", "Temple")
    gold(st)[0] = 5
    turn(e, 0, "Kraken")
    assert names(e, st.zone("choisis", 0)) == ["Kraken", "Lich"]
    assert names(e, st.zone("choisis", 1)) == ["Templier"]
    assert gold(st)[0] == 5 and not any(label.startswith("bâtir") for label in offered(agents[0]))


def test_ashura_apres_les_0_protege_un_autre_de_ses_personnages():
    """Ashura : « Soit elle joue après les personnages ayant un 0 comme numéro. Dans ce cas, elle prend deux
    pièces d'or et protège … un des autres personnages du joueur qui la possède »."""
    e, st, agents = setup(NP2, [["oui", "Lich"], [], []])
    choose(e, st, 0, "Ashura", "Lich", "Templier")
    choose(e, st, 1, "Morphée")
    e.call("apparition_hors_rang", (0,))
    assert gold(st)[0] == 2 and st.vars["protégé"][e.card("Lich")] is True
    assert not e.allowed("endormir", (1, e.card("Lich"))), "« ne pourra ainsi plus être assassiné, volé, etc. »"
    assert e.allowed("endormir", (1, e.card("Templier"))) is False, "(the Templier cannot be called anyway)"
    assert e.allowed("endormir", (1, e.card("Paladin")))


def test_ashura_apres_les_3_double_les_revenus_d_un_autre_personnage():
    """Ashura : « elle pioche une carte et double la perception de pièces dues aux divers quartiers d'un
    autre personnage … le Roi prendra 2 pièces d'or par quartier noble (jaune) au lieu d'une seule. »"""
    e, st, agents = setup(NP2, [["non", "oui", "pièces", "revenus_du_templier (Templier)", "4"], [], []])
    choose(e, st, 0, "Ashura", "Templier")
    give(e, st, 0, "cité", "Temple", "Église")
    top(e, st, "Catacombes")                                    # the card she draws cannot be built
    e.call("apparition_hors_rang", (0,))
    e.call("apparition_hors_rang", (3,))
    assert len(st.zone("main", 0)) == 1 and st.vars["doublé"][e.card("Templier")] is True
    turn(e, 0, "Templier")
    assert gold(st)[0] == 2 + 4, "two religious districts, each paying twice"


def test_ashura_apres_les_6_batit_puis_detruit_un_quartier_moins_cher():
    """Ashura : « elle peut construire un quartier. Si, et seulement si, elle le fait, Ashura peut détruire un
    quartier, de valeur équivalente ou inférieure à celui construit, dans une cité d'un joueur adverse. »"""
    e, st, agents = setup(NP2, [["bâtir(Joueur 1, Château)", "oui"], [], []])
    choose(e, st, 0, "Ashura")
    give(e, st, 0, "main", "Château")
    give(e, st, 1, "cité", "Manoir", "Palais")
    gold(st)[0] = 4
    st.vars["moment_d_apparition"] = 6
    turn(e, 0, "Ashura")
    assert names(e, st.zone("cité", 0)) == ["Château"]
    assert names(e, st.zone("cité", 1)) == ["Palais"], "the Manoir (3 ≤ 4) is destroyed, not the Palais (5)"
    assert names(e, st.zone("défausse")) == ["Manoir"]
    st.vars["moment_d_apparition"] = 0
    e.invalidate()
    assert not e.allowed("bâtir", (0, give(e, st, 0, "main", "Temple")[0])), "she builds only after the 6s"


def test_mime_imite_l_eveque_apres_lui_pouvoir_construction_et_protection():
    """Mime : « Si, par exemple, le Mime choisit d'imiter l'Evêque, il sera protégé du Condottière, pourra
    construire un quartier et percevra 1 pièce d'or par quartier religieux (bleu) qu'il possède. »"""
    mime, other = 0, 1
    e, st, agents = setup(MIX, [
        ["pièces", "imitation_du_mime (Mime)", "Évêque", "revenus_religieux (Mime)", "bâtir(Joueur 1, Temple)"],
        [], [], [], []], swap={"Abbé": "Évêque"})
    choose(e, st, mime, "Mime")
    choose(e, st, other, "Condottiere")
    give(e, st, mime, "cité", "Église", "Monastère")
    give(e, st, mime, "main", "Temple")
    call(e, "Mime")
    assert not any(label.startswith("bâtir") for label in offered(agents[mime])), "no build in his own turn"
    assert not e.allowed("imiter", (mime, e.card("Architecte"), e.card("Mime"))) is False
    call(e, "Évêque")
    assert names(e, st.zone("cité", mime)) == ["Monastère", "Temple", "Église"]
    assert gold(st)[mime] == 2 + 2 - 1
    assert not e.allowed("détruire_par_le_condottiere", (other, mime, e.card("Église"))), \
        "the Évêque's protection, read with this = the Mime"


def test_mime_ne_peut_mimer_ni_un_mime_ni_le_templier_ni_prendre_la_couronne():
    """« excepté le Mime » ; le Templier « ne peut donc pas être … mimé » ; « le Mime ne peut s'emparer de la
    couronne »."""
    e, st, agents = setup(NP2, [[], [], []])
    mime = e.card("Mime")
    assert not e.allowed("imiter", (0, mime, mime))
    assert not e.allowed("imiter", (0, e.card("Templier"), mime))
    assert e.allowed("imiter", (0, e.card("Paladin"), mime))
    st.vars["personnage_actif"] = mime
    e.invalidate()
    assert not e.allowed("déplacer_la_couronne", (0, 0))


def test_morphee_endort_un_personnage_qui_joue_apres_tous_les_autres():
    """Morphée : « endort un personnage qui jouera après tous les autres personnages » ; « Il peut construire
    jusqu'à deux quartiers. »"""
    e, st, agents = setup(NP2, [["pièces", "sommeil (Morphée)", "Lich"], ["pièces", "Terminer son tour"], []])
    choose(e, st, 0, "Morphée")
    choose(e, st, 1, "Lich")
    call(e, "Morphée")
    assert st.vars["endormi_par"][e.card("Lich")] == 0
    assert e.quantity("permis_de_construire", (e.card("Morphée"),)) == 2
    e.call("appel", (4,))
    assert not st.vars["révélé"].get(e.card("Lich"), False), "not called at its rank"
    for rank in range(5, 11):
        e.call("appel", (rank,))
    call(e, "Lich")
    assert st.vars["révélé"][e.card("Lich")] is True, "called after every other"


def test_fee_verte_remplace_un_quartier_et_gagne_le_rabais_quand_l_echange_est_negatif():
    """Fée Verte, l'exemple : elle tire un 3, défausse le Manoir adverse, pose à sa place la 1re carte (le
    Phare, ici le Donjon : même valeur, un pouvoir) ; l'échange est négatif, elle bâtit avec 2 de rabais."""
    e, st, agents = setup(NP2, [["pièces", "sortilège_de_la_fée (Fée Verte)", "bâtir(Joueur 1, Château)"], [], []])
    choose(e, st, 0, "Fée Verte")
    give(e, st, 1, "cité", "Manoir", "Palais")
    give(e, st, 0, "main", "Château")
    top(e, st, "Donjon")
    gold(st)[0] = 3
    st.rng.choice = lambda options: 3 if options == list(range(1, 7)) else options[0]
    turn(e, 0, "Fée Verte")
    assert names(e, st.zone("cité", 1)) == ["Donjon", "Palais"] and names(e, st.zone("défausse")) == ["Manoir"]
    assert names(e, st.zone("cité", 0)) == ["Château"] and gold(st)[0] == 3 + 2 - 1 - (4 - 2)


def fee_verte_echange_temple_contre_taverne(cite_adverse: str) -> int:
    """The Fée Verte rolls a 1 and replaces the Temple in the city of Temple + ``cite_adverse`` by a
    Taverne (same value, neither has a power), then builds her Château: the gold she has left."""
    e, st, agents = setup(NP2, [["pièces", "sortilège_de_la_fée (Fée Verte)", "bâtir(Joueur 1, Château)"], [], []])
    choose(e, st, 0, "Fée Verte")
    give(e, st, 1, "cité", "Temple", cite_adverse)
    give(e, st, 0, "main", "Château")
    top(e, st, "Taverne")
    gold(st)[0] = 3
    st.rng.choice = lambda options: 1 if options == list(range(1, 7)) else options[0]
    turn(e, 0, "Fée Verte")
    assert names(e, st.zone("cité", 1)) == sorted(["Taverne", cite_adverse])
    assert names(e, st.zone("cité", 0)) == ["Château"]
    return gold(st)[0]


def test_fee_verte_les_cinq_couleurs_rendent_positif_l_echange_qui_retire_une_couleur_adverse():
    """Fée Verte, 3e critère : « Favorise l'obtention des 5 couleurs. » Temple et Taverne ont même valeur et
    pas de pouvoir ; la cité adverse (Temple, Marché) perd le Religieux : l'échange est positif, pas de rabais."""
    assert fee_verte_echange_temple_contre_taverne("Marché") == 3 + 2 - 1 - 4


def test_fee_verte_les_cinq_couleurs_rendent_negatif_l_echange_qui_donne_une_couleur_adverse():
    """Le même échange dans la cité (Temple, Monastère) lui donne le Commerçant sans lui ôter le Religieux :
    il est négatif, la Fée Verte bâtit avec 2 de rabais."""
    assert fee_verte_echange_temple_contre_taverne("Monastère") == 3 + 2 - 1 - (4 - 2)


def test_lich_defausse_une_carte_contre_sa_valeur_reduite():
    """Lich : « Si la carte défaussée vaut 4, 5 ou 6 pièces d'or, il récoltera respectivement 2, 3 ou 4 pièces
    d'or. On ne peut défausser les cartes valant 7 ou 8 pièces d'or. »"""
    e, st, agents = setup(NP2, [["pièces", "nécromancie (Lich)", "défausser_une_carte"], [], []])
    choose(e, st, 0, "Lich")
    give(e, st, 0, "main", "Palais", "Caverne d'Alí Baba")
    turn(e, 0, "Lich")
    assert gold(st)[0] == 2 + 3 and names(e, st.zone("défausse")) == ["Palais"]
    assert names(e, st.zone("main", 0)) == ["Caverne d'Alí Baba"]


def test_izanami_recoit_une_carte_d_un_joueur_qui_a_joue_et_une_piece_d_un_qui_jouera():
    """Izanami : « reçoit 1 carte, sans la choisir, d'un joueur ayant déjà joué au moins un personnage et
    1 pièce d'or d'un joueur à qui il reste au moins un personnage à jouer »."""
    e, st, agents = setup(NP2, [["pièces", "dons_d_izanami (Izanami)", "Terminer son tour"], [], []])
    choose(e, st, 0, "Izanami")
    choose(e, st, 1, "Lich")
    choose(e, st, 2, "Templier")
    st.vars["révélé"][e.card("Lich")] = True
    give(e, st, 1, "main", "Temple")
    give(e, st, 2, "main", "Église")
    gold(st).update({1: 3, 2: 3})
    turn(e, 0, "Izanami")
    assert names(e, st.zone("main", 0)) == ["Temple"]
    assert gold(st) == {0: 2 + 1, 1: 3, 2: 2}


@pytest.mark.parametrize("die, crown, coins", [(2, 0, 2), (5, 2, 4)])
def test_paladin_prend_la_couronne_sur_un_pair_ou_deux_pieces_sur_un_impair(die, crown, coins):
    """Paladin : « Il prend la couronne si le résultat est pair ou il reçoit 2 pièces d'or si le résultat est
    impair. »"""
    e, st, agents = setup(NP2, [["pièces", "serment_du_paladin (Paladin)", "couronne_ou_or"], [], []])
    choose(e, st, 0, "Paladin")
    st.vars["couronne"] = 2
    st.rng.choice = lambda options: die if options == list(range(1, 7)) else options[0]
    turn(e, 0, "Paladin")
    assert st.vars["couronne"] == crown and gold(st)[0] == coins


def test_invocateur_incarne_l_architecte_absent_de_la_partie():
    """Invocateur : « paye 1 pièce d'or afin d'annoncer un personnage de la 1re édition … (pour autant que ce
    dernier ne soit pas dans la partie en cours). Il joue ensuite le pouvoir et la construction du
    personnage choisi. »"""
    e, st, agents = setup(NP2, [["pièces", "invocation (Invocateur)", "Architecte", "deux_cartes (Invocateur)",
                                 "bâtir(Joueur 1, Temple)", "bâtir(Joueur 1, Église)", "bâtir(Joueur 1, Monastère)"],
                                [], []])
    choose(e, st, 0, "Invocateur")
    give(e, st, 0, "main", "Temple", "Église", "Monastère")
    gold(st)[0] = 10
    turn(e, 0, "Invocateur")
    assert names(e, st.zone("cité", 0)) == ["Monastère", "Temple", "Église"], "the Architecte's three builds"
    assert gold(st)[0] == 10 + 2 - 1 - 1 - 2 - 3 and len(st.zone("main", 0)) == 2, "its two cards"
    choices = next(labels for prompt, labels, _ in agents[0].seen if prompt.startswith("invocation"))
    assert "Artiste" in choices and "Évêque" in choices and "Échevin" not in choices


def test_flibustiere_ne_batit_pas_recoit_plus_et_pique_a_un_adversaire():
    """Flibustière : « ne peut pas construire de quartiers mais elle reçoit, en plus de son choix de départ,
    2 pièces d'or et 1 carte. Elle peut ensuite immédiatement piquer … 1 pièce d'or à un joueur adverse. » ;
    le Repaire des Pirates « C'est le seul moyen de construire si l'on a le Navigateur ou la Flibustière »."""
    e, st, agents = setup(NP2, [["pièces", "abordage (Flibustière)", "bâtir(Joueur 1, Repaire des Pirates)"], [], []])
    choose(e, st, 0, "Flibustière")
    give(e, st, 0, "main", "Temple", "Repaire des Pirates")
    gold(st)[1] = 3
    turn(e, 0, "Flibustière")
    assert gold(st) == {0: 2 + 2 + 1 - 3, 1: 2, 2: 0}
    assert len(st.zone("main", 0)) == 2, "the Temple and the card she drew"
    assert "bâtir(Joueur 1, Temple)" not in offered(agents[0])
    assert names(e, st.zone("cité", 0)) == ["Repaire des Pirates"]


def test_baal_batit_avec_quatre_de_rabais_et_maudit_le_quartier():
    """Ba'al : « un rabais de 4 pièces d'or … il doit en plus poser une de ses pièces sur la gemme de couleur
    de ce quartier … il perd son pouvoir …, perd sa couleur et il vaudra 1 point de victoire en moins » ;
    un Manoir et un « Manoir maudit » ; on ne peut pas embellir un quartier maudit."""
    e, st, agents = setup(NP2, [["pièces", "bâtir_maudit(Joueur 1, Observatoire)"], [], []])
    choose(e, st, 0, "Ba'al")
    give(e, st, 0, "main", "Observatoire")
    turn(e, 0, "Ba'al")
    obs = e.card("Observatoire")
    assert st.where[obs] == ("cité", 0) and st.vars["malédiction"][obs] == 1
    assert gold(st)[0] == 2 - 0 - 1
    assert e.quantity("cartes_piochées", (0,)) == 2, "no power"
    assert e.quantity("revenus", (0, "Merveille")) == 0, "no colour"
    assert e.quantity("score", (0,)) == 4 - 1
    assert not e.allowed("embellir", (0, obs))


def test_templier_ne_peut_etre_appele_et_le_lieu_de_pelerinage():
    """Templier : « ne peut être appelé, il ne peut donc pas être assassiné, volé, mimé, etc. » ; « 1 pièce d'or
    ou 1 carte (selon son choix) pour chaque quartier religieux » ; Lieu de Pèlerinage : « Le Templier peut
    aussi prélever 2 cartes ou 1 carte et 1 pièce d'or »."""
    e, st, agents = setup(NP2, [["pièces", "revenus_du_templier (Templier)", "1"], [], []])
    choose(e, st, 0, "Templier")
    give(e, st, 0, "cité", "Temple", "Lieu de Pèlerinage")
    assert not e.allowed("endormir", (1, e.card("Templier")))
    assert not e.allowed("imiter", (1, e.card("Templier"), e.card("Mime")))
    turn(e, 0, "Templier")
    assert gold(st)[0] == 2 + 1
    assert len(st.zone("main", 0)) == 1 + 1, "one card for a religious district, one more for the pilgrimage"


# ==================================================================== Les Nouveaux Quartiers

def test_reserve_naturelle_kermesse_et_distillerie_comptent_pour_leur_couleur():
    """Reserve naturelle : « Ce quartier sans pouvoir sert à avoir un quartier noble pour prélever des
    impôts » ; la Kermesse et la Distillerie (Marchand) : des quartiers verts sans effet écrit."""
    e, st, agents = setup(MIX, [[], [], [], [], []])
    give(e, st, 0, "cité", "Reserve naturelle", "Kermesse", "Distillerie")
    assert e.quantity("revenus", (0, "Noble")) == 1 and e.quantity("revenus", (0, "Commerçant")) == 2
    assert e.quantity("score", (0,)) == 0 + 3 + 7
    assert not any(e.program.cards[n].powers or e.program.rules_of_card(n)
                   for n in ("Reserve naturelle", "Kermesse", "Distillerie"))


def test_salle_de_jeu_rend_le_resultat_du_de():
    """Salle de Jeu : « vous pouvez tenter de les récupérer au moment de la construction en tirant un dé et en
    récupérant la somme indiquée par celui-ci »."""
    e, st, agents = setup(NP2, [["pièces", "bâtir(Joueur 1, Salle de Jeu)", "oui", "Terminer son tour"], [], []])
    choose(e, st, 0, "Lich")
    give(e, st, 0, "main", "Salle de Jeu")
    gold(st)[0] = 6
    st.rng.choice = lambda options: 4 if options == list(range(1, 7)) else options[0]
    turn(e, 0, "Lich")
    assert gold(st)[0] == 6 + 2 - 6 + 4


def test_camelot_rapporte_apres_le_choix_des_personnages():
    """Camelot : « N'oubliez pas de prendre vos pièces d'or après le choix des personnages. »"""
    e, st, agents = setup(NP2, [[], [], []])
    give(e, st, 1, "cité", "Camelot")
    e.signal("fin_du_choix", ())
    assert gold(st) == {0: 0, 1: 1, 2: 0}


def test_crypte_prend_une_carte_de_la_defausse():
    """Crypte : « identique au Phare, mais il concerne la défausse » : en la bâtissant, on y prend une carte."""
    e, st, agents = setup(NP2, [["pièces", "bâtir(Joueur 1, Crypte)", "oui", "Palais", "Terminer son tour"], [], []])
    choose(e, st, 0, "Lich")
    give(e, st, 0, "main", "Crypte")
    for name in ("Temple", "Palais"):
        st.put(next(c for c in e.instances[e.def_ids[name]] if st.where[c][0] == "pioche"), "défausse", None, "top")
    gold(st)[0] = 1
    turn(e, 0, "Lich")
    assert names(e, st.zone("main", 0)) == ["Palais"] and names(e, st.zone("défausse")) == ["Temple"]


def test_statue_embellit_jusqu_a_trois_quartiers():
    """Statue : « S'il vous reste des pièces au moment où vous construisez la Statue, vous pouvez embellir
    jusqu'à 3 quartiers (la Statue y compris). »"""
    e, st, agents = setup(NP2, [["pièces", "bâtir(Joueur 1, Statue)", "oui", "Statue", "Temple", "(rien)",
                                 "Terminer son tour"], [], []])
    choose(e, st, 0, "Lich")
    give(e, st, 0, "cité", "Temple", "Église", "Manoir")
    give(e, st, 0, "main", "Statue")
    gold(st)[0] = 7
    turn(e, 0, "Lich")
    assert gold(st)[0] == 7 + 2 - 4 - 2
    assert st.vars["embellissement"][e.card("Statue")] == 1 and st.vars["embellissement"][e.card("Temple")] == 1


def test_basilique_de_l_extension_ultime_defense():
    """Basilique : « L'ultime défense face au Condottière, Diplomate, Magistrat, Ashura, la Fée Verte et même
    la Poudrière. »"""
    e, st, agents = setup(MIX, [[], [], [], [], []])
    basilique, = give(e, st, 1, "cité", "Basilique")
    mine, = give(e, st, 0, "cité", "Temple")
    gold(st)[0] = 20
    assert e.program.cards["Basilique"].attrs[0].value.id == "Religieux"
    assert not e.allowed("détruire", (0, 1, basilique))
    assert not e.allowed("échanger", (0, basilique, 1, mine))
    assert not e.allowed("retourner", (0, 1, basilique))
    assert not e.allowed("échanger_par_la_fée", (0, 1, basilique))


def test_arsenal_une_carte_de_plus_aux_personnages_rouges():
    """Arsenal : « permet d'offrir 1 carte en plus aux personnages "rouges" »."""
    e, st, agents = setup(MIX, [["pièces", "Terminer son tour"], [], [], [], []])
    choose(e, st, 0, "Condottiere")
    give(e, st, 0, "cité", "Arsenal")
    turn(e, 0, "Condottiere")
    assert len(st.zone("main", 0)) == 1


def test_dragon_fait_payer_l_attaquant_et_l_hopital_dedommage():
    """Dragon, lu comme l'opposé de la Grande Muraille : l'attaquant de sa cité paie 1 pièce d'or à son
    propriétaire ; Hôpital : « Toutes les attaques … que vous subissez vous rapportent 1 pièce d'or. »"""
    e, st, agents = setup(MIX, [["pièces", "détruire_un_quartier (Condottiere)", "Terminer son tour"],
                                [], [], [], []])
    choose(e, st, 0, "Condottiere")
    give(e, st, 1, "cité", "Dragon", "Hôpital", "Temple")
    turn(e, 0, "Condottiere")
    assert names(e, st.zone("cité", 1)) == ["Dragon", "Hôpital"]
    assert gold(st)[0] == 2 - 0 - 1 and gold(st)[1] == 1 + 1


def test_hopital_ne_dedommage_pas_une_attaque_contree():
    """Une attaque contrée par le Mercenaire n'a pas eu lieu : l'Hôpital ne rapporte rien (décision
    contre_d_abord)."""
    e, st, agents = setup(MIX, [["pièces", "détruire_un_quartier (Condottiere)", "Terminer son tour"],
                                ["oui"], [], [], []])
    choose(e, st, 0, "Condottiere")
    choose(e, st, 1, "Mercenaire")
    st.vars["jeton"][e.card("Mercenaire")] = 1
    give(e, st, 1, "cité", "Hôpital", "Temple")
    turn(e, 0, "Condottiere")
    assert len(st.zone("cité", 1)) == 2 and gold(st)[1] == 0 and gold(st)[0] == 2 + 1


def test_maison_close_embellie_quand_on_joue_une_dame():
    """Maison Close : « embelli d'une pièce d'or de la banque à chaque fois que vous jouez la Sorcière, la
    Reine, l'Oracle, la Courtisane, Ashura, la Fée Verte ou Izanami. »"""
    e, st, agents = setup(NP2, [["pièces", "Terminer son tour", "pièces", "Terminer son tour"], [], []])
    choose(e, st, 0, "Izanami", "Lich")
    maison, = give(e, st, 0, "cité", "Maison Close")
    turn(e, 0, "Izanami")
    turn(e, 0, "Lich")
    assert st.vars["embellissement"][maison] == 1


def test_tour_blanche_protege_des_quartiers_maudits_et_rapporte():
    """Tour Blanche : « vous protéger des effets néfastes des quartiers maudits adverses … 1 point de victoire
    supplémentaire par quartier maudit que vous possédez (y compris ceux de Ba'al) »."""
    e, st, agents = setup(NP2, [[], [], []])
    give(e, st, 1, "cité", "Tour Blanche", "Idole", "Manoir")
    gold(st)[1] = 5
    assert not e.allowed("égorger", (0, 1))
    assert not e.allowed("copier", (0, 1, e.card("Manoir")))
    before = e.quantity("score", (1,))
    st.vars["malédiction"][e.card("Manoir")] = 1
    e.invalidate()
    assert e.quantity("score", (1,)) == before + 1 - 1, "one more cursed district: +1, and Ba'al's -1"
    assert e.quantity("score", (1,)) == 6 + 2 + 3 + 2 - 1


def test_caverne_d_ali_baba_double_l_or_des_ressources():
    """Caverne d'Alí Baba : « identique à la Bibliothèque mais concernant les pièces d'or »."""
    e, st, agents = setup(NP2, [["pièces", "Terminer son tour"], [], []])
    choose(e, st, 0, "Lich")
    give(e, st, 0, "cité", "Caverne d'Alí Baba")
    turn(e, 0, "Lich")
    assert gold(st)[0] == 4


# ==================================================================== Les Quartiers Maudits

def test_chateau_hante_et_coupe_gorge_s_appliquent_immediatement():
    """Château hanté : « L'effet de cette carte s'applique immédiatement » (une carte au hasard de la main de
    la victime) ; Coupe-gorge : « identique au Château hanté, mais il concerne 1 pièce d'or »."""
    e, st, agents = setup(NP2, [["pièces", "bâtir(Joueur 1, Château hanté)", "Terminer son tour",
                                 "pièces", "bâtir(Joueur 1, Coupe-gorge)", "Terminer son tour"], [], []])
    choose(e, st, 0, "Lich", "Paladin")
    give(e, st, 0, "main", "Château hanté", "Coupe-gorge")
    give(e, st, 1, "main", "Temple")
    gold(st).update({0: 1, 1: 3})
    turn(e, 0, "Lich")
    assert names(e, st.zone("main", 0)) == ["Coupe-gorge", "Temple"]
    turn(e, 0, "Paladin")
    assert gold(st)[1] == 2 and names(e, st.zone("cité", 0)) == ["Château hanté", "Coupe-gorge"]


def test_idole_deux_adversaires_l_embellissent():
    """Idole : « ce sont 2 de vos adversaires qui devront embellir votre Idole. Si 3 joueurs ou plus peuvent
    l'embellir, c'est vous qui choisissez qui le fera. »"""
    e, st, agents = setup(MIX, [["pièces", "bâtir(Joueur 1, Idole)", "Joueur 2", "Joueur 4", "Terminer son tour"],
                                [], [], [], []])
    choose(e, st, 0, "Marchande")
    give(e, st, 0, "main", "Idole")
    gold(st).update({1: 2, 2: 2, 3: 2})
    turn(e, 0, "Marchande")
    assert st.vars["embellissement"][e.card("Idole")] == 2
    assert gold(st) == {0: 0 + 2 - 2, 1: 1, 2: 2, 3: 1, 4: 0}


def test_echafaud_fait_jouer_l_assassin():
    """Echafaud : « ce quartier vous permet de jouer momentanément l'Assassin et ce même si vous le construisez
    avec le Marchand pour être sûr d'assassiner le Condottière »."""
    e, st, agents = setup(MIX, [["pièces", "bâtir(Joueur 1, Echafaud)", "oui", "assassinat (Assassin)",
                                 "Condottiere", "Terminer son tour"], [], [], [], []])
    choose(e, st, 0, "Marchande")
    give(e, st, 0, "main", "Echafaud")
    gold(st)[0] = 2
    turn(e, 0, "Marchande")
    assert st.vars["assassiné"][e.card("Condottiere")] is True and st.vars["assassiné_par"][e.card("Condottiere")] == 0


def test_palais_des_glaces_copie_le_pouvoir_d_un_quartier_adverse():
    """Palais des Glaces : « Copiez le pouvoir d'un quartier déjà existant dans une cité adverse … Si le
    quartier copié est détruit, le Palais des Glaces reste en place et son pouvoir perdure. »"""
    e, st, agents = setup(NP2, [["pièces", "bâtir(Joueur 1, Palais des Glaces)", "oui", "Joueur 2",
                                 "forge_piocher (Palais des Glaces)", "Terminer son tour"], [], []])
    choose(e, st, 0, "Lich")
    give(e, st, 0, "main", "Palais des Glaces")
    give(e, st, 1, "cité", "Forge")
    give(e, st, 2, "cité", "Caverne d'Alí Baba")
    gold(st)[0] = 4
    turn(e, 0, "Lich")
    assert len(st.zone("main", 0)) == 3 and gold(st)[0] == 4 + 2 - 4 - 2, "the Forge's power, used by its copy"
    st.put(e.card("Forge"), "défausse", None, "top")
    palais = e.card("Palais des Glaces")
    assert [p.name for p in e.offered_powers(palais)] == ["forge_piocher"], "the power stays"
    st.vars["copie"][palais] = e.card("Caverne d'Alí Baba")
    e.invalidate()
    assert e.quantity("or_reçu", (0,)) == 4, "a copied rule, read with this = the Palais des Glaces"
    st.vars["copie"][palais] = e.card("Observatoire")
    e.invalidate()
    assert e.quantity("cartes_piochées", (0,)) == 3, "a rule of the 4th edition's Merveilles, copied"
    st.vars["copie"][palais] = e.card("Donjon")
    gold(st)[1] = 9
    e.invalidate()
    assert not e.allowed("détruire_par_le_condottiere", (1, 0, palais)), "the Donjon's protection covers the copy"


def test_tripot_et_pont_du_diable_se_batissent_autrement():
    """Tripot : « le construire en défaussant 2 de vos cartes quartier » ; Pont du Diable : « en détruisant un
    de vos quartiers déjà construit (cela compte comme une construction) »."""
    e, st, agents = setup(NP2, [["pièces", "bâtir_le_tripot(Joueur 1, Tripot)", "Temple", "Église",
                                 "Terminer son tour", "pièces", "bâtir_sur_le_pont(Joueur 1, Pont du Diable, Manoir)",
                                 "Terminer son tour"],
                                [], []])
    choose(e, st, 0, "Lich", "Paladin")
    give(e, st, 0, "main", "Tripot", "Temple", "Église", "Pont du Diable")
    give(e, st, 0, "cité", "Manoir")
    turn(e, 0, "Lich")
    assert names(e, st.zone("cité", 0)) == ["Manoir", "Tripot"] and gold(st)[0] == 2
    assert names(e, st.zone("défausse")) == ["Temple", "Église"]
    turn(e, 0, "Paladin")
    assert names(e, st.zone("cité", 0)) == ["Pont du Diable", "Tripot"] and gold(st)[0] == 4
    assert not e.allowed("bâtir", (0, give(e, st, 0, "main", "Taverne")[0])), "it counted as the construction"


# ==================================================================== Les Quartiers Remodelés

def test_manufacture_puis_un_second_quartier_au_rabais_jusqu_a_quatre_pour_l_architecte():
    """Manufacture : « Construisez ce quartier puis un second quartier avec un rabaïs d'une pièce d'or. Si
    l'Architecte le construit, son nombre de constructions peut donc aller jusqu'à 4 ! »"""
    e, st, agents = setup(MIX, [["pièces", "bâtir(Joueur 1, Manufacture)", "bâtir(Joueur 1, Temple)",
                                 "bâtir(Joueur 1, Église)", "bâtir(Joueur 1, Monastère)", "Terminer son tour"],
                                [], [], [], []])
    choose(e, st, 0, "Architecte")
    give(e, st, 0, "main", "Manufacture", "Temple", "Église", "Monastère")
    gold(st)[0] = 9
    turn(e, 0, "Architecte")
    assert len(st.zone("cité", 0)) == 4
    assert gold(st)[0] == 9 + 2 - 5 - 0 - 2 - 3, "the Temple right after the Manufacture costs 1 less"


def test_laboratoire_dans_les_deux_sens():
    """Laboratoire : « Le pouvoir ne change pas sauf que vous pouvez maintenant faire l'inverse en plus :
    échanger 1 pièce contre 1 carte. »"""
    e, st, agents = setup(NP2, [["pièces", "laboratoire_défausser (Laboratoire)", "laboratoire_acheter (Laboratoire)",
                                 "Terminer son tour"], [], []])
    choose(e, st, 0, "Lich")
    give(e, st, 0, "cité", "Laboratoire")
    give(e, st, 0, "main", "Catacombes")
    turn(e, 0, "Lich")
    assert gold(st)[0] == 2 + 2 - 1 and names(e, st.zone("défausse")) == ["Catacombes"]
    assert len(st.zone("main", 0)) == 1


def test_cimetiere_rachete_ce_qu_un_autre_defausse():
    """Cimetière : « Toutes les cartes partant à la défausse peuvent être rachetées, excepté lorsque vous êtes
    impliqué dans l'affaire … si un joueur choisit 1 carte parmi 2, vous pouvez racheter celle qu'il
    défausse. »"""
    e, st, agents = setup(NP2, [["cartes", "Temple", "Terminer son tour"], ["oui"], []])
    choose(e, st, 0, "Lich")
    give(e, st, 1, "cité", "Cimetière")
    gold(st)[1] = 2
    top(e, st, "Palais", "Temple")
    turn(e, 0, "Lich")
    assert names(e, st.zone("main", 1)) == ["Palais"] and gold(st)[1] == 1
    assert e.program.cards["Cimetière"].powers[0].requires is not None
    own, = give(e, st, 1, "main", "Manoir")
    st.vars["joueur_actif"] = 1
    e.call("défausser", (1, 1, own))
    assert names(e, st.zone("défausse")) == ["Manoir"], "not when he is involved"


# ==================================================================== personnages remodelés

def test_abbe_protege_des_rouges_quand_l_eveque_n_est_pas_en_jeu():
    """Abbé : « Si l'Evêque n'est pas en jeu, on peut lui offrir la protection contre les personnages "rouges"
    (Condottière, Diplomate et Geôlier). »"""
    e, st, agents = setup(MIX, [[], [], [], [], []])
    choose(e, st, 1, "Abbé")
    temple, = give(e, st, 1, "cité", "Temple")
    gold(st)[0] = 9
    assert not e.allowed("détruire_par_le_condottiere", (0, 1, temple))
    e2, st2, _ = setup(MIX, [[], [], [], [], []], swap={"Marchande": "Évêque"})
    choose(e2, st2, 1, "Abbé")
    choose(e2, st2, 2, "Évêque")
    temple2, = give(e2, st2, 1, "cité", "Temple")
    gold(st2)[0] = 9
    assert e2.allowed("détruire_par_le_condottiere", (0, 1, temple2)), "the Évêque is in play: no protection"


def test_reine_recoit_pour_ses_quartiers_nobles_loin_du_roi():
    """Reine : « Si elle n'est pas à côté du Roi, chaque quartier noble qu'elle possède lui rapporte 1 pièce
    d'or. »"""
    e, st, agents = setup(MIX, [[], [], ["pièces", "quartiers_nobles_de_la_reine (Reine)"], [], []])
    choose(e, st, 0, "Roi")
    choose(e, st, 2, "Reine")
    give(e, st, 2, "cité", "Manoir", "Château", "Temple")
    turn(e, 2, "Reine")
    assert gold(st)[2] == 2 + 2
    assert "trois_pièces (Reine)" not in offered(agents[2])


def test_l_artiste_a_la_gemme_ronde_et_joue_avant_la_reine():
    """Artiste : « L'Artiste est considéré comme un personnage de la 1re édition avec une gemme ronde » ; au
    même rang, la gemme ronde joue avant la gemme carrée (la Reine)."""
    e, st, agents = setup(MIX, [["pièces", "Terminer son tour"], ["pièces", "Terminer son tour"], [], [], []])
    assert e.quantity("gemme", (e.card("Artiste"),)) == "ronde"
    assert e.quantity("gemme", (e.card("Reine"),)) == "carrée"
    choose(e, st, 0, "Reine")
    choose(e, st, 1, "Artiste")
    give(e, st, 1, "cité", "Temple")
    e.call("appel", (9,))
    revealed = [ev["value"] for ev in e.events if ev["kind"] == "reveal"]
    assert revealed == ["Artiste", "Reine"]


# ==================================================================== changements de règles

def test_ordre_des_gemmes_le_mercenaire_avant_le_kraken():
    """« Seul le Mercenaire peut jouer avant le Kraken » : au rang 0, la gemme pentagonale avant l'étoilée."""
    e, st, agents = setup(NP2, [["Joueur 2"], ["pièces", "non"], []], swap={"Ashura": "Mercenaire"})
    choose(e, st, 0, "Kraken")
    choose(e, st, 1, "Mercenaire", "Lich")
    choose(e, st, 2, "Paladin")
    e.call("appel", (0,))
    revealed = [ev["value"] for ev in e.events if ev["kind"] == "reveal" and ev.get("to") is None]
    assert revealed == ["Mercenaire", "Kraken"]


def test_la_partie_finit_a_dix_quartiers_et_le_noir_n_est_pas_une_couleur_du_bonus():
    """« la fin de la partie a été fixée au premier joueur atteignant les 10 quartiers » ; « Il n'est pas
    nécessaire d'avoir un quartier maudit (noir) pour avoir le bonus de couleur. »"""
    e, st, agents = setup(NP2, [[], [], []])
    give(e, st, 0, "cité", "Temple", "Manoir", "Caserne", "Taverne", "Forge", "Église", "Château", "Prison", "Marché")
    assert e.quantity("cité_complète_à", ()) == 10 and not e.quantity("complète", (0,))
    score = e.quantity("score", (0,))
    assert score == 1 + 3 + 3 + 1 + 5 + 2 + 4 + 2 + 2 + 3, "five colours without the black: +3"
    give(e, st, 0, "cité", "Monastère")
    e.invalidate()
    assert e.quantity("complète", (0,))


def test_trois_personnages_chacun_un_ecarte_un_au_hasard_deux_tours_de_selection():
    """« nous écartons 1 personnage, en distribuons 1 aléatoirement et faisons 2 tours de sélection … 1 ou 2
    personnages écartés à la fin (face visible) »."""
    e, st, agents = setup(NP, [[], [], []])
    e.agents = [RandomAgent(k) for k in range(3)]
    st.vars["couronne"] = 1
    asked = collections.Counter()
    e.observer = lambda d: asked.update([d.player]) if d.prompt.startswith("choisir_un_personnage") else None
    e.call("choix_des_personnages", ())
    e.observer = None
    assert [len(st.zone("choisis", p)) for p in range(3)] == [3, 3, 3]
    assert asked == {0: 2, 1: 2, 2: 2}, "two rounds of choice each; the third character was dealt"
    assert len(st.zone("écartés_cachés")) == 1 and len(st.zone("écartés_visibles")) == 12 - 10


# ==================================================================== parties entières

@pytest.mark.parametrize("config, players", [(NP, 3), (NP2, 3), (MIX, 5)])
def test_une_partie_entiere_garde_ses_invariants(config, players):
    e = engine()
    e.recording = True
    program = checked().program
    selection = select(program, program.configurations[config], players)
    result = e.play(selection.cards, players, 7, [RandomAgent(700 + k) for k in range(players)])
    st = e.st
    in_zones = sum(len(z) if isinstance(z, list) else sum(len(x) for x in z.values()) for z in st.zones.values())
    assert in_zones == len(e.defs) == len(st.where)
    for name, var in program.vars.items():
        if var.counter and not var.unlimited:
            values = st.vars[name].values() if isinstance(st.vars[name], dict) else [st.vars[name]]
            assert all(v >= 0 for v in values), name
    assert any(e.quantity("taille_cité", (p,)) >= 10 for p in range(players)), "the game ended at 10 districts"
    assert result.winners and 1 <= result.rounds <= 60
    used = {ev["card"] for ev in result.events if ev["kind"] == "power"}
    assert len(used & {c for c in selection.cards["Character"]}) >= 6


def test_z3_et_l_interpreteur_s_accordent_sur_une_partie_de_l_extension():
    """One semantics, two backends: at sampled decision points of a game of the expansion, Z3's legal moves
    are the interpreter's options (rules of active and imitated cards included)."""
    from checker.solver.legal import Legality, interpreter_moves, point_of
    from checker.solver.scopes import Scopes
    e = Engine(checked().typed)
    e.recording = False
    scopes = Scopes(checked().typed)
    program = checked().program
    compared, disagreements = 0, []

    def observe(decision):
        nonlocal compared
        if compared >= 60 or e.decisions % 3:
            return
        point = point_of(decision, scopes)
        z3_moves = Legality(e, scopes).moves(point)
        compared += 1
        if collections.Counter(z3_moves) != collections.Counter(interpreter_moves(decision)):
            disagreements.append((decision.prompt, z3_moves, interpreter_moves(decision)))
    e.observer = observe
    for config, players, seed in ((NP2, 3, 4), (MIX, 5, 5)):
        compared = 0
        selection = select(program, program.configurations[config], players)
        e.play(selection.cards, players, seed, [RandomAgent(seed * 10 + k) for k in range(players)])
        assert compared == 60, (config, compared)
    assert not disagreements, disagreements[:3]


# ==================================================================== le livre

def test_the_book_renders_every_card_of_the_expansion():
    """The book's pages for the expansion: every card with effects has its page in French prose (the prose
    generator raises on a construct it cannot say), the new constructs included."""
    from checker.sphinxext import Book, render
    book = Book.load([ROOT / p for p in FAN], ROOT / "docs" / "lexique.toml")
    pages = {name: render(book, "card", name) for name, card in checked().program.cards.items()
             if book.has_page(card) and (card.name in ("Mercenaire", "Prince", "Oracle") or
                                         any(c.source == "fan" for c in card.cites))}
    assert len(pages) >= 40
    assert "L'action qui allait avoir lieu est annulée" in pages["Mercenaire"]
    assert "si et seulement si ce sens est **horaire**" in pages["Prince"]
    assert "sens inverse des aiguilles d'une montre" in render(book, "chapter", "draft")
    assert "Au départ, *fini* vaut non." in pages["Oracle"] and "désormais, *fini* vaut oui" in pages["Oracle"]
    glossary = render(book, "glossary")
    assert "ne s'appliquent que tant que ce quartier est en état" in glossary
    assert "Avant qu'un joueur ne puisse détruire un quartier dans la cité d'un joueur, ce moment s'ouvre : " \
           "le premier joueur attaque le second joueur" in glossary, "two players told apart by their order"
    variants = render(book, "variants")
    assert "**Étend** :" in variants and "« Reserve naturelle »" in variants


# ==================================================================== conflits réglés

@pytest.mark.parametrize("winner, loser", [
    ("ashura_protège", "menacer_un_personnage_mandaté"),            # a contradiction
    ("kraken_sans_choix_de_départ", "geôlier_privé_du_choix_de_départ"),   # competing values
    ('"Bailli".taxe', '"Statue".statue_embellir'),                      # an order of reactions
])
def test_removing_a_precedence_of_the_expansion_brings_its_conflict_back(winner, loser):
    """`rulebook conflicts spec/citadelles spec/extension-fan` reports nothing unresolved; each precedence of
    40-préséances.rules settles a conflict the finder reports, with a witness, once it is taken away."""
    import dataclasses
    from checker.conflicts.questions import Search
    from checker.front.typecheck import Typed
    typed = checked().typed
    pair = {(winner, loser), (loser, winner)}

    def search(program):
        s = Search(Typed(program, typed.types), players=3)
        return s.contradictions(only=pair) + s.competing_values(only=pair) + s.order_dependence(only=pair)
    settled = search(typed.program)
    assert settled and not any(f.unresolved for f in settled)
    program = dataclasses.replace(typed.program, precedences=[
        p for p in typed.program.precedences if (str(p.winner), str(p.loser)) != (winner, loser)])
    back = [f for f in search(program) if f.unresolved and set(f.rules) == {winner, loser}]
    assert back and back[0].witness is not None


SAME_RANK_ORDERS = [
    ('"Voleur".détroussement', '"Charlatan".paiement'),                              # rang 2, à la révélation
    ('"Roi".héritier_du_roi', '"Empereur".conseiller_de_l_empereur'),                # rang 4, à la fin des appels
    ('"Roi".héritier_du_roi', '"Patricien".héritier_du_patricien'),
    ('"Empereur".conseiller_de_l_empereur', '"Patricien".héritier_du_patricien'),
]


def test_same_rank_reactions_are_ordered_by_the_gems():
    """Several characters of one rank play in the same round, so two of them can react to one window: the
    Voleur's theft and the Charlatan's scam of the same character, the crown powers of two assassinated rank-4
    characters.  The search pairs them (without the spec's precedences they are unresolved, with a witness);
    40-préséances.rules orders each pair as the gems do (ronde, carrée, then the 4th edition's)."""
    import dataclasses
    from checker.conflicts.questions import Search
    from checker.front.typecheck import Typed
    typed = checked().typed
    only = set(SAME_RANK_ORDERS)

    def search(program):
        return Search(Typed(program, typed.types), players=2).order_dependence(only=only)
    settled = search(typed.program)
    assert {frozenset(f.rules) for f in settled} == {frozenset(pair) for pair in only}
    assert not [f.message for f in settled if f.unresolved]
    assert {f.winner for f in settled} == {a for a, _ in SAME_RANK_ORDERS}
    program = dataclasses.replace(typed.program, precedences=[
        p for p in typed.program.precedences if (str(p.winner), str(p.loser)) not in only])
    back = search(program)
    assert {frozenset(f.rules) for f in back if f.unresolved and f.witness is not None} == \
        {frozenset(pair) for pair in only}


def test_a_state_of_the_expansion_reads_back_with_a_card_not_in_the_game(tmp_path, capsys):
    """The Invocateur's imitation holds a character that is not in the game (the Magicienne): a state file
    written at that point is read back by `rulebook moves`, which lists the legal moves."""
    from checker.cli import main
    state = tmp_path / "etat.json"
    assert main(["play", "spec/citadelles", "spec/extension-fan", "-n", "3", "-s", "2", "-c", NP2, "-q",
                 "--state-at", "40", str(state)]) == 0
    assert '"Invocateur": "Magicienne"' in state.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["moves", str(state)]) == 0
    out = capsys.readouterr().out
    assert "legal move(s)" in out and "Traceback" not in out


def test_the_engine_knows_no_card_of_the_expansion_by_name():
    """checker/ names no card of the expansion either: every construct it needed is general."""
    import re
    names = sorted({c.name for c in checked().program.cards.values()}, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w-])")
    hits = [f"{path.relative_to(ROOT)}:{number}: {m.group(1)}"
            for path in sorted((ROOT / "checker").rglob("*.py"))
            for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1)
            for m in pattern.finditer(line)]
    assert hits == []
    assert pattern.search('if name == "Mercenaire":'), "the check must be able to fail"
