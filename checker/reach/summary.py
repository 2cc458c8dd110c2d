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

from checker.front.types import KindT
from checker.runtime.engine import Engine
from checker.solver.encode import AND, EQ, Encoder, Unsupported, as_bool, is_const
from checker.solver.factory import SolverSettings, fresh_context, make_solver, run
from checker.solver.unroll import MAX_LOOPS
from checker.solver.unroll_cone import names_read
from checker.solver.unroll_counted import segments
from checker.solver.unroll_rank import ranked_bound
from checker.solver.unroll_step import ClosedLemma, StepUnrolled, stepped_bound, stepped_others, stepped_questions
from checker.solver.unroll_summary import Summarised, owner_of

__all__ = ["reach_summarised", "MAX_BOUND"]

MAX_BOUND = 12          # the largest bound searched for a lemma (beyond: undecided)
LEMMA_RLIMIT = 200_000_000
BOUND_RLIMIT = 100_000_000      # the steps of each bound's question, on a solver of its own
COUNT_RLIMIT = 100_000_000      # the steps of the questions over the watched zones' counts (all of them)
GROWTH_RLIMIT = 50_000_000      # the steps of the questions of one round's growth over the counts (all of them)


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
    proven: list = []           # [_Shape]: the lemmas whose questions were asked and answered
    answers = _Answers()        # the steps' questions answered, shared by the lemmas up to a renaming
    bounds: dict = {}           # site -> (own, other): its lemma's bounds
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
        proved = _lemma(engine, t, summarise, kind, params, pre, settings, proven, shown, answers)
        if isinstance(proved, str):
            return undecided(f"the lemma of {shown}: {proved}")
        own, other, same, notes = proved
        for s in sites:
            solver.add(s.own == own, s.other == other)
            bounds[s] = (own, other)
        assumed = ", ".join(f"{v} == {shown}" for v, _, shown in pre) or "nothing"
        lemmas.append(f"{shown}, from any state where {assumed}: each of {', '.join(t.watched)} grows by at most "
                      f"{own} for p, {other} for another player, at every decision point inside it and at its end "
                      f"({len(sites)} call(s))" + (f"; its questions are those of {same}'s, the cells of "
                                                   f"{_renamed_args(kind, proven, same, enc, params)} exchanged: "
                                                   f"the same answers" if same else "")
                      + "".join(f"; {n}" for n in notes))
    counted = _by_counts(t, [bounds.get(s) for s in t.sites], settings)
    if counted is None:
        outcome = Outcome("proved", 0, reason=f"no path of the first {rounds} round(s) reaches the condition, for "
                                              f"any deal (each call of {summarise} summarised by its lemma, proven)")
        outcome.counted = f"proved over the counts of {', '.join(t.watched)} (each an Int after each summary, " \
                          f"bounded by its lemma)"
        return done(outcome)
    outcome = answer(t, solver, rounds)
    if outcome.status == "proved":
        outcome.reason += f" (each call of {summarise} summarised by its lemma, proven)"
    outcome.counted = f"over the counts of {', '.join(t.watched)}: {counted}; the full question asked" if counted \
        else None
    return done(outcome)


def _by_counts(t, bounds: list, settings) -> str | None:
    """CONDITION asked first over the watched zones' counts (:mod:`checker.solver.unroll_counted`), each summary's
    bounds given (``bounds``, in the order of its sites; None for a call no path was found to make: not bounded):
    None where every question is unsat — no path of the unrolling reaches CONDITION or a place not followed, a
    proof —; else why not (a str; "" where it is not asked:
    no watched zone).  A model is no answer: the caller then asks the full question."""
    from checker.reach.cone import CHUNK
    counted = t.counted
    if counted.refused is not None:
        return "" if not t.watched else f"not asked: {counted.refused}"
    grown = [f for a, b in segments(counted) for f in _growth(t, bounds, a, b, settings)]
    light = make_solver(settings or SolverSettings(incremental=True, minimize_cores=False, rlimit=COUNT_RLIMIT))
    light.add(*counted.constraints(bounds, paths=False), *grown)
    solver = None
    hits = counted.hits
    for i in range(0, len(hits), CHUNK):
        t.questions += 1
        if run(light, z3.Or([alone for _, alone in hits[i:i + CHUNK]])).status == "unsat":
            continue            # the counts alone, the rounds' growth given, rule them out: the paths any
        if solver is None:
            solver = _paths(t, bounds, grown, settings)
        t.questions += 1
        out = run(solver, z3.Or([when for when, _ in hits[i:i + CHUNK]]))
        if out.status != "unsat":
            return "a model (the counts forget which cards: no answer)" if out.status == "sat" else \
                f"Z3 could not decide it ({out.reason})"
    for g, span, what in t.cuts:
        solver = solver or _paths(t, bounds, grown, settings)
        t.questions += 1
        out = run(solver, as_bool(AND(g, True)))
        if out.status != "unsat":
            return f"a place not followed not shown unreachable ({what} at {span})"
    return None


