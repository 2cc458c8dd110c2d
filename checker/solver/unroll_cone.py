"""unroll_cone: the game's flow over its first rounds, with only the state a question reads kept — an
over-approximation (``rulebook reach --rounds N --keep …``).

:class:`Coned` is the unrolling of :mod:`checker.solver.unroll` (the same transition, the same offers and
choices), changed in four ways, each of which only *adds* paths to the game's:

- **The state cut.** A cell of a name that is not *kept* (a scalar var or a zone's membership; the names
  CONDITION reads, those ``--keep`` gives, and the records, grids and power uses always are) is *havoc*: each
  read of it is a fresh unknown, unconstrained, and a write to it is not encoded (:class:`CutStore`).  Whatever
  the game reads there, some value of the unknowns is it, so every path of the game is a path of the encoding
  (choose each unknown as the value the game reads at that point).  A card moved is still taken out of every
  kept zone of its kind, so a card is in at most one kept zone — except cards *known* to be in a zone that is
  not kept (a `swap` of two such zones; a `do` whose card argument was chosen from one just before): a card is
  in one zone at a time, so they are in no kept zone, and moved to a zone not kept they change nothing kept.
- **No decision budget.** The flow is followed for its first ``rounds`` iterations of the rounds' `repeat` (the
  `repeat` whose body calls the game's round procedure; without one, a `repeat` of the flow procedure's body):
  a path that starts iteration ``rounds + 1`` ends there, the condition asked first.  Any other `repeat` is unrolled ``max_loops`` times and cut beyond (undecided).
- **Offers without the moves that cannot matter.** An action offered whose effect — its body, the procedures,
  actions and reactions it can run, read from the program's text (:class:`Writes`) — writes no kept name (a
  card moved writes every zone of its kind), ends no turn, opens no offer and calls no turn or round procedure,
  is not offered.  Taken, it would change no kept cell and no power's use, and every unknown is read fresh
  anyway, so the offer after it asks the same question again: a path of the game with such moves is a path of
  the encoding without them, with the same kept states at the remaining decision points (the count of
  ``changes`` is the same).  Powers are always offered (they record their use).  An offer is unrolled until
  Z3 proves that no path asks it again, at most :data:`OFFER_ROUNDS` times; a path beyond is cut (undecided).
- **Every order of the piles and every random choice.** The deal is not followed (a draw takes any cards of
  the pile, a random choice any option), so a proof holds for any seed.

What it can answer: *proved* — no path of the first ``rounds`` rounds meets the condition, for any deal; or
*undecided* — the encoding has a path (it may be one the cut state forbids: the answer then is the plain
search's, with ``--within``), a place not followed, or Z3 could not answer.  It never says *reached*.
"""

from __future__ import annotations

import dataclasses

import z3

from checker.front import ast
from checker.front.types import BOOL, Coll, GridT, RecordT
from checker.solver.encode import AND, EQ, NOT, OR, as_bool, is_const
from checker.solver.memo import Written
from checker.solver.transition import ABORT, END_TURN, Choice, Store
from checker.solver.unroll import Asked, Unrolled, _action_options, _power_options

__all__ = ["Coned", "CutStore", "Writes", "OFFER_ROUNDS", "names_read"]

# the most questions of one offer followed (each is one more move of the turn)
OFFER_ROUNDS = 12

# the steps of the question "can a path start this turn (round)?" (:meth:`Coned.starts`: a call of the game's turn
# or round procedure, an iteration of the rounds' `repeat`).  Without a budget of decisions, what makes a turn's
# call unreachable is the flow before it — the game stopped, a path cut, a guard the loops and conditions above it
# contradict — which Z3 shows by propagation, in a few thousand steps (at most 5,376 for the 55 starts proven
# unreachable in five reach and unroll test files, docs/reach.md); a turn that a path does start needs a model of
# the whole unrolling so far, some 5 to 7 million steps on the 4th edition's first round, which no limit of a
# question that only saves encoding affords: at FEASIBLE_RLIMIT (1 million) the 64 turns of its two rounds ended
# unknown, 40 s of CPU.
START_RLIMIT = 100_000


