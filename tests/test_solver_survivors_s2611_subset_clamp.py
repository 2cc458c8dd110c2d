"""A subset's largest size is clamped at 0 in the encoding as in the interpreter (checker/solver/transition.py's
subset choice: `top = ITE(top < 0, 0, top)`): a `size 0..n` whose `n` may be negative lets the player keep nothing.
Survivor #133 of the blind solver sample 2611 (the lead, s26; transition.py:607 on 4432372, `0 → 1 @1`): clamped at 1,
the encoding let one lot be kept where the interpreter allows none — an effect failure the interpreter does not
replay ("DOES NOT AGREE")."""

from __future__ import annotations

from test_solver_survivors_random_subset import no_effect_failure

TRIER = """
card Lot "Muscade" {
  épice: cannelle
  prix: 3
  power trier "Garder des lots de l'étal, jamais plus qu'il n'en a au-delà de cinq." {
    limit once per game
    choose ls subset of étal size 0..(count(l in étal) - 5) by me
    if count(x in ls) >= 1 and count(l in étal) < 5 {
      transfer 1000 from bourse[me] to réserve
    }
  }
}
"""


def test_a_subset_whose_largest_size_is_negative_keeps_nothing_in_the_encoding_too(tmp_path, capsys):
    """With fewer than five lots on the stall the largest size is negative: the player keeps none, so the costly
    branch is never reached — no effect failure (and the power's question is asked)."""
    no_effect_failure(tmp_path, capsys, TRIER)
