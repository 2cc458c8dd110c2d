"""A game resumed from its frames counts its work (the loop iterations and aggregate elements MAX_WORK bounds) as
the game played without stopping: a `repeat` resumed in one of its iterations counts each later iteration once,
as the straight game's `repeat` does (checker/runtime/frames.py).  Written for the survivor frames.py:218 of the
blind runtime sample h169 (bench/results/mutation-2026-11-29-h169.txt): the resumed repeat counted only the
iteration it was resumed in, so a game going on from a state file could loop past MAX_WORK where the same game
played straight stops with the limit's error."""

from __future__ import annotations

import json

import pytest

from checker.runtime import Engine
from checker.solver.statefile import load_state
from test_runtime_survivors_frames import ANSWERS, _Answers, _played, engine, spec  # noqa: F401 — fixtures


@pytest.mark.parametrize("n", [1, 2, 3])
def test_a_game_resumed_in_a_repeat_counts_its_work_at_each_decision_as_the_straight_game(engine, monkeypatch, n):
    """From decision n (round 1 or 2 of the flow's `repeat`), the work counted when each later decision comes is
    the straight game's, decision by decision."""
    at_decision = []
    real = Engine.decide

    def decide(self, *args, **options):
        at_decision.append(self.work)
        return real(self, *args, **options)
    monkeypatch.setattr(Engine, "decide", decide)
    game, final, recorder, scopes = _played(engine, n)
    straight = at_decision[:len(ANSWERS)]         # the game's decisions (then the recorder's capture replays n)
    assert straight == [6, 3] * 3, straight      # a round's first decision: its repeat iteration and call counted
    at_decision.clear()
    loaded = load_state(engine, json.loads(json.dumps(recorder.state)), scopes)
    from checker.play.resume import resume_game
    engine.recording, engine.digests = True, False
    again = resume_game(loaded, [_Answers(ANSWERS[n - 1:])] * 2)
    assert again.scores == game.scores
    # the decision resumed at is counted from the state file (not compared); every later one as in the game
    assert at_decision[1:] == straight[n:], (at_decision, straight)
