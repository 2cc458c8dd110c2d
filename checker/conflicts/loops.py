"""conflicts, *invariant broken*, continued: a `repeat … until` in the transition a question of
:mod:`checker.conflicts.inductive` is asked over, by induction (:class:`Loops`), and what a pass or a summarised
call may leave behind: every cell it may write made a fresh unknown within its declared range (:func:`havoc`).

A loop keeps the invariants when its first pass, run from the state it is entered in (encoded as it is), keeps
them, and one pass from *any* state that meets every invariant keeps them too: a later pass starts from a state
of which only the loop's own facts are known — every `invariant` (held at the end of the pass before: checked
there), the loop's condition false (the pass before did not end it), the cells the body cannot write as they
were, and a var no statement of the spec sets back to `none` not `none` if it was not (:func:`never_none`).
That pass is encoded once, from such a state; its end and the first pass's end go on to the statements after
the loop where the condition holds, and where it does not, the invariants must hold (the next pass's
assumption): a path where they may not is not followed (a bound of the encoding: undecided when reached).  A
break found in the later pass (a state the interpreter, running the loop from the state it was entered in, may
never reach) counts only when the interpreter confirms it.
"""

from __future__ import annotations

import typing

import z3

from checker.front import ast
from checker.front.types import PLAYER, Opt, GridT, RecordT
from checker.solver.encode import AND, EQ, ITE, NONE, NOT, OR, Unsupported, is_const
from checker.runtime.invariants import state_reads
from checker.solver.terms import conjuncts, term_id
from checker.solver.transition_counts import counted

__all__ = ["Writes", "Loops", "havoc", "never_none", "holds"]


class Writes(typing.NamedTuple):
    """The cells a body may write: vars by name, zones by name, and whether a power's use is recorded; ``emptied``:
    the zones of ``zones`` it leaves with every cell empty (:func:`~checker.conflicts.emptied.emptied`)."""
    vars: frozenset
    zones: frozenset
    used: bool
    emptied: frozenset = frozenset()


def never_none(program, types: dict) -> frozenset:
    """The optional vars no statement of the spec sets to `none`: every `set` of one gives a value of a
    non-optional type (``types``: the typed program's, by node id), and none is `reset`, chosen per element or
    given a lifetime (`until`, which resets it).  Once such a var holds a value, it holds one for the rest of the
    game."""
    bad: set = set()
    bodies = [d.body or () for d in program.actions.values()] + [d.body for d in program.procedures.values()]
    bodies += [pw.body for c in program.cards.values() for pw in c.powers]
    for body in bodies:
        for n in ast.walk(tuple(body)):
            if isinstance(n, ast.SetVar):
                ty = types.get(id(n.value))
                if ty is None or isinstance(ty, Opt):
                    bad.add(n.target.name)
            elif isinstance(n, ast.Reset):
                bad.add(n.name)
            elif isinstance(n, ast.ChooseEach):
                bad.add(n.target.name)
    return frozenset(name for name, decl in program.vars.items() if decl.until is None and name not in bad)


