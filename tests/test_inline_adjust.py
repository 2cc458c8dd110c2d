"""A cheap Int quantity that rules adjust (`q(…) += n when …`) is written at its call sites as its body plus each
adjustment (checker/runtime/codegen.py, Generator.inline), and has the value the computed quantity has; one
whose adjustment depends on its card being active is still called, and a quantity some rule gives a value is called
whenever one of its rules applies."""

from __future__ import annotations

import pytest

from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent
from conftest import bundled

ADJUSTED = [name for name, q in bundled().program.quantities.items()
            if getattr(q.type, "name", None) == "Int"]


def _adjusted_only(engine: Engine) -> list[str]:
    """The quantities every rule about which is an adjustment (at least one rule)."""
    return [name for name in ADJUSTED if engine._heads.get(name)
            and all(h.kind == "adjust" for _, h in engine._heads[name])]


def test_an_adjusted_quantity_is_inlined():
    e = Engine(bundled().typed)
    g = e.compiler.gen
    inlined = [name for name in _adjusted_only(e)
               if g.inline(name, [f"a{i}" for i in range(len(bundled().program.quantities[name].params))])]
    assert inlined, "no quantity with adjustments is written inline"
    # a quantity some rule gives a value is still called whenever one of its rules applies: written inline, it is
    # at most its default when none applies, else the call (checker/runtime/quantities.py)
    valued = [name for name in ADJUSTED if any(h.kind == "value" for _, h in e._heads.get(name, ()))]
    assert valued
    for name in valued:
        src = g.inline(name, [f"a{i}" for i in range(len(bundled().program.quantities[name].params))])
        assert src is None or (" if not (" in src and src.endswith(f"else {e.quantity_name(name)}(a0))")), (name, src)


@pytest.mark.parametrize("players, seed", [(4, 0), (6, 1)])
def test_the_inlined_quantity_has_the_computed_value(players, seed):
    e = Engine(bundled().typed)
    e.recording = False
    g = e.compiler.gen
    program = bundled().program
    readers = {}
    for name in _adjusted_only(e):
        params = program.quantities[name].params
        source = g.inline(name, [f"a{i}" for i in range(len(params))])
        if source is None or len(params) != 2:
            continue
        args = ", ".join(f"a{i}" for i in range(len(params)))
        readers[name] = eval(f"lambda {args}: (lambda st: {source})(E.st)", g.ns)
    assert readers
    checked = {"values": 0}

    def observe(decision):
        for name, read in readers.items():
            for p in range(players):
                for card in e.st.zones["main"].get(p, ()):
                    assert read(p, card) == e._quantity(name, (p, card)), (name, p, card)
                    checked["values"] += 1

    e.observer = observe
    selection = select(program, program.configurations["Violente"], players)
    e.play(selection.cards, players, seed, [RandomAgent(seed * 100 + i) for i in range(players)])
    assert checked["values"] > 100
