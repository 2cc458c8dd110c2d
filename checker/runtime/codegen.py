"""codegen: typed expressions → Python source, compiled once per spec.

An expression becomes one Python expression over local variables: a rule's binders and a
quantity's parameters are positional arguments, an aggregate is a comprehension, a card
compared by definition is one dict lookup (``DEF``), a quantity call calls the quantity's
generated function.  Where a name is read from depends on a :class:`Scope`: its ``fixed``
names are Python locals; other local names are read from the ``env`` dict of a procedure or
power; everything else is the game's state, read through ``st`` (the engine's current state).

Dispatch is by node type through a registry; a node with no generator is a located error.
This is one compiler over node types: nothing here knows any card.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import Callable

from checker.front import ast
from checker.front.ast import names_in
from checker.front.bounds import quantity_bounds
from checker.base.limits import MAX_INT, MAX_RANGE
from checker.base.registry import registrar
from checker.runtime import codecache
from checker.runtime.hoist import loop_lines
from checker.runtime.state import SpecRuntimeError
from checker.front.types import Coll, EnumT, KindT, Opt

__all__ = ["Scope", "Generator", "names_in", "int_guard", "cached_reads", "is_cheap", "is_static"]

_SRC: dict[type, Callable] = {}


_on = registrar(_SRC)


@dataclasses.dataclass(frozen=True)
class Scope:
    """How names are read: ``fixed`` names are Python expressions (locals, literals); with ``env``,
    the other local names are keys of the ``env`` dict, and those in ``bound`` (the names a body may
    bind) shadow the game's globals at run time, as the language's locals do."""

    fixed: dict = dataclasses.field(default_factory=dict)
    env: bool = False
    bound: frozenset = frozenset()

    def with_fixed(self, name: str, src: str) -> "Scope":
        return dataclasses.replace(self, fixed={**self.fixed, name: src})


# ---------------------------------------------------------------- run-time helpers (called by generated code)

_SIMPLE = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|-?[0-9]+|'[^'\\]*'")    # a Python name or literal: cheap to read twice
_ST = re.compile(r"\bst\b")      # a read of the state's local (or of E.st) in generated source
_COUNTED = re.compile(r"\bSPEND\b|\bRANGE\b|\bE\.work\b|\bCOUNT_PER_KEY\b")     # source that counts work (MAX_WORK)


def _name_counts(e) -> dict[str, int]:
    """How many times each name is read in ``e`` (an expression of the language)."""
    counts: dict[str, int] = {}
    stack = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            counts[node.id] = counts.get(node.id, 0) + 1
        elif isinstance(node, tuple):
            stack.extend(node)
        elif hasattr(node, "__dataclass_fields__"):
            stack.extend(getattr(node, f) for f in node.__dataclass_fields__ if f != "span")
    return counts


class _Missing:
    __slots__ = ()


MISSING = _Missing()


def _least(a, b):
    return a if a < b else b


def _greatest(a, b):
    return a if a > b else b


def _best(pick, pairs):
    if not pairs:
        return ()
    top = pick(r for _, r in pairs)
    return tuple(x for x, r in pairs if r == top)


def _single(hits, kind, span):
    if len(hits) == 1:
        return hits[0]
    if not hits and kind == "the":
        return None
    raise SpecRuntimeError(f"{kind}(…) found {len(hits)} elements, not one", span)


def _divide(x, y, op, span):
    if y == 0:
        raise SpecRuntimeError("division by zero", span)
    return x // y if op == "/" else x % y


_EMPTY: dict = {}


@functools.lru_cache(maxsize=16384)
def _compiled(source: str, filename: str):
    """The code object of a generated function.  An engine made again for the same spec generates the same
    sources (its names are numbered afresh), so a process that makes many (the conflict search's replays, the
    tests, the editor) compiles each once; code objects are immutable, each engine execs them in its own
    namespace.  A new process reads them from the disk (:mod:`checker.runtime.codecache`)."""
    return codecache.code_of(source, filename)


class Generator:
    """Turns expressions into Python source and source into functions (one shared namespace)."""

    def __init__(self, engine):
        self.E = engine
        self.p = engine.program
        self.types = engine.typed.types
        self.ns: dict = {"E": engine, "DEF": engine.def_of, "PHYS": engine.physical, "MISSING": MISSING,
                         "SAME": lambda card, span: engine.physical(card, span, "`is` compares physical cards, "
                                                                                 "not a card's name"),
                         "_least": _least, "_greatest": _greatest, "_best": _best, "_single": _single,
                         "_divide": _divide, "_EMPTY": _EMPTY,
                         "SpecRuntimeError": SpecRuntimeError, "QFILLED": engine._qfilled,
                         "QNEW": engine.new_version, "COUNT_PER_KEY": fusion.count_per_key,
                         "HOLDERS": fusion.holders, "HOLDERS_OF": fusion.holders_of,
                         "HERE": engine.present}
        self.ns.update(shapes.runtime_helpers(engine))
        self.grids = engine.grids
        self._consts: dict[int, str] = {}
        self._bounds = None         # quantity -> the bounds of its values (checker.front.bounds), made when first asked
        self._count = 0
        self.sources: list[tuple[str, str, str]] = []    # (name, source, origin) of every function defined, in order

    # ---------------------------------------------------------------- names and functions
    def fresh(self, hint: str = "t") -> str:
        """A new Python identifier (language names are never used as Python names: NFKC could merge them); the
        ``_`` before the counter keeps a hint ending in a digit from making another hint's name (``a1`` and 5,
        ``a`` and 15)."""
        self._count += 1
        return f"_{re.sub(r'[^0-9A-Za-z]', '', hint)[:12]}_{self._count}"

    def const(self, value, hint: str = "k") -> str:
        """A global of the generated code holding ``value``."""
        name = self._consts.get(id(value))
        if name is None or self.ns.get(name) is not value:
            name = self.fresh(hint)
            self.ns[name] = value
            self._consts[id(value)] = name
        return name

    def define(self, name: str, source: str, origin: str = "") -> Callable:
        """Compile ``source`` (which defines ``name``) into the shared namespace; ``origin`` says what of the spec
        it comes from (for `rulebook compile --emit python`).  Its ``st = E.st`` is left out when nothing reads ``st``."""
        head, line, body = source.partition("\n    st = E.st\n")
        if line and not _ST.search(body) and not _ST.search(head):      # a search stops at the first read
            source = f"{head}\n{body}"
        try:
            exec(_compiled(source, f"<rules:{name}>"), self.ns)
        except SyntaxError as error:                      # a bug of this module, never of a spec
            raise AssertionError(f"generated code does not compile: {error}\n{source}") from None
        self.sources.append((name, source, origin))
        return self.ns[name]

    def env_function(self, e: ast.Expr, scope: Scope, truth: bool = False) -> Callable:
        """``env -> value``: the expression in a procedure's or power's environment.  With ``truth`` (only its truth
        is read: a `requires`), ``env -> bool``, its any/all loops (:func:`hoist.loop_lines`)."""
        src = self.expr(e, scope)
        name = self.fresh("e")
        loops = loop_lines("holds", src) if truth else None
        body = "".join(f"    {line}\n" for line in loops) + "    return holds\n" if loops else f"    return {src}\n"
        return self.define(name, f"def {name}(env):\n    st = E.st\n{body}", f"expression at {e.span}")

    # ---------------------------------------------------------------- types
    def type_of(self, e):
        return self.types.get(id(e))

    def is_card(self, e) -> bool:
        t = self.type_of(e)
        if isinstance(t, Opt):
            t = t.inner
        return isinstance(t, KindT)

    def is_card_coll(self, e) -> bool:
        t = self.type_of(e)
        return isinstance(t, Coll) and isinstance(t.elem, KindT)

    def literal_key(self, e) -> int | None:
        """The definition a card literal names, or None."""
        if isinstance(e, ast.StrLit) and e.value in self.E.def_ids:
            return self.E.def_ids[e.value]
        return None

    # ---------------------------------------------------------------- expressions
    def expr(self, e: ast.Expr, scope: Scope) -> str:
        fn = _SRC.get(type(e))
        if fn is None:
            raise SpecRuntimeError(f"no compiler for {type(e).__name__}", getattr(e, "span", None))
        return fn(self, e, scope)

    def name(self, name: str, scope: Scope) -> str:
        if name in scope.fixed:
            return scope.fixed[name]
        if scope.env and name in ("me", "this"):
            return f"env[{name!r}]"
        glob = self.global_name(name)
        if glob is None:
            if not scope.env:
                raise SpecRuntimeError(f"'{name}' is not known here")
            return f"env[{name!r}]"
        if scope.env and name in scope.bound:            # a local name shadows a global one
            return f"(env[{name!r}] if {name!r} in env else {glob})"
        return glob

    def global_name(self, name: str) -> str | None:
        p = self.p
        if name == "player_count":
            return "st.n"
        if name == "players":
            return "E.seats"
        if name in p.enum_members:
            return repr(name)
        if name in p.enums:
            return repr(tuple(m.name for m in p.enums[name].members))
        if name in p.vars:
            return f"st.vars[{name!r}]"
        if name in p.zones:
            return f"st.zones[{name!r}]"
        return None

    def index(self, decl, e: ast.Expr, scope: Scope) -> str:
        """The index of a per-player or per-card var or zone.  A card's *definition* (a card literal, or
        `this` in a rule) used as a per-card index means that card's single physical copy in this game."""
        src = self.expr(e, scope)
        if decl.index is None or decl.index.name not in self.p.kinds:
            return src
        if src.isidentifier():          # a physical card (or none) is its own index: no call
            return f"({src} if {src} is None or {src} >= 0 else PHYS({src}))"
        return f"PHYS({src})"

    def card_key(self, e: ast.Expr, scope: Scope) -> str:
        """A card expression compared by definition."""
        key = self.literal_key(e)
        if key is not None:
            return repr(key)
        src = self.expr(e, scope)
        if src.startswith("-") and src[1:].isdigit():      # `this` in a card's rule: already a definition
            return src
        return f"DEF[{src}]"

    def within_max_int(self, name: str) -> bool:
        """Are the Int quantity's values within ±MAX_INT whatever the state (checker.front.bounds proves it)?"""
        if self._bounds is None:
            self._bounds = quantity_bounds(self.E.typed)
        low, high = self._bounds(name)
        return -MAX_INT <= low <= high <= MAX_INT

    def inline(self, name: str, args: list[str]) -> str | None:
        """A call of a quantity written as its body, when that costs less than the call: a cheap quantity (not
        cached, see :func:`is_cheap`) without value rules (an Int's adjustments are added in order, as the
        computed quantity adds them, when none depends on its card being active or imitated), not an Int unless
        its bounds are within ±MAX_INT (an Int's value is checked against MAX_INT when it is returned: the bounds
        make that check useless), each argument read at most once unless it is a name or a literal (an argument
        is not evaluated twice).  None otherwise."""
        q = self.p.quantities[name]
        heads = self.E._heads.get(name, ())
        if not is_cheap(self.E, name):
            return None
        is_int = isinstance(q.type, ast.TypeName) and q.type.name == "Int"
        if is_int and not self.within_max_int(name):
            return None
        params = [x.name for x in q.params]
        if heads and all(h.kind == "value" and h.when is not None and not any(self.E.cards.wrapping(rule))
                         for rule, h in heads) and all(_SIMPLE.fullmatch(a) for a in args):
            # given values by rules: the default where none applies (their tests read again by the call otherwise,
            # unless that would count work twice), no call
            whens = [self.expr(h.when, self.E._rule_scope(tuple(b for b, _ in h.pattern.binders), rule,
                                                          args.__getitem__)) for rule, h in heads]
            if any(_COUNTED.search(w) for w in whens):
                return None
            return (f"({self.expr(q.default, Scope(dict(zip(params, args))))} if not ("
                    f"{' or '.join(f'({w})' for w in whens)}) else {self.E.quantity_name(name)}({', '.join(args)}))")
        if heads and not (is_int and all(h.kind == "adjust" and not any(self.E.cards.wrapping(rule))
                                         for rule, h in heads)):
            return None
        counts = [0] * len(params)          # reads of each argument, over the default and the adjustments
        parts = [(q.default, params)] + [(x, [b for b, _ in h.pattern.binders]) for _, h in heads
                                         for x in (h.when, h.expr) if x is not None]
        for part, names in parts:
            reads = _name_counts(part)
            for i, x in enumerate(names[:len(params)]):
                counts[i] += reads.get(x, 0)
        if any(n > 1 and not _SIMPLE.fullmatch(a) for n, a in zip(counts, args)):
            return None
        fixed = [a if _SIMPLE.fullmatch(a) else f"({a})" for a in args]
        source = self.expr(q.default, Scope(dict(zip(params, fixed))))
        if heads:
            source = f"({source})"
        for rule, h in heads:
            scope = self.E._rule_scope(tuple(b for b, _ in h.pattern.binders), rule, lambda i: fixed[i])
            when = self.expr(h.when, scope) if h.when is not None else "True"
            source += f" + (({self.expr(h.expr, scope)}) if {when} else 0)"
        return f"({source})"

    SMALL = 100     # an aggregate over at most this many elements with a simple body is not counted (MAX_WORK)

    def small_set(self, e: ast.Expr) -> bool:
        """Does ``e`` (a set, not a pile) hold values of an enum of at most SMALL members, so that scanning it
        is bounded work?"""
        ty = self.type_of(e)
        return (isinstance(ty, Coll) and not ty.ordered and isinstance(ty.elem, EnumT)
                and len(self.p.enums[ty.elem.name].members) <= self.SMALL)

    def small_and_simple(self, e: ast.Aggregate) -> bool:
        """Is ``e`` cheap enough not to count against MAX_WORK: its collection holds at most SMALL elements
        (the players, an enum, a set of an enum's values, the cards of a kind that has at most SMALL), and its body does a bounded amount
        of work (no aggregate, quantity, `can`, range, or membership that scans a collection)?  Its cost is
        then at most SMALL times its body's, paid each time the counted loop around it runs once."""
        coll, p = e.coll, self.p
        if isinstance(coll, ast.Name) and coll.id == "players":
            size = self.E.max_players
        elif isinstance(coll, ast.Name) and coll.id in p.enums:
            size = len(p.enums[coll.id].members)
        elif isinstance(coll, (ast.Name, ast.Index, ast.Call)) and self.is_card_coll(coll) and (
                (isinstance(coll, ast.Call) and coll.func == "selected")
                or getattr(coll, "id", None) in p.zones or getattr(getattr(coll, "obj", None), "id", None) in p.zones):
            size = self.E.kind_copies(self.type_of(coll).elem.name)
        elif self.small_set(coll):
            size = len(self.p.enums[self.type_of(coll).elem.name].members)
        else:
            return False
        if size > self.SMALL:
            return False
        for node in ast.walk(e.body) if e.body is not None else ():
            if isinstance(node, (ast.Aggregate, ast.Can)) or (isinstance(node, ast.Call) and node.func in p.quantities):
                return False
            scans = ("in", "notin", "isin", "isnotin")
            if isinstance(node, ast.Binary) and (node.op == ".." or node.op in scans and not (
                    self.is_card_coll(node.right) and _zone_name(node.right) in p.zones)):
                return False
        return True

    def name_may_be_none(self, e) -> bool:
        if isinstance(e, ast.StrLit):
            return False
        t = self.type_of(e)
        return t is None or isinstance(t, Opt)


