"""conflicts, *invariant broken*, continued: the transition a question of :mod:`checker.conflicts.inductive` is
asked over — the effect of a move or a procedure (:class:`~checker.solver.transition.Transition`) with the watched
invariants read at every decision the interpreter checks them at (:class:`Watched`), where a path stops being
followed once nothing after it writes what they read (:class:`Idle`), and where a call of a procedure proven
before is summarised (:func:`summary`)."""

from __future__ import annotations

import contextlib

from checker.front import ast
from checker.conflicts.loops import Loops, all_hold, havoc, holds
from checker.solver.counters import enter_scope, scope_entered
from checker.solver.encode import AND, NOT, OR, is_const
from checker.solver.terms import term_id
from checker.solver.transition import Transition

__all__ = ["Watched", "Idle", "Decisions", "summary", "holds", "where", "invariants_first", "per_player_count"]


class Decisions(list):
    """The choices a transition makes, seen as they are made: one asked of a player (not at random, not a draw)
    is a decision, before which the interpreter checks the invariants."""

    def __init__(self, transition: "Watched"):
        super().__init__()
        self.transition = transition

    def append(self, choice) -> None:
        if choice.kind in ("one", "subset") and not choice.random:
            self.transition.check(choice.reached, choice.span)
        super().append(choice)


class Watched(Transition):
    """A transition that reads the watched invariants at every decision inside the effect: ``checks`` are
    (when it is reached, span — None for the state right after the effect —, {invariant: holds there}).

    With ``idle`` (a :class:`Idle`: what the watched invariants read), a path stops being followed where
    nothing that can still run on it — the rest of the body being encoded and of every body around it, with
    what they call, do and signal, to any depth — writes what they read or calls a procedure with a
    precondition: every check after it (a decision, an `offer`, the state after the effect) reads the cells
    they read as they are there, which is what the check after the effect reads on that path (:func:`_idle`).
    What is not followed there is not encoded: its failures (the game stopping with an error) are not
    searched, nor do the turn and round procedures it may call need their counters.  Entering the turn's or
    the round's procedure on a path that is followed resets the uses it limits
    (:func:`~checker.solver.counters.enter_scope`)."""

    distinct_loops = True       # a pass over the seats gives each seat's cell one card: what a count needs

    def __init__(self, enc, watched: list, offers: set, idle: "Idle | None" = None, summaries: dict | None = None,
                 loops: "Loops | None" = None, **kw):
        super().__init__(enc, **kw)
        self.summaries = summaries or {}    # procedure -> the cells it may write (Writes), for a call summarised
        self.summarised: list = []          # the procedures whose calls were summarised
        self.loops = loops                  # a `repeat`, by induction (checker/conflicts/loops.py); None: not encoded
        self.havocked: list = []            # the loops whose later pass was asked from any state meeting the invariants
        self.offered: list = []             # the `offer`s after which the path goes on from what the moves may leave
        self.before_offers: int | None = None   # the checks made before the first of them (on no move's unknowns)
        self.later: list = []               # … and when that pass is reached
        self.havoc_at: int | None = None    # the number of failures before the first summary's unknowns
        self.kept_after: dict = {}          # term id of "every invariant holds" after a summary -> where it holds
        # a path cut where an invariant may not hold (at a summarised call, before a loop's next pass): only the
        # invariants of the state before refute it, so whether it is reached is asked with them asserted
        self.on_invariants = False
        self.watched = watched          # the invariants (declarations) to read
        self.offers = offers            # the locations of the spec's `offer`s (a cut there is a decision)
        self.checks: list[tuple] = []
        self.bounds: list = []          # when the path stops where the encoding stops following it (not an offer)
        self.choices = Decisions(self)
        self.idle = idle
        self.frames: list[list] = []    # [statements, the one being encoded] of each body being encoded
        self.idled: list = []           # (when, span) of each place a path stopped being followed (idle)

    def run(self, stmts, env: dict, guard=True) -> dict:
        self.frames.append([stmts, None])
        try:
            return super().run(stmts, env, guard)
        finally:
            self.frames.pop()

    def encoder_of(self, s):
        fn = super().encoder_of(s)
        if fn is None and isinstance(s, ast.Repeat) and self.loops is not None:
            fn = _repeat
        elif isinstance(s, ast.Offer) and self.cut_at_offers and self.loops is not None \
                and where(s.span) in self.offers:
            fn = _decision
        if self.idle is None or not self.frames or fn is None:
            return fn
        self.frames[-1][1] = s
        return _stop_idle if self.idle.after(self.frames) else fn

    def procedure(self, name: str, args: tuple, guard=True, span=None) -> None:
        if name in self.summaries:
            return summary(self, name, args, guard, span, self.summaries[name])
        if self.loops is not None and self.loops.depth and name in self.loops.summaries:
            return summary(self, name, args, guard, span, self.loops.summaries[name])
        scope = scope_entered(self.E, name)
        if scope is None or self.idle is None:
            return super().procedure(name, args, guard, span)
        enter_scope(self, scope, AND(guard, self.running))
        decl = self.p.procedures[name]
        env = {prm.name: a for prm, a in zip(decl.params, args)}
        self.precondition(name, env, guard, span)
        self.body(decl.body, env, guard)

    def check(self, guard, span) -> None:
        if is_const(guard) and not guard:
            return
        self.checks.append((guard, span, holds(self.enc, self.watched)))

    def cut(self, guard, span, what: str) -> None:
        if span is not None and where(span) in self.offers:
            self.check(AND(guard, self.running), span)
        elif not (is_const(guard) and not guard):
            self.bounds.append(AND(guard, self.running))
        super().cut(guard, span, what)


