"""Tests written for the survivors of the blind runtime sample of h158 (seed 2811,
bench/results/mutation-2026-11-29-h158.txt) in checker/runtime/fusion.py: `holders` (the player whose zone is a
card's place) says what the tables the generated code reads instead (`fill_holders`) say, for every kind
of place: a seat's cell of the zone, another zone's, a seat not in the game, a card nowhere."""

from __future__ import annotations

from checker.runtime.fusion import fill_holders, holders

MISSING = object()


def test_holder_and_holders_agree_with_the_tables_on_every_kind_of_place():
    seats = (0, 1, 2)
    one, every = {}, {}
    fill_holders("main", seats, one, every)
    places = [("main", 0), ("main", 2), ("cité", 1), ("main", 3), ("pioche", None), MISSING, None]
    for place in places:
        assert holders(place, "main", seats) == every.get(place, ()), place
    assert [one.get(p) for p in places] == [0, 2, None, None, None, None, None]
    assert holders(("main", 1), "main", seats) == (1,)
