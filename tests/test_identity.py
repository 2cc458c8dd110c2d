"""Physical identity: `a is b` (the same physical card) and `a is in z` (this very card is in z), beside
`==` and `in`, which compare cards by name.  In the interpreter, in the Z3 encoding (which agrees), in
the 4th edition's controller quantities (two players may each own a Taverne), and in `simulate`, which
can then name the owner of every copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.front.check import check_paths
from checker.runtime import Engine
from checker.runtime.state import SpecRuntimeError
from checker.solver.encode import Encoder, Unsupported
from conftest import bundled

GAME = """
game "Jeu" { edition: "test"  players: 2..3  flow: partie }
kind Carte { force: Int in 0..9  copies: Int = 1  controller: porteur  start: pioche }
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
card Carte "Écu" { force: 1  copies: 2 }
card Carte "Pierre" { force: 2 }
quantity porteur(c: Carte): Player? = the(p in players where c is in main[p])
quantity porteurs_du_nom(c: Carte): Int = count(p in players where c in main[p])
quantity même(a: Carte, b: Carte): Bool = a is b
quantity autre(a: Carte, b: Carte): Bool = a is not b
quantity égal(a: Carte, b: Carte): Bool = a == b
quantity hors_de_sa_main(c: Carte, p: Player): Bool = c is not in main[p]
quantity parmi(c: Carte, p: Player): Bool = c is in filter(x in main[p] where x.force >= 1)
quantity la_pierre(c: Carte): Bool = c is "Pierre"
quantity un_écu(c: Carte): Bool = "Écu" is c
quantity dans_deux_mains(c: Carte, p: Player, q: Player): Bool = c is in main[p] and c is in main[q]
quantity nom_dans_deux_mains(c: Carte, p: Player, q: Player): Bool = c in main[p] and c in main[q]
procedure partie() { stop }
"""
CHECKS = [("porteur", 1), ("porteurs_du_nom", 1), ("même", 2), ("autre", 2), ("égal", 2),
          ("hors_de_sa_main", "card, player"), ("parmi", "card, player"), ("la_pierre", 1)]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("identity") / "jeu.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    e = Engine(result.typed)
    e.recording = False
    e.start({"Carte": ["Écu", "Pierre"]}, 2, 0, [])
    return e


def _argument_lists(e: Engine, arity) -> list[tuple]:
    cards = [c for d in e.instances.values() for c in d]
    if arity == 1:
        return [(c,) for c in cards]
    if arity == 2:
        return [(a, b) for a in cards for b in cards]
    return [(c, p) for c in cards for p in e.seats]


def _place(e: Engine, placement: dict) -> None:
    for card, (zone, index) in placement.items():
        e.st.put(card, zone, index, "top")
    e.invalidate()


def test_is_compares_physical_copies_where_equality_compares_names(game):
    e = game
    écu1, écu2 = e.instances[e.def_ids["Écu"]]
    pierre = e.card("Pierre")
    _place(e, {écu1: ("main", 0), écu2: ("main", 1), pierre: ("main", 1)})
    assert e.quantity("porteur", (écu1,)) == 0 and e.quantity("porteur", (écu2,)) == 1
    assert e.quantity("porteurs_du_nom", (écu1,)) == 2          # `in`: an identical card is in both hands
    assert e.quantity("égal", (écu1, écu2)) and not e.quantity("même", (écu1, écu2))
    assert e.quantity("autre", (écu1, écu2)) and not e.quantity("autre", (écu1, écu1))
    assert e.quantity("hors_de_sa_main", (écu1, 1)) and not e.quantity("hors_de_sa_main", (écu2, 1))
    assert e.quantity("parmi", (écu2, 1)) and not e.quantity("parmi", (écu1, 1))
    assert e.quantity("la_pierre", (pierre,)) and not e.quantity("la_pierre", (écu1,))


def test_a_name_with_several_copies_is_not_a_physical_card(game):
    """`"Écu" is c`: the spec cannot say which Écu; a located error in play, an unsupported term in Z3."""
    e = game
    with pytest.raises(SpecRuntimeError) as caught:
        e.quantity("un_écu", (e.card("Pierre"),))
    assert "has 2 copies" in caught.value.message and "`is` compares physical cards" in caught.value.message
    assert caught.value.span is not None and caught.value.span.line == GAME.splitlines().index(
        'quantity un_écu(c: Carte): Bool = "Écu" is c') + 1
    with pytest.raises(Unsupported, match="has 2 copies"):
        Encoder(e, concrete=True).quantity("un_écu", (e.card("Pierre"),))


def test_z3_agrees_with_the_interpreter_on_physical_identity(game):
    e = game
    écu1, écu2 = e.instances[e.def_ids["Écu"]]
    pierre = e.card("Pierre")
    situations = [{écu1: ("main", 0)}, {écu2: ("main", 0)}, {écu2: ("main", 1), pierre: ("main", 0)},
                  {écu1: ("pioche", None), écu2: ("main", 0), pierre: ("main", 1)}]
    answers = set()
    for placement in situations:
        _place(e, placement)
        enc = Encoder(e, concrete=True)
        for name, arity in CHECKS:
            for args in _argument_lists(e, arity):
                ours = e.quantity(name, args)
                assert enc.quantity(name, args) == (NONE_CODE if ours is None else ours), (name, args, placement)
                answers.add((name, ours))
    assert ("porteur", None) in answers and ("porteur", 0) in answers and ("porteur", 1) in answers


NONE_CODE = -1_000_000


def test_z3_tells_one_copy_in_two_hands_from_two_copies(game):
    """On symbolic states: no card is in two hands, so `c is in main[0] and c is in main[1]` has no state;
    with `in` (by name), the two copies of the Écu make it possible."""
    import z3

    from checker.conflicts.questions import Search
    from checker.solver.factory import make_solver
    search = Search(game.typed, players=2)
    écu1 = game.instances[game.def_ids["Écu"]][0]
    for quantity, expected in (("dans_deux_mains", z3.unsat), ("nom_dans_deux_mains", z3.sat)):
        enc = search.encoder()
        s = make_solver(search.settings)
        s.add(enc.quantity(quantity, (écu1, 0, 1)), *enc.defined, *search.well_formed(enc))
        assert s.check() == expected, quantity


# ---------------------------------------------------------------- the 4th edition

def test_deux_joueurs_ont_chacun_une_taverne():
    """« il ne peut pas construire un quartier s'il en a déjà un identique (de même nom) dans sa cité » —
    in *his* city: two players may each own a Taverne, and the district's controller (`propriétaire`)
    names the owner of each copy (with `in`, both copies had two owners, and the quantity failed).  The
    duplicate rule still reads names; « l'une des cartes Quartier de sa main » reads this very card."""
    e = Engine(bundled().typed)
    e.recording = False
    e.start({"District": ["Taverne"], "Character": ["Roi"]}, 4, 0, [])
    first, second, third, fourth = e.instances[e.def_ids["Taverne"]][:4]
    for card, zone, seat in ((first, "cité", 0), (second, "cité", 2), (third, "main", 0), (fourth, "main", 1)):
        e.st.put(card, zone, seat, "top")
    e.st.vars["trésor"].update({0: 5, 1: 5})
    e.st.vars["personnage_actif"] = e.card("Roi")
    e.invalidate()
    assert e.quantity("propriétaire", (first,)) == 0
    assert e.quantity("propriétaire", (second,)) == 2
    assert e.quantity("propriétaire", (third,)) is None            # in a hand
    assert not e.allowed("bâtir", (0, third))                      # pas_de_doublon: an identical one in his city
    assert e.allowed("bâtir", (1, fourth))
    assert not e.allowed("bâtir", (1, third))                      # bâtir_depuis_la_main: not this card


def test_simulate_names_an_owner_for_every_copy():
    """No sample of a card's controller is undetermined, and some game credits a district of several copies
    to two players (so the test could fail: before `is in`, the samples where two players each had a copy
    were undetermined, and nobody was credited by them)."""
    from checker.front.configurations import select
    from checker.simulate.games import Job, play_chunk, spec_files
    result = bundled()
    selection = select(result.program, result.program.configurations["Première partie"], 4)
    files, roots, digest = spec_files([Path("spec/citadelles")])
    order = tuple((k, tuple(v)) for k, v in selection.cards.items())
    job = Job(files, roots, order, 4, ("greedy",) * 4, 0, key=digest)
    records = play_chunk((job, 0, 12))
    assert all(r.error is None for r in records)
    assert sum(sum(r.undetermined) for r in records) == 0
    engine = Engine(result.typed)
    several = {name for kind, names in order if kind == "District" for name in names
               if (engine.card_attrs[engine.def_ids[name]].get("copies") or 1) > 1}
    shared = {name for r in records for name, had in zip(job.tracked, r.had) if bin(had).count("1") >= 2}
    assert shared & several, shared
