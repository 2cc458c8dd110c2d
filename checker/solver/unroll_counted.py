"""unroll_counted: the question of a summarised unrolling asked first over the watched zones' *counts* — an Int per
zone's cell after each summary, not a Bool per card (``rulebook reach --rounds N --summarise PROC``).

A summary (:class:`~checker.solver.unroll_summary.Summarised`) makes every card's place in a watched zone an unknown
after the call, and bounds the zone's count: ``count after <= count before + bound`` (``own`` for the owner,
``other`` for another player), a sum over every card of the zone's kind.  Over a round of the 4th edition (68
districts, 32 summaries) Z3 did not decide CONDITION on those sums within its steps.  Here the same question is
asked of an abstraction implied by them:

- **The snapshots.** The watched zones' members where the unrolling starts, and after each havoc of a summary (its
  *peak* and its end).  Each snapshot ``s`` has an Int ``X[s][z, q]`` per watched zone's cell: at the start, its
  count there; after a havoc of a call made where ``here`` holds, ``0 <= X <= size of the kind`` and
  ``X <= X[r] + (bound(q) if here else 0)`` — ``r`` the snapshot the call's *before* state is read against.
- **Read against a snapshot.** A state (a call's before, a decision point) is read against the last snapshot when
  every member of a watched zone there *implies* the member in the snapshot by its term's shape
  (:func:`~checker.solver.unroll_summary._implies`: the same term, false, a card only taken out): the zone's cards
  there are a subset of the snapshot's, so its count is at most the snapshot's.  Where one does not (a card put in a
  watched zone outside a summarised call), nothing is answered here (:attr:`Counted.refused`).
- **CONDITION over the counts.** At each point CONDITION is encoded again on cells that read the watched zones as
  Bools of the snapshot ``s`` the point is read against, ``M[s][z, q]``, whose sum is at most ``X[s][z, q]``; every
  other cell is read as the unrolling reads it there.

Why it is implied (so unsat is a proof): take a path of the unrolling (a model of its constraints, the summaries'
bounds included) and a point where CONDITION holds.  Give each ``X[s]`` the count of the snapshot's members in that
model: the start's is its count; after a havoc of a call where ``here`` holds, the summary's constraint gives
``count <= count before + bound``, and where ``here`` does not hold the havoc leaves each member as it was (its
``if here``), so ``count = count before``; ``count before <= X[r]`` by the shapes (a subset).  Give ``M[s]``, for the
point's snapshot, the members at that point (a subset of the snapshot's: its sum is at most ``X[s]``), and any
other snapshot's its own members.  CONDITION encoded on those cells is then CONDITION at the point: the question
over the counts has a model.  So where it has none, no path reaches CONDITION.  The summaries' own constraints (the
sums over every card) are left out of it — fewer constraints, more models: still implied.  A model of the question
over the counts is *no* answer (the counts forget which cards): the full question is then asked as before.
"""

from __future__ import annotations

import z3

from checker.solver.encode import AND, EQ, ITE, Cells, as_bool, is_const

__all__ = ["Counted", "CountedCells", "segments"]


class CountedCells(Cells):
    """The cells CONDITION is encoded on over the counts: a watched zone's cell reads the snapshot's Bools, any
    other cell the unrolling's store (``real``)."""

    own_memos = True            # its memos are its own: never found by a read of the unrolling's store

    def __init__(self, real, bools: dict, positions: dict):
        self.real, self.bools, self.positions = real, bools, positions
        self.enc, self.concrete, self.made, self.meaning = real.enc, real.concrete, real.made, real.meaning

    def var(self, name: str, index):
        return self.real.var(name, index)

    def member(self, zone: str, index, inst: int):
        if not any(z == zone for z, _ in self.bools):
            return self.real.member(zone, index, inst)
        pos = self.positions[zone][inst]
        if is_const(index) and (zone, index) in self.bools:
            return self.bools[(zone, index)][pos]
        out = False         # an index not known in advance: the seat it is, cell by cell
        for (z, q), bools in self.bools.items():
            if z == zone:
                out = ITE(EQ(index, q), bools[pos], out)
        return out

    def used(self, player: int, inst: int, name: str, scope: str):
        return self.real.used(player, inst, name, scope)


class _Snapshot:
    def __init__(self, members: dict, counts: dict):
        self.members = members          # (zone, seat) -> the members' terms
        self.ids = {k: tuple(m if is_const(m) else m.get_id() for m in v) for k, v in members.items()}
        self.counts = counts            # (zone, seat) -> X (an Int constant)
        self.bools: dict | None = None  # (zone, seat) -> M, made where a point is read against it
        self.seen: dict = {}            # the shapes read against it so far (:func:`_implies`'s memo)


