"""The one place solvers are made: a fixed seed, a timeout and an rlimit, so every answer is reproducible.

Every query has three outcomes: ``sat`` (with a model), ``unsat`` (with a core), or ``unknown``
with Z3's own reason — which callers report, never turn into a crash or a guess.
"""

from __future__ import annotations

import dataclasses

import z3

__all__ = ["SolverSettings", "make_solver", "Outcome", "run"]


@dataclasses.dataclass(frozen=True)
class SolverSettings:
    seed: int = 0
    timeout_ms: int = 10_000
    rlimit: int = 50_000_000
    minimize_cores: bool = True
    # Incremental: the solver starts with a `push`, so Z3 uses its SMT core at once rather than its one-shot
    # QF_LIA tactic, which can stall on sums of 0/1 terms (counting cards) that the core refutes at once.
    incremental: bool = False


DEFAULT = SolverSettings()


def make_solver(settings: SolverSettings = DEFAULT) -> z3.Solver:
    """A solver with the project's fixed settings (the only constructor of solvers in the package)."""
    s = z3.SolverFor("QF_LIA")
    s.set("random_seed", settings.seed)
    s.set("timeout", settings.timeout_ms)
    s.set("rlimit", settings.rlimit)
    s.set("core.minimize", settings.minimize_cores)
    if settings.incremental:
        s.push()
    return s


@dataclasses.dataclass
class Outcome:
    status: str                       # "sat" | "unsat" | "unknown"
    model: z3.ModelRef | None = None
    core: list = dataclasses.field(default_factory=list)
    reason: str = ""                  # for unknown: Z3's reason_unknown()


def run(solver: z3.Solver, *assumptions) -> Outcome:
    """Check, and say which of the three outcomes it was."""
    answer = solver.check(*assumptions)
    if answer == z3.sat:
        return Outcome("sat", model=solver.model())
    if answer == z3.unsat:
        return Outcome("unsat", core=list(solver.unsat_core()))
    return Outcome("unknown", reason=solver.reason_unknown() or "unknown")
