"""transition: what the statements of an action, a procedure or a power *do*, as Z3 constraints.

The state before is read through the encoder's :class:`~checker.solver.encode.Cells` (a concrete engine
state, or one Z3 constant per cell); the statements write into a :class:`Store` over it, one guarded
term per cell written (``new if the statement ran else old``), so the state after is the same cells
read through the store.  Dispatch is by statement type through a registry; a statement with no encoder
is a located :class:`~checker.solver.encode.Unsupported`, which the callers report as *undecided*.

What the interpreter does is followed in its order (:mod:`checker.runtime.compile`):

- ``choose`` makes an unknown ranging over exactly the options the interpreter offers (``where``
  filtered); no option stops the body (the interpreter's ``Abort``), an optional choice may choose
  nothing, which skips the rest of its block;
- ``transfer`` fails (the interpreter stops the game) on a negative amount, on taking more than a
  counter holds (``up to`` takes what there is), and past ±MAX_INT; ``only(…)``/``the(…)`` fail when
  they do not find one element; those failures are :attr:`Transition.failures`, each with the
  condition under which it happens, its location and reason — the *effect failure* conflict kind;
- ``stop``, ``end turn``, ``cancel`` and an empty ``choose`` stop the statements after them, caught
  where the interpreter catches them (a procedure catches ``stop`` and the abort, a power both too);
- ``for`` over a collection is unrolled over the collection's possible elements (its encoding is a
  bounded list of guarded elements);
- ``do act(…)`` tests the action's legality (an illegal one aborts), opens its ``before`` windows and
  runs its (or its nearest ancestor's) body; ``signal`` runs every reaction in the interpreter's order,
  each optional one asked (an unknown yes/no); a reaction's power is then used up.

The state the encoding follows is the vars and the cards' zones (membership, not the order inside
an ordered zone) and the powers used — in this game, in this round and in this turn, three cells per
power and player (:meth:`~checker.solver.encode.Cells.used`), so that a power's limit reads the one it
names.  Not encoded (reported undecided): ``repeat … until``, ``offer`` (a decision point: the end of a
transition, not part of one), calling the turn's or the round's procedure (they move the turn and
round counters), and grids or records as the index of a cell written.  A ``draw`` takes cards from a pile
whose order is not followed: which cards are on top is an unknown (any of the pile's cards, as many as are
drawn), as a ``choose … subset`` is (one Bool per possible element, between its bounds).
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import z3

from checker.front import ast
from checker.base.limits import MAX_INT
from checker.base.registry import registrar
from checker.solver.encode import (AND, EQ, ITE, NONE, NOT, OR, USE_SCOPES, Encoder, Unsupported, as_bool,
                                   is_const)
from checker.front.types import BOOL, INT, Coll, EnumT, GridT, KindT, Opt, RecordT
from checker.solver.transition_counts import distinct
from checker.solver.transition_store import Store

__all__ = ["Store", "Transition", "Failure", "Choice", "STATEMENT_FORMS", "NOT_ENCODED"]

_STMT: dict[type, Callable] = {}
_on = registrar(_STMT)

# the kinds of "exception" a statement may raise, and who catches them
ABORT, STOP, END_TURN, CANCEL, RETARGET = "abort", "stop", "end turn", "cancel", "retarget"


@dataclasses.dataclass
class Failure:
    """The effect cannot complete (the interpreter stops the game with a located error) when ``when`` holds."""
    when: object
    span: object
    reason: str
    constraints: int = 0        # how many of the transition's constraints were made before it (all it needs)
    value: object = None        # an integer past ±MAX_INT: the value (``when`` is that it is beyond them)


@dataclasses.dataclass
class Choice:
    """An unknown the statements choose: ``value`` is chosen (among ``options``) when ``reached`` holds."""
    span: object
    var: str
    value: object
    reached: object
    options: list
    optional: object = None     # for `choose … optionally`: the Bool unknown "something is chosen"
    type: object = None         # the type of ``value``
    random: bool = False        # chosen at random (not by a player)
    kind: str = "one"           # one | subset (``value`` is then [(Bool, element)]) | draw (the same: the cards drawn)
    low: object = 0             # a subset's or a draw's least size …
    high: object = 0            # … and greatest (for a draw, both are how many cards it takes)
    chosen: object = None       # a `choose`: when a value is chosen (reached, some option, picked) …
    inside: object = None       # … and that the value is one of the options then (a subset: in its pool, its size)
    bound: tuple = ()           # the constraints of ``constraints`` that tie the value to its options
    size: object = True         # a subset: that as many elements are chosen as its bounds allow


class Transition:
    """The statements of one body (and what they call), from the state before to the state after."""

    # a `for` over elements Z3 proves different adds that fact to the constraints (transition_counts.distinct)
    distinct_loops = False

    def __init__(self, enc: Encoder, cut_at_offers: bool = False, max_windows: int | None = None,
                 max_steps: int | None = None, lazy_moves: bool = False):
        self.enc = enc
        self.E = enc.E
        self.p = enc.p
        self.store = Store(enc.cells)
        enc.memos.adopt(enc.memos.owner(), self.store)      # the store reads as the state before, so far
        enc.cells = self.store
        enc.partial.clear()
        self.forget()
        self.running = True                 # no stop, abort, end of turn, cancel or failure in flight
        self.raised: dict[str, object] = {}  # kind -> when it was raised (and not caught yet)
        self.redirected = False             # when the abort in flight is a retargeted action's (a power gives it back)
        self.failures: list[Failure] = []
        self.choices: list[Choice] = []
        self.constraints: list = []          # what the unknowns must meet (a choice among its options …)
        self.facts: list = []                # implied by the constraints, told Z3 where they help (distinct_loops)
        self.locals: frozenset = frozenset()
        # with ``cut_at_offers``, an `offer` reached inside the statements (a decision point) ends what is
        # followed on that path, and so does, with ``max_windows``, a window opened while that many are open
        # (reactions to reactions): ``cuts`` are (when, span, what) of each; what runs after it is not encoded
        self.cut_at_offers = cut_at_offers
        self.max_windows = max_windows
        self.windows = 0
        self.max_steps = max_steps          # with it, the statements followed, in the interpreter's order
        # a card moved is written as one entry, read where a place is asked, instead of a term for each
        # place of each card it may be (what a search that only asks questions needs)
        self.lazy_moves = lazy_moves
        self.steps = 0
        self.cuts: list[tuple] = []
        self.depth = 0
        self._fresh = 0

    def forget(self) -> None:
        """A cell was written: the encoder's memos that read it (quantities, legality, zones) read the old state
        (:mod:`checker.solver.memo`).  All of them go when the encoder reads another state than this store, or a
        store of another class (which may read otherwise than by what it notes written)."""
        store = self.store
        selective = self.enc.cells is store and type(store) is Store
        self.enc.memos.forget(store.dirty if selective else None)
        store.dirty.clear()

    # ------------------------------------------------------------ bookkeeping
    def fresh_name(self, hint: str) -> str:
        self._fresh += 1
        return f"{hint}!{self._fresh}"

    def raise_(self, kind: str, guard) -> None:
        """``kind`` is raised when ``guard`` holds: nothing after runs then, until a catcher."""
        if is_const(guard) and not guard:
            return
        self.raised[kind] = OR(self.raised.get(kind, False), guard)
        self.running = AND(self.running, NOT(guard))

    def fail(self, guard, span, reason: str, value=None) -> None:
        # the partial operations met before this check and not yet asked (an `only`, a table lookup) succeeded:
        # where one did not, the interpreter stopped there, before this check
        pending = [ok for _span, ok, _reason in self.enc.partial]
        if pending:
            guard = AND(guard, *pending)
        if is_const(guard) and not guard:
            return
        self.failures.append(Failure(guard, span, reason, len(self.constraints), value))
        self.running = AND(self.running, NOT(guard))

    def catching(self, kinds: tuple[str, ...], run: Callable):
        """Run ``run()``; what it raises of ``kinds`` stops it only (the rest of the caller goes on).  When
        the abort in flight was caught: the condition it was a retargeted action's (else False)."""
        saved = {k: self.raised.pop(k) for k in kinds if k in self.raised}
        outer, self.redirected = self.redirected, False
        run()
        redirected = self.redirected if ABORT in kinds else False
        self.redirected = outer if ABORT in kinds else OR(outer, self.redirected)
        caught = OR(*(self.raised.pop(k) for k in kinds if k in self.raised))
        self.raised.update(saved)
        self.running = OR(self.running, caught)
        return redirected

    def checked_partial(self, guard) -> None:
        """The encoder's partial operations met since the last call (``only`` …), evaluated under ``guard``,
        become failures."""
        partial = self.enc.partial
        while partial:
            span, ok, reason = partial.pop(0)
            if not is_const(ok):        # the encoder assumes an `only` finds one: here its failing is asked
                self.enc.defined = [d for d in self.enc.defined if d is not ok]
            self.fail(AND(guard, NOT(ok)), span, reason)

    # ------------------------------------------------------------ statements
    def run(self, stmts, env: dict, guard=True) -> dict:
        """Encode ``stmts`` run under ``guard`` (and while nothing is raised); the locals after."""
        env = dict(env)
        stmts = [s for s in stmts if not isinstance(s, (ast.CiteStmt, ast.DecisionStmt))]
        for i, s in enumerate(stmts):
            fn = self.encoder_of(s)
            if fn is None:
                raise Unsupported(f"the effect of `{type(s).__name__}` is not encoded for Z3", s.span)
            here = AND(guard, self.running)
            if is_const(here) and not here:
                return env
            self.steps += 1
            if self.max_steps is not None and self.steps > self.max_steps:
                self.cut(here, s.span, f"its statement number {self.max_steps + 1} (the encoding follows "
                                       f"{self.max_steps} statements of an effect)")
                return env
            rest = fn(self, s, env, here)
            self.checked_partial(here)
            if i + 1 < len(stmts) and self.ended(guard):
                return env
            if rest is not None:          # `choose … optionally`: the rest of the block runs when something is chosen
                return self.run(stmts[i + 1:], env, AND(guard, rest))
        return env

    def ended(self, guard) -> bool:
        """Does no path run the statements after this one under ``guard``?  (A bounded unrolling asks, after a
        statement that stopped some paths; here nothing stops a path that a constant does not show.)"""
        return False

    def encoder_of(self, s):
        """The function that encodes statement ``s`` (None: not encoded); :mod:`checker.solver.unroll` adds
        the forms that a bounded unrolling encodes (`repeat`, `offer`)."""
        fn = _STMT.get(type(s))
        if fn is None and isinstance(s, ast.Offer) and self.cut_at_offers:
            fn = _cut
        return fn

    def expr(self, e, env):
        return self.enc.expr(e, env)

    def requirement(self, e, env):
        """The `requires` of a power reacting to a window (a :class:`~checker.conflicts.instances.OneInstance`
        makes each of its `any`s one unknown)."""
        return self.expr(e, env)

    def options_of(self, s: ast.Choose, options: list, guard) -> list:
        """A `choose`'s options as encoded ([(guard, value)]; `diff` gives a side another's where proven alike)."""
        return options

    def body(self, stmts, env: dict, guard=True, catches=(STOP, ABORT)):
        """Encode a body that catches ``catches``; when it caught an abort, the condition it was a retargeted
        action's (see :meth:`catching`)."""
        self.depth += 1
        if self.depth > 16:
            raise Unsupported("calls nested more than 16 deep are not encoded", getattr(stmts[0], "span", None)
                              if stmts else None)
        try:
            return self.catching(catches, lambda: self.run(stmts, env, guard))
        finally:
            self.depth -= 1

    # ------------------------------------------------------------ cells
    def keys(self, kind_of_index, index, span):
        """The constant index values a possibly symbolic ``index`` can be, each with its test."""
        enc = self.enc
        ty = kind_of_index
        if isinstance(ty, Opt):
            ty = ty.inner
        if isinstance(ty, (GridT, RecordT)):
            raise Unsupported("writing a cell indexed by a grid cell or a record is not encoded", span)
        if isinstance(ty, KindT):
            index = enc.physical(index, span)
        if is_const(index):
            return [(True, index)]
        return [(enc.eq(index, k), k) for k in enc.index_domain(ty, index)]

    def zone_keys(self, zone: str, span) -> list:
        if self.p.zones[zone].index is None:
            return [None]
        return self.all_keys(self.enc.zone_index_types[zone], span)

    def all_keys(self, ty, span) -> list:
        """Every constant value of an index type (a player, an enum member, a physical card)."""
        if isinstance(ty, Opt):
            ty = ty.inner
        if isinstance(ty, (GridT, RecordT)):
            raise Unsupported("writing cells indexed by a grid cell or a record is not encoded", span)
        if isinstance(ty, KindT):
            return list(self.enc.kind_instances[ty.name])
        if isinstance(ty, EnumT):
            return list(range(len(self.enc.enum_names[ty.name])))
        return list(self.enc.seats)

    def write_var(self, lv: ast.LValue, value, env, guard, span) -> None:
        if lv.index is None:
            self.store.write(("var", lv.name, None), value, guard)
        else:
            index = self.expr(lv.index, env)
            for test, k in self.keys(self.enc.index_types[lv.name], index, span):
                self.store.write(("var", lv.name, k), value, AND(guard, test))
        self.forget()

    def read_var(self, lv: ast.LValue, env):
        index = None if lv.index is None else self.expr(lv.index, env)
        return self.enc.var(lv.name, index, lv.span)

    def int_guard(self, value, what: str, guard, span) -> None:
        if is_const(value):
            if not -MAX_INT <= value <= MAX_INT:
                self.fail(guard, span, f"{what} would hold {value}, beyond ±{MAX_INT:,} (the limit of an integer)")
            return
        self.fail(AND(guard, OR(value > MAX_INT, value < -MAX_INT)), span,
                  f"{what} would hold a value beyond ±{MAX_INT:,} (the limit of an integer)", value)

    def move(self, card, dest: ast.Place, where, guard, span) -> None:
        """``card`` (a value) goes to zone ``dest`` at index ``where`` when ``guard`` holds."""
        enc, E = self.enc, self.E
        zone = dest.target.name
        kind = enc.zone_kind[zone]
        if is_const(card):
            if card == NONE or card < 0:
                self.fail(guard, span, "only a physical card can move (this is a card's name)")
                return
        else:
            bad = OR(*(enc.eq(card, x) for x in enc.possible(card, kind) if x == NONE or x < 0))
            self.fail(AND(guard, bad), span, "only a physical card can move (this is a card's name)")
        zones = [z for z, k in enc.zone_kind.items() if k == kind]
        if self.lazy_moves:
            tests = {}
            for inst in enc.possible(card, kind):
                if inst == NONE or inst < 0 or E.def_kind[E.defs[inst]] != kind:
                    continue
                test = enc.eq(card, inst)
                if not (is_const(test) and not test):
                    tests[inst] = test
            if tests and not (is_const(guard) and not guard):
                self.store.move(tests, frozenset(zones), zone, where, guard)
            self.forget()
            return
        for inst in enc.possible(card, kind):
            if inst == NONE or inst < 0 or E.def_kind[E.defs[inst]] != kind:
                continue
            here = AND(guard, enc.eq(card, inst))
            if is_const(here) and not here:
                continue
            for z in zones:
                for k in self.zone_keys(z, span):
                    now = z == zone and (k is None or EQ(where, k))
                    self.store.write(("in", z, k, inst), now, here)
        self.forget()

    def used(self, player, card: int, power, guard) -> None:
        """``player`` uses ``power``: used in this game, this round and this turn (whatever its limit, as the
        interpreter records the turn and round of every use)."""
        for test, k in ([(True, player)] if is_const(player) else
                        [(self.enc.eq(player, k), k) for k in self.enc.seats]):
            g = AND(guard, test)
            if is_const(g) and not g:
                continue
            for scope in USE_SCOPES.values():
                key = ("used", k, card, power.name, scope)
                old = self.store.used(k, card, power.name, scope)
                self.store.writes[key] = True if is_const(g) and g else ITE(g, True, old)

    # ------------------------------------------------------------ entries
    def action(self, name: str, args: tuple, guard=True) -> None:
        """`do name(args)` — its legality, its `before` windows, then its effect."""
        legal = self.enc.legality(name, args)[0]
        self.raise_(ABORT, AND(guard, NOT(legal)))
        self.perform(name, args, AND(guard, legal))

    def perform(self, name: str, args: tuple, guard=True) -> None:
        """The effect of ``name`` (its body, or its nearest ancestor's), after its `before` windows."""
        E = self.E
        hooks = E.cards.hooks.get(name, ())
        for hook, _window_args in hooks:
            decl = next((h for h in self.p.hooks if h.window == hook.window and h.action in self.enc.ancestors(name)),
                        None)
            if decl is None:
                raise Unsupported(f"the `before` window of {name} is not encoded", None)
            env = {b: a for (b, _), a in zip(decl.binders, args)}
            window_args = tuple(self.expr(a, env) for a in decl.args)
            cancelled, retargeted = self.signal(decl.window, window_args, AND(guard, self.running), decl.span,
                                                closes=True)
            self.raise_(ABORT, OR(cancelled, retargeted))     # a retargeted action aborts, as a cancelled one …
            self.redirected = OR(self.redirected, retargeted)  # … and the power that did it is given back
        for anc in self.enc.ancestors(name):
            decl = self.p.actions[anc]
            if decl.body is not None:
                env = {prm.name: a for prm, a in zip(decl.params, args)}
                self.body(decl.body, env, AND(guard, self.running), catches=(STOP,))
                return

    def procedure(self, name: str, args: tuple, guard=True, span=None) -> None:
        E = self.E
        if name in (E.turn_proc, E.round_proc):
            raise Unsupported(f"calling {name} moves the turn or round counters, which are not encoded", span)
        decl = self.p.procedures[name]
        env = {prm.name: a for prm, a in zip(decl.params, args)}
        self.precondition(name, env, guard, span)
        self.body(decl.body, env, guard)

    def precondition(self, name: str, env: dict, guard, span=None) -> None:
        """A call of procedure ``name`` (at ``span``) where its `requires` does not hold stops the game (the
        interpreter's :meth:`~checker.runtime.engine.Engine.entering`)."""
        decl = self.p.procedures[name]
        if decl.requires is not None:
            ok = self.expr(decl.requires, env)
            self.checked_partial(guard)
            self.fail(AND(guard, NOT(ok)), span or decl.requires.span, f"procedure {name} is called where its "
                      f"precondition (requires, {decl.requires.span}) does not hold")

    def power(self, pw: ast.PowerDecl, player, card: int, env: dict, guard=True, runtime=None) -> None:
        """A power used by ``player`` (its use is recorded, then its body runs; stop and abort end it).  An
        action of its body that a reaction retargets gives the use back: its cells hold what they held before."""
        if runtime is None:
            runtime = next(x for x in self.E.powers_of[self.E.defs[card] if card >= 0 else card] if x.name == pw.name)
        keys = [("used", k, card, runtime.name, scope) for k in self.enc.seats for scope in USE_SCOPES.values()]
        before = {key: self.store.read(key) for key in keys}
        self.used(player, card, runtime, guard)
        self.forget()
        redirected = self.body(pw.body, {"me": player, "this": card, **env}, guard)
        if not (is_const(redirected) and not redirected):
            for key in keys:
                if key in self.store.writes:
                    self.store.write(key, before[key], redirected)
            self.forget()

    def reactions(self, window: str) -> list:
        """(runtime power, card, when it reacts as that card) for every reaction to ``window``, in the
        interpreter's order: each card's own, then those of the cards imitating another."""
        E, enc = self.E, self.enc
        out = [(power, card, True) for power, card, _ in E._reactions.get(window, ())]
        copying = []            # the cards that may imitate one now, and what they imitate
        for card in E.cards.imitators:
            q = E.cards.imitates[E.def_kind[E.defs[card]]]
            copied = enc.defof(enc.quantity(q, (card,)))
            if not (is_const(copied) and copied == NONE):
                copying.append((card, copied))
        # the interpreter groups them by the card imitated, in the order each is first imitated; in a group,
        # power by power, the imitating cards in order (CardState.copied, CardState.reactions)
        others = [(other, powers) for (w, other), powers in E.window_powers_of.items() if w == window]
        for j, (leader, copied) in enumerate(copying):
            first = AND(*(NOT(EQ(c, copied)) for _, c in copying[:j]))
            for other, powers in others:
                group = AND(first, EQ(copied, other))
                if is_const(group) and not group:
                    continue
                for power in powers:
                    for card, c in copying[j:]:
                        if E.defs[card] == other:
                            continue
                        test = AND(group, EQ(c, other))
                        if not (is_const(test) and not test):
                            out.append((power, card, test))
        return out

    def cut(self, guard, span, what: str) -> None:
        """What follows is not encoded on the paths where ``guard`` holds: they stop here, uncaught."""
        if is_const(guard) and not guard:
            return
        self.cuts.append((guard, span, what))
        self.running = AND(self.running, NOT(guard))
        self.raised["cut"] = OR(self.raised.get("cut", False), guard)

    def signal(self, window: str, args: tuple, guard=True, span=None, closes: bool = False):
        """Every reaction to ``window``, in the interpreter's order; the condition that one cancelled (with
        ``closes``: the conditions that one cancelled, and that one retargeted)."""
        if self.max_windows is not None and self.windows >= self.max_windows:
            self.cut(AND(guard, self.running), span, f"the reactions to {window}, a window opened while "
                                                     f"{self.windows} are open")
            return (False, False) if closes else False
        self.windows += 1
        try:
            cancelled, retargeted = self._signal(window, args, guard)
        finally:
            self.windows -= 1
        return (cancelled, retargeted) if closes else OR(cancelled, retargeted)

    def _signal(self, window: str, args: tuple, guard=True):
        E, enc = self.E, self.enc
        decls = {(self.E.def_ids[c.name], pw.name): pw for c in self.p.cards.values() for pw in c.powers}
        saved = {k: self.raised.pop(k) for k in (CANCEL, RETARGET) if k in self.raised}
        for power, card, copying in self.reactions(window):
            here = AND(guard, self.running, copying)
            if is_const(here) and not here:
                continue
            kind = E.def_kind[E.defs[card]]
            q = E.controllers.get(kind)
            if q is None:
                continue
            player = enc.quantity(q, (card,))
            decl = decls[(power.card, power.name)]
            penv = {"me": player, "this": card, **dict(zip(power.names, args))}
            ok = AND(NOT(enc.eq(player, NONE)) if not is_const(player) else player != NONE, enc.active(card))
            if power.limit != "unlimited":
                used = enc.select(player, tuple(enc.seats), lambda k: self.store.used_up(k, card, power)) \
                    if not is_const(player) else (self.store.used_up(player, card, power) if player != NONE else True)
                ok = AND(ok, NOT(used))
            if decl.requires is not None:
                ok = AND(ok, self.requirement(decl.requires, penv))
            if not power.mandatory:
                yes = z3.Bool(self.fresh_name(f"utiliser {power.name} ({E.show_card(card)})"))
                self.choices.append(Choice(decl.span, power.name, yes, AND(here, ok), [(True, True), (True, False)],
                                           type=BOOL))
                ok = AND(ok, yes)
            self.power(decl, player, card, dict(zip(power.names, args)), AND(here, ok), power)
        cancelled, retargeted = self.raised.pop(CANCEL, False), self.raised.pop(RETARGET, False)
        self.raised.update(saved)
        self.running = OR(self.running, cancelled, retargeted)
        return cancelled, retargeted


