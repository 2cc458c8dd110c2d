"""A game's set-up that depends only on its selection of cards, worked out once per selection.

``Engine.start`` sets up every game: the physical cards of the selection (one per copy), the selection's
indexes (``runtime.fusion``), each window's reactions, and every card put in its kind's start zone, one
``State.put`` at a time.  None of that depends on the seed or the players' count, so a :class:`Layout` keeps
it for the selection, and each later game with the same selection copies it (C-level copies of lists and
dicts) instead of working it out again: the same cards, in the same order, in the same places, and the same
state version as the puts gave.
"""

from __future__ import annotations

from itertools import compress
from typing import Sequence

from checker.runtime.fusion import selected_index
from checker.runtime.state import State, places

__all__ = ["Layout", "layout_of", "card_values"]

_KEPT = 32          # selections remembered per engine (a simulation plays one; a tool may try many)


def _no_controller(card) -> None:
    return None


def card_values(table: dict, def_of: dict) -> dict:
    """card value -> ``table[def_of[card]]``, for the cards whose definition ``table`` has."""
    return {card: table[key] for card, key in def_of.items() if key in table}


class Layout:
    """What a selection's games share: read-only once made (each game copies the places)."""

    __slots__ = ("defs", "selected", "instances", "def_of", "sel_index", "reactions", "listening",
                 "zones", "where", "counts", "version", "attrs", "free")

    def __init__(self, engine, selection: dict[str, Sequence[str]]):
        E = engine
        self.defs: list[int] = []
        self.instances: dict[int, list[int]] = {}
        self.selected: dict[str, tuple[int, ...]] = {}
        for kind in E.program.kinds:
            chosen = []
            for name in selection.get(kind, ()):
                key = E.def_ids[name]
                for _ in range(E.card_attrs[key].get("copies") or 1):
                    self.defs.append(key)
                    chosen.append(len(self.defs) - 1)
                    self.instances.setdefault(key, []).append(len(self.defs) - 1)
            self.selected[kind] = tuple(chosen)
        self.def_of = {**E._def_base, **dict(enumerate(self.defs))}
        self.sel_index: list[dict] = []
        self.index(E)
        # the card values (physical cards, definitions) whose definition has powers outside windows (an offer's)
        self.free = frozenset(compress(self.def_of, map(E.free_powers.__contains__, self.def_of.values())))
        self.attrs: dict[str, dict] = {}        # attr -> its card_values for these games
        # each window's reactions in these games: (power, physical card, the card's controller quantity)
        self.reactions = {}
        for window, powers in E.window_powers.items():
            self.reactions[window] = [
                (power, card, E.quantity_fns[E.controllers[E.def_kind[power.card]]]
                 if E.def_kind[power.card] in E.controllers else _no_controller)
                for power in powers for card in self.instances.get(power.card, ())]
        # the windows some card of these games may react to, when no card imitates another
        self.listening = frozenset(w for w, reactions in self.reactions.items() if reactions)
        # every card in its kind's start zone, as State.put leaves them
        scratch = State(1, 0, self.defs)
        scratch.watched = E.watch.zones
        starts = set(E.starts.values())
        for name, zone in E.program.zones.items():
            if name in starts:
                scratch.zones[name] = places() if zone.index is not None else []
        for kind, zone in E.starts.items():
            for card in self.selected.get(kind, ()):
                scratch.put(card, zone, None, "top")
        self.zones, self.where, self.counts = scratch.zones, scratch.where, scratch.counts
        self.version = scratch.version

    def index(self, E) -> list[dict]:
        """The selection's indexes, one per ``E._sel_specs`` (made for the specs added since)."""
        for kind, table in E._sel_specs[len(self.sel_index):]:
            self.sel_index.append(selected_index(self.selected.get(kind, ()), table, self.def_of))
        return self.sel_index

    def card_attrs(self, E, attr: str) -> dict:
        """Each card value of these games -> its ``attr`` (``Engine.card_attr_table``'s content for them)."""
        found = self.attrs.get(attr)
        if found is None:
            found = self.attrs[attr] = card_values(E.attr_table(attr), self.def_of)
        return found

    def place(self, st: State) -> None:
        """Put the start zones' cards in ``st`` (its zones made empty, nothing placed yet)."""
        for name, zone in self.zones.items():
            st.zones[name] = places({i: list(c) for i, c in zone.items()}) if isinstance(zone, dict) else list(zone)
        st.where = dict(self.where)
        st.counts = {place: dict(held) for place, held in self.counts.items()}
        st.version += self.version
        if self.version:
            st.dirty = True


def layout_of(engine, selection: dict[str, Sequence[str]]) -> Layout:
    """The engine's layout of ``selection`` (made the first time it is asked for)."""
    key = tuple((kind, tuple(selection.get(kind, ()))) for kind in engine.program.kinds)
    kept = engine._layouts
    found = kept.get(key)
    if found is None:
        if len(kept) >= _KEPT:
            kept.clear()
        found = kept[key] = Layout(engine, selection)
    return found
