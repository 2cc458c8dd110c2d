"""Scenario tests for the rule-level precedences of the specs (`precedence a over b`), each with the case
it decides played through, named after the rulebook paragraph that states it.  A precedence ignored at
run time (the engine not reading it) fails here: two values with no winner stop the game with a located
error, and a permission left facing a prohibition is reported as an unordered pair.

The order precedences between powers (`precedence "A".x over "B".y`) are played in
tests/test_scenarios_powers.py (Hospice before Alchimiste)."""

from __future__ import annotations

from checker.runtime import Engine
from checker.runtime.agents import RandomAgent
from test_scenarios import names, setup
from test_scenarios_powers import choose, give, setup_with


# ==================================================================== Sorcier and Écuries

def test_sorcier_ecuries_prises_et_baties_aussitot_hors_permis():
    """Sorcier : « soit la bâtir immédiatement dans votre cité en en payant normalement le coût, mais elle
    ne compte pas dans votre permis de construire. »  Écuries : « Bâtir les Écuries ne compte pas dans le
    permis de construire du tour. »  Both rules give the Écuries taken and built at once the same count (0);
    `precedence sorcier_hors_permis over écuries_hors_permis` says which is read.  Played through: the
    Sorcier takes the Écuries from Joueur 2's hand, builds them at once, then builds his Manoir."""
    wizard, other = 0, 1
    e, st, agents = setup("Développement", 4, [
        ["pièces", "sortilège (Sorcier)", "Joueur 2", "Écuries", "oui", "bâtir(Joueur 1, Manoir)"], [], [], []])
    choose(e, st, wizard, "Sorcier")
    give(e, st, other, "main", "Écuries", "Temple")
    give(e, st, wizard, "main", "Manoir")
    st.vars["trésor"].update({wizard: 3, other: 0})

    e.call("tour", (wizard, e.card("Sorcier")))

    assert names(e, st.zone("cité", wizard)) == ["Écuries", "Manoir"]
    assert names(e, st.zone("main", other)) == ["Temple"]
    assert st.vars["trésor"][wizard] == 3 + 2 - 2 - 3
    assert agents[wizard].answers == []


# ==================================================================== Carrière and the three acquisitions

def _carriere_owner(character: str, rival_city: list[str]):
    """Joueur 1 plays ``character`` with a Carrière and a Temple in his city; Joueur 2's city holds
    ``rival_city``."""
    owner, other = 0, 1
    e, st, _ = setup_with("Développement", 4, [[], [], [], []],
                          {"Capitaine": "Diplomate"} if character == "Diplomate" else {})
    choose(e, st, owner, character)
    choose(e, st, other, "Négociant")
    give(e, st, owner, "cité", "Carrière", "Temple")
    placed = give(e, st, other, "cité", *rival_city)
    st.vars["trésor"].update({owner: 9, other: 0})
    st.vars["personnage_actif"] = e.card(character)
    return e, st, placed


def test_carriere_mais_pas_par_l_echevin():
    """Carrière : « mais ne peut pas utiliser l'Échevin, le Diplomate ou le Capitaine pour acquérir des
    quartiers identiques. »  `precedence échevin_pas_de_doublon over carrière_doublons`: the Échevin with
    a Carrière may not confiscate a Temple; the prohibition wins, and nothing is left unordered."""
    e, st, _ = _carriere_owner("Échevin", [])
    temple = give(e, st, 1, "main", "Temple")[0]
    st.vars["mandat"][e.card("Négociant")] = "signé"          # Joueur 2 is building, in his turn
    st.vars["personnage_actif"] = e.card("Négociant")
    st.vars["construction_payée"] = True
    st.vars["constructions_payées"] = 1
    legal, forbidding, permitting, unordered = e.legal("confisquer", (0, temple))
    assert not legal and forbidding == ["échevin_pas_de_doublon"] and permitting == ["carrière_doublons"]
    assert unordered == [], "the precedence orders the pair"
    manoir = give(e, st, 1, "main", "Manoir")[0]
    assert e.legal("confisquer", (0, manoir))[0], "another district may be confiscated"


def test_carriere_mais_pas_par_le_diplomate():
    """Carrière : « … ne peut pas utiliser … le Diplomate … pour acquérir des quartiers identiques. »"""
    e, st, (temple, manoir) = _carriere_owner("Diplomate", ["Temple", "Manoir"])
    legal, forbidding, permitting, unordered = e.legal("échanger", (0, temple, 1, e.card("Carrière")))
    assert not legal and "diplomate_pas_de_doublon" in forbidding and "carrière_doublons" in permitting
    assert unordered == []
    assert e.legal("échanger", (0, manoir, 1, e.card("Carrière")))[0], "a district he has not may be taken"


def test_carriere_mais_pas_par_le_capitaine():
    """Carrière : « … ne peut pas utiliser … le Capitaine pour acquérir des quartiers identiques. »"""
    e, st, (temple, eglise) = _carriere_owner("Capitaine", ["Temple", "Église"])
    legal, forbidding, permitting, unordered = e.legal("prendre", (0, temple, 1))
    assert not legal and forbidding == ["capitaine_pas_de_doublon"] and permitting == ["carrière_doublons"]
    assert unordered == []
    assert e.legal("prendre", (0, eglise, 1))[0]


# ==================================================================== Carcassonne: two players

def test_carcassonne_a_2_joueurs_4_remparts_en_pile_3():
    """Carcassonne Die Stadt : « A 2 joueurs, on distribue le double de remparts : » « Quand on entame la
    pile 3, après chaque évaluation, chaque joueur reçoit 4 remparts. »  In pile 3 both rules give a
    value (2 for every count, 4 at two players); `precedence à_deux_joueurs_en_pile_3 over
    deux_remparts_en_pile_3` makes it 4 at two players, and 2 at three."""
    from checker.front.check import check_paths
    from checker.front.configurations import select
    from pathlib import Path

    checked = check_paths([Path("spec/carcassonne")])
    assert checked.ok
    program = checked.program
    config = next(iter(program.configurations.values()))
    for players, walls in ((2, 4), (3, 2)):
        e = Engine(checked.typed)
        e.recording = False
        e.start(select(program, config, players).cards, players, 0, [RandomAgent(i) for i in range(players)])
        st = e.st
        for pile in ("première", "deuxième"):                 # piles 1 and 2 drawn: pile 3 begun
            for tile in list(st.zone("piles", pile)):
                st.put(tile, "piles", "troisième", "top")
        e.invalidate()
        assert e.quantity("phase", ()) == 3
        assert e.quantity("remparts_par_joueur", ()) == walls
