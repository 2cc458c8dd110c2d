"""Benchmark of the interpreter on the second game: Carcassonne Die Stadt, random games per second.

Run: python bench/play_carcassonne.py [--games N]
Games are played with the log off (as `rulebook play -q` without --json), by random agents; a move
is a decision an agent is asked to make (two or more options).  Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker.front.check import check_paths  # noqa: E402
from checker.runtime import Engine  # noqa: E402
from play import measure  # noqa: E402  (bench/play.py, beside this file)

CONFIG = "Jeu de base"


def _material(engine: Engine) -> dict:
    return {"tiles/game": len(engine.st.zones["posées"]), "ramparts/game": len(engine.st.zones["enceinte"])}


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
    rows = {n: measure(engine, result.program, n, args.games, CONFIG, _material) for n in (2, 3, 4)}
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
