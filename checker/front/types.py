"""The types of the rules language.

>>> assignable(Opt(PLAYER), Opt(PLAYER)), assignable(NONE, Opt(INT)), assignable(INT, BOOL)
(True, True, False)
>>> str(Coll(KindT("District"), ordered=True))
'pile of District'
"""

from __future__ import annotations

from dataclasses import dataclass

from checker.front import ast

__all__ = ["written", "Ty", "Prim", "EnumT", "KindT", "GridT", "RecordT", "Opt", "Coll", "INT", "BOOL", "TEXT", "PLAYER", "NONE", "ERROR",
           "assignable", "comparable", "join", "element"]


class Ty:
    """Base class of every type."""


@dataclass(frozen=True, slots=True)
class Prim(Ty):
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class EnumT(Ty):
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class KindT(Ty):
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class GridT(Ty):
    """The cells of a declared grid."""
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class RecordT(Ty):
    """The values of a declared record (one value per combination of its fields)."""
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Opt(Ty):
    inner: Ty

    def __str__(self) -> str:
        return f"{self.inner}?"


@dataclass(frozen=True, slots=True)
class Coll(Ty):
    elem: Ty
    ordered: bool = False

    def __str__(self) -> str:
        return f"{'pile' if self.ordered else 'set'} of {self.elem}"


INT = Prim("Int")
BOOL = Prim("Bool")
TEXT = Prim("Text")
PLAYER = Prim("Player")
NONE = Prim("none")
ERROR = Prim("<error>")   # already reported: compatible with everything, so errors do not cascade


def assignable(src: Ty, dst: Ty) -> bool:
    """Can a value of type ``src`` be used where ``dst`` is expected?"""
    if src is ERROR or dst is ERROR or src == dst:
        return True
    if isinstance(dst, Opt):
        return src == NONE or assignable(src, dst.inner) or (isinstance(src, Opt) and assignable(src.inner, dst.inner))
    if isinstance(src, Coll) and isinstance(dst, Coll):
        return assignable(src.elem, dst.elem) and (src.ordered or not dst.ordered)
    return False


def _strip(t: Ty) -> Ty:
    return t.inner if isinstance(t, Opt) else t


def comparable(a: Ty, b: Ty) -> bool:
    """May ``a == b`` be asked?  Optional values compare with their inner type and with none."""
    if a is ERROR or b is ERROR:
        return True
    if a == NONE:
        return isinstance(b, Opt) or b == NONE
    if b == NONE:
        return isinstance(a, Opt)
    return assignable(_strip(a), _strip(b)) or assignable(_strip(b), _strip(a))


def join(a: Ty, b: Ty) -> Ty | None:
    """The type of ``if c then a else b``; None when the branches disagree."""
    if assignable(a, b):
        return b
    if assignable(b, a):
        return a
    if a == NONE:
        return Opt(b)
    if b == NONE:
        return Opt(a)
    return None


def element(t: Ty) -> Ty | None:
    """The element type of a collection, or None."""
    if t is ERROR:
        return ERROR
    return t.elem if isinstance(t, Coll) else None


def written(t: ast.TypeExpr) -> str:
    """A type as the spec writes it (``Player?``, ``set of District``), before it is resolved."""
    if isinstance(t, ast.OptionalType):
        return written(t.inner) + "?"
    if isinstance(t, ast.SetType):
        return "set of " + written(t.inner)
    return t.name