class CutStore(Store):
    """The state with only the kept cells followed: a read of another is a fresh unknown, a write to it is
    dropped (see the module's docstring)."""

    def __init__(self, base, kept: frozenset, fresh):
        super().__init__(base)
        self.kept = kept
        self.fresh = fresh          # hint -> a new name

    def _cut_var(self, name: str) -> bool:
        return name not in self.kept and not isinstance(self.enc.var_types[name], (RecordT, GridT))

    def var(self, name: str, index):
        if self._cut_var(name):
            ty = self.enc.var_types[name]
            return (z3.Bool if ty == BOOL else z3.Int)(self.fresh(f"coupé {name}"))
        return super().var(name, index)

    def member(self, zone: str, index, inst: int):
        if zone not in self.kept:
            return z3.Bool(self.fresh(f"coupé {zone}"))
        return super().member(zone, index, inst)

    def write(self, key: tuple, value, guard) -> None:
        if key[0] == "var" and self._cut_var(key[1]):
            return
        if key[0] == "in" and key[1] not in self.kept:
            return
        super().write(key, value, guard)


class Writes:
    """What an action's effect may write, read from the program's text, transitively: :meth:`touches` is True
    when it may write a kept name, end a turn, open an offer, run a round or turn procedure, or use a statement
    this reading does not know (then it is offered: the encoding follows it)."""

    HARMLESS = (ast.Let, ast.Choose, ast.ChooseSubset, ast.If, ast.For, ast.Shuffle, ast.Reveal, ast.Log,
                ast.CiteStmt, ast.DecisionStmt, ast.Stop, ast.Do, ast.CallProc, ast.Signal, ast.SetVar, ast.Reset,
                ast.Transfer, ast.Move, ast.Draw)

    def __init__(self, enc, kept: frozenset):
        self.enc, self.p, self.E = enc, enc.p, enc.E
        self.kept = kept
        kinds = {enc.zone_kind[z] for z in kept if z in enc.zone_kind}
        self.kept_kinds = kinds
        self.reactions: dict[str, list] = {}
        for card in self.p.cards.values():
            for pw in card.powers:
                if pw.window is not None:
                    self.reactions.setdefault(pw.window[0], []).append(pw.body)
        self._memo: dict[tuple, bool] = {}
        self.chosen_before = _chosen_before(enc)

    def action(self, name: str) -> bool:
        return self._entry(("action", name))

    def _entry(self, key: tuple) -> bool:
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = False             # a cycle adds nothing the other entries do not
        bodies: list = []
        if key[0] == "action":
            for anc in self.enc.ancestors(key[1]):
                decl = self.p.actions[anc]
                if decl.body is not None:
                    bodies.append(decl.body)
                    break
            for h in self.p.hooks:
                if h.action in self.enc.ancestors(key[1]):
                    bodies += self.reactions.get(h.window, [])
        elif key[0] == "procedure":
            if key[1] in (self.E.turn_proc, self.E.round_proc):
                self._memo[key] = True
                return True
            bodies.append(self.p.procedures[key[1]].body)
        else:
            bodies += self.reactions.get(key[1], [])
        out = any(self._block(body) for body in bodies)
        self._memo[key] = out
        return out

    def power(self, decl) -> bool:
        """Does a power's body (a free power offered) write anything kept?"""
        key = ("power", id(decl))
        if key not in self._memo:
            self._memo[key] = False
            self._memo[key] = self._block(decl.body)
        return self._memo[key]

    def procedure(self, name: str) -> bool:
        return self._entry(("procedure", name))

    def window(self, name: str) -> bool:
        return self._entry(("window", name))

    def do(self, s: ast.Do) -> bool:
        """Does this `do` write anything kept?  As :meth:`action`, except where an argument is a card (or cards)
        chosen by the statement just before it from a zone that is not kept (:func:`_chosen_before`) and the
        action has no `before` window: in its body, until a statement that may move a card, that parameter's
        cards are in that zone, so a move of them leaves that zone only."""
        if not self.action(s.action):
            return False
        bound = self.chosen_before.get(id(s))
        names = self.enc.ancestors(s.action)
        decl = next((self.p.actions[a] for a in names if self.p.actions[a].body is not None), None)
        if not bound or decl is None or len(decl.params) != len(s.args) or \
                any(h.action in names for h in self.p.hooks):
            return True
        params = {prm.name: bound[a.id] for prm, a in zip(decl.params, s.args)
                  if isinstance(a, ast.Name) and a.id in bound and bound[a.id] not in self.kept}
        if not params:
            return True
        key = ("do", s.action, frozenset(params.items()))
        if key not in self._memo:
            self._memo[key] = True
            self._memo[key] = self._block(decl.body, params)
        return self._memo[key]

    def _block(self, body, params=None) -> bool:
        """Statements in order; a card chosen from a zone that is not kept and moved by the next statement (a
        citation, a decision or a log between them aside) leaves that zone, so the move changes no kept zone
        unless its destination is kept.  ``params``: the action's parameters whose cards are known to be in a
        zone that is not kept (see :meth:`do`), until a statement that may move a card."""
        chosen: dict[str, str] = {}
        params = dict(params or {})
        for s in body:
            if self._stmt(s, {**params, **chosen}):
                return True
            if isinstance(s, (ast.CiteStmt, ast.DecisionStmt, ast.Log)):
                continue                    # binds nothing and moves nothing: the choice before it still holds
            if isinstance(s, (ast.Let, ast.Choose, ast.ChooseSubset)):
                params.pop(s.name if isinstance(s, ast.Let) else s.var, None)   # a name bound anew
            elif not isinstance(s, ast.SetVar):
                params = {}                 # it may move a card
            chosen = {}
            if isinstance(s, (ast.Choose, ast.ChooseSubset)) and not s.options.random:
                zone = _zone_named(s.coll)
                if zone is not None and zone in self.enc.zone_kind and zone not in self.kept:
                    chosen = {s.var: zone}
        return False

    def _zone(self, name: str) -> bool:
        return name in self.kept or self.enc.zone_kind.get(name) in self.kept_kinds

    def _stmt(self, s, chosen=None) -> bool:
        if _swaps_cut_zones(self, s):
            return False
        if not isinstance(s, self.HARMLESS):
            return True                     # an offer, end turn, cancel, repeat, swap, retarget, each … chooses
        if isinstance(s, ast.SetVar) and s.target.name in self.kept:
            return True
        if isinstance(s, ast.Reset) and s.name in self.kept:
            return True
        if isinstance(s, ast.Transfer) and (s.source.name in self.kept or s.target.name in self.kept):
            return True
        if isinstance(s, ast.Move):
            dest = s.dest.target.name
            if dest in self.kept:
                return True
            source = _zone_named(s.what)
            if source not in self.enc.zone_kind and isinstance(s.what, ast.Name) and chosen:
                source = chosen.get(s.what.id)      # a name bound by the choice just before: the zone it chose from
            if source is not None and source in self.enc.zone_kind:
                return source in self.kept
            return self._zone(dest)
        if isinstance(s, ast.Draw) and (s.dest.target.name in self.kept or s.source.name in self.kept):
            return True
        if isinstance(s, ast.Do) and self.do(s):
            return True
        if isinstance(s, ast.CallProc) and self._entry(("procedure", s.name)):
            return True
        if isinstance(s, ast.Signal) and self._entry(("window", s.window)):
            return True
        if isinstance(s, ast.If):
            return self._block(s.then) or self._block(s.else_)
        if isinstance(s, ast.For):
            return self._block(s.body)
        return False


