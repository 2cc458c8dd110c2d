"""Rule heads' conditions on a search's symbolic state, encoded once per search and translated into each question.

A search asks about one rule in several questions, each in a Z3 context of its own: a batch of dead-rule questions,
a batch of special-case questions, the question alone on the states with one copy of each card, the question alone
(:mod:`checker.conflicts.batches`, :mod:`checker.conflicts.questions`).  Carcassonne's "beyond the ramparts" reads,
for a symbolic cell, every rampart against every tile: 4 s of Python to encode, and it was encoded five times.
Here a head's condition is encoded in the first question that asks it, as before (most heads are asked once, and a
batch's encoders share their zones); from its second use on, it is encoded once more, on its arguments named as a
question alone names them, in a private context, on an encoder of its own, and each question gets it by Z3's
translation (all its terms in one call; a batch's own arguments put in place of those), with what the encoding
recorded beside the formulas — the cells it made (under the same names, so the translated formulas speak of them),
the values of symbolic terms, what must hold for partial terms, the kinds whose selection it read, the elements it
ranged over and how many `connected(…)` fixpoints it numbered — as :class:`~checker.solver.template.Invariants`
gives the invariants.  The formulas are the ones encoding the head in the question makes (the same terms: ``eq``),
so the question is the same; Z3 numbers them otherwise in its context (no intermediate terms were made there), so
where a check depends on that numbering (which model, how many steps) it may differ: the questions whose model is a
finding's witness encode their rules themselves, but for one asked on the states with one copy of each card first.

A head is encoded in the question itself when that would not give the same terms: inside a memo being built, past
the question's limit (it raises there, located), into an encoder that numbered fixpoints already, or with a cell
named after the arguments a batch replaces.  The heads asked with their searches narrowed round the grid's centre
share one encoder in the private context (:meth:`Conditions._shared`).
"""

from __future__ import annotations

import z3

from checker.base.limits import MAX_ENCODING
from checker.solver.encode import Encoder, Unsupported, is_const
from checker.solver.factory import private_context

__all__ = ["Conditions"]

_MISS = object()


def _flat(value) -> list:
    """The Z3 constants of a symbolic argument (:meth:`~checker.solver.search.SymbolicSearch.symbolic`): itself,
    each field of a record, each member's Boolean of a set."""
    if isinstance(value, z3.ExprRef):
        return [value]
    if isinstance(value, tuple):
        return [x for v in value for x in _flat(v)]
    if isinstance(value, list):
        return [g for g, _ in value if isinstance(g, z3.ExprRef)]
    return []


class _Encoded:
    """One head's condition, encoded in the private context, and what its encoding recorded."""

    __slots__ = ("args", "domain", "cond", "cells", "domains", "defined", "partial", "spent", "kinds", "flat",
                 "fixpoints", "terms", "index")

    def __init__(self, enc: Encoder, args: tuple, domain: list, cond, defined: int = 0, partial: int = 0):
        """What ``enc`` made (its ``defined`` and ``partial`` from those positions on)."""
        self.args, self.domain, self.cond = args, domain, cond
        self.flat = _flat(args)
        self.cells = [(key, "bool" if z3.is_bool(cell) else "int", cell.decl().name())
                      for key, cell in enc.cells.made.items()]
        alive = {t.get_id(): t for t in enc._alive}
        self.domains = [(alive[i], values) for i, values in enc.domains.items() if i in alive]
        self.defined, self.partial, self.spent = enc.defined[defined:], enc.partial[partial:], enc.spent
        chosen = getattr(enc, "chosen", None)
        self.kinds = set(chosen.kinds) if chosen is not None else set()
        self.fixpoints = enc.__dict__.get("_fixpoint_count", 0)     # connected#1 … of this encoding
        # every term above, in one vector: translated in one call (a call per term cost more than the encoding saved)
        self.terms, self.index = z3.AstVector(), {}
        for term in [*self.flat, *(t for t, _ in self.domains), *self.defined, *(h for _, h, _ in self.partial),
                     *self.domain, cond, *_flat_terms(args)]:
            if not is_const(term) and term.get_id() not in self.index:
                self.index[term.get_id()] = len(self.terms)
                self.terms.push(term)

    def into(self, enc: Encoder, args: tuple | None) -> tuple:
        """(args, domain, condition) in ``enc``'s context: the arguments as encoded here, or ``args``."""
        ctx = z3.main_ctx()
        terms, index = self.terms.translate(ctx), self.index
        pairs = []
        if args is not None:
            pairs = [(terms[index[t.get_id()]], a) for t, a in zip(self.flat, _flat(args))]
            pairs = [(t, a) for t, a in pairs if not t.eq(a)]

        def local(term):
            if is_const(term):
                return term
            term = terms[index[term.get_id()]]
            return z3.substitute(term, *pairs) if pairs else term
        enc.spend(self.spent, None)
        for key, sort, name in self.cells:
            enc.cells._cell(key, sort, name)
        for term, values in self.domains:
            term = local(term)
            enc.domains[term.get_id()] = values
            enc._alive.append(term)
        enc.defined.extend(local(f) for f in self.defined)
        enc.partial.extend((span, local(holds), reason) for span, holds, reason in self.partial)
        chosen = getattr(enc, "chosen", None)
        if chosen is not None:
            for kind in self.kinds:
                chosen(kind)
        if self.fixpoints:
            enc.__dict__["_fixpoint_count"] = self.fixpoints
        if args is None:
            args = _rebuilt(self.args, local)
            return args, [local(d) for d in self.domain], local(self.cond)
        return args, [], local(self.cond)


