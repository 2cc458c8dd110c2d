"""encode: the typed AST → Z3 terms.

The same typed program the interpreter compiles is translated here, node type by node
type (a registry; a node with no encoder is a located error).  The state is read through
a :class:`Cells` model: a concrete one reads an engine's state (legality at a decision point:
the state is given, the move is the unknown); a symbolic one makes a Z3 constant per cell,
named in the spec's own terms (``trésor[Joueur 1]``, ``Nom ∈ main[Joueur 2]``), for the
searches over every state (the conflict finder).  Nothing about a particular card is written
here.

Encoded values: ``Int`` and ``Bool`` are Z3 integers and Booleans; a player is its seat; a
card is its physical instance (≥ 0) or, for a card named by a literal, its definition (< 0),
as in the interpreter; an enum member is its index; ``none`` is :data:`NONE`.  Python
constants stand for themselves and are folded, so a term only grows where a cell or a
symbolic argument flows.  A collection is a list of ``(guard, element)`` pairs: the element
is in the collection when its guard holds.
"""

from __future__ import annotations

from typing import Callable

import z3

from checker.front import ast
from checker.base.diagnostics import Reporter
from checker.base.limits import MAX_ENCODING, MAX_RANGE
from checker.solver.formulas import _EXPR, AND, EQ, ITE, NONE, NOT, OR, Unsupported, _mod, _num, _on, as_bool, is_const
from checker.solver.memo import Memos
from checker.solver.terms import mk_arith, mk_cmp, mk_const, mk_eq, term_id
from checker.front.typecheck import Checker
from checker.front.types import BOOL, INT, Coll, EnumT, GridT, KindT, Opt, RecordT, Ty

__all__ = ["NONE", "Encoder", "Cells", "Unsupported", "AND", "OR", "NOT", "ITE", "EQ", "is_const", "as_bool"]

# ---------------------------------------------------------------- cells
# a power's limit -> the use that exhausts it; each scope's cell is named in the spec's words
USE_SCOPES = {"once_per_game": "game", "once_per_round": "round", "once_per_turn": "turn"}
USE_LABELS = {"game": "déjà_utilisé", "round": "utilisé_cette_manche", "turn": "utilisé_ce_tour"}

class Cells:
    """The state, read by the encoding.  A *concrete* model reads an engine's state: each read is a
    constant and folds away, so the terms Z3 sees are about the move alone.  A *symbolic* model makes
    one Z3 constant per cell read, named in the spec's terms, for the searches over all states."""

    own_memos = False       # the encoder's memos made over one hold over another (a store has its own: memo.py)

    def __init__(self, encoder: "Encoder", concrete: bool):
        self.enc = encoder
        self.concrete = concrete
        self.made: dict[tuple, z3.ExprRef] = {}
        self.meaning: dict[int, tuple] = {}     # cell id -> what it is, in the spec's terms

    def _cell(self, key: tuple, sort: str, label: str):
        cell = self.made.get(key)
        if cell is None:
            cell = mk_const(label, sort == "bool")
            self.made[key] = cell
            self.meaning[cell.get_id()] = key
        return cell

    def var(self, name: str, index):
        E, enc = self.enc.E, self.enc
        ty = enc.var_types[name]
        if self.concrete:
            raw = E.st.vars[name]
            if enc.p.vars[name].index is not None:
                key = enc.to_runtime(index, enc.index_types[name])
                raw = raw.get(key, 0 if enc.p.vars[name].counter else E.var_defaults[name])
            return enc.from_runtime(raw, ty)
        label = name if index is None else f"{name}[{enc.show(index, enc.index_types[name])}]"
        if isinstance(ty, (RecordT, GridT)):
            return shapes.symbolic_cell(self, ("var", name, index), ty, label)
        return self._cell(("var", name, index), "bool" if ty == BOOL else "int", label)

    def member(self, zone: str, index, inst: int):
        E, enc = self.enc.E, self.enc
        if self.concrete:
            key = enc.to_runtime(index, enc.zone_index_types[zone]) if index is not None else None
            return E.st.where.get(inst) == (zone, key)
        if (cell := self.made.get(("in", zone, index, inst))) is not None:      # made: its label is not needed
            return cell
        label = f"{E.show_card(inst)}{enc.copy_mark(inst)} ∈ {zone}"
        label += f"[{enc.show(index, enc.zone_index_types[zone])}]" if index is not None else ""
        return self._cell(("in", zone, index, inst), "bool", label)

    def used_up(self, player: int, inst: int, power):
        """Has ``player`` used ``power`` of card ``inst`` as many times as its limit allows, now?"""
        return self.used(player, inst, power.name, USE_SCOPES[power.limit])

    def used(self, player: int, inst: int, name: str, scope: str):
        """Has ``player`` used power ``name`` of card ``inst`` in this game, round or turn (``scope``)?  Three
        cells: a use in this turn need not be one in this round (the turn counter stays during a draft)."""
        E = self.enc.E
        if self.concrete:
            last = E.st.uses.get((player, inst, name))
            return last is not None and (scope == "game" or (scope == "turn" and last[0] == E.st.turn)
                                         or (scope == "round" and last[1] == E.st.round))
        label = f"{USE_LABELS[scope]}({name}, {E.show_card(inst)}, Joueur {player + 1})"
        return self._cell(("used", player, inst, name, scope), "bool", label)

