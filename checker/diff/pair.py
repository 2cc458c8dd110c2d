"""pair: one symbolic state that two rule sets read, for `rulebook diff`.

Both sides start a game with the same cards — every card the two rule sets have in common (the
same base name, kind and number of copies), in the same order — so a physical card is the same
number on both sides.  Each side has its own :class:`~checker.solver.encode.Encoder`, whose cells
(one Z3 constant per var, counter and card placement a term reads) are named in side A's terms:
the same cell read by both sides is the same constant, and a model of the two encodings is one
state both sides can be in.  A var whose type differs between the sides, or that one side does not
declare, is a cell of its side only.

The state is *physically possible* on both sides: it is well-formed for each side (the bounds of
:meth:`checker.solver.search.SymbolicSearch.well_formed`: a card in one place at most, counters 0 to 100, one
chosen character per rank, the player count both games allow), and it only holds what the
side's own statements can produce: a var that no statement reachable from the game's flow ever
sets keeps its default, a zone nothing ever moves a card to stays empty (:func:`written`).
A witness holds, when one can, only cards a game of each side may be set up with at its player count
(each side's `constraint`s: :meth:`Pair.legal`).  Witnesses are minimised: fewest players, then fewest cards placed, then least gold
(:meth:`Pair.minimise`, by iterative tightening with a bounded number of solver calls).  A pair's
``universe`` (:mod:`checker.diff.narrow`) narrows its encoders to fewer cards and seats: the small states a
witness is searched on when the full question is too large.
"""

from __future__ import annotations

import dataclasses
import time

import z3

from checker.front import ast
from checker.front.configurations import ConfigEvalError
from checker.solver.search import BOUND, SymbolicSearch
from checker.runtime.engine import Engine
from checker.solver.encode import NONE, USE_LABELS, Cells, Encoder, is_const
from checker.solver.factory import SolverSettings, fresh_context, make_solver, run
from checker.solver.minimise import TIGHTENING_RLIMIT, smallest
from checker.solver.selection import Selected, keep_if_sat, legal_selection, required_cards
from checker.solver.scopes import Scopes
from checker.solver.statefile import player_range
from checker.front.types import BOOL, KindT, Opt

__all__ = ["Side", "Pair", "Live", "written"]

TIGHTENING = 6          # solver calls per minimised objective, at most


@dataclasses.dataclass
class Side:
    """One rule set: its checked program and an engine whose game holds the cards both sides share."""

    tag: str                 # "a" or "b"
    result: object           # CheckResult
    paths: list
    engine: Engine | None = None
    search: SymbolicSearch | None = None
    scopes: Scopes | None = None
    live: "Live | None" = None
    judge: Engine | None = None         # an interpreter that re-judges witnesses (its game is replaced each time)
    selection: tuple | None = None      # the cards, players and player range its engine was started with
    types: Encoder | None = None        # an encoder kept for the types of vars and zones

    @property
    def program(self):
        return self.result.program

    @property
    def typed(self):
        return self.result.typed

    def base(self, name: str) -> str:
        return self.program.base_name(name)


class _SharedCells(Cells):
    """Cells named by the pair, so that the two sides' encoders share the constants of the same cell."""

    def __init__(self, encoder: Encoder, pair: "Pair", side: Side):
        super().__init__(encoder, concrete=False)
        self.pair, self.side = pair, side

    def _cell(self, key: tuple, sort: str, label: str):
        cell = self.made.get(key)
        if cell is None:
            label = self.pair.label(self.side, key, label)
            cell = z3.Bool(label) if sort == "bool" else z3.Int(label)
            self.made[key] = cell
            self.meaning[cell.get_id()] = key
        return cell


