"""Tests written for the survivors of the blind runtime sample of h158 (seed 2811,
bench/results/mutation-2026-11-29-h158.txt) in checker/runtime/hoist.py: `shared_key` names the bound names of a
comprehension or a lambda by their position, so two parts that differ only in those names share a key, and two
parts that read different bound names do not, whatever mix of comprehensions and lambdas binds them."""

from __future__ import annotations

from checker.runtime.hoist import shared_key


def test_bound_names_are_keyed_by_position():
    assert shared_key("[x + 1 for x in C]", {}) == shared_key("[z + 1 for z in C]", {})
    assert shared_key("f(lambda a: a * 2)", {}) == shared_key("f(lambda b: b * 2)", {})
    assert shared_key("[(lambda a: a, [y for y in D]) for x in C]", {}) == \
        shared_key("[(lambda b: b, [v for v in D]) for u in C]", {})


def test_an_inner_comprehension_reading_the_outer_name_is_not_one_reading_its_own():
    """A lambda's argument is numbered between the outer comprehension's name and the inner one's (ast.walk's
    order): the three names are three positions, so `x` (the outer name) and `y` (the inner one) stay apart."""
    reads_outer = shared_key("[(lambda a: a, [x for y in D]) for x in C]", {})
    reads_inner = shared_key("[(lambda a: a, [y for y in D]) for x in C]", {})
    assert reads_outer != reads_inner
    assert shared_key("[x for y in D for x in C]", {}) != shared_key("[y for y in D for x in C]", {})


def test_a_local_that_equals_another_for_the_listing_is_keyed_as_that_one():
    assert shared_key("f(q, 1)", {"q": "p"}) == shared_key("f(p, 1)", {})
    assert shared_key("f(q, 1)", {}) != shared_key("f(p, 1)", {})