def havoc(t, writes: Writes, guard, label: str, span, domain) -> None:
    """On the paths where ``guard`` holds, every cell ``writes`` names holds any value of its type in its declared
    range (``domain(v, ty)``: the formula that ``v`` is one), each a fresh unknown of transition ``t``: a var
    (each of its cells, for every index), a power's use (in the game, the round, the turn), and a card in one of
    the zones moved to any of them (one unknown per card and place: a card stays in one zone) but those
    ``writes.emptied`` names, every card of which moves to another (each seat's cell in the game).  A var no statement
    sets back to `none` (:func:`never_none`, ``t.loops.present``) is not `none` after if it was not before."""
    if is_const(guard) and not guard:
        return
    enc = t.enc
    present = t.loops.present if t.loops is not None else frozenset()
    for name in sorted(writes.vars):
        ty = enc.var_types[name]
        if isinstance(ty, (RecordT, GridT)) or isinstance(ty, Opt) and isinstance(ty.inner, (RecordT, GridT)):
            raise Unsupported(f"what {label} leaves in {name} (a record or a grid) is not encoded", span)
        keys = [None] if t.p.vars[name].index is None else t.all_keys(enc.index_types[name], span)
        for k in keys:
            old = t.store.var(name, k)
            shown = name if k is None else f"{name}[{enc.show(k, enc.index_types[name])}]"
            v = z3.Bool(t.fresh_name(f"{label}: {shown}")) if z3.is_bool(old) or isinstance(old, bool) else \
                z3.Int(t.fresh_name(f"{label}: {shown}"))
            inside = domain(v, ty)
            if not (is_const(inside) and inside):
                t.constraints.append(inside)
            if name in present and isinstance(ty, Opt):
                t.constraints.append(OR(NOT(guard), old == NONE, v != NONE))
            t.store.write(("var", name, k), v, guard)
    if writes.used:
        for inst, d in enumerate(t.E.defs):
            for power in t.E.powers_of.get(d, ()):
                for k in enc.seats:
                    for scope in ("game", "round", "turn"):
                        fresh = z3.Bool(t.fresh_name(f"{label}: {power.name}, {k}, {scope}"))
                        t.store.write(("used", k, inst, power.name, scope), fresh, guard)
    zones = writes.zones
    kinds = {enc.zone_kind[z] for z in zones}
    places = [(z, k) for z in sorted(zones) for k in t.zone_keys(z, span)]
    store, then = t.store, len(t.store.moves)
    eager = any(key[0] == "in" for key in store.writes)     # cards written cell by cell: read them now
    for kind in sorted(kinds):
        all_zones = frozenset(z for z, kd in enc.zone_kind.items() if kd == kind)
        mine = [(z, k) for z, k in places if enc.zone_kind[z] == kind]
        placed = _Placed(lambda inst, mine=mine: OR(*(store.member(z, k, inst) if eager else
                                                      _member_then(store, z, k, inst, then) for z, k in mine)))
        for z, k in mine:
            if z in writes.emptied:
                continue        # no card comes in (every card leaves it: below)
            seated = True if k is None or isinstance(enc.n, int) or enc.zone_index_types[z] != PLAYER else enc.n > k
            tests = _Tests(enc.kind_instances[kind], lambda inst, z=z, k=k, seated=seated: AND(
                placed[inst], seated, z3.Bool(t.fresh_name(f"{label}: {inst} → {z}[{k}]"))))
            if eager:
                tests = {inst: test for inst in tests if not (is_const(test := tests[inst]) and not test)}
            if tests:
                store.move(tests, all_zones, z, k, guard)
    for z in sorted(writes.emptied & zones):
        for k in t.zone_keys(z, span):
            seated = True if k is None or isinstance(enc.n, int) or enc.zone_index_types[z] != PLAYER else enc.n > k
            left = AND(*(NOT(store.member(z, k, inst)) for inst in enc.kind_instances[enc.zone_kind[z]]))
            t.constraints.append(OR(NOT(guard), NOT(seated), left))
    t.forget()


