"""compile: the typed AST → Python closures, once per spec.

Every expression becomes a function ``env -> value`` and every statement a function
``env -> None``, where ``env`` is the dict of local names (with ``me`` and ``this``).
The engine is reached through ``E`` (captured), its current state through ``E.st``.
Dispatch is by node type through a registry; a node with no compiler is a located error.
"""

from __future__ import annotations

from typing import Callable

from checker import ast
from checker.runtime.state import Abort, EndTurn, SkipBlock, SpecRuntimeError, StopProc
from checker.types import Coll, KindT, Opt

__all__ = ["Compiler", "MAX_LOOP"]

MAX_LOOP = 10_000

_EXPR: dict[type, Callable] = {}
_STMT: dict[type, Callable] = {}


def _on(table, cls):
    def register(fn):
        table[cls] = fn
        return fn
    return register


class Compiler:
    def __init__(self, engine):
        self.E = engine
        self.p = engine.program
        self.types = engine.typed.types
        self.context = ""       # what is being compiled, for the prompts of choices ("power (Card)")
        self.slots: dict[str, str] = {}   # a rule's pattern binders -> the positional slot holding each

    def hidden(self, e: ast.Expr) -> bool:
        """Does the expression read a zone that is not public?  Choosing from it is then secret."""
        stack = [e]
        while stack:
            node = stack.pop()
            name = node.id if isinstance(node, ast.Name) else \
                node.obj.id if isinstance(node, ast.Index) and isinstance(node.obj, ast.Name) else None
            zone = self.p.zones.get(name) if name else None
            if zone is not None and zone.visibility != "public":
                return True
            if hasattr(node, "__dataclass_fields__"):
                stack.extend(getattr(node, f) for f in node.__dataclass_fields__
                             if f != "span" and hasattr(getattr(node, f), "__dataclass_fields__"))
                stack.extend(x for f in node.__dataclass_fields__ if isinstance(getattr(node, f), tuple)
                             for x in getattr(node, f) if hasattr(x, "__dataclass_fields__"))
        return False

    def prompt(self, var: str) -> str:
        return f"{self.context} — choisir {var}" if self.context else f"choisir {var}"

    def is_card(self, e: ast.Expr) -> bool:
        t = self.types.get(id(e))
        if isinstance(t, Opt):
            t = t.inner
        return isinstance(t, KindT)

    def shower(self, e: ast.Expr) -> Callable:
        """A function value -> French text, for the static type of ``e``."""
        ty, E = self.types.get(id(e)), self.E
        return lambda value: E.show_typed(value, ty)

    def element_shower(self, e: ast.Expr) -> Callable:
        ty, E = self.types.get(id(e)), self.E
        elem = ty.elem if isinstance(ty, Coll) else ty
        return lambda value: E.show_typed(value, elem)

    def index(self, decl, e: ast.Expr) -> Callable:
        """The index of a per-player or per-card var or zone.  A card's *definition* (a card literal, or
        `this` in a rule) used as a per-card index means that card's single physical copy in this game."""
        value = self.expr(e)
        if decl.index is None or decl.index.name not in self.p.kinds:
            return value
        E = self.E
        return lambda env: E.physical(value(env))

    def is_card_coll(self, e: ast.Expr) -> bool:
        t = self.types.get(id(e))
        return isinstance(t, Coll) and isinstance(t.elem, KindT)

    def expr(self, e: ast.Expr) -> Callable:
        fn = _EXPR.get(type(e))
        if fn is None:
            raise SpecRuntimeError(f"no compiler for {type(e).__name__}", getattr(e, "span", None))
        return fn(self, e)

    def card_key(self, e: ast.Expr) -> Callable:
        """A card expression compared by definition."""
        value = self.expr(e)
        defs = self.E.defs
        return lambda env: _def_of(value(env), defs)

    def block(self, stmts) -> Callable:
        compiled = [self.stmt(s) for s in stmts if not isinstance(s, (ast.CiteStmt, ast.DecisionStmt))]

        def run(env):
            try:
                for s in compiled:
                    s(env)
            except SkipBlock:
                return
        return run

    def stmt(self, s) -> Callable:
        fn = _STMT.get(type(s))
        if fn is None:
            raise SpecRuntimeError(f"no compiler for {type(s).__name__}", getattr(s, "span", None))
        return fn(self, s)


