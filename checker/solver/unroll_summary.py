"""unroll_summary: a procedure's calls replaced by a summary that Z3 proves — the cut unrolling of
:mod:`checker.solver.unroll_cone` with ``rulebook reach --rounds N --summarise PROC``.

The cut unrolling follows every move that writes a kept zone; with a city kept, that is every district built,
over every turn of N rounds, which does not finish on the 4th edition.  Here each call of the procedure PROC
(one player's moves in a turn, say) is not unrolled where it is called.  Instead:

- **The summary** (:class:`Summarised`): after the call, every kept name that PROC may write — read from the
  program's text, transitively (:func:`written`) — is *havoc* (an unknown, fresh for this call), and so is
  every power's use; the zones CONDITION reads that are indexed by a player (the *watched* zones) are havoc
  too, but each may hold at most ``bound(q)`` more cards than before the call: ``own`` more for the player
  passed as PROC's first Player parameter, ``other`` more for every other.  CONDITION is asked twice: at a
  *peak* state (the same bounds) that stands for every decision point inside the call, and after it.
  Path functions (``changes``, ``initially``) are refused: the points inside a call are not counted.
- **The lemma** (:class:`LemmaUnrolled`, asked by :mod:`checker.reach.summary`): PROC is unrolled once per
  kind of call (its arguments other than the owner, constants), from a *symbolic* state — every kept cell an
  unknown, every cut cell an unknown at each read, the owner any player — constrained only by the
  *preconditions*: the kept vars (without an index) that the main unrolling proves equal, at every call of
  that kind, to one of the call's arguments or to one constant.  Z3 then finds the least ``own`` and
  ``other`` such that no path of PROC, at any decision point inside it or at its end, has a watched zone
  grown by more; and it proves that no path of PROC reaches a place the unrolling does not follow, and that
  none leaves PROC with something in flight.  The bounds are then the summary's.

Why the answer stays a proof: by induction along a path of the game, at each call the state meets the
preconditions (proven on the over-approximation, which has every path of the game up to that call, the calls
before it summarised soundly), so the lemma holds for that call: every state the call goes through and ends
in is one of the summary's (a value of its unknowns).  The over-approximation with summaries still has every
path of the game; a proof on it is a proof for the game.
"""

from __future__ import annotations

import z3

from checker.front import ast
from checker.front.types import BOOL, INT, PLAYER, GridT, RecordT
from checker.solver.encode import AND, EQ, ITE, NOT, Unsupported, as_bool, is_const
from checker.solver.factory import SolverSettings, make_solver
from checker.solver.terms import conjuncts
from checker.solver.unroll_cone import Coned, CutStore
from checker.solver.unroll_counted import Counted

__all__ = ["Summarised", "LemmaUnrolled", "Mark", "HavocStore", "Site", "written", "owner_of", "entailed", "USED"]

USED = "\0used"         # in a havoc's names: every power's use
ENTAILED_RLIMIT = 1_000_000     # the steps of the question that proves a precondition read off a call's guard
OFFER_RLIMIT = 100_000_000      # the steps of a lemma's question "does the offer ask again?" asked afresh
CASE_RLIMIT = 20_000_000        # the steps of each case of that question split by the option taken before it


def owner_of(enc, name: str) -> int | None:
    """The position of the procedure's first Player parameter (its *owner*), or None."""
    for i, prm in enumerate(enc.p.procedures[name].params):
        if enc.resolve(prm.type) == PLAYER:
            return i
    return None