# ---------------------------------------------------------------- the encoder
class Encoder:
    """Encodes expressions, quantities and the legality of actions for one game's cards and players
    (an :class:`~checker.runtime.engine.Engine` that has started a game gives both)."""

    def __init__(self, engine, concrete: bool = True, player_count=None):
        self.E = E = engine
        self.p = p = engine.program
        self.typed = engine.typed
        self.types = engine.typed.types
        # the number of players: the engine's, or a Z3 term (the symbolic states of every player count; the
        # engine's game then has the largest count, and seats beyond the term are not in the game)
        self.n = E.st.n if player_count is None else player_count
        self.seats = range(E.st.n)
        self.cells = Cells(self, concrete)
        self.enum_codes = {name: {m.name: i for i, m in enumerate(decl.members)} for name, decl in p.enums.items()}
        self.enum_names = {name: [m.name for m in decl.members] for name, decl in p.enums.items()}
        self.kind_instances = {k: [i for i, d in enumerate(E.defs) if E.def_kind[d] == k] for k in p.kinds}
        self.resolve = resolve = Checker(p, Reporter()).resolve_type
        self.var_types = {n: resolve(v.type) for n, v in p.vars.items()}
        self.index_types = {n: resolve(v.index) for n, v in p.vars.items() if v.index is not None}
        self.zone_index_types = {n: resolve(z.index) for n, z in p.zones.items() if z.index is not None}
        self.zone_kind = {n: z.kind.name for n, z in p.zones.items()}
        self.param_types = {n: [resolve(x.type) for x in a.params] for n, a in p.actions.items()}
        # rules, by the action or quantity their heads are about
        self.heads: dict[str, list[tuple[ast.RuleDecl, ast.RuleHead]]] = {}
        for rule in p.rules.values():
            for h in rule.heads:
                self.heads.setdefault(h.pattern.name, []).append((rule, h))
        self.defeats = p.defeats()
        self.domains: dict[int, tuple] = {}       # symbolic value id -> the values it can take
        self._alive: list = []                    # the terms of `domains`, kept so that their ids stay theirs
        self.memos = Memos(self)                  # of quantities and legality, and (``_zones``) zones: memo.py
        self._eqs: dict = {}
        self._defs: dict = {}
        self._zones: dict = {}
        self.defined: list = []     # what must hold for the terms to mean something (`only` finds one …)
        self.partial: list = []     # [(span, holds, reason)]: each `only`/`the` met, and when it finds one element
        self.spent, self.limit = 0, MAX_ENCODING    # elements ranged over so far (aggregates, ranges), at most

    # ------------------------------------------------------------ values
    def show(self, value, ty: Ty) -> str:
        if isinstance(ty, Opt):
            ty = ty.inner
        if isinstance(value, tuple) or isinstance(ty, GridT):
            text = shapes.shown(self, value, ty)
            if text is not None:
                return text
        if value is None or value == NONE:
            return "aucun"
        if isinstance(ty, EnumT):
            return self.enum_names[ty.name][value] if isinstance(value, int) else str(value)
        if isinstance(ty, KindT):
            return self.E.show_card(value) + (self.copy_mark(value) if value >= 0 else "")
        if ty == BOOL:
            return "oui" if value else "non"
        if ty == INT:
            return str(value)
        return f"Joueur {value + 1}"

    def copy_mark(self, inst: int) -> str:
        """``#2``, ``#3`` … for the second and later copies of a card that has several."""
        copies = self.E.instances.get(self.E.defs[inst], ())
        k = copies.index(inst) if inst in copies else 0
        return f"#{k + 1}" if k else ""

    def from_runtime(self, value, ty: Ty):
        """An interpreter value → its encoding (a constant, or a collection of constants)."""
        if isinstance(ty, Coll):
            return [(True, self.from_runtime(v, ty.elem)) for v in value]
        if value is None:
            return NONE
        if isinstance(ty, Opt):
            ty = ty.inner
        if isinstance(ty, (GridT, RecordT)):
            return shapes.encoded(self, value, ty)
        if isinstance(ty, EnumT):
            return self.enum_codes[ty.name][value]
        return value

    def to_runtime(self, value, ty: Ty):
        """A constant encoding (e.g. read from a model) → the interpreter's value."""
        if isinstance(ty, Coll):
            return tuple(self.to_runtime(v, ty.elem) for _, v in value)
        if isinstance(value, tuple):
            return shapes.plain(self, value, ty.inner if isinstance(ty, Opt) else ty)
        if value == NONE:
            return None
        if isinstance(ty, Opt):
            ty = ty.inner
        if isinstance(ty, EnumT):
            return self.enum_names[ty.name][value]
        if ty == BOOL:
            return bool(value)
        return value

    def fresh(self, name: str, ty: Ty, domain) -> z3.ExprRef:
        """A symbolic value of type ``ty`` ranging over ``domain`` (a collection); the caller asserts
        the membership (returned as the second element)."""
        if isinstance(ty, RecordT):
            return shapes.fresh_record(self, name, ty, domain)
        v = z3.Bool(f"{name}") if ty == BOOL else z3.Int(f"{name}")
        values = tuple(x for g, x in domain if not (is_const(g) and not g))
        if all(is_const(x) for x in values):
            self.domains[v.get_id()] = values
            self._alive.append(v)          # Z3 reuses the ids of terms that are gone
        inside = OR(*(AND(g, EQ(v, x)) for g, x in domain))
        return v, inside

    def possible(self, v, kind: str | None = None) -> tuple:
        """The constants a card value can be."""
        if is_const(v):
            return (v,)
        known = self.domains.get(term_id(v))
        if known is not None:
            return known
        if z3.is_app_of(v, z3.Z3_OP_ITE):
            out = tuple(dict.fromkeys(self.possible(v.arg(1), kind) + self.possible(v.arg(2), kind)))
            self.domains[v.get_id()] = out
            self._alive.append(v)
            return out
        if z3.is_int_value(v):
            return (v.as_long(),)
        if kind is not None:
            return tuple(self.kind_instances[kind])
        return tuple(range(len(self.E.defs)))

    def defof(self, v, kind: str | None = None):
        """A card value's definition (cards compare by definition)."""
        defs = self.E.defs
        if is_const(v):
            return v if v < 0 else defs[v]
        key = (term_id(v), kind)
        hit = self._defs.get(key)
        if hit is not None:
            return hit[0]
        out = NONE
        for x in self.possible(v, kind):
            out = ITE(self.eq(v, x), x if x < 0 else defs[x], out)
        self._defs[key] = (out, v)
        return out

    def physical(self, v, span=None, use: str = "index by a physical card"):
        """A card used as an index (or compared with `is`): a definition means its single physical copy (as in
        the interpreter); a symbolic card is one already."""
        if is_const(v):
            if v == NONE or v >= 0:
                return v
            copies = self.E.instances.get(v)
            if not copies:
                return v
            if len(copies) > 1:
                raise Unsupported(f"\"{self.E.def_names[v]}\" has {len(copies)} copies: {use}", span)
            return copies[0]
        named = [x for x in self.possible(v) if x != NONE and x < 0]
        if not named:
            return v
        out = v           # a value that may be a card's name: each name becomes its single copy
        for x in named:
            out = ITE(self.eq(v, x), self.physical(x, span, use), out)
        return out

    def eq(self, a, b):
        """``a == b``, remembered for a symbolic ``a`` and a constant ``b`` (the same test recurs often)."""
        if is_const(a) or not is_const(b):
            return EQ(a, b)
        key = (term_id(a), b)
        hit = self._eqs.get(key)
        if hit is None:
            hit = self._eqs[key] = (mk_eq(a, b), a)     # keep ``a`` alive: its id stays its own
        return hit[0]

    def type_of(self, e) -> Ty | None:
        return self.types.get(id(e))

    def kind_of(self, e) -> str | None:
        t = self.type_of(e)
        if isinstance(t, Opt):
            t = t.inner
        if isinstance(t, Coll):
            t = t.elem
        return t.name if isinstance(t, KindT) else None

    # ------------------------------------------------------------ state
    def select(self, index, domain, read: Callable):
        """``read(k)`` at a possibly symbolic index: a chain of ``If`` over the index's domain."""
        if is_const(index):
            return read(index)
        out = None
        for k in domain:
            v = read(k)
            out = v if out is None else ITE(self.eq(index, k), v, out)
        return NONE if out is None else out     # no possible index: the option it belongs to is impossible

    def index_domain(self, ty: Ty, index) -> tuple:
        if isinstance(ty, Opt):
            ty = ty.inner
        if isinstance(ty, KindT):
            return self.possible(index, ty.name)
        if isinstance(ty, EnumT):
            return tuple(range(len(self.enum_names[ty.name])))
        return tuple(self.seats)

    def seated(self, k: int):
        """Is seat ``k`` in the game?"""
        return True if is_const(self.n) else (True if k < 2 else mk_cmp("<", k, self.n))

    def var(self, name: str, index=None, span=None):
        self.memos.note(("var", name))
        if index is None:
            return self.cells.var(name, None)
        ty = self.index_types[name]
        if isinstance(ty, (GridT, RecordT)):
            if index == NONE:
                return self.from_runtime(self.E.var_defaults[name], self.var_types[name])
            if all(is_const(x) for x in index) if isinstance(index, tuple) else is_const(index):
                return self.cells.var(name, index)
            return shapes.select_shaped(self, index, lambda k: self.cells.var(name, k))
        if isinstance(ty, KindT):
            index = self.physical(index, span)
        return self.select(index, self.index_domain(ty, index), lambda k: self.cells.var(name, k))

    def zone(self, name: str, index=None, span=None) -> list:
        kind = self.zone_kind[name]
        self.memos.note(("in", name))
        if index is not None and isinstance(self.zone_index_types[name], (GridT, RecordT)) and not (
                is_const(index) and (not isinstance(index, tuple) or all(is_const(x) for x in index))):
            guards = {}
            for k in shapes.known(self, index) or ():
                for i in self.kind_instances[kind]:
                    guards[i] = OR(guards.get(i, False), AND(self.eq(index, k), self.cells.member(name, k, i)))
            if shapes.known(self, index) is None:
                raise Unsupported(f"zone {name} at a cell or record not known in advance", span)
            return [(g, i) for i, g in guards.items() if not (is_const(g) and not g)]
        if index is not None and isinstance(self.zone_index_types[name], KindT):
            index = self.physical(index, span)
        if index is None or is_const(index):
            return [(self.cells.member(name, index, i), i) for i in self.kind_instances[kind]]
        return self.memos.memo(self._zones, "zones", (name, term_id(index)), lambda: self._zone_at(name, index), index)

    def _zone_at(self, name: str, index) -> list:
        self.memos.note(("in", name))       # the memo's own read (the caller's note went to the memo using it)
        at = [(self.eq(index, k), k) for k in self.index_domain(self.zone_index_types[name], index)]
        out = []
        for i in self.kind_instances[self.zone_kind[name]]:
            guard = OR(*(AND(e, m) for e, k in at for m in (self.cells.member(name, k, i),)
                         if not (is_const(m) and not m)))
            if not (is_const(guard) and not guard):
                out.append((guard, i))
        return out

    # ------------------------------------------------------------ expressions
    def expr(self, e, env: dict):
        fn = _EXPR.get(type(e))
        if fn is None:
            raise Unsupported(f"no Z3 encoding for {type(e).__name__}", getattr(e, "span", None))
        return fn(self, e, env)

    def spend(self, n: int, span) -> None:
        """Count ``n`` more elements ranged over; past :data:`~checker.base.limits.MAX_ENCODING` the question
        is too large to encode (a located :class:`Unsupported`, which the commands report as undecided)."""
        self.spent += n
        self.memos.spent(n, span)
        if self.spent > self.limit:
            raise Unsupported(f"this question ranges over more than {self.limit:,} elements (the limit of "
                              f"one Z3 encoding): its aggregates are nested too deeply over large collections", span)

    def invariants(self) -> list:
        """The spec's `invariant`s, as constraints on this encoding's state (those that do not fold to true)."""
        out = []
        for inv, _, _ in self.E.invariants:
            holds = self.expr(inv.require, {})
            if inv.when is not None:
                holds = OR(NOT(self.expr(inv.when, {})), holds)
            if not (is_const(holds) and holds):
                out.append(holds)
        return out

    def coll(self, e, env: dict) -> list:
        v = self.expr(e, env)
        if isinstance(v, (list, tuple)) and (not v or isinstance(v[0], tuple)):
            return list(v)
        raise Unsupported("a collection was expected here", getattr(e, "span", None))

    # ------------------------------------------------------------ quantities and rules
    @staticmethod
    def key(v):
        if isinstance(v, z3.ExprRef):
            return ("z", term_id(v))
        if isinstance(v, list):
            return tuple(Encoder.key(g) + Encoder.key(x) for g, x in v)
        if isinstance(v, tuple):
            return ("t",) + tuple(Encoder.key(x) for x in v)
        return (v,)

    def ordered(self, heads: list) -> list:
        """Value rules, winners (by `overrides` or `precedence`) before the rules they beat."""
        heads = list(heads)
        out = []
        while heads:
            for cand in heads:
                if not any((o[0].name, cand[0].name) in self.defeats for o in heads if o is not cand):
                    break
            else:
                cand = heads[0]
            heads.remove(cand)
            out.append(cand)
        return out

    def rule_env(self, rule: ast.RuleDecl, head: ast.RuleHead, args: tuple) -> dict:
        env = {b: a for (b, _), a in zip(head.pattern.binders, args)}
        if rule.card is not None:
            env["this"] = self.E.def_ids[rule.card]
        return env

    def rule_cases(self, rule: ast.RuleDecl, head: ast.RuleHead, args: tuple) -> list[tuple]:
        """[(guard, env)]: the head is read with ``env`` when ``guard`` holds — its card while active, and
        each card imitating it (the interpreter's ``CardState.thises``)."""
        env = self.rule_env(rule, head, args)
        cards = self.E.cards
        active, copies = cards.wrapping(rule)
        if not (active or copies):
            return [(True, env)]
        key = env["this"]
        out = [(self.active(key), env)]
        if copies:
            q = cards.imitates[self.E.def_kind[key]]
            for inst in self.kind_instances[self.E.def_kind[key]]:
                guard = AND(self.eq(self.defof(self.quantity(q, (inst,))), key), self.active(inst))
                if not (is_const(guard) and not guard):
                    out.append((guard, {**env, "this": inst}))
        return out

    def active(self, card):
        """Does the card work now (its kind's `active` quantity; always, for a kind without one)?"""
        q = self.E.cards.active.get(self.E.def_kind[self.E.definition(card)])
        if q is None:
            return True
        copies = self.E.instances.get(card) if card < 0 else None
        if copies:
            return OR(*(self.quantity(q, (c,)) for c in copies))
        return self.quantity(q, (card,))

    def applies(self, rule: ast.RuleDecl, head: ast.RuleHead, args: tuple):
        return self.memos.applies(rule, head, args, lambda: OR(*(
            AND(g, True if head.when is None else self.expr(head.when, env)) for g, env in self.rule_cases(rule, head, args))))

    def quantity(self, name: str, args: tuple):
        key = (name, tuple(self.key(a) for a in args))
        return self.memos.memo(self.memos.quantities, "quantities", key, lambda: self._quantity(name, args), args)

    def _quantity(self, name: str, args: tuple):
        decl = self.p.quantities[name]
        env = {prm.name: a for prm, a in zip(decl.params, args)}
        result = self.expr(decl.default, env)
        heads = self.heads.get(name, [])
        for rule, head in reversed(self.ordered([h for h in heads if h[1].kind == "value"])):
            for g, renv in reversed(self.rule_cases(rule, head, args)):
                when = AND(g, True if head.when is None else self.expr(head.when, renv))
                result = ITE(when, self.expr(head.expr, renv), result)
        for rule, head in heads:
            if head.kind == "adjust":
                for g, renv in self.rule_cases(rule, head, args):
                    when = AND(g, True if head.when is None else self.expr(head.when, renv))
                    amount = ITE(when, _num(self.expr(head.expr, renv)), 0)
                    if not (is_const(amount) and amount == 0):     # an adjustment that never applies adds no term
                        result = mk_arith("+", _num(result), amount)
        return result

    def ancestors(self, action: str) -> list[str]:
        chain = []
        while action and action not in chain:
            chain.append(action)
            parent = self.p.actions[action].parent
            action = parent[0] if parent else None
        return chain

    def rules_about(self, action: str) -> list:
        return [rh for a in self.ancestors(action) for rh in self.heads.get(a, ()) if rh[1].kind in ("permit", "forbid")]

    def legality(self, action: str, args: tuple):
        """(legal, [(forbid rule, applies, lifted, [(permit rule, applies)])]) for ``action(args)``."""
        key = (action, tuple(self.key(a) for a in args))
        return self.memos.memo(self.memos.legal, "legal", key, lambda: self._legality(action, args), args)

    def _legality(self, action: str, args: tuple):
        about = self.rules_about(action)
        permits = [(r, h) for r, h in about if h.kind == "permit"]
        parts, legal = [], True
        applies = {}
        for r, h in about:
            applies.setdefault(id(h), self.applies(r, h, args))
        for r, h in about:
            if h.kind != "forbid":
                continue
            lifters = [(pr, applies[id(ph)]) for pr, ph in permits if (pr.name, r.name) in self.defeats]
            lifted = OR(*(a for _, a in lifters))
            parts.append((r, h, applies[id(h)], lifted, lifters))
            legal = AND(legal, OR(NOT(applies[id(h)]), lifted))
        return legal, parts, [(r, h, applies[id(h)]) for r, h in permits]


