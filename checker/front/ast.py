"""The surface AST: what a spec file says, as frozen dataclasses.

Built from Lark's parse tree by :mod:`checker.front.lower`; no ``lark.Tree`` or ``Token`` survives (a test
checks).  Every node has a ``span``.  Nodes carry no behaviour: passes dispatch on their type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from checker.base.source import Span

# ---------------------------------------------------------------- types


@dataclass(frozen=True, slots=True)
class TypeName:
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class OptionalType:
    inner: "TypeExpr"
    span: Span


@dataclass(frozen=True, slots=True)
class SetType:
    inner: "TypeExpr"
    span: Span


TypeExpr = Union[TypeName, OptionalType, SetType]

# ---------------------------------------------------------------- expressions


@dataclass(frozen=True, slots=True)
class IntLit:
    value: int
    span: Span


@dataclass(frozen=True, slots=True)
class BoolLit:
    value: bool
    span: Span


@dataclass(frozen=True, slots=True)
class NoneLit:
    span: Span


@dataclass(frozen=True, slots=True)
class StrLit:
    value: str
    span: Span


@dataclass(frozen=True, slots=True)
class Name:
    id: str
    span: Span


@dataclass(frozen=True, slots=True)
class Call:
    func: str
    args: tuple["Expr", ...]
    span: Span
    func_span: Span


@dataclass(frozen=True, slots=True)
class Attr:
    obj: "Expr"
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class Index:
    obj: "Expr"
    index: "Expr"
    span: Span


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # "not" | "-"
    operand: "Expr"
    span: Span


@dataclass(frozen=True, slots=True)
class Binary:
    op: str  # + - * / % == != < <= > >= in notin is isnot isin isnotin and or ..
    left: "Expr"
    right: "Expr"
    span: Span


@dataclass(frozen=True, slots=True)
class IfExpr:
    cond: "Expr"
    then: "Expr"
    else_: "Expr"
    span: Span


@dataclass(frozen=True, slots=True)
class SetLit:
    items: tuple["Expr", ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Can:
    """`can act(args)`: is the action legal now?"""
    action: str
    args: tuple["Expr", ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Aggregate:
    kind: str          # count sum any all the only max min argmax argmin filter union collect
    var: str
    coll: "Expr"
    body: "Expr | None"
    body_is_where: bool
    span: Span
    var_span: Span


@dataclass(frozen=True, slots=True)
class Connected:
    """`connected(x from start via step)`: every value reachable from ``start`` (a value or a collection)
    by following ``step`` (the successors of ``x``: a value, an optional value or a collection), start included."""
    var: str
    start: "Expr"
    step: "Expr"
    span: Span
    var_span: Span


@dataclass(frozen=True, slots=True)
class Path:
    """`path(x from start to goal via step)`: a shortest sequence of values from ``start`` to ``goal``
    following ``step`` (both ends included; empty when ``goal`` cannot be reached).  ``start`` and
    ``goal`` may be collections: the path goes from any of the first to any of the second."""
    var: str
    start: "Expr"
    goal: "Expr"
    step: "Expr"
    span: Span
    var_span: Span


Expr = Union[IntLit, BoolLit, NoneLit, StrLit, Name, Call, Attr, Index, Unary, Binary, IfExpr, SetLit,
             Aggregate, Can, Connected, Path]

# ---------------------------------------------------------------- statements


@dataclass(frozen=True, slots=True)
class LValue:
    name: str
    index: "Expr | None"
    span: Span


@dataclass(frozen=True, slots=True)
class Place:
    target: LValue
    position: str  # "any" | "top" | "bottom"
    span: Span


@dataclass(frozen=True, slots=True)
class Cite:
    source: str | None
    quote: str
    span: Span


@dataclass(frozen=True, slots=True)
class Let:
    name: str
    value: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class SetVar:
    target: LValue
    value: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class Reset:
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class ChooseOptions:
    where: Expr | None = None
    by: Expr | None = None
    secretly: bool = False
    optional: bool = False
    random: bool = False


@dataclass(frozen=True, slots=True)
class Choose:
    var: str
    coll: Expr
    options: ChooseOptions
    span: Span


@dataclass(frozen=True, slots=True)
class ChooseSubset:
    var: str
    coll: Expr
    low: Expr
    high: Expr
    options: ChooseOptions
    span: Span


@dataclass(frozen=True, slots=True)
class If:
    cond: Expr
    then: tuple["Stmt", ...]
    else_: tuple["Stmt", ...]
    span: Span


@dataclass(frozen=True, slots=True)
class For:
    var: str
    coll: Expr
    body: tuple["Stmt", ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Repeat:
    body: tuple["Stmt", ...]
    until: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class Transfer:
    amount: Expr
    source: LValue
    target: LValue
    up_to: bool
    span: Span


@dataclass(frozen=True, slots=True)
class Move:
    what: Expr
    dest: Place
    span: Span


@dataclass(frozen=True, slots=True)
class Draw:
    count: Expr
    source: LValue
    dest: Place
    span: Span


@dataclass(frozen=True, slots=True)
class Shuffle:
    target: LValue
    span: Span


@dataclass(frozen=True, slots=True)
class Reveal:
    what: Expr
    to: Expr | None
    span: Span


@dataclass(frozen=True, slots=True)
class Do:
    action: str
    args: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class CallProc:
    name: str
    args: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Signal:
    window: str
    args: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class OfferAction:
    action: str
    args: tuple[Expr, ...]
    binders: tuple[tuple[str, Expr], ...]
    span: Span


@dataclass(frozen=True, slots=True)
class OfferPowers:
    source: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class OfferFinish:
    label: str
    when: Expr | None
    span: Span


@dataclass(frozen=True, slots=True)
class OfferHook:
    """`hook name` among an offer's items: a point where an `extend procedure` adds options (``add to name``).
    Collect replaces it with the options the overlays add (none, unextended): no later pass sees it."""
    name: str
    span: Span


OfferItem = Union[OfferAction, OfferPowers, OfferFinish, OfferHook]


@dataclass(frozen=True, slots=True)
class Offer:
    player: Expr
    items: tuple[OfferItem, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class EndTurn:
    span: Span


@dataclass(frozen=True, slots=True)
class Cancel:
    """`cancel`: in a power reacting to a window opened `before` an action, the action does not happen."""
    span: Span


@dataclass(frozen=True, slots=True)
class Stop:
    span: Span


@dataclass(frozen=True, slots=True)
class Log:
    template: str
    args: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class CiteStmt:
    cite: Cite
    span: Span


@dataclass(frozen=True, slots=True)
class DecisionStmt:
    """`decision name` in a body: the statements around it apply that decision."""
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class HookStmt:
    """`hook name { … }` (or `hook name`, an empty step) in a procedure: a named step that an overlay's
    `extend procedure` adds statements before or after.  Collect splices the step's statements, with the
    extensions', into the block it stands in: no later pass sees it."""
    name: str
    body: tuple["Stmt", ...]
    span: Span
    name_span: Span