class _Walk:
    """The names a procedure may write, read from the program's text through what it calls."""

    def __init__(self, enc):
        self.enc, self.p, self.E = enc, enc.p, enc.E
        present = set(enc.E.defs)
        self.cards = [c for c in self.p.cards.values() if enc.E.def_ids.get(c.name) in present]
        self.out: set[str] = set()
        self.anything = False
        self.seen: set = set()

    def zones_of_kind(self, zone: str) -> set[str]:
        kind = self.enc.zone_kind.get(zone)
        return {z for z, k in self.enc.zone_kind.items() if k == kind}

    def entry(self, key) -> None:
        if key in self.seen:
            return
        self.seen.add(key)
        kind, name = key
        if kind == "procedure":
            self.block(self.p.procedures[name].body)
        elif kind == "action":
            for anc in self.enc.ancestors(name):
                decl = self.p.actions[anc]
                if decl.body is not None:
                    self.block(decl.body)
                    break
            for h in self.p.hooks:
                if h.action in self.enc.ancestors(name):
                    self.entry(("window", h.window))
        elif kind == "window":
            for card in self.cards:
                for pw in card.powers:
                    if pw.window is not None and pw.window[0] == name:
                        self.block(pw.body)
        elif kind == "powers":
            for card in self.cards:
                for pw in card.powers:
                    if pw.window is None:
                        self.block(pw.body)

    def block(self, body) -> None:
        for s in body:
            self.stmt(s)

    def stmt(self, s) -> None:
        if isinstance(s, (ast.Let, ast.Choose, ast.ChooseSubset, ast.Shuffle, ast.Reveal, ast.Log, ast.CiteStmt,
                          ast.DecisionStmt, ast.EndTurn, ast.Stop, ast.Cancel)):
            return
        if isinstance(s, ast.SetVar):
            self.out.add(s.target.name)
        elif isinstance(s, ast.Reset):
            self.out.add(s.name)
        elif isinstance(s, ast.Transfer):
            self.out |= {s.source.name, s.target.name}
        elif isinstance(s, ast.Move):
            # the card leaves whatever zone it is in: every zone of its kind, unless the source is named
            dest = s.dest.target.name
            self.out.add(dest)
            source = _zone_of(s.what, self.p)
            self.out |= {source} if source is not None else self.zones_of_kind(dest)
        elif isinstance(s, ast.Draw):
            self.out |= {s.source.name, s.dest.target.name}
        elif isinstance(s, ast.If):
            self.block(s.then)
            self.block(s.else_)
        elif isinstance(s, (ast.For, ast.Repeat)):
            self.block(s.body)
        elif isinstance(s, ast.Do):
            self.entry(("action", s.action))
        elif isinstance(s, ast.CallProc):
            if s.name in (self.E.turn_proc, self.E.round_proc):
                self.anything = True
            self.entry(("procedure", s.name))
        elif isinstance(s, ast.Signal):
            self.entry(("window", s.window))
        elif isinstance(s, ast.Offer):
            for item in s.items:
                if isinstance(item, ast.OfferAction):
                    self.entry(("action", item.action))
                elif isinstance(item, ast.OfferPowers):
                    self.entry(("powers", None))
        elif isinstance(s, ast.Swap) and all(_zone_of(x, self.p) for x in (s.left, s.right)):
            self.out |= {_zone_of(s.left, self.p), _zone_of(s.right, self.p)}     # two zones exchange contents
        elif isinstance(s, ast.Retarget):
            return                          # gives the action back: writes nothing
        else:
            self.anything = True            # a swap of cards,  `each … chooses`, an install: not read here


def _zone_of(e, program) -> str | None:
    """The zone an expression names (``z`` or ``z[i]``), else None."""
    if isinstance(e, ast.Name) and e.id in program.zones:
        return e.id
    if isinstance(e, ast.Index) and isinstance(e.obj, ast.Name) and e.obj.id in program.zones:
        return e.obj.id
    return None


def written(enc, name: str) -> set[str] | None:
    """The vars and zones procedure ``name`` may write (None: any, a statement this reading does not know)."""
    w = _Walk(enc)
    w.entry(("procedure", name))
    return None if w.anything else w.out


