"""typecheck: resolve every name of a :class:`Program` and give every expression a type.

Expressions and statements are checked by handlers registered per node type;
a node with no handler is reported, located, rather than silently skipped.
Types of expressions are recorded in ``Typed.types`` (keyed by node identity)
for the backends.
"""

from __future__ import annotations

import dataclasses
import re

from checker.front import ast
from checker.base.diagnostics import Note, Reporter
from checker.front.program import Program, did_you_mean
from checker.base.source import Span
from checker.front.types import (BOOL, ERROR, INT, NONE, PLAYER, TEXT, Coll, EnumT, KindT, Opt, RecordT, Ty, comparable,
                                 element, join)

from checker.front.typecheck_core import (BUILTIN_FUNCTIONS, BUILTIN_NAMES, Checker, Env, Typed, _expr, _stmt, narrowed,
                                         narrowing)

__all__ = ["typecheck", "Typed", "Env", "Checker", "Note"]

# ==================================================================== expressions

@_expr(ast.IntLit)
def _(c: Checker, e, env, want):
    return INT


@_expr(ast.BoolLit)
def _(c, e, env, want):
    return BOOL


@_expr(ast.NoneLit)
def _(c, e, env, want):
    return NONE


@_expr(ast.StrLit)
def _(c, e, env, want):
    return c.card_ref(e, want)


@_expr(ast.Name)
def _(c: Checker, e: ast.Name, env: Env, want):
    if e.id in env.locals:
        return env.locals[e.id]
    if e.id in env.ended:
        return _ended(c, e.id, e.span)
    if e.id == "player_count":
        return INT
    if e.id == "players":
        return c.err("E0303", "`players` is not known when checking a configuration", e.span) if env.config_only \
            else Coll(PLAYER, True)
    if e.id == "this":
        if env.this is None:
            return c.err("E0303", "`this` is only meaningful inside a card", e.span)
        return env.this
    if e.id == "me":
        if not env.me:
            return c.err("E0303", "`me` is only meaningful inside a power", e.span,
                         hint="procedures and actions name their players as parameters")
        return PLAYER
    if e.id in c.p.enum_members:
        return EnumT(c.p.enum_members[e.id][0])
    if e.id in c.p.enums:
        return Coll(EnumT(e.id), True)
    decl = c.p.vars.get(e.id) or c.p.zones.get(e.id)
    if decl is not None:
        if env.config_only:
            return c.err("E0603", f"'{e.id}' is game state; a constraint sees only the configuration", e.span,
                         hint="use selected(Kind), card attributes and player_count")
        if decl.index is not None:
            return c.err("E0302", f"'{e.id}' is indexed by {decl.index.name}", e.span,
                         hint=f"write {e.id}[…] with a {decl.index.name}")
        if isinstance(decl, ast.ZoneDecl):
            return Coll(KindT(decl.kind.name), decl.ordered)
        return c.resolve_type(decl.type)
    if e.id in c.p.quantities or e.id in c.p.tables:
        return c.err("E0302", f"'{e.id}' takes arguments", e.span, hint=f"write {e.id}(…)")
    if e.id in c.p.grids or e.id in c.p.records:
        what = "a grid" if e.id in c.p.grids else "a record"
        return c.err("E0303", f"'{e.id}' is {what}, a type, not a value", e.span,
                     hint=f"build a value with {e.id}(…)" if e.id in c.p.records else
                     f"center({e.id}) is its central cell; step(c, d) moves from a cell")
    pool = [*env.locals, *BUILTIN_NAMES, *c.p.enum_members, *c.p.enums, *c.p.vars, *c.p.zones]
    return c.err("E0202", f"unknown name '{e.id}'", e.span, subject=e.id, hint=did_you_mean(e.id, pool))


def _ended(c: Checker, name: str, span):
    return c.err("E0303", f"'{name}' was bound inside a block above (an if, a for, a repeat) that has ended: the game "
                          f"still holds that local here (a name lives to the end of its body), not what '{name}' "
                          f"means outside it", span,
                 hint=f"bind '{name}' before the block, or give the local another name")


