"""unroll: the game's control flow over a bounded number of decisions, as one Z3 transition.

:class:`Unrolled` is a :class:`~checker.solver.transition.Transition` that also encodes what a single effect
does not: the flow of a game from one procedure call over several decision points.

- ``repeat … until`` is unrolled: the body, then the condition, at most ``max_loops`` times; a path that would
  run it once more is *cut* (:meth:`~checker.solver.transition.Transition.cut`: not followed, reported).
- an ``offer`` is a decision: an unknown move among exactly the options the interpreter lists there
  (:mod:`checker.runtime.compile`, ``_(c, s: ast.Offer …)``) — every action item with its binders ranging over
  their collections and the action legal (:meth:`~checker.solver.encode.Encoder.legality`, the same
  prohibitions the interpreter inlines), every power without a window of the cards named (active, not used
  up, its ``requires`` true; a card imitating another offers the other's too), and the ``finish`` items when
  no mandatory power is pending and their ``when`` holds.  No option ends the offer; the move chosen runs (an
  action's effect after its ``before`` windows, a power's body after its use is recorded); an abort inside
  goes back to the offer, an ``end turn`` ends it; the offer asks again until ``finish``.  The loop is unrolled
  ``budget + 2`` times (each time it asks counts as a decision); a path that would ask again is cut.
- calling the game's ``turn`` or ``round`` procedure moves the interpreter's turn or round counter: what the
  encoding follows of them is what they decide — a power limited to once per turn (round) is usable again —
  so the cells "used in this turn" (round) of every power and player become false.

Every decision point counts toward the budget: each ``choose`` a player is asked (two options or more, or
optional), each pick of a ``choose … subset`` the interpreter asks, a reaction's yes/no, and every question of
an offer that has an option — even a single one, which the interpreter takes without asking its agent, so that
a path past the budget ends at the offer without listing its options (a random choice or a draw is not a
decision).  :attr:`Unrolled.count` is the number of
decisions asked on the path so far (a :class:`Tally`, in unary); the decision that would be number ``budget + 1`` cuts its path
there, so the state after a cut path is the state at that decision point, before it is asked.
:attr:`Unrolled.asked` lists every decision in the order the interpreter asks them on any one path.

With :attr:`Unrolled.pins` (``rulebook reach --split``), the answers to the first decisions are known: each is
a plain ``choose`` asked on every path, whose value is then a constant, so what depends on it folds.

What is not encoded costs nothing: a turn or round procedure that no path within the budget reaches, an offer's
next question that no path asks within the budget, and the rest of a block after a statement that stopped
paths (decision ``budget + 1``, a cut) when Z3 proves that no path runs it (:meth:`Unrolled.ended`).  Each such
question "can a path go on?" has a resource limit (:data:`FEASIBLE_RLIMIT`); unknown is a yes (more encoded,
never an answer changed).

What stays approximate is the transition's: the order inside a pile is not followed (a draw takes any cards of
the pile), a ``shuffle`` changes nothing followed, and the spec's invariants, which the interpreter checks
before each decision, are not checked along the way.
"""

from __future__ import annotations

import dataclasses

import z3

from checker.front import ast
from checker.front.types import KindT
from checker.solver.deal import Deal
from checker.solver.counters import enter_scope
from checker.solver.encode import AND, EQ, ITE, NOT, OR, Unsupported, as_bool, is_const
from checker.solver.factory import SolverSettings, make_solver
from checker.solver.transition import _STMT, ABORT, END_TURN, Choice, Transition

__all__ = ["Unrolled", "Asked", "MAX_LOOPS"]

# how many times a `repeat` is unrolled by default: a game's rounds (each round asks several decisions, so a
# search over K decisions meets few of them)
MAX_LOOPS = 4

# the resource limit of one question "can this path go on?" (Z3's steps, not the clock): unknown is a yes, so a
# question too hard for it only leaves more encoded, never an answer changed
FEASIBLE_RLIMIT = 1_000_000


@dataclasses.dataclass
class Asked:
    """A decision as the interpreter asks it: the :class:`Choice`, and when it is asked on the path."""
    choice: Choice
    asked: object           # reached, and more than one option (or optional): not forced
    number: "Tally"         # how many decisions were asked before it on its path


