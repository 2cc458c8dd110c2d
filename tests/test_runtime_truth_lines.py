"""hoist.truth_lines: an offer's memo of a prohibition that reads no binder, ``bool(any(…))``/``bool(all(…))``
written as a loop (checker/runtime/compile.py's _enumeration).  The loop must give what ``bool(source)`` gives,
test the same elements in the same order and stop at the same one (a failing element after the deciding one is
never reached), and leave other shapes as they were."""

from __future__ import annotations

import pytest

from checker.runtime.hoist import truth_lines


def run(target: str, source: str, names: dict) -> tuple[object, list]:
    seen: list = []
    scope = {**names, "see": lambda x: seen.append(x) or x}
    exec("\n".join(truth_lines(target, source)), scope)
    return scope[target], seen


CASES = [
    ("any(see(x) > 2 for x in xs)", [1, 3, 0]),
    ("any(see(x) > 2 for x in xs)", [1, 2]),
    ("any(see(x) for x in xs if x != 3)", [0, 3, 5, 7]),
    ("all(see(x) < 3 for x in xs)", [1, 3, 0]),
    ("all(see(x) < 3 for x in xs)", []),
    ("all(see(x) for x in xs if x > 0)", [0, 2, -1, 0]),
    ("(any(see(x) > 1 for x in xs) if len(xs) > 2 else all(see(x) for x in xs))", [0, 2, 5]),
    ("(any(see(x) > 1 for x in xs) if len(xs) > 2 else all(see(x) for x in xs))", [1, 0]),
]


@pytest.mark.parametrize("source, xs", CASES)
def test_the_loop_gives_bool_of_the_source_testing_the_same_elements(source, xs):
    seen: list = []
    expected = bool(eval(source, {"xs": xs, "see": lambda x: seen.append(x) or x}))
    got, seen_by_loop = run("_m", source, {"xs": xs})
    assert got is expected and seen_by_loop == seen


def test_an_any_of_a_generator_is_a_loop_that_stops_before_an_element_that_would_fail():
    lines = truth_lines("_m", "any(1 / x > 0 for x in xs)")
    assert not any("any(" in line for line in lines) and any(line.startswith("for x in xs") for line in lines)
    got, _ = run("_m", "any(1 / x > 0 for x in xs)", {"xs": [-1, 2, 0]})
    assert got is True, "the element 0 after the deciding 2 is never divided by"
    with pytest.raises(ZeroDivisionError):
        run("_m", "any(1 / x > 0 for x in xs)", {"xs": [-1, 0, 2]})


@pytest.mark.parametrize("source", [
    "any(x for x in xs for y in ys)",           # two loops
    "any(any(y for y in x) for x in xs)",        # a scope inside
    "any(xs)",                                   # no generator
    "sum(x for x in xs) > 1",
    "any((m := x) for x in xs)",
])
def test_other_shapes_stay_one_bool(source):
    assert truth_lines("_m", source) == [f"_m = bool({source})"]