class HavocStore(CutStore):
    """The cut state, where a summary may make kept cells unknowns from a point on (:meth:`havoc`)."""

    def __init__(self, base, kept, fresh):
        super().__init__(base, kept, fresh)
        self.havocs: list[tuple] = []       # (guard, names or None for all, tag)
        self._made: dict = {}

    def _fresh_value(self, tag: int, key: tuple):
        made = self._made.get((tag, key))
        if made is None:
            if key[0] == "var":
                ty = self.enc.var_types[key[1]]
                if isinstance(ty, (RecordT, GridT)):
                    raise Unsupported(f"a summarised procedure writes {key[1]}, a record or a grid: not encoded")
                made = (z3.Bool if ty == BOOL else z3.Int)(self.fresh(f"résumé {key[1]}"))
            else:
                made = z3.Bool(self.fresh(f"résumé {key[1]}"))
            self._made[(tag, key)] = made
        return made

    @staticmethod
    def _hit(names, key: tuple) -> bool:
        return names is None or (USED in names if key[0] == "used" else key[1] in names)

    def _after(self, key: tuple, value):
        """A cell not written since the start: its value through the havocs so far, kept as written (a later
        havoc wraps it), so that each read does not rebuild the chain."""
        for guard, names, tag in self.havocs:
            if self._hit(names, key):
                value = ITE(guard, self._fresh_value(tag, key), value)
        if self.havocs:
            self.writes[key] = value
        return value

    def var(self, name: str, index):
        if self._cut_var(name):
            return super().var(name, index)
        key = ("var", name, index)
        if key in self.writes:
            return self.writes[key]
        return self._after(key, self.base.var(name, index))

    def member(self, zone: str, index, inst: int):
        if zone not in self.kept:
            return super().member(zone, index, inst)
        key = ("in", zone, index, inst)
        if key in self.writes:
            return self.writes[key]
        return self._after(key, self.base.member(zone, index, inst))

    def used(self, player: int, inst: int, name: str, scope: str):
        key = ("used", player, inst, name, scope)
        if key in self.writes:
            return self.writes[key]
        return self._after(key, self.base.used(player, inst, name, scope))

    def havoc(self, guard, names) -> None:
        """From here, where ``guard`` holds, each kept cell of ``names`` (None: all) is an unknown of its own."""
        tag = len(self.havocs)
        self.havocs.append((guard, names, tag))
        for key in list(self.writes):
            if self._hit(names, key):
                self.writes[key] = ITE(guard, self._fresh_value(tag, key), self.writes[key])


class Site:
    """One call of the summarised procedure in the main unrolling."""

    def __init__(self, guard, args, values: dict, own, other, span):
        self.guard, self.args, self.values, self.own, self.other, self.span = guard, args, values, own, other, span

    def kind(self, owner: int | None) -> tuple:
        """The lemma this call needs: its arguments besides the owner (None where not a constant)."""
        return tuple("*" if i == owner else (a if is_const(a) else None) for i, a in enumerate(self.args))


def _under(here, value):
    """``value`` where ``here`` holds, when that is one constant (a Z3 value), else None.  Each conjunct of ``here``
    (its top-level conjunction, flattened) is replaced by true in ``value`` (a negated one: its atom by false) and
    the result simplified.  Where ``here`` holds, each conjunct does, so the value is the same: a constant when
    the writes that made it are guarded by those conjuncts (a var set at the start of the procedure that makes
    the call, on every path to it).  No question is asked here (:func:`entailed` then proves it); None is no
    answer, never a wrong one."""
    if is_const(here) or is_const(value) or isinstance(value, tuple):
        return None
    subs = [(c.arg(0), z3.BoolVal(False)) if z3.is_not(c) else (c, z3.BoolVal(True)) for c in conjuncts(here)]
    folded = z3.simplify(z3.substitute(value, *subs))
    return folded if z3.is_int_value(folded) or z3.is_true(folded) or z3.is_false(folded) else None


def entailed(here, value, folded) -> bool:
    """Z3 proves that ``here`` implies ``value == folded``: the question ``here and value != folded`` is unsatisfiable
    by itself (without the unrolling's constraints, which could only remove models), so it holds on every path.
    It is small — the guard's conjuncts decide the value's if-then-else — and has its own solver, with a resource
    limit of :data:`ENTAILED_RLIMIT` steps.  Anything but unsat (unknown included) is no proof.  The solver is
    incremental (Z3's SMT core): without it Z3 asks its one-shot QF_LIA tactic, which ended unknown at the million
    steps on 63 of the 4th edition's two rounds' calls (7.8 s), where the core answers unsat in a few
    milliseconds."""
    solver = make_solver(SolverSettings(incremental=True, rlimit=ENTAILED_RLIMIT, minimize_cores=False))
    solver.add(as_bool(here), NOT(EQ(value, folded)))
    return solver.check() == z3.unsat


