"""The name index of a checked spec: every name, where it is declared and where it is used.

Built from a :class:`~checker.front.check.CheckResult` — the parsed files, the collected
:class:`~checker.front.program.Program` and the types the typechecker recorded — by walking
each file's declarations once, with the same scopes the typechecker uses (a rule's
pattern binds the action's parameters, ``let``/``choose`` bind to the end of their block,
``for`` and aggregates bind inside themselves).  Nothing is parsed again.

Most AST nodes carry the span of the whole construct; where a name has no span of its
own (``do bâtir(p, d)``, ``rule pas_de_doublon``), it is found in the source text
inside the construct's span, after the keyword that introduces it.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from typing import Callable, Iterable

from checker.front import ast
from checker.front.check import CheckResult
from checker.base.diagnostics import Reporter
from checker.base.registry import registrar
from checker.base.source import Span
from checker.front.typecheck import BUILTIN_FUNCTIONS, BUILTIN_NAMES, Checker
from checker.front.types import PLAYER, Coll, KindT, Opt, Ty, element

__all__ = ["Symbol", "Occurrence", "Binding", "Index", "build_index", "GLOBAL_KINDS"]

# What a global symbol can be, and the table of the Program that declares it.
GLOBAL_KINDS = {
    "card": "cards", "kind": "kinds", "enum": "enums", "var": "vars", "zone": "zones", "window": "windows",
    "action": "actions", "quantity": "quantities", "table": "tables", "rule": "rules", "procedure": "procedures",
    "decision": "decisions", "constraint": "constraints", "configuration": "configurations", "source": "sources",
}
PRIMITIVE_TYPES = ("Int", "Bool", "Text", "Player")


@dataclasses.dataclass(frozen=True, slots=True)
class Symbol:
    """What a name means: a declaration (``kind`` as in :data:`GLOBAL_KINDS`), or ``member`` (of an enum,
    ``owner``), ``attribute`` (of a kind, ``owner``), ``power`` (of a card, ``owner``), ``local`` (bound at
    ``site``), ``builtin``, ``type`` (a primitive type) or ``game``."""
    kind: str
    name: str
    owner: str | None = None
    site: Span | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Occurrence:
    span: Span
    symbol: Symbol
    definition: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class Binding:
    """A local name: a parameter, a pattern's binder, a `let`, a `choose`, a `for`, an aggregate's variable."""
    symbol: Symbol
    type: Ty | None
    region: Span          # where the name can be used
    what: str             # "parameter", "pattern", "let", "choose", "for", "aggregate", "window", "offer"
    owner: str            # the declaration it belongs to, as written: "rule pas_de_doublon"


@dataclasses.dataclass(frozen=True, slots=True)
class Outline:
    """One entry of a file's outline: a declaration, its name's span, and what it contains."""
    kind: str
    name: str
    span: Span
    selection: Span
    children: tuple["Outline", ...] = ()


class Index:
    """Occurrences and bindings by file name (as in spans), definitions by symbol."""

    def __init__(self) -> None:
        self.occurrences: dict[str, list[Occurrence]] = {}
        self.definitions: dict[Symbol, list[Span]] = {}
        self.bindings: dict[str, list[Binding]] = {}
        self.locals: dict[Symbol, Binding] = {}
        self.outlines: dict[str, list[Outline]] = {}

    def add(self, span: Span | None, symbol: Symbol, definition: bool = False) -> None:
        if span is None:
            return
        self.occurrences.setdefault(span.file, []).append(Occurrence(span, symbol, definition))
        if definition:
            self.definitions.setdefault(symbol, []).append(span)

    def at(self, file: str, line: int, column: int) -> Occurrence | None:
        """The innermost occurrence at a 1-based position (a cursor just after a name is on it)."""
        best = None
        for occ in self.occurrences.get(file, ()):
            s = occ.span
            if (s.line, s.column) <= (line, column) <= (s.end_line, s.end_column):
                if best is None or _size(s) < _size(best.span):
                    best = occ
        return best

    def references(self, symbol: Symbol) -> list[Occurrence]:
        return [occ for occs in self.occurrences.values() for occ in occs if occ.symbol == symbol]

    def scope_at(self, file: str, line: int, column: int) -> list[Binding]:
        """The local names visible at a position, innermost first."""
        inside = [b for b in self.bindings.get(file, ())
                  if (b.region.line, b.region.column) <= (line, column) <= (b.region.end_line, b.region.end_column)
                  and (b.symbol.site.line, b.symbol.site.column) < (line, column)]
        return sorted(inside, key=lambda b: (-b.symbol.site.line, -b.symbol.site.column))


def _size(span: Span) -> tuple[int, int]:
    return span.end_line - span.line, span.end_column - span.column


# ---------------------------------------------------------------- finding names in the text


def _wordlike(text: str, i: int) -> bool:
    """Whether the character at ``i`` would continue a name (or a string) next to it."""
    return 0 <= i < len(text) and (text[i].isalnum() or text[i] in '_"')


class _Text:
    """One file's text, to find a name inside a span."""

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def offset(self, line: int, column: int) -> int:
        if line < 1:
            return 0
        if line > len(self.starts):
            return len(self.text)
        return min(self.starts[line - 1] + column - 1, len(self.text))

    def span(self, start: int, end: int) -> Span:
        line = bisect.bisect_right(self.starts, start)
        end_line = bisect.bisect_right(self.starts, end)
        return Span(self.name, line, start - self.starts[line - 1] + 1, end_line, end - self.starts[end_line - 1] + 1)

    def find(self, within: Span, name: str, before: str | None = None) -> Span | None:
        """The first ``name`` inside ``within``, as a whole word, and just after one of the keywords
        ``before`` (``"var|counter"``) when given."""
        text = self.text
        lo, hi = self.offset(within.line, within.column), self.offset(within.end_line, within.end_column)
        start = lo
        while (i := text.find(name, start, hi)) >= 0:
            end = i + len(name)
            if not _wordlike(text, i - 1) and not _wordlike(text, end) and (before is None or
                                                                            self._after(i, before, lo)):
                return self.span(i, end)
            start = i + 1
        return None

    def _after(self, i: int, keywords: str, lo: int) -> bool:
        k = i
        while k > lo and self.text[k - 1].isspace():
            k -= 1
        return k < i and any(self.text.startswith(word, k - len(word)) and k - len(word) >= lo
                             and not _wordlike(self.text, k - len(word) - 1) for word in keywords.split("|"))


