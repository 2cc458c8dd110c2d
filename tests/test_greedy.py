"""The greedy player values where a move leads (checker/runtime/outlook.py): the scores the game would give if it
ended right after the move, by the spec's own ending (the flow's statements after its last loop).

On Carcassonne's first decision — where the first player puts a follower on the first tile, or not — nothing
scores at once, so the first greedy builder sees no difference; the ending closes the wall round the tile and
counts the follower: a residential area is worth 2 points a market it touches, a road or a market the wall
closes 1.  The test could fail: before the outlook, every option was worth the same."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from checker.front import ast
from checker.front.configurations import select
from checker.runtime.agents import GreedyAgent, option_values
from checker.runtime.engine import Engine
from checker.runtime.outlook import COUNTS, ending, outlook, outlook_after
from checker.runtime.replay import state_digest
from conftest import checked_once


class _Stop(Exception):
    pass


def _first_choice(seed: int):
    """Carcassonne at 2 players, stopped at its first decision with several options."""
    result = checked_once(("spec/carcassonne",))
    engine = Engine(result.typed)
    engine.recording = False
    program = result.program
    selection = select(program, next(iter(program.configurations.values())), 2)
    seen = {}

    class Probe:
        def choose(self, decision):
            seen["decision"] = decision
            raise _Stop()

    with pytest.raises(_Stop):
        engine.play(selection.cards, 2, seed, [Probe(), Probe()])
    return engine, seen["decision"]


def test_the_ending_is_the_flows_statements_after_its_last_loop():
    engine, _ = _first_choice(0)
    procedure = engine.program.procedures[engine.flow]
    tail = procedure.body[-1]
    assert isinstance(procedure.body[-2], ast.Repeat) and isinstance(tail, ast.CallProc) and tail.name == "fin_du_jeu"
    assert ending(engine) is not None and ending(engine) is ending(engine), "compiled once"
    # no statement after the last loop, or one that reads a local name bound before it: no ending
    loop, local = procedure.body[-2], procedure.body[-3]
    for body in ((local, loop), (local, loop, ast.CallProc("tour", (ast.Name(local.name, tail.span),), tail.span))):
        flow = SimpleNamespace(params=(), body=body)
        stub = SimpleNamespace(flow="f", program=SimpleNamespace(procedures={"f": flow}))
        assert isinstance(local, ast.Let) and ending(stub) is None


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_greedy_player_takes_the_follower_the_ending_counts_most(seed):
    engine, decision = _first_choice(seed)
    player = decision.player
    actions = [i for i, o in enumerate(decision.options) if o[0] == "action"]
    assert actions and any(o[0] == "finish" for o in decision.options), "placing a follower, or not"
    # right away nothing changes: the first builder sees no gain in any option
    now = engine.quantity(engine.score, (player,))
    assert all(engine.lookahead(player, decision.options[i]) == now for i in actions)
    before = state_digest(engine.st), list(engine.choices), engine.decisions, engine.work
    COUNTS.clear()
    values = option_values(decision)
    # one outlook for the position, one per action; each runs the ending once; nothing is left changed
    assert COUNTS == {"outlooks": 1 + len(actions), "endings": 1 + len(actions)}
    assert (state_digest(engine.st), list(engine.choices), engine.decisions, engine.work) == before
    base = values[next(i for i, o in enumerate(decision.options) if o[0] == "finish")]
    assert base == 0 and max(values) > base, values
    # a follower's worth is what the ending gives it, and the greedy player takes the best
    for i in actions:
        after = outlook_after(engine, player, decision.options[i])
        assert values[i] == after[player] - after[1 - player]
    picks = {GreedyAgent(s).choose(decision) for s in range(8)}
    assert picks and all(values[i] == max(values) for i in picks)
    assert outlook(engine) == {0: 0, 1: 0}


def test_a_residential_area_is_worth_two_points_a_market():
    """Seed 1's first tile: a market (closed by the wall at the end: 1 tile x 1 kind of goods) and a residential
    area touching it (2 points a market); not placing is worth nothing."""
    engine, decision = _first_choice(1)
    assert [o[0] for o in decision.options] == ["action", "action", "finish"]
    assert [label.rsplit("/ ", 1)[-1] for label in decision.labels()] == ["marché))", "quartier))",
                                                                          "Ne pas placer de Bonhomme"]
    assert option_values(decision) == [1, 2, 0]
    assert {GreedyAgent(s).choose(decision) for s in range(8)} == {1}


def test_the_first_builder_is_kept_and_does_not_look_at_the_ending():
    engine, decision = _first_choice(0)
    COUNTS.clear()
    rng = random.Random(5)
    assert GreedyAgent(5, ending=False).choose(decision) == rng.randrange(len(decision.options))
    assert not COUNTS


def test_the_monte_carlo_agent_plays_out_only_the_greedy_players_best_options():
    """Seed 1's first decision has 3 options worth [1, 2, 0]: with 2 candidates, the two best are played out, best
    first; cut off at once, each playout is judged by the outlook (both lead), so the tie goes to the greedy's
    choice."""
    from checker.runtime.montecarlo import MonteCarloAgent
    engine, decision = _first_choice(1)
    agent = MonteCarloAgent(0, playouts=2, depth=0, rollout="random", candidates=2)
    assert agent._ranked(decision, 3) == [1, 0]
    COUNTS.clear()
    assert agent.choose(decision) == 1 and agent.played == 2
    assert COUNTS["outlooks"] == 3 + 2, "the ranking (the position, its 2 actions), then one per cut-off playout"
    with pytest.raises(ValueError):
        MonteCarloAgent(0, rollout="clever")


def _tile_decision(seed: int, nth: int, then=None):
    """Carcassonne at 2 players with one greedy agent (seeded ``seed``) at both seats, stopped at the ``nth``
    tile to place (a decision of `poser` actions); with ``then`` (an option's index), that option is taken
    there, the player's own next decisions are the greedy player's, and it stops at the first decision of the
    other player instead.  Returns the engine and the decision it stopped at."""
    result = checked_once(("spec/carcassonne",))
    engine = Engine(result.typed)
    engine.recording = False
    program = result.program
    selection = select(program, next(iter(program.configurations.values())), 2)
    greedy, seen = GreedyAgent(seed), {"tiles": 0}

    class Probe:
        def choose(self, decision):
            if "player" in seen:
                if decision.player != seen["player"]:
                    seen["decision"] = decision
                    raise _Stop()
                return GreedyAgent(99).choose(decision)
            if decision.options[0][:2] == ("action", "poser"):
                seen["tiles"] += 1
                if seen["tiles"] == nth:
                    seen["decision"] = decision
                    if then is None:
                        raise _Stop()
                    seen["player"] = decision.player
                    return then
            return greedy.choose(decision)

    with pytest.raises(_Stop):
        engine.play(selection.cards, 2, seed, [Probe(), Probe()])
    return engine, seen["decision"]


def _turn_value(seed: int, nth: int, option: int) -> int:
    """The player's lead, if the game ended, once it has placed the tile ``option`` and played the rest of its turn
    as the greedy player."""
    engine, decision = _tile_decision(seed, nth, option)
    mover = 1 - decision.player
    scores = outlook(engine)
    return scores[mover] - scores[decision.player]


def test_the_monte_carlo_agent_looks_at_the_rest_of_its_turn():
    """Seed 2's third tile: the greedy player values each placement alone (the follower it puts next is not counted
    yet); the Monte-Carlo agent with ``turn`` plays each placement on through the rest of the player's turn (the
    follower, as the greedy player puts it) and takes a placement that the greedy player ranks lower but that
    leads further once the follower is down.  Deterministic: the same seed, the same choice."""
    from checker.runtime.montecarlo import MonteCarloAgent
    engine, decision = _tile_decision(2, 3)
    values = option_values(decision)
    make = lambda: MonteCarloAgent(5, playouts=1, depth=3, rollout="greedy", candidates=0, judge="margin", turn=True)
    agent = make()
    pick = agent.choose(decision)
    assert agent.played == len(decision.options), "one playout an option: the rest of the turn is not random"
    assert make().choose(decision) == pick
    greedy_picks = {GreedyAgent(s).choose(decision) for s in range(6)}
    assert values[pick] < max(values) and pick not in greedy_picks, (pick, values)
    assert all(_turn_value(2, 3, pick) > _turn_value(2, 3, g) for g in greedy_picks), (pick, greedy_picks)
    with pytest.raises(ValueError):
        MonteCarloAgent(0, judge="closest")


# A race where the player whose turn it is may end the game (0) or take 1 or 2 coins (1, 2); the richer wins.
STOP = """
game "Arrêt" {
  edition: "test"
  players: 2..2
  flow: partie
  turn: tour
  score: score
}
counter banque unlimited
counter bourse[Player] public
var fini: Bool = false
var numéro: Int = 0
quantity score(p: Player): Int = bourse[p]

