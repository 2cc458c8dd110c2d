"""Carcassonne, « Le jeu prend fin dans une des situations suivantes » : whole seeded games that end each way.

The greedy players (checker/runtime/agents.py, the players `bench/simulate.py` measures) end their games on
« la dernière tuile est posée » and on « les deux bouts des remparts sont si proches que 5, ou moins de 5
remparts, peuvent être posés »; each test plays one such game, with the seeds `bench/strength.py` gives it (game
``seed``, seat ``s`` seeded ``seed * 1000 + s``), and reads why it ended from the game's record (the spec's
public var `fin`, set by the rule that ended it).  No greedy game ends on « le dernier rempart est posé »: they
have too few construction phases to lay 70 ramparts, and 70 ramparts stand only round a long, thin city
(docs/simulate.md); the last test plays the probe of `bench/carcassonne_walls.py` that builds such a city, to
show that the spec lets a whole game end that way.  Each game takes 12 to 26 s of CPU."""

from __future__ import annotations

import functools

from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine
from checker.runtime.agents import GreedyAgent
from conftest import ROOT

LAST_TILE_SEED = 0          # 2 greedy players
CLOSE_ENDS_SEED = 1         # 4 greedy players (game 0 ends on « bouts proches » too, but with its last tile)


@functools.cache
def _engine() -> Engine:
    engine = Engine(check_paths([ROOT / "spec" / "carcassonne"]).typed)
    engine.recording = True
    return engine


def _play(players: int, seed: int, agents: list) -> Engine:
    engine = _engine()
    cards = select(engine.program, engine.program.configurations["Jeu de base"], players).cards
    engine.play(cards, players, seed, agents)
    engine.invalidate()
    return engine


def _greedy(players: int, seed: int) -> Engine:
    return _play(players, seed, [GreedyAgent(seed * 1000 + s) for s in range(players)])


def _ramparts(engine: Engine) -> int:
    """The ramparts the players laid (the Porte included), before the wall was closed at the end."""
    return sum(ev["kind"] == "log" and ("pose un rempart" in ev["text"] or "place la Porte" in ev["text"])
               for ev in engine.events)


def test_des_joueurs_gloutons_finissent_sur_la_derniere_tuile():
    """« Soit... la dernière tuile est posée » — 2 greedy players, game LAST_TILE_SEED."""
    engine = _greedy(2, LAST_TILE_SEED)
    assert engine.st.vars["fin"] == "dernière_tuile_posée"
    assert engine.quantity("tuiles_restantes", ()) == 0
    assert _ramparts(engine) > 0, "the players built a wall"


def test_des_joueurs_gloutons_finissent_sur_les_bouts_proches():
    """« Soit... les deux bouts des remparts sont si proches que 5, ou moins de 5 remparts, peuvent être posés »
    — 4 greedy players, game CLOSE_ENDS_SEED: the game ends with tiles left, the wall closed by the few ramparts
    the players did not lay."""
    engine = _greedy(4, CLOSE_ENDS_SEED)
    assert engine.st.vars["fin"] == "bouts_proches"
    assert engine.quantity("tuiles_restantes", ()) > 0
    closing = [ev["text"] for ev in engine.events
               if ev["kind"] == "log" and ev["text"].startswith("Le rempart se ferme")]
    assert closing and 0 < int(closing[0].split(":")[1].split()[0]) <= 5, closing


def test_un_joueur_qui_etire_la_ville_finit_sur_le_dernier_rempart():
    """« Soit... le dernier rempart est posé » — 4 players of `bench/carcassonne_walls.py --agent waller`
    (a probe, not a player: it lays the city out along one row), game 4: every rampart stands."""
    from bench import carcassonne_walls as walls
    engine = _play(4, 4, [walls.agent("waller", 4 * 100 + s) for s in range(4)])
    assert engine.st.vars["fin"] == "dernier_rempart_posé"
    assert sum(engine.show_card(w) == "Rempart" for w in engine.st.zones["remparts_en_réserve"]) == 0
    assert _ramparts(engine) == 71, "the 70 ramparts and the Porte were laid in play"