class _Placed(dict):
    """inst -> whether the card is in one of the zones a havoc writes, made where it is first read."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, inst):
        value = self[inst] = self.make(inst)
        return value


class _Tests(dict):
    """The {inst: test} of a lazy move (:meth:`~checker.solver.transition_store.Store.move`) whose tests are made
    where a card's place is first read: a havoc of a kind's zones asks nothing of the cards no question reads."""

    def __init__(self, insts, make):
        super().__init__(dict.fromkeys(insts))
        self.make = make

    def __getitem__(self, inst):
        value = dict.__getitem__(self, inst)
        if value is None:
            value = self.make(inst)
            dict.__setitem__(self, inst, value)
        return value

    def values(self):
        return [self[inst] for inst in self]

    def items(self):
        return [(inst, self[inst]) for inst in self]


def _member_then(store, zone: str, index, inst: int, count: int):
    """Is card ``inst`` in ``zone`` at ``index`` after the first ``count`` lazy moves of ``store`` (what
    :meth:`~checker.solver.transition_store.Store.member` reads at the time it held that many)?"""
    value = store.base.member(zone, index, inst)
    for tests, zones, dest, where, guard in store.moves[:count]:
        if inst not in tests or zone not in zones:
            continue
        now = zone == dest and (index is None or EQ(where, index))
        value = ITE(AND(guard, tests[inst]), now, value)
    return value


class Loops:
    """A `repeat` in a :class:`~checker.conflicts.watched.Watched` transition, by induction (the module's
    docstring).  ``writes(stmts)``: the :class:`Writes` of statements, with what they call, do and signal, and
    what the moves an `offer` among them proposes may write; ``domain(enc, v, ty)``: a var's declared range;
    ``summaries()``: procedure -> :class:`Writes`, the proven procedures a call of which inside a loop's pass is
    summarised (:func:`~checker.conflicts.watched.summary`), asked when a loop is met."""

    def __init__(self, writes, domain, present: frozenset, summaries=dict):
        self.writes = writes
        self.domain = domain
        self.present = present
        self._summaries = summaries
        self.summaries: dict = {}
        self.depth = 0                  # the loops being encoded around the statement being encoded
        self._offered: Writes | None = None

    def offered(self, s: ast.Offer) -> Writes:
        """What the moves an `offer` may propose may write: ``writes`` of the offer (its items write nothing; the
        moves are every move of the spec, so the answer is the same for every offer, made once)."""
        if self._offered is None:
            self._offered = self.writes((s,))
        return self._offered

    def repeat(self, t, s: ast.Repeat, env, guard):
        enc = t.enc
        every = [inv for inv, _, _ in t.E.invariants]
        if self._summaries is not None:
            self.summaries, self._summaries = self._summaries(), None
        self.depth += 1
        try:
            # the first pass, from the state the loop is entered in
            idled = len(t.idled)
            t.run(s.body, env, guard)
            idled = _not_followed(t, idled)
            going = self._next(t, s, env, AND(guard, t.running), every, "its first pass", idled)
            if is_const(going) and not going:
                return None
            if not (is_const(idled) and not idled):     # not followed to its end: it goes on to the later pass
                t.running = OR(t.running, AND(idled, going))
                t.raised["idle"] = AND(t.raised.get("idle", False), NOT(AND(idled, going)))
            # a later pass, from any state that meets the invariants (the pass before kept them), the condition false
            havoc(t, self.writes(s.body), going, "a later pass of the loop", s.span,
                  lambda v, ty: self.domain(enc, v, ty))
            t.constraints.append(OR(NOT(going), AND(all_hold(enc, every), _goes_on(t, s, env))))
            t.havocked.append(s.span)
            t.later.append(going)
            idled = len(t.idled)
            t.run(s.body, env, going)
            going = self._next(t, s, env, AND(going, t.running), every, "a later pass", _not_followed(t, idled))
            t.raise_("loop", going)     # the loop goes on: the later pass stands for what follows
        finally:
            self.depth -= 1
        return None

    def _next(self, t, s, env, here, every: list, which: str, idled=False):
        """The paths where the loop goes on after a pass (``here``: the pass ended there; ``idled``: a path stopped
        being followed in it, where nothing after writes what an invariant reads — the condition is not known
        there, so it goes on): where an invariant may not hold there, not followed (the next pass assumes them).
        The condition that the loop goes on with the invariants holding."""
        if is_const(here) and not here and is_const(idled) and not idled:
            return False
        done = t.expr(s.until, env)
        t.checked_partial(here)
        going = OR(AND(here, t.running, NOT(done)), idled)
        if is_const(going) and not going:
            return False
        kept = all_hold(t.enc, every)
        # where a summary asserted these very terms (nothing written since), they hold: said to Z3 in the question
        # itself (the same under the constraints, which it could not always see within its steps)
        held = t.kept_after.get(term_id(kept), False) if not is_const(kept) else False
        t.on_invariants = True
        t.cut(AND(going, NOT(held), NOT(kept)), s.span, f"the next pass of the loop after {which}, where an invariant may not "
                                             f"hold (a later pass is asked from the states that meet them)")
        return AND(going, kept)


def _not_followed(t, since: int):
    """The paths of transition ``t`` that stopped being followed since its ``since``-th such place (idle)."""
    return OR(*(g for g, _ in t.idled[since:]))


def _goes_on(t, s, env):
    """The loop's condition is false on the state now (its partial operations, an `only`, a lookup, succeeding:
    the pass before evaluated it)."""
    enc = t.enc
    partial = len(enc.partial)
    done = t.expr(s.until, env)
    oks = [ok for _, ok, _ in enc.partial[partial:]]
    del enc.partial[partial:]
    return AND(NOT(done), *oks)


def all_hold(enc, every: list):
    """Every invariant of ``every`` holds on the encoder's cells now (each conjunct of :func:`holds`)."""
    return AND(*(part for parts in holds(enc, every).values() for part in parts))


def _zones_read(enc, inv) -> frozenset:
    """The zones invariant ``inv`` reads (through the quantities it calls; none when that cannot be known)."""
    memo = enc.__dict__.setdefault("_zones_read", {})
    if id(inv) not in memo:
        reads = state_reads(enc.E, [e for e in (inv.require, inv.when) if e is not None])
        memo[id(inv)] = (inv, frozenset() if reads is None else reads[1])
    return memo[id(inv)][1]


def holds(enc, watched: list) -> dict:
    """Invariant name -> the conditions that it holds (and can be evaluated) on the encoder's cells now: one
    per conjunct of its `require` (an `all(…)` over players is one per player), each asked on its own.  An
    `only(…)` it reads that finds no single element is its not holding (the interpreter stops on it)."""
    out = {}
    for inv in watched:
        partial, defined = len(enc.partial), list(enc.defined)
        value = enc.expr(inv.require, {})
        when = enc.expr(inv.when, {}) if inv.when is not None else True
        oks = [ok for _, ok, _ in enc.partial[partial:]]
        del enc.partial[partial:]
        enc.defined = defined
        parts = conjuncts(counted(enc, value, _zones_read(enc, inv)))
        out[inv.name] = tuple(OR(NOT(when), AND(part, *oks)) for part in parts)
    return out