def _zone_name(e) -> str | None:
    return e.id if isinstance(e, ast.Name) else getattr(e.obj, "id", None) if isinstance(e, ast.Index) else None


def int_guard(var: str, what: str, span: str, ind: str) -> list[str]:
    """Lines stopping the spec, located, when the integer in ``var`` is beyond ±MAX_INT."""
    return [f"{ind}if not -MAX_INT <= {var} <= MAX_INT:",
            f"{ind}    raise SpecRuntimeError(f'{what} would hold {{{var}}}, beyond ±{{MAX_INT:,}} (the limit of "
            f"an integer)', {span})"]


# ==================================================================== quantities

def is_cheap(engine, name: str, seen: frozenset = frozenset()) -> bool:
    """Is the quantity computed without iterating (no aggregate but a plain count — the length of its
    collection — or a test answered by its holders (fusion.holders_answer), no legality test, only cheap
    quantities)?"""
    if name in seen:
        return False
    gen = getattr(getattr(engine, "compiler", None), "gen", None)
    for node in ast.walk(tuple(_quantity_exprs(engine, name))):
        if isinstance(node, ast.Aggregate) and (node.kind == "count" and node.body is None or gen is not None
                                                and fusion.holders_answer(gen, node)):
            continue            # len() of its collection, or its holders: the walk looks into its parts
        if isinstance(node, (ast.Aggregate, ast.Can, ast.Connected, ast.Path)):
            return False
        if isinstance(node, ast.Call) and node.func in engine.program.quantities \
                and not is_cheap(engine, node.func, seen | {name}):
            return False
    return True