class _Decisions(list):
    """The transition's ``choices``: appending a player's choice counts it, and cuts its path beyond the budget."""

    def __init__(self, owner: "Unrolled"):
        super().__init__()
        self.owner = owner

    def append(self, choice: Choice) -> None:
        super().append(choice)
        self.owner.decided(choice)


class Tally:
    """How many decisions a path has asked so far, in unary: :meth:`at_least` ``j`` is a Bool (one per j up to
    the budget + 1), updated at each decision asked.  A sum of 0/1 terms, compared with the budget at every
    decision point, made each question "can a path go on?" a problem of arithmetic that Z3 splits case by case;
    the same count as Bools keeps those questions propositional.  Immutable: a snapshot is the object itself."""

    __slots__ = ("ge",)

    def __init__(self, ge: tuple):
        self.ge = ge                    # ge[j]: at least j decisions asked (ge[0] is True)

    @classmethod
    def zero(cls, top: int) -> "Tally":
        return cls((True,) + (False,) * top)

    def known(self) -> int | None:
        """The count when it is the same on every path (every Bool a constant), else None."""
        if not all(is_const(g) for g in self.ge):
            return None
        return sum(1 for g in self.ge[1:] if g)

    def at_least(self, n: int):
        if n <= 0:
            return True
        return self.ge[n] if n < len(self.ge) else False

    def at_most(self, n: int):
        return NOT(self.at_least(n + 1))

    def plus(self, asked) -> "Tally":
        """One more decision on the paths where ``asked`` holds."""
        ge = self.ge
        return Tally((True,) + tuple(OR(ge[j], AND(asked, ge[j - 1])) for j in range(1, len(ge))))

    def named(self, t: "Unrolled") -> "Tally":
        return Tally(tuple(t.named(g, f"décisions ≥ {j}") for j, g in enumerate(self.ge)))


def _count(guards) -> object:
    total = 0
    for g in guards:
        if is_const(g):
            total = total + int(bool(g))
        else:
            total = total + z3.If(as_bool(g), 1, 0)
    return total


def _at_least_two(guards):
    """At least two of ``guards`` hold (as Bools: one of them and one of those after it)."""
    guards = [g for g in guards if not (is_const(g) and not g)]
    if len(guards) < 2:
        return False
    if sum(1 for g in guards if is_const(g)) >= 2:
        return True
    pairs, later = [], False
    for g in reversed(guards):
        pairs.append(AND(g, later))
        later = OR(later, g)
    return OR(*pairs)