# ==================================================================== expressions

@_on(ast.IntLit)
@_on(ast.BoolLit)
def _(enc, e, env):
    return e.value


@_on(ast.NoneLit)
def _(enc, e, env):
    return NONE


@_on(ast.StrLit)
def _(enc, e, env):
    return enc.E.def_ids.get(e.value, e.value)


@_on(ast.Name)
def _(enc: Encoder, e: ast.Name, env):
    name, p = e.id, enc.p
    if name in env:
        return env[name]
    if name == "player_count":
        return enc.n
    if name == "players":
        return [(enc.seated(k), k) for k in enc.seats]
    if name in p.enum_members:
        enum = p.enum_members[name][0]
        return enc.enum_codes[enum][name]
    if name in p.enums:
        return [(True, i) for i in range(len(enc.enum_names[name]))]
    if name in p.vars:
        return enc.var(name)
    if name in p.zones:
        return enc.zone(name)
    raise Unsupported(f"'{name}' has no value here", e.span)


@_on(ast.Index)
def _(enc: Encoder, e: ast.Index, env):
    name = e.obj.id
    index = enc.expr(e.index, env)
    if name in enc.p.zones:
        return enc.zone(name, index, e.span)
    return enc.var(name, index, e.span)


_BUILTIN = {
    "left": lambda enc, p: _mod(p + 1, enc.n, enc.E.st.n),
    "right": lambda enc, p: _mod(p - 1 + enc.n, enc.n, enc.E.st.n),
    "least": lambda enc, a, b: ITE(mk_cmp("<", a, b), a, b) if not (is_const(a) and is_const(b)) else min(a, b),
    "greatest": lambda enc, a, b: ITE(mk_cmp(">", a, b), a, b) if not (is_const(a) and is_const(b)) else max(a, b),
    "half": lambda enc, a: a // 2 if is_const(a) else a / 2,
}


