"""A legal selection of cards, in Z3: which cards a game can be set up with, for a witness.

A `constraint` (not an `invariant`) judges the selection of cards a game is played with: it reads only
``selected(Kind)``, card attributes and ``player_count`` (:mod:`checker.front.configurations` evaluates it on
a configuration).  Here each card of the spec gets a Boolean, *selected*, and each constraint becomes a
formula over those Booleans and the player count: a collection ``selected(K)`` is every card of ``K``
guarded by its Boolean, ``count``/``sum``/``any``/``all``/``filter`` over it sum or join the guarded
terms, and everything that reads no selection and no symbolic player count is evaluated as
:func:`~checker.front.configurations.evaluate` does.  :func:`legal_selection` gives the formulas that say
"the cards ``required`` are selected together and every constraint holds"; `rulebook conflicts` adds
them to a witness so that some legal game could be set up with its cards (configurations are finite: Z3
decides this exactly), and :func:`forbidding` names the constraints that forbid every such game (a rule that
applies only there is dead).
"""

from __future__ import annotations

import z3

from checker.front import ast
from checker.front.configurations import ConfigEvalError, Selection, evaluate
from checker.solver.encode import AND, NOT, OR, as_bool, is_const
from checker.solver.factory import private_context, run

__all__ = ["Selected", "legal_selection", "Selections", "Chosen", "away_from_start", "required_cards", "keep_if_sat",
           "forbidding", "required_formulas", "kinds_read"]


class Selected:
    """The Booleans *card is selected*, one per card of the spec, by name."""

    def __init__(self, program):
        self.program = program
        self.flags = {c.name: z3.Bool(f"selected {c.name}") for c in program.cards.values()}

    def kind(self, kind: str) -> list[tuple[str, object]]:
        return [(c.name, self.flags[c.name]) for c in self.program.cards_of(kind)]


def flag(name: str) -> z3.BoolRef:
    """The Boolean *card ``name`` is selected*, in the current context (:class:`Selected`'s, by name)."""
    return z3.Bool(f"selected {name}")


class Chosen:
    """``selected(K)`` in a search's encoder: a game's selection, not the whole deck.  Each physical card of ``K``
    is there behind its definition's *selected* Boolean (:func:`flag`; a card's copies are selected together, as
    the set-up selects them), and the kinds read are noted (:attr:`kinds`): :meth:`SymbolicSearch.well_formed
    <checker.solver.search.SymbolicSearch.well_formed>` then asserts the spec's constraints on those Booleans and
    puts a card not selected in no zone, as the interpreter's set-up leaves it (``runtime.layout``: only the
    selection's cards are made, and each is put in its kind's start zone)."""

    def __init__(self, engine):
        self.engine = engine
        self.kinds: set[str] = set()
        self._made: dict[str, list] = {}

    def __call__(self, kind: str) -> list[tuple[object, int]]:
        self.kinds.add(kind)
        hit = self._made.get(kind)
        if hit is None:
            E = self.engine
            hit = self._made[kind] = [(flag(E.def_names[E.defs[i]]), i) for i in E.selected.get(kind, ())]
        return list(hit)

    def flag_of(self, inst: int) -> z3.BoolRef:
        E = self.engine
        return flag(E.def_names[E.defs[inst]])


def kinds_read(e) -> set[str]:
    """The kinds whose ``selected(…)`` the nodes ``e`` read."""
    return {n.args[0].id for n in ast.walk(e) if isinstance(n, ast.Call) and n.func == "selected"
            and n.args and isinstance(n.args[0], ast.Name)}


def legal_selection(program, selected: Selected, players, required) -> list:
    """Formulas: every card named in ``required`` (names, or (name, condition) pairs: selected when the
    condition holds) is selected, and every `constraint` of the spec holds on the selection with
    ``players`` players (an int or a Z3 integer).  Raises ConfigEvalError for a constraint this encoding
    cannot express (a ``max``, ``the``… over a symbolic selection)."""
    out = _required(selected, required) + [_constraint(c, program, selected, players)
                                           for c in program.selection_constraints()]
    return [f for f in out if not (is_const(f) and f)]


