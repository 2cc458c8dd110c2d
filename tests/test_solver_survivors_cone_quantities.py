"""Tests written for a survivor of the second blind solver sample of h158 (seed 1129,
bench/results/mutation-2026-11-29-h158.txt) in checker/solver/unroll_cone.py: the state `reach --rounds` keeps holds
what the condition reads through the quantities it calls — `points(Joueur 1)` is a sum over `panier[p]`, so
`panier` is kept."""

from __future__ import annotations

import json

from checker.cli import main
from conftest import ROOT

MARKET = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"


def test_what_a_condition_reads_through_its_quantities_is_kept(capsys):
    code = main(["reach", str(MARKET), "points(Joueur 1) >= 1", "--rounds", "1", "--keep", "tours_joués",
                 "-n", "2", "-s", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code in (0, 1, 4), out
    assert "panier" in out["kept"] and "tours_joués" in out["kept"], out

