"""How Carcassonne Die Stadt games end, and what the rampart does: seeded random games at 2, 3 and 4 players.

Run: python bench/carcassonne_walls.py [--games N] [--agent random|greedy|builder|stretcher]
For each player count: how many games end by each of the rulebook's three end conditions (the spec's
var `fin`), how many ramparts could not be placed while the wall was still open (a stuck end: the log's
"ne peut poser son rempart nulle part"), how many walls the players built (the Porte included), how many
were added when the wall was closed at the end, in how many games the players closed it themselves, and in how
many it is closed once the game is over;
how many construction phases a game had (each follows one tile: the ramparts laid come from them) and how far the
tiles spread (rows + columns of the smallest rectangle that holds them: the frame round the city is at most
2 × (rows + columns + 4) sides, decision rempart_au_bord_de_l_aire_de_jeu).
Game i is played by agents seeded i*100+seat (random ones, as in bench/play_carcassonne.py, greedy, the first greedy
builder, or the stretcher below).  Nothing is asserted.

``stretcher`` is not a player worth simulating but a probe of what the rules allow: the greedy player, except
that among the tile placements it values most it takes the one furthest from the middle column (this bench
knows the game: a tile's cell is the third argument of `poser`).  The game ends on « le dernier rempart est posé » only when
all 70 ramparts stand while the two ends are still more than 5 apart, which needs a frame round the city of
more than 75 sides: a long, thin city, which no player aiming at points builds.
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker.front.check import check_paths  # noqa: E402
from checker.front.configurations import select  # noqa: E402
from checker.runtime import Engine  # noqa: E402
from checker.runtime.agents import GreedyAgent, option_values  # noqa: E402
from checker.runtime.players import make_agent  # noqa: E402

CONFIG = "Jeu de base"
ENDS = ("dernier_rempart_posé", "dernière_tuile_posée", "bouts_proches")
STUCK = "ne peut poser son rempart nulle part"
AGENTS = ("random", "greedy", "builder", "stretcher", "waller")


class Stretcher:
    """The greedy player, except that among the tile placements it values most it takes the one furthest from the
    middle column (ties at random)."""

    def __init__(self, seed: int):
        self.greedy = GreedyAgent(seed)
        self.rng = self.greedy.rng

    def choose(self, decision) -> int:
        tiles = [i for i, o in enumerate(decision.options) if o[0] == "action" and o[1] == "poser"]
        if not tiles:
            return self.greedy.choose(decision)
        values = option_values(decision)
        tiles = [i for i in tiles if values[i] == max(v for v in values if v is not None)]
        grid = decision.engine.grids["Case"]
        far = {i: abs(grid.column(decision.options[i][2][2])) for i in tiles}
        return self.rng.choice([i for i in tiles if far[i] == max(far.values())])


class Waller:
    """A probe of how many ramparts can stand, not a player: it lays the pile 1's city out as one long row (every
    tile as far from the middle column as it can go, whatever it scores), then takes the tile placements the
    greedy player values most (evaluations), the furthest out among them; it puts a Bonhomme on every road or
    market it can (evaluations make ramparts), puts the Porte on a long side near the middle,
    builds each rampart along a long side (north or south) where it can, further out first, and places no guard;
    the rest as the greedy player."""

    def __init__(self, seed: int):
        self.greedy = GreedyAgent(seed)
        self.rng = self.greedy.rng

    def choose(self, decision) -> int:
        options = decision.options
        grid = decision.engine.grids["Case"]
        actions = {i: o for i, o in enumerate(options) if isinstance(o, tuple) and o and o[0] == "action"}
        named = lambda name: [i for i, o in actions.items() if o[1] == name]
        tiles = named("poser")
        if tiles:
            if len(decision.engine.st.zones["posées"]) >= 30:     # from the pile 2 on: evaluations first
                values = option_values(decision)
                best = max(values[i] for i in tiles if values[i] is not None)
                tiles = [i for i in tiles if values[i] == best]
            far = {i: abs(grid.column(options[i][2][2])) for i in tiles}
            return self.rng.choice([i for i in tiles if far[i] == max(far.values())])
        gate = named("poser_la_porte")
        if gate:
            sides = [i for i in gate if options[i][2][1][1] in ("nord", "sud")] or gate
            near = {i: abs(grid.column(options[i][2][1][0])) for i in sides}
            return self.rng.choice([i for i in sides if near[i] == min(near.values())])
        walls = named("bâtir")
        if walls:
            sides = [i for i in walls if options[i][2][1][1] in ("nord", "sud")] or walls
            far = {i: abs(grid.column(options[i][2][1][0])) for i in sides}
            return self.rng.choice([i for i in sides if far[i] == max(far.values())])
        followers = [i for i in named("placer") if "quartier" not in repr(options[i])]
        if followers:
            return self.rng.choice(followers)
        if named("garder"):
            return len(options) if decision.optional else next(i for i in range(len(options)) if i not in actions)
        return self.greedy.choose(decision)


def agent(name: str, seed: int):
    if name == "stretcher":
        return Stretcher(seed)
    if name == "waller":
        return Waller(seed)
    if name == "builder":
        return GreedyAgent(seed, ending=False)
    return make_agent(name, seed)


def measure(engine: Engine, program, players: int, games: int, name: str) -> dict:
    selection = select(program, program.configurations[CONFIG], players)
    ends, stuck, stuck_games, built, closing = collections.Counter(), 0, 0, [], []
    phases, spans = [], []
    closed_in_play = no_gate = closed_at_end = 0
    start = time.perf_counter()
    for seed in range(games):
        agents = [agent(name, seed * 100 + i) for i in range(players)]
        seen: set[int] = set()        # a construction phase follows one tile: the tiles laid at its decisions

        def watch(decision, seen=seen) -> None:
            if any(isinstance(o, tuple) and o[:1] == ("action",) and o[1] in ("bâtir", "poser_la_porte")
                   for o in decision.options):
                seen.add(len(engine.st.zones["posées"]))

        engine.observer = watch
        try:
            result = engine.play(selection.cards, players, seed, agents)
        finally:
            engine.observer = None
        st = engine.st
        phases.append(len(seen))
        grid = engine.grids["Case"]
        cells = [st.vars["case_de"][t] for t in st.zones["posées"]]
        rows, cols = {grid.row(c) for c in cells}, {grid.column(c) for c in cells}
        spans.append(max(rows) - min(rows) + 1 + max(cols) - min(cols) + 1)
        ends[st.vars["fin"]] += 1
        logs = [e["text"] for e in result.events if e["kind"] == "log"]
        jammed = sum(STUCK in t for t in logs)
        stuck += jammed
        stuck_games += jammed > 0
        placed = sum(("pose un rempart" in t) or ("place la Porte" in t) for t in logs)
        built.append(placed)
        closing.append(next((int(t.split(":")[1].split()[0]) for t in logs if t.startswith("Le rempart se ferme")), 0))
        closed_in_play += bool(st.vars["porte_posée"]) and closing[-1] == 0
        no_gate += not st.vars["porte_posée"]
        engine.invalidate()
        closed_at_end += bool(engine.quantity("rempart_fermé", ()))
    return {"ends": ends, "phases": phases, "spans": spans, "stuck": stuck, "stuck games": stuck_games,
            "built": built, "closing": closing,
            "closed in play": closed_in_play, "no gate": no_gate, "closed at end": closed_at_end, "seconds": time.perf_counter() - start}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--agent", choices=AGENTS, default="random")
    parser.add_argument("--players", default="2,3,4", help="player counts, comma-separated")
    args = parser.parse_args()
    os.chdir(ROOT)
    result = check_paths([Path("spec/carcassonne")])
    engine = Engine(result.typed)
    engine.recording = True           # the log says when a rampart cannot be placed
    rows = {n: measure(engine, result.program, n, args.games, args.agent) for n in map(int, args.players.split(","))}
    print(f"Carcassonne Die Stadt, {args.agent} players, {args.games} games per row\n")
    print("| players | last rampart | last tile | ends ≤ 5 apart | stuck ramparts (games) | walls built: mean "
          "[min..max] | added at the close: mean | closed in play | closed at the end | no Porte | construction "
          "phases: mean [min..max] | tiles' rows + columns: mean [min..max] | s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n, r in rows.items():
        e, b, c = r["ends"], r["built"], r["closing"]
        print(f"| {n} | {e[ENDS[0]]} | {e[ENDS[1]]} | {e[ENDS[2]]} | {r['stuck']} ({r['stuck games']}) | "
              f"{statistics.mean(b):.1f} [{min(b)}..{max(b)}] | {statistics.mean(c):.1f} | {r['closed in play']} | "
              f"{r['closed at end']} | {r['no gate']} | {statistics.mean(r['phases']):.1f} [{min(r['phases'])}.."
              f"{max(r['phases'])}] | {statistics.mean(r['spans']):.1f} [{min(r['spans'])}..{max(r['spans'])}] | "
              f"{r['seconds']:.0f} |")


if __name__ == "__main__":
    main()
