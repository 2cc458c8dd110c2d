"""The flow resumed from a state file's frames at a decision inside an `if` (checker/solver/unroll_resume.py): what the
resumed block binds stays bound after it, as the interpreter keeps it — here a player `p` drawn at random after the
turn's offer, inside the `if` (shadowing the loop's), is the one a coin goes to after the `if`.  The encoding from the same frames,
pinned to the interpreter's answers, reaches the interpreter's state (tests/test_unroll_resume.py's way).  Survivor
of the blind mutation sample 5181 (answered ahead of the run): unroll_resume.py:47 `name != var` → `name == var`
(the resumed block's bindings dropped: the coin goes to the loop's `p`)."""

from __future__ import annotations

import pytest

from conftest import ROOT
from test_unroll_resume import _state, compare_from

SPEC = str(ROOT / "tests" / "fixtures" / "resume" / "marché_ombre.rules")


@pytest.mark.parametrize("seed", [4, 5])     # 5: the player drawn is not the loop's
def test_a_name_a_resumed_if_binds_is_the_one_read_after_it(seed):
    engine, scopes, data = _state(SPEC, "Standard", 2, seed, 1)
    compare_from(engine, scopes, data, 2, seed)
