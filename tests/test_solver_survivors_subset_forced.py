"""A `choose … subset … size 2..2` whose options are there on some paths only (the discard holds two cards or three,
as the player chose): once one card is picked from two, the last pick is forced — the interpreter does not ask it —
so the unrolled flow (checker/solver/unroll.py `_subset`) counts it as no decision, and, pinned to the interpreter's
answers, reaches the interpreter's state.  Survivor of the blind mutation sample h164 (solver, seed 6164),
unroll.py:297 `Sub → Add` (`size + i <= 1`: a forced pick counted as a decision where the number of options is
symbolic)."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from test_solver_survivors_deal import GAME, _started
from test_unroll import compare

KEEP_TWO = GAME.replace("procedure rendre_deux(p: Player) {", """procedure garder_deux(p: Player) {
  draw 2 from pioche to défausse
  choose q in players by p
  if q == p { draw 1 from pioche to défausse }
  choose s subset of défausse size 2..2 by p
  move s to tas[p]
}

procedure rendre_deux(p: Player) {""")


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("tas") / "tas.rules"
    path.write_text(KEEP_TWO, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    return result


@pytest.mark.parametrize("budget,seed", [(2, 1), (2, 2), (2, 3), (2, 4), (3, 5), (3, 6)])
def test_the_last_pick_of_a_subset_of_two_among_two_is_forced(game, budget, seed):
    compare(_started(game, seed), "garder_deux", (0,), budget, seed)