# ==================================================================== statements

@_on(ast.Let)
def _(t: Transition, s: ast.Let, env, guard):
    env[s.name] = t.expr(s.value, env)
    if t.enc.type_of(s.value) == INT:
        t.int_guard(env[s.name], s.name, guard, s.span)


@_on(ast.SetVar)
def _(t: Transition, s: ast.SetVar, env, guard):
    lv = s.target
    value = t.expr(s.value, env)
    if lv.index is None and lv.name not in t.p.vars:       # the body's own local
        env[lv.name] = value
        return
    if isinstance(t.enc.var_types[lv.name], (GridT, RecordT)):
        raise Unsupported("writing a var holding a grid cell or a record is not encoded", s.span)
    if isinstance(t.enc.var_types[lv.name], Coll) and not is_const(guard):     # the store's if-then-else of two
        raise Unsupported("writing a var holding a collection under a condition is not encoded", s.span)   # lists
    if t.enc.type_of(s.value) == INT:
        t.int_guard(value, lv.name, guard, s.span)
    t.write_var(lv, value, env, guard, s.span)


@_on(ast.Reset)
def _(t: Transition, s: ast.Reset, env, guard):
    decl, enc = t.p.vars[s.name], t.enc
    if decl.index is not None:
        default = 0 if decl.counter else enc.from_runtime(t.E.var_defaults[s.name], enc.var_types[s.name])
        for k in t.all_keys(enc.index_types[s.name], s.span):
            t.store.write(("var", s.name, k), default, guard)
    else:
        t.store.write(("var", s.name, None), enc.from_runtime(t.E.var_defaults[s.name], enc.var_types[s.name]), guard)
    t.forget()