def summary(t: Watched, name: str, args: tuple, guard, span, writes) -> None:
    """A call of ``name``, a procedure this search has proven (from every state that meets every invariant and
    its precondition, every invariant holds at each decision it reaches and after it, and it stops with no
    error) that may write the cells ``writes`` (a :class:`~checker.conflicts.loops.Writes`) and ends no turn and
    cancels nothing: instead of its statements, its precondition (a call where it does not hold is the caller's
    error), a check where it is called (its decisions see what the invariants read as it is there, or as it makes
    it: proven to hold when they hold there), then every cell it may write any value of its type in its declared
    range (:func:`~checker.conflicts.loops.havoc`: a var, a power's use, a card in one of its zones moved to any
    of them), after which every invariant holds.  On a path where an invariant may not hold at the call, its
    proof says nothing: the path is not followed (a bound of the encoding: undecided when it is reached).  An
    over-approximation: a break found through it is replayed by the interpreter, and is only a finding when the
    interpreter confirms it."""
    enc, decl = t.enc, t.p.procedures[name]
    env = {prm.name: a for prm, a in zip(decl.params, args)}
    t.precondition(name, env, guard, span)
    here = AND(guard, t.running)
    if is_const(here) and not here:
        return
    every = [inv for inv, _, _ in t.E.invariants]
    before = all_hold(enc, every)
    t.check(here, span)
    t.on_invariants = True
    t.cut(AND(here, NOT(before)), span, f"the call of {name} where an invariant may not hold (what is proven of "
                                        f"{name} assumes them all)")
    here = AND(here, before)
    if t.havoc_at is None:
        t.havoc_at = len(t.failures)
    domain = t.loops.domain if t.loops is not None else None
    havoc(t, writes, here, name, span, lambda v, ty: domain(enc, v, ty) if domain is not None else _no_var(name))
    after = all_hold(enc, every)
    t.constraints.append(OR(NOT(here), after))
    if not is_const(after):
        t.kept_after[term_id(after)] = OR(t.kept_after.get(term_id(after), False), here)
    t.summarised.append(name)


def _no_var(name: str):
    raise AssertionError(f"{name} is summarised with the vars it writes, but no range is known for them")


def _repeat(t: Watched, s, env, guard):
    return t.loops.repeat(t, s, env, guard)


def _decision(t: Watched, s: ast.Offer, env, guard):
    """An `offer` (a decision point): the invariants are checked there; then the player makes any number of the
    moves it may propose, each a question of its own from a state that meets every invariant, and the statements
    after the offer run (the interpreter's offer returns, whatever the move did: an end of turn or an abort is
    caught there) — from the state the last move left, or this one.  So the path goes on after the offer, from a
    state where every cell a move of the spec may write (:meth:`~checker.conflicts.loops.Loops.offered`) holds any
    value in its range and every invariant holds (what the moves' questions prove; a move that breaks one is their
    finding): the step from this decision to the next.  An over-approximation, like a summary: a break found
    through it counts only when the interpreter confirms it."""
    here = AND(guard, t.running)
    if is_const(here) and not here:
        return
    t.check(here, s.span)
    if t.before_offers is None:
        t.before_offers = len(t.checks)
    enc, loops = t.enc, t.loops
    havoc(t, loops.offered(s), here, "the moves offered", s.span, lambda v, ty: loops.domain(enc, v, ty))
    after = all_hold(enc, [inv for inv, _, _ in t.E.invariants])
    t.constraints.append(OR(NOT(here), after))
    if not is_const(after):
        t.kept_after[term_id(after)] = OR(t.kept_after.get(term_id(after), False), here)
    t.offered.append(s.span)


def _stop_idle(t: Watched, s, env, guard):
    """Nothing that can run from ``s`` on writes what the watched invariants read: the path is not followed
    further (an uncaught stop of its own kind: the state after the effect is the state here, for what they
    read)."""
    t.idled.append((guard, s.span))
    t.raise_("idle", guard)