# ---------------------------------------------------------------- the walk

_EXPR: dict[type, Callable] = {}
_STMT: dict[type, Callable] = {}
_DECL: dict[type, Callable] = {}
_expr = registrar(_EXPR)
_stmt = registrar(_STMT)
_decl = registrar(_DECL)

Scope = dict   # name -> Binding


class _Indexer:
    def __init__(self, result: CheckResult) -> None:
        self.result = result
        self.p = result.program
        self.types = result.typed.types if result.typed is not None else {}
        self.checker = Checker(self.p, Reporter())        # resolves type names; its reports are dropped
        self.index = Index()
        self.text: _Text | None = None
        self.this: str | None = None                      # the kind of the card being walked
        self.owner = ""
        self.outline: list[Outline] = []

    # -- helpers
    def type_of(self, e) -> Ty | None:
        return self.types.get(id(e))

    def resolve(self, t: ast.TypeExpr) -> Ty | None:
        return self.checker.resolve_type(t)

    def find(self, within: Span, name: str, before: str | None = None) -> Span | None:
        return self.text.find(within, name, before) if self.text is not None else None

    def use(self, span: Span | None, kind: str, name: str, owner: str | None = None) -> None:
        self.index.add(span, Symbol(kind, name, owner))

    def define(self, span: Span | None, kind: str, name: str, owner: str | None = None) -> None:
        self.index.add(span, Symbol(kind, name, owner), definition=True)

    def bind(self, scope: Scope, name: str, site: Span | None, ty: Ty | None, region: Span, what: str) -> Scope:
        if site is None:
            return scope
        binding = Binding(Symbol("local", name, None, site), ty, region, what, self.owner)
        self.index.bindings.setdefault(site.file, []).append(binding)
        self.index.locals[binding.symbol] = binding
        self.index.add(site, binding.symbol, definition=True)
        return {**scope, name: binding}

    def type_name(self, t: ast.TypeExpr | None) -> None:
        while isinstance(t, (ast.OptionalType, ast.SetType)):
            t = t.inner
        if t is None:
            return
        kind = "type" if t.name in PRIMITIVE_TYPES else "enum" if t.name in self.p.enums else "kind"
        self.use(t.span, kind, t.name)

    def params(self, params: Iterable[ast.Param], scope: Scope, region: Span) -> Scope:
        for param in params:
            self.type_name(param.type)
            site = Span(param.span.file, param.span.line, param.span.column, param.span.line,
                        param.span.column + len(param.name))
            scope = self.bind(scope, param.name, site, self.resolve(param.type), region, "parameter")
        return scope

    def expr(self, e, scope: Scope) -> None:
        if e is None:
            return
        handler = _EXPR.get(type(e))
        if handler is not None:
            handler(self, e, scope)

    def exprs(self, es, scope: Scope) -> None:
        for e in es:
            self.expr(e, scope)

    def block(self, stmts, scope: Scope, end: Span) -> Scope:
        """Statements in order; a `let` or `choose` binds until ``end`` (the end of the block)."""
        for s in stmts:
            handler = _STMT.get(type(s))
            if handler is not None:
                scope = handler(self, s, scope, end) or scope
        return scope

    def region(self, start: Span, end: Span) -> Span:
        return Span(start.file, start.line, start.column, end.end_line, end.end_column)

    def decisions(self, refs) -> None:
        for name, span in refs:
            self.use(span, "decision", name)

    def lvalue(self, lv: ast.LValue, scope: Scope) -> None:
        kind = "zone" if lv.name in self.p.zones else "var"
        self.use(self.find(lv.span, lv.name), kind, lv.name)
        self.expr(lv.index, scope)

    def named_decl(self, decl, kind: str, keyword: str | None = None, children: tuple[Outline, ...] = (),
                   owner: str | None = None, into: list[Outline] | None = None, quoted: bool = False) -> None:
        """Define a declaration's name (found after ``keyword``, between quotes when ``quoted``); record it in
        the outline (or ``into``)."""
        where = self.find(decl.span, f'"{decl.name}"' if quoted else decl.name, keyword)
        self.define(where, kind, decl.name, owner)
        if where is not None:
            (self.outline if into is None else into).append(Outline(kind, decl.name, decl.span, where, children))

    # -- the files
    def file(self, spec_file: ast.SpecFile) -> None:
        source = self.result.sources.get(spec_file.name)
        self.text = _Text(spec_file.name, source.text) if source is not None else None
        self.outline = self.index.outlines.setdefault(spec_file.name, [])
        for decl in spec_file.decls:
            self.this, self.owner = None, ""
            handler = _DECL.get(type(decl))
            if handler is not None:
                handler(self, decl)