def _options(t: Transition, s, env) -> list:
    enc = t.enc
    coll = enc.coll(s.coll, env)
    if s.options.where is None:
        return coll
    out = []
    for g, x in coll:
        if is_const(g) and not g:
            continue
        ok = t.expr(s.options.where, {**env, s.var: x})
        out.append((AND(g, ok), x))
    return out


@_on(ast.Choose)
def _(t: Transition, s: ast.Choose, env, guard):
    enc = t.enc
    options = t.options_of(s, _options(t, s, env), guard)
    some = OR(*(g for g, _ in options))
    ty = enc.type_of(s.coll)
    elem = ty.elem if isinstance(ty, Coll) else ty
    optional = s.options.optional and not s.options.random
    bound = []
    if optional:        # asked even with no option (nothing is then the only answer)
        picked = z3.Bool(t.fresh_name(f"{s.var} choisi"))
        bound.append(z3.Implies(picked, as_bool(some)))
        t.constraints.append(bound[-1])
        chosen = AND(guard, picked)
    else:
        t.raise_(ABORT, AND(guard, NOT(some)))
        chosen = AND(guard, some)
    if is_const(some) and not some:
        if optional:
            t.choices.append(Choice(s.span, s.var, None, guard, options, picked, type=elem))
        env[s.var] = NONE
        return False if optional else None
    value, inside = enc.fresh(t.fresh_name(s.var), elem, options)
    bound.append(z3.Implies(as_bool(chosen), as_bool(inside)))
    t.constraints.append(bound[-1])
    t.choices.append(Choice(s.span, s.var, value, guard if optional else AND(guard, some), options,
                            picked if optional else None, type=elem, random=s.options.random,
                            chosen=chosen, inside=inside, bound=tuple(bound)))
    note_place(t, s, env, value, chosen)       # a card chosen from a cell is there (for a `swap`)
    env[s.var] = value
    return chosen if optional else None


