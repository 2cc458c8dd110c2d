"""The game's flow over K decisions, two ways: the interpreter calls a procedure (a game's whole flow from its
set-up, the turn's procedure from a state of a game) and its agents answer K decisions, chosen at random
(seeded); the Z3 encoding (checker.solver.unroll) unrolls the same call over K decisions, its unknowns pinned
to the same answers in the order the interpreter asked them.  They must reach the same state — after the
call, or at decision K + 1 where both stop — and the encoding's path must end where the interpreter's did."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import z3
from hypothesis import HealthCheck, given, settings, strategies as st

from checker.front import ast
from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine
from checker.solver.encode import Cells, Encoder
from checker.solver.unroll import Unrolled
from conftest import ROOT

_NOTHING = object()


class _Budget(Exception):
    """The interpreter's agents were asked one decision more than the budget."""


class _Agent:
    def __init__(self, rng: random.Random, log: list):
        self.rng, self.log = rng, log

    def choose(self, decision) -> int:
        k = self.rng.randrange(len(decision.options) + (1 if decision.optional else 0))
        self.log.append(decision.options[k] if k < len(decision.options) else _NOTHING)
        return k


def run_interpreter(e: Engine, proc: str, args: tuple, budget: int, seed: int):
    """Call ``proc`` on the engine's state with seeded random answers, over at most ``budget`` decision points;
    the state after, the answers, whether decision point ``budget + 1`` was reached; the state is put back."""
    st_ = e.st
    snap = st_.snapshot()
    log: list = []
    rng = random.Random(seed)
    saved = e.agents
    e.agents = [_Agent(rng, log) for _ in range(st_.n)]
    points = [0]

    def observe(decision):
        """Decision points as the search counts them: an offer's every question, any other when asked."""
        if isinstance(decision.site, ast.Offer) or len(decision.options) > 1 or decision.optional:
            points[0] += 1
            if points[0] > budget:
                raise _Budget()
    e.observer = observe
    e.invalidate()
    stopped = False
    try:
        e.call(proc, args)
    except _Budget:
        stopped = True
    finally:
        e.observer = None
    after = (dict(st_.where), {k: (dict(v) if isinstance(v, dict) else v) for k, v in st_.vars.items()},
             dict(st_.uses), st_.turn, st_.round)
    e.agents = saved
    st_.restore(snap)
    e.invalidate()
    return after, log, stopped


def _true(m, term) -> bool:
    if term is True or term is False:
        return term
    return z3.is_true(m.eval(term, model_completion=True))


def _value(m, term):
    if term is True or term is False or isinstance(term, int):
        return term
    v = m.eval(term, model_completion=True)
    return z3.is_true(v) if z3.is_bool(v) else v.as_long()


def _same_option(m, enc, payload, answer) -> bool:
    if payload[0] != answer[0]:
        return False
    if payload[0] == "finish":
        return payload[1] == answer[1]
    if payload[0] == "power":
        return payload[1].name == answer[1].name and payload[2] == answer[2]
    if payload[1] != answer[1]:
        return False
    types = enc.param_types[payload[1]]
    return all(_value(m, a) == _value(m, enc.from_runtime(b, ty)) for a, b, ty in zip(payload[2], answer[2], types))


def pin(t: Unrolled, log: list):
    """A model where each decision asked takes the interpreter's answer, in order."""
    s = z3.Solver()
    s.add(*t.constraints)
    answers = list(log)
    enc = t.enc
    subsets: dict[int, list] = {}
    for a in t.asked:
        assert s.check() == z3.sat
        m = s.model()
        if not _true(m, a.asked):
            continue
        c = a.choice
        if c.kind == "offer" and sum(1 for g, _ in c.options if _true(m, g)) == 1:
            continue                # a single option: taken without asking the agent
        assert answers, "the encoding asks a decision the interpreter did not"
        answer = answers.pop(0)
        if c.kind == "offer":
            matches = [i for i, (g, o) in enumerate(c.options) if _true(m, g) and _same_option(m, enc, o, answer)]
            assert len(matches) == 1, (answer, matches)
            s.add(c.value == matches[0])
        elif c.kind == "subset":
            chosen = subsets.setdefault(id(c), [])
            if answer is _NOTHING:
                s.add(*[b == (x in chosen) for b, x in c.value])
            else:
                chosen.append(enc.from_runtime(answer, c.type))
                s.add(*[b for b, x in c.value if x == chosen[-1]])
        elif c.optional is not None and answer is _NOTHING:
            s.add(c.optional == False)      # noqa: E712 (a Z3 term)
        else:
            if c.optional is not None:
                s.add(c.optional == True)   # noqa: E712
            s.add(c.value == (answer if isinstance(answer, bool) else enc.from_runtime(answer, c.type)))
    assert s.check() == z3.sat
    assert not answers, f"the interpreter was asked {len(answers)} decision(s) the encoding did not ask"
    return s.model()


def compare(e: Engine, proc: str, args: tuple, budget: int, seed: int) -> Unrolled:
    before_where = dict(e.st.where)
    before_vars = {k: (dict(v) if isinstance(v, dict) else v) for k, v in e.st.vars.items()}
    (where, vars_, uses, turn, round_), log, stopped = run_interpreter(e, proc, args, budget, seed)
    enc = Encoder(e, concrete=True)
    t = Unrolled(enc, budget)
    t.procedure(proc, args)
    m = pin(t, log)
    same_state(e, t, m, before_where, before_vars, (where, vars_, uses, turn, round_), stopped, log)
    return t


