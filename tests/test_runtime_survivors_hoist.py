"""checker.runtime.hoist's memoizing never swallows an assignment: a part holding an assignment expression
(``:=``) is not read back from a memo, so the name it binds is bound at every evaluation (the part inside it that
reads no loop name is still memoized)."""

from __future__ import annotations

import itertools

from checker.runtime.hoist import memoize

MISSING = object()


def test_a_part_that_assigns_a_name_is_evaluated_each_time_and_its_call_once():
    memos: list[str] = []
    counter = itertools.count(1)
    test = memoize("(y := limit(a)) > b and y > 0", {"b"}, lambda: f"_h{next(counter)}", memos)
    assert "(y := " in test and memos == ["_h1"]
    calls = []

    def limit(x):
        calls.append(x)
        return 3

    source = "def listing(a, values):\n" + "".join(f"    {m} = MISSING\n" for m in memos) + \
        "    seen = []\n    for b in values:\n        y = None\n" + f"        if {test}:\n" + \
        "            seen.append((b, y))\n    return seen\n"
    space = {"MISSING": MISSING, "limit": limit}
    exec(compile(source, "<test>", "exec"), space)
    assert space["listing"]("a", [0, 1, 5, 2]) == [(0, 3), (1, 3), (2, 3)]     # y bound at each value
    assert calls == ["a"]                                                     # the call made once
