"""Fuzzing the state, move and log loaders through `rulebook moves`, `legal`, `replay`, `eval` and `apply`, and
`eval`'s expressions: whatever the file or the expression, the answer is an exit code the commands document
(never 3, an internal error), no traceback, and a message that quotes at most excerpts of the input.  Cases:
schema-valid documents (hypothesis-jsonschema), mutations of real files, spliced bytes; edited and random
expressions (see ``tests/fuzzing.py``; ``bench/fuzz.py`` runs many more, and huge ones)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from fuzzing import cases, checked_once, real_documents, run_case

# Derandomized: the same cases every run, so the suite's cost does not depend on a draw (one random run of these
# took 48 s, another 13 s); bench/fuzz.py runs as many random ones as asked.
EXAMPLES = {"state": 35, "move": 35, "log": 25, "eval": 12, "apply": 12, "apply-move": 12, "expression": 30}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    real_documents()            # played once, before the examples (not in Hypothesis' time)
    return tmp_path_factory.mktemp("fuzz")


@pytest.mark.parametrize("target", list(EXAMPLES))
def test_no_file_makes_an_internal_error(target, folder):
    @settings(max_examples=EXAMPLES[target], deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
    @given(case=cases(target))
    def check(case):
        sort, data = case
        code, err = run_case(target, data, folder)
        assert code in (0, 1, 2, 4), f"{sort} case: exit {code}: {err[-2000:]}"
        assert "Traceback" not in err
        assert len(err) < 4000, f"{sort} case: {len(err)} characters of messages"
    with checked_once():
        check()