def _quantity_exprs(engine, name: str) -> list:
    q = engine.program.quantities[name]
    return [q.default] + [e for _, h in engine._heads.get(name, ()) for e in (h.when, h.expr) if e is not None]


def is_static(engine, name: str, seen: frozenset = frozenset()) -> bool:
    """Is the quantity the same all game long: computed from its arguments, the cards' attributes, tables and
    the players, never from a var, a zone or a legality test?"""
    if name in seen:
        return True
    p = engine.program
    state = lambda n: n in p.vars or n in p.zones  # noqa: E731
    for node in ast.walk(tuple(_quantity_exprs(engine, name))):
        if isinstance(node, ast.Can) or (isinstance(node, ast.Name) and state(node.id)) or \
                (isinstance(node, ast.Index) and isinstance(node.obj, ast.Name) and state(node.obj.id)):
            return False
        if isinstance(node, ast.Call) and node.func in p.quantities and not is_static(engine, node.func, seen | {name}):
            return False
    return True


def cached_reads(engine) -> frozenset | None:
    """The vars whose value a cached quantity may depend on: those read by the quantities cached until the
    state changes (neither cheap nor static, see :func:`checker.runtime.quantities.quantity_functions`), by the ``imitates`` and
    ``active`` quantities of the kinds (their results are kept per state too), and by every quantity these
    call.  None when that cannot be known (one of them asks `can`, or a card's rule gives it a value): then
    every var counts.  A var outside this set is written without moving the state's version, so a write
    of it (a score, a flag read only by rules) keeps every cached quantity."""
    p, cards = engine.program, engine.cards
    todo = [n for n in p.quantities if not is_cheap(engine, n) and not is_static(engine, n)]
    todo += list(cards.imitates.values()) + list(cards.active.values())
    seen: set[str] = set()
    names: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if any(rule.card for rule, _ in engine._heads.get(name, ())):
            return None
        for node in ast.walk(tuple(_quantity_exprs(engine, name))):
            if isinstance(node, ast.Can):
                return None
            if isinstance(node, ast.Call) and node.func in p.quantities:
                todo.append(node.func)
        names |= {n for e in _quantity_exprs(engine, name) for n in names_in(e) if n in p.vars}
    return frozenset(names)


