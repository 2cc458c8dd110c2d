"""Scenario tests, named after the rulebook section they check.

Each sets a game up in a precise situation, scripts the players' choices by the labels
the engine offers, plays through the spec, and checks the outcome the rulebook states.
"""

from __future__ import annotations

import functools

from checker.front.configurations import select
from checker.runtime import Engine
from checker.runtime.agents import ScriptedAgent
from conftest import bundled


@functools.cache
def engine() -> Engine:
    return Engine(bundled().typed)


def setup(config: str, players: int, scripts: list[list[str]]):
    e = engine()
    e.recording = True
    program = bundled().program
    agents = [ScriptedAgent(s) for s in scripts]
    st = e.start(select(program, program.configurations[config], players).cards, players, 0, agents)
    return e, st, agents


def names(e: Engine, cards) -> list[str]:
    return [e.show_card(c) for c in cards]


def test_exemple_de_tour_d_un_joueur():
    """« Exemple de tour d'un joueur »: Anne's Voleur robs the Condottiere; Sophie takes 2 gold,
    destroys Hervé's Marché for 1, collects for her Prison and École de Magie, builds the Caserne."""
    anne, herve, sophie, other = 0, 1, 2, 3
    e, st, agents = setup("Première partie", 4, [[], [], [
        "pièces",                                      # recevoir des ressources: 2 pièces d'or
        "détruire_un_quartier (Condottiere)",          # détruire le Marché d'Hervé pour 1 pièce d'or
        "Joueur 2",                                    # (the Marché is the only one she can pay for: not asked)
        "revenus_militaires (Condottiere)",            # Prison + École de Magie: 2 pièces d'or
        "bâtir(Joueur 3, Caserne)",                    # la Caserne coûte 3
        "Terminer son tour",
    ], []])
    for player, character in ((anne, "Voleur"), (herve, "Architecte"), (sophie, "Condottiere"), (other, "Roi")):
        st.put(e.card(character), "choisis", player, "top")
    for player, districts in ((herve, ["Marché", "Palais", "Château"]), (sophie, ["Prison", "École de Magie"])):
        for d in districts:
            st.put(e.card(d), "cité", player, "top")
    st.put(e.card("Caserne"), "main", sophie, "top")
    st.vars["trésor"].update({anne: 1, herve: 0, sophie: 3, other: 0})
    st.vars["couronne"] = other
    st.vars["volé_par"][e.card("Condottiere")] = anne
    pioche_before = len(st.zone("pioche"))

    e.call("tour", (sophie, e.card("Condottiere")))

    assert st.vars["trésor"][anne] == 1 + 3, "Sophie gives all her gold to Anne when she reveals the Condottiere"
    assert st.vars["trésor"][sophie] == 0, "2 taken, 1 paid to destroy, 2 collected, 3 spent on the Caserne"
    assert names(e, st.zone("cité", herve)) == ["Palais", "Château"]
    assert e.show_card(st.zone("pioche")[0]) == "Marché", "a destroyed district goes under the pile"
    assert len(st.zone("pioche")) == pioche_before + 1
    assert names(e, st.zone("cité", sophie)) == ["Prison", "École de Magie", "Caserne"]
    # After the Caserne, ending the turn was the only option, so it was taken without asking: no second
    # build (the permit is one district) and no second income (once per turn) was offered.
    assert agents[sophie].answers == ["Terminer son tour"]
    before_build = agents[sophie].seen[-1][1]
    assert "revenus_militaires (Condottiere)" not in before_build, "incomes are collected once per turn"


def test_quelques_precisions_carriere_et_echevin():
    """« Carrière : … peut bâtir autant de quartiers identiques qu'il le souhaite, mais ne peut pas
    utiliser l'Échevin … pour acquérir des quartiers identiques. »"""
    owner, other = 0, 1
    e, st, _ = setup("Développement", 4, [[], [], [], []])
    temples = e.instances[e.def_ids["Temple"]]
    st.put(temples[0], "cité", owner, "top")
    st.put(temples[1], "main", owner, "top")
    st.put(e.card("Échevin"), "choisis", owner, "top")
    st.put(e.card("Voleur"), "choisis", other, "top")
    st.vars["trésor"].update({owner: 5, other: 5})
    st.vars["personnage_actif"] = e.card("Voleur")

    legal, forbidding, _, _ = e.legal("bâtir", (owner, temples[1]))
    assert not legal and forbidding == ["pas_de_doublon"]

    st.put(e.card("Carrière"), "cité", owner, "top")
    legal, forbidding, permitting, _ = e.legal("bâtir", (owner, temples[1]))
    assert legal and "carrière_doublons" in permitting

    # the other player is building a Temple; the Échevin (owner, with a Carrière) may not take it
    st.put(temples[2], "main", other, "top")
    st.vars["mandat"][e.card("Voleur")] = "signé"
    st.vars["construction_payée"] = True
    st.vars["constructions_payées"] = 1
    legal, forbidding, permitting, _ = e.legal("confisquer", (owner, temples[2]))
    assert not legal and "échevin_pas_de_doublon" in forbidding and "carrière_doublons" in permitting


def test_roi_assassine_prend_la_couronne_a_la_fin_du_tour():
    """« Si vous êtes assassiné, … après que tous les autres joueurs ont joué, vous révélez que vous
    aviez choisi le Roi et, en tant qu'héritier du Roi assassiné, prenez la Couronne. »"""
    king, other = 2, 0
    e, st, _ = setup("Première partie", 4, [[], [], [], []])
    st.put(e.card("Roi"), "choisis", king, "top")
    st.vars["couronne"] = other
    st.vars["assassiné"][e.card("Roi")] = True
    e.call("appel", (4,))
    assert st.vars["couronne"] == other, "an assassinated character does not play its turn"
    e.signal("fin_des_appels", ())
    assert st.vars["couronne"] == king


def test_fin_du_jeu_departage():
    """« En cas d'égalité, la victoire va à celui des ex œquo qui avait révélé, au dernier tour, le
    personnage de rang le plus élevé. Un personnage assassiné n'est pas considéré comme révélé. »"""
    e, st, _ = setup("Première partie", 4, [[], [], [], []])
    for player, district in ((0, "Palais"), (1, "Cathédrale"), (2, "Temple"), (3, "Taverne")):
        st.put(e.card(district), "cité", player, "top")     # 0 and 1 both score 5
    for player, character, revealed in ((0, "Roi", True), (1, "Condottiere", True), (1, "Assassin", True)):
        st.put(e.card(character), "choisis", player, "top")
        st.vars["révélé"][e.card(character)] = revealed
    assert e.result().winners == [1], "the Condottiere (8) beats the Roi (4)"
    st.vars["assassiné"][e.card("Condottiere")] = True
    assert e.result().winners == [0], "an assassinated character is not revealed: 1 falls back to rank 1"
