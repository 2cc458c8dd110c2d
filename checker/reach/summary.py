"""reach --rounds N --summarise PROC: the first N rounds on the cut state, each call of PROC a summary proven
by Z3 as a lemma (:mod:`checker.solver.unroll_summary`).

1. The flow is unrolled as ``--rounds`` does (:class:`~checker.solver.unroll_summary.Summarised`), each call of
   PROC replaced by its summary, whose bounds are unknowns per call.
2. For each kind of call (its arguments besides the owner), the *preconditions*: which kept vars without an
   index equal, at every such call, one of its arguments or one constant (Z3 proves it on the unrolling).
3. The *lemma* of each kind: PROC unrolled from a symbolic state meeting them; the least bounds ``own`` and
   ``other`` on how many cards arrive in a watched zone (in it at a decision point inside PROC or at its end,
   not in it before; a bound on how much it grows) are searched (0, 1, … up to :data:`MAX_BOUND`), each proven
   by an unsatisfiable question on a solver of its own (one left unknown proves nothing: the next is asked);
   every place it does not follow and every way out with something in flight is proven unreachable.
4. Each call's bounds are set to its lemma's, and CONDITION is asked as ``--rounds`` asks it.

Every step that Z3 does not prove makes the answer *undecided*, with the reason; *proved* is a proof for any
deal.  It never answers *reached*.
"""

from __future__ import annotations

import time

import z3

from checker.runtime.engine import Engine
from checker.solver.encode import AND, EQ, NOT, Encoder, Unsupported, as_bool
from checker.solver.factory import SolverSettings, fresh_context, make_solver, run
from checker.solver.unroll import MAX_LOOPS
from checker.solver.unroll_cone import names_read
from checker.solver.unroll_summary import LemmaUnrolled, Summarised, owner_of

__all__ = ["reach_summarised", "MAX_BOUND"]

MAX_BOUND = 12          # the largest bound searched for a lemma (beyond: undecided)
LEMMA_RLIMIT = 200_000_000
BOUND_RLIMIT = 100_000_000      # the steps of each bound's question, on a solver of its own


def _same_type(a, b) -> bool:
    return str(a).rstrip("?") == str(b).rstrip("?")


def reach_summarised(result, selection, players: int, seed: int, condition, rounds: int, keep, summarise: str,
                     max_loops: int = MAX_LOOPS, settings: SolverSettings | None = None):
    """As :func:`checker.reach.cone.reach_rounds`, with the calls of procedure ``summarise`` summarised.  The
    :class:`~checker.reach.search.Outcome` has ``lemmas`` (one line each: the kind of call, its preconditions,
    its bounds proven) besides ``kept`` and ``pruned``."""
    from checker.reach.cone import FINAL_RLIMIT, answer, finished
    from checker.reach.search import Outcome
    start = time.process_time()
    fresh_context()     # its answer must not depend on what this process asked Z3 before (a test suite)
    engine = Engine(result.typed)
    engine.recording = False
    engine.start(selection.cards, players, seed, [None] * players)
    expr, env = condition[0], condition[1]
    read = names_read(engine.program, expr)
    kept = set(keep) | read
    enc = Encoder(engine, concrete=True)
    t = Summarised(enc, kept, rounds, max_loops, summarise, sorted(z for z in read if z in engine.program.zones))
    t.condition, t.condition_env = expr, env
    lemmas: list[str] = []

    def done(outcome):
        outcome.lemmas = lemmas
        return finished(outcome, t, engine.program, rounds, start)

    def undecided(reason, where=None):
        return done(Outcome("undecided", 0, reason=reason, where=where))

    try:
        t.procedure(engine.flow, ())
        t.check(t.running, engine.program.procedures[engine.flow].span)
    except Unsupported as exc:
        return undecided(f"the encoding cannot follow the game: {exc.located()}", exc.span)
    solver = make_solver(settings or SolverSettings(incremental=True, minimize_cores=False, rlimit=FINAL_RLIMIT))
    solver.add(*[as_bool(c) for c in t.constraints])
    decl = engine.program.procedures[summarise]
    params = [enc.resolve(p.type) for p in decl.params]
    kinds: dict[tuple, list] = {}
    for site in t.sites:
        kinds.setdefault(site.kind(t.owner), []).append(site)
    for kind, sites in kinds.items():
        shown = f"{summarise}({', '.join('p' if k == '*' else enc.show(k, ty) for k, ty in zip(kind, params))})"
        if any(k is None for k in kind):
            return undecided(f"a call of {summarise} with an argument not known in advance (besides its player): "
                             f"its lemma is not asked", sites[0].span)
        reached = [s for s in sites if s.values is not None]
        if not reached:
            lemmas.append(f"{shown}: never called (Z3: no path reaches its calls)")
            continue
        pre = _preconditions(reached, kind, params, enc)
        proved = _lemma(engine, t, summarise, kind, params, pre, settings)
        if isinstance(proved, str):
            return undecided(f"the lemma of {shown}: {proved}")
        own, other = proved
        for s in sites:
            solver.add(s.own == own, s.other == other)
        assumed = ", ".join(f"{v} == {shown}" for v, _, shown in pre) or "nothing"
        lemmas.append(f"{shown}, from any state where {assumed}: each of {', '.join(t.watched)} grows by at most "
                      f"{own} for p, {other} for another player, at every decision point inside it and at its end "
                      f"({len(sites)} call(s))")
    outcome = answer(t, solver, rounds)
    if outcome.status == "proved":
        outcome.reason += f" (each call of {summarise} summarised by its lemma, proven)"
    return done(outcome)