class Selections:
    """The spec's constraints on a selection, built once for a whole search (building them, term by term, cost
    more than Z3's answers about them), in a Z3 context of their own.  ``players``: the player count, or
    None for the symbolic one (named ``player_count``, as the search's encoders name it).
    :meth:`formulas`: what :func:`legal_selection` gives, translated into the current context (the private
    context is kept, ``_ctx``, for the formulas to be translated from)."""

    def __init__(self, program, players: int | None, settings=None):
        self.program, self.settings = program, settings
        self._error: ConfigEvalError | None = None
        with private_context() as ctx:
            self._ctx = ctx
            self._selected = Selected(program)
            self._players = z3.Int("player_count") if players is None else players
            decls = program.selection_constraints()
            try:
                constraints = [_constraint(c, program, self._selected, self._players) for c in decls]
            except ConfigEvalError as exc:
                self._error, constraints = exc, []
            self._formulas = [as_bool(f) for f in constraints if not (is_const(f) and f)]
            self._false = any(is_const(f) and not f for f in constraints)
            # each constraint with the kinds it reads, for :meth:`about`
            self._by_kinds = [(frozenset(kinds_read(c)), as_bool(f)) for c, f in zip(decls, constraints)]

    def formulas(self, required) -> list:
        """:func:`legal_selection`'s formulas (for this search's player count) in the current context."""
        if self._error is not None:
            raise self._error
        ctx = z3.main_ctx()
        out = _required(Selected(self.program), required) + [f.translate(ctx) for f in self._formulas]
        if self._false:
            out.append(z3.BoolVal(False))
        return [f for f in out if not (is_const(f) and f)]

    def about(self, kinds: set[str]) -> list:
        """The constraints that read the selection of some kind of ``kinds``, in the current context; none when
        a constraint cannot be expressed (:func:`legal_selection` raises then): the *selected* Booleans are
        then free, a search over more selections than the spec allows (its proofs still hold for every game)."""
        if self._error is not None or not kinds:
            return []
        ctx = z3.main_ctx()
        return [f.translate(ctx) for read, f in self._by_kinds if read & kinds]


def forbidding(s: z3.Solver, program, players, required) -> tuple:
    """Check ``s`` with the cards ``required`` (as for :func:`legal_selection`) selected and every
    `constraint` holding, each constraint behind an assumption, within a `push` taken away after.  The
    outcome (:func:`~checker.solver.factory.run`) and, when it is ``unsat``, the constraints that forbid
    it: an unsat core made minimal by taking each of its constraints away in turn (one check each)
    — without any one of them some selection would be allowed.  Raises ConfigEvalError as
    :func:`legal_selection` does."""
    selected = Selected(program)
    track = {}
    s.push()
    try:
        s.add(*[f for f in _required(selected, required) if not (is_const(f) and f)])
        for c in program.selection_constraints():
            flag = z3.Bool(f"constraint {c.name}")
            s.add(z3.Implies(flag, as_bool(_constraint(c, program, selected, players))))
            track[str(flag)] = (flag, c)
        outcome = run(s, *[flag for flag, _ in track.values()])
        if outcome.status != "unsat":
            return outcome, []
        core = [str(x) for x in outcome.core if str(x) in track]
        for name in list(core):
            rest = [n for n in core if n != name]
            again = run(s, *[track[n][0] for n in rest])
            if again.status == "unsat":
                core = [n for n in rest if any(str(x) == n for x in again.core)]
        return outcome, [c for n, (_, c) in track.items() if n in core]      # in the spec's order
    finally:
        s.pop()


def required_formulas(program, required) -> list:
    """The formulas that select the cards ``required`` (as :func:`legal_selection` has them), without the spec's
    constraints: where none is asserted, the *selected* Booleans are free and these constrain nothing."""
    return [f for f in _required(Selected(program), required) if not (is_const(f) and f)]


def _required(selected: Selected, required) -> list:
    """A card is selected when any of its conditions holds: one formula per card (a card has a condition per
    place a question reads it in)."""
    conditions: dict[str, list] = {}
    for item in required:
        name, cond = (item, True) if isinstance(item, str) else item
        if name in selected.flags:
            conditions.setdefault(name, []).append(cond)
    return [_implies(OR(*conds), selected.flags[name]) for name, conds in conditions.items()]


def _constraint(c: ast.ConstraintDecl, program, selected: Selected, players):
    when = True if c.when is None else _sym(c.when, program, selected, players, {})
    return _implies(when, _sym(c.require, program, selected, players, {}))


