"""Readings of the fan expansion that the random games of `rulebook fuzz` and `rulebook play` brought up
(issue 24): what an incarnated character does at its reveal."""

from __future__ import annotations

from test_fan import NP, NP2, choose, gold, setup, turn
from test_scenarios_powers import give


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


def test_le_mime_n_imite_pas_une_ashura_qui_a_deja_joue():
    """« Quand vient le tour du personnage mimé, ce dernier effectue son tour normalement et le Mime joue
    ensuite » : Ashura, sans rang, peut être imitée tant qu'elle n'a pas joué ; après, le Mime n'aurait pas
    de second tour (decision mime_présent_et_second_tour)."""
    e, st, agents = setup(NP2, [[], [], []])
    mime, ashura = e.card("Mime"), e.card("Ashura")
    assert e.allowed("imiter", (0, ashura, mime))
    st.vars["révélé"][ashura] = True
    e.invalidate()
    assert not e.allowed("imiter", (0, ashura, mime))


def test_le_geolier_et_le_charlatan_n_annoncent_pas_un_personnage_qui_a_deja_joue():
    """« Lorsque le personnage emprisonné (arnaqué) arrive en jeu » : un personnage qui a déjà joué ce tour-ci
    n'arrivera plus en jeu (decision annonce_d_un_personnage_à_venir)."""
    e, st, agents = setup(NP, [[], [], []])
    mercenaire, oracle = e.card("Mercenaire"), e.card("Oracle")
    st.vars["révélé"][mercenaire] = True
    e.invalidate()
    assert not e.allowed("emprisonner", (0, mercenaire)) and not e.allowed("arnaquer", (0, mercenaire))
    assert e.allowed("emprisonner", (0, oracle)) and e.allowed("arnaquer", (0, oracle))


def test_la_fee_verte_lance_son_sort_avant_de_batir():
    """« Si l'échange est positif … elle peut construire un quartier normalement. Mais si l'échange n'apporte
    rien ou est négatif, la Fée Verte peut construire un quartier avec un rabais » : le sort, puis la
    construction ; une fois un quartier bâti, plus de sort (decision fée_verte_le_sort_puis_la_construction)."""
    e, st, agents = setup(NP2, [["pièces", "bâtir(Joueur 1, Temple)", "Terminer son tour"], [], []])
    choose(e, st, 0, "Fée Verte")
    give(e, st, 0, "main", "Temple")
    gold(st)[0] = 3
    turn(e, 0, "Fée Verte")
    offers = [labels for prompt, labels, _ in agents[0].seen if prompt.startswith("que faire")]
    assert "sortilège_de_la_fée (Fée Verte)" in offers[0], "before building: the spell is offered"
    assert all("sortilège_de_la_fée (Fée Verte)" not in labels for labels in offers[1:]), "not after"