def _paths(t, bounds: list, grown: list, settings):
    """The solver of the question over the counts with the unrolling's constraints (the paths)."""
    solver = make_solver(settings or SolverSettings(incremental=True, minimize_cores=False, rlimit=COUNT_RLIMIT))
    solver.add(*t.counted.constraints(bounds), *grown)
    return solver


def _growth(t, bounds: list, a: int, b: int, settings) -> list:
    """The facts ``X[s] <= X[a] + g`` for each watched zone's cell and each snapshot ``s`` of one round (``a`` to
    ``b``: :func:`~checker.solver.unroll_counted.segments`), ``g`` the least growth proven for all of them: "a cell
    grows by more than g at a snapshot of the round" asked for g = 0, 1, … of a solver of its own that has the
    round's havocs only (the counts at ``a`` any: an unsat answer there holds with every constraint, so each fact is
    implied by them).  Added to the question over the counts, a round's growth is one term: Z3 then need not find
    every round's together.  None proven (a question unknown): no fact."""
    counted = t.counted
    x = counted.snapshots[a].counts
    later = [counted.snapshots[s].counts for s in range(a + 1, b + 1)]
    most = max(len(ms) for ms in counted.snapshots[b].members.values())
    solver = make_solver(settings or SolverSettings(incremental=True, minimize_cores=False, rlimit=GROWTH_RLIMIT))
    solver.add(*counted.constraints(bounds, (a, b)))
    for g in range(most + 1):
        t.questions += 1
        out = run(solver, z3.Or([y[key] - x[key] >= g + 1 for y in later for key in y]))
        if out.status == "unsat":
            return [y[key] <= x[key] + g for y in later for key in y]
        if out.status == "unknown":
            return []
    return []


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


def _start(cls, engine, t, name, kind, pre, prepare=None):
    """(the unrolling, the watched zones' members where the call starts, the call's arguments, the owner's
    position): procedure ``name`` unrolled by ``cls`` (a :class:`LemmaUnrolled`) for one call of ``kind`` from a
    symbolic state meeting ``pre``; or the reason it cannot be (a str)."""
    enc = Encoder(engine, concrete=False)
    lemma = cls(enc, t.kept, t.max_loops, t.watched)
    if prepare is not None:
        prepare(lemma)
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
    return lemma, before, args, owner


def _lemma(engine, t, name, kind, params, pre, settings, proven: list, shown: str, answers=None):
    """(own, other, None, notes): the least bounds proven for one call of ``name`` of ``kind`` from any state meeting
    ``pre`` (``notes``: what a ranking proved for them); (own, other, the lemma shown, notes) where its questions are
    those of a lemma of ``proven`` up to a renaming of the symbolic state's cells (:class:`_Shape`), whose answers they then have; or the reason it is not proven
    (a str).  A lemma whose questions are asked is added to ``proven``.  ``answers``: the steps' questions answered
    so far (:class:`_Answers`), shared with this lemma's step."""
    steps: dict = {"answers": (answers or _Answers()).bound(kind)}     # and the procedure unrolled for one
    #                                                 question from a symbolic state, made once if asked

    def prepare(lemma):
        lemma.most_questions = lambda previous: _most_questions(engine, t, name, kind, pre, steps, previous)
        lemma.known_most = lambda previous: lemma.most_questions(previous) if "questions" in steps else None

    started = _start(ClosedLemma, engine, t, name, kind, pre, prepare)
    if isinstance(started, str):
        return started
    lemma, before, owned = started[0], started[1], _owner_term(started)
    points = _arrivals(lemma, before, owned)
    shape = _Shape(lemma, points, kind, shown)
    for other in proven:
        if shape.renames_to(other):
            return (*other.bounds, other.shown, other.notes)
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
    bounds, notes = [], []
    if lemma.stepped:
        notes.append(f"{'; '.join(lemma.stepped)} ({steps['questions'][1]})")
    for mine in (True, False):
        ranked = None if owned is None else \
            (lambda: _noted(_owned(engine, t, name, kind, pre, lemma, before, owned, points, steps), notes)) if mine \
            else (lambda: _noted(_others(engine, t, name, kind, pre, lemma, steps), notes))
        first = _stepped_first(lemma, steps, notes) if mine and owned is not None else None
        bound = first if first is not None else _bound(lemma, points, mine, ranked=ranked)
        if isinstance(bound, str):
            return bound
        bounds.append(bound)
    shape.bounds, shape.notes = tuple(bounds), notes
    proven.append(shape)
    return (*bounds, None, notes)