def away_from_start(engine, enc) -> list[tuple]:
    """(key, cell) of each placement a query reads of a card outside its kind's start zone."""
    starts = engine.starts
    return [(key, cell) for key, cell in enc.cells.made.items()
            if key[0] == "in" and key[1] != starts.get(enc.zone_kind[key[1]])]


def required_cards(engine, enc) -> list[tuple[str, object]]:
    """(card name, its placement cell) for :func:`legal_selection`: a card out of its start zone is selected."""
    return [(engine.def_names[engine.defs[key[3]]], cell) for key, cell in away_from_start(engine, enc)]


def keep_if_sat(s: z3.Solver, formulas: list, check=run):
    """Check ``s`` with ``formulas`` added: when satisfiable they stay in ``s``, else they are taken away.
    The outcome of the check (``check``: :func:`~checker.solver.factory.run`, or a check that asserts more when
    its model asks for it, :meth:`checker.solver.search.Assumed.check`)."""
    s.push()
    s.add(*formulas)
    outcome = check(s)
    if outcome.status != "sat":
        s.pop()
    return outcome


def _implies(a, b):
    return OR(NOT(a), b)


def _symbolic(e: ast.Expr, players) -> bool:
    """Does ``e`` read the selection, or a symbolic player count?"""
    for n in ast.walk(e):
        if isinstance(n, ast.Call) and n.func == "selected":
            return True
        if isinstance(n, ast.Name) and n.id == "player_count" and not is_const(players):
            return True
    return False


def _coll(value) -> list[tuple[object, object]]:
    """A collection as (element, guard) pairs."""
    if isinstance(value, _Guarded):
        return value.items
    return [(x, True) for x in value]


class _Guarded:
    """A collection some of whose elements are there only when their guard holds."""

    def __init__(self, items):
        self.items = items


_ARITH = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
          "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
          "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


def _sym(e: ast.Expr, program, selected: Selected, players, env: dict):
    """The value of ``e`` on the symbolic selection: a Python value, a Z3 term or a guarded collection."""
    if not _symbolic(e, players):
        return evaluate(e, program, Selection(players if is_const(players) else 0, {}), env)
    ev = lambda x, en=env: _sym(x, program, selected, players, en)  # noqa: E731
    if isinstance(e, ast.Name) and e.id == "player_count":
        return players
    if isinstance(e, ast.Call) and e.func == "selected":
        return _Guarded(selected.kind(e.args[0].id))
    if isinstance(e, ast.Unary):
        v = ev(e.operand)
        return NOT(v) if e.op == "not" else -v
    if isinstance(e, ast.Binary):
        if e.op in ("and", "or"):
            return (AND if e.op == "and" else OR)(ev(e.left), ev(e.right))
        if e.op in ("in", "notin"):
            x = ev(e.left)
            found = OR(*[AND(g, x == y) for y, g in _coll(ev(e.right))])
            return found if e.op == "in" else NOT(found)
        if e.op in _ARITH:
            return _ARITH[e.op](ev(e.left), ev(e.right))
    if isinstance(e, ast.IfExpr):
        cond = ev(e.cond)
        if is_const(cond):
            return ev(e.then) if cond else ev(e.else_)
        return z3.If(cond, ev(e.then), ev(e.else_))
    if isinstance(e, ast.Call) and e.func in ("least", "greatest") and len(e.args) == 2:
        a, b = ev(e.args[0]), ev(e.args[1])
        return z3.If(a <= b, a, b) if e.func == "least" else z3.If(a >= b, a, b)
    if isinstance(e, ast.Aggregate) and e.kind in ("count", "sum", "any", "all", "filter"):
        pairs = [(x, g, ev(e.body, {**env, e.var: x}) if e.body is not None else True)
                 for x, g in _coll(ev(e.coll))]
        if e.kind == "count":
            return _sum([z3.If(as_bool(AND(g, r)), 1, 0) for _, g, r in pairs])
        if e.kind == "sum":
            return _sum([z3.If(as_bool(g), r, 0) for _, g, r in pairs])
        if e.kind == "any":
            return OR(*[AND(g, r) for _, g, r in pairs])
        if e.kind == "all":
            return AND(*[_implies(g, r) for _, g, r in pairs])
        return _Guarded([(x, AND(g, r)) for x, g, r in pairs])
    raise ConfigEvalError("this expression cannot be weighed on every selection of cards at once "
                          "(only count, sum, any, all, filter and in read selected(…) there)", e.span)


def _sum(terms: list):
    return z3.Sum(terms) if terms else 0