class Unrolled(Transition):
    """The statements of a procedure and everything they run, over at most ``budget`` decisions asked."""

    def __init__(self, enc, budget: int, max_loops: int = MAX_LOOPS, follow_deal: bool = True, **kw):
        super().__init__(enc, **kw)
        # from a concrete state, the piles' order and the random source (checker.solver.deal)
        self.deal = Deal(enc, self.feasible) if follow_deal and self.store.concrete else None
        self._drawing = False
        self._source = None                 # while a `move` of a zone's cards runs: that zone (name, index)
        self.budget = budget
        self.max_loops = max_loops
        self.count = Tally.zero(budget + 1)
        self.least = 0                      # decisions asked on every path so far (a lower bound of count)
        self.asked: list[Asked] = []
        self.beyond: list[tuple] = []       # (when, span): a path stopped at decision budget + 1
        self.condition = None               # with it (an expression), ``hits`` are where it holds
        self.condition_env: dict = {}       # the names it reads besides the state's
        self.hits: list[tuple] = []         # (when, decisions asked before, span), at each decision point
        self.choices = _Decisions(self)
        self.offers = 0
        self._solver = None                 # asks which paths go on (see :meth:`feasible`)
        self._told = 0
        self.questions = 0                  # how many times it was asked (a deterministic counter)
        self._stopped = 0                   # how many stops and cuts :meth:`ended` has seen
        self.monitors: list = []            # the condition's path functions (see :meth:`watch`)
        self._previous: dict = {}           # name -> the watched value at the last decision point (a term)
        self.pins: list = []                # the answers to the first decisions, known (runtime values, in
        self._pinned = 0                    # order: checker.reach.split); how many were taken

    def named(self, term, hint: str):
        """``term`` under a fresh name (a constraint says they are equal): the terms built on it stay small."""
        if is_const(term) or z3.is_const(term):
            return term
        v = (z3.Bool if z3.is_bool(term) else z3.Int)(self.fresh_name(hint))
        self.constraints.append(v == term)
        return v

    def feasible(self, cond, rlimit: int | None = None) -> bool:
        """Can ``cond`` hold, with the unknowns' constraints so far?  False only when Z3 proves it cannot: the
        unrolling then encodes nothing under it (an offer's next question, a `repeat`'s next round).  ``rlimit``:
        this question's steps, when fewer than the solver's (:data:`FEASIBLE_RLIMIT`, or the environment's
        limit when lower): unknown is a yes all the same."""
        if is_const(cond):
            return bool(cond)
        if self._solver is None:
            self._solver = make_solver(SolverSettings(incremental=True, rlimit=FEASIBLE_RLIMIT, minimize_cores=False))
        while self._told < len(self.constraints):
            self._solver.add(self.constraints[self._told])
            self._told += 1
        self.questions += 1
        full = self._solver.rulebook_rlimit
        if rlimit is None or rlimit >= full:
            return self._solver.check(as_bool(cond)) != z3.unsat
        self._solver.set("rlimit", rlimit)
        try:
            return self._solver.check(as_bool(cond)) != z3.unsat
        finally:
            self._solver.set("rlimit", full)

    def starts(self, guard) -> bool:
        """Can a path start a turn (a round) where ``guard`` holds?  False only when Z3 proves none does: no path
        within the budget starts it, and it is not encoded."""
        return self.feasible(guard)

    def ended(self, guard) -> bool:
        """After a statement that stopped paths (past the budget, or cut), does any path still run the rest of
        the block?  When Z3 proves none does, the statements after it are not encoded: what a path that asked
        decision K + 1 inside a power would have done next costs nothing."""
        stopped = len(self.beyond) + len(self.cuts)
        if stopped == self._stopped:
            return False
        self._stopped = stopped
        here = AND(guard, self.running)
        return not self.feasible(here)

    # ------------------------------------------------------------ decisions
    def decided(self, c: Choice) -> None:
        """A choice was made: when a player is asked it, count it (and cut its path beyond the budget)."""
        if c.random or c.kind == "draw":
            return
        if c.kind == "subset":
            self._subset(c)
            return
        if c.kind == "offer":
            asked = c.reached           # an offer with any option is a decision point, even with a single one
        elif c.optional is None:
            asked = AND(c.reached, _at_least_two([g for g, _ in c.options]))
        else:
            asked = c.reached          # an optional choice is always asked (nothing is an answer)
        self._ask(c, asked)

    def _ask(self, c: Choice, asked) -> None:
        if is_const(asked) and not asked:
            return
        self.check(asked, c.span)
        over = asked if self.least >= self.budget else AND(asked, self.count.at_least(self.budget))
        self.stop(over, c.span)
        self.asked.append(Asked(c, AND(asked, NOT(over)), self.count))
        self.count = self.count.plus(asked)
        if is_const(asked) and asked:
            self.least += 1

    def stop(self, guard, span) -> None:
        """The paths where ``guard`` holds reach decision ``budget + 1``: they end there (searched)."""
        if is_const(guard) and not guard:
            return
        self.beyond.append((guard, span))
        self.running = AND(self.running, NOT(guard))
        self.raised["beyond"] = OR(self.raised.get("beyond", False), guard)

    def watch(self, monitors) -> None:
        """The condition's path functions (:mod:`checker.reach.monitors`: ``changes``, ``initially``), read on
        the state where the unrolling starts; :meth:`check` updates them at each decision point."""
        self.monitors = list(monitors)
        env = dict(self.condition_env)
        for m in self.monitors:
            value = self.expr(m.expr, dict(env))
            self.checked_partial(True)
            self._previous[m.name] = value
            self.condition_env[m.name] = value if m.kind == "initially" else 0

    def _points(self, guard) -> None:
        """A decision point reached when ``guard`` holds: each ``changes`` compares with the previous one on
        the path (the points are met in the order of every path, so a term per monitor follows them all)."""
        for m in self.monitors:
            if m.kind != "changes":
                continue
            value = self.expr(m.expr, dict(self.condition_env))
            self.checked_partial(guard)
            old = self._previous[m.name]
            changed = AND(guard, NOT(self.enc.eq(value, old)))
            if not (is_const(changed) and not changed):
                count = self.condition_env[m.name]
                self.condition_env[m.name] = self.named(count + (z3.If(as_bool(changed), 1, 0)
                                                                 if not is_const(changed) else 1), m.name)
                self._previous[m.name] = self.named(ITE(guard, value, old), m.name)

    def check(self, guard, span) -> None:
        """A decision point (or the end) is reached when ``guard`` holds: does the condition hold there?"""
        if self.condition is None or (is_const(guard) and not guard):
            return
        self.forget()
        self._points(guard)
        holds = self.expr(self.condition, dict(self.condition_env))
        self.checked_partial(guard)
        when = AND(guard, holds)
        if not (is_const(when) and not when):
            self.hits.append((when, self.count, span))

    def _subset(self, c: Choice) -> None:
        """`choose … subset`: the interpreter asks one pick at a time, each with the options not yet chosen
        (a single one is forced while fewer than ``low`` are chosen), and once ``low`` are chosen, whether to
        stop (asked while fewer than ``high`` are chosen)."""
        size = _count([g for g, _ in c.options])
        chosen = _count([b for b, _ in c.value])
        low, high = c.low, c.high
        for i in range(len(c.options) + 1):
            # pick number i+1 is asked when i are chosen and the chooser goes on (or is asked whether to stop)
            reached = AND(c.reached, chosen >= i if not is_const(chosen) else chosen >= i,
                          (high > i) if not is_const(high) else high > i)
            forced = AND((size - i) <= 1 if not is_const(size) else size - i <= 1,
                         (low > i) if not is_const(low) else low > i)
            asked = AND(reached, NOT(forced))
            if is_const(asked) and not asked:
                continue
            self._ask(c, asked)

    # ------------------------------------------------------------ what a single transition stops at
    def encoder_of(self, s):
        if isinstance(s, ast.Offer):
            return _offer
        if isinstance(s, ast.Repeat):
            return _repeat
        if isinstance(s, ast.Choose) and self._pinned < len(self.pins) and not s.options.random:
            return _pinned_choose
        if self.deal is not None:
            if isinstance(s, ast.Draw):
                return _draw
            if isinstance(s, ast.Move):
                return _move
            if isinstance(s, ast.Shuffle):
                return _shuffle
            if isinstance(s, ast.Choose) and s.options.random:
                return _random_choice
            if isinstance(s, ast.ChooseSubset) and s.options.random:
                return _random_subset
        return super().encoder_of(s)

    def move(self, card, dest: ast.Place, where, guard, span) -> None:
        if self.deal is not None:
            self.deal.moved(card, dest.target.name, where, "bottom" if dest.position == "bottom" else "top",
                            AND(guard, self.running), span, leaves=not self._drawing, source=self._source)
        super().move(card, dest, where, guard, span)

    def procedure(self, name: str, args: tuple, guard=True, span=None) -> None:
        E = self.E
        if name in (E.turn_proc, E.round_proc) and not self.starts(AND(guard, self.running)):
            return              # no path within the budget starts this turn (round): nothing to encode
        if name in (E.turn_proc, E.round_proc):
            self._new_scope("turn" if name == E.turn_proc else "round", AND(guard, self.running))
        decl = self.p.procedures[name]
        env = {prm.name: a for prm, a in zip(decl.params, args)}
        self.precondition(name, env, guard, span)
        self.body(decl.body, env, guard)

    def _new_scope(self, scope: str, guard) -> None:
        """A new turn (round): no power is used in this one yet (every power's cell of that scope: the witnesses
        are read back from every cell)."""
        enter_scope(self, scope, guard, every=True)

    def power(self, pw, player, card, env, guard=True, runtime=None) -> None:
        # a reaction asked past the budget is cut when its yes/no is counted: its use is not recorded then
        super().power(pw, player, card, env, AND(guard, self.running), runtime)


