"""`rulebook reach --rounds N --keep …` follows an action only when its text may write the kept state
(checker/solver/unroll_cone.py, `Writes`): an action whose one statement is `reset` of a kept var is followed, one
that resets a var that is not kept is not.  Survivor of the blind mutation sample -h (unroll_cone.py:166, In→NotIn:
a reset of a kept var read as harmless — an unsound cut — and one of a cut var followed)."""

from __future__ import annotations

import json

from checker.cli import main
from conftest import ROOT

RESETS = '''
var achats: Int = 0
var autre: Int = 0
action effacer(p: Player) "Effacer les achats." { reset achats }
action oublier(p: Player) "Oublier." { reset autre }
'''


def test_a_reset_of_a_kept_var_is_followed_and_one_of_a_cut_var_is_not(tmp_path, capsys):
    text = (ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules").read_text(encoding="utf-8")
    assert text.count('        finish "Passer"') == 1
    text = text.replace('        finish "Passer"', '        effacer(p)\n        oublier(p)\n        finish "Passer"')
    spec = tmp_path / "marché.rules"
    spec.write_text(text + RESETS, encoding="utf-8")
    code = main(["reach", str(spec), "achats >= 1", "--rounds", "1", "--keep", "achats", "-n", "2", "-s", "1",
                 "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["kept"]) == (4, ["achats"]), out      # undecided: the offer is unrolled 12 times at most
    assert out["not_followed"] == ["acheter", "flairer", "oublier"], out