def build_index(result: CheckResult) -> Index:
    """Every occurrence of every name in the checked files."""
    indexer = _Indexer(result)
    for spec_file in result.files:
        indexer.file(spec_file)
    for occurrences in indexer.index.occurrences.values():
        occurrences.sort(key=lambda o: (o.span.line, o.span.column))
    return indexer.index


# ==================================================================== expressions

@_expr(ast.Name)
def _(x: _Indexer, e: ast.Name, scope: Scope) -> None:
    name = e.id
    if name in scope:
        x.index.add(e.span, scope[name].symbol)
    elif name in BUILTIN_NAMES:
        x.use(e.span, "builtin", name)
    elif name in x.p.enum_members:
        x.use(e.span, "member", name, x.p.enum_members[name][0])
    else:
        for kind in ("enum", "var", "zone", "kind", "quantity", "table", "procedure"):
            if name in getattr(x.p, GLOBAL_KINDS[kind]):
                x.use(e.span, kind, name)
                return


@_expr(ast.StrLit)
def _(x: _Indexer, e: ast.StrLit, scope: Scope) -> None:
    if e.value in x.p.cards:
        x.use(e.span, "card", e.value)


@_expr(ast.Call)
def _(x: _Indexer, e: ast.Call, scope: Scope) -> None:
    kind = "builtin" if e.func in BUILTIN_FUNCTIONS else "table" if e.func in x.p.tables else "quantity"
    x.use(e.func_span, kind, e.func)
    x.exprs(e.args, scope)


@_expr(ast.Attr)
def _(x: _Indexer, e: ast.Attr, scope: Scope) -> None:
    x.expr(e.obj, scope)
    ty = x.type_of(e.obj)
    ty = ty.inner if isinstance(ty, Opt) else ty
    if isinstance(ty, KindT) and e.name != "name":
        s = e.span
        where = Span(s.file, s.end_line, s.end_column - len(e.name), s.end_line, s.end_column)
        x.use(where, "attribute", e.name, ty.name)


