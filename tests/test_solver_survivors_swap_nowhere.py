"""`swap a with b` of a card in a hand with a card in another hand, encoded by a transition of lazy moves
(checker/solver/transition_statements.py's `_swap_cards`, the conflict searches' questions): the swap is recorded
under its first move for the count carried across it (transition_counts.Counts), whose sum over the places counts the
cards known there.  Written (h181) for 9171's #106 (transition_statements.py `id(made[0])` → `id(made[1])`: an
IndexError where a swap with a card in NO zone made one move) and 5181's #27 (transition_counts.py:102).  A card in
no zone is now a failure in both backends (tests/test_swap_in_no_zone.py; the interpreter did nothing there, the
encoding put the other card in the hand beside it): a swap makes no move or two and more, so #106's one-move swap
is no longer reached and the first test does not kill it any more (open on the current tree); #27 is killed."""

from __future__ import annotations

import z3

from checker.solver.encode import Encoder
from checker.solver.transition import Transition
from checker.solver.transition_counts import Counts
from test_swap_in_no_zone import SWAP, started_échange

SEULEMENT = """\
procedure seulement_échanger() {
  for a in selected(Jeton) {
    for b in selected(Jeton) {
      if a.valeur == 1 and b.valeur == 2 { swap a with b }
    }
  }
}
"""


def _started(tmp_path):
    return started_échange(tmp_path, SWAP.format(placed="== 1") + SEULEMENT)[0]


def _places(t) -> dict:
    return {(inst, k): z3.is_true(z3.simplify(z3.BoolVal(v) if isinstance(v := t.store.member("main", k, inst), bool)
                                              else v)) for inst in (0, 1) for k in (0, 1)}


def test_a_swap_is_encoded_and_its_count_is_the_sum_over_the_places(tmp_path):
    e = _started(tmp_path)
    e.st.put(1, "main", 1, "top")               # the "Autre" in Joueur 2's hand (a card in no zone: a failure)
    t = Transition(Encoder(e, concrete=True), lazy_moves=True)
    t.procedure("échanger", (0,), True, None)
    assert t.failures == []
    assert len(t.store.swaps) == 1
    total, carried = Counts(t.store).count("main", 0)
    s = z3.Solver()
    s.add(*[c for c in t.constraints if not isinstance(c, bool)], total != carried)
    assert s.check() == z3.unsat


def test_a_swap_first_in_a_cell_that_holds_a_known_card_counts_that_card(tmp_path):
    """The swap is the first move the hand's count follows, and the "Simple" is known to be in the hand before it:
    the count carried from the sum over the places counts it (a place known true).  Survivor of the blind mutation
    sample 5181 (the lead's run): transition_counts.py:102 `not (is_const(g) and not g)` → `not (is_const(g) and
    g)` (the places known true left out of the sum the count starts from: one card short)."""
    e = _started(tmp_path)
    e.st.put(0, "main", 0, "top")               # the "Simple" in Joueur 1's hand, the "Autre" in Joueur 2's
    e.st.put(1, "main", 1, "top")
    t = Transition(Encoder(e, concrete=True), lazy_moves=True)
    t.procedure("seulement_échanger", (), True, None)
    assert len(t.store.swaps) == 1 and t.failures == []
    total, carried = Counts(t.store).count("main", 0)
    s = z3.Solver()
    s.add(*[c for c in t.constraints if not isinstance(c, bool)], total != carried)
    assert s.check() == z3.unsat


def test_a_plain_move_first_out_of_a_cell_that_holds_a_known_card_counts_that_card(tmp_path):
    """The hand's count follows a plain move first (the "Simple", known in Joueur 1's hand, moved to Joueur 2's): the
    count carried from the sum over the places counts the card known there, then takes it out.  Survivor of the blind
    mutation sample 5181 (the lead's run, #72): transition_counts.py:117 `not (is_const(g) and not g)` → `not
    (is_const(g) and g)` (the places known true left out of the sum: one card short, as #27 at the swap's)."""
    e = _started(tmp_path)
    e.st.put(0, "main", 0, "top")
    e.st.put(1, "main", 1, "top")
    t = Transition(Encoder(e, concrete=True), lazy_moves=True)
    t.procedure("échanger", (1,), True, None)
    assert t.failures == []
    total, carried = Counts(t.store).count("main", 0)
    s = z3.Solver()
    s.add(*[c for c in t.constraints if not isinstance(c, bool)], total != carried)
    assert s.check() == z3.unsat
