"""The symbolic-state search that legality, the conflict finder and `diff` share.

Every card of the spec is in the universe; the state is symbolic (one Z3 constant per cell a
rule reads, :class:`~checker.solver.encode.Cells`), bounded by well-formedness (a card is in one
place at most, counters and integers are natural numbers up to :data:`BOUND`, a var holds a value
of its type) and by the spec's `invariant`s (assumed by a question only when a model it gets breaks one,
:class:`Assumed`: the same answers, with less for Z3 to reason on).  A witness found on it is a state a legal game can be set
up for when there is one (:mod:`checker.solver.selection`), kept small (:mod:`checker.solver.minimise`),
and written as state and move files the interpreter re-judges (:mod:`checker.solver.witness`).
"""

from __future__ import annotations

import dataclasses
import weakref

import z3

from checker.front import ast
from checker.front.configurations import ConfigEvalError
from checker.base.limits import MAX_RECORD_SET
from checker.runtime.engine import Engine
from checker.solver.bounded import later_copies, restricted
from checker.solver.conditions import Conditions
from checker.solver.encode import AND, NONE, Encoder, Unsupported, is_const
from checker.solver.factory import SolverSettings, fresh_context, make_solver, run
from checker.solver.minimise import SEARCH_TIGHTENING_RLIMIT, count_true, smallest
from checker.solver.selection import (Chosen, Selections, away_from_start, forbidding, keep_if_sat, kinds_read,
                                      required_cards, required_formulas)
from checker.solver.shapes import field_domain, record_values, window
from checker.solver.statefile import player_range
from checker.solver.template import Invariants
from checker.solver.terms import assert_all, mk_atmost, mk_eq, mk_implies, mk_or
from checker.front.types import BOOL, INT, PLAYER, Coll, EnumT, GridT, KindT, Opt, RecordT

__all__ = ["SymbolicSearch", "Claim", "Assumed", "BOUND", "ILLEGAL"]

BOUND = 100          # integers of a symbolic state are 0..BOUND
MAX_SET = 256        # the possible values of a symbolic set
ILLEGAL = "cannot arise in a legal game"


@dataclasses.dataclass(frozen=True)
class Claim:
    """What a permission says about a prohibition (see :meth:`Search.claim`)."""

    status: str                     # settled | general | exception | unrelated | unknown
    winner: str | None = None       # settled: the rule that wins …
    how: str | None = None          # … by "overrides" or "precedence"
    via: str | None = None          # exception (or unknown): the overridden rule it is (maybe) a special case of
    reason: str = ""                # unknown: Z3's reason

    @property
    def unresolved(self) -> bool:
        """The permission claims the prohibition and nothing says which wins: a contradiction."""
        return self.status in ("general", "exception")

    def why(self, permit: str, forbid: str) -> str:
        if self.status == "exception":
            return f"{forbid} is a special case of {self.via}, which {permit} overrides"
        return f"{permit} is a general permission"

    def says(self, permit: str, forbid: str) -> str:
        """For an unknown claim: what could not be decided."""
        return (f"cannot tell whether {forbid} is a special case of {self.via}, which {permit} overrides, "
                f"so whether {permit} contradicts {forbid}")


