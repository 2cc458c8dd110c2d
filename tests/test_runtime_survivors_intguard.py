"""An Int quantity whose bounds the checker cannot keep within ±MAX_INT (checker/front/bounds.py) has its value
checked when it is computed: past the limit the spec stops, located, naming the quantity; one whose bounds are
within it is not checked (no check of it can fail).  Written for a survivor of the blind runtime sample -p
(bench/results/mutation-2026-11-28-p.txt): ``not g.within_max_int(name)`` → ``g.within_max_int(name)`` checked
only the quantities that cannot overflow; the tests' overflows were of vars and of an inlined caller's sum."""

from __future__ import annotations

import pytest

from checker.base.limits import MAX_INT
from checker.runtime.state import SpecRuntimeError
from conftest import engine_of

GAME = """
game "Bornes" { edition: "test"  players: 2..4  flow: partie }
counter banque unlimited
counter bourse[Player] public
quantity double(p: Player): Int = bourse[p] + bourse[p] + count(q in players where bourse[q] > 0)
quantity petit(p: Player): Int = (if bourse[p] > 3 then 9 else 1) + count(q in players where bourse[q] > 0)
procedure partie() { stop }
"""


@pytest.fixture
def engine(tmp_path):
    e = engine_of(tmp_path / "bornes.rules", GAME)
    e.recording = False
    e.start({}, 2, 0, [None, None])
    return e


def _computed(e, quantity: str) -> str:
    (source,) = [src for _, src, origin in e.compiler.gen.sources if origin == f"quantity {quantity}, computed"]
    return source


def test_an_unbounded_int_quantity_past_max_int_stops_the_spec_where_it_is_declared(engine):
    engine.st.vars["bourse"] = {0: MAX_INT // 2 - 1, 1: MAX_INT // 2 + 1}
    engine.invalidate()
    assert engine.quantity("double", (0,)) == MAX_INT, "the limit itself is an integer"
    with pytest.raises(SpecRuntimeError) as caught:
        engine.quantity("double", (1,))
    assert caught.value.message == (f"the quantity double would hold {MAX_INT + 4}, beyond ±{MAX_INT:,} "
                                    "(the limit of an integer)")
    assert caught.value.span.line == GAME.splitlines().index(
        "quantity double(p: Player): Int = bourse[p] + bourse[p] + count(q in players where bourse[q] > 0)") + 1


def test_a_quantity_whose_bounds_are_within_max_int_is_not_checked(engine):
    assert "MAX_INT" in _computed(engine, "double")
    assert "MAX_INT" not in _computed(engine, "petit")
    engine.st.vars["bourse"] = {0: MAX_INT, 1: 0}
    engine.invalidate()
    assert [engine.quantity("petit", (p,)) for p in (0, 1)] == [10, 2]