def _def_of(value, defs):
    return value if value is None or value < 0 else defs[value]


# ==================================================================== expressions

@_on(_EXPR, ast.IntLit)
@_on(_EXPR, ast.BoolLit)
def _(c, e):
    v = e.value
    return lambda env: v


@_on(_EXPR, ast.NoneLit)
def _(c, e):
    return lambda env: None


@_on(_EXPR, ast.StrLit)
def _(c, e):
    v = c.E.def_ids.get(e.value, e.value)     # a card literal is its definition; other text stays text
    return lambda env: v


@_on(_EXPR, ast.Name)
def _(c: Compiler, e: ast.Name):
    name, E = e.id, c.E
    if name in c.slots:                     # a rule's binder: read from its positional slot
        slot = c.slots[name]
        return lambda env: env[slot]
    if name in ("me", "this"):
        return lambda env: env[name]
    # a local name shadows a global one, as in the type checker
    if name == "player_count":
        return lambda env: env[name] if name in env else E.st.n
    if name == "players":
        return lambda env: env[name] if name in env else E.seats
    if name in c.p.enum_members:
        return lambda env: env.get(name, name)
    if name in c.p.enums:
        members = tuple(m.name for m in c.p.enums[name].members)
        return lambda env: env[name] if name in env else members
    if name in c.p.vars:
        return lambda env: env[name] if name in env else E.st.vars[name]
    if name in c.p.zones:
        return lambda env: env[name] if name in env else E.st.zones[name]
    return lambda env: env[name]


@_on(_EXPR, ast.Index)
def _(c: Compiler, e: ast.Index):
    name, E = e.obj.id, c.E
    index = c.index(c.p.zones.get(name) or c.p.vars[name], e.index)
    if name in c.p.zones:
        return lambda env: E.st.zone(name, index(env))
    default = E.var_defaults[name]

    def read(env):
        return E.st.vars[name].get(index(env), default)
    return read


_BUILTIN = {
    "left": lambda E, p: (p + 1) % E.st.n,
    "right": lambda E, p: (p - 1) % E.st.n,
    "seats_from": lambda E, p: tuple((p + i) % E.st.n for i in range(E.st.n)),
    "least": lambda E, a, b: a if a < b else b,
    "greatest": lambda E, a, b: a if a > b else b,
    "half": lambda E, a: a // 2,
}


@_on(_EXPR, ast.Call)
def _(c: Compiler, e: ast.Call):
    E = c.E
    if e.func == "selected":
        kind = e.args[0].id
        return lambda env: E.selected[kind]
    args = [c.expr(a) for a in e.args]
    if e.func in _BUILTIN:
        fn = _BUILTIN[e.func]
        if len(args) == 1:
            a0 = args[0]
            return lambda env: fn(E, a0(env))
        return lambda env: fn(E, *(a(env) for a in args))
    if e.func in c.p.tables:
        name, span = e.func, e.span

        def look(env):
            key = tuple(a(env) for a in args)
            try:
                return E.tables[name][key]
            except KeyError:
                raise SpecRuntimeError(f"table {name} has no row for {key}", span) from None
        return look
    name = e.func
    return lambda env: E.quantity(name, tuple(a(env) for a in args))


@_on(_EXPR, ast.Can)
def _(c: Compiler, e: ast.Can):
    E, name = c.E, e.action
    args = [c.expr(a) for a in e.args]
    return lambda env: E.allowed(name, tuple(a(env) for a in args))


@_on(_EXPR, ast.Attr)
def _(c: Compiler, e: ast.Attr):
    obj, E, attr, span = c.expr(e.obj), c.E, e.name, e.span

    def read(env):
        card = obj(env)
        if card is None:
            raise SpecRuntimeError(f"reading .{attr} of none", span)
        return E.card_attrs[_def_of(card, E.defs)][attr]
    return read


