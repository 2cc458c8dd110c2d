"""The solvers' two limits: the resource count decides (the same on every machine), and the clock is a
safety net whose reason says that it depends on the machine."""

from __future__ import annotations

import z3

from checker.solver.factory import SolverSettings, make_solver, run


def _pigeons(solver: z3.Solver, holes: int) -> None:
    """holes + 1 pigeons in holes holes, one per hole: unsat, and hard for a SAT solver."""
    x = [[z3.Bool(f"p{i}_{j}") for j in range(holes)] for i in range(holes + 1)]
    for row in x:
        solver.add(z3.Or(row))
    for j in range(holes):
        for i in range(holes + 1):
            for k in range(i + 1, holes + 1):
                solver.add(z3.Or(z3.Not(x[i][j]), z3.Not(x[k][j])))


def test_the_resource_limit_decides_and_says_so():
    solver = make_solver(SolverSettings(rlimit=20_000))
    _pigeons(solver, 9)
    outcome = run(solver)
    assert outcome.status == "unknown"
    assert "resource limit" in outcome.reason
    assert "machine" not in outcome.reason


def test_a_timeout_says_the_answer_depends_on_the_machine():
    solver = make_solver(SolverSettings(timeout_ms=1, rlimit=10 ** 12))
    _pigeons(solver, 10)
    outcome = run(solver)
    assert outcome.status == "unknown"
    assert "depends on the machine" in outcome.reason


def test_the_default_limits_put_the_resource_count_first():
    """50 million steps take seconds; the safety timeout is far above (bench/z3_budget.py measures both)."""
    settings = SolverSettings()
    assert settings.rlimit <= 50_000_000 and make_solver(settings).rulebook_timeout_ms >= 60_000


def test_the_clock_limit_grows_with_the_step_limit():
    """A question given more steps gets more time before the safety net strikes: `reach`'s last questions (400
    million steps) are decided by their steps on a loaded machine, as the default questions are (their clock
    limit is 15 times the time their steps take at 6,000 steps a millisecond, and at least 120 s)."""
    from checker.reach.cone import FINAL_RLIMIT
    from checker.solver.factory import safety_ms
    assert make_solver(SolverSettings(rlimit=2_000_000)).rulebook_timeout_ms == 120_000
    assert make_solver(SolverSettings(rlimit=50_000_000)).rulebook_timeout_ms == 125_000
    assert make_solver(SolverSettings(rlimit=FINAL_RLIMIT)).rulebook_timeout_ms == safety_ms(FINAL_RLIMIT) == 1_000_000
    assert make_solver(SolverSettings(timeout_ms=5_000, rlimit=FINAL_RLIMIT)).rulebook_timeout_ms == 5_000


def test_no_solver_of_the_package_sets_its_own_clock():
    """The clock is the factory's safety net and nothing else: a solver made with a short clock of its own answers
    differently on a loaded machine (a pile's card judged possible because the clock struck)."""
    import re
    from conftest import ROOT
    offenders = [f"{p.relative_to(ROOT)}:{n}" for p in (ROOT / "checker").rglob("*.py")
                 if p.name != "factory.py"
                 for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
                 if re.search(r"\btimeout_ms\s*=", line)]
    assert offenders == []


def test_an_easy_question_is_answered_within_both_limits():
    solver = make_solver()
    a, b = z3.Ints("a b")
    solver.add(a + b == 3, a > b, b >= 1)
    assert run(solver).status == "sat"


def test_the_limits_in_the_environment_must_be_positive_whole_numbers(monkeypatch):
    """RULEBOOK_Z3_TIMEOUT_MS and RULEBOOK_Z3_RLIMIT: 1 is the smallest limit; 0, a sign or a word is refused
    with the variable's name."""
    from checker.solver.factory import ENVIRONMENT, environment_problem
    for name in ENVIRONMENT:
        for value, ok in (("1", True), (" 250 ", True), ("0", False), ("-3", False), ("lots", False)):
            monkeypatch.setenv(name, value)
            problem = environment_problem()
            assert (problem is None) == ok, (name, value, problem)
            assert ok or problem == f"{name} must be a positive whole number, not {value!r}"
        monkeypatch.delenv(name)


def test_only_a_positive_limit_in_the_environment_replaces_the_settings(monkeypatch):
    """What a solver is made with: a positive limit from the environment replaces the settings' own; a 0 (which
    Z3 would read as "no limit") or a word leaves the settings as they are, if a command did not refuse it first."""
    from checker.solver.factory import ENVIRONMENT, _from_environment
    settings = SolverSettings(timeout_ms=5_000, rlimit=20_000)
    for name, field in ENVIRONMENT.items():
        for value, expected in (("7", 7), ("0", None), ("lots", None)):
            monkeypatch.setenv(name, value)
            made = _from_environment(settings)
            assert getattr(made, field) == (getattr(settings, field) if expected is None else expected), (name, value)
        monkeypatch.delenv(name)