def _builtin_call(c: Checker, e: ast.Call, env: Env) -> Ty:
    if e.func in shapes.SHAPE_BUILTINS:
        return shapes.builtin_call(c, e, env)
    n = len(e.args)
    if e.func == "selected":
        if n != 1 or not isinstance(e.args[0], ast.Name) or e.args[0].id not in c.p.kinds:
            return c.err("E0302", "selected(…) takes the name of a kind of card", e.span,
                         hint=f"for example selected({next(iter(c.p.kinds), 'Kind')})")
        return Coll(KindT(e.args[0].id))
    if env.config_only and e.func in ("left", "right", "seats_from", "seats_counterclockwise_from"):
        return c.err("E0603", f"{e.func}(…) is game state; a constraint sees only the configuration", e.span)
    signature = {"left": ((PLAYER,), PLAYER), "right": ((PLAYER,), PLAYER),
                 "seats_from": ((PLAYER,), Coll(PLAYER, True)),
                 "seats_counterclockwise_from": ((PLAYER,), Coll(PLAYER, True)), "least": ((INT, INT), INT),
                 "greatest": ((INT, INT), INT), "half": ((INT,), INT)}[e.func]
    params, result = signature
    if n != len(params):
        return c.err("E0302", f"{e.func}(…) takes {len(params)} argument(s), {n} given", e.span)
    for arg, want in zip(e.args, params):
        c.expect(arg, want, env, f"the argument of {e.func}")
    return result


@_expr(ast.Call)
def _(c: Checker, e: ast.Call, env: Env, want):
    if e.func in BUILTIN_FUNCTIONS:
        return _builtin_call(c, e, env)
    if e.func in c.p.records:
        return shapes.record_call(c, e, env, c.p.records[e.func])
    decl = c.p.quantities.get(e.func) or c.p.tables.get(e.func)
    if decl is None:
        what = "procedure (use `call`)" if e.func in c.p.procedures else \
            "action (use `do`)" if e.func in c.p.actions else None
        if what:
            return c.err("E0205", f"'{e.func}' is an {what}, not a value", e.func_span)
        pool = [*BUILTIN_FUNCTIONS, *c.p.quantities, *c.p.tables, *c.p.records]
        return c.err("E0202", f"unknown quantity '{e.func}'", e.func_span, subject=e.func, hint=did_you_mean(e.func, pool))
    if env.config_only:
        return c.err("E0603", f"'{e.func}' is computed from game state; a constraint sees only the configuration",
                     e.span)
    c.args("quantity" if isinstance(decl, ast.QuantityDecl) else "table", e.func, decl.params, e.args, env, e.span)
    return c.resolve_type(decl.type)


@_expr(ast.Attr)
def _(c: Checker, e: ast.Attr, env: Env, want):
    obj = c.expr(e.obj, env)
    if obj is ERROR:
        return ERROR
    base = obj.inner if isinstance(obj, Opt) else obj
    if isinstance(obj, Opt):
        return c.err("E0301", f"this may be none ({obj}); test it against none before reading .{e.name}", e.span,
                     hint=f"for example: if x != none then x.{e.name} else …")
    if isinstance(base, RecordT):
        return shapes.record_field(c, e, base)
    if not isinstance(base, KindT):
        return c.err("E0301", f"only cards have attributes; this is {obj}", e.span)
    if e.name == "name":
        return TEXT
    kind = c.p.kinds.get(base.name)
    if kind is None:          # the unknown kind is reported where it is named
        return ERROR
    for attr in kind.attrs:
        if attr.name == e.name:
            return c.resolve_type(attr.type)
    return c.err("E0206", f"{base.name} has no attribute '{e.name}'", e.span,
                 hint=did_you_mean(e.name, ["name", *(a.name for a in kind.attrs)]))


@_expr(ast.Index)
def _(c: Checker, e: ast.Index, env: Env, want):
    if not isinstance(e.obj, ast.Name):
        return c.err("E0303", "only a var, counter or zone can be indexed", e.span)
    decl = c.p.vars.get(e.obj.id) or c.p.zones.get(e.obj.id)
    if decl is None:
        return c.err("E0202", f"unknown var, counter or zone '{e.obj.id}'", e.obj.span, subject=e.obj.id,
                     hint=did_you_mean(e.obj.id, [*c.p.vars, *c.p.zones]))
    if env.config_only:
        return c.err("E0603", f"'{e.obj.id}' is game state; a constraint sees only the configuration", e.span)
    c._check_index(decl, e.index, e.span, env)
    if isinstance(decl, ast.ZoneDecl):
        return Coll(KindT(decl.kind.name), decl.ordered)
    return c.resolve_type(decl.type)


