"""What a position is worth (checker/runtime/outlook.py): inside an outlook nobody is asked anything, and a choice
the game's ending makes takes its first option, for every player.  Written for the survivors of the blind
runtime sample -n (bench/results/mutation-2026-11-28-n.txt): the bundled games' endings choose nothing, so the
agent of an outlook was never asked."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.runtime import Engine
from checker.runtime.outlook import outlook

# the ending (the statements after the flow's last `repeat`; it binds its own names: a name bound before it
# would make the outlook the plain score) asks each player for a bonus of 20, 30 or 40
ENDING_CHOOSES = """
game "Fin choisie" {
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
  } until numéro >= 2
  for j in players {
    choose b in 2..4 by j
    set bonus[j] = b * 10
  }
}
configuration "Standard" { players: 2..4 }
"""


class _Answers:
    """Answers by index, in order; at each decision, keeps the outlook of the position and its bonuses after."""

    def __init__(self, answers):
        self.answers, self.seen = list(answers), []

    def choose(self, decision) -> int:
        e = decision.engine
        self.seen.append((outlook(e), dict(e.st.vars["bonus"])))
        return self.answers[len(self.seen) - 1]


def test_a_choice_in_the_ending_takes_its_first_option_inside_an_outlook(tmp_path):
    """Before the first coin, the game ended now would give each player the first bonus offered, 20; after round
    1 (Joueur 1 took 2 coins, Joueur 2 took 3) 22 and 23.  The outlook puts the bonuses back (unset: the default
    0); the game's own ending asks the players (Joueur 1 takes the third bonus, 40, Joueur 2 the second, 30)."""
    path = tmp_path / "jeu.rules"
    path.write_text(ENDING_CHOOSES, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    engine = Engine(result.typed)
    engine.recording = False
    agent = _Answers([1, 2, 0, 0, 2, 1])
    engine.play({}, 2, 1, [agent] * 2)
    # decisions 1-4: the rounds' coins; 5 and 6: the ending's own questions (an outlook there runs the whole
    # ending again, so Joueur 1's 40, already set at decision 6, counts as the first bonus too)
    assert [seen[0] for seen in agent.seen] == [{0: 20, 1: 20}, {0: 22, 1: 20}, {0: 22, 1: 23}, {0: 23, 1: 23},
                                                {0: 23, 1: 24}, {0: 23, 1: 24}]
    assert [seen[1] for seen in agent.seen] == [{}] * 5 + [{0: 40}]
    assert engine.st.vars["bonus"] == {0: 40, 1: 30}