@_expr(ast.Aggregate)
def _(x: _Indexer, e: ast.Aggregate, scope: Scope) -> None:
    x.expr(e.coll, scope)
    coll = x.type_of(e.coll)
    inner = x.bind(scope, e.var, e.var_span, element(coll) if coll is not None else None, e.span, "aggregate")
    x.expr(e.body, inner)


# ==================================================================== statements

def _element(x: _Indexer, coll) -> Ty | None:
    ty = x.type_of(coll)
    return element(ty) if ty is not None else None


@_stmt(ast.Let)
def _(x: _Indexer, s: ast.Let, scope: Scope, end: Span) -> Scope:
    x.expr(s.value, scope)
    return x.bind(scope, s.name, x.find(s.span, s.name, "let"), x.type_of(s.value), x.region(s.span, end), "let")


@_stmt(ast.SetVar)
def _(x: _Indexer, s: ast.SetVar, scope: Scope, end: Span) -> None:
    x.lvalue(s.target, scope)
    x.expr(s.value, scope)


@_stmt(ast.Reset)
def _(x: _Indexer, s: ast.Reset, scope: Scope, end: Span) -> None:
    x.use(x.find(s.span, s.name, "reset"), "var", s.name)


def _choose(x: _Indexer, s, scope: Scope, end: Span, ty: Ty | None) -> Scope:
    x.expr(s.coll, scope)
    inner = x.bind(scope, s.var, x.find(s.span, s.var, "choose"), ty, x.region(s.span, end), "choose")
    x.expr(s.options.where, inner)
    x.expr(s.options.by, scope)
    return inner


@_stmt(ast.Choose)
def _(x: _Indexer, s: ast.Choose, scope: Scope, end: Span) -> Scope:
    return _choose(x, s, scope, end, _element(x, s.coll))


@_stmt(ast.ChooseSubset)
def _(x: _Indexer, s: ast.ChooseSubset, scope: Scope, end: Span) -> Scope:
    x.exprs((s.low, s.high), scope)
    elem = _element(x, s.coll)
    return _choose(x, s, scope, end, Coll(elem) if elem is not None else None)


@_stmt(ast.If)
def _(x: _Indexer, s: ast.If, scope: Scope, end: Span) -> None:
    x.expr(s.cond, scope)
    x.block(s.then, scope, s.span)
    x.block(s.else_, scope, s.span)


@_stmt(ast.For)
def _(x: _Indexer, s: ast.For, scope: Scope, end: Span) -> None:
    x.expr(s.coll, scope)
    inner = x.bind(scope, s.var, x.find(s.span, s.var, "for"), _element(x, s.coll), s.span, "for")
    x.block(s.body, inner, s.span)


@_stmt(ast.Repeat)
def _(x: _Indexer, s: ast.Repeat, scope: Scope, end: Span) -> None:
    inner = x.block(s.body, scope, s.span)
    x.expr(s.until, inner)


@_stmt(ast.ChooseEach)
def _(x: _Indexer, s: ast.ChooseEach, scope: Scope, end: Span) -> None:
    """`each p in ps chooses v in coll [where …] into t[p]`: p and v are the statement's own names."""
    x.expr(s.players, scope)
    who = x.bind(scope, s.player, x.find(s.span, s.player, "each"), PLAYER, s.span, "each")
    x.expr(s.coll, who)
    x.expr(s.where, x.bind(who, s.var, x.find(s.span, s.var, "chooses"), _element(x, s.coll), s.span, "choose"))
    x.lvalue(s.target, who)


@_stmt(ast.Transfer)
def _(x: _Indexer, s: ast.Transfer, scope: Scope, end: Span) -> None:
    x.expr(s.amount, scope)
    x.lvalue(s.source, scope)
    x.lvalue(s.target, scope)


@_stmt(ast.Move)
def _(x: _Indexer, s: ast.Move, scope: Scope, end: Span) -> None:
    x.expr(s.what, scope)
    x.lvalue(s.dest.target, scope)


@_stmt(ast.Draw)
def _(x: _Indexer, s: ast.Draw, scope: Scope, end: Span) -> None:
    x.expr(s.count, scope)
    x.lvalue(s.source, scope)
    x.lvalue(s.dest.target, scope)


@_stmt(ast.Shuffle)
def _(x: _Indexer, s: ast.Shuffle, scope: Scope, end: Span) -> None:
    x.lvalue(s.target, scope)


