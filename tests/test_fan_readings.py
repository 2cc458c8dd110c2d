"""Readings of the fan expansion that the random games of `rulebook fuzz` and `rulebook play` brought up
(issue 24): what an incarnated character does at its reveal."""

from __future__ import annotations

from test_fan import NP2, choose, gold, setup, turn


def test_l_invocateur_qui_incarne_le_roi_prend_la_couronne():
    """Invocateur : « Il joue ensuite le pouvoir et la construction du personnage choisi » ; le Roi : « Vous
    devez prendre la Couronne » — à sa révélation, passée quand l'Invocateur l'incarne : il la prend en
    l'incarnant (decision incarné_à_sa_révélation)."""
    e, st, agents = setup(NP2, [["pièces", "invocation (Invocateur)", "Roi", "Terminer son tour"], [], []])
    choose(e, st, 0, "Invocateur")
    gold(st)[0] = 3
    st.vars["couronne"] = 1
    turn(e, 0, "Invocateur")
    assert st.vars["couronne"] == 0, "the Invocateur incarnating the Roi takes the Crown"
    assert any(ev["kind"] == "power" and ev["power"] == "couronne_du_roi_incarné" for ev in e.events)


def test_l_invocateur_qui_incarne_un_autre_ne_prend_pas_la_couronne():
    e, st, agents = setup(NP2, [["pièces", "invocation (Invocateur)", "Évêque", "Terminer son tour"], [], []])
    choose(e, st, 0, "Invocateur")
    gold(st)[0] = 3
    st.vars["couronne"] = 1
    turn(e, 0, "Invocateur")
    assert st.vars["couronne"] == 1
