"""Z3 and the interpreter on states at the edges the rules compare.

Random play rarely stops where a comparison changes its answer: a player whose gold equals a card's cost
(« en payant à la banque le coût indiqué sur la carte »), a city one district short of complete or just
complete (« au moins sept quartiers (4 à 8 joueurs) ou huit quartiers (2 ou 3 joueurs) »), a counter at 0.
Hypothesis draws such states from decision points of seeded games; at each, Z3's legal moves must be the
interpreter's options.  An off-by-one in either backend (`<=` compiled as `<`, `<` as `<=`) fails here.
"""

from __future__ import annotations

import collections
import copy
import functools
import itertools

import z3

from hypothesis import HealthCheck, given, settings, strategies as st

from checker.solver.encode import Encoder
from checker.solver.legal import Legality, interpreter_options
from checker.solver.statefile import load_state
from test_solver import engine, play_points, scopes

GAMES = (("Première partie", 3, 1), ("Violente", 3, 4), ("Développement", 4, 2), ("Confrontation", 5, 3),
         ("Bluff", 3, 5))


@functools.cache
def bases() -> list[dict]:
    """Decision points of seeded games (the turn's offer, a power's choice, the draft), as state files."""
    out = []
    for config, players, seed in GAMES:
        out += play_points(config, players, seed, every=5, limit=12)[2]
    return out


@functools.cache
def cost_of() -> dict[str, int]:
    e = engine()
    return {name: attrs["cost"] for d, attrs in e.card_attrs.items()
            if "cost" in attrs for name in [e.def_names[d]]}


def base_name(card: str) -> str:
    return card.split("#")[0]


@st.composite
def boundary_states(draw, offers_only: bool = False) -> dict:
    """A base state with each player's city one short of complete, complete or as dealt, and his gold equal
    to a cost in play (one away, or 0).  ``offers_only``: only the turn's offer, where the options are
    found afresh (inside a power, a choice computed before the edit may have become impossible)."""
    s = copy.deepcopy(draw(st.sampled_from([b for b in bases() if b["decision"]["kind"] == "offer" or not offers_only])))
    players = [f"Joueur {k + 1}" for k in range(s["players"])]
    complete_at = 8 if s["players"] <= 3 else 7
    zones = s["zones"]
    hands, cities, pile = zones.setdefault("main", {}), zones.setdefault("cité", {}), zones.setdefault("pioche", [])
    costs = cost_of()
    for p in players:
        city = cities.setdefault(p, [])
        size = draw(st.sampled_from(["as dealt", "one short", "complete"]))
        wanted = {"as dealt": len(city), "one short": complete_at - 1, "complete": complete_at}[size]
        while len(city) > wanted:
            pile.append(city.pop())
        for card in list(pile):
            if len(city) >= wanted:
                break
            if base_name(card) not in map(base_name, city):
                pile.remove(card)
                city.append(card)
        # gold equal to a cost the player may pay (a card in his hand, a district in a city), one less, or 0
        seen = [costs[base_name(c)] for c in hands.get(p, []) + [c for q in players for c in cities.get(q, [])]
                if base_name(c) in costs]
        gold = draw(st.sampled_from(sorted(set(seen)) or [0]))
        s["vars"]["trésor"][p] = max(0, gold + draw(st.sampled_from([0, 0, -1, 1])) if gold else 0)
    if s["vars"].get("quartiers_bâtis") is not None and s["decision"]["kind"] == "offer":
        s["vars"]["quartiers_bâtis"] = draw(st.sampled_from([0, 1]))
    return s


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(state=boundary_states(offers_only=True))
def test_boundary_states_agree(state):
    """Gold equal to a cost (or one away, or none), cities one short of complete or complete: Z3's legal
    moves are exactly the interpreter's options."""
    e = engine()
    loaded = load_state(e, state, scopes())
    z3_moves = Legality(e, scopes()).moves(loaded.point)
    assert collections.Counter(z3_moves) == collections.Counter(interpreter_options(e, loaded.point))


def _value(term):
    if isinstance(term, (bool, int)):
        return term
    term = z3.simplify(term)
    return z3.is_true(term) if z3.is_bool(term) else term.as_long() if z3.is_int_value(term) else str(term)


ARGS_PER_ACTION = 120


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(state=boundary_states())
def test_boundary_states_agree_on_every_rule_and_quantity(state):
    """Beyond the moves offered at the point: every action over players, districts in hands and cities, and
    the characters chosen (its permissions and prohibitions), and every quantity of one player (score,
    complète, taille_cité, …), Z3's concrete encoding and the interpreter give the same answer."""
    e = engine()
    load_state(e, state, scopes())
    enc = Encoder(e, concrete=True)
    players = list(range(e.st.n))
    pools = {"Player": players,
             "District": [c for zone in ("cité", "main") for q in players for c in e.st.zone(zone, q)],
             "Character": [c for q in players for c in e.st.zone("choisis", q)]}
    compared, differ = 0, []
    for name, action in e.program.actions.items():
        kinds = [getattr(x.type, "name", None) for x in action.params]
        if not all(k in pools for k in kinds):
            continue
        types = [enc.resolve(x.type) for x in action.params]
        for args in itertools.islice(itertools.product(*(pools[k] for k in kinds)), ARGS_PER_ACTION):
            z3_legal = _value(enc.legality(name, tuple(enc.from_runtime(v, t) for v, t in zip(args, types)))[0])
            interpreted = e.legal(name, args)[0]
            compared += 1
            if z3_legal != interpreted:
                differ.append((name, args, z3_legal))
    for name, q in e.program.quantities.items():
        if [getattr(x.type, "name", None) for x in q.params] == ["Player"] and \
                getattr(q.type, "name", None) in ("Int", "Bool"):
            ty = enc.resolve(q.params[0].type)
            for p in players:
                compared += 1
                if _value(enc.quantity(name, (enc.from_runtime(p, ty),))) != e.quantity(name, (p,)):
                    differ.append((name, p))
    assert compared > 100 and not differ, differ[:5]


def test_the_boundary_states_reach_the_edges():
    """The strategy's bases are offers and choices of several configurations, 3 players among them (where
    a complete city is eight districts)."""
    kinds = collections.Counter(s["decision"]["kind"] for s in bases())
    assert kinds["offer"] >= 3 and len(kinds) >= 2, kinds
    assert any(s["players"] == 3 for s in bases()) and any(s["players"] > 3 for s in bases())


def test_a_card_that_values_a_quantity_is_seen_by_every_legality_test():
    """Found by the test above: with the Négociant active, one district built, a Marché (Commerçant) may be built.
    The interpreter's rule-by-rule legality (`Engine.legal`, which `rulebook legal` and the examples use) had
    compiled `compte_dans_le_permis` as its default, 1, because the Négociant's value rule was registered after
    the rule that reads it; the turn's own test, and Z3, said legal."""
    import json
    from conftest import ROOT
    state = json.loads((ROOT / "tests" / "fixtures" / "states" / "négociant-deuxième-commerce.json").read_text(
        encoding="utf-8"))
    e = engine()
    load_state(e, state, scopes())
    marché = next(c for c in e.st.zone("main", 3) if e.show_card(c) == "Marché")
    assert e.legal("bâtir", (3, marché)) == (True, [], [], [])
    enc = Encoder(e, concrete=True)
    types = [enc.resolve(x.type) for x in e.program.actions["bâtir"].params]
    assert _value(enc.legality("bâtir", tuple(enc.from_runtime(v, t) for v, t in zip((3, marché), types)))[0])