def _count(items) -> object:
    total = 0
    for g, _ in items:
        total = total + (z3.If(g, 1, 0) if not is_const(g) else int(bool(g)))
    return total


@_on(ast.ChooseSubset)
def _(t: Transition, s: ast.ChooseSubset, env, guard):
    """Some of the options, between ``low`` and ``high`` of them (as many as there are, at most): one Bool
    unknown per possible element; fewer options than ``low`` stops the body (the interpreter's abort)."""
    enc = t.enc
    pool = [(g, x) for g, x in enc.coll(s.coll, env) if not (is_const(g) and not g)]
    low, high = t.expr(s.low, env), t.expr(s.high, env)
    size = _count(pool)
    t.raise_(ABORT, AND(guard, low > size) if not (is_const(low) and is_const(size)) else (guard if low > size else False))
    guard = AND(guard, t.running)
    ty = enc.type_of(s.coll)
    picks, bound = [], []
    for g, x in pool:
        b = z3.Bool(t.fresh_name(f"{s.var} ∋ {enc.show(x, ty.elem) if is_const(x) else x}"))
        bound.append(z3.Implies(b, as_bool(g)))
        picks.append((b, x))
    chosen = _count(picks)
    # as the interpreter: ≤ ``high`` (≤ the pool's size, ≥ 0), just ``high`` below ``low``; chance stops at ``low``
    top = ITE(high < size, high, size) if not (is_const(high) and is_const(size)) else min(high, size)
    top = ITE(top < 0, 0, top) if not is_const(top) else max(top, 0)
    least = ITE(low < top, low, top) if not (is_const(low) and is_const(top)) else min(low, top)
    sized = chosen == (ITE(least < 0, 0, least) if not is_const(least) else max(least, 0)) if s.options.random \
        else AND(chosen >= least, chosen <= top)
    inside = AND(*bound, sized)         # what the interpreter lets be chosen, when the choice is reached
    bound.append(z3.Implies(as_bool(guard), as_bool(sized)))
    t.constraints += bound
    t.choices.append(Choice(s.span, s.var, picks, guard, pool, type=ty.elem, random=s.options.random, kind="subset",
                            low=low, high=top, chosen=guard, inside=inside, bound=tuple(bound), size=sized))
    env[s.var] = picks
    if s.options.where is not None:
        ok = t.expr(s.options.where, env)
        t.checked_partial(guard)
        t.raise_(ABORT, AND(guard, NOT(ok)))


