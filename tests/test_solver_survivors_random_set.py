"""`choose … at random` from a pile whose order the deal no longer follows (checker/solver/unroll.py `_ordered`): the
random source lost at a random subset, then the pile shuffled — the deal has no list for it (None) — and a card
chosen at random from it: no order is given, the choice is any of the options, and why is said.  Survivor of the blind mutation sample 5181 (not executed by the suite;
answered ahead of the run): unroll.py:580 `pile is not None and is_const(pile.taken) and …` → `or` (the pile
read though there is none: AttributeError, an internal error)."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.solver.encode import Encoder
from checker.solver.formulas import is_const
from checker.solver.unroll import Unrolled
from test_solver_survivors_deal import TAS
from test_unroll import started

GAME = TAS + """

procedure tirer(p: Player) {
  choose s subset of pioche size 1..1 at random
  shuffle pioche
  choose c in pioche at random
  move c to tas[p]
}

configuration "Standard" { include Carte: "Un", "Deux", "Trois", "Quatre" }
"""


def test_a_random_choice_from_a_pile_shuffled_unfollowed_is_any_option_and_says_why(tmp_path):
    path = tmp_path / "tas.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    t = Unrolled(Encoder(started(result, 2, 1), concrete=True), 0)
    t.procedure("tirer", (0,))
    assert t.failures == [] and t.cuts == []
    assert [why.split(" (")[0] for _, why in t.deal.lost] == [
        "the random source is not followed from here: a random subset is not followed",
        "a shuffle is not followed"], t.deal.lost
    c = next(ch for ch in t.choices if ch.var == "c")
    assert not is_const(c.value) and len(c.options) == 4     # any of the four cards of the pile