def _swaps_cut_zones(w, s) -> bool:
    """`swap z[a] with y[b]`, two zones neither of which is kept: each card moves from one of them to the other, and
    a card is in one zone at a time, so no kept zone holds it: it changes nothing kept."""
    if not isinstance(s, ast.Swap):
        return False
    zones = [_zone_named(x) for x in (s.left, s.right)]
    return isinstance(w.enc.type_of(s.left), Coll) and \
        all(z is not None and z in w.enc.zone_kind and z not in w.kept for z in zones)


def _chosen_before(enc) -> dict[int, dict[str, str]]:
    """id(a `do` statement) -> {name: zone}: the name bound by the choice just before it (a citation, a decision
    or a log between them aside), a `choose` or `choose … subset` from a zone, not at random — every body of the
    program (procedures, actions, powers)."""
    out: dict[int, dict[str, str]] = {}
    other: set[int] = set()         # a `do` met elsewhere with another choice before it (or none): not known
    bodies = [d.body for d in enc.p.procedures.values()] + [d.body for d in enc.p.actions.values() if d.body]
    bodies += [pw.body for card in enc.p.cards.values() for pw in card.powers]
    while bodies:
        chosen: dict[str, str] = {}
        for s in bodies.pop():
            if isinstance(s, ast.Do):
                if not chosen or out.setdefault(id(s), chosen) != chosen:
                    other.add(id(s))
            for f in ("then", "else_", "body"):
                inner = getattr(s, f, None)
                if isinstance(inner, tuple) and inner and not isinstance(inner[0], (str, int)):
                    bodies.append(inner)
            if isinstance(s, (ast.CiteStmt, ast.DecisionStmt, ast.Log)):
                continue
            chosen = {}
            if isinstance(s, (ast.Choose, ast.ChooseSubset)) and not s.options.random:
                zone = _zone_named(s.coll)
                if zone is not None and zone in enc.zone_kind:
                    chosen = {s.var: zone}
    return {k: v for k, v in out.items() if k not in other}