@_on(_EXPR, ast.Unary)
def _(c, e: ast.Unary):
    v = c.expr(e.operand)
    if e.op == "not":
        return lambda env: not v(env)
    return lambda env: -v(env)


def _literal_key(c: Compiler, e: ast.Expr):
    """The definition a card literal names, or None."""
    if isinstance(e, ast.StrLit) and e.value in c.E.def_ids:
        return c.E.def_ids[e.value]
    return None


def _compare(c: Compiler, e: ast.Binary):
    cards = c.is_card(e.left) or c.is_card(e.right)
    if cards:
        for lit, other in ((e.right, e.left), (e.left, e.right)):
            key = _literal_key(c, lit)
            if key is not None:
                value, defs = c.expr(other), c.E.defs

                def same(env):
                    v = value(env)
                    return v is not None and (v if v < 0 else defs[v]) == key
                if e.op == "==":
                    return same
                return lambda env: not same(env)
    a, b = (c.card_key(e.left), c.card_key(e.right)) if cards else (c.expr(e.left), c.expr(e.right))
    if e.op == "==":
        return lambda env: a(env) == b(env)
    return lambda env: a(env) != b(env)


def _member(c: Compiler, e: ast.Binary):
    coll = c.expr(e.right)
    negate = e.op == "notin"
    zone = e.right
    if c.is_card_coll(zone) and isinstance(zone, (ast.Name, ast.Index)) and \
            (zone.id if isinstance(zone, ast.Name) else getattr(zone.obj, "id", None)) in c.p.zones:
        # membership in a zone by definition: the state keeps a count per definition
        E = c.E
        name = zone.id if isinstance(zone, ast.Name) else zone.obj.id
        index = c.index(c.p.zones[name], zone.index) if isinstance(zone, ast.Index) else (lambda env: None)
        key_of = c.card_key(e.left)
        literal = _literal_key(c, e.left)
        if literal is not None:
            def has(env):
                return E.st.holds(name, index(env), literal)
        else:
            def has(env):
                return E.st.holds(name, index(env), key_of(env))
    elif c.is_card_coll(e.right):
        key, defs = c.card_key(e.left), c.E.defs

        def has(env):
            k = key(env)
            return any((x if x < 0 else defs[x]) == k for x in coll(env))
    else:
        item = c.expr(e.left)

        def has(env):
            return item(env) in coll(env)
    if negate:
        return lambda env: not has(env)
    return has


def _span_error(message, span):
    raise SpecRuntimeError(message, span)


@_on(_EXPR, ast.Binary)
def _(c: Compiler, e: ast.Binary):
    op = e.op
    if op in ("==", "!="):
        return _compare(c, e)
    if op in ("in", "notin"):
        return _member(c, e)
    a, b = c.expr(e.left), c.expr(e.right)
    if op == "and":
        return lambda env: a(env) and b(env)
    if op == "or":
        return lambda env: a(env) or b(env)
    if op == "+":
        return lambda env: a(env) + b(env)
    if op == "-":
        return lambda env: a(env) - b(env)
    if op == "*":
        return lambda env: a(env) * b(env)
    if op in ("/", "%"):
        span = e.span

        def divide(env):
            x, y = a(env), b(env)
            if y == 0:
                _span_error("division by zero", span)
            return x // y if op == "/" else x % y
        return divide
    if op == "<":
        return lambda env: a(env) < b(env)
    if op == "<=":
        return lambda env: a(env) <= b(env)
    if op == ">":
        return lambda env: a(env) > b(env)
    if op == ">=":
        return lambda env: a(env) >= b(env)
    if op == "..":
        return lambda env: tuple(range(a(env), b(env) + 1))
    raise SpecRuntimeError(f"no compiler for operator {op}", e.span)


@_on(_EXPR, ast.IfExpr)
def _(c, e: ast.IfExpr):
    cond, then, other = c.expr(e.cond), c.expr(e.then), c.expr(e.else_)
    return lambda env: then(env) if cond(env) else other(env)


