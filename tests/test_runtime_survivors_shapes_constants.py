"""Tests written for the survivors of the blind runtime sample of h158 (seed 2811,
bench/results/mutation-2026-11-29-h158.txt) in checker/runtime/shapes.py: a var's default that is not a constant (a
quantity's call, a sum) is refused by `check` (E0303, tests/test_constant_defaults.py) and, should a program reach
the interpreter unchecked, when the interpreter is built, with its located error — not taken as an empty record,
nor left to a Python traceback."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.runtime.engine import Engine
from checker.runtime.state import SpecRuntimeError

GAME = """
game "Défauts" {
  edition: "test"
  players: 2..2
  flow: partie
}
quantity deux(): Int = 2
var x: Int = %s
procedure partie() { set x = x + 1 }
configuration "Standard" { players: 2..2 }
"""


@pytest.mark.parametrize("default", ["deux()", "1 + 2"])
def test_a_default_that_is_not_a_constant_is_refused_where_it_is_written(tmp_path, default):
    path = tmp_path / "defauts.rules"
    path.write_text(GAME % default, encoding="utf-8")
    result = check_paths([path])
    assert [(d.code, d.span.line) for d in result.reporter.errors] == [("E0303", 8)]
    assert result.typed is not None
    with pytest.raises(SpecRuntimeError, match="must be a constant") as raised:
        Engine(result.typed)
    assert raised.value.span.line == 8


def test_a_constant_default_is_its_value(tmp_path):
    path = tmp_path / "defauts.rules"
    path.write_text(GAME % "-3", encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    assert Engine(result.typed).var_defaults["x"] == -3
