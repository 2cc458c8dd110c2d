"""The core of typecheck: the checker's state (:class:`Checker`), the environment of names (:class:`Env`),
the result (:class:`Typed`), the handler tables expressions and statements are dispatched through, and
narrowing (what a test against none tells about a value).

The handlers live in :mod:`checker.front.typecheck` (expressions, statements), :mod:`checker.front.typecheck_shapes`
(grids, records, searches through a relation) and :mod:`checker.front.declarations` (declarations); each
registers itself in the tables here, so this module imports none of them.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from checker.front import ast
from checker.base.diagnostics import Reporter
from checker.front.program import Program, card_hint, did_you_mean
from checker.base.registry import registrar
from checker.base.source import Span
from checker.front.types import BOOL, ERROR, INT, PLAYER, TEXT, Coll, EnumT, GridT, KindT, Opt, RecordT, Ty, assignable

__all__ = ["Typed", "Env", "Checker", "BUILTIN_NAMES", "BUILTIN_FUNCTIONS", "shape", "narrowing", "narrowed", "unbind"]

BUILTIN_NAMES = ("players", "player_count", "me", "this")
BUILTIN_FUNCTIONS = ("left", "right", "seats_from", "seats_counterclockwise_from", "selected", "least", "greatest",
                     "half", "step", "row", "column", "center", "rotate")


@dataclasses.dataclass
class Typed:
    program: Program
    types: dict[int, Ty] = dataclasses.field(default_factory=dict)
    # id(range `a..b`) -> the bounds :mod:`checker.front.bounds` proved for its elements (the Z3 encoding's domain)
    ranges: dict[int, tuple[int, int]] = dataclasses.field(default_factory=dict)
    # a base spec's examples that an overlay's changes make ill-formed (a card removed…): name -> the first error
    inapplicable: dict[str, str] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Env:
    """What names mean at one point of a spec."""

    locals: dict[str, Ty]
    this: Ty | None = None          # inside a card
    me: bool = False                # inside a power
    config_only: bool = False       # constraints and configurations see only the selection
    cancel: bool = False            # inside a power reacting to a window opened `before` an action
    mutable: frozenset = frozenset()    # the locals bound by `let`, which `set` may change
    narrowed: tuple = ()            # (shape of an expression, its type once known not to be none)
    enclosing: frozenset = frozenset()  # the locals bound outside the block being checked (if, for, repeat)
    ended: frozenset = frozenset()      # names bound in a nested block that has ended: out of scope, still held

    def bind(self, name: str, ty: Ty, mutable: bool = False) -> "Env":
        names = self.mutable | {name} if mutable else self.mutable - {name}
        env = dataclasses.replace(self, locals={**self.locals, name: ty}, mutable=names)
        return unbind(env, name) if self.narrowed else env

    def inner(self) -> "Env":
        """The environment at the start of a nested block: every local bound so far is bound outside it."""
        return dataclasses.replace(self, enclosing=frozenset(self.locals))

    def narrow(self, facts: tuple) -> "Env":
        return dataclasses.replace(self, narrowed=self.narrowed + tuple(facts))

    def with_narrowed(self, facts: tuple) -> "Env":
        return dataclasses.replace(self, narrowed=facts)


_EXPR: dict[type, Callable] = {}
_STMT: dict[type, Callable] = {}


_expr = registrar(_EXPR)


_stmt = registrar(_STMT)


class Checker:
    def __init__(self, program: Program, reporter: Reporter):
        self.p = program
        self.r = reporter
        self.typed = Typed(program)
        self.decisions_used: set[str] = set()

    # ---------------------------------------------------------------- helpers
    def err(self, code: str, message: str, span: Span | None, **kw) -> Ty:
        """Report; ``subject=name`` marks an unknown-name error about ``name``."""
        self.r.error(code, message, span, **kw)
        return ERROR

    def resolve_type(self, t: ast.TypeExpr) -> Ty:
        if isinstance(t, ast.OptionalType):
            inner = self.resolve_type(t.inner)
            return inner if inner is ERROR else Opt(inner)
        if isinstance(t, ast.SetType):
            inner = self.resolve_type(t.inner)
            return inner if inner is ERROR else Coll(inner)
        prims = {"Int": INT, "Bool": BOOL, "Text": TEXT, "Player": PLAYER}
        if t.name in prims:
            return prims[t.name]
        if t.name in self.p.enums:
            return EnumT(t.name)
        if t.name in self.p.kinds:
            return KindT(t.name)
        if t.name in self.p.grids:
            return GridT(t.name)
        if t.name in self.p.records:
            return RecordT(t.name)
        return self.err("E0202", f"unknown type '{t.name}'", t.span, subject=t.name,
                        hint=did_you_mean(t.name, [*prims, *self.p.enums, *self.p.kinds, *self.p.grids,
                                                   *self.p.records]))

    def index_type(self, t: ast.TypeName | None) -> Ty | None:
        return None if t is None else self.resolve_type(t)

    def expect(self, expr: ast.Expr, want: Ty, env: Env, what: str) -> Ty:
        got = self.expr(expr, env, want)
        if not assignable(got, want):
            self.err("E0301", f"{what} should be {want}, but this is {got}", expr.span)
        return got

    def card_ref(self, lit: ast.StrLit, want: Ty | None) -> Ty:
        """A string literal: a card when it names one, else text (an error where a card is expected)."""
        card = self.p.cards.get(lit.value)
        if card is not None:
            return KindT(card.kind)
        if isinstance(want, (KindT, Opt)) and isinstance(want.inner if isinstance(want, Opt) else want, KindT):
            kind = (want.inner if isinstance(want, Opt) else want).name
            return self.err("E0203", f"unknown card \"{lit.value}\"", lit.span, subject=lit.value,
                            hint=card_hint(self.p, lit.value, [c.name for c in self.p.cards_of(kind)] or self.p.cards))
        return TEXT

    def expr(self, e: ast.Expr, env: Env, want: Ty | None = None) -> Ty:
        handler = _EXPR.get(type(e))
        if handler is None:
            return self.err("E0303", f"unsupported expression {type(e).__name__}", getattr(e, "span", None))
        ty = handler(self, e, env, want)
        if env.narrowed and isinstance(ty, Opt):
            key = shape(e)
            ty = next((t for k, t in reversed(env.narrowed) if k == key), ty)
        self.typed.types[id(e)] = ty
        return ty

    def block(self, stmts, env: Env) -> Env:
        for s in stmts:
            handler = _STMT.get(type(s))
            if handler is None:
                self.err("E0303", f"unsupported statement {type(s).__name__}", getattr(s, "span", None))
                continue
            env = handler(self, s, env) or env
        return env

    def args(self, what: str, name: str, params: tuple[ast.Param, ...], args, env: Env, span: Span) -> None:
        if len(args) != len(params):
            sig = ", ".join(f"{p.name}: {self.resolve_type(p.type)}" for p in params)
            self.err("E0302", f"{what} '{name}' takes {len(params)} argument(s), {len(args)} given", span,
                     hint=f"{name}({sig})")
        for param, arg in zip(params, args):
            self.expect(arg, self.resolve_type(param.type), env, f"argument '{param.name}' of {name}")

    def invoke(self, what: str, table: dict, name: str, args, env: Env, span: Span) -> None:
        """`do`, `call`, `signal`, `can` and offered actions: the name must be declared, the arguments fit."""
        decl = table.get(name)
        if decl is None:
            self.err("E0202", f"unknown {what} '{name}'", span, subject=name, hint=did_you_mean(name, table))
            return
        self.args(what, name, decl.params, args, env, span)

    def params_env(self, params: tuple[ast.Param, ...], env: Env) -> Env:
        for p in params:
            env = env.bind(p.name, self.resolve_type(p.type))
        return env

    def lvalue(self, lv: ast.LValue, env: Env, *, want: str) -> Ty:
        """Type of an assignable place: a var/counter (want='var'|'counter') or a zone (want='zone')."""
        decl = self.p.vars.get(lv.name) or self.p.zones.get(lv.name)
        if decl is None:
            pool = self.p.zones if want == "zone" else self.p.vars
            return self.err("E0202", f"unknown {want} '{lv.name}'", lv.span, subject=lv.name, hint=did_you_mean(lv.name, pool))
        is_zone = isinstance(decl, ast.ZoneDecl)
        if want == "zone" and not is_zone:
            return self.err("E0205", f"'{lv.name}' is a {'counter' if decl.counter else 'var'}, not a zone", lv.span)
        if want in ("var", "counter") and is_zone:
            return self.err("E0205", f"'{lv.name}' is a zone; cards are moved with `move`, not `set`", lv.span)
        if want == "counter" and not decl.counter:
            return self.err("E0205", f"'{lv.name}' is a var, not a counter; only counters hold gold to transfer",
                            lv.span)
        self._check_index(decl, lv.index, lv.span, env)
        if is_zone:
            return Coll(KindT(decl.kind.name), decl.ordered)
        return self.resolve_type(decl.type)

    def _check_index(self, decl, index: ast.Expr | None, span: Span, env: Env) -> None:
        if decl.index is None and index is not None:
            self.err("E0302", f"'{decl.name}' is not indexed", span, hint=f"write {decl.name} alone")
        elif decl.index is not None and index is None:
            self.err("E0302", f"'{decl.name}' is indexed by {decl.index.name}", span,
                     hint=f"write {decl.name}[…] with a {decl.index.name}")
        elif decl.index is not None:
            self.expect(index, self.resolve_type(decl.index), env, f"the index of {decl.name}")

    def rule_ref(self, name: str, span: Span) -> ast.RuleDecl | None:
        rule = self.p.rules.get(name)
        if rule is None:
            self.err("E0204", f"unknown rule '{name}'", span, subject=name, hint=did_you_mean(name, self.p.rules))
        return rule

    def decision_ref(self, name: str, span: Span) -> None:
        self.decisions_used.add(name)
        if name not in self.p.decisions:
            self.err("E0202", f"unknown decision '{name}'", span, subject=name, hint=did_you_mean(name, self.p.decisions))


# ---------------------------------------------------------------- narrowing


def shape(e) -> tuple | None:
    """The structure of a pure expression, without its spans (None: not one that narrowing follows)."""
    if isinstance(e, ast.Name):
        return ("name", e.id)
    if isinstance(e, (ast.IntLit, ast.BoolLit, ast.StrLit)):
        return ("lit", e.value)
    if isinstance(e, ast.Index):
        inner = shape(e.obj), shape(e.index)
        return None if None in inner else ("index", *inner)
    if isinstance(e, ast.Attr):
        inner = shape(e.obj)
        return None if inner is None else ("attr", inner, e.name)
    if isinstance(e, ast.Call):
        args = tuple(shape(a) for a in e.args)
        return None if None in args else ("call", e.func, args)
    return None


def _mentions(key: tuple, name: str) -> bool:
    if key == ("name", name):
        return True
    return any(isinstance(part, tuple) and _mentions(part, name) for part in key)


def narrowing(c: Checker, cond: ast.Expr, truth: bool, locals_only: dict | None = None) -> tuple:
    """The (shape, type) facts that hold when ``cond`` (already checked) is ``truth``: a value tested
    against none is known not to be none.  With ``locals_only`` (the local names of a block), only
    local names are followed: the statements of a block may change the game's state."""
    if isinstance(cond, ast.Unary) and cond.op == "not":
        return narrowing(c, cond.operand, not truth, locals_only)
    if isinstance(cond, ast.Binary):
        if (cond.op == "and" and truth) or (cond.op == "or" and not truth):
            return narrowing(c, cond.left, truth, locals_only) + narrowing(c, cond.right, truth, locals_only)
        if cond.op in ("==", "!=") and (cond.op == "!=") == truth:
            side = cond.left if isinstance(cond.right, ast.NoneLit) else \
                cond.right if isinstance(cond.left, ast.NoneLit) else None
            ty = c.typed.types.get(id(side)) if side is not None else None
            key = shape(side) if side is not None else None
            if key is not None and isinstance(ty, Opt) and (
                    locals_only is None or (key[0] == "name" and key[1] in locals_only)):
                return ((key, ty.inner),)
    return ()


def narrowed(env: Env, facts: tuple) -> Env:
    return env.narrow(facts) if facts else env


def unbind(env: Env, name: str) -> Env:
    """A local name bound again: what was known about it no longer holds."""
    kept = tuple((k, t) for k, t in env.narrowed if not _mentions(k, name))
    return env if len(kept) == len(env.narrowed) else env.with_narrowed(kept)
