"""Benchmark of `rulebook simulate` and of the parallel conflict search.

    python bench/simulate.py [--games 2000] [--big 10000] [--mc-games 100] [--skip-conflicts]

Prints one table: random games per second on 1 and 2 workers (worker start-up included), the wall
time of a 10,000-game run with the cheapest agent (random) on every core, the Monte-Carlo agent's
win rate against three greedy players (95% Wilson interval, and the number of games), and the wall
time of `rulebook conflicts` on the 4th edition with 1 and 2 workers.  Nothing is asserted: the
machine is shared, so read the numbers with its load (printed too).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)

from checker.check import check_paths  # noqa: E402
from checker.configurations import select  # noqa: E402
from checker.parallel import cores  # noqa: E402
from checker.simulate.games import Job, lineup_of, run_games, spec_files  # noqa: E402
from checker.simulate.stats import wilson  # noqa: E402

SPEC = [Path("spec/citadelles")]
CONFIG = "Première partie"


def job(lineup: tuple[str, ...], playouts: int = 24) -> Job:
    result = check_paths(SPEC)
    selection = select(result.program, result.program.configurations[CONFIG], len(lineup))
    files, roots, digest = spec_files(SPEC)
    return Job(files, roots, tuple((k, tuple(v)) for k, v in selection.cards.items()), len(lineup), lineup,
               playouts=playouts, key=digest)


def timed(games: int, workers: int, lineup: tuple[str, ...], playouts: int = 24) -> tuple[float, list, Job]:
    work = job(lineup, playouts)
    start = time.perf_counter()
    records = run_games(work, games, workers)
    return time.perf_counter() - start, records, work


def conflicts(workers: int) -> float:
    from checker.conflicts_parallel import search_all
    result = check_paths(SPEC)
    start = time.perf_counter()
    search_all(result.typed, SPEC, None, workers)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="random games for the games/s rows")
    parser.add_argument("--big", type=int, default=10_000, help="games of the wall-time row")
    parser.add_argument("--mc-games", type=int, default=100, help="games of the Monte-Carlo row")
    parser.add_argument("--playouts", type=int, default=24)
    parser.add_argument("--skip-conflicts", action="store_true")
    args = parser.parse_args()
    rows = []
    random4 = ("random",) * 4
    for workers in (1, 2):
        seconds, _, _ = timed(args.games, workers, random4)
        rows.append((f"random games, {workers} worker(s)", f"{args.games / seconds:.0f} games/s",
                     f"{args.games} games in {seconds:.1f} s"))
    seconds, records, _ = timed(args.big, cores(), random4)
    rows.append((f"{args.big:,} random games, {cores()} worker(s)", f"{seconds:.1f} s wall",
                 f"{len(records)} games, {sum(r.error is not None for r in records)} failed"))
    lineup = ("montecarlo", "greedy", "greedy", "greedy")
    seconds, records, work = timed(args.mc_games, cores(), lineup, args.playouts)
    played = [r for r in records if r.error is None]
    wins = 0.0
    for r in played:                   # the lineup turns one seat each game
        seat = lineup_of(work, r.index).index("montecarlo")
        wins += 1 / len(r.winners) if seat in r.winners else 0.0
    low, high = wilson(wins, len(played))
    rows.append((f"Monte-Carlo ({args.playouts} playouts) vs 3 greedy", f"{100 * wins / len(played):.1f}% wins",
                 f"95% CI [{100 * low:.1f}%, {100 * high:.1f}%], {len(played)} games, {seconds:.0f} s "
                 f"(even share 25%)"))
    if not args.skip_conflicts:
        for workers in (1, 2):
            rows.append((f"rulebook conflicts, {workers} worker(s)", f"{conflicts(workers):.1f} s wall",
                         "4th edition, every player count"))
    print(f"\nconfiguration \"{CONFIG}\", 4 players; {cores()} core(s); load average before the last row: "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}\n")
    print(f"| {'measure':<42} | {'result':<16} | detail")
    print(f"|{'-' * 44}|{'-' * 18}|{'-' * 50}")
    for measure, result, detail in rows:
        print(f"| {measure:<42} | {result:<16} | {detail}")


if __name__ == "__main__":
    main()