class Assumed:
    """The spec's invariants for one question, assumed only when a model breaks one (counter-example guided).

    A question is asked on the well-formed states of its own cells, without the invariants and the cells only they
    read: an unsat is the question's unsat with them too (it asserts less).  A model is judged on them: the
    invariants and the bounds of their cells, the cells it leaves free completed (false, or 0: no card placed
    there); when it meets them, it is a model of the question with them (those cells as completed: no bound, no
    card selected, broken).  When it breaks one, the question's encoder makes their cells, and what the question
    with them asserts more (the invariants, those cells' bounds, the cards they place selected) is asserted, and
    the check asked again: every model a check gives meets every invariant, and every answer is the one the
    question with them gets.  Most questions are about rules the invariants say nothing against: neither Python
    nor Z3 spends anything on the invariants' sums and cells (the 4th edition's read every character in front of
    every player)."""

    def __init__(self, search, enc: Encoder, asserted: list, known: dict | None = None, ids: set = frozenset()):
        """``asserted``: what the question asserts (and ``ids``, the ids of more); ``known``: as for
        :meth:`SymbolicSearch.well_formed`."""
        self.search, self.enc, self.known = search, enc, known
        self._ids = {f.get_id() for f in asserted if not is_const(f)} | set(ids)
        self._test = None           # the invariants and their cells' bounds, on an encoder of their own
        self._extra: list | None = None     # what the question with them asserts more
        self.times = 0              # the checks whose model broke an invariant (asked again with them)
        self.kept: list = []        # the solvers they are asserted in at their base (no `pop` takes them away)

    def meets(self, model) -> bool:
        if self._test is None:
            probe = self.search.encoder()       # the same context: its cells are the question's, by name
            formulas = self.search.well_formed(probe)
            self._test = z3.And([z3.BoolVal(f) if isinstance(f, bool) else f for f in formulas])
        return z3.is_true(model.eval(self._test, model_completion=True))

    def extra(self) -> list:
        """What the question asserts more with the invariants: they, and, on the cells they read that it did not
        make (made now, in its encoder), the bounds and the cards selected (:func:`~checker.solver.selection.
        required_formulas`: a constraint on the selection only where one is asserted)."""
        if self._extra is None:
            search, enc = self.search, self.enc
            before = set(enc.cells.made)
            formulas = search.well_formed(enc, dict(self.known) if self.known is not None else None)
            required = [(search.engine.def_names[search.engine.defs[key[3]]], cell)
                        for key, cell in away_from_start(search.engine, enc) if key not in before]
            formulas += required_formulas(search.p, required)
            self._extra = [z3.BoolVal(False) if is_const(f) else f for f in formulas
                           if not (is_const(f) and f) and (is_const(f) or f.get_id() not in self._ids)]
        return self._extra

    def assume(self, s) -> None:
        """Assert :meth:`extra` in ``s`` (at its current scope), unless it is at its base already."""
        if any(k is s for k in self.kept):
            return
        assert_all(s, self.extra())
        if s.num_scopes() == 0:
            self.kept.append(s)

    def check(self, s):
        """``run(s)``; when its model breaks an invariant, :meth:`extra` asserted in ``s`` and ``s`` checked
        again.  An undecided check stays so (as it is with them, the question is asked again on the states
        with one copy of each card, :meth:`SymbolicSearch._one_copy_each`, or the tightening goes on)."""
        outcome = run(s)
        if outcome.status != "sat" or self.meets(outcome.model):
            return outcome
        self.times += 1
        self.assume(s)
        return run(s)


def _check(s, assumed: Assumed | None):
    return run(s) if assumed is None else assumed.check(s)


def _any(terms: list):
    """``z3.Or(terms)`` (the same term, made with less Python work when there are some)."""
    return mk_or(terms) if terms else z3.Or(terms)


