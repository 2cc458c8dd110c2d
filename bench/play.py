"""Benchmark of the interpreter: random games per second and moves per second.

Run: python bench/play.py [--games N]
A move is a decision an agent is asked to make (two or more options); forced steps are
counted apart.  Speeds are given by wall-clock time and by CPU time (the process's), side by side.  The issue's goal: at least twice a hand-written Python engine's ~23,000
random moves/s on this machine class, i.e. 46,000 moves/s.  Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker.front.check import check_paths  # noqa: E402
from checker.front.configurations import select  # noqa: E402
from checker.runtime import Engine, RandomAgent  # noqa: E402

CONFIG = "Violente"   # the configuration with the most interactions (assassin, thief, warlord, taxes)


def measure(engine: Engine, program, players: int, games: int, config: str = CONFIG, counts=None) -> dict:
    """Seeded random games of ``config``: speeds, and the per-game mean of each count ``counts(engine)``
    gives after a game (a dict of name -> number; not timed)."""
    selection = select(program, program.configurations[config], players)
    per_game, cpu, moves, decisions, counted = [], 0.0, 0, 0, {}
    for seed in range(games):
        agents = [RandomAgent(seed * 100 + i) for i in range(players)]
        start, start_cpu = time.perf_counter(), time.process_time()
        result = engine.play(selection.cards, players, seed, agents)
        per_game.append(time.perf_counter() - start)
        cpu += time.process_time() - start_cpu
        moves += result.moves
        decisions += result.decisions
        for name, n in (counts(engine) if counts else {}).items():
            counted[name] = counted.get(name, 0) + n
    total = sum(per_game)
    return {"games/s": games / total, "CPU games/s": games / cpu, "CPU µs/step": cpu / decisions * 1e6, "moves/s": moves / total, "steps/s": decisions / total,
            "moves/game": moves / games, "median ms/game": statistics.median(per_game) * 1000,
            **{name: n / games for name, n in counted.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    os.chdir(ROOT)
    result = check_paths([Path("spec/citadelles")])
    engine = Engine(result.typed)
    engine.recording = False
    rows = {n: measure(engine, result.program, n, args.games) for n in (4, 6)}
    tracemalloc.start()
    measure(engine, result.program, 6, 3)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"random games, configuration \"{CONFIG}\", {args.games} games per row (goal: 46,000 moves/s)\n")
    print("| players |  games/s | CPU games/s |  moves/s |  steps/s | CPU µs/step | moves/game | median ms/game |")
    print("|---------|----------|-------------|----------|----------|-------------|------------|----------------|")
    for n, r in rows.items():
        print(f"| {n:>7} | {r['games/s']:>8.1f} | {r['CPU games/s']:>11.1f} | {r['moves/s']:>8.0f} | "
              f"{r['steps/s']:>8.0f} | {r['CPU µs/step']:>11.1f} | {r['moves/game']:>10.0f} | "
              f"{r['median ms/game']:>14.1f} |")
    print(f"\npeak Python memory allocated while playing 3 games with 6 players (engine already built): "
          f"{peak / 2**20:.1f} MiB; peak resident size of the whole process: "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