# ==================================================================== expressions

@_on(ast.IntLit)
@_on(ast.BoolLit)
def _(g, e, scope):
    return repr(e.value)


@_on(ast.NoneLit)
def _(g, e, scope):
    return "None"


@_on(ast.StrLit)
def _(g, e, scope):
    return repr(g.E.def_ids.get(e.value, e.value))     # a card literal is its definition; other text stays text


@_on(ast.Name)
def _(g: Generator, e: ast.Name, scope):
    return g.name(e.id, scope)


@_on(ast.Index)
def _(g: Generator, e: ast.Index, scope):
    name = e.obj.id
    if name in g.p.zones:
        # one subscript, no call: a place never made is made empty as it is read (state.places)
        return f"st.zones[{name!r}][{g.index(g.p.zones[name], e.index, scope)}]"
    index = g.index(g.p.vars[name], e.index, scope)
    default = g.E.var_defaults[name]
    default = repr(default) if default is None or isinstance(default, (int, str)) else g.const(default)
    return f"st.vars[{name!r}].get({index}, {default})"


@_on(ast.Call)
def _(g: Generator, e: ast.Call, scope):
    src = shapes.shape_call(g, e, scope)
    if src is not None:
        return src
    if e.func == "selected":
        return f"E.selected[{e.args[0].id!r}]"
    args = [g.expr(a, scope) for a in e.args]
    if e.func == "left":
        return f"(({args[0]}) + 1) % st.n"
    if e.func == "right":
        return f"(({args[0]}) - 1) % st.n"
    if e.func == "seats_from":
        return f"E.seats_from({args[0]})"
    if e.func == "seats_counterclockwise_from":
        return f"E.seats_from({args[0]}, -1)"
    if e.func == "least":
        return f"_least({args[0]}, {args[1]})"
    if e.func == "greatest":
        return f"_greatest({args[0]}, {args[1]})"
    if e.func == "half":
        return f"(({args[0]}) // 2)"
    if e.func in g.p.tables:
        return f"E.table({e.func!r}, ({''.join(a + ', ' for a in args)}), {g.const(e.span, 'span')})"
    inlined = g.inline(e.func, args)
    if inlined is not None:
        return inlined
    return f"{g.E.quantity_name(e.func)}({', '.join(args)})"