@_expr(ast.Unary)
def _(c, e: ast.Unary, env, want):
    want_ty = BOOL if e.op == "not" else INT
    c.expect(e.operand, want_ty, env, f"the operand of '{e.op}'")
    return want_ty


_ARITH = {"+", "-", "*", "/", "%"}
_ORDER = {"<", "<=", ">", ">="}


def _card_literal_side(c: Checker, lit: ast.Expr, other: Ty) -> None:
    """`d == "Some card"`: the literal must name a card of d's kind."""
    target = other.inner if isinstance(other, Opt) else other
    if isinstance(lit, ast.StrLit) and isinstance(target, KindT):
        c.card_ref(lit, target)


@_expr(ast.Binary)
def _(c: Checker, e: ast.Binary, env: Env, want):
    op = e.op
    if op in _ARITH or op in _ORDER:
        c.expect(e.left, INT, env, f"the left operand of '{op}'")
        c.expect(e.right, INT, env, f"the right operand of '{op}'")
        return INT if op in _ARITH else BOOL
    if op in ("and", "or"):
        c.expect(e.left, BOOL, env, f"the left operand of '{op}'")
        right = narrowed(env, narrowing(c, e.left, op == "and"))
        c.expect(e.right, BOOL, right, f"the right operand of '{op}'")
        return BOOL
    if op == "..":
        c.expect(e.left, INT, env, "the start of a range")
        c.expect(e.right, INT, env, "the end of a range")
        return Coll(INT, True)
    if op in ("==", "!="):
        left = c.expr(e.left, env)
        right = c.expr(e.right, env, left)
        _card_literal_side(c, e.left, right)
        if not comparable(left, right):
            return c.err("E0301", f"cannot compare {left} with {right}", e.span)
        return BOOL
    if op in ("is", "isnot", "isin", "isnotin"):
        return _physical(c, e, env)
    if op in ("in", "notin"):
        right = c.expr(e.right, env)
        elem = element(right)
        if elem is None:
            return c.err("E0301", f"'in' needs a collection on its right, not {right}", e.right.span)
        left = c.expr(e.left, env, elem)
        if not comparable(left, elem):
            return c.err("E0301", f"a {left} cannot be in a {right}", e.span)
        return BOOL
    return c.err("E0303", f"unsupported operator '{op}'", e.span)


def _card_type(t: Ty) -> bool:
    return t is ERROR or isinstance(t.inner if isinstance(t, Opt) else t, KindT)


def _physical(c: Checker, e: ast.Binary, env: Env) -> Ty:
    """`a is b`, `a is not b`: the same physical card; `a is in z`, `a is not in z`: this very card is in z."""
    word = {"is": "is", "isnot": "is not", "isin": "is in", "isnotin": "is not in"}[e.op]
    if env.config_only:
        return c.err("E0303", f"`{word}` compares the physical cards of a game, and a configuration has none",
                     e.span, hint="compare cards by name with `==` or `in`")
    if e.op in ("is", "isnot"):
        left = c.expr(e.left, env)
        right = c.expr(e.right, env, left)
        _card_literal_side(c, e.left, right)
        for side, ty in ((e.left, left), (e.right, right)):
            if not _card_type(ty):
                return c.err("E0301", f"`{word}` compares physical cards, and this is {ty}", side.span,
                             hint=f"compare other values with `{'==' if e.op == 'is' else '!='}`")
        if not comparable(left, right):
            return c.err("E0301", f"cannot compare {left} with {right}", e.span)
        return BOOL
    right = c.expr(e.right, env)
    elem = element(right)
    if elem is None or not _card_type(elem):
        return c.err("E0301", f"`{word}` needs a collection of cards on its right, not {right}", e.right.span,
                     hint="ask whether a value is in another collection with `in`")
    left = c.expr(e.left, env, elem)
    if not _card_type(left):
        return c.err("E0301", f"`{word}` asks where a physical card is, and this is {left}", e.left.span,
                     hint="ask whether a value is in a collection with `in`")
    if not comparable(left, elem):
        return c.err("E0301", f"a {left} cannot be in a {right}", e.span)
    return BOOL


@_expr(ast.IfExpr)
def _(c, e: ast.IfExpr, env, want):
    c.expect(e.cond, BOOL, env, "the condition")
    a = c.expr(e.then, narrowed(env, narrowing(c, e.cond, True)), want)
    b = c.expr(e.else_, narrowed(env, narrowing(c, e.cond, False)), want)
    joined = join(a, b)
    if joined is None:
        return c.err("E0301", f"the branches have different types: {a} and {b}", e.span)
    return joined


