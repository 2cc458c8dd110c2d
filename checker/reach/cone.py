"""reach --rounds N: the first N rounds of every game, with only the state the question reads kept.

The search of :mod:`checker.reach.search` follows every cell of the state over K decisions, which does not reach
a whole round of the 4th edition.  This one follows the flow over its first N rounds, whatever the number of
decisions, on an over-approximation (:class:`~checker.solver.unroll_cone.Coned`): the names CONDITION reads and
those ``--keep`` names are followed exactly; every other cell is an unknown at each read; an action offered that
writes nothing kept is not offered; the deal is not followed.  The encoding has every path of the game (and
more), so:

- *proved*: no path of the first N rounds meets CONDITION (asked at every decision point of them and at the
  start of round N + 1), for any deal and any random choice — a proof for every seed;
- *undecided*: the encoding has a path where it holds (the cut state may forbid it: the plain search, with
  ``--within``, answers that), a place it does not follow, or Z3 could not answer.

It never answers *reached*: a path of the over-approximation is not a game until the interpreter plays it, and
its decisions are not all the game's (the actions not offered are missing).
"""

from __future__ import annotations

import time

import z3

from checker.runtime.engine import Engine
from checker.solver.encode import AND, Encoder, Unsupported, as_bool, is_const
from checker.solver.factory import SolverSettings, fresh_context, make_solver, run
from checker.solver.unroll import MAX_LOOPS
from checker.solver.unroll_cone import Coned, names_read

__all__ = ["reach_rounds", "unknown_names", "answer", "CHUNK", "FINAL_RLIMIT"]

CHUNK = 150                     # points asked together in one question
FINAL_RLIMIT = 400_000_000      # Z3's steps for the questions after the unrolling (all of them: the limit counts
                                # for the solver's life); the 4th edition's Crown question needs more than 50 million


def unknown_names(program, keep) -> list[str]:
    """The names of ``keep`` that are neither a var nor a zone of the program."""
    return [n for n in keep if n not in program.vars and n not in program.zones]


def finished(outcome, t, program, rounds: int, start: float):
    """``outcome`` with what every answer of a cut search says: its CPU time since ``start``, its questions, the
    names kept and pruned by the cut ``t``, its rounds."""
    outcome.seconds = time.process_time() - start
    outcome.questions = t.questions
    outcome.kept = sorted(t.kept & (set(program.vars) | set(program.zones)))
    outcome.pruned = sorted(t.pruned)
    outcome.rounds = rounds
    return outcome


def reach_rounds(result, selection, players: int, seed: int, condition, rounds: int, keep=(),
                 max_loops: int = MAX_LOOPS, settings: SolverSettings | None = None):
    """Search the first ``rounds`` rounds of the game of ``selection`` for a state where ``condition`` holds
    ((typed expression, {name: seat}, path functions)); the state outside the kept names is cut.  Returns an
    :class:`~checker.reach.search.Outcome` (``proved`` or ``undecided``) with ``kept`` and ``pruned`` set."""
    from checker.reach.search import Outcome
    start = time.process_time()
    fresh_context()     # its answer must not depend on what this process asked Z3 before (a test suite)
    engine = Engine(result.typed)
    engine.recording = False
    engine.start(selection.cards, players, seed, [None] * players)
    expr, env, monitors = condition[0], condition[1], (condition[2] if len(condition) > 2 else [])
    kept = set(keep) | names_read(engine.program, expr)
    for m in monitors:
        kept |= names_read(engine.program, m.expr)
    enc = Encoder(engine, concrete=True)
    t = Coned(enc, kept, rounds, max_loops)
    t.condition, t.condition_env = expr, env
    t.watch(monitors)
    flow = engine.program.procedures[engine.flow]

    def done(outcome):
        return finished(outcome, t, engine.program, rounds, start)

    try:
        t.procedure(engine.flow, ())
        t.check(t.running, flow.span)
    except Unsupported as exc:
        return done(Outcome("undecided", 0, reason=f"the encoding cannot follow the game: {exc.located()}",
                            where=exc.span))
    solver = make_solver(settings or SolverSettings(incremental=True, minimize_cores=False, rlimit=FINAL_RLIMIT))
    solver.add(*[as_bool(c) for c in t.constraints])
    return done(answer(t, solver, rounds))


def answer(t, solver, rounds: int):
    """The questions after the unrolling ``t`` (its constraints in ``solver``): does the condition hold at a point
    of a path, does a path reach a place not followed?  An :class:`~checker.reach.search.Outcome`."""
    from checker.reach.search import Outcome
    # one question per CHUNK points where it may hold: their disjunction in one question exceeded Z3's resource
    # limit; 150 points a question took less CPU than 40 or 300 on the 4th edition's round (docs/reach.md)
    hits = [as_bool(when) for when, _, _ in t.hits if not (is_const(when) and not when)]
    for i in range(0, len(hits), CHUNK):
        out = run(solver, z3.Or(hits[i:i + CHUNK]))
        if out.status == "unknown":
            return Outcome("undecided", 0, reason=f"Z3 could not decide it: {out.reason}")
        if out.status == "sat":
            return Outcome("undecided", 0, reason="the over-approximation has a path where it holds (the state cut "
                                                  "may be what forbids it in the game; the plain search, --within "
                                                  "K, answers that)")
    for g, span, what in t.cuts:
        out = run(solver, as_bool(AND(g, True)))
        if out.status != "unsat":
            why = what if out.status == "sat" else f"{what} (Z3 could not tell: {out.reason})"
            return Outcome("undecided", 0, reason=f"a path of the first {rounds} round(s) reaches a place the "
                                                  f"search does not follow: {why}", where=span)
    return Outcome("proved", 0, reason=f"no path of the first {rounds} round(s) reaches the condition, for any deal")
