"""`rulebook reach --summarise tour` where `tour` writes a kept var holding a record (checker/solver/unroll_summary.py
`HavocStore._fresh_value`): the summary does not encode a record or a grid made unknown.  The search is then never
"proved" (the condition is reached at the first turn), and while the summary refuses it, its reason names the var
that the summarised procedure writes.  Survivor of the targeted mutation sample h181 (seed 181) of the reach
machinery: unroll_summary.py:180 `key[1]` → `key[2]` (the reason said "writes None", the var's index)."""

from __future__ import annotations

import json
from pathlib import Path

from checker.cli import main
from test_reach_summary import KEEP, _market

RECORD = "\nenum Côté { nord, sud }\nrecord Marque { côté: Côté, fort: Bool }\nvar marque: Marque = Marque(nord, false) public\n"


def test_a_summarised_turn_that_writes_a_record_is_never_proved_and_names_the_var(tmp_path, capsys):
    text = Path(_market(tmp_path, second=False)).read_text(encoding="utf-8")
    spec = tmp_path / "marché_marqué.rules"
    assert "  set achats_du_tour = 0\n" in text
    spec.write_text(text.replace("  set achats_du_tour = 0\n", "  set achats_du_tour = 0\n  set marque = Marque(sud, true)\n")
                    + RECORD, encoding="utf-8")
    code = main(["reach", str(spec), "marque == Marque(sud, true)", "--rounds", "1", "--summarise", "tour",
                 "--keep", KEEP[1] + ",marque", "-n", "2", "-s", "1", "--json"])
    s = json.loads(capsys.readouterr().out)
    assert s["status"] != "proved" and code != 1, s
    if "a record or a grid" in s.get("reason", ""):
        assert "a summarised procedure writes marque, a record or a grid" in s["reason"], s["reason"]