@_expr(ast.SetLit)
def _(c, e: ast.SetLit, env, want):
    elem_want = element(want) if want is not None else None
    types = [c.expr(item, env, elem_want) for item in e.items]
    if not types:
        return Coll(elem_want or ERROR)
    result = types[0]
    for item, ty in zip(e.items[1:], types[1:]):
        joined = join(result, ty)
        if joined is None:
            return c.err("E0301", f"a set cannot hold both {result} and {ty}", item.span)
        result = joined
    return Coll(result)


@_expr(ast.Aggregate)
def _(c: Checker, e: ast.Aggregate, env: Env, want):
    coll = c.expr(e.coll, env)
    elem = element(coll)
    if elem is None:
        c.err("E0301", f"{e.kind}(…) ranges over a collection, not {coll}", e.coll.span)
        elem = ERROR
    inner = env.bind(e.var, elem)
    if e.kind in ("union", "collect"):
        return shapes.aggregate_result(c, e, inner)
    needs_bool = e.kind in ("count", "any", "all", "the", "only", "filter")
    needs_int = e.kind in ("sum", "max", "min", "argmax", "argmin")
    if e.body is None:
        if needs_int:
            c.err("E0302", f"{e.kind}(x in c: value) needs the value after ':'", e.span)
        elif e.kind in ("all",):
            c.err("E0302", "all(x in c: condition) needs a condition", e.span)
    elif needs_bool:
        c.expect(e.body, BOOL, inner, f"the condition of {e.kind}")
    elif needs_int:
        c.expect(e.body, INT, inner, f"the value of {e.kind}")
    return {
        "count": INT, "sum": INT, "max": INT, "min": INT, "any": BOOL, "all": BOOL,
        "the": elem if isinstance(elem, Opt) or elem is ERROR else Opt(elem), "only": elem,
        "argmax": Coll(elem), "argmin": Coll(elem), "filter": Coll(elem, isinstance(coll, Coll) and coll.ordered),
    }[e.kind]


@_expr(ast.Can)
def _(c: Checker, e: ast.Can, env: Env, want):
    if env.config_only:
        return c.err("E0603", "`can` asks about game state; a constraint sees only the configuration", e.span)
    c.invoke("action", c.p.actions, e.action, e.args, env, e.span)
    return BOOL


# ==================================================================== statements

def _rebinds(c, name: str, env: Env, span, what: str) -> None:
    """A name lives from where it is bound to the end of its action, procedure or power, in both backends (the
    interpreter keeps one local a name per body; the encoding joins a branch's names): a `let` inside a block that
    rebinds a name bound outside it, or a `for`/`choose` variable that reuses a name in scope, would change that
    name after the block while reading as if it did not — refused."""
    if what == "let" and name in env.enclosing:
        c.err("E0303", f"'{name}' is bound outside this block: a `let` here would not end with the block (a name "
                       f"lives to the end of its body), so the value after it would be this one", span,
              hint=f"`set {name} = …` to change it, or another name for a new value")
    elif what != "let" and name in env.locals:
        c.err("E0303", f"'{name}' is already bound here: the {what} variable would keep its last value after the "
                       f"{what} (a name lives to the end of its body)", span,
              hint="another name for the variable")


def _closed(env: Env, *inner: Env) -> Env:
    """``env`` after a nested block whose end environments are ``inner``: the names bound inside it and not
    outside are out of scope, but the game keeps them (see :func:`_rebinds`) — remembered, so that a later read
    of that name is refused rather than read as the spec's own name of it."""
    ended = set(env.ended)
    for e in inner:
        ended |= e.ended | (set(e.locals) - set(env.locals))
    return dataclasses.replace(env, ended=frozenset(ended)) if ended != env.ended else env


@_stmt(ast.Let)
def _(c, s: ast.Let, env):
    _rebinds(c, s.name, env, s.span, "let")
    return env.bind(s.name, c.expr(s.value, env), mutable=True)


@_stmt(ast.SetVar)
def _(c, s: ast.SetVar, env):
    lv = s.target
    if lv.index is None and lv.name in env.ended and lv.name not in env.locals:
        _ended(c, lv.name, lv.span)
        return
    if lv.index is None and lv.name in env.locals:
        if lv.name not in env.mutable:
            c.err("E0303", f"'{lv.name}' is not a `let`: only a name bound by `let` can be changed with `set`",
                  lv.span, hint=f"bind a copy first: let {lv.name}_ = {lv.name}")
            return
        c.expect(s.value, env.locals[lv.name], env, f"the new value of {lv.name}")
        return
    target = c.lvalue(lv, env, want="var")
    c.expect(s.value, target, env, f"the new value of {lv.name}")