def _preconditions(sites, kind, params, enc):
    """[(var, value, shown)]: the kept vars without an index that every call of ``sites`` was proven, where it is
    made, to find equal to the same argument (value "*" for the owner, else the argument, a constant of the
    kind) or to the same constant."""
    out = []
    for v, what in sites[0].values.items():
        if not all(_same(s.values.get(v), what) for s in sites[1:]):
            continue
        if what[0] == "arg":
            i = what[1]
            out.append((v, "*" if kind[i] == "*" else kind[i], "p" if kind[i] == "*" else enc.show(kind[i], params[i])))
        else:
            value = what[1]
            shown = str(value)
            try:
                shown = str(z3.is_true(value)).lower() if z3.is_bool(value) else enc.show(value.as_long(),
                                                                                          enc.var_types[v])
            except Exception:       # noqa: BLE001 - a value the encoder does not name: shown as Z3 prints it
                pass
            out.append((v, value, shown))
    return out


def _same(a, b) -> bool:
    if a is None or a[0] != b[0]:
        return False
    return a[1] == b[1] if a[0] == "arg" else a[1].eq(b[1])


def _lemma(engine, t, name, kind, params, pre, settings):
    """(own, other): the least bounds proven for one call of ``name`` of ``kind`` from any state meeting ``pre``;
    or the reason it is not proven (a str)."""
    enc = Encoder(engine, concrete=False)
    lemma = LemmaUnrolled(enc, t.kept, t.max_loops, t.watched)
    owner = owner_of(enc, name)
    args = []
    for i, k in enumerate(kind):
        if k == "*":
            p = z3.Int("joueur appelé")
            lemma.constraints.append(z3.And(p >= 0, p < len(enc.seats)))
            args.append(p)
        else:
            args.append(k)
    for v, what, _ in pre:
        value = args[owner] if isinstance(what, str) and what == "*" else what
        if isinstance(value, z3.ExprRef) and (z3.is_int_value(value) or z3.is_true(value) or z3.is_false(value)):
            value = value.as_long() if z3.is_int_value(value) else z3.is_true(value)
        # the var starts at its value (the same states as an unknown constrained to it, but a constant folds: the
        # rules that read it are decided while encoding instead of by Z3)
        lemma.store.write(("var", v, None), value, True)
    before = lemma.members()
    try:
        lemma.call(name, tuple(args))
    except Unsupported as exc:
        return f"the encoding cannot follow it: {exc.located()}"
    solver = make_solver(settings or SolverSettings(incremental=True, minimize_cores=False, rlimit=LEMMA_RLIMIT))
    solver.add(*[as_bool(c) for c in lemma.constraints])
    for what, guard in lemma.escaping():
        out = run(solver, as_bool(guard))
        if out.status == "unknown":
            return f"Z3 could not decide whether a path leaves it with `{what}` in flight: {out.reason}"
        if out.status != "unsat":
            return f"a path leaves it with `{what}` in flight (not summarised)"
    for g, span, what in lemma.cuts:
        out = run(solver, as_bool(g))
        if out.status == "unknown":
            return f"Z3 could not decide whether a path reaches a place the unrolling does not follow ({what} at " \
                   f"{span}): {out.reason}"
        if out.status != "unsat":
            return f"a path reaches a place the unrolling does not follow: {what} at {span}"
    bounds = []
    points = [(g, lemma.added(before, now)) for g, now in lemma.points]
    for mine in (True, False):
        bound = _bound(lemma, points, args, owner, mine)
        if isinstance(bound, str):
            return bound
        bounds.append(bound)
    return tuple(bounds)


def _bound(lemma, points, args, owner, mine: bool):
    """The least ``b`` (0, 1, … :data:`MAX_BOUND`) proven: no path of the lemma has, at a point, more than ``b``
    cards added to a watched zone of the owner (``mine``) or of another player — an unsatisfiable question on a
    solver of its own with :data:`BOUND_RLIMIT` steps.  A question that ends unknown is no proof, and the next
    ``b`` is asked (the bound proven is then larger than the least, never wrong); or the reason none is proven."""
    unknown = None
    for b in range(MAX_BOUND + 1):
        grows = []
        for g, added in points:
            for (z, q), new in added.items():
                if len(new) <= b:
                    continue
                who = True if owner is None else EQ(args[owner], q)
                grows.append(as_bool(AND(g, who if mine else NOT(who), z3.AtLeast(*new, b + 1))))
        if not grows:
            return b
        solver = make_solver(SolverSettings(incremental=True, minimize_cores=False, rlimit=BOUND_RLIMIT))
        solver.add(*[as_bool(c) for c in lemma.constraints])
        lemma.questions += 1
        out = run(solver, z3.Or(*grows))
        if out.status == "unsat":
            return b
        if out.status == "unknown":
            unknown = out.reason
    if unknown is not None:
        return f"Z3 could not decide a bound up to {MAX_BOUND} (the last unknown: {unknown})"
    return f"a watched zone may grow by more than {MAX_BOUND}"
