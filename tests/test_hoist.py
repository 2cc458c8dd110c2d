"""checker.runtime.hoist: the parts of an offer's tests that read no loop name are computed once per listing,
where they were computed before (same short-circuit position), and read back afterwards."""

from __future__ import annotations

import itertools

from checker.runtime.hoist import memoize

MISSING = object()


def _fresh():
    counter = itertools.count(1)
    return lambda: f"_h{next(counter)}"


def test_a_part_reading_no_loop_name_is_memoized_and_the_rest_is_not():
    memos: list[str] = []
    out = memoize("cost(b) > limit(st['x']) and b > 0", {"b"}, _fresh(), memos)
    assert memos == ["_h1"]
    assert out == "cost(b) > (_h1 if _h1 is not MISSING else (_h1 := limit(st['x']))) and b > 0"


def test_cheap_parts_loop_names_comprehensions_and_spend_are_left_as_written():
    memos: list[str] = []
    for source in ("st['x'] > b", "f(b) and a", "any(g(y) for y in b)", "SPEND(st['z'], s)", "E.controller(a)"):
        assert memoize(source, {"b"}, _fresh(), memos) == source
    assert memos == []


def test_memoized_code_evaluates_each_part_once_where_it_did_before():
    calls = []

    def limit(x):
        calls.append(x)
        return 2

    memos: list[str] = []
    test = memoize("b > 1 and b < limit(a)", {"b"}, _fresh(), memos)
    source = "def listing(a, values):\n" + "".join(f"    {m} = MISSING\n" for m in memos) + \
        "    kept = []\n    for b in values:\n" + f"        if {test}:\n            continue\n" + \
        "        kept.append(b)\n    return kept\n"
    space = {"MISSING": MISSING, "limit": limit}
    exec(compile(source, "<test>", "exec"), space)
    kept = space["listing"]("a", [0, 1, 5, 7])
    assert kept == [0, 1, 5, 7]                   # blocked when 1 < b < 2: none is
    assert calls == ["a"]                         # asked once, and only when b > 1 first held
    calls.clear()
    assert space["listing"]("a", [0, 1]) == [0, 1] and calls == []     # never reached: never evaluated
    assert space["listing"]("a", [3, 0]) == [3, 0] and calls == ["a"]
