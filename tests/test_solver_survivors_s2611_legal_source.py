"""`rulebook legal`'s text explanation (checker/solver/command.py `_reason_lines`): each reason with a place in the
spec shows its source line under it (`| rule payer { forbid … }`), and a reason with no place (one the rules
give no statement for) is shown without one.  Survivor of the lead's blind mutation sample 2611 (whole suite):
command.py:105 `if span is None: return None` → `is not None` (every reason's source line dropped, and a reason
without a place an internal error: the tests read the verdicts or the JSON, not the source lines)."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.solver.command import _reason_lines
from checker.solver.legal import Reason
from conftest import ROOT

SPEC = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"


def test_a_reason_shows_its_source_line_and_one_without_a_place_none():
    result = check_paths([SPEC])
    assert result.ok
    rule = result.program.rules["payer"]
    lines = _reason_lines(result, Reason("forbid", "payer", rule.span, "bourse[p] < prix_payé(p, l)"))
    assert lines[0].startswith("  forbid    payer  (") and lines[1] == "            bourse[p] < prix_payé(p, l)"
    assert lines[2] == "            | rule payer { forbid acheter(p, l) when bourse[p] < prix_payé(p, l) }", lines
    assert len(lines) == 3
    lines = _reason_lines(result, Reason("offer", "not offered", None, "no option of this kind is offered here"))
    assert lines == ["  offer     not offered", "            no option of this kind is offered here"], lines