from checker.front.ast_statements import ChooseEach, Install, Lifetime, Retarget, Swap, TriggerDecl  # noqa: E402,F401
Stmt = Union[Let, SetVar, Reset, Choose, ChooseSubset, If, For, Repeat, Transfer, Move, Draw, Shuffle, Reveal, Do,
             CallProc, Signal, Offer, EndTurn, Stop, Cancel, Log, CiteStmt, DecisionStmt, HookStmt, Retarget,
             Swap, ChooseEach, Install]

# ---------------------------------------------------------------- declarations


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    values: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: TypeExpr
    span: Span


@dataclass(frozen=True, slots=True)
class GameDecl:
    name: str
    fields: tuple[Field, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class SourceDecl:
    name: str
    path: str
    title: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class EnumMember:
    name: str
    doc: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class EnumDecl:
    name: str
    members: tuple[EnumMember, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class GridDecl:
    """`grid Cell 31 by 31 directions Dir`: a type whose values are the cells of a bounded grid."""
    name: str
    width: int
    height: int
    directions: tuple[str, Span]
    doc: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class RecordDecl:
    """`record Edge { cell: Cell, side: Dir }`: a type whose values are made of named fields."""
    name: str
    fields: tuple["Param", ...]
    doc: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class AttrDecl:
    name: str
    type: TypeExpr
    domain: Expr | None
    default: Expr | None
    span: Span


@dataclass(frozen=True, slots=True)
class KindDecl:
    name: str
    attrs: tuple[AttrDecl, ...]
    controller: tuple[str, Span] | None
    start: tuple[str, Span] | None
    decisions: tuple[tuple[str, Span], ...]
    cites: tuple[Cite, ...]
    span: Span
    active: tuple[str, Span] | None = None      # q(card): Bool; a card's powers and rules work while it holds
    imitates: tuple[str, Span] | None = None    # q(card): K?; the card also has that card's powers and rules


@dataclass(frozen=True, slots=True)
class VarDecl:
    name: str
    index: TypeName | None
    type: TypeExpr
    default: Expr | None
    visibility: str
    doc: str | None
    counter: bool
    unlimited: bool
    cites: tuple[Cite, ...]
    span: Span
    until: "Lifetime | None" = None     # `until w(…) [for x]`: the value lasts until w opens (ast_statements.py)


@dataclass(frozen=True, slots=True)
class ZoneDecl:
    name: str
    index: TypeName | None
    ordered: bool
    kind: TypeName
    visibility: str
    doc: str | None
    cites: tuple[Cite, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class WindowDecl:
    name: str
    params: tuple[Param, ...]
    doc: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class BeforeDecl:
    """`before act(x, y) signal w(args)`: when a legal `act` (or a refinement) is about to take effect,
    window ``w`` opens with ``args`` (computed from the action's arguments, bound by position)."""
    action: str
    binders: tuple[tuple[str, Span], ...]
    window: str
    args: tuple["Expr", ...]
    span: Span
    action_span: Span
    window_span: Span


@dataclass(frozen=True, slots=True)
class ActionDecl:
    name: str
    params: tuple[Param, ...]
    parent: tuple[str, Span] | None
    doc: str | None
    body: tuple[Stmt, ...] | None
    span: Span
    tags: tuple["TagUse", ...] = ()     # `tagged t(x, …)`: the categories the action belongs to


@dataclass(frozen=True, slots=True)
class TagUse:
    """`tagged t(x, y)` on an action: it belongs to category ``t``, whose parameters are its own ``x``, ``y``."""
    name: str
    args: tuple[tuple[str, Span], ...]
    span: Span


@dataclass(frozen=True, slots=True)
class TagDecl:
    """`tag t(p: Player, …) "doc"`: a category of actions; a rule head `forbid any action tagged t(…)` is about
    each action that carries it (collect writes one head per action, see checker/front/tags.py)."""
    name: str
    params: tuple[Param, ...]
    doc: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class QuantityDecl:
    name: str
    params: tuple[Param, ...]
    type: TypeExpr
    default: Expr
    cites: tuple[Cite, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class TableRow:
    keys: tuple[Expr, ...]
    value: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class TableDecl:
    name: str
    params: tuple[Param, ...]
    type: TypeExpr
    rows: tuple[TableRow, ...]
    cites: tuple[Cite, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Pattern:
    name: str
    binders: tuple[tuple[str, Span], ...]
    span: Span


@dataclass(frozen=True, slots=True)
class RuleHead:
    kind: str  # permit | forbid | value | adjust
    pattern: Pattern
    expr: Expr | None   # the value or the adjustment
    when: Expr | None
    span: Span
    tagged: bool = False    # `forbid any action tagged t(…)`: ``pattern`` names a tag (collect expands it)
    from_tag: str | None = None     # the tag of the head this one was expanded from (an action of its category)


@dataclass(frozen=True, slots=True)
class RuleDecl:
    name: str
    heads: tuple[RuleHead, ...]
    cites: tuple[Cite, ...]
    overrides: tuple[tuple[str, Span], ...]
    decisions: tuple[tuple[str, Span], ...]
    card: str | None     # the card whose body declares it
    span: Span


@dataclass(frozen=True, slots=True)
class Subject:
    """What a precedence orders: a rule (``card`` is None) or a power of a card."""
    name: str
    card: str | None
    span: Span

    def __str__(self) -> str:
        return f'"{self.card}".{self.name}' if self.card else self.name


@dataclass(frozen=True, slots=True)
class PrecedenceDecl:
    winner: Subject
    loser: Subject
    cites: tuple[Cite, ...]
    decision: tuple[str, Span] | None
    span: Span


@dataclass(frozen=True, slots=True)
class ConstraintDecl:
    """`constraint` (on a configuration) or, with ``invariant``, `invariant` (on every state of a game)."""
    name: str
    cites: tuple[Cite, ...]
    decisions: tuple[tuple[str, Span], ...]
    require: Expr
    when: Expr | None
    message: str | None
    span: Span
    invariant: bool = False


@dataclass(frozen=True, slots=True)
class DecisionDecl:
    name: str
    text: str
    cites: tuple[Cite, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class PowerDecl:
    name: str
    summary: str | None
    window: tuple[str, tuple[tuple[str, Span], ...], Span] | None
    limit: str             # once_per_turn | once_per_round | once_per_game | unlimited
    mandatory: bool
    requires: Expr | None
    body: tuple[Stmt, ...]
    cites: tuple[Cite, ...]
    decisions: tuple[tuple[str, Span], ...]
    span: Span


@dataclass(frozen=True, slots=True)
class AttrValue:
    name: str
    value: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class CardDecl:
    kind: str
    name: str
    attrs: tuple[AttrValue, ...]
    powers: tuple[PowerDecl, ...]
    rules: tuple[RuleDecl, ...]
    cites: tuple[Cite, ...]
    span: Span
    kind_span: Span
    name_span: Span


@dataclass(frozen=True, slots=True)
class ProcedureDecl:
    name: str
    params: tuple[Param, ...]
    body: tuple[Stmt, ...]
    span: Span
    requires: Expr | None = None    # its precondition: the interpreter stops a call that does not meet it


@dataclass(frozen=True, slots=True)
class ConfigInclude:
    kind: str
    names: tuple[tuple[str, Span], ...]
    when: Expr | None
    span: Span


@dataclass(frozen=True, slots=True)
class ConfigReplace:
    old: tuple[str, Span]
    new: tuple[tuple[str, Span], ...]
    when: Expr | None
    span: Span


@dataclass(frozen=True, slots=True)
class ConfigDecl:
    name: str
    cites: tuple[Cite, ...]
    decisions: tuple[tuple[str, Span], ...]
    fields: tuple[Field, ...]
    includes: tuple[ConfigInclude, ...]
    replaces: tuple[ConfigReplace, ...]
    span: Span


# the declarations only an overlay makes (remove, replace, extend, rename, its header): checker/front/ast_overlays.py
from checker.front.ast_overlays import (ExtendDecl, Extension, OverlayHeader, ProcedureExtension,  # noqa: E402
                                        RemoveDecl, RenameDecl, ReplaceDecl)


Decl = Union[GameDecl, SourceDecl, EnumDecl, GridDecl, RecordDecl, KindDecl, VarDecl, ZoneDecl, WindowDecl, ActionDecl,
             QuantityDecl, TableDecl, CardDecl, RuleDecl, PrecedenceDecl, ConstraintDecl, DecisionDecl,
             ProcedureDecl, ConfigDecl, RemoveDecl, ReplaceDecl, ExtendDecl, BeforeDecl, RenameDecl, TagDecl,
             TriggerDecl]


@dataclass(frozen=True, slots=True)
class SpecFile:
    name: str
    overlay: OverlayHeader | None
    decls: tuple[Decl, ...]
    span: Span


def walk(node):
    """Every node at or below ``node`` (a node, or a tuple of nodes), parents before children."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple):
            stack.extend(reversed(n))
            continue
        if not hasattr(n, "__dataclass_fields__"):
            continue
        yield n
        for name in reversed(n.__dataclass_fields__):
            if name != "span":
                v = getattr(n, name)
                if isinstance(v, tuple) or hasattr(v, "__dataclass_fields__"):
                    stack.append(v)


def statements(stmts):
    """Every statement of a block, and of the blocks nested in it (`if`, `for`, `repeat`), in order."""
    for s in stmts or ():
        yield s
        for field in ("then", "else_", "body"):
            inner = getattr(s, field, None)
            if isinstance(inner, tuple):
                yield from statements(inner)


def names_in(e) -> set[str]:
    """Every name an expression mentions (aggregate variables included: an over-approximation)."""
    found: set[str] = set()
    stack = [e]
    while stack:
        node = stack.pop()
        if isinstance(node, Name):
            found.add(node.id)
        elif isinstance(node, tuple):
            stack.extend(node)
        elif hasattr(node, "__dataclass_fields__"):
            stack.extend(getattr(node, f) for f in node.__dataclass_fields__ if f != "span")
    return found