@_on(ast.Draw)
def _(t: Transition, s: ast.Draw, env, guard):
    """The top ``count`` cards of a pile (all of them when it has fewer): the order inside a zone is not
    followed, so which cards are on top is an unknown — any of the pile's cards, as many as are drawn."""
    enc = t.enc
    src = s.source
    index = None if src.index is None else t.expr(src.index, env)
    pile = enc.zone(src.name, index, s.span)
    n = t.expr(s.count, env)
    size = _count(pile)
    take = ITE(n < size, n, size) if not (is_const(n) and is_const(size)) else min(n, size)
    take = ITE(take < 0, 0, take) if not is_const(take) else max(take, 0)
    picks = []
    for g, inst in pile:
        b = z3.Bool(t.fresh_name(f"{enc.E.show_card(inst)}{enc.copy_mark(inst)} tirée de {src.name}"))
        t.constraints.append(z3.Implies(b, as_bool(g)))
        picks.append((b, inst))
    drawn = _count(picks)
    t.constraints.append(z3.Implies(as_bool(guard), as_bool(drawn == take)) if not is_const(drawn)
                         else z3.BoolVal(True))
    t.choices.append(Choice(s.span, src.name, picks, guard, pile, kind="draw", low=take, high=take, type=None))
    target = s.dest.target
    where = None if target.index is None else t.expr(target.index, env)
    if where is not None and isinstance(enc.zone_index_types[target.name], KindT):
        where = enc.physical(where, s.span)
    for b, inst in picks:
        t.move(inst, s.dest, where, AND(guard, b), s.span)