def _zone_named(e) -> str | None:
    """The zone an expression names (``z`` or ``z[i]``), else None."""
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Index) and isinstance(e.obj, ast.Name):
        return e.obj.id
    return None


def names_read(program, expr) -> set[str]:
    """The vars and zones an expression names, through the quantities it calls (their default values)."""
    out: set[str] = set()
    seen: set[str] = set()

    def walk(node) -> None:
        if isinstance(node, ast.Name):
            if node.id in program.vars or node.id in program.zones:
                out.add(node.id)
        if isinstance(node, ast.Call) and node.func in program.quantities and node.func not in seen:
            seen.add(node.func)
            walk(program.quantities[node.func].default)
        if isinstance(node, (tuple, list)):
            for x in node:
                walk(x)
        elif dataclasses.is_dataclass(node):
            for f in dataclasses.fields(node):
                if f.name != "span":
                    walk(getattr(node, f.name))
    walk(expr)
    return out


class Coned(Unrolled):
    """The flow over its first ``rounds`` rounds, the state outside ``kept`` cut (see the module's docstring)."""

    def __init__(self, enc, kept, rounds: int, max_loops: int, **kw):
        super().__init__(enc, 0, max_loops=max_loops, follow_deal=False, **kw)
        self.kept = frozenset(kept) | frozenset(n for n, ty in enc.var_types.items()
                                                if isinstance(ty, (RecordT, GridT)))
        self.store = CutStore(self.store.base, self.kept, self.fresh_name)
        enc.cells = self.store
        self.forget()
        self.rounds = rounds
        self.writes = Writes(enc, self.kept)
        self.pruned: set[str] = set()       # the calls, actions, powers and reactions not followed
        self.scoped: list = []              # (when, span): a path that ends at the start of round rounds + 1
        self._decls = None

    def starts(self, guard) -> bool:
        """Can a path start a turn (a round) where ``guard`` holds?  Asked with :data:`START_RLIMIT` steps (see
        there): unknown is a yes, the turn (the round) is encoded."""
        return self.feasible(guard, START_RLIMIT)

    def asks_again(self, here, previous=None) -> bool:
        """Does a path ask an offer's next question (``here``)?  False only when Z3 proves none does.
        ``previous``: the offer's question before it (a :class:`Choice`; None at its first question)."""
        return self.feasible(here)

    def offer_rounds(self, s) -> int:
        """How many questions of offer ``s`` are unrolled before a path that asks again is cut."""
        return OFFER_ROUNDS

    def first_question(self, s, here) -> None:
        """Offer ``s``'s first question is asked where ``here`` holds (before its options are encoded)."""

    def round_starts(self) -> None:
        """An iteration of the rounds' `repeat` starts (before its body is encoded)."""

    def past_offer(self, s, here, previous) -> bool:
        """Does a path ask offer ``s`` a question past those unrolled?  (True: it is cut, undecided.)"""
        return self.asks_again(here, previous)

    # every decision point is one where the condition is asked; none is counted
    def _ask(self, c: Choice, asked) -> None:
        if is_const(asked) and not asked:
            return
        self.check(asked, c.span)
        self.asked.append(Asked(c, asked, self.count))

    def reactions(self, window: str) -> list:
        """The reactions whose body writes something kept (the others change nothing followed, and their use is
        read only by themselves)."""
        if self._decls is None:
            self._decls = {(self.E.def_ids[c.name], pw.name): pw for c in self.p.cards.values() for pw in c.powers}
        out = []
        for power, card, test in super().reactions(window):
            if self.writes.power(self._decls[(power.card, power.name)]):
                out.append((power, card, test))
            else:
                self.pruned.add(power.name)
        return out

    def encoder_of(self, s):
        if isinstance(s, ast.Offer):
            return _offer
        if isinstance(s, ast.CallProc) and not self.writes.procedure(s.name):
            self.pruned.add(s.name)
            return _skip
        if isinstance(s, ast.Signal) and not self.writes.window(s.window):
            return _skip
        if isinstance(s, ast.Do) and not self.writes.do(s):
            self.pruned.add(s.action)
            return _skip_do
        if _swaps_cut_zones(self.writes, s):
            return _skip
        if isinstance(s, ast.Repeat) and _calls_round(self, s):
            return _rounds
        return super().encoder_of(s)