def _children(*fields: str) -> Callable:
    """A node that names nothing itself: its expressions (or tuples of them), in order."""
    def handler(x: _Indexer, node, scope: Scope, end: Span | None = None) -> None:
        for field in fields:
            value = getattr(node, field)
            x.exprs(value, scope) if isinstance(value, tuple) else x.expr(value, scope)
    return handler


for _node, _fields in ((ast.Index, ("obj", "index")), (ast.Unary, ("operand",)), (ast.Binary, ("left", "right")),
                       (ast.IfExpr, ("cond", "then", "else_")), (ast.SetLit, ("items",))):
    _expr(_node)(_children(*_fields))
for _node, _fields in ((ast.Reveal, ("what", "to")), (ast.Log, ("args",)), (ast.Swap, ("left", "right"))):
    _stmt(_node)(_children(*_fields))


def _invocation(keyword: str, kind: str, field: str) -> Callable:
    """`do act(…)`, `call proc(…)`, `signal window(…)` and `can act(…)`: the name after the keyword, then the arguments."""
    def handler(x: _Indexer, node, scope: Scope, end: Span | None = None) -> None:
        name = getattr(node, field)
        x.use(x.find(node.span, name, keyword), kind, name)
        x.exprs(node.args, scope)
    return handler


_stmt(ast.Do)(_invocation("do", "action", "action"))
_stmt(ast.CallProc)(_invocation("call", "procedure", "name"))
_stmt(ast.Signal)(_invocation("signal", "window", "window"))
_stmt(ast.Install)(_invocation("install", "procedure", "name"))     # a trigger is also the procedure of its reaction
_expr(ast.Can)(_invocation("can", "action", "action"))


@_stmt(ast.Offer)
def _(x: _Indexer, s: ast.Offer, scope: Scope, end: Span) -> None:
    x.expr(s.player, scope)
    for item in s.items:
        if isinstance(item, ast.OfferAction):
            x.use(x.find(item.span, item.action), "action", item.action)
            inner = scope
            for var, coll in item.binders:
                x.expr(coll, inner)
                inner = x.bind(inner, var, x.find(item.span, var, "for"), _element(x, coll), item.span, "offer")
            x.exprs(item.args, inner)
        elif isinstance(item, ast.OfferPowers):
            x.expr(item.source, scope)
        elif isinstance(item, ast.OfferFinish):
            x.expr(item.when, scope)


@_stmt(ast.HookStmt)
def _(x: _Indexer, s: ast.HookStmt, scope: Scope, end: Span) -> Scope:
    return x.block(s.body, scope, end)         # a step's statements are its block's (collect splices them)


@_stmt(ast.DecisionStmt)
def _(x: _Indexer, s: ast.DecisionStmt, scope: Scope, end: Span) -> None:
    x.use(s.span, "decision", s.name)


# ==================================================================== declarations

_GAME_FIELDS = {"flow": "procedure", "turn": "procedure", "round": "procedure", "score": "quantity",
                "tiebreak": "quantity"}


@_decl(ast.GameDecl)
def _(x: _Indexer, d: ast.GameDecl) -> None:
    x.named_decl(d, "game", "game", quoted=True)
    for f in d.fields:
        kind = _GAME_FIELDS.get(f.name)
        for value in f.values:
            if kind and isinstance(value, ast.Name):
                x.use(value.span, kind, value.id)
            else:
                x.expr(value, {})


@_decl(ast.SourceDecl)
def _(x: _Indexer, d: ast.SourceDecl) -> None:
    x.named_decl(d, "source", "source")


@_decl(ast.EnumDecl)
def _(x: _Indexer, d: ast.EnumDecl) -> None:
    members: list[Outline] = []
    for m in d.members:
        x.named_decl(m, "member", owner=d.name, into=members)
    x.named_decl(d, "enum", "enum", tuple(members))


@_decl(ast.KindDecl)
def _(x: _Indexer, d: ast.KindDecl) -> None:
    attrs: list[Outline] = []
    for a in d.attrs:
        x.named_decl(a, "attribute", owner=d.name, into=attrs)
        x.type_name(a.type)
        x.exprs((a.domain, a.default), {})
    x.named_decl(d, "kind", "kind", tuple(attrs))
    if d.controller is not None:
        x.use(d.controller[1], "quantity", d.controller[0])
    if d.start is not None:
        x.use(d.start[1], "zone", d.start[0])
    x.decisions(d.decisions)