@_on(ast.If)
def _(t: Transition, s: ast.If, env, guard):
    cond = t.expr(s.cond, env)
    t.checked_partial(guard)
    then = t.run(s.then, env, AND(guard, cond))
    other = t.run(s.else_, env, AND(guard, NOT(cond)))
    for name in set(then) | set(other):
        a, b = then.get(name, env.get(name)), other.get(name, env.get(name))
        if a is b:
            env[name] = a
        elif a is None or b is None:
            env[name] = a if b is None else b
        elif isinstance(a, list) or isinstance(b, list):
            if not isinstance(a, list) or not isinstance(b, list):  # a collection and a value that is not one
                # (a set var read where it has no encoding, a symbolic state's Int cell; a `let` of another type in
                # a branch is refused by `check`, E0303): refused, never iterated
                raise Unsupported("a collection in one branch of an if and another value in the other is not "
                                  "encoded", s.span)
            env[name] = [(AND(cond, g), x) for g, x in a] + [(AND(NOT(cond), g), x) for g, x in b]
        elif isinstance(a, tuple) or isinstance(b, tuple):
            raise Unsupported("a record bound differently in the two branches of an if is not encoded", s.span)
        else:
            env[name] = ITE(cond, a, b)


@_on(ast.For)
def _(t: Transition, s: ast.For, env, guard):
    coll = t.enc.coll(s.coll, env)
    t.enc.spend(len(coll), s.span)
    if t.distinct_loops and (lemma := distinct(coll, t.enc.n, t.E.st.n, t.enc.__dict__.setdefault("_distinct", {}))) \
            is not None:
        t.facts.append(lemma)               # proven at each player count: each element once (a list of seats)
    for g, x in coll:
        if is_const(g) and not g:
            continue
        inner = t.run(s.body, {**env, s.var: x}, AND(guard, g))
        for name, v in inner.items():     # what the body binds stays bound after it (its last value)
            if name != s.var and name in env and v is not env[name] and not isinstance(v, (list, tuple)):
                env[name] = ITE(g, v, env[name]) if not is_const(g) or not g else v


