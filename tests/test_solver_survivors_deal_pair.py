"""Two cards of a local collection moved at once, on every path (checker/solver/unroll.py's move of a collection,
checker/solver/deal.py's `Deal.none_inside`): which card the pile's top gives the discard depends on a choice, so
the discard's one card is either of two; Z3 is asked once whether either is still in the pile (none is), and the
pile's order stays known.  As tests/test_solver_survivors_deal.py's `rendre_filtrées`, with two candidates instead
of three.  Survivor of the blind mutation sample 9171 against the whole suite: unroll.py:622 `len(cards) > 1` →
`> 2` (two candidates asked of the pile one by one: 2 questions, the same answer) — cost only."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.solver.encode import Encoder
from checker.solver.unroll import Unrolled
from test_solver_survivors_deal import GAME
from test_unroll import started

RETURNING = """procedure rendre_une(p: Player) {
  choose q in players by p
  if q == p { draw 1 from pioche to tas[p] }
  draw 1 from pioche to défausse
  move filter(c in défausse where c.valeur > 0) to tas[p]
  draw 1 from pioche to tas[p]
}

"""


def test_two_cards_of_a_collection_moved_on_every_path_are_asked_of_the_pile_at_once(tmp_path):
    path = tmp_path / "tas.rules"
    path.write_text(GAME.replace('configuration "Tout"', RETURNING + 'configuration "Tout"'), encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    e = started(result, 2, 1, "Tout")
    t = Unrolled(Encoder(e, concrete=True), 4)
    t.procedure("rendre_une", (0,))
    assert [text for _span, text in t.deal.lost] == [] and t.questions == 1
