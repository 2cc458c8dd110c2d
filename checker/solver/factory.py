"""The one place solvers are made: a fixed seed, a resource limit and a safety timeout, so every answer is
reproducible.

Every query has three outcomes: ``sat`` (with a model), ``unsat`` (with a core), or ``unknown``
with Z3's own reason — which callers report, never turn into a crash or a guess.

The resource limit (``rlimit``: a count of Z3's own steps, the same on every machine) is what decides
that a query is too hard, so the same question gets the same answer on a quiet or a loaded machine.
Measured with ``bench/z3_budget.py``: the bundled specs' decided queries take at most 6.5 million steps
(Citadelles with the fan expansion) and 37 million (Carcassonne), Z3 runs about 6 million steps a second
on the development machine under load, so the limit of 50 million strikes after 8 s or so.  The
timeout is a safety net fifteen times above the time the step limit takes at that rate (:func:`safety_ms`:
125 s for 50 million steps, and never under 120 s), for a query whose steps Z3 does not count well; when
it strikes, the reason says that this answer depends on the machine.  It grows with the step limit, so a
question given more steps (`reach`'s last questions: 400 million) is still decided by its steps, not by the
machine's load.

Two environment variables lower (or raise) the limits of every solver the commands make:
``RULEBOOK_Z3_TIMEOUT_MS`` (milliseconds per query) and ``RULEBOOK_Z3_RLIMIT`` (Z3's resource
limit per query, which does not depend on the machine's speed).  A tiny ``RULEBOOK_Z3_RLIMIT``
makes every query come back unknown: that is how the undecided paths of `legal`, `moves` and
`conflicts` are tested.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
import time

import z3

__all__ = ["SolverSettings", "make_solver", "safety_ms", "Outcome", "run", "environment_problem", "ENVIRONMENT",
           "fresh_context", "private_context", "steady_collector"]

ENVIRONMENT = {"RULEBOOK_Z3_TIMEOUT_MS": "timeout_ms", "RULEBOOK_Z3_RLIMIT": "rlimit"}


STEPS_PER_MS = 6_000        # Z3's steps a millisecond on the development machine under load (bench/z3_budget.py)
SAFETY = 15                 # the clock's limit is this many times the time the step limit takes at that rate
FLOOR_MS = 120_000          # and never less


def safety_ms(rlimit: int) -> int:
    """The clock's limit of a solver whose step limit is ``rlimit`` (see the module's docstring)."""
    return max(FLOOR_MS, SAFETY * rlimit // STEPS_PER_MS)


@dataclasses.dataclass(frozen=True)
class SolverSettings:
    seed: int = 0
    timeout_ms: int | None = None      # None: the safety net for ``rlimit`` (:func:`safety_ms`)
    rlimit: int = 50_000_000
    minimize_cores: bool = True
    # Incremental: the solver starts with a `push`, so Z3 uses its SMT core at once rather than its one-shot
    # QF_LIA tactic, which can stall on sums of 0/1 terms (counting cards) that the core refutes at once.
    incremental: bool = False


DEFAULT = SolverSettings()


def environment_problem() -> str | None:
    """What is wrong with the limits given in the environment, or None."""
    for name in ENVIRONMENT:
        value = os.environ.get(name)
        if value is not None and not (value.strip().isdigit() and int(value) > 0):
            return f"{name} must be a positive whole number, not {value!r}"
    return None


def _from_environment(settings: SolverSettings) -> SolverSettings:
    changes = {field: int(os.environ[name]) for name, field in ENVIRONMENT.items()
               if os.environ.get(name, "").strip().isdigit() and int(os.environ[name]) > 0}
    return dataclasses.replace(settings, **changes) if changes else settings


def make_solver(settings: SolverSettings = DEFAULT) -> z3.Solver:
    """A solver with the project's fixed settings (the only constructor of solvers in the package);
    the environment's limits, when given, replace the settings' (see the module's docstring)."""
    settings = _from_environment(settings)
    timeout_ms = settings.timeout_ms if settings.timeout_ms is not None else safety_ms(settings.rlimit)
    s = z3.SolverFor("QF_LIA")
    s.set("random_seed", settings.seed)
    s.set("timeout", timeout_ms)
    s.rulebook_timeout_ms = timeout_ms                # read by `run`, to tell the clock from the step count
    s.set("rlimit", settings.rlimit)
    s.rulebook_rlimit = settings.rlimit               # read by whoever lowers it for later checks
    s.set("core.minimize", settings.minimize_cores)
    if settings.incremental:
        s.push()
    return s


def fresh_context() -> None:
    """Start a new Z3 main context: the terms and solvers made from now on live in it.  Z3's answers
    (which model it finds) depend on the terms its context already holds, so a query run in a fresh
    context gets the same answer whatever ran before it — in this process or in another.  Terms made
    before must not be mixed with terms made after.  With :func:`steady_collector`, this is where Python's
    cyclic garbage collector runs."""
    if not gc.isenabled():
        gc.collect()
        gc.freeze()             # what outlived the questions so far is not scanned again at the next one
    z3.z3._main_ctx = None      # z3py makes the next main_ctx() anew


@contextlib.contextmanager
def private_context(ctx: z3.Context | None = None):
    """Make terms and ask questions in a Z3 context of their own (``ctx``, or a new one, which it yields), then
    go back to the main context as it was: what is asked inside cannot change the answers of the questions
    asked in the main context (it holds none of their terms).  Terms made inside stay in that context: they
    may be kept to be used there again, or translated into another."""
    outer = z3.z3._main_ctx
    z3.z3._main_ctx = ctx = ctx if ctx is not None else z3.Context()
    try:
        yield ctx
    finally:
        z3.z3._main_ctx = outer


@contextlib.contextmanager
def steady_collector():
    """Z3 numbers the terms of a context, and gives the numbers of the terms Python frees to the next ones it
    makes; which model it finds depends on those numbers.  Python's cyclic garbage collector frees terms after
    a count of allocations that any change to the code moves, so witnesses changed with changes that changed no
    rule (a module moved, another imported first).  Within it, the collector runs only where
    :func:`fresh_context` starts a question: the same questions get the same answers whatever code surrounds
    them.  What is alive now is frozen (never scanned again), so those collections look only at what the
    questions made.  The commands that ask Z3 run in it (a context manager: the collector is as it was after)."""
    enabled = gc.isenabled()
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


@dataclasses.dataclass
class Outcome:
    status: str                       # "sat" | "unsat" | "unknown"
    model: z3.ModelRef | None = None
    core: list = dataclasses.field(default_factory=list)
    reason: str = ""                  # for unknown: Z3's reason_unknown()


def run(solver: z3.Solver, *assumptions) -> Outcome:
    """Check, and say which of the three outcomes it was."""
    start = time.monotonic()
    answer = solver.check(*assumptions)
    if answer == z3.sat:
        return Outcome("sat", model=solver.model())
    if answer == z3.unsat:
        return Outcome("unsat", core=list(solver.unsat_core()))
    reason = solver.reason_unknown() or "unknown"
    timeout_ms = getattr(solver, "rulebook_timeout_ms", None)
    # Z3 says "canceled" for either limit (or "timeout"): the time taken tells which one struck.
    if reason in ("timeout", "canceled") and timeout_ms and (time.monotonic() - start) * 1000 < 0.9 * timeout_ms:
        reason = "max. resource limit exceeded"
    elif reason in ("timeout", "canceled"):
        reason = ("timeout: the safety limit on the clock struck before the resource limit (this answer depends "
                  "on the machine and its load; RULEBOOK_Z3_TIMEOUT_MS raises it)")
    return Outcome("unknown", reason=reason)