@_on(_EXPR, ast.SetLit)
def _(c, e: ast.SetLit):
    items = [c.expr(x) for x in e.items]
    return lambda env: tuple(i(env) for i in items)


@_on(_EXPR, ast.Aggregate)
def _(c: Compiler, e: ast.Aggregate):
    coll, var, kind, span = c.expr(e.coll), e.var, e.kind, e.span
    shadowed = c.slots.pop(var, None)       # the aggregate's own variable hides a binder of that name
    body = c.expr(e.body) if e.body is not None else (lambda env: True)
    if shadowed is not None:
        c.slots[var] = shadowed

    def each(env):
        saved = env.get(var, _MISSING)
        try:
            for x in tuple(coll(env)):
                env[var] = x
                yield x, body(env)
        finally:
            if saved is _MISSING:
                env.pop(var, None)
            else:
                env[var] = saved

    if kind == "count":
        return lambda env: sum(1 for _, r in each(env) if r)
    if kind == "sum":
        return lambda env: sum(r for _, r in each(env))
    if kind == "any":
        return lambda env: any(r for _, r in each(env))
    if kind == "all":
        return lambda env: all(r for _, r in each(env))
    if kind == "max":
        return lambda env: max((r for _, r in each(env)), default=0)
    if kind == "min":
        return lambda env: min((r for _, r in each(env)), default=0)
    if kind == "filter":
        return lambda env: tuple(x for x, r in each(env) if r)
    if kind in ("argmax", "argmin"):
        pick = max if kind == "argmax" else min

        def best(env):
            pairs = list(each(env))
            if not pairs:
                return ()
            top = pick(r for _, r in pairs)
            return tuple(x for x, r in pairs if r == top)
        return best

    def single(env):
        hits = [x for x, r in each(env) if r]
        if len(hits) == 1:
            return hits[0]
        if not hits and kind == "the":
            return None
        raise SpecRuntimeError(f"{kind}(…) found {len(hits)} elements, not one", span)
    return single


_MISSING = object()

# ==================================================================== statements


def _snapshot(value):
    return tuple(value) if isinstance(value, list) else value


@_on(_STMT, ast.Let)
def _(c, s: ast.Let):
    value, name = c.expr(s.value), s.name

    def let(env):
        env[name] = _snapshot(value(env))
    return let


def _assign(c: Compiler, lv: ast.LValue):
    """A function (env, value) -> None writing the var ``lv``."""
    E, name = c.E, lv.name
    if lv.index is None:
        def write(env, value):
            st = E.st
            st.version += 1
            st.vars[name] = value
        return write
    index = c.index(c.p.vars[name], lv.index)

    def write_at(env, value):
        st = E.st
        st.version += 1
        st.vars[name][index(env)] = value
    return write_at


@_on(_STMT, ast.SetVar)
def _(c, s: ast.SetVar):
    write, value = _assign(c, s.target), c.expr(s.value)
    return lambda env: write(env, value(env))


@_on(_STMT, ast.Reset)
def _(c, s: ast.Reset):
    E, name = c.E, s.name
    indexed = c.p.vars[name].index is not None

    def reset(env):
        E.st.version += 1
        E.st.vars[name] = {} if indexed else E.var_defaults[name]
    return reset


def _chooser(c: Compiler, options: ast.ChooseOptions):
    by = c.expr(options.by) if options.by is not None else (lambda env: env["me"])
    return by


@_on(_STMT, ast.Choose)
def _(c: Compiler, s: ast.Choose):
    E, var, o = c.E, s.var, s.options
    coll = c.expr(s.coll)
    where = c.expr(o.where) if o.where is not None else None
    by = _chooser(c, o)
    prompt = c.prompt(var)
    label = c.element_shower(s.coll)
    secret = o.secretly or c.hidden(s.coll)

    def choose(env):
        options = []
        for x in tuple(coll(env)):
            if where is not None:
                env[var] = x
                if not where(env):
                    continue
            options.append(x)
        if o.random:
            if not options:
                raise Abort()
            env[var] = E.st.rng.choice(options)
            return
        if not options and not o.optional:
            raise Abort()
        picked = E.decide(by(env), prompt, options, optional=o.optional, secret=secret, label=label,
                          site=s, env=env)
        if picked is _NOTHING:
            env.pop(var, None)
            raise SkipBlock()
        env[var] = picked
    return choose