# ==================================================================== repeat and offer

def _repeat(t: Unrolled, s: ast.Repeat, env, guard):
    going = guard
    for _ in range(t.max_loops):
        t.running = t.named(t.running, "en cours")
        here = t.named(AND(going, t.running), "tour de boucle")
        if not t.feasible(here):
            return
        t.run(s.body, env, here)
        done = t.expr(s.until, env)
        t.checked_partial(AND(here, t.running))
        going = AND(here, t.running, NOT(done))
    if t.feasible(AND(going, t.running)):
        t.cut(AND(going, t.running), s.span, f"its iteration number {t.max_loops + 1} (the encoding unrolls a "
                                         f"`repeat` {t.max_loops} times)")


def _pinned_choose(t: Unrolled, s: ast.Choose, env, guard):
    """A `choose` whose answer is known (:attr:`Unrolled.pins`): the next decision asked on every path, with
    options that are constants, takes that answer as a constant, so what follows folds.  Anything else (another
    decision asked first, a path where it is not asked) is a split that does not match the encoding: not
    followed, reported."""
    before = len(t.choices)
    rest = _STMT[ast.Choose](t, s, env, guard)
    c = t.choices[-1] if len(t.choices) > before else None
    answer = t.pins[t._pinned]
    value = None if c is None or c.type is None else t.enc.from_runtime(answer, c.type)
    if (c is None or not (is_const(guard) and guard) or t.least != t._pinned + 1 or len(t.asked) != t._pinned + 1
            or not all(is_const(g) and is_const(x) for g, x in c.options) or value not in [x for g, x in c.options if g]):
        raise Unsupported(f"the split's decision {t._pinned + 1} is not this choice, asked on every path with "
                          f"known options", s.span)
    t._pinned += 1
    t.constraints.append(c.value == value)
    env[s.var] = value
    return rest