@_on(ast.Call)
def _(enc: Encoder, e: ast.Call, env):
    shaped = shapes.call(enc, e, env)
    if shaped is not shapes.MISSING:
        return shaped
    E = enc.E
    if e.func == "selected":         # a search's encoder: a game's selection, each card behind its Boolean
        chosen = getattr(enc, "chosen", None)       # (checker.solver.selection.Chosen); else every card
        return [(True, i) for i in E.selected[e.args[0].id]] if chosen is None else chosen(e.args[0].id)
    args = tuple(enc.expr(a, env) for a in e.args)
    if e.func == "seats_from":
        return [(enc.seated(i), _mod(args[0] + i, enc.n, enc.E.st.n)) for i in enc.seats]
    if e.func == "seats_counterclockwise_from":
        return [(enc.seated(i), _mod(args[0] - i + enc.n, enc.n, enc.E.st.n)) for i in enc.seats]
    if e.func in _BUILTIN:
        return _BUILTIN[e.func](enc, *args)
    if e.func in enc.p.tables:
        decl = enc.p.tables[e.func]
        rows = E.tables[e.func]
        types = [enc.resolve(x.type) for x in decl.params]
        out, conds = NONE, []
        for keys, value in reversed(list(rows.items())):
            cond = AND(*(EQ(a, enc.from_runtime(k, t)) for a, k, t in zip(args, keys, types)))
            conds.append(cond)
            out = ITE(cond, enc.from_runtime(value, enc.resolve(decl.type)), out)
        # a key with no row stops the interpreter (« table … has no row for … »): as for `only`, a state where
        # it has none is not one the encoding describes, and in an effect it is a failure at the lookup
        found = OR(*conds)
        if is_const(found):
            if not found:
                enc.partial.append((e.span, False, f"table {e.func} has no row for {tuple(args)}"))
        else:
            enc.defined.append(found)
            enc.partial.append((e.span, found, f"table {e.func} has no row for the key looked up"))
        return out
    return enc.quantity(e.func, args)


