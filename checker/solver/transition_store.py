"""transition, continued: the :class:`Store` an effect writes into, over the state before (see
:mod:`checker.solver.transition`).

Each cell written is one entry of ``writes`` (``new if the statement ran else old``), and each card moved
with lazy moves one entry of ``moves``; a read finds the last write, or reads the state before.  What is
written is noted by name (``dirty``: ``("var", name)``, ``("in", zone)``), so that the encoder's memos that
read it, and only those, are forgotten (:mod:`checker.solver.memo`).
"""

from __future__ import annotations

from checker.solver.encode import AND, EQ, ITE, Cells, is_const
from checker.solver.memo import Written

__all__ = ["Store"]


class Store(Cells):
    """The state after some statements: the cells they wrote, over the cells before.  The encoder's memos made
    over it are its own; ``dirty`` names the cells written since they were last checked (memo.py)."""

    own_memos = True

    def __init__(self, base: Cells):
        self.base = base
        self.enc = base.enc
        self.concrete = base.concrete
        self.made = base.made
        self.meaning = base.meaning
        self.dirty: set = set()
        self.writes: dict[tuple, object] = Written(self.dirty)
        # with lazy moves: ({inst: test}, zones of the kind, dest zone, index, guard) per move, in order; a
        # card's place is then a term only where it is read (``writes`` holds no "in" cell)
        self.moves: list[tuple] = []
        self._by_card: dict[int, list] = {}     # inst -> the moves of ``moves`` that may move it, in order …
        self._indexed: tuple = (None, 0, None)  # … for this list, its length and its last move (see _moves_of)
        # id of the first of the moves a swap of two cards made -> (that move, how many, the two cards' tests, whether
        # each is in a zone of the kind, the guard): what it changes in a cell's count (transition_counts.Counts)
        self.swaps: dict = {}

    def var(self, name: str, index):
        key = ("var", name, index)
        if key in self.writes:
            return self.writes[key]
        return self.base.var(name, index)

    def member(self, zone: str, index, inst: int):
        key = ("in", zone, index, inst)
        if key in self.writes:
            return self.writes[key]
        value = self.base.member(zone, index, inst)
        for tests, zones, dest, where, guard in self._moves_of(inst):   # the lazy moves (see Transition.move)
            if zone not in zones:
                continue
            now = zone == dest and (index is None or EQ(where, index))
            value = ITE(AND(guard, tests[inst]), now, value)
        return value

    def _moves_of(self, inst: int) -> list:
        """The moves of ``moves`` that may move card ``inst``, in order.  The index follows ``moves`` as moves are
        added; when the list is another one, or was changed otherwise than by adding (a search puts back an
        earlier list for a while: checker/solver/unroll_cone.py), it is made again."""
        moves = self.moves
        held, count, last = self._indexed
        if held is not moves or count > len(moves) or (count and moves[count - 1] is not last):
            self._by_card, count = {}, 0
        if count < len(moves) or held is not moves:
            by_card = self._by_card
            for m in moves[count:]:
                for card in m[0]:
                    by_card.setdefault(card, []).append(m)
            self._indexed = (moves, len(moves), moves[-1] if moves else None)
        return self._by_card.get(inst, ())

    def used(self, player: int, inst: int, name: str, scope: str):
        key = ("used", player, inst, name, scope)
        self.enc.memos.note(key[:2])        # (no expression reads a power's uses: noted all the same)
        if key in self.writes:
            return self.writes[key]
        return self.base.used(player, inst, name, scope)

    def read(self, key: tuple):
        """A cell by its key (as :meth:`write` takes it)."""
        if key[0] == "var":
            return self.var(key[1], key[2])
        if key[0] == "in":
            return self.member(key[1], key[2], key[3])
        if key[0] == "used":
            return self.used(*key[1:])
        raise KeyError(key)

    def write(self, key: tuple, value, guard) -> None:
        if is_const(guard) and not guard:
            return
        old = self.writes[key] if key in self.writes else self.read(key)
        self.writes[key] = value if is_const(guard) and guard else ITE(guard, value, old)

    def move(self, tests: dict, zones: frozenset, dest: str, where, guard) -> None:
        """A lazy move: the card that ``tests`` ({inst: test}) says goes to ``dest`` at ``where`` when ``guard``
        holds (it leaves whichever zone of ``zones`` it is in)."""
        self.moves.append((tests, zones, dest, where, guard))
        self.dirty.update(("in", z) for z in zones)
