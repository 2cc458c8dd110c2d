"""The solver's deterministic counters, as the commands print them: `reach`'s Z3 questions while unrolling
(checker/solver/unroll.py) and `conflicts`' queries, questions and unknown answers (checker/solver/search.py).
The counts are exact on the market fixture: a counter that starts at 1, or a search that skips or repeats a
question, changes them.  Survivors of the blind mutation sample -e (unroll.py:172 questions = 0 → 1,
search.py:97 unknowns = 0 → 1): the tests read the counters only as bounds, or not at all."""

from __future__ import annotations

import json

from checker.cli import main
from conftest import ROOT

MARKET = str(ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules")
RAFLE = str(ROOT / "tests" / "fixtures" / "invariants" / "rafle.rules")


def test_reach_counts_each_question_it_asks_z3_while_unrolling(capsys):
    """Three lots are out of reach within 3 decisions (proved), and two are reached: both unrollings ask Z3 the
    same 25 questions (the paths followed do not depend on the condition)."""
    for condition, code in (("count(l in panier[Joueur 1]) == 3", 1), ("count(l in panier[Joueur 1]) >= 2", 0)):
        assert main(["reach", MARKET, condition, "--within", "3", "-n", "2", "-s", "1", "--json"]) == code
        out = json.loads(capsys.readouterr().out)
        assert out["status"] == ("proved" if code else "reached")
        assert out["z3_questions"] == 25, condition


def test_conflicts_counts_its_queries_questions_and_no_unknown_answer(capsys):
    """The house rule `rafle` on the market, one worker, with the effect search: 12 independent questions, all in
    scope (searched), put to Z3 in 12 checks (9 before the invariants were assumed lazily: one question's first model
    breaks `deux_lots_au_plus`, and is asked again with it; 10 before each invariant question was asked first on its
    own, which counts one check more for each of the two moves that break the cap), none answered unknown.  13 checks
    since 34972e6 (bisected; a contradiction about rules a batch could not decide has its rules' conditions
    translated from their templates, asked on the one-copy states first): the same findings, one check more.  12
    again since 2bfeb3c (an effect failure one of whose conditions the ranges make false is not asked,
    `effects._ruled_out`): the same findings, one check less."""
    code = main(["conflicts", MARKET, RAFLE, "--workers", "1", "--effects", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["unresolved"] == 2 and report["undecided"] == 0
    assert (report["queries"], report["unknowns"], report["questions"], report["searched"]) == (12, 0, 12, 12)