_NOTHING = object()


@_on(_STMT, ast.ChooseSubset)
def _(c: Compiler, s: ast.ChooseSubset):
    E, var, o = c.E, s.var, s.options
    coll, low, high = c.expr(s.coll), c.expr(s.low), c.expr(s.high)
    where = c.expr(o.where) if o.where is not None else None
    by = _chooser(c, o)
    label = c.element_shower(s.coll)
    prompt = c.prompt(var)
    secret = o.secretly or c.hidden(s.coll)

    def choose_subset(env):
        pool = list(coll(env))
        lo, hi = low(env), min(high(env), len(pool))
        if lo > len(pool):
            raise Abort()
        chosen: list = []
        who = by(env)
        while len(chosen) < hi:
            if o.random:
                if len(chosen) >= lo:
                    break
                pick = E.st.rng.choice(pool)
            else:
                env[var] = tuple(chosen)       # what is chosen so far: part of the decision point
                pick = E.decide(who, f"{prompt} ({len(chosen)}/{lo}..{hi})", pool,
                                optional=len(chosen) >= lo, secret=secret, label=label, site=s, env=env)
                if pick is _NOTHING:
                    break
            chosen.append(pick)
            pool.remove(pick)
        env[var] = tuple(chosen)
        if where is not None and not where(env):
            raise Abort()
    return choose_subset


@_on(_STMT, ast.If)
def _(c, s: ast.If):
    cond, then, other = c.expr(s.cond), c.block(s.then), c.block(s.else_)

    def if_(env):
        if cond(env):
            then(env)
        else:
            other(env)
    return if_


@_on(_STMT, ast.For)
def _(c, s: ast.For):
    coll, body, var = c.expr(s.coll), c.block(s.body), s.var

    def for_(env):
        for x in tuple(coll(env)):
            env[var] = x
            body(env)
    return for_


@_on(_STMT, ast.Repeat)
def _(c, s: ast.Repeat):
    body, until, span = c.block(s.body), c.expr(s.until), s.span

    def repeat(env):
        for _ in range(MAX_LOOP):
            body(env)
            if until(env):
                return
        raise SpecRuntimeError(f"repeat ran {MAX_LOOP} times without its condition becoming true", span)
    return repeat


def _counter(c: Compiler, lv: ast.LValue):
    """(read, write) of a counter place."""
    E, name = c.E, lv.name
    def bump():
        E.st.version += 1
    if lv.index is None:
        return (lambda env: E.st.vars[name]), (lambda env, v: (bump(), E.st.vars.__setitem__(name, v)))
    index = c.index(c.p.vars[name], lv.index)
    return (lambda env: E.st.vars[name].get(index(env), 0)), \
        (lambda env, v: (bump(), E.st.vars[name].__setitem__(index(env), v)))


@_on(_STMT, ast.Transfer)
def _(c: Compiler, s: ast.Transfer):
    amount = c.expr(s.amount)
    src_unlimited = c.p.vars[s.source.name].unlimited
    dst_unlimited = c.p.vars[s.target.name].unlimited
    read_src, write_src = _counter(c, s.source)
    read_dst, write_dst = _counter(c, s.target)
    up_to, span = s.up_to, s.span

    def transfer(env):
        n = amount(env)
        if n < 0:
            raise SpecRuntimeError(f"a transfer of {n}: amounts cannot be negative", span)
        if not src_unlimited:
            have = read_src(env)
            if have < n:
                if not up_to:
                    raise SpecRuntimeError(f"transfer of {n} from a counter holding {have} "
                                           f"(write `transfer up to` to move what there is)", span)
                n = have
            write_src(env, have - n)
        if not dst_unlimited:
            write_dst(env, read_dst(env) + n)
    return transfer


