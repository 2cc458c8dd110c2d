"""The invariant search follows a procedure past an `offer` (docs/conflicts.md, *Invariants broken*;
checker/conflicts/watched.py's ``_decision``): the invariants are checked at the offer, a decision; then the moves
it may propose are made (each a question of its own) and the statements after it run, so the path goes on from a
state where every cell a move may write holds any value in its range and every invariant holds.  On aaaad8e each
procedure was followed to its next `offer` and no further: what runs after one was searched by no question, and each
fixture below, where a game stops on the invariant or with an error after an offer, was called proven."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.conflicts.inductive import broken_invariants
from checker.conflicts.questions import Search
from checker.front.check import check_paths
from checker.runtime import Engine, RandomAgent
from checker.runtime.state import SpecRuntimeError

FIXTURES = Path("tests/fixtures/offers")
LOTS = ["Safran d'Iran", "Poivre noir", "Cannelle", "Muscade", "Girofle", "Vanille", "Cumin", "Anis", "Carvi", "Sumac"]


def _search(name: str) -> Search:
    result = check_paths([FIXTURES / name])
    assert result.ok, result
    return Search(result.typed)


def _game_stops(name: str, lots: int, match: str) -> None:
    """A two-player game of the fixture (every decision at random) stops with ``match``: the answer is a game's."""
    result = check_paths([FIXTURES / name])
    with pytest.raises(SpecRuntimeError, match=match):
        Engine(result.typed).play({"Lot": LOTS[:lots]}, 2, 0, [RandomAgent(1), RandomAgent(2)])


def test_a_deal_after_an_offer_is_searched_and_the_break_is_confirmed():
    """`partie`'s pass offers each player to pass, then deals a lot to every basket: the deal breaks the invariant
    (a game stops on it at the fourth pass's offer).  `manche`, the same round without the loop, breaks it too; the
    interpreter, calling each on the witness, confirms both.  `manche_bornée`, which deals only to a basket with
    room, is proven from the state after the offer.  On aaaad8e all three were proven (0 Z3 queries: every path
    ended at the offers)."""
    search = _search("passe_après_l_offre.rules")
    found = broken_invariants(search, procedures=True)
    assert sorted((f.kind, f.rules[0]) for f in found) == [("invariant-broken", "manche"),
                                                           ("invariant-broken", "partie")], \
        [(f.message, f.unknown) for f in found]
    assert all(f.confirmed is True for f in found), [f.replayed for f in found]
    tally = search.inductive["deux_lots_au_plus"]
    assert tally["proven"] == ["manche_bornée"] and sorted(tally["uncovered"]) == ["manche", "partie"], tally
    _game_stops("passe_après_l_offre.rules", 10, "the game broke the invariant deux_lots_au_plus")


def test_a_pass_that_reaches_an_offer_goes_on_to_the_later_pass_where_a_precondition_may_fail():
    """Every path of `partie`'s first pass reaches the offer; past it, the pass puts the baskets back and goes on to
    the later pass, where `ouvrir` may be called with `premier` false (nothing sets it back): undecided, with the
    call — a game stops there.  On aaaad8e no path reached the later pass, and `partie` was proven."""
    search = _search("précondition_après_l_offre.rules")
    found = broken_invariants(search, procedures=True)
    assert [(f.kind, f.rules[0]) for f in found] == [("unknown", "partie")], [f.message for f in found]
    assert "procedure ouvrir is called where its precondition" in found[0].unknown, found[0].unknown
    assert search.inductive["deux_lots_au_plus"]["undecided"] == ["partie"]
    _game_stops("précondition_après_l_offre.rules", 3, "procedure ouvrir is called where its precondition")


def test_after_an_offer_the_path_goes_on_from_what_the_moves_may_write(monkeypatch):
    """A move of the offer (`fermer`) closes the market, and the flow then counts the market day, which requires it
    open: a game stops there.  Past the offer every cell a move may write holds any value — `ouvert` false among them —:
    undecided, with the call.  Going on from the state before the offer, as if no move were made, would call
    `partie` proven again; so did aaaad8e, which stopped at the offer."""
    search = _search("coup_après_l_offre.rules")
    found = broken_invariants(search, procedures=True)
    assert [(f.kind, f.rules[0]) for f in found] == [("unknown", "partie")], [f.message for f in found]
    assert "procedure compter is called where its precondition" in found[0].unknown, found[0].unknown
    _game_stops("coup_après_l_offre.rules", 3, "procedure compter is called where its precondition")

    from checker.conflicts import loops
    monkeypatch.setattr(loops.Loops, "offered", lambda self, s: loops.Writes(frozenset(), frozenset(), False))
    search = _search("coup_après_l_offre.rules")
    assert broken_invariants(search, procedures=True) == []          # wrongly proven
    assert search.inductive["deux_lots_au_plus"]["proven"] == ["partie"]