@_decl(ast.VarDecl)
def _(x: _Indexer, d: ast.VarDecl) -> None:
    x.named_decl(d, "var", "var|counter")
    x.type_name(d.index)
    if not d.counter:
        x.type_name(d.type)
        x.expr(d.default, {})


@_decl(ast.ZoneDecl)
def _(x: _Indexer, d: ast.ZoneDecl) -> None:
    x.named_decl(d, "zone", "zone")
    x.type_name(d.index)
    x.type_name(d.kind)


@_decl(ast.WindowDecl)
def _(x: _Indexer, d: ast.WindowDecl) -> None:
    x.named_decl(d, "window", "window")
    x.params(d.params, {}, d.span)


@_decl(ast.ActionDecl)
def _(x: _Indexer, d: ast.ActionDecl) -> None:
    x.owner = f"action {d.name}"
    x.named_decl(d, "action", "action")
    if d.parent is not None:
        x.use(d.parent[1], "action", d.parent[0])
    scope = x.params(d.params, {}, d.span)
    x.block(d.body or (), scope, d.span)


@_decl(ast.QuantityDecl)
def _(x: _Indexer, d: ast.QuantityDecl) -> None:
    x.owner = f"quantity {d.name}"
    x.named_decl(d, "quantity", "quantity")
    scope = x.params(d.params, {}, d.span)
    x.type_name(d.type)
    x.expr(d.default, scope)


@_decl(ast.TableDecl)
def _(x: _Indexer, d: ast.TableDecl) -> None:
    x.named_decl(d, "table", "table")
    x.params(d.params, {}, d.span)
    x.type_name(d.type)
    for row in d.rows:
        x.exprs((*row.keys, row.value), {})


@_decl(ast.CardDecl)
def _(x: _Indexer, d: ast.CardDecl) -> None:
    x.define(d.name_span, "card", d.name)
    x.use(d.kind_span, "kind", d.kind)
    for value in d.attrs:
        x.use(x.find(value.span, value.name), "attribute", value.name, d.kind)
        x.expr(value.value, {})
    children = []
    outline, x.outline = x.outline, children
    for power in d.powers:
        x.this, x.owner = d.kind, f'"{d.name}".{power.name}'
        _power(x, d, power)
    for rule in d.rules:
        x.this = d.kind
        _DECL[ast.RuleDecl](x, rule)
    x.outline = outline
    x.outline.append(Outline("card", d.name, d.span, d.name_span, tuple(children)))


def _power(x: _Indexer, card: ast.CardDecl, power: ast.PowerDecl) -> None:
    x.named_decl(power, "power", "power", owner=card.name)
    scope: Scope = {}
    if power.window is not None:
        name, binders, span = power.window
        x.use(x.find(span, name, "when"), "window", name)
        window = x.p.windows.get(name)
        params = window.params if window is not None else ()
        for i, (binder, site) in enumerate(binders):
            ty = x.resolve(params[i].type) if i < len(params) else None
            scope = x.bind(scope, binder, site, ty, power.span, "window")
    x.expr(power.requires, scope)
    x.block(power.body, scope, power.span)


@_decl(ast.RuleDecl)
def _(x: _Indexer, d: ast.RuleDecl) -> None:
    x.owner = f"rule {d.name}"
    x.named_decl(d, "rule", "rule")
    for head in d.heads:
        pat = head.pattern
        kind = "action" if head.kind in ("permit", "forbid") else "quantity"
        if head.tagged:         # about a category of actions: its binders are the tag's parameters
            decl = x.p.tags.get(pat.name)
        else:
            x.use(x.find(pat.span, pat.name), kind, pat.name)
            decl = getattr(x.p, GLOBAL_KINDS[kind]).get(pat.name)
        params = decl.params if decl is not None else ()
        scope: Scope = {}
        for i, (binder, site) in enumerate(pat.binders):
            ty = x.resolve(params[i].type) if i < len(params) else None
            scope = x.bind(scope, binder, site, ty, head.span, "pattern")
        x.expr(head.expr, scope)
        x.expr(head.when, scope)
    for name, span in d.overrides:
        x.use(span, "rule", name)
    x.decisions(d.decisions)


def _subject(x: _Indexer, subject: ast.Subject) -> None:
    if subject.card is None:
        x.use(x.find(subject.span, subject.name), "rule", subject.name)
        return
    x.use(x.find(subject.span, f'"{subject.card}"'), "card", subject.card)
    s = subject.span
    x.use(Span(s.file, s.end_line, s.end_column - len(subject.name), s.end_line, s.end_column), "power",
          subject.name, subject.card)