@_on(ast.Transfer)
def _(t: Transition, s: ast.Transfer, env, guard):
    n = t.expr(s.amount, env)
    t.fail(AND(guard, n < 0) if not is_const(n) else (guard if n < 0 else False), s.span,
           "a transfer of a negative amount: amounts cannot be negative")
    guard = AND(guard, t.running)
    if not t.p.vars[s.source.name].unlimited:
        have = t.read_var(s.source, env)
        short = (have < n) if not (is_const(have) and is_const(n)) else have < n
        if s.up_to:
            n = ITE(short, have, n)
        else:
            t.fail(AND(guard, short), s.span, "a transfer beyond what the counter holds "
                                              "(write `transfer up to` to move what there is)")
            guard = AND(guard, t.running)
        t.write_var(s.source, have - n, env, guard, s.span)
    if not t.p.vars[s.target.name].unlimited:
        total = t.read_var(s.target, env) + n
        t.int_guard(total, s.target.name, guard, s.span)
        guard = AND(guard, t.running)
        t.write_var(s.target, total, env, guard, s.span)


@_on(ast.Move)
def _(t: Transition, s: ast.Move, env, guard):
    what = t.expr(s.what, env)
    target = s.dest.target
    where = None if target.index is None else t.expr(target.index, env)
    if where is not None and isinstance(t.enc.zone_index_types[target.name], KindT):
        where = t.enc.physical(where, s.span)
    cards = what if isinstance(what, list) else [(True, what)]
    for g, card in cards:
        t.move(card, s.dest, where, AND(guard, g, t.running), s.span)


