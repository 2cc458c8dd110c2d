"""What a summarised procedure may write (checker/solver/unroll_summary.py `written`) through a procedure it calls: what
that procedure writes, nothing more — only a call of the game's turn or round procedure may write anything (then
`written` says None: everything is made unknown).  `tour` here resets its counter through `remettre()`: the turn
writes the same as the market's (tests/test_solver_survivors_summary_written.py).  Survivor of the targeted mutation
sample h181 (seed 181) of the reach machinery: unroll_summary.py:131 `s.name in (turn_proc, round_proc)` → `not in`
(any other call read as "anything": every kept cell made unknown after the call, nothing proven; and a call of the
turn procedure not)."""

from __future__ import annotations

from pathlib import Path

from test_reach_summary import _market
from test_solver_survivors_summary_written import _written


def test_a_procedure_the_summarised_turn_calls_adds_only_what_it_writes(tmp_path):
    spec = Path(_market(tmp_path, second=False))
    text = spec.read_text(encoding="utf-8")
    assert "  set achats_du_tour = 0\n  offer p {" in text
    text = text.replace("  set achats_du_tour = 0\n  offer p {", "  call remettre()\n  offer p {")
    spec.write_text(text + "\nprocedure remettre() { set achats_du_tour = 0 }\n", encoding="utf-8")
    assert _written(spec) == {"achats_du_tour", "bourse", "réserve", "panier", "étal"}