class Pair:
    """Two checked rule sets over the cards they share."""

    def __init__(self, a: Side, b: Side, settings: SolverSettings = SolverSettings(incremental=True),
                 causes: int = 3, minimise: bool = True):
        """``causes``: distinct causes searched per action and direction; ``minimise``: minimise witnesses."""
        self.a, self.b = a, b
        self.settings = settings
        self.causes, self.minimising = causes, minimise
        pa, pb = a.program, b.program
        low_a, high_a = player_range(pa)
        low_b, high_b = player_range(pb)
        self.low, self.high = max(low_a, low_b), min(high_a, high_b)
        self.queries = 0
        self.unknowns = 0
        self.seconds = 0.0
        self.universe: dict[str, list[int]] | None = None   # the small states' cards (checker.diff.narrow)
        # the cards both sides have: same base name, kind and copies, in A's order
        b_cards = {b.base(name): card for name, card in pb.cards.items()}
        self.common: dict[str, list[tuple[str, str]]] = {}
        self.copies_differ: list[str] = []
        for kind in pa.kinds:
            for card in pa.cards_of(kind):
                other = b_cards.get(a.base(card.name))
                if other is None or other.kind != kind or kind not in pb.kinds:
                    continue
                if _copies(pa, card) != _copies(pb, other):
                    self.copies_differ.append(a.base(card.name))
                    continue
                self.common.setdefault(kind, []).append((card.name, other.name))
        self.players = max(self.high, 1)
        for side, pick in ((a, 0), (b, 1)):
            selection = {kind: [pair[pick] for pair in cards] for kind, cards in self.common.items()}
            if side.engine is not None and side.selection == (selection, self.players, self.low, self.high):
                continue            # a side already put over the same cards (one base against many overlays)
            side.selection = (selection, self.players, self.low, self.high)
            engine = Engine(side.typed)
            engine.recording = False
            engine.start(selection, self.players, 0, [])
            side.engine = engine
            side.search = SymbolicSearch(side.typed, None, settings, engine=engine)
            side.search.low, side.search.high = self.low, self.high
            side.scopes = Scopes(side.typed)
            side.live = written(side.program, engine)
            side.types = Encoder(engine, concrete=False, player_count=z3.Int("player_count"))
        self._shown = a.types
        self.own_types = {name: self._type_key(a, name) != self._type_key(b, name) for name in
                           set(pa.vars) | set(pb.vars)}
        self.own_zones = {name: (name not in pa.zones or name not in pb.zones
                                  or pa.zones[name].kind.name != pb.zones[name].kind.name
                                  or str(getattr(pa.zones[name].index, "name", None))
                                  != str(getattr(pb.zones[name].index, "name", None)))
                           for name in set(pa.zones) | set(pb.zones)}

    # ------------------------------------------------------------ cells
    @staticmethod
    def _type_key(side: Side, name: str):
        decl = side.program.vars.get(name)
        if decl is None:
            return None
        ty = side.types.var_types[name]
        index = side.types.index_types.get(name)
        enums = tuple(tuple(m.name for m in side.program.enums[t.name].members)
                      for t in (ty.inner if isinstance(ty, Opt) else ty, index)
                      if t is not None and type(t).__name__ == "EnumT" and t.name in side.program.enums)
        return str(ty), str(index), enums

    def label(self, side: Side, key: tuple, label: str) -> str:
        """The name of a cell: in A's terms, and marked with its side when only that side has it."""
        if key[0] == "var":
            _, name, index = key
            own = self.own_types.get(name, True)
            if index is not None:
                text = f"{name}[{self._value_label(side, index, side.types.index_types.get(name))}]"
            else:
                text = name
            return text + (f" ⟨{side.tag.upper()}⟩" if own else "")
        if key[0] == "in":
            _, zone, index, inst = key
            text = f"{self._card_label(inst)} ∈ {zone}"
            if index is not None:
                text += f"[{self._value_label(side, index, side.types.zone_index_types.get(zone))}]"
            return text + (f" ⟨{side.tag.upper()}⟩" if self.own_zones.get(zone, True) else "")
        if key[0] == "used":
            _, player, inst, power, scope = key
            return f"{USE_LABELS[scope]}({power}, {self._card_label(inst)}, Joueur {player + 1})"
        return label

    def _card_label(self, inst: int) -> str:
        return self.a.engine.show_card(inst) + self._shown.copy_mark(inst)

    def _value_label(self, side: Side, value, ty) -> str:
        inner = ty.inner if isinstance(ty, Opt) else ty
        if value == NONE:
            return "aucun"
        if isinstance(inner, KindT) and isinstance(value, int) and value < 0:
            return side.base(side.engine.def_names[value])      # a card not in this game, by its base name
        if isinstance(inner, KindT) and isinstance(value, int):
            return self._card_label(value)
        if type(inner).__name__ == "EnumT" and isinstance(value, int):
            enums = side.program.enums
            return enums[inner.name].members[value].name if inner.name in enums else str(value)
        if inner is not None and str(inner) == "Player" and isinstance(value, int):
            return f"Joueur {value + 1}"
        return str(value)

    def encoders(self) -> tuple[Encoder, Encoder]:
        """Fresh encoders of the two sides, sharing the constants of the cells both read, in a fresh Z3 context:
        a question starts here, and its answer (which model, so which witness) must not depend on the questions
        this process asked before (a test run that put other tests first got another witness)."""
        fresh_context()
        out = []
        n = z3.Int("player_count")
        for side in (self.a, self.b):
            enc = Encoder(side.engine, concrete=False, player_count=n)
            enc.cells = _SharedCells(enc, self, side)
            if self.universe is not None:       # the small states: fewer cards, fewer seats
                enc.kind_instances = {k: [i for i in insts if i in self.universe.get(k, insts)]
                                      for k, insts in enc.kind_instances.items()}
                enc.seats = range(min(self.high, len(enc.seats)))
            out.append(enc)
        return out[0], out[1]

    # ------------------------------------------------------------ constraints
    def bounds(self, enc_a: Encoder, enc_b: Encoder) -> list:
        """What makes a model a state both sides can be in (for the cells the terms read)."""
        out = []
        for side, enc in ((self.a, enc_a), (self.b, enc_b)):
            out += side.search.well_formed(enc)
            out += enc.defined
            out += self._reachable(side, enc)
        return out

    def _reachable(self, side: Side, enc: Encoder) -> list:
        """A var no reachable statement sets keeps its default; a zone nothing moves cards to is empty."""
        E, p = side.engine, side.program
        out = []
        starts = set(E.starts.values())
        for key, cell in enc.cells.made.items():
            if key[0] == "var" and key[1] not in side.live.vars:
                name = key[1]
                default = 0 if p.vars[name].counter else E.var_defaults[name]
                value = enc.from_runtime(default, enc.var_types[name])
                out.append(cell == value if enc.var_types[name] != BOOL else cell == bool(value))
            elif key[0] == "in" and key[1] not in side.live.zones and key[1] not in starts:
                out.append(z3.Not(cell))
        return out

    def solve(self, enc_a: Encoder, enc_b: Encoder, *formulas, minimise: bool = True, fallback: bool | str = True,
              full: bool = False, bounds: list | None = None):
        """(status, model, reason) of the formulas over states both sides can be in; a model is minimised.

        The query is first put for every player count at once, with an eighth of the resources (with ``full``,
        all of them); if Z3 cannot decide it so, once per player count, fewest first (each simpler: the seats
        are known) — or, with ``fallback="once"``, once more for every player count with all the resources.
        ``bounds``: those of :meth:`bounds`, when the caller has them for these encoders."""
        todo = [f for f in formulas if not (is_const(f) and f)]
        if any(is_const(f) and not f for f in todo):
            return "unsat", None, ""
        bounds = self.bounds(enc_a, enc_b) if bounds is None else bounds
        n = z3.Int("player_count")
        t = time.perf_counter()
        try:
            # bounded by Z3's resource count, not the clock, so that the same query takes the same path anywhere
            quick = self.settings if full else dataclasses.replace(self.settings,
                                                                   rlimit=max(1, self.settings.rlimit // 8))
            s, outcome = self._check(quick, todo, bounds, [n >= self.low, n <= self.high])
            if outcome.status == "unknown" and fallback == "once":
                s, outcome = self._check(self.settings, todo, bounds, [n >= self.low, n <= self.high])
            elif outcome.status == "unknown" and fallback:
                reasons = []
                for count in range(self.low, self.high + 1):
                    s, outcome = self._check(self.settings, todo, bounds, [n == count])
                    if outcome.status == "sat":
                        break
                    if outcome.status == "unknown":
                        reasons.append(f"{count} players: {outcome.reason}")
                else:
                    if reasons:
                        outcome = dataclasses.replace(outcome, status="unknown", reason="; ".join(reasons))
            if outcome.status == "unknown":
                self.unknowns += 1
            model = outcome.model
            if outcome.status == "sat" and minimise and self.minimising:
                model = self.minimise(s, self.legal(s, model, enc_a, enc_b), enc_a, enc_b)
            return outcome.status, model, outcome.reason
        finally:
            self.seconds += time.perf_counter() - t

    def _check(self, settings: SolverSettings, todo: list, bounds: list, players: list):
        s = make_solver(settings)
        s.add(*todo)
        s.add(*bounds)
        s.add(*players)
        outcome = run(s)
        self.queries += 1
        return s, outcome

    def legal(self, s: z3.Solver, model, enc_a: Encoder, enc_b: Encoder):
        """A model of ``s`` whose cards out of their start zone each side's `constraint`s let a game be set up
        with, at its player count (:mod:`checker.solver.selection`; those formulas then stay in ``s``), when
        there is one; else ``model`` (a difference is never hidden for it)."""
        n = z3.Int("player_count")
        try:
            formulas = [f for side, enc in ((self.a, enc_a), (self.b, enc_b))
                        for f in legal_selection(side.program, Selected(side.program), n,
                                                 required_cards(side.engine, enc))]
        except ConfigEvalError:
            return model
        if not formulas:
            return model
        outcome = keep_if_sat(s, formulas)
        self.queries += 1
        return outcome.model if outcome.status == "sat" else model

    def minimise(self, s: z3.Solver, model, enc_a: Encoder, enc_b: Encoder):
        """Fewest players, then fewest cards placed and powers used, then fewest vars away from their default,
        then least of the integers (:func:`~checker.solver.minimise.smallest`), each among the subsets of the witness found."""
        cells = {}
        for enc in (enc_a, enc_b):
            for key, cell in enc.cells.made.items():
                cells[cell.get_id()] = (key, cell)
        # a power's use is a fact of the situation like a card's place: one the difference needs, no other
        placed = [c for k, c in cells.values() if k[0] in ("in", "used")]
        numbers = [c for k, c in cells.values() if k[0] == "var" and z3.is_int(c)]
        defaults = list(self._defaults(cells.values(), enc_a, enc_b))
        objectives = [(z3.Int("player_count"), self.low)]
        if placed:
            objectives.append((z3.Sum([z3.If(c, 1, 0) for c in placed]), 0))
        if defaults:
            objectives.append((z3.Sum([z3.If(c == d, 0, 1) for c, d in defaults]), 0))
        if numbers:
            objectives.append((z3.Sum([z3.If(c >= 0, z3.If(c <= BOUND, c, 0), 0) for c in numbers]), 0))

        def subsets(model) -> list:
            # only ever take away: a card not placed (a power not used) stays so, a var at its default stays there, so each
            # step searches among the subsets of the witness found (much smaller)
            return [z3.Not(c) for c in placed if not z3.is_true(model.eval(c, model_completion=True))] + \
                [c == d for c, d in defaults if z3.is_true(model.eval(c == d, model_completion=True))]
        found = smallest(s, model, objectives, TIGHTENING, min(TIGHTENING_RLIMIT, self.settings.rlimit), subsets)
        self.queries += found.checks
        return found.model

    def _defaults(self, cells, enc_a: Encoder, enc_b: Encoder):
        """(cell, its default) for the var cells, in the terms of the side that made them."""
        for key, cell in cells:
            if key[0] != "var":
                continue
            for side, enc in ((self.a, enc_a), (self.b, enc_b)):
                if enc.cells.made.get(key) is cell:
                    decl = side.program.vars[key[1]]
                    ty = enc.var_types[key[1]]
                    default = enc.from_runtime(0 if decl.counter else side.engine.var_defaults[key[1]], ty)
                    yield cell, (bool(default) if ty == BOOL else default)
                    break


def _copies(program, card: ast.CardDecl) -> int:
    for value in card.attrs:
        if value.name == "copies" and isinstance(value.value, ast.IntLit):
            return value.value.value
    kind = program.kinds.get(card.kind)
    for attr in kind.attrs if kind else ():
        if attr.name == "copies" and isinstance(attr.default, ast.IntLit):
            return attr.default.value
    return 1


# ---------------------------------------------------------------- what the game's statements can change

@dataclasses.dataclass(frozen=True)
class Live:
    """What the statements reachable from a game's flow use: the vars, counters and zones they change (a
    `reset` only puts back defaults, so it changes nothing here), the procedures they call, the actions
    they do, offer or ask about, the windows they signal."""

    vars: frozenset
    zones: frozenset
    procedures: frozenset
    actions: frozenset          # done or offered
    windows: frozenset
    judged: frozenset           # done, offered, or asked with `can`: the actions whose legality matters


def written(program, engine: Engine) -> Live:
    """What some statement reachable from the game's flow can change or run: the procedures it calls,
    the actions it does or offers, and the powers of the game's cards (those reacting to a window it
    signals, and those an offer proposes)."""
    p = program
    game = {f.name: f.values[0] for f in p.game.fields} if p.game else {}
    flow = game.get("flow")
    in_game = {engine.def_names[d] for d in set(engine.defs)}
    powers = [(pw, card) for card in p.cards.values() if card.name in in_game for pw in card.powers]
    vars_, zones = set(), set()
    done: set = set()
    signalled: set = set()
    judged: set = set()         # actions whose legality a reachable `can` asks
    offers_powers = False
    bodies = [p.procedures[flow.id].body] if isinstance(flow, ast.Name) and flow.id in p.procedures else []
    if bodies:
        done.add(("call", flow.id))
    while bodies:
        body = bodies.pop()
        for stmt in body:
            for node in ast.walk(stmt):
                if isinstance(node, ast.SetVar) and not _sets_default(p, node):
                    vars_.add(node.target.name)
                elif isinstance(node, ast.Can):
                    judged.add(node.action)
                elif isinstance(node, ast.Transfer):
                    vars_ |= {node.source.name, node.target.name}
                elif isinstance(node, ast.Move):
                    zones.add(node.dest.target.name)
                elif isinstance(node, ast.Draw):
                    zones |= {node.source.name, node.dest.target.name}
                elif isinstance(node, ast.Shuffle):
                    zones.add(node.target.name)
                elif isinstance(node, ast.CallProc) and ("call", node.name) not in done:
                    done.add(("call", node.name))
                    if node.name in p.procedures:
                        bodies.append(p.procedures[node.name].body)
                elif isinstance(node, (ast.Do, ast.OfferAction)) and ("do", node.action) not in done:
                    done.add(("do", node.action))
                    body_of = p.effect(node.action)
                    if body_of:
                        bodies.append(body_of)
                elif isinstance(node, ast.Signal) and node.window not in signalled:
                    signalled.add(node.window)
                    bodies += [pw.body for pw, _ in powers if pw.window and pw.window[0] == node.window]
                    bodies += [(ast.Let("requires", pw.requires, pw.span),) for pw, _ in powers
                               if pw.window and pw.window[0] == node.window and pw.requires is not None]
                elif isinstance(node, ast.OfferPowers) and not offers_powers:
                    offers_powers = True
                    bodies += [pw.body for pw, _ in powers if pw.window is None]
                    bodies += [(ast.Let("requires", pw.requires, pw.span),) for pw, _ in powers
                               if pw.window is None and pw.requires is not None]
    done_actions = {n for w, n in done if w == "do"}
    return Live(frozenset(vars_), frozenset(zones), frozenset(n for w, n in done if w == "call"),
                frozenset(done_actions), frozenset(signalled), frozenset(judged | done_actions))


def _sets_default(p, node: ast.SetVar) -> bool:
    """`set v[i] = d` with ``d`` the literal default of ``v``: it puts back a default, like `reset`."""
    decl = p.vars.get(node.target.name)
    value, default = node.value, decl.default if decl is not None else None
    if decl is not None and decl.counter:
        return isinstance(value, ast.IntLit) and value.value == 0
    for kind in (ast.IntLit, ast.BoolLit):
        if isinstance(value, kind) and isinstance(default, kind):
            return value.value == default.value
    return isinstance(value, ast.NoneLit) and (default is None or isinstance(default, ast.NoneLit))