@_on(ast.Can)
def _(g: Generator, e: ast.Can, scope):
    args = [g.expr(a, scope) for a in e.args]
    return f"{g.E.allowed_name(e.action)}({', '.join(args)})"


@_on(ast.Attr)
def _(g: Generator, e: ast.Attr, scope):
    src = shapes.record_attr(g, e, scope)
    if src is not None:
        return src
    obj = g.expr(e.obj, scope)
    if isinstance(e.obj, (ast.Name, ast.StrLit)) and not g.name_may_be_none(e.obj):
        return f"{g.const(g.E.card_attr_table(e.name), f'attr{e.name}')}[{obj}]"
    return f"{g.const(g.E.attr_reader(e.name, e.span), 'read' + e.name)}({obj})"


@_on(ast.Unary)
def _(g, e: ast.Unary, scope):
    v = g.expr(e.operand, scope)
    return f"(not {v})" if e.op == "not" else f"(-{v})"


def _compare(g: Generator, e: ast.Binary, scope):
    op = e.op
    if g.is_card(e.left) or g.is_card(e.right):
        return f"({g.card_key(e.left, scope)} {op} {g.card_key(e.right, scope)})"
    return f"({g.expr(e.left, scope)} {op} {g.expr(e.right, scope)})"


def _member(g: Generator, e: ast.Binary, scope):
    zone = e.right
    name = _zone_name(zone)
    negate = "not " if e.op == "notin" else ""
    if g.is_card_coll(zone) and name in g.p.zones:
        # membership in a zone by definition: the state keeps a count per definition
        index = g.index(g.p.zones[name], zone.index, scope) if isinstance(zone, ast.Index) else "None"
        key = g.card_key(e.left, scope)
        count = f"(st.counts.get(({name!r}, {index})) or _EMPTY).get({key})"
        if key.lstrip("-").isdigit():
            # a definition named in the rules: no zone holds it when no copy of it is in this game (HERE)
            count = f"({count} if {key} in HERE else None)"
        return f"({negate}{count})"
    span = g.const(e.span, "span")
    if g.is_card_coll(zone):
        key = g.card_key(e.left, scope)
        x = g.fresh("x")
        return f"({key} {e.op.replace('notin', 'not in')} [DEF[{x}] for {x} in SPEND({g.expr(zone, scope)}, {span})])"
    if g.small_set(zone):
        return f"({g.expr(e.left, scope)} {e.op.replace('notin', 'not in')} {g.expr(zone, scope)})"
    return f"({g.expr(e.left, scope)} {e.op.replace('notin', 'not in')} SPEND({g.expr(zone, scope)}, {span}))"