def _action_options(t: Unrolled, item: ast.OfferAction, env, out: list) -> None:
    enc = t.enc
    fixed = _unliftable(enc, item.action)

    def bind(k: int, benv: dict, g) -> None:
        if k == len(item.binders):
            args = tuple(t.expr(a, benv) for a in item.args)
            if any(is_const(a) and a for a in (enc.applies(r, h, args) for r, h in fixed)):
                return      # a forbid no permit lifts applies: illegal, whatever the other rules say
            legal = enc.legality(item.action, args)[0]
            here = AND(g, legal)
            if not (is_const(here) and not here):
                out.append((here, ("action", item.action, args)))
            return
        var, coll = item.binders[k]
        elements = enc.coll(coll, benv)
        enc.spend(len(elements), item.span)
        for eg, x in elements:
            if not (is_const(eg) and not eg):
                bind(k + 1, {**benv, var: x}, AND(g, eg))

    bind(0, dict(env), True)


def _unliftable(enc, action: str) -> list:
    """The forbid heads about ``action`` (or an action it refines) that no permit about it can lift: where one of
    them applies (a constant true, read before any other rule: on the 4th edition, an action offered for a card
    that is not in the game's configuration, its own rule refusing every other card), the action is illegal and
    the legality of its other rules is not encoded (:func:`_action_options`)."""
    about = enc.rules_about(action)
    permits = [r.name for r, h in about if h.kind == "permit"]
    return [(r, h) for r, h in about if h.kind == "forbid" and not any((p, r.name) in enc.defeats for p in permits)]


