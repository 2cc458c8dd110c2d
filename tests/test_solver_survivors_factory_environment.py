"""Tests written for a survivor of the second blind solver sample of h158 (seed 1129,
bench/results/mutation-2026-11-29-h158.txt) in checker/solver/factory.py: a limit given in the environment replaces
the settings' from 1 on (every positive whole number, as `environment_problem` accepts), and 0 is refused."""

from __future__ import annotations

from checker.solver.factory import SolverSettings, environment_problem, make_solver


def test_every_positive_limit_in_the_environment_replaces_the_settings(monkeypatch):
    for value in (1, 2, 345):
        monkeypatch.setenv("RULEBOOK_Z3_RLIMIT", str(value))
        monkeypatch.setenv("RULEBOOK_Z3_TIMEOUT_MS", str(value + 1))
        assert environment_problem() is None
        solver = make_solver(SolverSettings(rlimit=5_000_000, timeout_ms=60_000))
        assert (solver.rulebook_rlimit, solver.rulebook_timeout_ms) == (value, value + 1)
    monkeypatch.setenv("RULEBOOK_Z3_RLIMIT", "0")
    assert environment_problem() == "RULEBOOK_Z3_RLIMIT must be a positive whole number, not '0'"
    assert make_solver(SolverSettings(rlimit=5_000_000, timeout_ms=60_000)).rulebook_rlimit == 5_000_000