@_on(ast.Shuffle)
@_on(ast.Reveal)
@_on(ast.Log)
def _(t: Transition, s, env, guard):
    """No change to what the encoding follows (a pile's order, what is shown, the log)."""


@_on(ast.Do)
def _(t: Transition, s: ast.Do, env, guard):
    args = tuple(t.expr(a, env) for a in s.args)
    t.checked_partial(guard)        # an `only(…)` among the arguments fails here, before the action runs
    t.action(s.action, args, AND(guard, t.running))


@_on(ast.CallProc)
def _(t: Transition, s: ast.CallProc, env, guard):
    args = tuple(t.expr(a, env) for a in s.args)
    t.checked_partial(guard)
    t.procedure(s.name, args, AND(guard, t.running), s.span)


@_on(ast.Signal)
def _(t: Transition, s: ast.Signal, env, guard):
    args = tuple(t.expr(a, env) for a in s.args)
    t.checked_partial(guard)
    t.signal(s.window, args, AND(guard, t.running), s.span)


@_on(ast.EndTurn)
def _(t: Transition, s, env, guard):
    t.raise_(END_TURN, guard)


@_on(ast.Stop)
def _(t: Transition, s, env, guard):
    t.raise_(STOP, guard)


@_on(ast.Cancel)
def _(t: Transition, s, env, guard):
    t.raise_(CANCEL, guard)


def _cut(t: Transition, s: ast.Offer, env, guard):
    """An `offer` (a decision point) with ``cut_at_offers``: nothing after it is followed on this path —
    neither the rest of its body nor its callers' (a failure found is one before it; what comes after it is
    the next transition's, and the callers report the cut as not searched)."""
    t.cut(guard, s.span, "an offer (a decision point)")


# `retarget`, `swap` and `each … chooses` (checker/solver/transition_statements.py)
from checker.solver.transition_statements import note_place, register  # noqa: E402
register(_on, Choice)

STATEMENT_FORMS = tuple(sorted(c.__name__ for c in _STMT))
NOT_ENCODED = ("Repeat", "Offer")