def _stepped_first(lemma, steps: dict, notes: list) -> int | None:
    """The owner's bound proven by the step (:func:`~checker.solver.unroll_step.stepped_bound`) where the lemma's
    unrolling built it already (to bound its offer's questions) — asked before the bound questions of
    :func:`_bound`, which on the 4th edition end satisfiable or unknown at their steps, at some 20 to 70 s each, before
    the step is tried: the least bound of the step's permit (its counter's), not always the least bound of the
    arrivals (a zone that never grows is bounded by the counter's growth), never a wrong one.  None where it is not
    built or proves nothing (the bound questions are then asked as before)."""
    started = steps.get("step")
    if not isinstance(started, tuple):
        return None
    proven = _asked_of_step(lemma, started, _bound_of_step)
    if isinstance(proven, str):
        return None
    notes.append(f"own bound by one question, asked first (the step was built while the lemma unrolled): "
                 f"{proven[1]}")
    return proven[0]


def _step(engine, t, name, kind, pre, steps: dict):
    """The procedure unrolled by :class:`~checker.solver.unroll_step.StepUnrolled` from the lemma's start (made once,
    kept in ``steps``), or why not (a str)."""
    if "step" not in steps:
        steps["step"] = _start(StepUnrolled, engine, t, name, kind, pre,
                               lambda step: setattr(step, "answers", steps["answers"]))
    return steps["step"]


def _most_questions(engine, t, name, kind, pre, steps: dict, previous) -> int | None:
    """How many questions the offer of ``previous`` (a question of the lemma's unrolling) asks at most, proven by one
    question from a symbolic state (:func:`~checker.solver.unroll_step.stepped_questions`: a counter that grows at
    each question and stays bounded), asked once for the procedure's first offer; None where not proven (the offer is
    then followed as before)."""
    if "questions" not in steps:
        started = _step(engine, t, name, kind, pre, steps)
        steps["questions"] = started if isinstance(started, str) else \
            stepped_questions(started[0], MAX_BOUND, _owner_term(started))
        if not isinstance(started, str):
            steps["target"] = started[0].target
    proven, target = steps["questions"], steps.get("target")
    if isinstance(proven, str) or target is None or previous.span != target.span:
        return None
    return proven[0]


def _owner_term(started):
    """The procedure's player (a term) of a lemma or a step started by :func:`_start`, or None."""
    _, _, args, owner = started
    return args[owner] if owner is not None else None


def _asked_of_step(lemma, started, ask):
    """``ask(step, start, the owner's term)`` of a step started by :func:`_step`, its questions counted in the
    lemma's."""
    step = started[0]
    asked = step.questions
    out = ask(step, started[1], _owner_term(started))
    lemma.questions += step.questions - asked
    return out


def _bound_of_step(step, start, owner):
    return stepped_bound(step, start, owner, MAX_BOUND)


def _owned(engine, t, name, kind, pre, lemma, before, owned, points, steps: dict):
    """The owner's bound proven by one question of the offer from a symbolic state
    (:func:`~checker.solver.unroll_step.stepped_bound`); where it proves none, by the ranking over the offer
    unrolled (:func:`~checker.solver.unroll_rank.ranked_bound`); or why neither does (a str)."""
    started = _step(engine, t, name, kind, pre, steps)
    if isinstance(started, str):
        stepped = started
    else:
        stepped = _asked_of_step(lemma, started, _bound_of_step)
    if not isinstance(stepped, str):
        return stepped[0], f"own bound by one question: {stepped[1]}"
    ranked = ranked_bound(lemma, before, owned, MAX_BOUND, points)
    if not isinstance(ranked, str):
        return ranked[0], f"own bound by a ranking: {ranked[1]}"
    return f"one question from a symbolic state: {stepped}; {ranked}"


def _others(engine, t, name, kind, pre, lemma, steps: dict):
    """The bound 0 for another player, proven by one question of the offer from a symbolic state
    (:func:`~checker.solver.unroll_step.stepped_others`), or why not (a str)."""
    started = _step(engine, t, name, kind, pre, steps)
    if isinstance(started, str):
        return f"one question from a symbolic state: {started}"
    proven = _asked_of_step(lemma, started, stepped_others)
    if not isinstance(proven, str):
        return proven[0], f"other bound by one question: {proven[1]}"
    return f"one question from a symbolic state: {proven}"