def _value(v):
    """A Z3 value as the encoder's constants are (an int, a bool)."""
    return v.as_long() if z3.is_int_value(v) else z3.is_true(v)


def _same_type(a, b) -> bool:
    return str(a).rstrip("?") == str(b).rstrip("?")


def _leaves(value, most: int = 4) -> list:
    """The constants at the leaves of ``value``'s if-then-else terms (at most ``most``): the values it may take."""
    out, seen, todo = [], set(), [value] if not is_const(value) and not isinstance(value, tuple) else []
    while todo and len(out) < most:
        v = todo.pop()
        if v.get_id() in seen:
            continue
        seen.add(v.get_id())
        if z3.is_app_of(v, z3.Z3_OP_ITE):
            todo += [v.arg(2), v.arg(1)]
        elif z3.is_int_value(v) or z3.is_true(v) or z3.is_false(v):
            out.append(v)
    return out


class Summarised(Coned):
    """The cut unrolling with the calls of ``summarise`` replaced by summaries (see the module's docstring)."""

    def __init__(self, enc, kept, rounds: int, max_loops: int, summarise: str, watched, **kw):
        super().__init__(enc, kept, rounds, max_loops, **kw)
        self.store = HavocStore(self.store.base, self.kept, self.fresh_name)
        enc.cells = self.store
        self.forget()
        self.summarise = summarise
        self.owner = owner_of(enc, summarise)
        self.watched = [z for z in watched if z in self.kept and self._player_indexed(z)]
        names = written(enc, summarise)
        self.havocked = None if names is None else (names & self.kept) | {USED}
        self.sites: list[Site] = []
        self.counted = Counted(self, _implies)      # the question over the watched zones' counts: unroll_counted

    def _player_indexed(self, zone: str) -> bool:
        ty = self.enc.zone_index_types.get(zone)
        return ty == PLAYER

    def counts(self) -> dict:
        """(zone, seat) -> how many cards the zone holds now (a term)."""
        out = {}
        for z in self.watched:
            kind = self.enc.zone_kind[z]
            for q in self.enc.seats:
                out[(z, q)] = sum(z3.If(as_bool(m), 1, 0) if not is_const(m) else int(bool(m))
                                  for m in (self.store.member(z, q, inst) for inst in self.enc.kind_instances[kind]))
        return out

    def check(self, guard, span) -> None:
        self.enc.spent = 0          # the limit of one encoding applies to each point where the condition is asked
        super().check(guard, span)
        self.counted.point(guard)

    def round_starts(self) -> None:
        self.counted.round_starts()

    def _holding(self, here, args, values: dict) -> dict:
        """var -> what it is proven to equal at this call on every path (the question "can a path go on?" is
        asked, with its resource limit: unknown drops the candidate): ("arg", i) or ("const", a Z3 value); None
        when no path makes the call."""
        out = {}
        params = [self.enc.resolve(prm.type) for prm in self.p.procedures[self.summarise].params]
        model = None
        for v, value in values.items():
            ty = self.enc.var_types[v]
            folded = _under(here, value)
            self.questions += folded is not None
            if folded is not None and entailed(here, value, folded):
                # the value where the call is made, read off the guard, then proven by an unsat question
                same = [i for i, a in enumerate(args) if is_const(a) and not isinstance(a, tuple)
                        and _same_type(ty, params[i]) and _value(folded) == a]
                out[v] = ("arg", same[0]) if same else ("const", folded)
                continue
            for i, pty in enumerate(params):
                if _same_type(ty, pty) and not self.feasible(AND(here, NOT(EQ(value, args[i])))):
                    out[v] = ("arg", i)
                    break
            else:
                if is_const(value):
                    out[v] = ("const", z3.BoolVal(value) if isinstance(value, bool) else z3.IntVal(value))
                    continue
                found = next((k for k in _leaves(value) if not self.feasible(AND(here, NOT(EQ(value, k))))), None)
                if found is not None:       # a constant the value may take, proven the only one: an unsat question,
                    out[v] = ("const", found)   # cheaper than the model below (a sat one), which often ends unknown
                    continue
                if model is None:
                    if not self.feasible(here):
                        return None             # no path makes this call
                    model = self._model(here)
                if model is False:
                    continue
                k = model.eval(as_bool(value) if z3.is_bool(value) else value, model_completion=True)
                if not self.feasible(AND(here, NOT(EQ(value, k)))):
                    out[v] = ("const", k)
        return out

    def _model(self, here):
        """A model of the paths to this call (False when Z3 gives none within its limit)."""
        self.feasible(z3.Bool(self.fresh_name("modèle")))         # the solver made, told every constraint
        self.questions -= 1
        answer = self._solver.check(as_bool(here) if not is_const(here) else z3.BoolVal(bool(here)))
        return self._solver.model() if answer == z3.sat else False

    def procedure(self, name: str, args: tuple, guard=True, span=None) -> None:
        if name != self.summarise:
            return super().procedure(name, args, guard, span)
        here = AND(guard, self.running)
        if is_const(here) and not here:
            return
        values = {v: self.store.var(v, None) for v in sorted(self.kept) if v in self.p.vars
                  and self.p.vars[v].index is None and not isinstance(self.enc.var_types[v], (RecordT, GridT))}
        self.sites.append(Site(here, args, self._holding(here, args, values), None, None, span))
        own = z3.Int(self.fresh_name(f"borne {name} (propre)"))
        other = z3.Int(self.fresh_name(f"borne {name} (autres)"))
        self.sites[-1].own, self.sites[-1].other = own, other
        self.enc.spent = 0
        before = self.counts()
        self.counted.before()
        owner = args[self.owner] if self.owner is not None else None
        for step in ("pic", "après"):
            self.store.havoc(here, self.havocked)
            self.forget()
            after = self.counts()
            first = len(self.constraints)
            for (z, q), n in after.items():
                bound = own if owner is None else ITE(EQ(owner, q), own, other)   # no owner: own for all
                self.constraints.append(z3.Implies(as_bool(here), n <= before[(z, q)] + bound))
            self.counted.havoc(len(self.sites) - 1, here, owner, first)
            if step == "pic":
                self.check(here, span)          # every decision point inside the call
        self.forget()


