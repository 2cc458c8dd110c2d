"""A question whose `connected(…)` through the symbolic state is too large to encode over the whole window,
asked again with the search kept nearer the grid's centre.

The conflict search's states range over a 5 by 5 window of each grid, and a `connected` through them is
encoded as a least fixpoint over every value it may reach there (:mod:`checker.solver.searches`).  Where
that is more than one encoding holds (:class:`~checker.solver.searches.TooLarge`: the parts of the tiles of
25 cells, each joined to the parts of the next tiles in every rotation of both, some 2,450 values and
355,000 elements), the question is asked again with the search narrowed to the cells within
:data:`RADII` rows and columns of the centre (1 by 1, then 3 by 3): its start and every value it reaches
there, the states where it would start or step further not searched — as the states whose search leaves
the window are not.  The state itself still ranges over the whole window.  Each of its parts is one
neighbour's tile and rotation short of joining others, which is most of what the encoding ranges over:
the centre cell's 98 parts make 225,000 elements, past a question's :data:`~checker.base.limits.
MAX_ENCODING`; a narrowed question may range over :data:`~checker.base.limits.MAX_NARROWED`.

A situation found so is a situation of the question (the narrowed search is the interpreter's in its
states) and settles it; for a rule about an action it is replayed first: the interpreter, on the witness
loaded, must find the rule applying to the move.  Finding none settles nothing: the question stays
undecided, and its reason says which windows were tried — as for the states with one copy of each card
(:meth:`~checker.solver.search.SymbolicSearch.solve`).  Never a "cannot apply" from a narrowed search.
"""

from __future__ import annotations

from typing import Callable

from checker.base.limits import MAX_NARROWED
from checker.solver.encode import Encoder, Unsupported
from checker.solver.searches import TooLarge

__all__ = ["RADII", "narrowed"]

RADII = (0, 1)      # the narrowed windows, tried in turn: the centre cell, then the 3 by 3 cells round it


def narrowed(search, encode: Callable[[Encoder], tuple], rule: str, action: str | None = None,
             cards: tuple = ()) -> tuple[bool, str]:
    """(True, "") when some narrowed window has a state where the question holds — in a game a legal
    selection sets up, and, for a rule about ``action``, one the interpreter replays — else (False, why).
    ``encode(enc)`` is (the formulas of the question, the arguments of the move) on the encoder ``enc``."""
    tried = []
    for radius in RADII:
        side = 2 * radius + 1
        enc = search.encoder()
        enc.narrowed, enc.limit = radius, MAX_NARROWED
        try:
            formulas, args = encode(enc)
        except TooLarge:
            tried.append(f"{side} by {side}: too large as well")
            break
        except Unsupported as exc:
            tried.append(f"{side} by {side}: {exc.message}")
            break
        status, model, reason = search.solve(enc, *formulas, legal=True, cards=cards)
        if status == "sat" and not search.legality:
            if action is None or _replayed(search, enc, model, rule, action, args):
                return True, ""
            tried.append(f"{side} by {side}: a state found where the interpreter does not apply it (DOES NOT AGREE)")
            break
        tried.append(f"{side} by {side}: " + {"sat": "only in games no legal selection sets up",
                                              "unsat": "none"}.get(status, f"undecided ({reason})"))
    return False, ("asked again with the search kept in narrower windows round the grid's centre, where a state "
                   "found would settle it: " + "; ".join(tried))


def _replayed(search, enc: Encoder, model, rule: str, action: str, args: tuple) -> bool:
    """Does the interpreter, on the model's state and move, find ``rule`` applying to the move?"""
    from checker.solver.witness import interpreter_rules, witness_files
    state, move, _ = witness_files(search, enc, model, action, args)
    if state is None:
        return False
    got = interpreter_rules(*search.judge(), state, move)
    return got is not None and (rule in got[0] or rule in got[1])
