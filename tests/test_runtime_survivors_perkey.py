"""An invariant `require all(f in …: count(… where key == f) <op> bound)` is tested counted per key in one pass
(checker/runtime/fusion.py's ``per_key_count``, called by invariants.py with the statement's number and indent).
With a literal bound that a count of 0 and of 1 both pass, the test is written inline; with any other bound (here
a var, `plafond`), it is one COUNT_PER_KEY call that returns the invariant's number when it fails.  That second
form was executed by no test of the runtime's set: the rank invariant of tests/test_invariants_incremental.py
has the literal bound 1.  Written for the survivor fusion.py:117 of the blind runtime sample -o
(bench/results/mutation-2026-11-28-o-kills.txt)."""

from __future__ import annotations

import pytest

from checker.runtime import Engine, RandomAgent
from checker.runtime.state import SpecRuntimeError
from conftest import engine_of
from tests.test_invariants_incremental import GAME

RANKS = "all(f in 1..4: sum(p in players: count(c in main[p] where c.force == f)) < plafond)"
FLOW = """
invariant forces_distinctes { require %s }
procedure partie() {
  for p in players {
    choose c in pioche by p
    move c to main[p]
    choose d in pioche by p
  }
}
""" % RANKS


def _engine(tmp_path, cards: str = "") -> Engine:
    return engine_of(tmp_path / "jeu.rules", GAME + FLOW + cards)


def test_an_invariant_counted_per_key_against_a_var_holds_and_breaks_in_one_call(tmp_path):
    e = _engine(tmp_path)
    source = next(src for name, src, _ in e.compiler.gen.sources if name.startswith("_invariants"))
    (line,) = [x for x in source.splitlines() if "COUNT_PER_KEY" in x]
    assert line.startswith("    if not COUNT_PER_KEY("), source
    assert source.splitlines()[source.splitlines().index(line) + 1] == "        return 2", source
    e.play({"Carte": ["A", "B", "C", "D"]}, 2, 0, [RandomAgent(1), RandomAgent(2)])    # four forces: it holds
    e = _engine(tmp_path, '\ncard Carte "A2" { force: 1 }\n')
    with pytest.raises(SpecRuntimeError, match="broke the invariant forces_distinctes"):
        e.play({"Carte": ["A", "A2", "B", "C"]}, 2, 0, [RandomAgent(1), RandomAgent(2)])
