"""How many questions the unrolled flow asks Z3 (Unrolled.questions, a deterministic counter) when a statement
moves several cards at once (checker/solver/deal.py `Deal.none_inside`): one question per pile for all the cards,
asked only where two or more (card, known card of the pile) pairs are possible; with one pair, the question per
card (`_may_leave`) is the only one.  Survivor of the blind mutation sample -h: deal.py:175 (`len(tests) > 1` →
`>= 1`: the one pair asked twice when it is possible), which changes no answer, only the count.  The game is
tests/test_solver_survivors_deal.py's four cards and piles."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.solver.encode import Encoder
from checker.solver.unroll import Unrolled
from test_solver_survivors_deal import GAME, _lost, _started

KEEP_ONE = """
procedure garder_un(p: Player) {
  draw 2 from pioche to défausse
  choose c in défausse by p
  move c to bottom of pioche
  draw 1 from pioche to tas[p]
  choose s subset of pioche size 2..2 by p
  move s to tas[p]
}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("tas") / "tas.rules"
    path.write_text(GAME.replace('configuration "Tout"', KEEP_ONE + '\nconfiguration "Tout"'), encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    return result


def test_two_cards_moved_at_once_of_which_one_may_be_a_known_card_ask_one_question_for_it(game):
    """`garder_un`: the pile keeps one known card above a bottom card a player chose; both leave at once.  Of the
    two cards moved, only the known one is a (card, pile card) pair: it is asked once (it may be there), not
    once for the pile and once more for the card — 3 questions in all, 4 if it were asked twice."""
    t = Unrolled(Encoder(_started(game), concrete=True), 4)
    t.procedure("garder_un", (0,))
    assert _lost(t) == []
    assert t.questions == 3
