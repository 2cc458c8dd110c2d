"""A smaller question for when Z3 cannot decide one: the same question on the states that hold at most
one copy of each card in each place.

Copies of one card are interchangeable, so a spec with many copies (70 ramparts, 8 copies of a tile)
makes a symbolic state with many placements that say the same thing.  Setting the placements of every
copy but the first to false (each place keeps one copy of each card) shrinks the formulas; a state found
then is a state of the full question too, so a ``sat`` answer is one of the full question.  An ``unsat``
answer is not (a state with two copies in one place may be needed), and is not reported as one.
"""

from __future__ import annotations

import z3

__all__ = ["later_copies", "restricted"]


def later_copies(enc, defs) -> list:
    """The placement cells (``card in zone[index]``) the query made for every copy of a card after the first
    copy of the same definition placed in that place.  ``defs``: card instance -> its definition."""
    first: set = set()
    out = []
    for key, cell in enc.cells.made.items():
        if key[0] != "in":
            continue
        _, zone, index, inst = key
        place = (zone, index, defs[inst])
        if place in first:
            out.append(cell)
        else:
            first.add(place)
    return out


def restricted(formulas, off: list) -> list:
    """The formulas with every cell of ``off`` (Boolean) replaced by false, and the constraints that they are false
    (so a model still gives them a value).  ``z3.substitute(f, *pairs)`` for each formula, with the pairs given to
    Z3 once: z3py checked and copied every pair again for each formula (thousands of each: Carcassonne's tiles)."""
    if not off:
        return [z3.substitute(f) for f in formulas]
    ctx = off[0].ctx
    false = z3.BoolVal(False, ctx)
    n = len(off)
    sources = (z3.Ast * n)(*(cell.as_ast() for cell in off))
    targets = (z3.Ast * n)(*([false.as_ast()] * n))
    out = []
    for f in formulas:
        if not z3.is_expr(f):
            raise z3.Z3Exception("Z3 expression expected")
        out.append(z3.z3._to_expr_ref(z3.Z3_substitute(ctx.ref(), f.as_ast(), n, sources, targets), ctx))
    return out + [z3.Not(cell) for cell in off]
