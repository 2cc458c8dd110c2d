"""`swap` of a card's name with a physical card that is in no zone (checker/solver/transition_statements.py's
`_swap_cards`): the interpreter refuses the name, wherever the other card is ("only a physical card can move");
so does the encoding, at the swap.  A kind without a `start` zone leaves its selected cards in no zone until
something moves them, which is how a played game has one.  (Where the other card is in a zone, each move of the
swap refuses the name itself: tests/test_retarget_swap_each.py.)  Survivor of h171's blind mutation sample 7171,
left open there: transition_statements.py:68 (now :69) `inst == NONE or inst < 0` → `and` — only `none` refused by
the swap's own check, and a name swapped with a card in no zone moves nothing and does not fail."""

from __future__ import annotations

import pytest

from checker.runtime.state import SpecRuntimeError
from checker.solver.encode import Encoder
from checker.solver.unroll import Unrolled
from test_swap_in_no_zone import started_échange

NAME = """\
procedure échanger() {
  for j in selected(Jeton) {
    if j.valeur == 2 { swap "Simple" with j }
  }
}
"""


def test_a_name_swapped_with_a_card_in_no_zone_fails_in_the_encoding_as_in_the_interpreter(tmp_path):
    e, path = started_échange(tmp_path, NAME)
    with pytest.raises(SpecRuntimeError, match="only a physical card can move"):
        e.call("échanger", ())
    t = Unrolled(Encoder(e, concrete=True), 1)
    t.procedure("échanger", ())
    assert [(f.when, f.reason, str(f.span)) for f in t.failures] == \
        [(True, "only a physical card can move (this is a card's name)", f"{path}:9:24")]
