"""The sub-goals of an aimed ending (checker/runtime/aim.py `subgoals`): two statements that write what the ending
reads by the same chain of steps (the same calls, loops and conditions down to them) make one sub-goal, counted once
in the penalty.  Survivor of the blind runtime sample h164 (seed 4164), aim.py:654 `0 → 1` (`_key` read a call's
step as any other, by the identity of its arguments' tuple, made anew for each chain: the same sub-goal kept twice,
its distance counted twice)."""

from __future__ import annotations

from checker.runtime.aim import subgoal_penalty
from conftest import at_first_decision, engine_of

from test_runtime_survivors_aim_budget import TRÉSOR

ONE = "      set trésor = 1\n"
TWO = "      set trésor = trésor + 1\n      set trésor = trésor + 1\n"


def _penalty(tmp_path, writes: str) -> float:
    engine = engine_of(tmp_path / "tresor.rules", TRÉSOR.replace("CLÉ", "280").replace(ONE, writes), recording=False)
    return at_first_decision(engine, lambda p: subgoal_penalty(engine, "trouvé", p))


def test_two_writes_reached_by_the_same_steps_are_one_subgoal(tmp_path):
    """The key at 280, past the 256 values a chain tries: 24 away, with one write of the treasure or two."""
    assert _penalty(tmp_path, ONE) == 24
    assert _penalty(tmp_path, TWO) == 24
