"""checker.runtime.hoist: the parts of an offer's tests that read no loop name are computed once per listing,
where they were computed before (same short-circuit position), and read back afterwards."""

from __future__ import annotations

import itertools

from checker.runtime.hoist import first_memo, memoize, shared_key

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


def test_two_actions_of_one_offer_share_a_part_that_has_one_value_for_the_listing():
    """The second action's argument ``a2`` is the offer's player as the first's ``a1`` is: its part (the same
    up to that renaming and to a comprehension's own fresh name) reads the first action's memo, which is not
    reset again; a part of another player, or of a loop name, is not shared."""
    fresh, shared = _fresh(), {}
    first: list[str] = []
    one = memoize("b > limit(a1, [y for y in st[a1]])", {"b"}, fresh, first, shared, {"a1": "p"})
    second: list[str] = []
    two = memoize("c > limit(a2, [z for z in st[a2]]) or c < limit(q, 1)", {"c"}, fresh, second, shared, {"a2": "p"})
    assert first == ["_h1"] and second == ["_h2"]
    assert "(_h1 if _h1 is not MISSING else (_h1 := limit(a2, [z for z in st[a2]])))" in two
    assert "_h2 := limit(q, 1)" in two and "_h1" in one
    assert shared_key("f([x for x in a1])", {"a1": "p"}) == shared_key("f([w for w in a2])", {"a2": "p"})
    assert shared_key("f(a1)", {"a1": "p"}) != shared_key("f(a2)", {"a2": "q"})


def test_a_memo_evaluated_first_by_a_test_is_primed_and_read_plainly_and_no_other():
    memos: list[str] = []
    out = memoize("limit(st['x']) < cost(b) + bonus(st['y'])", {"b"}, _fresh(), memos)
    assert first_memo(out) == ("_h1", "limit(st['x'])", "_h1 < cost(b) + (_h2 if _h2 is not MISSING else "
                                                        "(_h2 := bonus(st['y'])))")
    # the memo is not what the test evaluates first (cost(b) is, and may fail first): left as it is
    later = memoize("cost(b) < limit(st['x'])", {"b"}, _fresh(), [])
    assert first_memo(later) is None
    # first in a disjunction and through a call's function: still the first thing evaluated
    assert first_memo(memoize("rule(st['x'], st['y'])(b) or b > 1", {"b"}, _fresh(), []))[0] == "_h1"
    assert first_memo("b > 0") is None
