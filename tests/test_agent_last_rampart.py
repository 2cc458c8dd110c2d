"""« Soit... le dernier rempart est posé » — a Monte-Carlo player that values the end of the game takes it.

No player worth simulating reaches Carcassonne's last-rampart ending from the start of a game: it needs about 18
construction phases and a city long and thin enough for a wall of 71 sides (docs/simulate.md, « How Carcassonne's
games end »).  From a position near such an end (tests/fixtures/carcassonne-dernier-rempart.json: the probe of
`bench/carcassonne_walls.py` laid the city out along one row, then Monte-Carlo players played on; 64 ramparts
stand), the fourth player lays a tile: some placements finish a road or market with a Bonhomme on it, and the
construction phase that follows lays the last ramparts and ends the game, others do not.  The Monte-Carlo agent
with the settings `bench/simulate.py` gives Carcassonne (``judge="outcome"``: a won end is worth more than any
lead the game may still undo) sees both kinds in its playouts and takes a placement that ends the game, which
it wins.  The greedy player takes such a placement too (it scores at once).  The rest of each game is played by
greedy players."""

from __future__ import annotations

import functools
import json

from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine
from checker.runtime.agents import GreedyAgent
from checker.runtime.montecarlo import MonteCarloAgent
from conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "carcassonne-dernier-rempart.json"


@functools.cache
def _engine() -> Engine:
    engine = Engine(check_paths([ROOT / "spec" / "carcassonne"]).typed)
    engine.recording = True
    return engine


class _Prepared:
    """A seat: the fixture's answers while they last (one count for every seat), then ``agent`` for the first
    decision after them, then ``then`` (the greedy player: the rest of the game is not what is tested)."""

    def __init__(self, answers: list[int], asked: list[int], agent, then):
        self.answers, self.asked, self.agent, self.then = answers, asked, agent, then
        self.first = None           # the first decision after the answers: (player, the agent's `ends` after it)

    def choose(self, decision) -> int:
        k = self.asked[0]
        self.asked[0] += 1
        if k < len(self.answers):
            return self.answers[k]
        if k > len(self.answers):
            return self.then.choose(decision)
        index = self.agent.choose(decision)
        self.first = (decision.player, list(getattr(self.agent, "ends", ())))
        return index


def _play_on(make) -> tuple[Engine, list[_Prepared]]:
    game = json.loads(FIXTURE.read_text(encoding="utf-8"))
    engine = _engine()
    cards = select(engine.program, engine.program.configurations[game["configuration"]], game["players"]).cards
    asked = [0]
    seats = [_Prepared(game["answers"], asked, make(s), GreedyAgent(1000 + s)) for s in range(game["players"])]
    engine.play(cards, game["players"], game["seed"], seats)
    engine.invalidate()
    return engine, seats


def _laid(engine: Engine) -> int:
    """The ramparts the players laid in play (the Porte included), not those added when the wall is closed."""
    return sum(ev["kind"] == "log" and ("pose un rempart" in ev["text"] or "place la Porte" in ev["text"])
               for ev in engine.events)


def _mc(seat: int) -> MonteCarloAgent:
    return MonteCarloAgent(seat, playouts=1, depth=60, rollout="greedy", candidates=8, judge="outcome",
                           next_turn=True)


def test_le_monte_carlo_finit_sur_le_dernier_rempart():
    engine, seats = _play_on(_mc)
    assert [s.first for s in seats] == [None, None, None, (3, [1, 1])], \
        "the fourth player lays the tile; some placements' playouts ended the game and others' did not, and it " \
        "took one that ended it"
    assert engine.st.vars["fin"] == "dernier_rempart_posé"
    assert sum(engine.show_card(w) == "Rempart" for w in engine.st.zones["remparts_en_réserve"]) == 0
    assert _laid(engine) == 71, "the 70 ramparts and the Porte were laid in play"
    assert engine.quantity("tuiles_restantes", ()) > 0, "the game ended before its last tile"
    assert 3 in engine.result().winners, "the end it chose is a won end"


def test_le_glouton_finit_aussi_sur_le_dernier_rempart():
    """The greedy player takes it too: the placement that ends the game finishes a road or market of its own,
    which scores at once."""
    engine, _ = _play_on(lambda seat: GreedyAgent(seat))
    assert engine.st.vars["fin"] == "dernier_rempart_posé"
    assert _laid(engine) == 71
    assert engine.quantity("tuiles_restantes", ()) > 0


def test_une_pose_au_hasard_ne_finit_pas_sur_le_dernier_rempart():
    """The ending is a choice: a tile laid at random there (then greedy players) lets the game run on to its last
    tile, without the last phase (6 of 6 seeds measured; this is seed 0)."""
    from checker.runtime.agents import RandomAgent
    engine, _ = _play_on(lambda seat: RandomAgent(seat))
    assert engine.st.vars["fin"] == "dernière_tuile_posée"
    assert _laid(engine) == 64