procedure tour(p: Player) {
  choose n in 0..2 by p
  if n == 0 { set fini = true } else { transfer n from banque to bourse[p] }
}

procedure partie() {
  repeat {
    set numéro = numéro + 1
    for p in players {
      if not fini { call tour(p) }
    }
  } until fini or numéro >= 6
}
configuration "Standard" { players: 2..2 }
"""


def _stop_choice(tmp_path, history: list[int], agent) -> tuple[int, object]:
    """The race above, the answers ``history`` given, then ``agent`` asked once; (its answer, the engine)."""
    from checker.front.check import check_paths
    path = tmp_path / "arret.rules"
    path.write_text(STOP, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    engine = Engine(result.typed)
    engine.recording = False
    answers, seen = list(history), {}

    class Probe:
        def choose(self, decision):
            if answers:
                return answers.pop(0)
            seen["answer"] = agent.choose(decision)
            raise _Stop()
    with pytest.raises(_Stop):
        engine.play({}, 2, 1, [Probe(), Probe()])
    return seen["answer"], engine


@pytest.mark.parametrize("history, leads", [([2, 1], True), ([1, 2], False), ([2, 2, 2, 1], True)])
def test_judged_by_the_outcome_a_player_ends_the_game_it_leads_and_not_one_it_trails(tmp_path, history, leads):
    """Playouts over the rest of the turn (``next_turn``): ending the game is a finished playout, taking coins one
    cut off at the next turn.  Judged by the margin, 2 more coins are worth more than ending with a lead of 1;
    judged by the outcome, ending a game it leads is a certain win (1) and taking coins only a chance of one, and
    ending a game it trails a certain loss (0)."""
    from checker.runtime.montecarlo import MonteCarloAgent
    make = lambda judge: MonteCarloAgent(3, playouts=3, rollout="greedy", candidates=0, judge=judge,  # noqa: E731
                                         next_turn=True)
    by_outcome, by_margin = make("outcome"), make("margin")
    outcome, engine = _stop_choice(tmp_path, history, by_outcome)
    margin, _ = _stop_choice(tmp_path, history, by_margin)
    engine.invalidate()
    assert engine.quantity("score", (0,)) - engine.quantity("score", (1,)) == (1 if leads else -1)
    assert margin == 2
    assert outcome == (0 if leads else 2)
    assert by_outcome.played == 3 and by_outcome.finished == 1, "only the option that stops ends the game"
    assert by_outcome.ends == [1, 1 if leads else 0] and by_margin.ends == [1, 0]


def test_the_chance_of_a_game_that_goes_on_lies_between_a_lost_and_a_won_end_and_grows_with_the_lead():
    from checker.runtime.montecarlo import chance
    values = [chance({0: mine, 1: 40}, 0) for mine in (0, 20, 39, 40, 41, 60, 400)]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert 0 < values[0] and values[-1] < 1 and values[3] == 0.5
    assert chance({0: 0, 1: 0}, 0) == 0.5 and chance({0: 1, 1: 0}, 0) > 0.5     # no score yet: a scale of 1
    assert chance({0: 50, 1: 40, 2: 45}, 2) < 0.5, "behind the best of the others"


def test_a_playout_over_the_rest_of_the_turn_goes_on_through_other_players_decisions_until_the_next_turn():
    """``next_turn``: the driver plays every decision while the game's turn counter is the one it was when the
    option was taken, whoever takes it, and cuts the playout at the first decision of the next turn."""
    from checker.runtime.montecarlo import _Cutoff, _Driver
    engine = SimpleNamespace(st=SimpleNamespace(turn=7))
    driver = _Driver(engine, [1, 0], player=0, option=0, expected=2, seed=3, rollout="random", depth=50,
                     next_turn=True)
    driver.asked, driver.turn_at = 3, 7          # the option was taken in turn 7
    point = SimpleNamespace(player=1, options=[0, 1], optional=False, engine=None)
    assert driver.choose(point) in (0, 1), "another player's decision in the same turn is played"
    engine.st.turn = 8
    with pytest.raises(_Cutoff):
        driver.choose(SimpleNamespace(player=0, options=[0, 1], optional=False, engine=None))