def same_state(e: Engine, t: Unrolled, m, before_where: dict, before_vars: dict, after: tuple, stopped: bool,
               log: list) -> None:
    """The encoding's path pinned to the interpreter's answers (model ``m``) ends where the interpreter's did, in
    the state it reached (``after``: where, vars, uses, turn, round)."""
    where, vars_, uses, turn, round_ = after
    enc = t.enc
    assert not [f for f in t.failures if _true(m, f.when)], "the encoding fails where the interpreter did not"
    assert not [c for c in t.cuts if _true(m, c[0])], [(str(c[1]), c[2]) for c in t.cuts if _true(m, c[0])]
    assert any(_true(m, g) for g, _ in t.beyond) == stopped, (stopped, len(log))
    store = t.store
    for key, term in store.writes.items():
        if key[0] == "in":
            _, zone, index, inst = key
            runtime_index = None if index is None else enc.to_runtime(index, enc.zone_index_types[zone])
            assert _value(m, term) == (where.get(inst) == (zone, runtime_index)), key
        elif key[0] == "var":
            _, name, index = key
            value = vars_[name]
            if index is not None:
                k = enc.to_runtime(index, enc.index_types[name])
                value = value.get(k, 0 if e.program.vars[name].counter else e.var_defaults[name])
            assert _value(m, term) == _value(m, enc.from_runtime(value, enc.var_types[name])), key
        else:
            _, player, inst, name, scope = key
            last = uses.get((player, inst, name))
            used = last is not None and (scope == "game" or last[0 if scope == "turn" else 1]
                                         == (turn if scope == "turn" else round_))
            assert _value(m, term) == used, key
    for inst in set(where) | set(before_where):
        if where.get(inst) != before_where.get(inst):
            zone, index = where[inst]
            key_index = None if index is None else enc.from_runtime(index, enc.zone_index_types[zone])
            assert ("in", zone, key_index, inst) in store.writes, (inst, where[inst])
    for name, value in vars_.items():
        old = before_vars[name]
        if isinstance(value, dict):
            for k in set(value) | set(old):
                if value.get(k) != old.get(k):
                    assert ("var", name, enc.from_runtime(k, enc.index_types[name])) in store.writes, (name, k)
        elif value != old:
            assert ("var", name, None) in store.writes, name


MARKET = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"


def _market():
    result = check_paths([MARKET])
    return result


def started(result, players: int, seed: int, configuration: str = "Standard") -> Engine:
    """An engine set up for a game of ``result`` (recording nothing): the configuration, players, seed."""
    e = Engine(result.typed)
    e.recording = False
    program = result.program
    selection = select(program, program.configurations[configuration], players)
    e.start(selection.cards, players, seed, [None] * players)
    return e



@pytest.mark.parametrize("players,seed,budget", [(2, 1, 0), (2, 3, 2), (3, 5, 4), (2, 7, 4)])
def test_a_whole_game_of_the_market_over_k_decisions(players, seed, budget):
    """The flow from the set-up — a shuffle, a `repeat … until` of rounds, an `offer` per player in each — over
    K decisions: the encoding reaches the interpreter's state, at decision K + 1 or at the game's end."""
    e = started(_market(), players, seed)
    t = compare(e, e.flow, (), budget, seed)
    # the set-up's shuffle is the interpreter's: the random source is followed to the end
    assert t.deal is not None and not [x for x in t.deal.lost if "random source" in x[1]]


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), budget=st.integers(0, 5))
def test_market_games_drawn_by_hypothesis(players, seed, budget):
    e = started(_market(), players, seed)
    compare(e, e.flow, (), budget, seed)


def test_a_repeat_beyond_its_unrolling_is_cut_not_followed():
    """Unrolled once, the market's `repeat` of three rounds: the paths that would go round again are cut —
    not searched, and said so (a cut, never a path that ends)."""
    e = started(_market(), 2, 1)
    t = Unrolled(Encoder(e, concrete=True), budget=9, max_loops=1)
    t.procedure(e.flow, ())
    assert any("iteration number 2" in c[2] for c in t.cuts)
    s = z3.Solver()
    s.add(*t.constraints, z3.Or([c[0] for c in t.cuts]))
    assert s.check() == z3.sat            # e.g. both players pass: another round is due


class _Stop(Exception):
    pass


def _turn_state(config: str, players: int, seed: int) -> Engine:
    """A 4th-edition game (seeded, random agents) stopped at the first « que faire ? » of its second round."""
    from checker.runtime import RandomAgent
    from conftest import bundled
    program = bundled().program
    e = Engine(bundled().typed)
    e.recording = False
    selection = select(program, program.configurations[config], players)

    def observe(decision):
        if decision.prompt == "que faire ?" and e.st.round >= 2:
            raise _Stop()
    e.observer = observe
    try:
        e.play(selection.cards, players, seed, [RandomAgent(seed * 10 + k) for k in range(players)])
    except _Stop:
        pass
    e.observer = None
    return e


@pytest.mark.parametrize("config,players,seed,budget", [("Première partie", 4, 1, 2), ("Violente", 5, 3, 2)])
def test_a_players_turn_in_the_fourth_edition_over_k_decisions(config, players, seed, budget):
    """« Tour d'un joueur » called again from a state of a game: the reveal and its reactions, the resources (a
    choice; two cards drawn from the top of the known pile, one kept), then the offer's moves — the encoding
    reaches the interpreter's state at decision point K + 1."""
    e = _turn_state(config, players, seed)
    p, c = e.st.vars["joueur_actif"], e.st.vars["personnage_actif"]
    for answers in range(2):
        compare(e, e.turn_proc, (p, c), budget, seed * 7 + answers)
