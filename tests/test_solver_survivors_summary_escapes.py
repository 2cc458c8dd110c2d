"""`rulebook reach --summarise PROC` does not summarise a procedure a path leaves with something in flight (an `end
turn` it does not catch): the lemma is refused and said so (checker/solver/unroll_summary.py `escaping`,
checker/reach/summary.py).  Also when EVERY path leaves so — an `end turn` as the procedure's first statement, whose
guard is the constant true.  Written for the survivor unroll_summary.py:464 `not removed @1` of the blind solver
sample h169 (bench/results/mutation-2026-11-29-h169.txt): the mutant drops an escape whose guard is constant true,
and summarises what no path finishes."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_reach_summary import KEEP, _market, _reach

REFUSED = "the lemma of tour(p): a path leaves it with `end turn` in flight (not summarised)"


@pytest.mark.parametrize("where", ["first", "last"])
def test_a_turn_procedure_that_ends_the_turn_is_not_summarised(tmp_path, capsys, where):
    spec = Path(_market(tmp_path, False))
    text = spec.read_text(encoding="utf-8")
    if where == "first":            # every path: the constant true guard
        old = "procedure tour(p: Player) {\n  set achats_du_tour = 0"
        new = "procedure tour(p: Player) {\n  end turn\n  set achats_du_tour = 0"
    else:                           # after the offer: the paths still running then
        old = '    finish "Passer"\n  }\n}\nvar achats_du_tour'
        new = '    finish "Passer"\n  }\n  end turn\n}\nvar achats_du_tour'
    assert old in text
    spec.write_text(text.replace(old, new), encoding="utf-8")
    code, out = _reach(capsys, str(spec), "count(l in panier[Joueur 2]) >= 1", "--rounds", "1",
                       "--summarise", "tour", *KEEP)
    assert (code, out["status"], out["reason"], out["lemmas"]) == (4, "undecided", REFUSED, [])
