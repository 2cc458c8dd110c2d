"""What a summarised procedure may write (checker/solver/unroll_summary.py's `written`) when it swaps two zones
named by an index (`swap panier[p] with panier[left(p)]`): the zone indexed, `panier` — not "anything", which
would make every kept name unknown after each call and lose what the summary proves of the names the turn never
writes.  A swap of two cards (not zones) is read as anything (their zones are not named).  Survivor of the lead's
blind mutation sample 2611 (whole suite): unroll_summary.py:154 `e.obj.id in program.zones` → `not in` (`z[i]`
not read as the zone z: no test summarised a procedure that swaps indexed zones)."""

from __future__ import annotations

import json

from checker.cli import main
from test_reach_summary import KEEP, _market
from test_solver_survivors_summary_written import _written

END_OF_TURN = '    finish "Passer"\n  }\n}\nvar achats_du_tour'


def _with(spec: str, statement: str) -> str:
    text = open(spec, encoding="utf-8").read()
    assert END_OF_TURN in text
    text = text.replace(END_OF_TURN, f'    finish "Passer"\n  }}\n  {statement}\n}}\nvar achats_du_tour')
    open(spec, "w", encoding="utf-8").write(text)
    return spec


def test_a_swap_of_indexed_zones_writes_that_zone_only(tmp_path, capsys):
    spec = _with(_market(tmp_path, second=False), "swap panier[p] with panier[left(p)]")
    assert _written(spec) == {"achats_du_tour", "bourse", "réserve", "panier", "étal"}
    # `tours_joués` is kept and not written by the turn: the summarised search still proves what bounds it
    code = main(["reach", spec, "tours_joués >= 4", "--rounds", "1", "--summarise", "tour", *KEEP,
                 "-n", "2", "-s", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["status"]) == (1, "proved"), out


def test_a_swap_of_two_cards_is_read_as_anything(tmp_path):
    spec = _with(_market(tmp_path, second=False), "for l in panier[p] { for m in étal { swap l with m } }")
    assert _written(spec) is None