class Idle:
    """What the watched invariants read, and, per statement list and place in it, whether what runs from there
    on may write it (or call a procedure with a precondition, whose obligation the procedure asked must meet).

    A frame whose statement being encoded is a call, or a `repeat` (by induction, :class:`~checker.conflicts.
    loops.Loops`), with frames inside it, is read from the statement after it: what is left of the call is the
    callee's frames; what is left of the pass is the frames inside it, and a later pass is encoded apart, from any
    state that meets the invariants (:meth:`~checker.conflicts.loops.Loops.repeat` takes a path not followed to the
    pass's end as going on, and asks the invariants there).  Inside a pass, what may run must also not write what
    any invariant reads (``loop_reads``; None: not known, and no path stops being followed inside a pass)."""

    def __init__(self, search, reads, writes, loop_reads=None):
        self.search = search
        self.reads = reads              # (vars, zones) the watched invariants read
        self.writes = writes            # (search, statements, called=set) -> (vars, zones, used) they may write
        self.loop_reads = loop_reads    # (vars, zones) every invariant reads
        self.required = {n for n, d in search.p.procedures.items() if d.requires is not None}
        self._memo: dict = {}           # (id(statements), index, in a pass) -> (statements, idle from there on)

    def after(self, frames: list) -> bool:
        """Does nothing that may run after the statements being encoded (each frame's from the one being
        encoded on) write what the invariants read?"""
        inside, last = False, len(frames) - 1
        for j, (stmts, current) in enumerate(frames):
            if current is None or inside and self.loop_reads is None:
                return False
            i = next((k for k, x in enumerate(stmts) if x is current), None)
            if i is None:
                return False
            resumed = j < last and isinstance(current, (ast.CallProc, ast.Repeat))
            if not self._idle(stmts, i + 1 if resumed else i, inside):
                return False
            inside = inside or resumed and isinstance(current, ast.Repeat)
        return True

    def _idle(self, stmts, i: int, inside: bool = False) -> bool:
        key = (id(stmts), i, inside)
        hit = self._memo.get(key)
        if hit is not None and hit[0] is stmts:
            return hit[1]
        called: set = set()
        vars_, zones, _ = self.writes(self.search, stmts[i:], called=called)
        reads = self.reads if not inside else (self.reads[0] | self.loop_reads[0], self.reads[1] | self.loop_reads[1])
        idle = not (reads[0] & vars_ or reads[1] & zones or called & self.required)
        self._memo[key] = (stmts, idle)
        return idle


def where(span) -> tuple:
    return (str(span.file), span.line, span.column)


@contextlib.contextmanager
def invariants_first(search, yes: bool):
    """Within it (when ``yes``), ``search`` asserts the invariants in a question's first check rather than once a
    model breaks one (:attr:`~checker.solver.search.SymbolicSearch.lazy`): the same answer, the question being
    about states that meet them either way.  For a question only they refute — is a path reached where one may
    not hold? — the check without them must first build a model of the whole effect where one is broken (the
    flow's set-up, a loop's later pass, a summary's unknowns), where Z3 may run out of steps (docs/conflicts.md:
    a house rule's flow did, and is decided with them)."""
    if not yes:
        yield
        return
    had, lazy = "lazy" in vars(search), search.lazy
    search.lazy = False
    try:
        yield
    finally:
        if had:
            search.lazy = lazy
        else:
            del search.lazy


def per_player_count(search, enc, *formulas, at_once: bool = True, **kw) -> tuple:
    """(status, model, reason, asked per count) of ``search.solve(enc, *formulas, **kw)``; when Z3 cannot decide it
    over every player count at once (``enc.n`` a term), or without ``at_once``, asked once per count: sat at the
    first count where it is (the model asked again as ``kw`` asks it), unsat when it is at every count, else
    undecided with the counts Z3 could not decide.  Over every count at once, a loop over the seats in an order
    that starts at a seat that is a term is a remainder by each count at each position, which Z3 splits on
    together with the rest (docs/conflicts.md: the fan expansion's draft)."""
    reason = ""
    if at_once or is_const(enc.n):
        status, model, reason = search.solve(enc, *formulas, **kw)
        if status != "unknown" or is_const(enc.n):
            return status, model, reason, False
    undecided = []
    for n in range(search.low, search.high + 1):
        # one check for the answer (a minimal model's checks only where there is one: asked again for it)
        status, model, why = search.solve(enc, *formulas, enc.n == n, **{**kw, "minimal": False, "legal": False})
        if status == "sat":
            return (*(search.solve(enc, *formulas, enc.n == n, **kw) if kw.get("minimal") else (status, model, why)),
                    True)
        if status == "unknown":
            undecided.append(f"{n} players: {why}")
    if undecided:
        why = f"{reason}; asked " if reason else "asked "
        return "unknown", None, f"{why}per player count, undecided at {'; '.join(undecided)}", True
    return "unsat", None, "", True
