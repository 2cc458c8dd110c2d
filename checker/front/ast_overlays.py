"""The surface AST, continued: the declarations only an overlay makes — `remove`, `replace`, `extend` (of an
enum, a kind, a card, or a procedure at its hook points), `rename`, and the overlay's header.  They are
:mod:`checker.front.ast`'s nodes (``ast.RemoveDecl`` …): that module imports them from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from checker.base.source import Span

__all__ = ["RemoveDecl", "ReplaceDecl", "ExtendDecl", "Extension", "ProcedureExtension", "RenameDecl", "OverlayHeader"]


@dataclass(frozen=True, slots=True)
class RemoveDecl:
    kind: str   # rule card precedence constraint invariant configuration procedure quantity table action decision var window
    name: str
    span: Span


@dataclass(frozen=True, slots=True)
class ReplaceDecl:
    decl: "Decl"
    span: Span


@dataclass(frozen=True, slots=True)
class ExtendDecl:
    """`extend enum …` / `extend kind …` / `extend card …` in an overlay: what it adds to (or widens in) the
    base's declaration.  An extended card's ``kind`` is empty: it is the base card's."""
    decl: "EnumDecl | KindDecl | CardDecl | ProcedureExtension"
    span: Span


@dataclass(frozen=True, slots=True)
class Extension:
    """One item of an `extend procedure`: statements `before` or `after` a hook step, the step's own
    statements replaced (``replace``) or run only when ``cond`` holds (``only``), or offer items
    (``options``) added at an offer's hook point."""
    where: str                          # "before" | "after" | "replace" | "only" | "options"
    point: str
    body: tuple                         # statements, or offer items for "options"; () for "only"
    span: Span
    point_span: Span
    cond: Expr | None = None            # the condition of "only"


@dataclass(frozen=True, slots=True)
class ProcedureExtension:
    """`extend procedure p [as name] { before h {…}  after h {…}  add to h {…} }` in an overlay: what it adds
    at the hook points of procedure ``p``; ``name`` lets a `precedence` order it among other extensions."""
    procedure: str
    name: str | None
    items: tuple[Extension, ...]
    span: Span
    procedure_span: Span


@dataclass(frozen=True, slots=True)
class RenameDecl:
    """`rename card "Old" to "New"` (overlays only)."""
    old: tuple[str, Span]
    new: tuple[str, Span]
    span: Span


@dataclass(frozen=True, slots=True)
class OverlayHeader:
    name: str
    base: str
    span: Span