def _physical(g: Generator, e: ast.Binary, scope):
    """`a is b` and `a is in z`: physical cards compared (a card's name means its single copy)."""
    span = g.const(e.span, "span")
    negate = "not " if e.op in ("isnot", "isnotin") else ""
    left = _same(g.expr(e.left, scope), span)
    if e.op in ("is", "isnot"):
        return f"({negate}{left} == {_same(g.expr(e.right, scope), span)})"
    zone = e.right
    name = _zone_name(zone)
    if name in g.p.zones:          # this card's own place
        index = g.index(g.p.zones[name], zone.index, scope) if isinstance(zone, ast.Index) else "None"
        return f"({negate}st.where.get({left}, MISSING) == ({name!r}, {index}))"
    x = g.fresh("x")
    return f"({left} {negate}in [{_same(x, span)} for {x} in SPEND({g.expr(zone, scope)}, {span})])"


def _same(src: str, span: str) -> str:
    """A card compared physically: a physical card (or none) is itself, no call; a definition is its copy."""
    if src.isidentifier():
        return f"({src} if {src} is None or {src} >= 0 else SAME({src}, {span}))"
    return f"SAME({src}, {span})"


_NAMED_CARD = re.compile(r"E\.sel_index\[(\d+)\]\.get\((-\d+), \(\)\)")
_ARITH = {"+", "-", "*", "<", "<=", ">", ">=", "and", "or"}