def _flat_terms(value) -> list:
    """Every Z3 term of an encoded argument (``_flat``'s, and a set's values too)."""
    if isinstance(value, z3.ExprRef):
        return [value]
    if isinstance(value, tuple):
        return [x for v in value for x in _flat_terms(v)]
    if isinstance(value, list):
        return [t for g, x in value for t in (g, x) if isinstance(t, z3.ExprRef)]
    return []


def _rebuilt(value, local):
    if isinstance(value, z3.ExprRef):
        return local(value)
    if isinstance(value, tuple):
        return tuple(_rebuilt(v, local) for v in value)
    if isinstance(value, list):
        return [(local(g) if isinstance(g, z3.ExprRef) else g, local(x) if isinstance(x, z3.ExprRef) else x)
                for g, x in value]
    return value


class Conditions:
    """The conditions of one search's rule heads (its encoders all made by ``make``, its arguments by
    ``params_args``: :meth:`~checker.solver.search.SymbolicSearch.params_args`)."""

    def __init__(self, make, params_args):
        self.make, self.params_args = make, params_args
        self._ctx: z3.Context | None = None
        self._kept: dict = {}
        self._narrowed: dict = {}       # (radius, limit) -> the encoder the narrowed heads are encoded on, in turn
        self._asked: set = set()        # the heads encoded once, in a question

    def applies(self, enc: Encoder, rule, head, name: str, params, args: tuple | None = None) -> tuple:
        """(args, their domain constraints, whether ``head`` of ``rule`` applies to them) in ``enc``: the arguments
        named ``name.param`` for ``params`` made in ``enc``, or ``args`` (made by the caller: its domain is then
        []) — as ``enc.applies`` on them encodes it.  The first time a head is asked it is encoded in ``enc`` (most
        are asked once, and a batch's encoders share their zones); from the second on, translated (a narrowed
        head: always)."""
        narrowed = enc.__dict__.get("narrowed")
        if enc.memos.frames or (narrowed is None and enc.limit != MAX_ENCODING):
            return self._encode(enc, rule, head, name, params, args)
        key = (id(rule), id(head), name, len(params), narrowed, enc.limit)
        kept = self._kept.get(key, _MISS)
        if kept is _MISS and narrowed is None and key not in self._asked:
            self._asked.add(key)        # most heads are asked once: encoded in the question, not twice
            return self._encode(enc, rule, head, name, params, args)
        if kept is _MISS:
            kept = self._kept[key] = self._template(rule, head, name, params, narrowed, enc.limit)
        if kept is None or enc.spent + kept.spent > enc.limit or (
                args is not None and any(f"{name}." in cell for _, _, cell in kept.cells)) or (
                kept.fixpoints and "_fixpoint_count" in enc.__dict__):
            return self._encode(enc, rule, head, name, params, args)
        return kept.into(enc, args)

    def _encode(self, enc, rule, head, name, params, args):
        domain = []
        if args is None:
            args, domain = self.params_args(enc, name, params)
        return args, domain, enc.applies(rule, head, args)

    def _template(self, rule, head, name, params, narrowed, limit) -> _Encoded | None:
        if self._ctx is None:
            self._ctx = z3.Context()
        with private_context(self._ctx):
            if narrowed is None:
                enc, defined, partial = self.make(), 0, 0
            else:
                enc, defined, partial = self._shared(narrowed, limit)
            try:
                args, domain = self.params_args(enc, name, params)
                cond = enc.applies(rule, head, args)
            except Unsupported:
                return None         # encoded in the question, where it raises as before
            return _Encoded(enc, args, domain, cond, defined, partial)

    def _shared(self, narrowed: int, limit: int) -> tuple:
        """The encoder of the heads asked with their searches narrowed (:mod:`checker.solver.narrowed`), one for all:
        their searches from the same cells are one fixpoint (Carcassonne's two rules about the part a follower is
        put on: 3.4 s of encoding each).  Each head is encoded there as on a fresh encoder: the memos it uses do
        again what building them did (:meth:`~checker.solver.memo.Memos.get`, after a forget), its own searches are
        made again, and it counts its elements from 0; the cells are all those made there (some the question does not
        read: free, as the cells of a state are; a state found is replayed by the interpreter).  Returns it, and
        where its lists stand."""
        enc = self._narrowed.get((narrowed, limit))
        if enc is None:
            enc = self._narrowed[narrowed, limit] = self.make()
            enc.narrowed, enc.limit = narrowed, limit
        enc.memos.generation += 1
        enc.__dict__.pop("_fixpoints", None)
        enc.spent = 0
        return enc, len(enc.defined), len(enc.partial)
