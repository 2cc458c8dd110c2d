"""Scenario tests for « Fin du jeu » and the complete city, named after the rulebook paragraphs they check:
a city becomes complete by any path (building, the Échevin's confiscation, the Diplomate's exchange — the
Monument counts for two districts —, the Capitaine's taking) and each announces the end of the game;
nothing destroys a district of a complete city, not even the explosion of its own Poudrière.

Built like tests/test_scenarios_powers.py: a game set up with ``Engine.start``, the cards placed, one
turn driven with every answer scripted by the label the engine offers."""

from __future__ import annotations

from test_scenarios import names
from test_scenarios_powers import choose, give, offered, setup_with

SEVEN = ("Temple", "Église", "Monastère", "Caserne", "Manoir", "Château", "Palais")


def _ended(st, player: int) -> bool:
    return st.vars["fin_de_partie_annoncée"] is True and st.vars["premier_complet"] == player


# ==================================================================== Poudrière

def test_poudriere_vous_ne_pouvez_pas_detruire_un_quartier_d_une_cite_complete():
    """« Quelques précisions sur les Merveilles », Poudrière : « Vous ne pouvez pas détruire un quartier
    d'une cité complète. »  The owner's city is complete: its Poudrière cannot explode, since that would
    destroy a district of a complete city (and make it incomplete)."""
    owner, other = 0, 1
    e, st, agents = setup_with("Violente", 4, [["pièces", "Terminer son tour"], [], [], []], {})
    choose(e, st, owner, "Marchande")
    poudrière, *_ = give(e, st, owner, "cité", "Poudrière", *SEVEN[:6])
    give(e, st, other, "cité", "Marché", "Taverne")
    st.vars["trésor"].update({owner: 0, other: 0})
    assert e.quantity("complète", (owner,)) is True

    legal, forbidding, _, _ = e.legal("détruire", (owner, owner, poudrière))
    assert not legal and forbidding == ["détruire_cité_complète"]
    e.call("tour", (owner, e.card("Marchande")))

    assert "poudrière_exploser (Poudrière)" not in offered(agents[owner])
    assert len(st.zone("cité", owner)) == 7 and e.quantity("complète", (owner,)) is True
    assert names(e, st.zone("cité", other)) == ["Marché", "Taverne"]


def test_poudriere_detruire_la_poudriere_pour_detruire_un_quartier_au_choix():
    """Poudrière : « Pendant son tour, détruire la Poudrière pour détruire un quartier au choix. »  In a city
    that is not complete it explodes: the Poudrière and the chosen district go under the pile; a complete
    city is not among the choices."""
    owner, target, complete = 0, 1, 2
    e, st, agents = setup_with("Violente", 4, [
        ["pièces", "poudrière_exploser (Poudrière)", "Joueur 2", "Marché", "Terminer son tour"], [], [], []], {})
    choose(e, st, owner, "Marchande")
    give(e, st, owner, "cité", "Poudrière", "Temple")
    give(e, st, target, "cité", "Marché", "Taverne")
    give(e, st, complete, "cité", *SEVEN)
    st.vars["trésor"].update({owner: 0, target: 0, complete: 0})

    e.call("tour", (owner, e.card("Marchande")))

    asked = dict((prompt, labels) for prompt, labels, _ in agents[owner].seen)
    question = next(p for p in asked if p.startswith("poudrière_exploser (Poudrière) — choisir q"))
    assert asked[question] == ["Joueur 1", "Joueur 2"], "Joueur 3's city is complete: not a choice"
    assert names(e, st.zone("cité", owner)) == ["Temple"]
    assert names(e, st.zone("cité", target)) == ["Taverne"]
    assert {"Poudrière", "Marché"} <= set(names(e, st.zone("pioche")[:2])), "défaussés sous la pioche"
    assert len(st.zone("cité", complete)) == 7


# ==================================================================== a city completed otherwise than by building

def test_fin_du_jeu_le_diplomate_qui_prend_le_monument_complete_sa_cite():
    """« Fin du jeu » : « Une cité de sept Quartiers ou plus est dite complète. », Monument : « compte pour
    2 quartiers pour compléter sa cité. »  The Diplomate, with six districts, takes the Monument for his
    Temple: his city counts seven, is complete, and the end of the game is announced for him."""
    diplomat, owner = 0, 1
    e, st, agents = setup_with("Violente", 4, [
        ["pièces", "échanger_un_quartier (Diplomate)", "Temple", "Terminer son tour"], [], [], []],
        {"Condottiere": "Diplomate"})
    choose(e, st, diplomat, "Diplomate")
    give(e, st, diplomat, "cité", *SEVEN[:6])
    give(e, st, owner, "cité", "Monument")
    st.vars["trésor"].update({diplomat: 1, owner: 0})
    assert not e.quantity("complète", (diplomat,))

    e.call("tour", (diplomat, e.card("Diplomate")))

    assert "Monument" in names(e, st.zone("cité", diplomat)) and names(e, st.zone("cité", owner)) == ["Temple"]
    assert len(st.zone("cité", diplomat)) == 6 and e.quantity("complète", (diplomat,)) is True
    assert _ended(st, diplomat), "the end of the game is announced, the Diplomate completed his city first"
    assert st.vars["trésor"][owner] == 3, "he paid the difference, 4 - 1"
    assert agents[diplomat].answers == []


def test_fin_du_jeu_le_monument_recu_en_echange_complete_la_cite():
    """The other side of the exchange: the player who receives the Monument for one of his six districts
    counts seven, and the end of the game is announced for him (« +4 pour le premier joueur ayant complété
    sa cité »)."""
    diplomat, owner = 0, 1
    e, st, agents = setup_with("Violente", 4, [
        ["pièces", "échanger_un_quartier (Diplomate)", "Monument", "Temple", "Terminer son tour"], [], [], []],
        {"Condottiere": "Diplomate"})
    choose(e, st, diplomat, "Diplomate")
    give(e, st, diplomat, "cité", "Monument", "Marché", "Taverne")
    give(e, st, owner, "cité", *SEVEN[:6])
    st.vars["trésor"].update({diplomat: 0, owner: 0})

    e.call("tour", (diplomat, e.card("Diplomate")))

    assert "Monument" in names(e, st.zone("cité", owner)) and "Temple" in names(e, st.zone("cité", diplomat))
    assert e.quantity("complète", (owner,)) is True and not e.quantity("complète", (diplomat,))
    assert _ended(st, owner)
    # Église 2, Monastère 3, Caserne 3, Manoir 3, Château 4, Monument 4 (no Commerçant: not five types)
    assert e.quantity("score", (owner,)) == 2 + 3 + 3 + 3 + 4 + 4 + 4, "his +4 counts"


def test_fin_du_jeu_le_capitaine_qui_prend_son_septieme_quartier():
    """Capitaine : « Vous pouvez prendre dans la cité d'un autre joueur un quartier … et le déplacer dans
    votre cité »; the seventh district he takes completes his city and announces the end of the game."""
    captain, owner = 0, 1
    e, st, agents = setup_with("Violente", 4, [
        ["pièces", "prendre_un_quartier (Capitaine)", "Terminer son tour"], [], [], []],
        {"Condottiere": "Capitaine"})
    choose(e, st, captain, "Capitaine")
    give(e, st, captain, "cité", *SEVEN[1:])
    give(e, st, owner, "cité", "Temple")
    st.vars["trésor"].update({captain: 1, owner: 0})

    e.call("tour", (captain, e.card("Capitaine")))

    assert len(st.zone("cité", captain)) == 7 and _ended(st, captain)