class Counted:
    """What the question over the counts needs, recorded while a :class:`~checker.solver.unroll_summary.Summarised`
    unrolls (see the module's docstring): the snapshots, the havocs between them, CONDITION at each point over them,
    and which constraints are the summaries' sums (left out)."""

    def __init__(self, t, implies):
        self.t, self.implies = t, implies       # implies: unroll_summary._implies (the shapes' reading)
        self.enc = t.enc
        self.positions = {z: {inst: i for i, inst in enumerate(t.enc.kind_instances[t.enc.zone_kind[z]])}
                          for z in t.watched}
        self.snapshots: list[_Snapshot] = []
        self.steps: list[tuple] = []            # (site's index, here, owner, snapshot read before, snapshot made)
        self.facts: list = []                   # the snapshots' own constraints (the start's counts, M's sums)
        self.hits: list = []                    # CONDITION over the counts at each point: (with its guard, alone)
        self.skip: set[int] = set()             # the indices of the unrolling's constraints left out
        self.refused: str | None = None         # why the question over the counts is not asked
        self.rounds: list[int] = []             # the snapshot each round starts from (read against)
        self._before: int | None = None
        if t.watched:
            members = self._members()
            snap = self._snapshot(members)
            for key, ms in members.items():
                self.facts.append(snap.counts[key] == sum(z3.If(as_bool(m), 1, 0) if not is_const(m)
                                                           else int(bool(m)) for m in ms))
        else:
            self.refused = "CONDITION reads no zone indexed by a player"

    def _members(self) -> dict:
        t = self.t
        return {(z, q): [t.store.member(z, q, inst) for inst in self.enc.kind_instances[self.enc.zone_kind[z]]]
                for z in t.watched for q in self.enc.seats}

    def _snapshot(self, members: dict) -> _Snapshot:
        n = len(self.snapshots)
        snap = _Snapshot(members, {key: z3.Int(f"compte {key[0]}[{key[1]}] #{n}") for key in members})
        self.snapshots.append(snap)
        return snap

    def _against(self, where: str) -> int | None:
        """The last snapshot, where every watched member now implies its member there by shape; else None (and the
        question over the counts is refused, ``where`` said)."""
        if self.refused is not None:
            return None
        snap = self.snapshots[-1]
        for key, ms in self._members().items():
            ids = tuple(m if is_const(m) else m.get_id() for m in ms)
            if ids == snap.ids[key]:
                continue
            for m, b in zip(ms, snap.members[key]):
                if is_const(m) and not m:
                    continue
                if is_const(m) or is_const(b):
                    if is_const(b) and b:
                        continue
                    if is_const(m) or not b:
                        self.refused = f"a card may be put in {key[0]} outside a summarised call ({where})"
                        return None
                if not self.implies(as_bool(m), as_bool(b), snap.seen):
                    self.refused = f"a card may be put in {key[0]} outside a summarised call ({where})"
                    return None
        return len(self.snapshots) - 1

    # ------------------------------------------------------------ while unrolling
    def before(self) -> None:
        """A summarised call starts: its state read against the last snapshot."""
        self._before = self._against("before a call")

    def round_starts(self) -> None:
        """A round starts: its state read against the last snapshot (the segments of :meth:`constraints`)."""
        s = self._against("at the start of a round")
        if s is not None:
            self.rounds.append(s)

    def havoc(self, site: int, here, owner, first: int) -> None:
        """A havoc of the call ``site`` (of :attr:`Summarised.sites`) made where ``here`` holds; ``first``: the index
        of the first constraint it added to the unrolling (the summary's sums, to the end: left out)."""
        self.skip.update(range(first, len(self.t.constraints)))
        if self.refused is not None or self._before is None:
            return
        self._snapshot(self._members())
        self.steps.append((site, here, owner, self._before, len(self.snapshots) - 1))

    def point(self, guard) -> None:
        """A point where CONDITION is asked: encoded again over the counts of the snapshot it is read against."""
        t = self.t
        if t.condition is None or (is_const(guard) and not guard):
            return
        s = self._against("at a decision point")
        if s is None:
            return
        snap = self.snapshots[s]
        if snap.bools is None:
            snap.bools = {}
            for key, count in snap.counts.items():
                n = len(snap.members[key])
                snap.bools[key] = [z3.Bool(f"compté {key[0]}[{key[1]}] #{s}.{i}") for i in range(n)]
                self.facts.append(z3.Sum([z3.If(b, 1, 0) for b in snap.bools[key]]) <= count)
        enc = self.enc
        real, partial, defined, spent = enc.cells, len(enc.partial), len(enc.defined), enc.spent
        enc.cells = CountedCells(real, snap.bools, self.positions)
        try:
            holds = t.expr(t.condition, dict(t.condition_env))
        finally:
            enc.cells = real
            enc.spent = spent
        if len(enc.partial) != partial or len(enc.defined) != defined:
            del enc.partial[partial:]
            del enc.defined[defined:]
            self.refused = "CONDITION has a partial operation (`only` …): not encoded over the counts"
            return
        when = AND(guard, holds)
        if not (is_const(when) and not when):
            self.hits.append((as_bool(when), as_bool(holds)))

    # ------------------------------------------------------------ the question
    def constraints(self, bounds: list, segment: tuple | None = None, paths: bool = True) -> list:
        """The question's constraints, the summaries' bounds given (``bounds[site]``: (own, other), or None: not
        bounded): the unrolling's but the summaries' sums (none without ``paths``: the paths any), the snapshots'
        own, and the havocs' relations — with ``segment`` (a, b), only those of the havocs that make the snapshots
        after a up to b (the counts at a then any).  Each leaves out constraints: fewer constraints, more models."""
        t = self.t
        out = [as_bool(c) for i, c in enumerate(t.constraints) if i not in self.skip] if paths else []
        out += self.facts if segment is None else []
        for site, here, owner, r, s in self.steps:
            if segment is not None and not segment[0] < s <= segment[1]:
                continue
            size = {key: len(ms) for key, ms in self.snapshots[s].members.items()}
            for key, x in self.snapshots[s].counts.items():
                q = key[1]
                own, other = bounds[site] if bounds[site] is not None else (size[key], size[key])
                grown = ITE(here, own if owner is None else ITE(EQ(owner, q), own, other), 0)
                out += [x >= 0, x <= size[key], x <= self.snapshots[r].counts[key] + grown]
        return out


def segments(counted: Counted) -> list[tuple]:
    """[(a, b)]: the snapshot each round starts from and the next one's (the last round: to the last snapshot)."""
    if counted.refused is not None or not counted.rounds:
        return []
    ends = counted.rounds[1:] + [len(counted.snapshots) - 1]
    return [(a, b) for a, b in zip(counted.rounds, ends) if a < b]