@_decl(ast.PrecedenceDecl)
def _(x: _Indexer, d: ast.PrecedenceDecl) -> None:
    x.outline.append(Outline("precedence", f"{d.winner} over {d.loser}", d.span, d.winner.span))
    _subject(x, d.winner)
    _subject(x, d.loser)
    if d.decision is not None:
        x.decisions((d.decision,))


@_decl(ast.ConstraintDecl)
def _(x: _Indexer, d: ast.ConstraintDecl) -> None:
    x.named_decl(d, "constraint", "constraint")
    x.decisions(d.decisions)
    x.exprs((d.require, d.when), {})


@_decl(ast.DecisionDecl)
def _(x: _Indexer, d: ast.DecisionDecl) -> None:
    x.named_decl(d, "decision", "decision")


@_decl(ast.ProcedureDecl)
def _(x: _Indexer, d: ast.ProcedureDecl) -> None:
    x.owner = f"procedure {d.name}"
    x.named_decl(d, "procedure", "procedure")
    scope = x.params(d.params, {}, d.span)
    x.expr(d.requires, scope)
    x.block(d.body, scope, d.span)


@_decl(ast.TriggerDecl)
def _(x: _Indexer, d: ast.TriggerDecl) -> None:
    x.owner = f"trigger {d.name}"
    x.named_decl(d, "procedure", "trigger")
    scope = x.params(d.params, {}, d.span)
    if d.window is not None:
        name, binders, span = d.window
        x.use(x.find(span, name, "when"), "window", name)
        params = x.p.windows[name].params if name in x.p.windows else ()
        for i, (binder, site) in enumerate(binders):
            scope = x.bind(scope, binder, site, x.resolve(params[i].type) if i < len(params) else None, d.span,
                           "window")
    if d.until is not None:
        x.use(x.find(d.until.span, d.until.window, "until"), "window", d.until.window)
    x.expr(d.requires, scope)
    x.block(d.body, scope, d.span)


@_decl(ast.ConfigDecl)
def _(x: _Indexer, d: ast.ConfigDecl) -> None:
    x.named_decl(d, "configuration", "configuration", quoted=True)
    x.decisions(d.decisions)
    for f in d.fields:
        x.exprs(f.values, {})
    for inc in d.includes:
        x.use(x.find(inc.span, inc.kind, "include"), "kind", inc.kind)
        for name, span in inc.names:
            x.use(span, "card", name)
        x.expr(inc.when, {})
    for rep in d.replaces:
        for name, span in (rep.old, *rep.new):
            x.use(span, "card", name)
        x.expr(rep.when, {})


_REMOVED_KIND = {"rule": "rule", "card": "card", "constraint": "constraint", "configuration": "configuration",
                 "procedure": "procedure", "quantity": "quantity", "table": "table"}


@_decl(ast.RemoveDecl)
def _(x: _Indexer, d: ast.RemoveDecl) -> None:
    kind = _REMOVED_KIND.get(d.kind)
    if kind is None:
        return
    quoted = f'"{d.name}"' if kind in ("card", "configuration") else d.name
    x.use(x.find(d.span, quoted), kind, d.name)


@_decl(ast.ExtendDecl)
def _(x: _Indexer, d: ast.ExtendDecl) -> None:
    ext = d.decl
    if not isinstance(ext, ast.ProcedureExtension):
        return
    x.owner = f"procedure {ext.procedure}"
    x.use(ext.procedure_span, "procedure", ext.procedure)
    proc = x.p.procedures.get(ext.procedure)
    # the procedure's parameters, declared in the base: a use here refers to them there
    scope = {p.name: Binding(Symbol("local", p.name, None, p.span), x.resolve(p.type), d.span, "parameter",
                             x.owner) for p in proc.params} if proc is not None else {}
    for item in ext.items:
        if item.where == "options":
            x.block((ast.Offer(ast.NoneLit(item.span), item.body, item.span),), scope, item.span)
        else:
            x.expr(item.cond, scope)
            x.block(item.body, scope, item.span)


@_decl(ast.ReplaceDecl)
def _(x: _Indexer, d: ast.ReplaceDecl) -> None:
    handler = _DECL.get(type(d.decl))
    if handler is not None:
        handler(x, d.decl)