def _noted(proven, notes: list):
    """The step's or the ranking's answer; what it proved, noted (the lemma's line shows it)."""
    if not isinstance(proven, str):
        notes.append(proven[1])
    return proven


class _Shape:
    """What a lemma asks Z3, as one term: its constraints, its escapes' and cuts' guards, and at each point its
    guard and the cards that may have arrived; with what names it (the cells of its symbolic state, by key).  Two
    lemmas whose kinds differ by card arguments (on the 4th edition, the character of a turn) ask the same
    questions when one's term, its cells renamed — each cell of one argument's card exchanged with the same cell
    of the other's (a var indexed by cards: its cell of one card for its cell of the other) — is the other's,
    term for term, and the layout (escapes, cuts, points, zones and how many cards each) is the same: the
    renaming is a one-to-one map of the free constants, so a model of one question is one of the other's, and
    an unsat answer holds for both.  Anything else (a constant of one card in a term, a cell of one without its
    counterpart) is no match: the questions are then asked."""

    def __init__(self, lemma, points, kind, shown):
        self.kind, self.shown, self.bounds, self.notes = kind, shown, None, []
        self.enc = lemma.enc
        self.made = dict(lemma.store.made)
        escapes, cuts = lemma.escaping(), lemma.cuts
        parts = [as_bool(c) for c in lemma.constraints] + [as_bool(g) for _, g in escapes]
        parts += [as_bool(g) for g, _, _ in cuts]
        self.layout = [len(lemma.constraints), tuple(w for w, _ in escapes), tuple((str(s), w) for _, s, w in cuts)]
        for g, v, added in points:
            parts.append(as_bool(g))
            for key, new in added.items():
                parts += new
                self.layout.append((v, key, len(new)))
        self.term = z3.And(*parts)

    def renames_to(self, other: "_Shape") -> bool:
        """Is this lemma's term ``other``'s with the cells of the cards its kind differs by exchanged?"""
        if self.layout != other.layout or tuple(self.kind) == tuple(other.kind):
            return False
        pairs = _renaming(self.enc, self.kind, self.made, other.kind, other.made)
        if pairs is None:
            return False
        return (z3.substitute(self.term, *pairs) if pairs else self.term).eq(other.term)


def _renaming(enc, kind, made: dict, other_kind, other_made: dict) -> list | None:
    """The pairs (cell, its counterpart) that exchange the cells of the cards ``kind`` differs from ``other_kind`` by
    (each cell of one argument's card for the same cell of the other's; a cell's constant is named by its key, so the
    pairs permute the free constants: a term renamed by them is satisfiable exactly when it was); [] where the kinds
    are the same; None where they differ otherwise (not cards, a card twice) or a cell has no counterpart."""
    if len(kind) != len(other_kind):
        return None
    swap: dict = {}
    for a, b in zip(kind, other_kind):
        if a == b:
            continue
        if not (isinstance(a, int) and isinstance(b, int) and a >= 0 and b >= 0) or a in swap or b in swap:
            return None
        swap[a], swap[b] = b, a
    pairs = []
    for key, cell in (made.items() if swap else ()):
        renamed = _renamed(enc, key, swap)
        if renamed == key:
            continue
        if renamed not in other_made:
            return None
        pairs.append((cell, other_made[renamed]))
    return pairs


def _renamed(enc, key: tuple, swap: dict) -> tuple:
    """``key`` with each card of ``swap`` where a card stands (a var's or a zone's index of a kind, a card in a zone,
    a power's card) replaced by its counterpart."""
    if key[0] == "var":
        kind = isinstance(enc.index_types.get(key[1]), KindT)
        return key if not kind else (key[0], key[1], swap.get(key[2], key[2]), *key[3:])
    if key[0] == "in":
        index = swap.get(key[2], key[2]) if isinstance(enc.zone_index_types.get(key[1]), KindT) else key[2]
        return (key[0], key[1], index, swap.get(key[3], key[3]), *key[4:])
    if key[0] == "used":
        return (key[0], key[1], swap.get(key[2], key[2]), *key[3:])
    return key


