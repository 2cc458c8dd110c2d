"""`rulebook conflicts` on several cores finds the same findings, in the same order, with the same
witnesses, as on one (the cheap searches only: the full search is timed by bench/simulate.py)."""

from __future__ import annotations

from pathlib import Path

from checker.front.check import check_paths
from checker.conflicts.parallel import search_all
from conftest import ROOT

CHEAP = ("competing_values", "order_dependence", "dangling")


def test_two_workers_find_what_one_finds_in_the_same_order(tmp_path):
    house = tmp_path / "maison.rules"
    house.write_text('action rêver(p: Player) "Rien."\n'
                     'rule personne { forbid rêver(p) when p == p }\n'
                     'rule cité_à_six { value cité_complète_à() = 6 when player_count >= 6 }\n'
                     'rule cité_à_neuf { value cité_complète_à() = 9 when player_count >= 5 }\n', encoding="utf-8")
    paths = [ROOT / "spec" / "citadelles", house]
    result = check_paths(paths)
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    one, totals = search_all(result.typed, paths, None, 1, CHEAP)
    two, totals2 = search_all(result.typed, paths, None, 2, CHEAP)
    assert [f.as_json() for f in two] == [f.as_json() for f in one]
    assert (totals2.queries, totals2.unknowns) == (totals.queries, totals.unknowns)
    kinds = [f.kind for f in one]
    assert "competing-values" in kinds and "dangling" in kinds and len(one) >= 4
    assert sum(f.witness is not None for f in one) >= 3