class Mark:
    """An offer's question in a lemma, where it is asked (``choice.reached``): the watched zones' members and the
    kept counters there (each under a name of its own), how many constraints there were when they were named (the
    constraints after it are those of the moves that follow it) and when the question was made."""

    def __init__(self, choice, members: dict, counters: dict, since: int, until: int):
        self.choice, self.members, self.counters, self.since, self.until = choice, members, counters, since, until


class LemmaUnrolled(Coned):
    """One call of the summarised procedure from a symbolic state: the watched zones' members at every decision
    point inside it and at its end (:attr:`points`)."""

    def __init__(self, enc, kept, max_loops: int, watched, **kw):
        super().__init__(enc, kept, 1, max_loops, **kw)
        self.watched = list(watched)
        self.points: list[tuple] = []           # (guard, {(zone, seat): [whether each card is in it]})
        self.ranked: list[str] = []             # the facts "a counter grew" proven at an offer's questions (shown)
        self._pending = ({}, 0)                 # the counters at the last question "does the offer ask again?", and
        #                                         how many constraints there were then
        self._steps: list[tuple] = []           # (here, the question before, its counters and constraints' count,
        #                                         the counters now, the constraints' count now): an offer's steps
        self._ranked = 0                        # how many of them :meth:`rank` asked
        self.marks: list[Mark] = []             # each offer's question asked: its state (checkpoints of the ranking)
        self.at: list[tuple] = []               # for each of :attr:`points`: (the counters there, the constraints'
        #                                         count, how many marks before it)
        self.most_questions = None              # the question before -> how many questions its offer asks at most
        #                                         (proven: a step, unroll_step.stepped_questions), or None
        self.stepped: list[str] = []            # the offers' questions closed by it

    def members(self) -> dict:
        """(zone, seat) -> whether each card of the zone's kind is in it now (a term or a constant each, in the
        order of the kind's instances)."""
        out = {}
        for z in self.watched:
            kind = self.enc.zone_kind[z]
            for q in self.enc.seats:
                out[(z, q)] = [self.store.member(z, q, inst) for inst in self.enc.kind_instances[kind]]
        return out

    def added(self, before: dict, now: dict, owner=None, seat=None, seen: dict | None = None) -> dict:
        """(zone, seat) -> the Bools "this card is in the zone now and was not in it before", for the cards whose
        place may differ (a member that is the same term as before, or false now, adds nothing).  Their count
        bounds how much the zone grew: it holds ``before - removed + added`` cards.  With ``owner`` (the lemma's
        player, a term) and ``seat``: where the owner is that seat — a member that can be true only where the
        owner is another seat (a card moved to the owner's zone, read in another seat's) adds nothing either; the
        Bools are then to be asked with ``owner == seat``.  ``seen``: what the shapes read found so far, kept by the
        caller across the points of one seat (the terms of one point are mostly those of the point before)."""
        out = {}
        seen = {} if seen is None else seen
        fixed = None if owner is None or seat is None else (owner, seat)
        for key, members in now.items():
            same = ("zone", key, tuple(m if is_const(m) else m.get_id() for m in members))
            if same in seen:            # the members of the point before, read already
                out[key] = seen[same]
                continue
            out[key] = seen[same] = [
                as_bool(AND(m, NOT(b))) for m, b in zip(members, before[key])
                if not (is_const(m) and (not m or (is_const(b) and b)))
                and not (not is_const(m) and fixed is not None and _false_where(as_bool(m), fixed, seen))
                and not (not is_const(b) and not is_const(m) and _implies(as_bool(m), as_bool(b), seen, fixed))]
        return out

    def asks_again(self, here, previous=None) -> bool:
        """As the cut unrolling asks it; where its question ends unknown at its steps (a turn's offer, from the second
        question on, on the 4th edition), a fresh solver asks it again with :data:`OFFER_RLIMIT` steps; where that
        ends unknown too, the offer's *ranking* facts (:meth:`rank`) are proven and the fresh solver asked again; and
        last, case by case (:meth:`by_option`).  Unsat ends the offer there, proven: the lemma then need not unroll it
        :data:`~checker.solver.unroll_cone.OFFER_ROUNDS` times and ask whether a path goes beyond (a larger question,
        which ended unknown)."""
        if not self.feasible(here):
            return False
        counters = self._counters()
        for v, value in counters.items():      # each under a name of its own: a step's terms read it, not its past
            if not is_const(value) and not z3.is_const(value):
                counters[v] = self.named(value, v)
                self.store.write(("var", v, None), counters[v], True)
        self._pending = (counters, len(self.constraints))
        mark = next((m for m in reversed(self.marks) if m.choice is previous), None) if previous is not None else None
        if mark is not None:            # the question before, recorded where it was asked (:meth:`decided`)
            self._steps.append((here, previous, mark.counters, mark.since, counters, len(self.constraints)))
        if is_const(here) or self._solver.reason_unknown() == "":
            return True
        if previous is not None and self.most_questions is not None:
            most = self.most_questions(previous)        # the offer's questions bounded by a step (unroll_step.py)
            if most is not None and sum(m.choice.span == previous.span for m in self.marks) >= most:
                self.stepped.append(f"the offer at {previous.span} asks at most {most} questions")
                return False
        answer = self._afresh(here)
        if answer is None and self.rank():
            answer = self._afresh(here)
        if answer is not None:
            return answer
        return previous is None or not self.by_option(here, previous)

    def _afresh(self, here):
        """``here`` asked of a fresh solver with :data:`OFFER_RLIMIT` steps: True (sat), False (unsat), None."""
        solver = make_solver(SolverSettings(incremental=False, rlimit=OFFER_RLIMIT, minimize_cores=False))
        solver.add(*[as_bool(c) for c in self.constraints])
        self.questions += 1
        answer = solver.check(as_bool(here))
        return None if answer == z3.unknown else answer == z3.sat

    def _counters(self) -> dict:
        """The kept Int vars without an index, as they are now (terms)."""
        return {v: self.store.var(v, None) for v in sorted(self.kept)
                if v in self.p.vars and self.p.vars[v].index is None and self.enc.var_types[v] == INT}

    def decided(self, c) -> None:
        if c.kind == "offer":
            counters, since = self._pending         # the counters where this question is asked
            self.marks.append(Mark(c, self.members(), dict(counters), since, len(self.constraints)))
        super().decided(c)

    def rank(self) -> bool:
        """The *ranking* facts of the offers' steps not asked yet: for each kept counter (an Int var without an
        index, named at each question) written in a step — from a question to the next one of the same offer —
        "where the offer asks again, the counter is at least one more than it was at the question before", proven
        option by option (:meth:`by_option`, the question "it asks again and the counter did not grow") and then
        added to the constraints: implied by them, it removes no path, but it is a fact Z3 does not find by itself
        across several questions.  On the 4th edition, a turn whose permit allows three districts: the count of
        districts built grows at every question that lets the offer ask again, and the permit's bound is then to
        close the fifth question by arithmetic, where the whole question ended unknown at 100 million steps.  Each
        fact is asked of the step's own constraints only (those made from the question before to this one): fewer
        constraints, more models, so unsat there is unsat with all of them (asked with every constraint, the cases
        of that turn's third step took minutes).  True when a fact was added."""
        added = False
        while self._ranked < len(self._steps):
            here, previous, then, since, now, until = self._steps[self._ranked]
            self._ranked += 1
            for v, old in then.items():
                new = now.get(v)
                if new is None or (is_const(new) and is_const(old)) or (not is_const(new) and not is_const(old)
                                                                         and new.eq(old)):
                    continue
                grows = new >= old + 1
                if self.by_option(AND(here, NOT(grows)), previous, since, until):
                    self.constraints.append(z3.Implies(as_bool(here), grows))
                    self.ranked.append(f"{v} grows at each question that follows one of {previous.span}")
                    added = True
        return added

    def by_option(self, here, previous, since: int = 0, until: int | None = None) -> bool:
        """Is ``here`` (the offer asks again) proven unreachable one option of the question before it at a time?  A
        path that asks again answered ``previous`` (the offer's question before) with one of its options, so the
        question is the disjunction of one case per option, "``here`` and that option taken" — which Z3 is asked to
        check first: ``here`` with no option taken is unsatisfiable.  Each case is then asked of a solver of its own
        (:data:`CASE_RLIMIT` steps), the answer substituted in every constraint and pre-processed (:func:`_case`), so
        the terms of the other options fold away: a case split Z3 does not make by itself (each district built in a
        4th edition turn is a small question; all of them, with the pick an unknown, are not).  True only when every
        case is unsat; a case satisfiable or unknown: False (the offer is followed further, as when it is not split).
        ``since``, ``until``: only the constraints of that slice are asked (fewer constraints: an unsat answer holds
        for all)."""
        pick = previous.value
        cases = [i for i, (g, _) in enumerate(previous.options) if not (is_const(g) and not g)]
        facts = [as_bool(c) for c in self.constraints[since:until]]
        cover = make_solver(SolverSettings(incremental=True, rlimit=CASE_RLIMIT, minimize_cores=False))
        cover.add(*facts)
        self.questions += 1
        if cover.check(as_bool(here), *[pick != i for i in cases]) != z3.unsat:
            return False            # the cases are not shown to be the whole question
        for i in cases:
            solver = make_solver(SolverSettings(incremental=True, rlimit=CASE_RLIMIT, minimize_cores=False))
            solver.add(_case(facts + [as_bool(here)], pick, i))
            self.questions += 1
            if solver.check() != z3.unsat:
                return False
        return True

    def check(self, guard, span) -> None:
        if is_const(guard) and not guard:
            return
        self.forget()
        self.points.append((guard, self.members()))
        self.at.append((self._counters(), len(self.constraints), len(self.marks)))

    def call(self, name: str, args: tuple) -> None:
        self.start = self._counters()           # the kept counters where the call starts
        self.procedure(name, args, True, self.p.procedures[name].span)
        self.check(self.running, None)

    def escaping(self):
        """When a path leaves the procedure with something in flight (a stop, an abort, an end of turn …)."""
        return [(k, g) for k, g in self.raised.items() if k != "cut" and not (is_const(g) and not g)]


