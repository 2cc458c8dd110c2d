"""`swap a with b` where one card is in no zone (a kind without a `start` zone leaves its cards there).  The
interpreter once did nothing there while the encoding put the other card in the hand beside it (h181, from the
blind mutation sample 9171's #106): one semantics, now the same failure in both — the card in no zone has no place
to give (docs/language.md, *Swap*)."""

from __future__ import annotations

import pytest
import z3

from checker.front.check import check_paths
from checker.runtime import Engine
from checker.runtime.state import SWAP_NOWHERE, SpecRuntimeError
from checker.solver.encode import Encoder
from checker.solver.transition import Transition

HEADER = """\
game "Échange" { players: 2..2  flow: partie }
kind Jeton { valeur: Int in 0..3 }
zone main[Player]: set of Jeton public
card Jeton "Simple" { valeur: 1 }
card Jeton "Autre" { valeur: 2 }
procedure partie() { }
"""
SWAP = """\
procedure échanger(p: Player) {{
  for j in selected(Jeton) {{
    if j.valeur {placed} {{ move j to main[p] }}
  }}
  for a in selected(Jeton) {{
    for b in selected(Jeton) {{
      if a.valeur == 1 and b.valeur == 2 {{ swap a with b }}
    }}
  }}
}}
"""


def started_échange(tmp_path, procedures: str):
    """The two-token game "Échange" (a kind without a `start` zone: both tokens in no zone) with ``procedures``
    (their first line is the file's 7th), set up for two players: (its engine, its file)."""
    path = tmp_path / "échange.rules"
    path.write_text(HEADER + procedures + 'configuration "Tout" { include Jeton: "Simple", "Autre" }\n',
                    encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    e = Engine(result.typed)
    e.recording = False
    e.start({"Jeton": ["Simple", "Autre"]}, 2, 1, [None, None])
    assert not e.st.where, "no card is in a zone"
    return e, path


def _started(tmp_path, placed: str):
    return started_échange(tmp_path, SWAP.format(placed=placed))[0]


def _fails(t) -> list[str]:
    """The reasons of the failures that can happen on the known state (their condition satisfiable with the
    constraints made before them)."""
    out = []
    for f in t.failures:
        s = z3.Solver()
        s.add(*[c for c in t.constraints[:f.constraints] if not isinstance(c, bool)],
              z3.BoolVal(f.when) if isinstance(f.when, bool) else f.when)
        if s.check() == z3.sat:
            out.append(f.reason)
    return out


@pytest.mark.parametrize("placed", ["== 1", "== 2"])
def test_a_swap_of_a_card_in_no_zone_fails_in_both_backends_at_the_swap(tmp_path, placed):
    e = _started(tmp_path, placed)
    t = Transition(Encoder(e, concrete=True), lazy_moves=True)
    t.procedure("échanger", (0,), True, None)
    assert _fails(t) == [SWAP_NOWHERE]
    with pytest.raises(SpecRuntimeError, match="no place to give") as raised:
        e.call("échanger", (0,))
    assert raised.value.span.line == 13                 # the swap's line
    assert [f.span.line for f in t.failures if f.reason == SWAP_NOWHERE] == [13]


def test_a_swap_of_two_placed_cards_does_not_fail_and_both_backends_agree(tmp_path):
    e = _started(tmp_path, ">= 1")
    t = Transition(Encoder(e, concrete=True), lazy_moves=True)
    t.procedure("échanger", (0,), True, None)
    assert _fails(t) == []
    e.call("échanger", (0,))
    assert {e.st.where[i] for i in (0, 1)} == {("main", 0)}
