"""What an engine shows: the state as one player may see it, cards as their names, values in French.

:class:`Showing` is a part of :class:`checker.runtime.engine.Engine` (its base class): it reads the engine's
program, state and card tables, and changes nothing.
"""

from __future__ import annotations

from checker.front import ast
from checker.runtime import shapes
from checker.runtime.state import SpecRuntimeError
from checker.front.types import BOOL, INT, PLAYER, TEXT, Coll, EnumT, KindT, Opt, Ty

__all__ = ["Showing"]


class Showing:
    """The engine's views and French texts of values (mixed into :class:`~checker.runtime.engine.Engine`)."""

    def view(self, player: int) -> dict:
        """The state as ``player`` may see it: public things whole; hidden things only where they are
        the player's own (indexed by that player); secret things only as a number of cards."""
        st, p = self.st, self.program
        seen: dict = {"player": player, "vars": {}, "zones": {}}
        for name, var in p.vars.items():
            value = st.vars[name]
            if var.visibility == "public" or (var.visibility == "hidden" and var.index is not None
                                              and var.index.name == "Player"):
                if isinstance(value, dict):
                    if var.visibility == "hidden":
                        value = {k: v for k, v in value.items() if k == player}
                    value = {self._view_key(var.index.name, k): v for k, v in value.items()}
                seen["vars"][name] = value
        for name, zone in p.zones.items():
            value = st.zones[name]
            if isinstance(value, dict):
                seen["zones"][name] = {
                    self._view_key(zone.index.name, k): (
                        [self.show_card(c) for c in cards] if self.sees(player, name, k) else len(cards))
                    for k, cards in value.items()}
            else:
                seen["zones"][name] = [self.show_card(c) for c in value] if self.sees(player, name, None) \
                    else len(value)
        return seen

    def sees(self, player: int, zone: str, index) -> bool:
        """Does ``player`` see which cards are in zone ``zone[index]``?  A public zone, yes; a hidden one
        indexed by player, only their own; otherwise (secret, or hidden and not theirs) only how many."""
        decl = self.program.zones[zone]
        if decl.visibility == "public":
            return True
        return (decl.visibility == "hidden" and decl.index is not None and decl.index.name == "Player"
                and index == player)

    def _view_key(self, index_type: str, key):
        if index_type in self.program.kinds and isinstance(key, int):
            return self.show_card(key)
        if index_type in self.grids or index_type in self.program.records:
            return self.show_typed(key, self.resolve_type(ast.TypeName(index_type, None)))
        return key

    def physical(self, card, span=None, use: str = "index by a physical card, not by its name"):
        """A card as an index (or compared with `is`): a physical card stays itself; a definition becomes its
        single copy in this game (a definition not in the game stays as it is, so it reads the default and
        matches nothing)."""
        if card is None or card >= 0:
            return card
        copies = self.instances.get(card)
        if not copies:
            return card
        if len(copies) > 1:
            raise SpecRuntimeError(f"\"{self.def_names[card]}\" has {len(copies)} copies in this game: {use}",
                                   span)
        return copies[0]

    def kind_copies(self, kind: str) -> int:
        """How many physical cards of ``kind`` the spec has (a game selects some of them)."""
        return sum(self.card_attrs[key].get("copies") or 1 for key, k in self.def_kind.items() if k == kind)

    def card(self, name: str) -> int:
        """The first physical card of this game named ``name`` (for scenarios and tools)."""
        return self.instances[self.def_ids[name]][0]

    def definition(self, card: int) -> int:
        """The definition of a card value: a copy's (copies are 0, 1, …), or the value itself when it names a
        definition with no copy in play (definitions are negative)."""
        return card if card < 0 else self.defs[card]

    def show_card(self, card) -> str:
        return self.def_names[self.definition(card)]

    def show(self, value) -> str:
        """French text for a value whose type is not known here (logs pass typed values)."""
        if value is None:
            return "aucun"
        if isinstance(value, bool):
            return "oui" if value else "non"
        if isinstance(value, (tuple, list)):
            return ", ".join(self.show(v) for v in value) or "rien"
        if isinstance(value, int) and value < 0:
            return self.def_names.get(value, str(value))
        return str(value)

    def show_option(self, option) -> str:
        if option[0] == "finish":
            return option[1]
        if option[0] == "power":
            return f"{option[1].name} ({self.show_card(option[2])})"
        shown = [self.show_typed(v, t) for v, t in zip(option[2], self.param_types[option[1]])]
        return f"{option[1]}({', '.join(shown)})"

    def show_typed(self, value, ty: Ty) -> str:
        if value is None:
            return "aucun"
        if isinstance(ty, Opt):
            ty = ty.inner
        if ty == PLAYER:
            return f"Joueur {value + 1}"
        if isinstance(ty, KindT):
            return self.show_card(value)
        if isinstance(ty, Coll):
            return ", ".join(self.show_typed(v, ty.elem) for v in value) or "rien"
        if ty == BOOL:
            return "oui" if value else "non"
        if ty in (INT, TEXT) or isinstance(ty, EnumT):
            return str(value)
        shown = shapes.show_value(self, value, ty)
        return shown if shown is not None else self.show(value)
