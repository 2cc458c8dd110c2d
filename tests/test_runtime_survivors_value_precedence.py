"""Two `value` rules that give a quantity a value at once (checker/runtime/quantities.py, the compiled quantity):
the one a precedence puts first wins, whichever is written first; without a precedence, the game stops on an error
that names both.  Survivor of the blind runtime sample h164 (seed 4164), quantities.py:71 `In → NotIn` (the
precedence read the wrong way round: the loser's value kept, and two rules with no precedence between them
silently giving the first one's value)."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.runtime.engine import Engine
from checker.runtime.state import SpecRuntimeError

PRIX = """
game "Prix" {
  edition: "test"
  players: 2..2
  flow: partie
}

quantity prix(n: Int): Int = 1

RULES
precedence haut over bas { }
rule seul { value prix(n) = 5 when n >= 3 }

procedure partie() { }

configuration "Standard" { players: 2..2 }
"""


def _engine(tmp_path, first_low: bool) -> Engine:
    rules = ["rule bas { value prix(n) = 2 when n >= 1 }", "rule haut { value prix(n) = 3 when n >= 2 }"]
    text = PRIX.replace("RULES", "\n".join(rules if first_low else rules[::-1]))
    path = tmp_path / "prix.rules"
    path.write_text(text, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    engine = Engine(result.typed)
    engine.recording = False
    engine.start({}, 2, 1, [None, None])
    return engine


@pytest.mark.parametrize("first_low", [True, False])
def test_the_value_a_precedence_puts_first_wins_whichever_rule_is_written_first(tmp_path, first_low):
    """`bas` (2) applies from 1 on, `haut` (3) from 2 on, and `haut` goes first: 1, 2, then 3."""
    engine = _engine(tmp_path, first_low)
    assert [engine.quantity("prix", (n,)) for n in range(3)] == [1, 2, 3]


@pytest.mark.parametrize("first_low", [True, False])
def test_two_values_with_no_precedence_between_them_stop_the_game_naming_both(tmp_path, first_low):
    """From 3 on, `seul` (5) gives a value too, with no precedence over the others."""
    engine = _engine(tmp_path, first_low)
    with pytest.raises(SpecRuntimeError, match="give prix two values, and no precedence says which wins"):
        engine.quantity("prix", (3,))
