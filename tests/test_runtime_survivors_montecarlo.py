"""The Monte-Carlo agent on tiny games (checker/runtime/montecarlo.py): a playout cut off by its depth is judged
by the scores the game would give if it ended there (the spec's ending: here a bonus of 10 to the poorest
player), not by the plain score, and the leaders are the players with the best of those scores; dealing the
hidden cards again keeps the state's count of each definition per zone cell (what `"X" in zone` reads).
Written for the survivors of the blind runtime sample (bench/results/mutation-2026-11-28-f.txt); the Monte-Carlo
tests of tests/test_simulate.py play Citadelles, where no judged playout turns on the ending."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from checker.front.check import check_paths
from checker.runtime import Engine
from checker.runtime.montecarlo import MonteCarloAgent, _Cutoff, _Driver, _known, _leaders, determinise
from checker.runtime.outlook import outlook

RACE = """
game "Course" {
  edition: "test"
  players: 2..4
  flow: partie
  score: score
}
counter banque unlimited
counter bourse[Player] public
var numéro: Int = 0
var bonus[Player]: Int = 0
quantity score(p: Player): Int = bourse[p] + bonus[p]

procedure partie() {
  repeat {
    set numéro = numéro + 1
    for p in players {
      choose n in 1..3 by p
      transfer n from banque to bourse[p]
    }
  } until numéro >= 3
  for j in players {
    if count(k in players where bourse[k] < bourse[j]) == 0 { set bonus[j] = 10 }
  }
}
configuration "Standard" { players: 2..4 }
"""

HIDDEN = """
game "Cachettes" {
  edition: "test"
  players: 2..4
  flow: partie
}
kind Carte { valeur: Int in 0..9  copies: Int = 1  start: pioche }
card Carte "Rubis" { valeur: 1  copies: 2 }
card Carte "Saphir" { valeur: 2  copies: 2 }
card Carte "Perle" { valeur: 3 }
zone pioche: pile of Carte secret
zone main[Player]: set of Carte hidden
procedure partie() {
  shuffle pioche
  for p in players { draw 2 from pioche to main[p] }
  for p in players {
    choose c in main[p] by p
    move c to pioche
  }
}
configuration "Standard" { players: 2..4  include Carte: "Rubis", "Saphir", "Perle" }
"""


def _engine(tmp_path, text: str) -> Engine:
    path = tmp_path / "jeu.rules"
    path.write_text(text, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    return Engine(result.typed)


class _Answers:
    """Answers by index, in order; at the decision numbered ``look`` (from 1), keeps what ``probe`` returns."""

    def __init__(self, answers, look=0, probe=None):
        self.answers, self.next, self.look, self.probe, self.seen = list(answers), 0, look, probe, None

    def choose(self, decision) -> int:
        self.next += 1
        if self.next == self.look:
            self.seen = self.probe(decision)
        return self.answers[self.next - 1]


# rounds 1 and 2: Joueur 1 takes 1 coin, then 1; Joueur 2 takes 1, then 3 (indices 0, 0 / 0, 2); round 3 as the
# agent answers
HISTORY = [0, 0, 0, 2]


def test_a_cut_off_position_is_led_by_the_player_ahead_once_the_ending_has_run(tmp_path):
    """At round 3, Joueur 1 has 2 coins and Joueur 2 has 4: by the plain score Joueur 2 leads; the ending gives
    the poorer Joueur 1 a bonus of 10, so if the game ended there Joueur 1 would lead alone."""
    engine = _engine(tmp_path, RACE)
    engine.recording = False

    def probe(decision):
        e = decision.engine
        return dict(e.st.vars["bourse"]), outlook(e), e.result().winners, _leaders(e)
    agent = _Answers(HISTORY + [0, 0], look=5, probe=probe)
    engine.play({}, 2, 1, [agent] * 2)
    bourses, scores, plain, leaders = agent.seen
    assert bourses == {0: 2, 1: 4}
    assert scores == {0: 12, 1: 4} and plain == [1]
    assert leaders == [0]


@pytest.mark.parametrize("seed", [1, 2])
def test_the_monte_carlo_agent_judges_a_short_playout_by_the_ending_and_stays_the_poorest(tmp_path, seed):
    """Joueur 1's last choice, playouts cut off at the next decision: 1 coin (3 against 4) keeps the bonus and
    wins, 2 (4 against 4) shares it, 3 loses it; judged by the plain score, 3 would look best."""
    engine = _engine(tmp_path, RACE)
    engine.recording = False
    mc = MonteCarloAgent(seed, playouts=3, depth=0, judge="wins")
    agent = _Answers(HISTORY + [0, 0], look=5, probe=mc.choose)
    engine.play({}, 2, 1, [agent] * 2)
    assert agent.seen == 0 and mc.played == 3


@pytest.mark.parametrize("seed", [1, 2])
def test_the_monte_carlo_agent_without_a_candidate_limit_plays_out_every_option(tmp_path, seed):
    """``candidates=0`` means every option (montecarlo.py's ``max(0, candidates)``): Joueur 1's last choice has 3
    options that are not actions, which the greedy player's measure values alike (the position as it is), so a
    limit of one candidate would play out one option drawn by the tie-break; played out all, the 1 coin that
    keeps the ending's bonus is taken."""
    engine = _engine(tmp_path, RACE)
    engine.recording = False
    mc = MonteCarloAgent(seed, playouts=3, depth=0, judge="wins", candidates=0)
    agent = _Answers(HISTORY + [0, 0], look=5, probe=mc.choose)
    engine.play({}, 2, 1, [agent] * 2)
    assert agent.seen == 0 and mc.played == 3


def test_dealing_the_hidden_cards_again_keeps_each_cells_count_of_each_definition(tmp_path):
    """At Joueur 1's choice, Joueur 2's hand and the pile are unseen: their cards (3, less any whose number the
    decision shows) are dealt again among them; each cell's count per definition (what `"Rubis" in main[p]`
    reads) is that of the cards now in it, and a card moved out of the cell afterwards leaves it."""
    engine = _engine(tmp_path, HIDDEN)
    engine.recording = False

    def probe(decision):
        e, st = decision.engine, decision.engine.st
        mine = list(st.zones["main"][0])
        shown: set = set()
        _known([list(decision.options), decision.env or {}], shown)     # the cards the decision shows stay
        unseen = [c for z in (st.zones["main"][1], st.zones["pioche"]) for c in z if c not in shown]
        before = Counter(st.defs[c] for z in (st.zones["main"][1], st.zones["pioche"]) for c in z)
        dealt = determinise(e, 0, decision, random.Random(7))
        cells = {("main", 0): st.zones["main"][0], ("main", 1): st.zones["main"][1],
                 ("pioche", None): st.zones["pioche"]}
        counts = {cell: dict(st.counts.get(cell) or {}) for cell in cells}
        expected = {cell: dict(Counter(st.defs[c] for c in cards)) for cell, cards in cells.items()}
        after = Counter(st.defs[c] for z in (st.zones["main"][1], st.zones["pioche"]) for c in z)
        card = st.zones["main"][1][0]
        key = st.defs[card]
        left = sum(1 for c in st.zones["main"][1] if st.defs[c] == key) - 1
        st.put(card, "pioche", None, "top")
        return (dealt == len(unseen) >= 2, mine == list(st.zones["main"][0]), counts == expected, before == after,
                st.holds("main", 1, key) == (left > 0), counts)
    agent = _Answers([0, 0], look=1, probe=probe)
    engine.play({"Carte": ["Rubis", "Saphir", "Perle"]}, 2, 3, [agent] * 2)
    dealt, kept, same_counts, same_cards, holds, counts = agent.seen
    assert dealt and kept and same_cards
    assert same_counts, counts
    assert all(n > 0 for held in counts.values() for n in held.values())
    assert holds


class _Point:
    """A decision point as a playout's driver reads it: whose it is, and its options."""

    def __init__(self, player: int, options: int = 2):
        self.player, self.options, self.optional = player, list(range(options)), False


@pytest.mark.parametrize("turn", [False, True])
def test_a_playout_is_cut_after_its_depth_and_with_turn_at_another_players_decision(turn):
    """After the replayed answers and the option tried, the driver plays ``depth`` decisions by its policy,
    then cuts the playout (checker/runtime/montecarlo.py's ``_Driver.choose``); with ``turn`` it also cuts at
    the first decision of another player, and without it another player's decision is played."""
    history = [1, 0, 1, 1, 0, 1]
    driver = _Driver(None, history, player=0, option=0, expected=2, seed=3, rollout="random", depth=2,
                     turn=turn)
    driver.asked = len(history) + 1           # the option was tried: the policy's decisions follow
    assert driver.choose(_Point(0)) in (0, 1)     # 1 after the option, within the depth
    if turn:
        with pytest.raises(_Cutoff):
            driver.choose(_Point(1))
        return
    assert driver.choose(_Point(1)) in (0, 1)     # 2: another player's, played
    with pytest.raises(_Cutoff):
        driver.choose(_Point(0))                  # 3: past the depth