@_on(ast.Can)
def _(enc: Encoder, e: ast.Can, env):
    return enc.legality(e.action, tuple(enc.expr(a, env) for a in e.args))[0]


@_on(ast.Attr)
def _(enc: Encoder, e: ast.Attr, env):
    field = shapes.record_field(enc, e, env)
    if field is not shapes.MISSING:
        return field
    obj = enc.expr(e.obj, env)
    attrs, defs = enc.E.card_attrs, enc.E.defs
    ty = enc.type_of(e)

    def read(card):
        d = card if card < 0 else defs[card]
        return enc.from_runtime(attrs[d][e.name], ty)
    if is_const(obj):
        if obj == NONE:
            raise Unsupported(f"reading .{e.name} of none", e.span)
        return read(obj)
    out = None
    # a card tested against none is read only where it is one (the narrowing of the type checker)
    possible = [x for x in enc.possible(obj, enc.kind_of(e.obj)) if x != NONE]
    if isinstance(ty, Coll):               # a set-valued attribute: each element guarded by which card it is
        return [(AND(enc.eq(obj, x), g), v) for x in possible for g, v in read(x)]
    for x in possible:
        v = read(x)
        if isinstance(v, str):
            raise Unsupported(f".{e.name} of a card not known in advance", e.span)
        out = v if out is None else ITE(enc.eq(obj, x), v, out)
    return NONE if out is None else out     # no possible card: the option it belongs to is impossible


