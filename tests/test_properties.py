"""Properties of random games, checked at every decision point (Hypothesis draws the games).

For every configuration and player count the rules allow: every district card is in exactly
one place (pile, hands, cities, cards under districts, discards), no counter is negative,
at most one player holds the crown, a player never builds beyond the build permit, and the
game ends within a bounded number of rounds.
"""

from __future__ import annotations

import functools

from hypothesis import HealthCheck, given, settings, strategies as st

from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent
from conftest import bundled

CASES = sorted((name, n) for name, counts in bundled().configurations.items() for n in counts)


@functools.cache
def engine() -> Engine:
    e = Engine(bundled().typed)
    e.recording = False
    return e


class InvariantAgent(RandomAgent):
    """A random player that checks the game's invariants each time it is asked to decide."""

    def __init__(self, seed: int, engine: Engine, cards: int):
        super().__init__(seed)
        self.engine, self.cards, self.checked = engine, cards, 0

    def choose(self, decision) -> int:
        e, s = self.engine, self.engine.st
        located = sum(len(z) if isinstance(z, list) else sum(map(len, z.values())) for z in s.zones.values())
        assert located == len(s.where) == self.cards, "every card is in exactly one zone"
        for name, var in bundled().program.vars.items():
            if var.counter and not var.unlimited:
                values = s.vars[name].values() if isinstance(s.vars[name], dict) else [s.vars[name]]
                assert min(values, default=0) >= 0, f"{name} went negative"
        assert s.vars["couronne"] is None or s.vars["couronne"] in range(s.n)
        active = s.vars["personnage_actif"]
        if active is not None:
            permit = e.quantity("permis_de_construire", (active,))
            assert s.vars["quartiers_bâtis"] <= permit, "a player built beyond the build permit"
        self.checked += 1
        return super().choose(decision)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6))
def test_random_games_keep_their_invariants(case, seed):
    config, players = case
    e = engine()
    program = bundled().program
    selection = select(program, program.configurations[config], players)
    cards = sum((e.card_attrs[e.def_ids[name]].get("copies") or 1)
                for names in selection.cards.values() for name in names)
    agents = [InvariantAgent(seed * 10 + i, e, cards) for i in range(players)]
    result = e.play(selection.cards, players, seed, agents)
    assert sum(a.checked for a in agents) == result.moves > 0
    assert 1 <= result.rounds <= 40, "every game ends within a bounded number of rounds"


@st.composite
def legal_selections(draw):
    """Any selection the rules allow: a player count, one character per rank 1-8 (+ rank 9 where it is
    needed or wanted), the base districts and any 14 Merveilles."""
    program = bundled().program
    players = draw(st.integers(2, 8))
    by_rank: dict[int, list[str]] = {}
    for card in program.cards_of("Character"):
        rank = next(v.value.value for v in card.attrs if v.name == "rank")
        by_rank.setdefault(rank, []).append(card.name)
    ranks = list(range(1, 9))
    if players in (3, 8) or (4 <= players <= 7 and draw(st.booleans())):
        ranks.append(9)
    characters = []
    for rank in ranks:
        allowed = [n for n in sorted(by_rank[rank])
                   if not (n == "Empereur" and players == 2) and not (n == "Reine" and players < 5)]
        characters.append(draw(st.sampled_from(allowed)))
    districts = [c.name for c in program.cards_of("District")]
    is_wonder = {c.name: any(v.name == "type" and getattr(v.value, "id", "") == "Merveille" for v in c.attrs)
                 for c in program.cards_of("District")}
    wonders = draw(st.lists(st.sampled_from(sorted(n for n in districts if is_wonder[n])), min_size=14,
                            max_size=14, unique=True))
    base = [n for n in districts if not is_wonder[n]]
    return players, {"Character": tuple(characters), "District": tuple(base + wonders)}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chosen=legal_selections(), seed=st.integers(0, 10**6))
def test_any_legal_selection_plays(chosen, seed):
    from checker.front.configurations import Selection, evaluate

    players, cards = chosen
    program = bundled().program
    selection = Selection(players, cards)
    for constraint in program.selection_constraints():   # the spec agrees these selections are legal
        if constraint.when is None or evaluate(constraint.when, program, selection, {}):
            assert evaluate(constraint.require, program, selection, {}), constraint.name
    e = engine()
    total = sum((e.card_attrs[e.def_ids[n]].get("copies") or 1) for names in cards.values() for n in names)
    agents = [InvariantAgent(seed * 10 + i, e, total) for i in range(players)]
    result = e.play(cards, players, seed, agents)
    assert 1 <= result.rounds <= 40