def _power_options(t: Unrolled, item: ast.OfferPowers, player, env, out: list, wanted=None):
    """The powers offered, and when a mandatory one is pending (the offer cannot finish then).  ``wanted``
    (power, declaration) -> bool, when given, leaves out the powers it refuses before their conditions are
    encoded (the cut unrolling's powers that write nothing kept)."""
    E, enc = t.E, t.enc
    src = t.expr(item.source, env)
    cards = src if isinstance(src, list) else [(True, src)]
    decls = {(E.def_ids[c.name], pw.name): pw for c in t.p.cards.values() for pw in c.powers}
    pending = False
    for g, card in cards:
        if is_const(g) and not g:
            continue
        if not is_const(card):
            raise Unsupported("the powers of a card not known in advance are not encoded", item.span)
        own = E.defs[card] if card >= 0 else card
        offered = [(power, True) for power in E.free_powers.get(own, ())]
        if card >= 0 and card in E.cards.imitators:
            q = E.cards.imitates[E.def_kind[own]]
            copied = enc.defof(enc.quantity(q, (card,)))
            for other, powers in E.free_powers.items():
                if other != own and powers:
                    offered += [(power, EQ(copied, other)) for power in powers]
        active = enc.active(card) if (E.cards.active or E.cards.imitates) else True
        for power, copying in offered:
            decl = decls[(power.card, power.name)]
            if wanted is not None and not wanted(power, decl):
                continue
            ok = AND(g, active, copying)
            if power.limit != "unlimited":
                used = enc.select(player, tuple(enc.seats), lambda k: t.store.used_up(k, card, power)) \
                    if not is_const(player) else t.store.used_up(player, card, power)
                ok = AND(ok, NOT(used))
            if decl.requires is not None:
                ok = AND(ok, t.expr(decl.requires, {"me": player, "this": card}))
            if is_const(ok) and not ok:
                continue
            out.append((ok, ("power", power, card, decl)))
            if power.mandatory:
                pending = OR(pending, ok)
    return pending


def _always_an_option(t: Unrolled, s: ast.Offer) -> bool:
    """Does the offer always list an option?  It does with a `finish` without condition: only a mandatory power
    still usable holds it back, and that power is then an option."""
    return any(isinstance(i, ast.OfferFinish) and i.when is None for i in s.items)


def _offer(t: Unrolled, s: ast.Offer, env, guard):
    """The offer's loop, unrolled (see the module's docstring)."""
    player = t.expr(s.player, env)
    t.checked_partial(guard)
    going = guard
    t.offers += 1
    for turn in range(t.budget + 2):
        t.running = t.named(t.running, "en cours")
        t.count = t.count.named(t)
        here = t.named(AND(going, t.running), "offre")
        if not t.feasible(here):
            return
        if t.least >= t.budget or (t.count.known() is None
                                   and not t.feasible(AND(here, NOT(t.count.at_least(t.budget))))):
            # decision point budget + 1 on every path here: they end here (the condition is asked here)
            t.check(here, s.span)
            if _always_an_option(t, s):
                t.stop(here, s.span)
            else:
                t.cut(here, s.span, f"an offer after the {t.budget} decision points searched, which may have no "
                                    f"option (the interpreter then goes on without a decision)")
            return
        t.enc.spent = 0                         # the limit of one encoding applies to each decision point
        options: list = []
        pending = False
        for item in s.items:
            if isinstance(item, ast.OfferAction):
                _action_options(t, item, env, options)
            elif isinstance(item, ast.OfferPowers):
                pending = OR(pending, _power_options(t, item, player, env, options))
        for item in s.items:
            if isinstance(item, ast.OfferFinish):
                when = True if item.when is None else t.expr(item.when, env)
                options.append((AND(NOT(pending), when), ("finish", item.label)))
        t.checked_partial(here)
        some = OR(*(g for g, _ in options))
        going = AND(here, some)               # no option: the offer ends
        if is_const(going) and not going:
            return
        pick = z3.Int(t.fresh_name(f"que faire ? ({t.offers}.{turn + 1})"))
        picked = [AND(g, pick == i) for i, (g, _) in enumerate(options)]
        t.constraints.append(z3.Implies(as_bool(going), as_bool(OR(*picked))))
        t.choices.append(Choice(s.span, "que faire ?", pick, going, [(g, o) for g, o in options], kind="offer",
                                chosen=going, inside=OR(*picked)))
        ended = False
        for i, (g, option) in enumerate(options):
            chosen = AND(going, t.running, picked[i])
            if is_const(chosen) and not chosen:
                continue
            if option[0] == "finish":
                ended = OR(ended, chosen)
                continue
            saved = t.raised.pop(END_TURN, None)
            if option[0] == "action":
                t.catching((ABORT,), lambda o=option, c=chosen: t.perform(o[1], o[2], c))
            else:
                _, power, card, decl = option
                t.power(decl, player, card, {}, chosen, power)
            closed = t.raised.pop(END_TURN, False)
            if saved is not None:
                t.raised[END_TURN] = saved
            t.running = OR(t.running, closed)
            ended = OR(ended, closed)
        going = AND(going, NOT(ended), t.running)
    if t.feasible(AND(going, t.running)):
        t.cut(AND(going, t.running), s.span, f"its question number {t.budget + 3} (an offer is unrolled as many "
                                         f"times as decisions are searched, and twice more)")


