"""The spec's invariants, encoded once per search and translated into each question's Z3 context.

Every question of a search starts a fresh Z3 context (:func:`~checker.solver.factory.fresh_context`: its
answer does not depend on the questions before it), so nothing encoded for one question can be given to the
next one as it is.  The invariants are the same for every question: encoding them again, term by term through
z3py, was a seventh of a conflict search.  They are encoded once in a private context, with the cells they
read; each question gets them by Z3's own translation, and the cells are made in its encoder under the same
names, so the translated formulas speak of them.  What the encoding recorded beside the formulas (the values
of symbolic terms, what must hold for partial terms, the elements ranged over) is carried over too.
"""

from __future__ import annotations

import dataclasses
import weakref

import z3

from checker.solver.encode import Encoder, Unsupported, is_const
from checker.solver.factory import private_context

__all__ = ["Invariants"]


@dataclasses.dataclass
class Invariants:
    """The invariants of one search's encoders (all made by ``make``: the same engine and player count)."""
    make: object                 # () -> Encoder
    _done: bool = False
    _formulas: list = dataclasses.field(default_factory=list)
    _cells: list = dataclasses.field(default_factory=list)        # (key, "bool" | "int", name)
    _domains: list = dataclasses.field(default_factory=list)      # (term, its values)
    _defined: list = dataclasses.field(default_factory=list)
    _partial: list = dataclasses.field(default_factory=list)
    _spent: int = 0
    _unsupported: Unsupported | None = None
    _given: weakref.WeakKeyDictionary = dataclasses.field(default_factory=weakref.WeakKeyDictionary)

    def check(self) -> None:
        """Raise what encoding the invariants raises (a question that may assume them cannot be asked)."""
        if not self._done:
            self._encode()
        if self._unsupported is not None:
            raise self._unsupported

    def into(self, enc: Encoder) -> list:
        """The invariants as formulas of ``enc``'s context (the question's), its cells made as they read them;
        the same formulas again, and nothing made twice, when ``enc`` has them already."""
        self.check()
        given = self._given.get(enc)
        if given is not None:
            return list(given)
        enc.spend(self._spent, None)
        ctx = z3.main_ctx()
        for key, sort, name in self._cells:
            enc.cells._cell(key, sort, name)
        for term, values in self._domains:
            local = term.translate(ctx)
            enc.domains[local.get_id()] = values
            enc._alive.append(local)
        enc.defined.extend(f.translate(ctx) for f in self._defined)
        enc.partial.extend((span, holds if is_const(holds) else holds.translate(ctx), reason)
                           for span, holds, reason in self._partial)
        given = self._given[enc] = [f if is_const(f) else f.translate(ctx) for f in self._formulas]
        return list(given)

    def _encode(self) -> None:
        self._done = True
        with private_context():
            enc = self.make()
            try:
                self._formulas = enc.invariants()
            except Unsupported as exc:
                self._unsupported = exc
                return
            self._cells = [(key, "bool" if z3.is_bool(cell) else "int", cell.decl().name())
                           for key, cell in enc.cells.made.items()]
            alive = {t.get_id(): t for t in enc._alive}
            self._domains = [(alive[i], values) for i, values in enc.domains.items() if i in alive]
            self._defined = list(enc.defined)
            self._partial = list(enc.partial)
            self._spent = enc.spent
