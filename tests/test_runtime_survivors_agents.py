"""The first greedy builder (checker/runtime/agents.py, ``GreedyAgent(ending=False)``) on a tiny game: it takes
the offered action that raises its score the most right away, passing over an action that aborts (its look-ahead
has no score) and actions that gain less; with nothing left that gains, it draws among the options.  Written for
the survivors of the blind runtime sample (bench/results/mutation-2026-11-28-f.txt)."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.runtime import Engine
from checker.runtime.agents import GreedyAgent, RandomAgent

GAME = """
game "Gains" {
  edition: "test"
  players: 2..4
  flow: partie
  score: score
}
kind Carte { start: pioche }
counter banque unlimited
counter bourse[Player] public
zone pioche: pile of Carte public
zone vide[Player]: set of Carte public
var repos[Player]: Int = 0
quantity score(p: Player): Int = bourse[p]

action fouiller(p: Player) "Prendre une carte de sa réserve, vide : l'action s'arrête." {
  choose c in vide[p] by p
  transfer 9 from banque to bourse[p]
}
action gagner(p: Player, n: Int) "Prendre n pièces." { transfer n from banque to bourse[p] }
action attendre(p: Player) "Attendre." { set repos[p] = repos[p] + 1 }
rule une_fois { forbid gagner(p, n) when bourse[p] > 0 }
rule patience { forbid attendre(p) when repos[p] >= 5 }

procedure partie() {
  for p in players {
    offer p { fouiller(p)  attendre(p)  gagner(p, n) for n in 1..3  finish "Passer" }
  }
}
configuration "Standard" { players: 2..4 }
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    path = tmp_path_factory.mktemp("agents") / "gains.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    return Engine(result.typed)


class _Probe:
    """Takes « gagner 3 », then, at the next offer, asks builders seeded 0 to 19 and keeps their choices; passes."""

    def __init__(self):
        self.asked, self.choices = 0, None

    def choose(self, decision) -> int:
        labels = decision.labels()
        self.asked += 1
        if self.asked == 1:
            return labels.index("gagner(Joueur 1, 3)")
        if self.asked == 2:
            self.choices = {labels[GreedyAgent(seed, ending=False).choose(decision)] for seed in range(20)}
        return labels.index("Passer")


def test_with_nothing_that_gains_the_builder_draws_among_the_options(engine):
    """After « gagner 3 » nothing gains: « attendre » gains 0, « fouiller » aborts, « Passer » is not an action; the
    builder draws among all of them (an option that gains nothing is not taken as a gain)."""
    engine.recording = False
    probe = _Probe()
    engine.play({}, 2, 0, [probe, GreedyAgent(1, ending=False)])
    assert probe.choices == {"fouiller(Joueur 1)", "attendre(Joueur 1)", "Passer"}


@pytest.mark.parametrize("seed", range(4))
def test_the_builder_takes_the_action_that_gains_most_past_one_that_aborts(engine, seed):
    """Each player's first move is « gagner 3 »: 3 coins, where « fouiller » aborts, « attendre » and « Passer »
    gain nothing and « gagner 1 », « gagner 2 » less; then nothing gains: options drawn until « Passer »."""
    engine.recording = True
    game = engine.play({}, 2, seed, [GreedyAgent(seed * 10 + k, ending=False) for k in range(2)])
    firsts = [e for e in game.events if e["kind"] == "decision"]
    assert game.scores == {0: 3, 1: 3}
    for player in (0, 1):
        first = next(e for e in firsts if e["player"] == player)
        assert first["options"][first["chosen"]] == f"gagner(Joueur {player + 1}, 3)", first


def test_a_random_player_with_one_option_takes_it_and_draws_as_for_one():
    """``pick(1)`` is 0 and uses the random source as ``randrange(1)`` does (one bit), which is why the mutant
    ``count <= 0`` → ``count <= 1`` (randrange for one option) changes nothing; no option is randrange's error
    (with a cap: ``pick(0)`` by the inline loop would never end)."""
    a, b = RandomAgent(5), RandomAgent(5)
    assert [a.pick(1) for _ in range(3)] == [0, 0, 0]
    [b.rng.randrange(1) for _ in range(3)]
    assert a.rng.getstate() == b.rng.getstate()
    with pytest.raises(ValueError):
        _capped(a.pick, 0)


def _capped(fn, *args):
    """``fn(*args)``, stopped after a second (a ``pick(0)`` that loops fails the test instead of hanging)."""
    import signal

    def stop(*_):
        raise TimeoutError("pick(0) did not return")
    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        return fn(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