def _place(c: Compiler, place: ast.Place):
    name = place.target.name
    index = c.index(c.p.zones[name], place.target.index) if place.target.index is not None else (lambda env: None)
    return name, index, ("bottom" if place.position == "bottom" else "top")


@_on(_STMT, ast.Move)
def _(c: Compiler, s: ast.Move):
    E, what = c.E, c.expr(s.what)
    name, index, position = _place(c, s.dest)
    many = isinstance(c.types.get(id(s.what)), Coll)
    span = s.span

    def move(env):
        cards = tuple(what(env)) if many else (what(env),)
        where = index(env)
        for card in cards:
            if card is None or card < 0:
                raise SpecRuntimeError("only a physical card can move (this is a card's name)", span)
            E.st.put(card, name, where, position)
    return move


@_on(_STMT, ast.Draw)
def _(c: Compiler, s: ast.Draw):
    E, count = c.E, c.expr(s.count)
    src_name = s.source.name
    src_index = c.index(c.p.zones[src_name], s.source.index) if s.source.index is not None else (lambda env: None)
    name, index, position = _place(c, s.dest)

    def draw(env):
        pile = E.st.zone(src_name, src_index(env))
        where = index(env)
        for _ in range(min(count(env), len(pile))):
            E.st.put(pile[-1], name, where, position)
    return draw


@_on(_STMT, ast.Shuffle)
def _(c: Compiler, s: ast.Shuffle):
    E, name = c.E, s.target.name
    index = c.index(c.p.zones[name], s.target.index) if s.target.index is not None else (lambda env: None)
    def shuffle(env):
        E.st.version += 1
        E.st.rng.shuffle(E.st.zone(name, index(env)))
    return shuffle


@_on(_STMT, ast.Reveal)
def _(c: Compiler, s: ast.Reveal):
    E, what, show = c.E, c.expr(s.what), c.shower(s.what)
    to = c.expr(s.to) if s.to is not None else (lambda env: None)
    return lambda env: E.event("reveal", value=show(what(env)), to=to(env))


@_on(_STMT, ast.Do)
def _(c: Compiler, s: ast.Do):
    E, name, args = c.E, s.action, [c.expr(a) for a in s.args]
    return lambda env: E.do(name, tuple(a(env) for a in args))


@_on(_STMT, ast.CallProc)
def _(c: Compiler, s: ast.CallProc):
    E, name, args = c.E, s.name, [c.expr(a) for a in s.args]
    return lambda env: E.call(name, tuple(a(env) for a in args))


@_on(_STMT, ast.Signal)
def _(c: Compiler, s: ast.Signal):
    E, name, args = c.E, s.window, [c.expr(a) for a in s.args]
    return lambda env: E.signal(name, tuple(a(env) for a in args))


@_on(_STMT, ast.Offer)
def _(c: Compiler, s: ast.Offer):
    E, player = c.E, c.expr(s.player)
    items = []
    for item in s.items:
        if isinstance(item, ast.OfferAction):
            binders = [(var, c.expr(coll)) for var, coll in item.binders]
            items.append(("action", item.action, [c.expr(a) for a in item.args], binders))
        elif isinstance(item, ast.OfferPowers):
            items.append(("powers", c.expr(item.source), c.is_card_coll(item.source)))
        else:
            when = c.expr(item.when) if item.when is not None else None
            items.append(("finish", item.label, when))
    return lambda env: E.offer(player(env), items, env, s)


@_on(_STMT, ast.EndTurn)
def _(c, s):
    def end_turn(env):
        raise EndTurn()
    return end_turn


@_on(_STMT, ast.Stop)
def _(c, s):
    def stop(env):
        raise StopProc()
    return stop


@_on(_STMT, ast.Log)
def _(c: Compiler, s: ast.Log):
    E, template = c.E, s.template
    args = [(c.expr(a), c.shower(a)) for a in s.args]

    def log(env):
        text = template
        for i, (a, show) in enumerate(args):
            text = text.replace("{" + str(i) + "}", show(a(env)))
        E.event("log", text=text)
    return log


__all__ += ["_NOTHING"]
