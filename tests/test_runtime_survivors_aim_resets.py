"""The sub-goals of an aimed ending (checker/runtime/aim_plan.py `subgoals`) are the statements that change what the
ending's conditions read: a `reset` of that var is one, a `reset` of another var is not.  Written beside the
survivor aim_plan.py:253 of the blind runtime sample h169 (a `shuffle`'s zone: test_runtime_survivors_aim_shuffles.py)
for the line after it, aim_plan.py:254 `In → NotIn` (not in the sample; it kills it, checked on a fresh copy): no
test had a `reset` on the way to an ending, and a `reset` of any other var was taken for a step towards it."""

from __future__ import annotations

from checker.runtime.aim import endings, subgoals
from conftest import engine_of

from test_runtime_survivors_aim_budget import TRÉSOR


def _subgoals(tmp_path, text: str) -> list[tuple[int, str]]:
    engine = engine_of(tmp_path / "tresor.rules", text.replace("CLÉ", "280"))
    [found] = endings(engine.program, engine.flow)
    return [(g.depth, g.where) for g in subgoals(engine.program, engine.flow, found)]


def test_a_reset_of_another_var_is_no_step_towards_the_ending(tmp_path):
    """The turn starts with `reset joué` (the ending reads only `trésor`): the sub-goals are the check and the
    search, as with `set joué = false`."""
    written = _subgoals(tmp_path, TRÉSOR)
    assert written == [(1, "vérifier"), (1, "fouiller")]
    assert _subgoals(tmp_path, TRÉSOR.replace("  set joué = false\n", "  reset joué\n")) == written


def test_a_reset_of_what_the_ending_reads_is_a_step_towards_it(tmp_path):
    """A `reset trésor` in the turn changes what the ending reads: one sub-goal more, in the turn."""
    text = TRÉSOR.replace("  set joué = false\n", "  set joué = false\n  if numéro > 5 { reset trésor }\n")
    assert _subgoals(tmp_path, text) == [(1, "vérifier"), (1, "tour"), (1, "fouiller")]
