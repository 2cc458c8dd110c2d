"""The generator's context: the steps it produces (:class:`Step`), how names are bound where a sentence is
read (:class:`Binding`, :class:`Ctx`), the tables node handlers register in, and the late links through which a
lower layer of the generator calls a higher one (:func:`provides`, :func:`late`).  Imports no other module of
:mod:`checker.prose` but :mod:`~checker.prose.french`'s words.
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Callable

from checker.front import ast
from checker.base.registry import registrar
from checker.base.source import Span
from checker.front.types import Ty

__all__ = ["UnsupportedNode", "Step", "Binding", "Ctx", "flatten_steps", "cites_of", "provide", "provides", "late",
           "_EXPR", "_STMT", "_expr", "_stmt"]


class UnsupportedNode(Exception):
    """The prose generator has no rule for a node: says which, and where it is in the spec."""

    def __init__(self, node, what: str = ""):
        self.node = node
        self.span: Span | None = getattr(node, "span", None)
        where = f"{self.span}: " if self.span else ""
        super().__init__(f"{where}no French prose for {type(node).__name__}{' ' + what if what else ''}")

# ---------------------------------------------------------------- steps and context


@dataclasses.dataclass
class Step:
    """One sentence of a procedure or power, with the steps nested under it."""
    text: str
    children: list["Step"] = dataclasses.field(default_factory=list)
    cites: list[ast.Cite] = dataclasses.field(default_factory=list)
    decisions: list[str] = dataclasses.field(default_factory=list)


_UIDS = itertools.count(1)


@dataclasses.dataclass(frozen=True)
class Binding:
    """A bound name and how it is introduced.

    ``mode``: ``you`` (« vous »), ``param`` (« un quartier », then « ce quartier »), ``def``
    (« le quartier » throughout: a procedure's parameter), ``intro`` (introduced by the
    sentence itself: « pour chaque quartier… », then « ce quartier »), ``exists`` (« l'un des
    quartiers de votre cité », then « ce quartier »), ``alias`` (reads as ``alias``, an expression).
    """
    name: str
    ty: Ty | None
    mode: str = "def"
    uid: int = dataclasses.field(default_factory=lambda: next(_UIDS))
    noun: str | None = None          # the noun, when it is not the type's (an element of a zone)
    source: str | None = None        # exists: the collection, as text
    alias: object | None = None


@dataclasses.dataclass(frozen=True)
class Ctx:
    locals: tuple[Binding, ...] = ()
    this: str | None = None       # how `this` reads: the card's name with its article, or "ce personnage"
    card: str | None = None       # the name of the card `this` is, when it is one card
    me: bool = False              # inside a power: `me` is "vous"
    mood: str = "ind"             # the mood of the next verb: "subj" after « tel que », « il faut que »
    bare: bool = False            # numbers read as their letter (« *k* pièces d'or »)
    given: frozenset = frozenset()    # the facts the sentence has already stated (``fact`` of each)
    seen: set = dataclasses.field(default_factory=set, compare=False, hash=False, repr=False)

    def bind(self, name: str, ty: Ty | None, mode: str = "def", noun: str | None = None, source: str | None = None,
             alias=None) -> "Ctx":
        binding = Binding(name, ty, mode, noun=noun, source=source, alias=alias)
        return dataclasses.replace(self, locals=(binding,) + self.locals)

    def local(self, name: str) -> bool:
        return any(b.name == name for b in self.locals)

    def lookup(self, name: str) -> Binding | None:
        return next((b for b in self.locals if b.name == name), None)

    def ind(self) -> "Ctx":
        """The context of a part of a clause (a noun phrase): its verbs are in the indicative."""
        return self if self.mood == "ind" and not self.bare else dataclasses.replace(self, mood="ind", bare=False)

    def fresh(self) -> "Ctx":
        """The same context for a new text: nothing mentioned yet."""
        return dataclasses.replace(self, seen=set())


def flatten_steps(steps: list[Step]) -> list[Step]:
    """Containers (an if with its else branches) put their branches at their own level."""
    out: list[Step] = []
    for step in steps:
        if not step.text:
            out.extend(flatten_steps(step.children))
        else:
            out.append(step)
    return out


def cites_of(items: list[Step]) -> list[ast.Cite]:
    """Every citation attached to the steps, in order, without repeats."""
    seen, out = set(), []

    def visit(step: Step) -> None:
        for cite in step.cites:
            if cite.quote not in seen:
                seen.add(cite.quote)
                out.append(cite)
        for child in step.children:
            visit(child)
    for step in items:
        visit(step)
    return out


_EXPR: dict[type, Callable] = {}
_STMT: dict[type, Callable] = {}
_expr = registrar(_EXPR)
_stmt = registrar(_STMT)

# The generator's modules are layers: french, verbs < core < exprs < heads, statements, shapes.  Where a lower one
# needs a function of a higher one (the generator reads a rule head through the heads' table, a quantifier says
# « chaque … » as a statement does), the higher one provides it here by name when it is imported — the package
# imports them all — so that no module imports one above it.
_LATE: dict[str, object] = {}


def provide(name: str, value):
    """Make ``value`` (a function or table of a higher layer) available to lower ones as ``late(name)``."""
    _LATE[name] = value
    return value


def provides(fn: Callable) -> Callable:
    """Decorator: :func:`provide` a function under its own name."""
    return provide(fn.__name__, fn)


def late(name: str):
    """What a higher layer provided under ``name``."""
    return _LATE[name]


def precondition(proc: ast.ProcedureDecl) -> ast.Expr | None:
    """A procedure's precondition as a reader should be told it (books, diagrams, hover): none when it is
    trivially true (`requires true` on a procedure that replaces none, which `check` warns about, W0507:
    « Seulement si vrai » says nothing)."""
    if isinstance(proc.requires, ast.BoolLit) and proc.requires.value:
        return None
    return proc.requires
