"""The state of one game: vars, counters, zones, where each card is, the random source.

Runtime values are plain Python values: a player is a seat number (0 … n-1, clockwise,
so a player's left neighbour is the next seat); a card is an *instance* number (one per
physical card); a card named by a literal is its *definition*, a negative number; an
enum member is its name; a collection is a tuple or a list.  Cards compare by
definition, as the language says (two identical districts are equal).
"""

from __future__ import annotations

import random
from collections import defaultdict

__all__ = ["State", "places", "SpecRuntimeError", "Abort", "EndTurn", "StopProc", "SkipBlock"]


# `swap a with b` where one card is in no zone (a kind without a `start` zone leaves its cards there): the
# interpreter and the encoding (checker/solver/transition_statements.py) fail with the same words
SWAP_NOWHERE = ("a card in no zone cannot be swapped: it has no place to give (its kind has no `start` zone "
                "and it was never moved into one)")


class SpecRuntimeError(Exception):
    """The spec did something the language forbids at run time (it is reported with its location)."""

    def __init__(self, message: str, span=None):
        super().__init__(message)
        self.message = message
        self.span = span


class Abort(Exception):
    """An illegal `do` or an impossible `choose`: the power or procedure that tried it stops there."""


class EndTurn(Exception):
    """`end turn`: closes the innermost `offer`."""


class StopProc(Exception):
    """`stop`: leaves the current procedure or power."""


class SkipBlock(Exception):
    """`choose … optionally` with nothing chosen: the rest of the block is skipped."""


def places(content=()) -> defaultdict:
    """An indexed zone: index -> the list of cards at that place.  A place never made is made empty as it is
    read (as :meth:`State.zone` makes it), so the generated code reads any place with one subscript and no call
    (``st.zones[name][index]``).  A C-level dict subclass: a Python one's subscript is looked up on its type at
    every read (``slot_mp_subscript``), dearer than the tests it spares."""
    return defaultdict(list, content)


