"""The values a symbolic value of the conflict search may take (checker.solver.search.Search.symbolic), at
their ends: a player is a seat 0 .. n-1, an enum member its first to its last, an Int 0 .. BOUND, an optional
value also none — and nothing one step outside (an off-by-one there would hide, or invent, a witness)."""

from __future__ import annotations

import pytest
import z3

from checker.conflicts.questions import Search
from checker.front import ast
from checker.front.check import check_paths
from checker.solver.encode import NONE
from checker.solver.search import BOUND
from conftest import ROOT

GAME = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"


@pytest.fixture(scope="module")
def search():
    return Search(check_paths([GAME]).typed, players=3)


def _allowed(d, v, value) -> bool:
    s = z3.Solver()
    s.add(d if not isinstance(d, bool) else z3.BoolVal(d), v == value)
    return s.check() == z3.sat


@pytest.mark.parametrize("type_name,inside,outside", [
    ("Player", [0, 2], [-1, 3]),
    ("Épice", [0, 2], [-1, 3]),          # safran .. cannelle: three members
    ("Int", [0, BOUND], [-1, BOUND + 1]),
])
def test_a_symbolic_value_takes_every_value_of_its_type_and_no_other(search, type_name, inside, outside):
    enc = search.encoder()
    v, d = search.symbolic(enc, "x", enc.resolve(ast.TypeName(type_name, None)))
    assert [_allowed(d, v, x) for x in inside + outside] == [True] * len(inside) + [False] * len(outside)
    assert not _allowed(d, v, NONE)


def test_an_optional_value_may_also_be_none(search):
    enc = search.encoder()
    v, d = search.symbolic(enc, "x", enc.resolve(ast.OptionalType(ast.TypeName("Player", None), None)))
    assert _allowed(d, v, NONE) and _allowed(d, v, 0) and not _allowed(d, v, 3)


def test_a_card_is_one_of_its_kinds_copies_or_by_name_one_of_its_cards(search):
    """A Lot is one of the game's three copies (0, 1, 2); named by its card (a rule's `l == "…"` on a card the
    game may not hold), one of the three cards (-1, -2, -3)."""
    enc = search.encoder()
    lot = enc.resolve(ast.TypeName("Lot", None))
    v, d = search.symbolic(enc, "x", lot)
    assert [_allowed(d, v, x) for x in (-1, 0, 1, 2, 3)] == [False, True, True, True, False]
    assert enc.domains[v.get_id()] == (0, 1, 2)
    v, d = search.symbolic(enc, "y", lot, by_name=True)
    assert [_allowed(d, v, x) for x in (-4, -3, -2, -1, 0)] == [False, True, True, True, False]
    assert sorted(enc.domains[v.get_id()]) == [-3, -2, -1]


def test_a_set_of_players_is_one_boolean_per_seat_named_as_the_seat(search):
    """A set of players (an action's `Set of Player` argument, say) is one Boolean per seat; each is named by the
    seat it stands for, as a witness prints it: `x ∋ Joueur 1` is seat 0."""
    from checker.front.types import PLAYER, Coll
    enc = search.encoder()
    members, _ = search.symbolic(enc, "x", Coll(PLAYER))
    assert [(str(b), k) for b, k in members] == [("x ∋ Joueur 1", 0), ("x ∋ Joueur 2", 1), ("x ∋ Joueur 3", 2)]
