"""`rulebook diff`'s source excerpt of a replaced procedure says what the program means (docs/diff.md): a
`replace procedure` written without `requires` keeps the replaced one's precondition (docs/language.md,
*Overlays*), so its header is shown with that precondition and where it is written, not as if it dropped it."""

from __future__ import annotations

from pathlib import Path

from checker.diff.changes import declaration_changes
from checker.diff.pair import Pair, Side
from test_language_constructs import checked, errors
from test_procedure_preconditions import BASE, OVERLAY, REQUIRES

BODY = """{
  draw 1 from pioche to main[p]
  transfer 1 from banque to bourse[p]
}
"""


def _excerpt(tmp_path: Path, header: str) -> list[str]:
    a = checked(tmp_path, BASE)
    b = checked(tmp_path, BASE, OVERLAY + header + " " + BODY)
    assert a.ok and b.ok, errors(b)
    paths_a, paths_b = [tmp_path / "00.rules"], [tmp_path / "00.rules", tmp_path / "01.rules"]
    pair = Pair(Side("a", a, paths_a), Side("b", b, paths_b))
    [change] = [d for d in declaration_changes(pair) if d.subject == "procedure donner"]
    return change.excerpt


def test_a_kept_precondition_is_shown_in_the_replacing_header_with_where_it_is_written(tmp_path):
    excerpt = _excerpt(tmp_path, "replace procedure donner(p: Player)")
    base = f"{tmp_path / '00.rules'}:{REQUIRES}"
    assert excerpt[0] == f"--- {base}" and excerpt[1].startswith(f"+++ {tmp_path / '01.rules'}:2")
    assert "-procedure donner(p: Player) requires count(c in main[p]) == 0 {" in excerpt
    assert (f"+replace procedure donner(p: Player) requires count(c in main[p]) == 0 {{   # requires kept from the "
            f"procedure it replaces ({base})") in excerpt
    assert "+  transfer 1 from banque to bourse[p]" in excerpt and "   draw 1 from pioche to main[p]" in excerpt


def test_a_stated_or_dropped_precondition_is_shown_as_written(tmp_path):
    for stated in ("requires true", "requires count(c in main[p]) < 2"):
        excerpt = _excerpt(tmp_path, f"replace procedure donner(p: Player) {stated}")
        assert f"+replace procedure donner(p: Player) {stated} {{" in excerpt, excerpt
        assert not [line for line in excerpt if "kept" in line]


def test_a_difference_in_a_spec_without_a_decision_point_is_said_not_a_crash(tmp_path, capsys):
    """The base game here has no `offer`: a witness has no decision point to be written at. `diff` says the
    difference and its situation (no state file, no replay) instead of an internal error (exit 3)."""
    from conftest import run_cli
    a = tmp_path / "00.rules"
    a.write_text(BASE, encoding="utf-8")
    b = tmp_path / "01.rules"
    b.write_text(OVERLAY + "replace procedure donner(p: Player) " + BODY, encoding="utf-8")
    code, out, err = run_cli(capsys, "diff", str(a), "--with", str(b), "--witnesses", str(tmp_path / "w"))
    assert code == 1, err
    assert "procedure donner: from the same state and choices, A and B do different things (2 players)" in out
    assert "after it, bourse[Joueur 2] = 0 in A, 1 in B" in out
    assert "witness: player_count = 2" in out and "written:" not in out
    assert not list((tmp_path / "w").glob("*.state.json"))
