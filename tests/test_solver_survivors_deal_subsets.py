"""Tests written for a survivor of the second blind solver sample of h158 (seed 1129,
bench/results/mutation-2026-11-29-h158.txt) in checker/solver/unroll.py: a `choose … subset` whose options are there
on some paths only (the discard holds one card or three, as the player chose) is asked as the interpreter asks it —
a pick among one card is forced, not a decision — so the unrolled flow pinned to the interpreter's answers reaches
the interpreter's state, whatever the seeded answers."""

from __future__ import annotations

import pytest

from test_solver_survivors_deal import _started, game  # noqa: F401  (the module's fixture)
from test_unroll import compare


@pytest.mark.parametrize("budget,seed", [(2, 1), (3, 2), (3, 3), (4, 4), (4, 5), (4, 6)])
def test_a_subset_of_a_discard_filled_on_some_paths_is_asked_as_the_interpreter_asks(game, budget, seed):  # noqa: F811
    e = _started(game, seed)
    compare(e, "rendre_deux", (0,), budget, seed)