# ==================================================================== the deal, followed (checker.solver.deal)

def _draw(t: Unrolled, s: ast.Draw, env, guard):
    enc, src = t.enc, s.source
    index = None if src.index is None else t.expr(src.index, env)
    if index is not None and isinstance(enc.zone_index_types[src.name], KindT):
        index = enc.physical(index, s.span)
    cards = t.deal.draw(src.name, index, t.expr(s.count, env), guard, s.span)
    if cards is None:
        if not (is_const(guard) and not guard):
            t.deal.unknown(src.name, index, s.span, "a draw takes any of the pile's cards")
        return _STMT[ast.Draw](t, s, env, guard)
    target = s.dest.target
    where = None if target.index is None else t.expr(target.index, env)
    if where is not None and isinstance(enc.zone_index_types[target.name], KindT):
        where = enc.physical(where, s.span)
    t._drawing = True
    try:
        for g, inst in cards:
            t.move(inst, s.dest, where, g, s.span)
    finally:
        t._drawing = False


def _shuffle(t: Unrolled, s: ast.Shuffle, env, guard):
    index = None if s.target.index is None else t.expr(s.target.index, env)
    if index is not None and isinstance(t.enc.zone_index_types[s.target.name], KindT):
        index = t.enc.physical(index, s.span)
    t.deal.shuffle(s.target.name, index, guard, s.span)


def _ordered(t: Unrolled, s: ast.Choose, values: list):
    """The options in the order the interpreter lists them, when it is known: a pile's order, the seats."""
    coll = s.coll
    if s.options.where is None and isinstance(coll, ast.Name):
        if coll.id == "players":
            return sorted(values)
        if coll.id in t.p.zones and t.p.zones[coll.id].index is None:
            pile = t.deal.pile(coll.id, None)
            if pile is not None and is_const(pile.taken) and pile.bottom and sorted(pile.cards) == sorted(values):
                return list(pile.cards)
    return None


def _random_choice(t: Unrolled, s: ast.Choose, env, guard):
    """`choose … at random` from a known random source: the interpreter's pick (``st.rng.choice``)."""
    from checker.solver.transition import _options
    options = _options(t, s, env)
    if all(is_const(g) for g, _ in options) and all(is_const(x) for _, x in options):
        values = [x for g, x in options if g]
        if not values:
            return _STMT[ast.Choose](t, s, env, guard)      # nothing to pick: the interpreter aborts, draws nothing
        value = t.deal.choice(_ordered(t, s, values), guard, s.span)
        if value is not None:
            env[s.var] = value
            return None
    else:
        t.deal.choice(None, guard, s.span)
    return _STMT[ast.Choose](t, s, env, guard)


def _random_subset(t: Unrolled, s, env, guard):
    if not (is_const(guard) and not guard):
        t.deal._lose_rng(s.span, "a random subset is not followed")
    return _STMT[ast.ChooseSubset](t, s, env, guard)


def _move(t: Unrolled, s: ast.Move, env, guard):
    """`move`: when it moves the cards of a zone, each is in that zone when it moves (a card is in one zone),
    so it leaves no other pile — what the deal needs to know (checker.solver.deal)."""
    what = s.what
    source = None
    if isinstance(what, ast.Name) and what.id in t.p.zones:
        source = (what.id, None)
    elif isinstance(what, ast.Index) and isinstance(what.obj, ast.Name) and what.obj.id in t.p.zones:
        index = t.expr(what.index, env)
        if isinstance(t.enc.zone_index_types[what.obj.id], KindT):
            index = t.enc.physical(index, s.span)
        source = (what.obj.id, index)
    elif not (is_const(guard) and not guard):
        cards = t.expr(what, env)
        if isinstance(cards, list) and len(cards) > 1:     # several cards of a local collection: which piles
            t.deal.not_in = t.deal.none_inside(cards, AND(guard, t.running))    # hold none of them, at once
    t._source = source
    try:
        return _STMT[ast.Move](t, s, env, guard)
    finally:
        t._source = None
        t.deal.not_in = set()
