"""conflicts, *invariant broken*, continued: the zones a procedure leaves empty — every cell of which it moves, as a
whole, to another zone, with nothing that may run after that move bringing a card back into one.  A summary of its
calls (:func:`~checker.conflicts.watched.summary`) keeps that fact: its cells' cards leave them, none comes in
(:func:`~checker.conflicts.loops.havoc`).

Implied by the encoding: a whole-zone move (`move z to y`, `for p in players { move z[p] to y }`) moves every card
of the cell to ``y``; a statement of the procedure's own body at its top level runs whenever the procedure
completes, unless one before it can leave the procedure early (a `choose` with no option, a `stop`, and what ends
a turn or cancels, to any depth: none may come before it); after it, no statement, callee, action done or reaction
may move a card into the zone (an `offer` among them: its moves are not followed, so the fact is not kept).  So
every run of the procedure that completes leaves the cells empty, in the interpreter and in the encoding followed
statement by statement: the summary with the fact stands for the same runs (no model of the procedure lost), and
only excludes ends no run has (the cells holding a card)."""

from __future__ import annotations

from checker.front import ast

__all__ = ["emptied"]

# what may leave a procedure before a later statement of its body runs, or whose moves are not followed
_EARLY = frozenset({ast.Choose, ast.ChooseSubset, ast.Stop, ast.Do, ast.Offer, ast.EndTurn, ast.Cancel, ast.Retarget,
                    ast.ChooseEach, ast.Install})


def emptied(p, decl, writes) -> frozenset:
    """The zones procedure ``decl`` (of program ``p``) leaves with every cell empty when it completes.  ``writes(
    stmts, met=set, entered=set)``: what statements may write with their callees, actions done and reactions
    (:func:`~checker.conflicts.inductive.move_writes`), ``met`` receiving every node's type and ``entered`` every
    zone a card may move into."""
    names = {prm.name for prm in decl.params} | {n.name for n in ast.walk(tuple(decl.body)) if isinstance(n, ast.Let)}
    body = list(decl.body)
    out: set = set()
    for i, s in enumerate(body):
        zone = _whole_move(p, s, names)
        if zone is None:
            continue
        before: set = set()
        writes(body[:i], met=before)
        if before & _EARLY:
            break       # a statement before may leave the procedure: this move, and those after it, may not run
        after, entered = set(), set()
        writes(body[i + 1:], met=after, entered=entered)
        if ast.Offer not in after and zone not in entered:
            out.add(zone)
    return frozenset(out)


def _whole_move(p, s, names: set) -> str | None:
    """The zone every cell of which statement ``s`` moves as a whole to another zone: `move z to y` (``z`` a zone
    with no index) or `for q in players { move z[q] to y }` (``z`` indexed by Player); None for any other."""
    if isinstance(s, ast.For) and isinstance(s.coll, ast.Name) and s.coll.id == "players" and \
            "players" not in names and len(s.body) == 1 and isinstance(s.body[0], ast.Move):
        m = s.body[0]
        what = m.what
        if isinstance(what, ast.Index) and isinstance(what.obj, ast.Name) and isinstance(what.index, ast.Name) \
                and what.index.id == s.var and what.obj.id not in names and what.obj.id in p.zones:
            decl = p.zones[what.obj.id]
            if isinstance(decl.index, ast.TypeName) and decl.index.name == "Player" \
                    and m.dest.target.name != what.obj.id:
                return what.obj.id
        return None
    if isinstance(s, ast.Move) and isinstance(s.what, ast.Name) and s.what.id in p.zones and s.what.id not in names \
            and p.zones[s.what.id].index is None and s.dest.target.name != s.what.id:
        return s.what.id
    return None