class _Answers:
    """The answers of the steps' questions (:mod:`checker.solver.unroll_step`: each one whole term, the step's
    constraints and the fact asked), kept across the lemmas of one command: a step whose question is another
    step's, its cells renamed (:func:`_renaming`: the cards its lemma's kind differs by exchanged), has that
    answer — the renaming permutes the free constants, so one is satisfiable exactly when the other is.  On the
    4th edition the lemmas of five characters (those without a power followed) ask the same step questions up
    to the character's cells; their lemmas' own questions were shared so (:class:`_Shape`), but the step was
    built and asked while each lemma unrolled, before."""

    def __init__(self):
        self.known: list[tuple] = []        # (kind, the step's cells, its encoder, the question, the answer)

    def bound(self, kind):
        """What a step of a lemma of ``kind`` is given (its :attr:`~checker.solver.unroll_step.StepUnrolled.answers`)."""
        return _Recall(self, kind)


class _Recall:
    def __init__(self, answers: _Answers, kind):
        self.answers, self.kind = answers, kind

    def recall(self, step, term):
        """The answer of a step question that renames to ``term``, or None (not asked before)."""
        for kind, made, enc, other, answer in self.answers.known:
            if other.num_args() != term.num_args():
                continue
            pairs = _renaming(enc, self.kind, step.store.made, kind, made)
            if pairs is None:
                continue
            if (z3.substitute(term, *pairs) if pairs else term).eq(other):
                return answer
        return None

    def remember(self, step, term, answer: bool) -> None:
        self.answers.known.append((self.kind, dict(step.store.made), step.enc, term, answer))


def _renamed_args(kind, proven, same, enc, params) -> str:
    """The arguments the kind of a lemma differs by from the lemma ``same`` of ``proven``, shown."""
    other = next(s for s in proven if s.shown == same)
    return " and ".join(f"{enc.show(a, ty)} and {enc.show(b, ty)}" for a, b, ty in zip(kind, other.kind, params)
                        if a != b)


def _arrivals(lemma, before, owner) -> list:
    """[(guard, seat, {(zone, q): the Bools of the cards arrived})]: at each point of the lemma, where the owner is
    each seat (its guard then says so: the owner's equation with the seat), the cards that may have arrived in each
    watched zone (:meth:`~checker.solver.unroll_summary.LemmaUnrolled.added`): with the owner a seat, a card that
    only a move to the owner's zone brings in is seen not to arrive in another seat's, without a question.  Without
    an owner, one entry a point, its seat None."""
    seats = [None] if owner is None else list(lemma.enc.seats)
    seen: dict = {v: {} for v in seats}
    out = []
    for g, now in lemma.points:
        for v in seats:
            here = g if v is None else AND(EQ(owner, v), g)
            if is_const(here) and not here:
                continue
            out.append((here, v, lemma.added(before, now, owner, v, seen[v])))
    return out


def _bound(lemma, points, mine: bool, *, ranked=None):
    """The least ``b`` (0, 1, … :data:`MAX_BOUND`) proven: no path of the lemma has, at a point, more than ``b``
    cards added to a watched zone of the owner (``mine``) or of another player — an unsatisfiable question on a
    solver of its own with :data:`BOUND_RLIMIT` steps.  A question that ends unknown is no proof, and the next
    ``b`` is asked (the bound proven is then larger than the least, never wrong); or the reason none is proven.
    No question is asked where no zone has more than ``b`` cards that may have arrived (``points``: see
    :func:`_arrivals`; without an owner every zone is the owner's).  ``ranked``: where a question ends unknown, an
    induction is tried once — for the owner, one question of the offer from a symbolic state
    (:func:`~checker.solver.unroll_step.stepped_bound`), then the ranking over the offer unrolled
    (:func:`~checker.solver.unroll_rank.ranked_bound`); for another player, the step's bound 0
    (:func:`~checker.solver.unroll_step.stepped_others`); the bound it proves is the lemma's (the least it proves,
    not always the least: the smaller bounds, whose questions ended unknown, are not asked again); where it proves
    none, the next ``b`` is asked as before."""
    unknown = None
    for b in range(MAX_BOUND + 1):
        grows = []
        for g, v, added in points:
            for (z, q), new in added.items():
                if len(new) <= b or (v is not None and (q == v) != mine) or (v is None and not mine):
                    continue
                grows.append(as_bool(AND(g, z3.AtLeast(*new, b + 1))))
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
            if ranked is not None:
                proven, ranked = ranked(), None
                if not isinstance(proven, str):
                    return proven[0]
                unknown += f"; by induction: {proven}"
    if unknown is not None:
        return f"Z3 could not decide a bound up to {MAX_BOUND} (the last unknown: {unknown})"
    return f"a watched zone may grow by more than {MAX_BOUND}"