@_on(ast.Unary)
def _(enc, e: ast.Unary, env):
    v = enc.expr(e.operand, env)
    return NOT(v) if e.op == "not" else -_num(v)


def _is_card(enc: Encoder, e) -> bool:
    return enc.kind_of(e) is not None and not isinstance(enc.type_of(e), Coll)


def _member(enc: Encoder, e: ast.Binary, env):
    coll = enc.coll(e.right, env)
    x = enc.expr(e.left, env)
    if enc.kind_of(e.right) is not None:
        kind = enc.kind_of(e.right)
        dx = enc.defof(x, kind)
        return OR(*(AND(g, enc.eq(dx, enc.defof(v, kind))) for g, v in coll if not (is_const(g) and not g)))
    return OR(*(AND(g, enc.eq(x, v)) for g, v in coll if not (is_const(g) and not g)))


def _physical(enc: Encoder, e: ast.Binary, env):
    """`a is b` and `a is in z`: physical cards compared (a card's name means its single copy)."""
    x = enc.physical(enc.expr(e.left, env), e.span, "`is` compares physical cards, not a card's name")
    if e.op in ("is", "isnot"):
        v = enc.eq(x, enc.physical(enc.expr(e.right, env), e.span, "`is` compares physical cards, not a card's name"))
    else:
        coll = enc.coll(e.right, env)
        v = OR(*(AND(g, enc.eq(x, enc.physical(y, e.span, "`is` compares physical cards, not a card's name")))
                 for g, y in coll if not (is_const(g) and not g)))
    return NOT(v) if e.op in ("isnot", "isnotin") else v


