"""deal: the order of the piles and the random source, followed while they are known.

A transition (:mod:`checker.solver.transition`) does not follow the order inside a zone: a ``draw`` takes any
cards of the pile, a ``shuffle`` changes nothing.  From a concrete state — a game set up with a seed, or a state
file, where every pile's order is known and the interpreter's random source is that state's — a bounded search
over several decisions (:mod:`checker.solver.unroll`) follows them instead, as long as they are known:

- a pile's order is the interpreter's list (top at its end) less how many cards were drawn from its top, a
  term (a draw under a condition takes the next cards only on the paths where it runs); a card put on top of
  it, or taken from it other than by a draw, when which card or whether is not known, makes its order unknown;
  a card put at its bottom makes only its bottom unknown (a draw that reaches there is not followed);
- the random source is a copy of the interpreter's, drawn from in the interpreter's order: a ``shuffle`` of a
  pile whose cards are known on every path shuffles them as the interpreter does (the same number of draws
  from the same source), and a ``choose … at random`` among options known in the interpreter's order picks
  as it does.  A shuffle or a random choice made on some paths only (under a condition that depends on a
  decision), or of cards not known, makes the random source *unknown* from there on: later shuffles leave
  their pile's order unknown.

Where the deal stops being followed is recorded (:attr:`Deal.lost`, the place and why): what a search
concludes past it holds for any order of those piles.
"""

from __future__ import annotations

import random

import z3

from checker.solver.encode import AND, ITE, OR, as_bool, is_const
from checker.solver.factory import SolverSettings, make_solver

__all__ = ["Deal", "Pile"]


class Pile:
    """The known order of one pile: ``cards`` (bottom first, top last), of which ``taken`` (0, or a term at most
    ``most`` when draws ran on some paths only) have been drawn from the top; ``bottom`` is False when unknown
    cards went under ``cards[0]``."""

    def __init__(self, cards: list):
        self.cards = list(cards)
        self.taken = 0
        self.most = 0
        self.bottom = True



