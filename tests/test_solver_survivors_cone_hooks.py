"""`rulebook reach --rounds` (checker/solver/unroll_cone.py) follows an action whose `before` hook signals a window
a reaction answers, when that reaction writes the kept state: as tests/test_reach_cone.py's action that signals the
window from its body, but declared as a hook (`before acheter(p, l) signal acheté(p)`).  Written for the survivor
unroll_cone.py:121 `1 → 2` of the blind solver sample h169 (bench/results/mutation-2026-11-29-h169.txt): no test
had a hook on the way of a rounds search (the mutant reads the action's key out of range: `reach` stops with an
internal error)."""

from __future__ import annotations

from conftest import ROOT
from test_reach_cone import REACTING, _reach


def test_an_action_whose_hook_opens_a_window_that_writes_the_kept_state_is_followed(tmp_path, capsys):
    """`acheter` writes `achats`, the only kept state besides the rounds' count, only through the reaction to the
    window its `before` hook opens: followed, so the search over the first round does not prove what a purchase
    reaches (tests/test_reach_cone.py holds the rounds search to the plain one on this game)."""
    text = (ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules").read_text(encoding="utf-8")
    text = text.replace('include Lot: "Safran d\'Iran", "Poivre noir", "Cannelle"',
                        'include Lot: "Safran d\'Iran", "Poivre noir", "Cannelle", "Clou de girofle"')
    text = text.replace("require count(l in selected(Lot)) == 3", "require count(l in selected(Lot)) == 4")
    spec = tmp_path / "marché.rules"
    spec.write_text(text + REACTING + "before acheter(p, l) signal acheté(p)\n", encoding="utf-8")
    coned, c = _reach(capsys, str(spec), "achats >= 1", "--rounds", "1", "--keep", "tours_joués")
    assert (coned, c["status"]) == (4, "undecided") and "acheter" not in c["not_followed"]