@_stmt(ast.Reset)
def _(c, s: ast.Reset, env):
    if s.name not in c.p.vars:
        c.err("E0202", f"unknown var or counter '{s.name}'", s.span, subject=s.name, hint=did_you_mean(s.name, c.p.vars))


def _choose_options(c: Checker, o: ast.ChooseOptions, env: Env, span: Span) -> None:
    """`where` sees the chosen variable; `by` does not."""
    if o.where is not None:
        c.expect(o.where, BOOL, env, "the condition of choose")
    if o.by is not None:
        c.expect(o.by, PLAYER, env, "who chooses")
    elif not env.me and not o.random:
        c.err("E0303", "who makes this choice? outside a power, write `by player` or `at random`", span)


def _chosen_element(c: Checker, coll_expr: ast.Expr, env: Env) -> Ty:
    coll = c.expr(coll_expr, env)
    elem = element(coll)
    if elem is None:
        c.err("E0301", f"choose ranges over a collection, not {coll}", coll_expr.span)
        return ERROR
    return elem


@_stmt(ast.Choose)
def _(c, s: ast.Choose, env):
    _rebinds(c, s.var, env, s.span, "choose")
    inner = env.bind(s.var, _chosen_element(c, s.coll, env))
    _choose_options(c, s.options, inner, s.span)
    return inner


@_stmt(ast.ChooseSubset)
def _(c, s: ast.ChooseSubset, env):
    _rebinds(c, s.var, env, s.span, "choose")
    elem = _chosen_element(c, s.coll, env)
    c.expect(s.low, INT, env, "the smallest size")
    c.expect(s.high, INT, env, "the largest size")
    inner = env.bind(s.var, Coll(elem))
    _choose_options(c, s.options, inner, s.span)
    return inner


@_stmt(ast.If)
def _(c, s: ast.If, env):
    c.expect(s.cond, BOOL, env, "the condition")
    # a local that a branch changes with `set` is not known to be other than none in it
    changed = {t.target.name for t in ast.statements(s.then + s.else_)
               if isinstance(t, ast.SetVar) and t.target.index is None}
    steady = {name: ty for name, ty in env.locals.items() if name not in changed}
    then = c.block(s.then, narrowed(env.inner(), narrowing(c, s.cond, True, steady)))
    else_ = c.block(s.else_, narrowed(env.inner(), narrowing(c, s.cond, False, steady)))
    return _closed(env, then, else_)


@_stmt(ast.For)
def _(c, s: ast.For, env):
    coll = c.expr(s.coll, env)
    elem = element(coll)
    if elem is None:
        c.err("E0301", f"for ranges over a collection, not {coll}", s.coll.span)
        elem = ERROR
    _rebinds(c, s.var, env, s.span, "for")
    return _closed(env, c.block(s.body, env.inner().bind(s.var, elem)))


@_stmt(ast.Repeat)
def _(c, s: ast.Repeat, env):
    inner = c.block(s.body, env.inner())
    c.expect(s.until, BOOL, inner, "the condition of until")
    return _closed(env, inner)


@_stmt(ast.Transfer)
def _(c, s: ast.Transfer, env):
    c.expect(s.amount, INT, env, "the amount")
    c.lvalue(s.source, env, want="counter")
    c.lvalue(s.target, env, want="counter")


def _check_cards_to_zone(c: Checker, what: Ty, dest: Ty, span: Span) -> None:
    if what is ERROR or dest is ERROR:
        return
    moved = element(what) if isinstance(what, Coll) else what
    if not isinstance(moved, KindT):
        c.err("E0301", f"only cards move between zones; this is {what}", span)
    elif isinstance(dest, Coll) and dest.elem != moved:
        c.err("E0301", f"a {moved} cannot go into a zone of {dest.elem}", span)


@_stmt(ast.Move)
def _(c, s: ast.Move, env):
    what = c.expr(s.what, env)
    dest = c.lvalue(s.dest.target, env, want="zone")
    _check_cards_to_zone(c, what, dest, s.span)
    if s.dest.position != "any" and isinstance(dest, Coll) and not dest.ordered:
        c.err("E0303", f"'{s.dest.target.name}' is a set; only a pile has a top and a bottom", s.dest.span)