# Z3's pre-processing of one case: what is known folded, equations solved, and the cut cells' unknowns, which nothing
# else constrains, eliminated with the terms that read them (a cut treasury compared with a sum of 0/1 terms becomes
# one Bool): each step keeps the formula satisfiable exactly when it was
PREPARE = ("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "simplify")


def _case(facts: list, pick, i: int):
    """The conjunction of ``facts`` with ``pick`` (an Int unknown) replaced by ``i``, pre-processed (:data:`PREPARE`):
    satisfiable exactly when ``facts`` and ``pick == i`` are.  On the 4th edition's turn, the option of a district
    paid partly in cards (a `choose … subset` whose 68 picks compare sums of 67 0/1 terms with a treasury read
    afresh) ended unknown at 100 million steps asked as an assumption, and so with the pick substituted;
    pre-processed, unsat in about a second."""
    goal = z3.Goal()
    goal.add(*[z3.substitute(f, (pick, z3.IntVal(i))) for f in facts])
    return z3.Then(*PREPARE)(goal).as_expr()


def _implies(m, b, seen: dict, fixed=None) -> bool:
    """``m`` implies ``b`` by its shape: it is ``b``, false, an if-then-else whose two branches imply ``b``, or a
    conjunction one of whose terms does (a card only taken out of a zone: false written over what it was).  With
    ``fixed`` (a term, a seat): where that term is that seat — a term false there (:func:`_false_where`) implies
    anything, and an if-then-else whose condition is false there is its second branch.  No question is asked;
    False is no answer, never a wrong one."""
    if m.eq(b) or z3.is_false(m):
        return True
    key = (m.get_id(), b.get_id())
    if key in seen:
        return seen[key]
    seen[key] = False
    if fixed is not None and _false_where(m, fixed, seen):
        out = True
    elif z3.is_app_of(m, z3.Z3_OP_ITE):
        if fixed is not None and _false_where(m.arg(0), fixed, seen):
            out = _implies(m.arg(2), b, seen, fixed)
        else:
            out = _implies(m.arg(1), b, seen, fixed) and _implies(m.arg(2), b, seen, fixed)
    elif z3.is_and(m):
        out = any(_implies(m.arg(i), b, seen, fixed) for i in range(m.num_args()))
    else:
        out = False
    seen[key] = out
    return out


def _false_where(t, fixed, seen: dict) -> bool:
    """Is the Bool ``t`` false, by its shape, where the term ``fixed[0]`` equals the seat ``fixed[1]``: it is false,
    an equation of that term with another seat, a conjunction one of whose terms is, a disjunction or an
    if-then-else all of whose branches are, or the negation of an equation of that term with that seat.  No
    question is asked; False is no answer, never a wrong one."""
    if z3.is_false(t):
        return True
    key = ("false where", t.get_id())
    if key in seen:
        return seen[key]
    seen[key] = False
    term, seat = fixed
    if z3.is_eq(t):
        out = _equation_seat(t, term) not in (None, seat)
    elif z3.is_not(t):
        out = z3.is_eq(t.arg(0)) and _equation_seat(t.arg(0), term) == seat
    elif z3.is_and(t):
        out = any(_false_where(t.arg(i), fixed, seen) for i in range(t.num_args()))
    elif z3.is_or(t):
        out = all(_false_where(t.arg(i), fixed, seen) for i in range(t.num_args()))
    elif z3.is_app_of(t, z3.Z3_OP_ITE):
        out = _false_where(t.arg(0), fixed, seen) and _false_where(t.arg(2), fixed, seen) or \
            _false_where(t.arg(1), fixed, seen) and _false_where(t.arg(2), fixed, seen)
    else:
        out = False
    seen[key] = out
    return out


def _equation_seat(eq, term):
    """The seat (an int) ``eq`` equates ``term`` with (``term == k`` or ``k == term``), else None."""
    a, b = eq.arg(0), eq.arg(1)
    if a.eq(term) and z3.is_int_value(b):
        return b.as_long()
    if b.eq(term) and z3.is_int_value(a):
        return a.as_long()
    return None