_ARITH = {
    "+": lambda a, b: mk_arith("+", a, b), "-": lambda a, b: mk_arith("-", a, b), "*": lambda a, b: a * b,
    "<": lambda a, b: mk_cmp("<", a, b), "<=": lambda a, b: mk_cmp("<=", a, b),
    ">": lambda a, b: mk_cmp(">", a, b), ">=": lambda a, b: mk_cmp(">=", a, b),
}


@_on(ast.Binary)
def _(enc: Encoder, e: ast.Binary, env):
    op = e.op
    if op == "and":
        a = enc.expr(e.left, env)
        if is_const(a) and not a:
            return False
        return AND(a, enc.expr(e.right, env))
    if op == "or":
        a = enc.expr(e.left, env)
        if is_const(a) and a:
            return True
        return OR(a, enc.expr(e.right, env))
    if op in ("in", "notin"):
        v = _member(enc, e, env)
        return NOT(v) if op == "notin" else v
    if op in ("is", "isnot", "isin", "isnotin"):
        return _physical(enc, e, env)
    a, b = enc.expr(e.left, env), enc.expr(e.right, env)
    if op in ("==", "!="):
        if _is_card(enc, e.left) or _is_card(enc, e.right):
            kind = enc.kind_of(e.left) or enc.kind_of(e.right)
            a, b = enc.defof(a, kind), enc.defof(b, kind)
        v = EQ(a, b)
        return NOT(v) if op == "!=" else v
    if op == "..":
        if is_const(a) and is_const(b):
            if b - a >= MAX_RANGE:
                raise Unsupported(f"the range {a}..{b} holds more than {MAX_RANGE:,} integers", e.span)
            enc.spend(max(0, b - a + 1), e.span)
            return [(True, k) for k in range(a, b + 1)]
        # bounds depend on the state: the range is encoded over the bounds the checker proved for it
        bounds = enc.typed.ranges.get(id(e))
        if bounds is None:
            raise Unsupported("a range whose bounds the checker has not proved (check the spec first)", e.span)
        lo, hi = bounds
        enc.spend(max(0, hi - lo + 1), e.span)
        return [(AND(a <= k, k <= b), k) for k in range(lo, hi + 1)]
    a, b = _num(a), _num(b)
    if op in _ARITH:
        return _ARITH[op](a, b)
    if op in ("/", "%"):
        if is_const(a) and is_const(b):
            if b == 0:
                raise Unsupported("division by zero", e.span)
            return a // b if op == "/" else a % b
        return a / b if op == "/" else a % b
    raise Unsupported(f"no Z3 encoding for operator {op}", e.span)


@_on(ast.IfExpr)
def _(enc: Encoder, e: ast.IfExpr, env):
    c = enc.expr(e.cond, env)
    if is_const(c):
        return enc.expr(e.then if c else e.else_, env)
    a, b = enc.expr(e.then, env), enc.expr(e.else_, env)
    if isinstance(a, list):
        return [(AND(c, g), x) for g, x in a] + [(AND(NOT(c), g), x) for g, x in b]
    return ITE(c, a, b)


@_on(ast.SetLit)
def _(enc, e: ast.SetLit, env):
    return [(True, enc.expr(x, env)) for x in e.items]



from checker.solver import shapes  # noqa: E402  (registers its handlers; used above at run time)
from checker.solver import aggregates  # noqa: E402,F401  (registers its handler)
from checker.solver import searches  # noqa: E402,F401  (registers its handlers)