@_stmt(ast.Draw)
def _(c, s: ast.Draw, env):
    c.expect(s.count, INT, env, "the number of cards")
    src = c.lvalue(s.source, env, want="zone")
    if isinstance(src, Coll) and not src.ordered:
        c.err("E0303", f"'{s.source.name}' is a set; cards are drawn from a pile", s.source.span)
    dest = c.lvalue(s.dest.target, env, want="zone")
    if isinstance(src, Coll):
        _check_cards_to_zone(c, src, dest, s.span)


@_stmt(ast.Shuffle)
def _(c, s: ast.Shuffle, env):
    t = c.lvalue(s.target, env, want="zone")
    if isinstance(t, Coll) and not t.ordered:
        c.err("E0303", f"'{s.target.name}' is a set; only a pile is shuffled", s.span)


@_stmt(ast.Reveal)
def _(c, s: ast.Reveal, env):
    c.expr(s.what, env)   # a card, cards, or a hidden marker such as a face-down token
    if s.to is not None:
        c.expect(s.to, PLAYER, env, "who sees it")


@_stmt(ast.Do)
def _(c, s: ast.Do, env):
    c.invoke("action", c.p.actions, s.action, s.args, env, s.span)


@_stmt(ast.CallProc)
def _(c, s: ast.CallProc, env):
    c.invoke("procedure", c.p.procedures, s.name, s.args, env, s.span)


@_stmt(ast.Signal)
def _(c, s: ast.Signal, env):
    c.invoke("window", c.p.windows, s.window, s.args, env, s.span)


@_stmt(ast.Offer)
def _(c, s: ast.Offer, env):
    c.expect(s.player, PLAYER, env, "the player the offer is made to")
    finishes = 0
    for item in s.items:
        if isinstance(item, ast.OfferAction):
            inner = env
            for var, coll_expr in item.binders:
                coll = c.expr(coll_expr, inner)
                elem = element(coll)
                if elem is None:
                    c.err("E0301", f"for ranges over a collection, not {coll}", coll_expr.span)
                    elem = ERROR
                inner = inner.bind(var, elem)
            c.invoke("action", c.p.actions, item.action, item.args, inner, item.span)
        elif isinstance(item, ast.OfferPowers):
            t = c.expr(item.source, env)
            base = element(t) if isinstance(t, Coll) else t
            if base is not ERROR and not isinstance(base, KindT):
                c.err("E0301", f"`powers of` needs a card or cards; this is {t}", item.source.span)
        else:
            finishes += 1
            if item.when is not None:
                c.expect(item.when, BOOL, env, "the condition of finish")
    if finishes == 0:
        c.err("E0302", "this offer has no `finish` option, so it could never end", s.span,
              hint='add `finish "Terminer son tour"`')


@_stmt(ast.EndTurn)
def _(c, s, env):
    return None


@_stmt(ast.Stop)
def _(c, s, env):
    return None


@_stmt(ast.Cancel)
def _(c, s, env: Env):
    if not env.cancel:
        c.err("E0303", "`cancel` is only meaningful in a power reacting to a window opened `before` an action",
              s.span, hint="declare `before act(…) signal w(…)` and react to w with `when w(…)`")


_PLACEHOLDER = re.compile(r"\{(\d+)\}")


@_stmt(ast.Log)
def _(c, s: ast.Log, env):
    for arg in s.args:
        c.expr(arg, env)
    for m in _PLACEHOLDER.finditer(s.template):
        if int(m.group(1)) >= len(s.args):
            c.err("E0302", f"the log line uses {{{m.group(1)}}} but has only {len(s.args)} value(s)", s.span)


@_stmt(ast.CiteStmt)
def _(c, s, env):
    return None


@_stmt(ast.DecisionStmt)
def _(c, s: ast.DecisionStmt, env):
    c.decision_ref(s.name, s.span)


def typecheck(program: Program, reporter: Reporter) -> Typed:
    from checker.front.declarations import check_declarations
    checker = Checker(program, reporter)
    check_declarations(checker)
    from checker.front.examples import check_examples
    check_examples(checker)
    return checker.typed


from checker.front import typecheck_shapes as shapes  # noqa: E402  (registers its handlers; used above at run time)
from checker.front import typecheck_statements  # noqa: E402,F401  (registers retarget, swap, each … chooses)