class State:
    """Everything that changes during a game.  ``where[card]`` is (zone, index) of each card."""

    __slots__ = ("n", "vars", "zones", "where", "rng", "uses", "turn", "round", "defs", "counts",
                 "version", "dirty", "watched")

    def __init__(self, players: int, seed: int, defs: list[int]):
        self.n = players
        self.vars: dict[str, object] = {}          # name -> value, or dict index -> value
        self.zones: dict[str, object] = {}         # name -> list, or places(): index -> list
        self.where: dict[int, tuple[str, object]] = {}
        self.rng = random.Random(seed)
        self.uses: dict[tuple, tuple[int, int]] = {}   # (player, card, power) -> (turn, round) of last use
        self.turn = 0
        self.round = 0
        self.defs = defs                                   # card instance -> definition
        self.version = 0                                   # bumped by every change (quantities are cached)
        self.counts: dict[tuple, dict[int, int]] = {}     # (zone, index) -> definition -> cards there
        self.dirty = True              # a var or zone an invariant reads changed (see runtime.invariants)
        self.watched: frozenset[str] = frozenset()      # the zones the invariants read

    def snapshot(self) -> tuple:
        """Everything needed to put the state back exactly (for agents that look ahead)."""
        def copy(value):
            if isinstance(value, dict):
                return {k: (list(v) if isinstance(v, list) else v) for k, v in value.items()}
            return list(value) if isinstance(value, list) else value
        zones = {k: list(v) if v.__class__ is list else places({i: list(cards) for i, cards in v.items()})
                 for k, v in self.zones.items()}
        return ({k: copy(v) for k, v in self.vars.items()}, zones,
                dict(self.where), {k: dict(v) for k, v in self.counts.items()}, dict(self.uses),
                self.rng.getstate(), self.turn, self.round)

    def restore(self, snap: tuple, again: bool = True) -> None:
        """Put the state back as ``snap`` found it.  ``again=False``: ``snap`` will not be restored again, so
        it becomes the live state itself (no copy: a look-ahead's snapshot, restored once)."""
        (self.vars, self.zones, self.where, self.counts, self.uses, rng, self.turn, self.round) = snap
        self.rng.setstate(rng)
        self.version += 1
        self.dirty = True
        if again:       # the snapshot is now the live state: a fresh copy, so that it can be restored again
            fresh = self.snapshot()
            (self.vars, self.zones, self.where, self.counts, self.uses) = fresh[:5]

    def plain_places(self, name: str | None = None):
        """Every indexed zone stored as a plain dict (as a state file's loader empties one, before it puts each
        card; ``Engine.invalidate`` after a tool's edits) made :func:`places`; the zone ``name``'s."""
        for zname, zone in self.zones.items():
            if zone.__class__ is dict:
                self.zones[zname] = places(zone)
        return self.zones.get(name)

    def zone(self, name: str, index=None) -> list:
        z = self.zones[name]
        if isinstance(z, dict):
            found = z.get(index)
            if found is None:
                found = z[index] = []
            return found
        return z

    def put(self, card: int, name: str, index, position: str) -> None:
        """Move ``card`` from wherever it is to zone ``name[index]`` (top = end of the list)."""
        self.version += 1
        key = self.defs[card]
        where, counts, zones, watched = self.where, self.counts, self.zones, self.watched
        old = where.get(card)
        if old is not None:
            zone = zones[old[0]]
            if zone.__class__ is not list:      # a zone is a list, or places (index -> list)
                zone = zone[old[1]]
            if zone[-1] == card:       # drawn from the top: no need to search
                zone.pop()
            else:
                zone.remove(card)
            counts[old][key] -= 1
            if old[0] in watched or name in watched:
                self.dirty = True
        elif name in watched:
            self.dirty = True
        target = zones[name]
        if target.__class__ is not list:
            target = (self.plain_places(name) if target.__class__ is dict else target)[index]
        if position == "bottom":
            target.insert(0, card)
        else:
            target.append(card)
        where[card] = place = (name, index)
        held = counts.get(place)
        if held is None:
            counts[place] = {key: 1}
        elif key in held:               # an operator, not a call: a move is counted per decision (tests/budgets.py)
            held[key] += 1
        else:
            held[key] = 1

    def put_all(self, cards: tuple, name: str, index, position: str, span=None) -> None:
        """`move cards to name[index]`: :meth:`put` of each card in order, its lookups made once for them all.
        A card that is not physical (None, a definition) is a located error, the cards before it moved."""
        if not cards:
            return
        first = cards[0]
        if first is None or first < 0:      # nothing made for the target, as when its first card is moved
            raise SpecRuntimeError("only a physical card can move (this is a card's name)", span)
        where, counts, zones, defs, watched = self.where, self.counts, self.zones, self.defs, self.watched
        place = (name, index)
        zone = zones[name]              # the target (and its counts) made as put makes them
        if zone.__class__ is not list:
            if zone.__class__ is dict:
                zone = self.plain_places(name)
            target = zone[index]
        else:
            target = zone
        bottom = position == "bottom"
        held = counts.get(place)
        if held is None:
            counts[place] = held = {}
        dirty = name in watched
        moved = 0
        try:
            for card in cards:
                if card is None or card < 0:
                    raise SpecRuntimeError("only a physical card can move (this is a card's name)", span)
                moved += 1
                key = defs[card]
                old = where.get(card)
                if old is not None:
                    zone = zones[old[0]]
                    if zone.__class__ is not list:
                        zone = zone[old[1]]
                    if zone[-1] == card:
                        zone.pop()
                    else:
                        zone.remove(card)
                    counts[old][key] -= 1
                    if not dirty and old[0] in watched:
                        dirty = True
                if bottom:
                    target.insert(0, card)
                else:
                    target.append(card)
                where[card] = place
                if key in held:
                    held[key] += 1
                else:
                    held[key] = 1
        finally:
            self.version += moved
            if dirty and moved:
                self.dirty = True

    def draw(self, pile: list, count: int, name: str, index, position: str) -> None:
        """`draw count from pile to name[index]`: the top card ``count`` times (at most all of them), as that many
        :meth:`put` would move them."""
        n = min(count, len(pile))
        if n <= 1:
            if n == 1:
                self.put(pile[-1], name, index, position)
            return
        drawn = pile[-n:]
        if self.where.get(drawn[-1]) == (name, index):     # to the pile itself: one card at a time
            for _ in range(n):
                self.put(pile[-1], name, index, position)
            return
        drawn.reverse()                 # the top first: each is the top when its turn comes
        self.put_all(drawn, name, index, position)

    def holds(self, name: str, index, key: int) -> bool:
        """Does zone ``name[index]`` hold a card of definition ``key``?"""
        counts = self.counts.get((name, index))
        return bool(counts and counts.get(key))

    def exchange(self, a: int, b: int, piles: frozenset) -> None:
        """`swap a with b`: each card takes the other's place.  When one is in a pile (``piles``: their names),
        each takes the other's position; between two sets, ``a`` moves, then ``b`` (as two `move`s would)."""
        wa, wb = self.where.get(a), self.where.get(b)
        if a == b or wa is None or wb is None:
            return
        if wa[0] not in piles and wb[0] not in piles:
            self.put(a, wb[0], wb[1], "top")
            self.put(b, wa[0], wa[1], "top")
            return
        self.version += 1
        za, zb = self.zone(*wa), self.zone(*wb)
        ia, ib = za.index(a), zb.index(b)
        za[ia], zb[ib] = b, a
        self.where[a], self.where[b] = wb, wa
        if wa != wb:
            ka, kb = self.defs[a], self.defs[b]
            for where, gone, come in ((wa, ka, kb), (wb, kb, ka)):
                counts = self.counts[where]
                counts[gone] -= 1
                counts[come] = counts.get(come, 0) + 1
            if wa[0] in self.watched or wb[0] in self.watched:
                self.dirty = True