def _skip(t: Coned, s, env, guard):
    """A call, or a window's reactions, that writes nothing kept: what it changes is cut (its failures, which
    would end the game, are not followed: more paths).  The encoder's memos are dropped, as after a write: a
    quantity read later reads the cut cells afresh."""
    t.forget()
    return None


def _skip_do(t: Coned, s: ast.Do, env, guard):
    """`do` of an action that writes nothing kept: it changes nothing followed, but an illegal action aborts the
    body it is in — whether it is legal is an unknown."""
    t.raise_(ABORT, AND(guard, t.running, z3.Bool(t.fresh_name(f"{s.action} refusé"))))
    t.forget()
    return None


def _calls_round(t: Coned, s: ast.Repeat) -> bool:
    """The rounds' `repeat`: its body calls the game's round procedure, or, in a game that names none, it is a
    statement of the flow procedure's own body."""
    if t.E.round_proc is None:
        return any(x is s for x in t.p.procedures[t.E.flow].body)
    return any(isinstance(x, ast.CallProc) and x.name == t.E.round_proc for x in s.body)


def _rounds(t: Coned, s: ast.Repeat, env, guard):
    """The rounds' `repeat`: ``rounds`` iterations; a path that would start the next ends there (the condition
    is asked there: the state after the last round searched)."""
    going = guard
    for _ in range(t.rounds):
        t.running = t.named(t.running, "en cours")
        here = t.named(AND(going, t.running), "manche")
        if not t.starts(here):
            return
        t.round_starts()
        t.run(s.body, env, here)
        done = t.expr(s.until, env)
        t.checked_partial(AND(here, t.running))
        going = AND(here, t.running, NOT(done))
    last = AND(going, t.running)
    if is_const(last) and not last:
        return
    t.check(last, s.span)
    t.scoped.append((last, s.span))
    t.running = AND(t.running, NOT(last))
    t.raised["beyond"] = OR(t.raised.get("beyond", False), last)


def _offer(t: Coned, s: ast.Offer, env, guard):
    """The offer's loop (as :func:`checker.solver.unroll._offer`), without the actions that write nothing kept,
    unrolled until no path asks again."""
    player = t.expr(s.player, env)
    t.checked_partial(guard)
    going = guard
    t.offers += 1
    previous = None
    for turn in range(t.offer_rounds(s)):
        t.running = t.named(t.running, "en cours")
        here = t.named(AND(going, t.running), "offre")
        if not t.asks_again(here, previous):
            return
        if turn == 0:
            t.first_question(s, here)
        t.forget()          # a move not offered may have changed cut cells since: quantities read them afresh
        t.enc.spent = 0
        options: list = []
        pending = False
        for item in s.items:
            if isinstance(item, ast.OfferAction):
                if t.writes.action(item.action):
                    _action_options(t, item, env, options)
                else:
                    t.pruned.add(item.action)
            elif isinstance(item, ast.OfferPowers):
                # a power whose body writes nothing kept only records its use, which only its own offer reads:
                # not offered (a mandatory one no longer holds `finish` back: more paths), and its condition is
                # not encoded (on the 4th edition, most of the offer's encoding: the district cards' powers)
                powers: list = []
                _power_options(t, item, player, env, powers, wanted=lambda power, decl: _follows(t, power, decl))
                for g, option in powers:
                    options.append((g, option))
                    if option[1].mandatory:
                        pending = OR(pending, g)
        for item in s.items:
            if isinstance(item, ast.OfferFinish):
                when = True if item.when is None else t.expr(item.when, env)
                options.append((AND(NOT(pending), when), ("finish", item.label)))
        t.checked_partial(here)
        going = AND(here, OR(*(g for g, _ in options)))
        if is_const(going) and not going:
            return
        pick = z3.Int(t.fresh_name(f"que faire ? ({t.offers}.{turn + 1})"))
        picked = [AND(g, pick == i) for i, (g, _) in enumerate(options)]
        t.constraints.append(z3.Implies(as_bool(going), as_bool(OR(*picked))))
        previous = Choice(s.span, "que faire ?", pick, going, list(options), kind="offer", chosen=going,
                          inside=OR(*picked))
        t.choices.append(previous)
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
                mark = _Mark(t)
                t.catching((ABORT,), lambda o=option, c=chosen, m=mark: m.perform(o[1], o[2], c))
            else:
                _, power, card, decl = option
                t.power(decl, player, card, {}, chosen, power)
            closed = t.raised.pop(END_TURN, False)
            if option[0] == "action":
                mark.no_stutter(chosen, closed)
            if saved is not None:
                t.raised[END_TURN] = saved
            t.running = OR(t.running, closed)
            ended = OR(ended, closed)
        going = AND(going, NOT(ended), t.running)
    if t.past_offer(s, AND(going, t.running), previous):
        t.cut(AND(going, t.running), s.span, f"its question number {OFFER_ROUNDS + 1} (an offer is unrolled "
                                             f"{OFFER_ROUNDS} times when the state is cut)")