class SymbolicSearch:
    """Questions over the bounded symbolic states of a checked spec, for ``players`` players: the states
    (:meth:`symbolic`, :meth:`well_formed`), solving on them (:meth:`solve`, witnesses a legal game can be
    set up for, kept small), and the claims permissions make on prohibitions (:meth:`claim`).  The conflict
    finder (:class:`checker.conflicts.questions.Search`), legality's explanations and `diff` ask through it."""

    lazy = True         # a question assumes the invariants only when its model breaks one (:class:`Assumed`)
    # the states of legal games' selections (:meth:`_chosen`, the invariant search): a question asserts the spec's
    # constraints on the kinds it reads `selected(…)` of and on those it places cards of (e.g. one character a rank);
    # without it, the constraints are asked of a witness only (the conflict kinds report a finding no legal game
    # has as such, :meth:`_legal_game`), and `selected(K)` counts the cards selected, free
    placed_selections = False

    def __init__(self, typed, players: int | None = None,
                 settings: SolverSettings = SolverSettings(), shard: tuple[int, int] = (0, 1),
                 scope=None, engine: Engine | None = None):
        """``players``: one player count, or None for every count the game allows at once.  ``shard``
        (k, n): run only every n-th query, from the k-th (see :mod:`checker.conflicts.parallel`).  ``scope``
        (a :class:`~checker.conflicts.scope.Scope`): ask only the questions that involve its files.  ``engine``:
        an engine whose game is already started (its selection is the universe); by default every card."""
        self.shard, self.units, self.marks = shard, 0, []
        self.scope = scope
        self.minimal = True         # witnesses with as few players and cards as possible
        self.questions = 0          # every independent question, asked or not (``units``: those in scope)
        self.typed = typed
        self.p = p = typed.program
        self.low, self.high = player_range(p)
        self.players = players
        self.settings = settings
        self._universe: tuple | None = None     # how the search's own engine's game was started (every card)
        if engine is None:
            engine = Engine(typed)
            engine.recording = False
            everything = {k: [c.name for c in p.cards_of(k)] for k in p.kinds}
            self._universe = (everything, players or self.high, 0, [])
            engine.start(*self._universe)
        self.engine = engine
        self.queries = 0
        self.unknowns = 0
        self._chains: dict | None = None        # action -> itself and its ancestors
        self._plain: Encoder | None = None
        self._invariants = Invariants(self.encoder)      # encoded once, translated into each question
        self.conditions = Conditions(self.encoder, self.params_args)     # rule heads' too, for the questions asked
        self.assumed = 0            # the checks whose model broke an invariant (:class:`Assumed`)
        self._own: weakref.WeakSet = weakref.WeakSet()   # the encoders made here (their cells named as the template's)
        self._claims: dict = {}                  # (permit head id, forbid head id) -> Claim
        self._cases: dict = {}                   # (overridden head id, forbid head id, action) -> (status, reason)
        self.no_special_case: set = set()        # keys of _cases a batch answered sat (checker.conflicts.batches)
        self._selection: Selections | None = None       # the spec's constraints on a selection, built once
        self._invariant_kinds: set | None = None        # the kinds whose selection the invariants read
        self._judge: tuple | None = None        # the interpreter that re-judges witnesses, and its scopes
        self._scopes = None                      # the scopes a witness is loaded with into the search's engine
        self.legality = ""                       # what the last minimal solve found of its witness's cards
        self.forbidden: list = []                # and when no legal game has them, the constraints that forbid it

    def _mine(self, out: list, involved=lambda scope: True) -> bool:
        """Is the next independent query in scope (``involved(scope)``, when the search has one) and this
        shard's?  If so, note where its findings start in ``out``."""
        self.questions += 1
        if self.scope is not None and not involved(self.scope):
            return False
        unit, self.units = self.units, self.units + 1
        if unit % self.shard[1] != self.shard[0]:
            return False
        self.marks.append((unit, len(out)))
        fresh_context()         # so its answer does not depend on which queries ran before it
        return True

    # ------------------------------------------------------------ a symbolic state
    def encoder(self) -> Encoder:
        enc = Encoder(self.engine, concrete=False,
                      player_count=None if self.players else z3.Int("player_count"))
        enc.chosen = Chosen(self.engine)        # `selected(K)`: a game's selection (well_formed constrains it)
        self._own.add(enc)
        return enc

    def plain(self) -> Encoder:
        """An encoder that makes no Z3 term (the engine's player count), for what the rules say of each other (the
        actions' ancestors, what defeats what): asking it starts no Z3 context (a question that asks Z3 nothing
        pays for none)."""
        if self._plain is None:
            self._plain = Encoder(self.engine, concrete=False)
        return self._plain

    def symbolic(self, enc: Encoder, name: str, ty, by_name: bool = False) -> tuple:
        """A symbolic value of type ``ty`` and the constraint that it is one.  A set of cards, players,
        enum members or cells is one Boolean per value it may hold (``renouveler.cartes ∋ Nom``); a record is
        one symbolic value per field."""
        if ty == BOOL:
            return z3.Bool(name), True
        if isinstance(ty, Coll):
            elem = ty.elem
            if isinstance(elem, KindT):
                return [(z3.Bool(f"{name} ∋ {enc.show(i, elem)}"), i) for i in enc.kind_instances[elem.name]], True
            if isinstance(elem, EnumT):
                return [(z3.Bool(f"{name} ∋ {m}"), i) for i, m in enumerate(enc.enum_names[elem.name])], True
            if elem == PLAYER:
                members = [(z3.Bool(f"{name} ∋ Joueur {k + 1}"), k) for k in enc.seats]
                return members, AND(*(z3.Implies(g, enc.n > k) for g, k in members if not is_const(enc.n)))
            values = field_domain(enc, elem) if isinstance(elem, GridT) else None
            if values is not None and len(values) <= MAX_SET:
                return [(z3.Bool(f"{name} ∋ {enc.show(x, elem)}"), x) for x in values], True
            values = record_values(enc, elem, MAX_RECORD_SET) if isinstance(elem, RecordT) else None
            if values is not None:
                return [(z3.Bool(f"{name} ∋ {enc.show(x, elem)}"), x) for x in values], True
            raise Unsupported(f"a symbolic {ty} (only sets of cards, players, enum members, cells, or records of "
                              f"at most {MAX_RECORD_SET:,} values with such fields, are searched)")
        if isinstance(ty, RecordT):       # a card in a record is its definition, as in the interpreter
            fields = [self.symbolic(enc, f"{name}.{f.name}", enc.resolve(f.type), by_name=True)
                      for f in self.p.records[ty.name].fields]
            return tuple(v for v, _ in fields), z3.And([d if not isinstance(d, bool) else z3.BoolVal(d)
                                                         for _, d in fields])
        v = z3.Int(name)
        return v, self._domain(enc, v, ty, by_name)

    def _domain(self, enc: Encoder, v, ty, by_name: bool = False):
        optional = isinstance(ty, Opt)
        if optional:
            ty = ty.inner
        if ty == PLAYER:
            d = z3.And(v >= 0, v < enc.n)
        elif isinstance(ty, GridT):
            cells = window(self.engine.grids[ty.name])
            enc.domains[v.get_id()] = tuple(cells) + ((NONE,) if optional else ())
            enc._alive.append(v)
            d = z3.Or([v == c for c in cells])
        elif isinstance(ty, KindT):
            insts = (not by_name and enc.kind_instances[ty.name]) or [
                d for d, k in self.engine.def_kind.items() if k == ty.name]
            enc.domains[v.get_id()] = tuple(insts) + ((NONE,) if optional else ())
            enc._alive.append(v)
            d = _any([mk_eq(v, i) for i in insts])
        elif isinstance(ty, EnumT):
            enc.domains[v.get_id()] = tuple(range(len(enc.enum_names[ty.name]))) + ((NONE,) if optional else ())
            enc._alive.append(v)
            d = z3.And(v >= 0, v < len(enc.enum_names[ty.name]))
        elif ty == INT:
            d = z3.And(v >= 0, v <= BOUND)
        else:
            return True
        return z3.Or(d, v == NONE) if optional else d

    def _field_type(self, enc: Encoder, var: str, field: str):
        record = enc.var_types[var]
        record = record.inner if isinstance(record, Opt) else record
        return next(enc.resolve(f.type) for f in self.p.records[record.name].fields if f.name == field)

    def well_formed(self, enc: Encoder, known: dict | None = None, invariants: bool = True) -> list:
        """The bounds of a state, for the cells the query made, and the spec's invariants.  ``known``: the bounds
        of vars (by cell key) made already in this context, taken as they are (the same terms: a batch's groups
        share the bounds of the cells the invariants read, :mod:`checker.conflicts.batches`); those made here
        are added to it.  Without ``invariants`` (an encoder of this search's: a question that assumes them only
        when a model breaks one, :class:`Assumed`), neither the invariants nor their cells."""
        # first: the cells they make get their bounds below; an encoder named otherwise (diff's) encodes them itself
        if not invariants and enc in self._own:
            self._invariants.check()        # a question they cannot be encoded for cannot be asked, as with them
            out = []
        else:
            out = self._invariants.into(enc) if enc in self._own else enc.invariants()
        places: dict[int, list] = {}
        for key, cell in list(enc.cells.made.items()):
            if key[0] == "var" and len(key) == 4:        # a field of a record-valued var
                values = field_domain(enc, self._field_type(enc, key[1], key[3]))
                if values is not None and not z3.is_bool(cell):
                    out.append(z3.Or([cell == v for v in values]))
            elif key[0] == "var" and isinstance(enc.var_types[key[1]], GridT):
                out.append(z3.Or([cell == v for v in field_domain(enc, enc.var_types[key[1]])]))
            elif key[0] == "var":
                d = known.get(key) if known is not None else None
                if d is None:
                    ty = enc.var_types[key[1]]
                    d = self._domain(enc, cell, ty) if ty != BOOL else True
                    if known is not None:
                        known[key] = d
                if not (is_const(d) and d):
                    out.append(d)
            elif key[0] == "in":
                _, zone, index, inst = key
                places.setdefault(inst, []).append(cell)
            elif key[0] == "used" and key[4] != "game":     # used in this turn or round: used in the game
                ever = enc.cells.made.get(key[:4] + ("game",))
                if ever is not None:
                    out.append(mk_implies(cell, ever))
        for cells in places.values():
            if len(cells) > 1:
                out.append(mk_atmost(cells, 1))
        out += self._chosen(enc, invariants)
        if not is_const(enc.n):
            out.append(z3.And(enc.n >= self.low, enc.n <= self.high))
            seated: dict[int, z3.BoolRef] = {}              # seat k is in the game: one term per seat
            for key, cell in enc.cells.made.items():       # no card is with a player who is not in the game
                if key[0] == "in" and isinstance(key[2], int) and enc.zone_index_types[key[1]] == PLAYER \
                        and key[2] >= 2:
                    seat = seated.get(key[2])
                    if seat is None:
                        seat = seated[key[2]] = enc.n > key[2]
                    out.append(mk_implies(cell, seat))
        return out

    def _chosen(self, enc: Encoder, invariants: bool) -> list:
        """For each kind whose ``selected(…)`` the question reads (its encoder's :class:`~checker.solver.selection.
        Chosen`, and the invariants' when they are asserted; with :attr:`placed_selections`, each kind whose cards
        it places too): what a card not selected satisfies (:meth:`_only_selected`: in no zone, not even its kind's
        start zone), and with :attr:`placed_selections` the spec's constraints on those cards' *selected* Booleans.  Nothing for a question
        that reads no selection, nor for an encoder not made here (`diff`'s: every card of a kind is its
        selection).  A witness's legal game (:meth:`_with_selection`, :meth:`_legal_game`) asserts the latter for
        every kind: the cards its state uses are its selection's."""
        chosen = getattr(enc, "chosen", None)
        if chosen is None or enc not in self._own:
            return []
        kinds = set(chosen.kinds)
        if self.placed_selections:
            kinds |= {enc.zone_kind[key[1]] for key in enc.cells.made if key[0] == "in"}
        if invariants:
            if self._invariant_kinds is None:
                self._invariant_kinds = kinds_read(tuple(self.p.invariants()))
            kinds |= self._invariant_kinds
        if not kinds:
            return []
        out = self._only_selected(enc, kinds)
        if self.placed_selections:      # else the constraints are a witness's (a finding no legal game has is one)
            out = self._selections().about(kinds) + out
        return out

    def _only_selected(self, enc: Encoder, kinds) -> list:
        """What a card of ``kinds`` (all kinds: None) that is not selected satisfies, on the cells ``enc`` made (the
        set-up makes no such card, and nothing writes what it would): it is in no zone, a var indexed by it holds
        its starting value, a var holds it only when it is selected, and no power of it is used.  Nothing for an
        encoder not made here."""
        chosen = getattr(enc, "chosen", None)
        if chosen is None or enc not in self._own:
            return []
        E, zone_kind = enc.E, enc.zone_kind
        if kinds is None:
            kinds = set(self.p.kinds)
        out = [mk_implies(cell, chosen.flag_of(key[3])) for key, cell in enc.cells.made.items()
               if key[0] == "in" and zone_kind[key[1]] in kinds]
        for key, cell in enc.cells.made.items():
            if key[0] == "used":
                if E.def_kind[E.defs[key[2]]] in kinds:
                    out.append(mk_implies(cell, chosen.flag_of(key[2])))
                continue
            if key[0] != "var" or len(key) != 3:
                continue
            name, index = key[1], key[2]
            ity = enc.index_types.get(name)
            if isinstance(ity, KindT) and ity.name in kinds and isinstance(index, int) and index >= 0:
                start = 0 if self.p.vars[name].counter else E.var_defaults[name]
                start = enc.from_runtime(start, enc.var_types[name])
                if isinstance(start, (bool, int)):
                    out.append(z3.Or(chosen.flag_of(index), cell == start))
            ty = enc.var_types[name]
            inner = ty.inner if isinstance(ty, Opt) else ty
            if isinstance(inner, KindT) and inner.name in kinds and not z3.is_bool(cell):
                out += [mk_implies(enc.eq(cell, i), chosen.flag_of(i)) for i in enc.kind_instances[inner.name]]
        return out

    def solve(self, enc: Encoder, *formulas, minimal: bool = False, legal: bool | None = None, cards: tuple = (),
              one_copy_first: bool = False):
        """(status, model, Z3's reason) of the formulas on a well-formed state; with ``legal`` (by default
        ``minimal``), the model is one a legal game could be set up for when there is one, and
        ``self.legality`` says when there is none (:meth:`_legal_game`: ``cards``, the cards whose rules the
        question is about, and the cards away from their start zone, selected together as the spec's
        constraints allow); with ``minimal``, it has as few players, then as few cards away from their
        kind's start zone, as the formulas allow (one found on the states with one copy of each card, when
        the question was asked again so, is kept as is, and not judged by the constraints).

        The selection is asked with the question, in one check: most questions are about a legal game.  When
        that check finds no model, the question is asked as before: for a minimal one, on a solver of its own,
        the formulas first, then the selection (the same answers, and the same notes, as when it was always
        asked so).  With ``one_copy_first`` (a question about rules a batch could not decide), it is asked on the
        states with one copy of each card first, as it is after two undecided checks: a model found there is its
        answer, kept as is; else it is asked as above."""
        todo = [f for f in formulas if not (is_const(f) and f)]
        if any(is_const(f) and not f for f in todo):
            return "unsat", None, ""
        lazy = self.lazy and enc in self._own
        asserted = [*todo, *enc.defined, *self.well_formed(enc, invariants=not lazy)]
        assumed = Assumed(self, enc, asserted) if lazy else None
        self.legality, self.forbidden = "", []
        if one_copy_first:
            outcome = self._one_copy_each(enc, todo, None)
            if outcome is not None and outcome.status == "sat":
                self.queries += 1
                return "sat", outcome.model, ""
        s = make_solver(self.settings)
        assert_all(s, asserted)
        try:
            if legal if legal is not None else minimal:
                tight = minimal and self.minimal and assumed is not None
                model = self._with_selection(s, enc, cards, None if tight else assumed)
                if model is not None and tight:
                    model = self._first_smallest(s, enc, model, cards, asserted, assumed)
                if model is not None:
                    self.queries += 1
                    if minimal and self.minimal and not tight:
                        model = self._smallest(s, enc, model, assumed)
                    return "sat", model, ""
                if minimal:         # asked again as before: the first check on a solver that has had no `push`
                    s = make_solver(self.settings)
                    assert_all(s, asserted)
                    if assumed is not None and assumed.times:      # this question's models break them
                        assumed.assume(s)
            outcome = _check(s, assumed)
            retried = outcome.status == "unknown"
            if retried:
                outcome = self._one_copy_each(enc, todo, outcome)
            self.queries += 1
            if outcome.status == "unknown":
                self.unknowns += 1
            model = outcome.model
            if (minimal if legal is None else legal) and outcome.status == "sat" and not retried:
                model, self.legality = self._legal_game(s, enc, model, cards, assumed)
            if minimal and self.minimal and outcome.status == "sat" and not retried:
                model = self._smallest(s, enc, model, assumed)
            return outcome.status, model, outcome.reason
        finally:
            if assumed is not None:
                self.assumed += assumed.times

    def _first_smallest(self, s, enc: Encoder, model, cards: tuple, asserted: list, assumed: Assumed):
        """The smallest model of ``s`` (the question and the selection, without the invariants) when it meets the
        invariants: it is the smallest with them too (a model with them is one without).  Else the question is
        asked again with them, on a solver of its own (the bounds the tightening left in ``s`` are the smallest
        without them); None when no selection has it then."""
        model = self._smallest(s, enc, model)
        if assumed.meets(model):
            return model
        assumed.times += 1
        s = make_solver(self.settings)
        assert_all(s, asserted)
        assumed.assume(s)
        model = self._with_selection(s, enc, cards, assumed)
        return None if model is None else self._smallest(s, enc, model, assumed)

    def _smallest(self, s, enc: Encoder, model, assumed: Assumed | None = None):
        """The model of ``s`` with the fewest players, then cards away from their start zone, then vars changed
        (:meth:`_objectives`); an undecided check does not end an objective's tightening, and the bounds are tried
        up from the least value first (a witness is mostly small).  Each model meets the invariants
        (``assumed``: asserted in a check whose model breaks one)."""
        check = None if assumed is None else assumed.check
        if assumed is not None and assumed.times:       # a model of this question broke them: each check inside a
            assumed.assume(s)                           # `push` would break them again, and assert them only there
        return smallest(s, model, self._objectives(enc), rlimit=min(SEARCH_TIGHTENING_RLIMIT, self.settings.rlimit),
                        past_undecided=True, from_floor=True, check=check).model

    def _with_selection(self, s, enc: Encoder, cards: tuple, assumed: Assumed | None = None):
        """A model of ``s`` whose cards (``cards``, and those away from their start zone) some legal game is
        set up with, asked in one check; None when there is none or it cannot be told so (then the selection
        formulas are taken away again, and :meth:`solve` asks as for any question)."""
        try:
            formulas = self._selections().formulas([*cards, *required_cards(self.engine, enc)])
        except ConfigEvalError:
            return None
        formulas += self._only_selected(enc, None)     # the cards the state uses are the selection's
        outcome = keep_if_sat(s, formulas, run if assumed is None else assumed.check)
        return outcome.model if outcome.status == "sat" else None

    def _selections(self) -> Selections:
        if self._selection is None:
            self._selection = Selections(self.p, self.players, self.settings)
        return self._selection

    def _legal_game(self, s, enc: Encoder, model, cards: tuple, assumed: Assumed | None = None) -> tuple:
        """(model, note): a model of ``s`` whose cards some legal game is set up with — ``cards`` and every
        card away from its start zone selected together, at the model's player count, as every `constraint`
        of the spec allows (:mod:`checker.solver.selection`); those formulas stay in ``s``.  When there is
        none, or Z3 cannot tell, ``model`` is kept and the note says so; when there is none,
        ``self.forbidden`` is the constraints that forbid it (:func:`~checker.solver.selection.forbidding`)."""
        required = [*cards, *required_cards(self.engine, enc)]
        try:
            formulas = self._selections().formulas(required)
        except ConfigEvalError as exc:
            return model, f"cannot tell whether a legal game has these cards: {exc}"
        if not formulas:
            return model, ""
        formulas += self._only_selected(enc, None)     # the cards the state uses are the selection's
        outcome = keep_if_sat(s, formulas, run if assumed is None else assumed.check)
        if outcome.status == "sat":
            return outcome.model, ""
        if outcome.status == "unknown":
            return model, f"cannot tell whether a legal game has these cards ({outcome.reason})"
        if assumed is not None:         # the constraints that forbid it, on the states that meet the invariants
            assumed.assume(s)
        self.forbidden = forbidding(s, self.p, enc.n, required)[1]
        named = ", ".join(f'"{c}"' for c in dict.fromkeys(cards))
        at = f"with {self.players} players" if self.players else "at any player count"
        return model, (f"{ILLEGAL}: no selection of cards the spec's constraints allow "
                       f"{at} has {named + ' and ' if named else ''}the cards such a situation needs")

    def _objectives(self, enc: Encoder) -> list:
        """What a witness keeps small, first to last: the players, the cards away from their start zone, then
        the vars (each cell of an indexed one) that do not hold their starting value."""
        out = [] if is_const(enc.n) else [(enc.n, self.low)]
        away = [cell for _, cell in away_from_start(self.engine, enc)]
        changed = []
        for key, cell in enc.cells.made.items():
            if key[0] == "var" and len(key) == 3:
                name = key[1]
                start = 0 if self.p.vars[name].counter else self.engine.var_defaults[name]
                start = enc.from_runtime(start, enc.var_types[name])
                if isinstance(start, (bool, int)):
                    changed.append(cell != start)
        return out + [(count_true(away), 0), (count_true(changed), 0)]

    def _one_copy_each(self, enc: Encoder, todo: list, undecided):
        """The question Z3 could not decide, asked again on the states with one copy of each card in each
        place (:mod:`checker.solver.bounded`): its ``sat`` is the question's; anything else leaves it
        undecided (``undecided`` None: the outcome there, or None when there is no such state)."""
        off = later_copies(enc, self.engine.defs)
        if not off:
            return undecided
        s = make_solver(self.settings)
        s.add(*restricted([*todo, *enc.defined, *self.well_formed(enc)], off))
        outcome = run(s)
        if outcome.status == "sat" or undecided is None:
            return outcome
        undecided.reason += (f" (nor {'found' if outcome.status == 'unsat' else 'decided'} on the states with one "
                             f"copy of each card in each place)")
        return undecided

    # ------------------------------------------------------------ the searches
    def action_args(self, enc: Encoder, action: str) -> tuple[tuple, list]:
        return self.params_args(enc, action, self.p.actions[action].params)

    def params_args(self, enc: Encoder, prefix: str, params) -> tuple[tuple, list]:
        """Symbolic arguments for ``params`` (named ``prefix.param``) and the constraints that they are
        values of their types."""
        args, domain = [], []
        for prm in params:
            v, d = self.symbolic(enc, f"{prefix}.{prm.name}", enc.resolve(prm.type))
            args.append(v)
            domain.append(d)
        return tuple(args), domain

    def claim(self, permit: ast.RuleDecl, phead: ast.RuleHead, forbid: ast.RuleDecl,
              fhead: ast.RuleHead) -> "Claim":
        """Does the permission (its head ``phead``) claim to lift the prohibition (its head ``fhead``), and
        is that settled?  The one definition of an unresolved permission/prohibition pair, which
        `rulebook conflicts` searches for and `rulebook legal` reports on a move.

        - settled: an `overrides` or a `precedence` says which of the two wins;
        - general: the permission has no `overrides`, so it claims every prohibition of its action;
        - exception: the permission overrides rules, and Z3 proves the prohibition a special case of one
          of them (whenever the prohibition applies, that rule would too);
        - unrelated: the permission is an exception to other rules, not to this one;
        - unknown: Z3 could not decide whether it is a special case (its reason is kept)."""
        key = (id(phead), id(fhead))
        hit = self._claims.get(key)
        if hit is not None:
            return hit
        enc0 = self.plain()
        winner, how = self._settled(enc0, permit, forbid)
        if winner:
            out = Claim("settled", winner=winner, how=how)
        elif not permit.overrides:
            out = Claim("general")
        else:
            action = self.judged_on(enc0, phead, fhead)
            out = Claim("unrelated") if action is None else self._special_case(permit, forbid, fhead, action)
        self._claims[key] = out
        return out

    @staticmethod
    def judged_on(enc, phead, fhead) -> str | None:
        """The action a permission overriding rules is judged on against a prohibition: the deeper of theirs,
        when one refines the other."""
        if phead.pattern.name in enc.ancestors(fhead.pattern.name):
            return fhead.pattern.name
        return phead.pattern.name if fhead.pattern.name in enc.ancestors(phead.pattern.name) else None

    def _special_case(self, permit, forbid, fhead, action: str) -> "Claim":
        """The claim of a permission that overrides rules on a prohibition of ``action``: an exception when
        Z3 proves ``forbid`` a special case of a rule it overrides, unrelated when it proves it is a
        special case of none, unknown when a query could not be decided."""
        undecided = []
        cases = list(self.special_cases(permit, fhead, action))
        if all(self._cases.get(key, ("sat",))[0] == "sat" and (key in self._cases or key in self.no_special_case)
               for _, _, _, key in cases):         # every answer known already (a batch's): nothing is asked
            for _, _, _, key in cases:
                self._cases.setdefault(key, ("sat", ""))
            return Claim("unrelated")
        for name, other, head, key in cases:
            hit = self._cases.get(key)
            if hit is None:
                hit = self._cases[key] = self._is_special_case(other, head, forbid, fhead, action)
            status, reason = hit
            if status == "unsat":
                return Claim("exception", via=name)
            if status == "unknown":
                undecided.append((name, reason))
        if undecided:
            return Claim("unknown", via=undecided[0][0], reason=undecided[0][1])
        return Claim("unrelated")

    def special_cases(self, permit, fhead, action: str):
        """(name, rule, its head, key) of each prohibition a permission overrides that ``fhead`` (a prohibition
        of ``action``) may be a special case of; the key names the question, the same for every permission
        overriding that rule."""
        for name, _ in permit.overrides:
            other = self.p.rules.get(name)
            if other is None:
                continue
            for head in other.heads:
                if head.kind == "forbid" and len(head.pattern.binders) <= self._shared_params(head.pattern.name,
                                                                                              action):
                    yield name, other, head, (id(head), id(fhead), action)

    def _is_special_case(self, other, head, forbid, fhead, action: str) -> tuple[str, str]:
        """(status, reason) of "``forbid`` (its head ``fhead``) applies and ``other`` (its head ``head``) does
        not", on ``action``'s arguments: unsat when the prohibition is a special case of the other rule."""
        enc = self.encoder()
        params = self.p.actions[action].params
        try:
            args, domain = self.action_args(enc, action)
            wider = self.conditions.applies(enc, other, head, action, params[:len(head.pattern.binders)],
                                            args[:len(head.pattern.binders)])[2]
            narrow = self.conditions.applies(enc, forbid, fhead, action, params[:len(fhead.pattern.binders)],
                                             args[:len(fhead.pattern.binders)])[2]
        except Unsupported as exc:
            return "unknown", f"cannot encode it: {exc.located()}"
        status, _, reason = self.solve(enc, *domain, narrow, z3.Not(wider) if not is_const(wider) else not wider)
        return status, reason

    def _shared_params(self, a: str, b: str) -> int:
        """How many leading parameters two actions share: those of their nearest common ancestor."""
        enc = self.plain()
        chain_b = enc.ancestors(b)
        for x in enc.ancestors(a):
            if x in chain_b:
                return len(self.p.actions[x].params)
        return 0

    def _most_specific(self, action: str, permit_on: str, forbid_on: str) -> bool:
        """Judge the pair on the most general action both rules are about (it is the same for its
        refinements)."""
        if self._chains is None:
            enc = self.plain()
            self._chains = {a: enc.ancestors(a) for a in self.p.actions}
        chain = self._chains[action]
        if permit_on not in chain or forbid_on not in chain:
            return False
        deeper = permit_on if chain.index(permit_on) < chain.index(forbid_on) else forbid_on
        return deeper == action

    def _resolution(self, enc: Encoder, permit, forbid) -> str | None:
        winner, how = self._settled(enc, permit, forbid)
        return f"settled: {winner} wins ({how})" if winner else None

    @staticmethod
    def _settled(enc: Encoder, permit, forbid) -> tuple[str | None, str | None]:
        if (permit.name, forbid.name) in enc.defeats:
            return permit.name, ("overrides" if any(o == forbid.name for o, _ in permit.overrides) else "precedence")
        if (forbid.name, permit.name) in enc.defeats:
            return forbid.name, "precedence"
        return None, None

    # ------------------------------------------------------------ witnesses
    def _witness(self, enc: Encoder, model, finding, action: str | None, args: tuple,
                 focus: set | None = None) -> None:
        from checker.solver.witness import witness_files
        state, move, situation = witness_files(self, enc, model, action, args, focus)
        finding.witness, finding.move, finding.situation = state, move, situation
        finding.configuration = self.legality

    def judge(self) -> tuple:
        """The interpreter (and its scopes) that re-judges every witness of this search, made once."""
        if self._judge is None:
            from checker.solver.scopes import Scopes
            self._judge = Engine(self.typed), Scopes(self.typed)
            self._judge[0].recording = False
        return self._judge

    def _confirm_contradiction(self, finding, action: str, permit: str, forbid: str) -> bool | None:
        """Load the witness into the interpreter: do both rules apply there?  The search's own engine, when it
        made it, its game then started again on every card as before (a start sets every part of a game anew,
        as loading the witness did): a second engine compiled the whole spec again for it."""
        from checker.solver.scopes import Scopes
        from checker.solver.witness import interpreter_rules
        if self._universe is not None:
            if self._scopes is None:
                self._scopes = Scopes(self.typed)
            try:
                got = interpreter_rules(self.engine, self._scopes, finding.witness, finding.move)
            finally:
                self.engine.start(*self._universe)
        else:
            got = interpreter_rules(*self.judge(), finding.witness, finding.move)
        if got is None:
            return None
        forbids, permits = got
        return forbid in forbids and permit in permits
