"""Benchmark of the interpreter on the second game: Carcassonne Die Stadt, random games per second.

Run: python bench/play_carcassonne.py [--games N]
Games are played with the log off (as `rulebook play -q` without --json), by random agents; a move
is a decision an agent is asked to make (two or more options).  Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker.check import check_paths  # noqa: E402
from checker.configurations import select  # noqa: E402
from checker.runtime import Engine, RandomAgent  # noqa: E402

CONFIG = "Jeu de base"


def measure(engine: Engine, program, players: int, games: int) -> dict:
    selection = select(program, program.configurations[CONFIG], players)
    per_game, moves, walls, tiles = [], 0, 0, 0
    for seed in range(games):
        agents = [RandomAgent(seed * 100 + i) for i in range(players)]
        start = time.perf_counter()
        result = engine.play(selection.cards, players, seed, agents)
        per_game.append(time.perf_counter() - start)
        moves += result.moves
        walls += len(engine.st.zones["enceinte"])
        tiles += len(engine.st.zones["posées"])
    total = sum(per_game)
    return {"games/s": games / total, "moves/s": moves / total, "moves/game": moves / games,
            "tiles/game": tiles / games, "ramparts/game": walls / games,
            "median ms/game": statistics.median(per_game) * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    os.chdir(ROOT)
    start = time.perf_counter()
    result = check_paths([Path("spec/carcassonne")])
    engine = Engine(result.typed)
    ready = time.perf_counter() - start
    engine.recording = False
    rows = {n: measure(engine, result.program, n, args.games) for n in (2, 3, 4)}
    print(f"Carcassonne Die Stadt, random games, {args.games} games per row (spec checked and compiled in "
          f"{ready:.1f} s)\n")
    print("| players | games/s | moves/s | moves/game | tiles/game | ramparts/game | median ms/game |")
    print("|---------|---------|---------|------------|------------|---------------|----------------|")
    for n, r in rows.items():
        print(f"| {n:>7} | {r['games/s']:>7.1f} | {r['moves/s']:>7.0f} | {r['moves/game']:>10.0f} | "
              f"{r['tiles/game']:>10.1f} | {r['ramparts/game']:>13.1f} | {r['median ms/game']:>14.1f} |")
    print(f"\npeak resident size of the whole process: "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
