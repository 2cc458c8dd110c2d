"""counters: entering the game's turn or round procedure, for a transition (:mod:`checker.solver.transition`).

The interpreter counts turns and rounds (:meth:`~checker.runtime.engine.Engine.entering`: the turn procedure
adds one to the turn counter, the round procedure to the round counter), and a power's use is recorded with the
turn and round it was made in: a power limited `once per turn` is usable again when the turn counter has moved,
one limited `once per round` when the round counter has (:meth:`~checker.runtime.engine.Engine.usable`).  Nothing
else reads the counters.  The encoding keeps no counter, but three cells per power, player and card — used in
this game, this round, this turn (:meth:`~checker.solver.encode.Cells.used`) —, so entering the turn (round)
procedure is: no power is used *in this turn* (*round*) any more.

Only the cells a limit reads are written: a power's availability reads the cell of its own limit's scope
(:meth:`~checker.solver.encode.Cells.used_up`) and no expression reads another, so the cone of the reset is the
powers limited to that scope (on the 4th edition, 2 of its 53 powers are limited `once per round`, 49 `once
per turn`); the others' cells of that scope keep what they held, which nothing reads.
:meth:`checker.solver.unroll.Unrolled._new_scope` writes every power's (the unrolling's witnesses are read back
from every cell).
"""

from __future__ import annotations

from checker.solver.encode import USE_SCOPES, is_const

__all__ = ["scope_entered", "enter_scope"]


def scope_entered(E, name: str) -> str | None:
    """"turn" or "round" when procedure ``name`` is the game's turn or round procedure (None otherwise)."""
    if name == E.turn_proc:
        return "turn"
    if name == E.round_proc:
        return "round"
    return None


def enter_scope(t, scope: str, guard, every: bool = False) -> int:
    """On the paths where ``guard`` holds, a new turn or round (``scope``) starts in transition ``t``: every
    power limited to once per ``scope`` is unused in it, for every player and card (``every``: every power's
    cell of that scope, as the unrolling writes them).  The number of cells written."""
    if is_const(guard) and not guard:
        return 0
    E, written = t.E, 0
    for inst, d in enumerate(E.defs):
        for power in E.powers_of.get(d, ()):
            if not every and USE_SCOPES.get(power.limit) != scope:
                continue
            for k in t.enc.seats:
                t.store.write(("used", k, inst, power.name, scope), False, guard)
                written += 1
    if written or every:
        t.forget()
    return written