def _follows(t: Coned, power, decl) -> bool:
    """Is a free power offered by the cut unrolling?  Only when its body writes something kept."""
    if t.writes.power(decl):
        return True
    t.pruned.add(power.name)
    return False


class _Mark:
    """An action taken at an offer's question, watched for a *stutter*: its effect aborts (the offer asks again)
    having changed no kept cell, no power's use and no card's place in a kept zone, with no point inside it where
    the condition is asked.  On the cut state such a move can be taken again and again — the legality read a cut
    cell, the effect read it afresh and aborted (a district's price: the cards enough for the legality, too
    few for the effect's `choose … subset`) — so that nothing bounds an offer's questions.  A path of the game that takes
    one is, without it, still a path of the encoding with the same kept states at every remaining point (the
    state after the stutter is the state before it on what is kept, every cut cell is read afresh): forbidding
    stutters (:meth:`no_stutter`) removes no path the answers need and keeps each a proof."""

    def __init__(self, t):
        self.t = t
        store = t.store
        self.writes = dict(store.writes)
        self.moves = len(store.moves)
        self.sites = len(getattr(t, "sites", ()))
        self.inner: list = []           # the guards of the points asked inside (decision points, a summary's peak)
        self.aborted = False

    def perform(self, name, args, chosen) -> None:
        t = self.t
        prev = t.__dict__.get("check")
        outer = t.check

        def noting(guard, span):
            self.inner.append(guard)
            outer(guard, span)
        t.check = noting
        try:
            t.perform(name, args, chosen)
        finally:
            if prev is None:
                del t.check
            else:
                t.check = prev
        self.aborted = t.raised.get(ABORT, False)

    def unchanged(self):
        """Every kept cell written since the mark holds what it held at the mark (False where not comparable)."""
        store = self.t.store
        same = [NOT(AND(m[4], OR(*m[0].values()))) for m in store.moves[self.moves:]]
        new = [k for k, v in store.writes.items() if k not in self.writes or self.writes[k] is not v]
        if new:
            now, moves = store.writes, store.moves
            store.writes = Written(set())
            dict.update(store.writes, self.writes)
            store.moves = moves[:self.moves]
            try:
                old = {k: self.writes[k] if k in self.writes else store.read(k) for k in new}
            finally:
                store.writes, store.moves = now, moves
            same += [EQ(now[k], old[k]) for k in new]
        return AND(*same)

    def no_stutter(self, chosen, closed) -> None:
        t = self.t
        if is_const(self.aborted) and not self.aborted:
            return
        peaks = [s.guard for s in getattr(t, "sites", ())[self.sites:]]
        quiet = AND(*(NOT(g) for g in self.inner + peaks))
        stutter = AND(chosen, self.aborted, NOT(closed), quiet, self.unchanged())
        if not (is_const(stutter) and not stutter):
            t.constraints.append(z3.Not(as_bool(stutter)))