@_on(ast.Binary)
def _(g: Generator, e: ast.Binary, scope):
    op = e.op
    if op in ("==", "!="):
        return _compare(g, e, scope)
    if op in ("in", "notin"):
        return _member(g, e, scope)
    if op in ("is", "isnot", "isin", "isnotin"):
        return _physical(g, e, scope)
    a, b = g.expr(e.left, scope), g.expr(e.right, scope)
    if op in _ARITH:
        return f"({a} {op} {b})"
    if op in ("/", "%"):
        return f"_divide({a}, {b}, {op!r}, {g.const(e.span, 'span')})"
    if op == "..":
        low, high = (x.value if isinstance(x, ast.IntLit) else None for x in (e.left, e.right))
        if low is not None and high is not None and high - low < MAX_RANGE:
            # literal bounds: the integers once, their work counted as range_of counts it
            return f"SPEND({g.const(tuple(range(low, high + 1)), 'range')}, {g.const(e.span, 'span')})"
        return f"RANGE({a}, {b}, {g.const(e.span, 'span')})"
    raise SpecRuntimeError(f"no compiler for operator {op}", e.span)


@_on(ast.IfExpr)
def _(g, e: ast.IfExpr, scope):
    return f"({g.expr(e.then, scope)} if {g.expr(e.cond, scope)} else {g.expr(e.else_, scope)})"


@_on(ast.SetLit)
def _(g, e: ast.SetLit, scope):
    return "(" + "".join(g.expr(x, scope) + ", " for x in e.items) + ")"


def _each_passes(g: Generator, e: ast.Aggregate, found: str) -> str:
    """The aggregate ``e`` over ``found``, a tuple of exactly the elements its test holds for."""
    if e.kind == "count":
        return f"len({found})"
    if e.kind == "filter":
        return found
    if e.kind == "any":
        return f"bool({found})"
    return f"_single({found}, {e.kind!r}, {g.const(e.span, 'span')})"


@_on(ast.Aggregate)
def _(g: Generator, e: ast.Aggregate, scope):
    if e.kind in ("union", "collect"):
        return shapes.aggregate(g, e, scope)
    fused = fusion.per_key_count(g, e, scope)
    if fused is not None:
        return fused
    x = g.fresh("x")
    holders = fusion.narrowed_players(g, e, scope, x)
    kind = e.kind
    if holders is not None and fusion.holders_answer(g, e) and g.small_and_simple(e):
        # the test is the membership the holders were found by: it holds for each of them (a tuple)
        if kind == "the" and holders.startswith("HOLDERS("):     # one place: one holder at most, or none
            return fusion.the_holder(g, holders)
        return _each_passes(g, e, holders)
    narrowed = fusion.narrowed_selection(g, e, scope, x)
    if narrowed is not None and not (isinstance(e.body, ast.Binary) and e.body.op == "and"):
        # the test is the comparison the cards were narrowed by: it holds for each of them (a tuple)
        found = narrowed if g.small_and_simple(e) else f"SPEND({narrowed}, {g.const(e.span, 'span')})"
        return _each_passes(g, e, found)
    coll = narrowed or holders or g.expr(e.coll, scope)
    inner = scope.with_fixed(e.var, x)          # the aggregate's variable hides any other of that name
    if e.body is None:
        body = "True"
        if kind == "count":
            return f"len({coll})"
    else:
        body = g.expr(e.body, inner)
    loop = f"for {x} in {coll}" if g.small_and_simple(e) else f"for {x} in SPEND({coll}, {g.const(e.span, 'span')})"
    if kind == "count":
        return f"len([1 {loop} if {body}])"
    if kind == "sum":
        return f"sum([{body} {loop}])"
    if kind == "any":
        named = _NAMED_CARD.fullmatch(narrowed or "")
        if named and g.E._sel_specs[int(named.group(1))][1] is None:
            # the selected cards of one definition named in the rules: none when no copy of it is in this game
            # (HERE), and then nothing to range over (no generator made)
            return f"(any({body} {loop}) if {named.group(2)} in HERE else False)"
        return f"any({body} {loop})"
    if kind == "all":
        return f"all({body} {loop})"
    if kind in ("max", "min"):
        return f"{kind}([{body} {loop}], default=0)"
    if kind == "filter":
        return f"tuple([{x} {loop} if {body}])"
    if kind in ("argmax", "argmin"):
        return f"_best({kind[3:]}, [({x}, {body}) {loop}])"
    return f"_single([{x} {loop} if {body}], {kind!r}, {g.const(e.span, 'span')})"


from checker.runtime import shapes  # noqa: E402  (used above when compiling)
from checker.runtime import fusion  # noqa: E402

_on(ast.Connected)(shapes.connected_source)
_on(ast.Path)(shapes.path_source)