class Deal:
    """The piles' orders and the random source of one search; ``lost`` says where each stopped being followed."""

    def __init__(self, enc, feasible=None):
        self.enc = enc
        self.feasible = feasible        # can a condition hold (with the search's constraints)? see _may_leave
        E = enc.E
        self.rng: random.Random | None = random.Random()
        self.rng.setstate(E.st.rng.getstate())
        self.piles: dict[tuple, Pile | None] = {}
        for name, zone in E.st.zones.items():
            if isinstance(zone, dict):
                for k, cards in zone.items():
                    key = enc.from_runtime(k, enc.zone_index_types[name]) if k is not None else None
                    self.piles[(name, key)] = Pile(cards)
            else:
                self.piles[(name, None)] = Pile(zone)
        self.not_in: set = set()               # piles the cards of the statement running are not in
        self.lost: list[tuple] = []
        self.why: dict[tuple, tuple] = {}      # pile -> (span, why) its order stopped being known
        self.scattered: dict[str, tuple] = {}  # zone -> (span, why): a card went to a pile of it at an index
        #                                        that depends on the path; its piles not made yet are not known

    def _lose(self, key, span, why: str) -> None:
        """The order of pile ``key`` is not known from here (said in :attr:`lost` when a draw or a shuffle
        needs it: :meth:`unknown`)."""
        if self.piles.get(key) is not None:
            self.why[key] = (span, why)
        self.piles[key] = None

    def unknown(self, name: str, index, span, what: str) -> None:
        """A draw or a shuffle of a pile whose order is not known: said in :attr:`lost`."""
        key = (name, index)
        since = self.why.get(key)
        text = f"{what} ({self._name(key) if index is None or is_const(index) else name}: its order is not known"
        if since is not None:
            text += f" since {since[0]}, where {since[1]}"
        self.lost.append((span, text + ")"))

    def _lose_rng(self, span, why: str) -> None:
        if self.rng is not None:
            self.lost.append((span, f"the random source is not followed from here: {why}"))
        self.rng = None

    def _name(self, key) -> str:
        name, index = key
        if index is None:
            return name
        ty = self.enc.zone_index_types[name]
        return f"{name}[{self.enc.show(index, ty)}]"

    def pile(self, name: str, index):
        """The known pile ``name[index]`` (None: not known)."""
        if index is not None and not is_const(index):
            return None
        key = (name, index)
        if key not in self.piles:            # an empty indexed pile the interpreter has not made yet
            if name in self.scattered:      # unless a card may have gone to it
                self.why[key] = self.scattered[name]
                self.piles[key] = None
            else:
                self.piles[key] = Pile([])
        return self.piles[key]

    # ------------------------------------------------------------ what the statements do to them
    def moved(self, card, zone: str, where, position: str, guard, span, leaves: bool = True,
              source: tuple | None = None) -> None:
        """``card`` goes to ``zone[where]`` (at its top or bottom) when ``guard`` holds (``leaves``: from
        wherever it is; False when a draw takes it from the top of a pile, which :meth:`draw` follows;
        ``source``: the zone (name, index) it is known to be in when it moves)."""
        enc = self.enc
        if is_const(guard) and not guard:
            return
        possible = list(enc.possible(card)) if not is_const(card) else [card]
        certain = is_const(card) and is_const(guard) and bool(guard)
        if leaves:
            for key, pile in list(self.piles.items()):
                if pile is None or not any(c in pile.cards for c in possible):
                    continue
                if source is not None and (source[0] != key[0] or source[1] is not None and is_const(source[1])
                                           and source[1] != key[1]):
                    continue            # it is in another zone when it moves: not in this pile
                if key in self.not_in:
                    continue            # Z3 proved none of the statement's cards is in it (Deal.none_inside)
                if certain and is_const(pile.taken):
                    pile.cards.remove(card)
                elif self._may_leave(key, pile, card, possible, guard):
                    self._lose(key, span, "a card that may be in it leaves it, which one or whether depends on "
                                          "the path")
        if where is not None and is_const(where):
            self.pile(zone, where)
        elif where is not None:
            self.scattered.setdefault(zone, (span, "a card may be put on top of it on some paths only"))
        targets = [k for k in self.piles if k[0] == zone and (where is None or not is_const(where) or k[1] == where)]
        for key in targets:
            pile = self.piles[key]
            if pile is None:
                continue
            exact = certain and (where is None or is_const(where)) and is_const(pile.taken)
            if position == "bottom":
                if exact and pile.bottom:
                    pile.cards.insert(0, card)
                else:
                    pile.bottom = False
            elif exact:
                pile.cards.append(card)
            else:
                self._lose(key, span, "a card may be put on top of it on some paths only")

    def none_inside(self, cards: list, guard) -> set:
        """The piles that none of ``cards`` ([(when, card)], moved when ``guard`` holds) can be in: one question
        per pile for a statement that moves several cards, instead of one per card (:meth:`moved` skips them
        while :attr:`not_in` holds them)."""
        enc = self.enc
        out = set()
        if self.feasible is None:
            return out
        for key, pile in self.piles.items():
            if pile is None:
                continue
            tests = []
            for g, card in cards:
                possible = list(enc.possible(card)) if not is_const(card) else [card]
                for c in possible:
                    if c in pile.cards:
                        tests.append(AND(guard, g, enc.eq(card, c), enc.cells.member(key[0], key[1], c)))
            tests = [x for x in tests if not (is_const(x) and not x)]
            if len(tests) > 1 and not any(is_const(x) for x in tests) and not self.feasible(OR(*tests)):
                out.add(key)
        return out

    def _may_leave(self, key, pile, card, possible, guard) -> bool:
        """Can ``card`` be in the pile when it moves (``guard``)?  Asked of Z3 (with the search's constraints
        when ``feasible`` is given, else without: more paths than there are, a yes may be wrong, never a no)."""
        enc = self.enc
        tests = []
        for c in possible:
            if c not in pile.cards:
                continue
            inside = enc.cells.member(key[0], key[1], c)
            test = AND(guard, enc.eq(card, c), inside)
            if is_const(test):
                if test:
                    return True
                continue
            tests.append(test)
        if not tests:
            return False
        if self.feasible is not None:
            return self.feasible(OR(*tests))
        solver = make_solver(SolverSettings(rlimit=2_000_000))
        solver.add(z3.Or([as_bool(x) for x in tests]))
        return solver.check() != z3.unsat

    def draw(self, name: str, index, count, guard, span):
        """The cards drawn: [(when, card)] with the pile's order known, else None (the caller draws any cards)."""
        pile = self.pile(name, index)
        if pile is None or not is_const(count):
            return None
        if is_const(guard) and not guard:
            return []
        n, size = max(count, 0), len(pile.cards)
        out = []
        for o in range(pile.most + 1):
            if is_const(pile.taken) and pile.taken != o:
                continue
            at = True if is_const(pile.taken) else (pile.taken == o)
            left = size - o
            if not pile.bottom and n > left:
                return None          # the draw may reach its bottom, which is not known
            for j in range(min(n, max(left, 0))):
                out.append((AND(guard, at), pile.cards[left - 1 - j]))
        if is_const(guard) and is_const(pile.taken):
            del pile.cards[max(size - n, 0):]       # drawn on every path: gone
            return out
        taken = pile.taken
        after = ITE(taken + n > size, size, taken + n) if not is_const(taken) else min(taken + n, size)
        pile.taken = ITE(guard, after, taken)
        pile.most = min(pile.most + n, size)
        return out

    def shuffle(self, name: str, index, guard, span) -> None:
        pile = self.pile(name, index)
        key = (name, index)
        if is_const(guard) and not guard:
            return
        if pile is None or not is_const(guard) or not is_const(pile.taken) or not pile.bottom:
            self._lose_rng(span, "a shuffle happens on some paths only, or of cards not known")
            if pile is not None:
                self._lose(key, span, "shuffled on some paths only, or with cards not known")
            elif index is not None and not is_const(index):
                for k in [k for k in self.piles if k[0] == name]:
                    self._lose(k, span, "a pile of this zone is shuffled, which one depends on the path")
            return
        if self.rng is None:
            self._lose(key, span, "shuffled after the random source stopped being followed")
            self.unknown(name, index, span, "a shuffle is not followed")
            return
        self.rng.shuffle(pile.cards)

    def choice(self, ordered: list | None, guard, span):
        """A `choose … at random` among ``ordered`` (the options, in the interpreter's order), or None."""
        if is_const(guard) and not guard:
            return None
        if ordered is None or not is_const(guard) or self.rng is None or not ordered:
            self._lose_rng(span, "a random choice made on some paths only, or among options not known in order")
            return None
        return self.rng.choice(ordered)
