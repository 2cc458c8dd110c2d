"""Benchmark of `rulebook simulate` and of the parallel conflict search.

    python bench/simulate.py [--games 2000] [--big 10000] [--mc-games 100] [--skip-conflicts]
    (--big 0 and --mc-games 0 leave those rows out)
    python bench/simulate.py --only-strength [--cit-games 1000] [--carc-games 8] …   (the agents' rows only)
    python bench/simulate.py --only-strength --cit-games 0 --cit-mc-games 0 --carc-games 0 --carc-mc-games 0
        --carc-seeds 0 --carc-prepared-games 0 --carc-start-games 8 --carc-mc-players 4
    (how Carcassonne's games end from the start, per kind of player: all random, builder, greedy, Monte-Carlo)
    ... --carc-start-games 8 --carc-mc-players 4 --carc-start-agents greedy,greedy:aim=dernier_rempart_posé
    (the same with players aiming at the last-rampart ending: checker/runtime/aim.py)
    ... --carc-mixed-games 3      (Carcassonne at 3 players: Monte-Carlo + greedy + random, each at every seat once)
    python bench/simulate.py --only-strength --cit-games 0 --cit-mc-games 0 --carc-games 0 --carc-seeds 0
        --carc-prepared-games 0
    (Monte-Carlo vs greedy at 2 players, 24 games: its playouts over its own next turn on common futures, the default)
    ... --carc-mc-games 16 --carc-mc-players 2,4 --carc-playouts 1 --carc-turns 1 --no-carc-paired
    (the former, cheaper Monte-Carlo settings: the rest of the current turn, one playout a candidate; at 4 players too)

Prints one table: random games per second on 1 and 2 workers (worker start-up included), the wall
time of a 10,000-game run with the cheapest agent (random) on every core, the Monte-Carlo agent's
win rate against three greedy players (95% Wilson interval, and the number of games), and the wall
time of `rulebook conflicts` on the 4th edition with 1 and 2 workers, and the CPU time of each of the
two workers' shares of the search.  Then the agents' strength on both games (bench/strength.py: win rates
and mean scores per agent on pairwise tables, one player against n - 1 of another kind, each with a verdict row
that says whether the order is shown (the 95% intervals apart), how Carcassonne's games end, and the greedy players' mean
score before and after they looked at the game's ending).  Nothing is asserted: the machine is shared, so read the numbers
with its load (printed too): on a loaded machine the CPU times say more than the wall times.
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
os.chdir(ROOT)

from checker.front.check import check_paths  # noqa: E402
from checker.front.configurations import select  # noqa: E402
from checker.base.parallel import cores  # noqa: E402
from checker.simulate.games import Job, lineup_of, run_games, spec_files  # noqa: E402
from checker.simulate.stats import wilson  # noqa: E402
from bench import strength  # noqa: E402

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


def conflicts(workers: int) -> tuple[float, float]:
    """Wall seconds of the search on ``workers`` processes, and the CPU seconds of its children."""
    from checker.conflicts.parallel import search_all
    result = check_paths(SPEC)
    cpu = _children_cpu() + time.process_time()
    start = time.perf_counter()
    search_all(result.typed, SPEC, None, workers)
    return time.perf_counter() - start, _children_cpu() + time.process_time() - cpu


def conflict_shards(workers: int) -> list[float]:
    """CPU seconds of each worker's share of the search (spec checked again included), run one after
    the other in this process: on an idle machine with that many cores, the longest is the wall time."""
    from checker.conflicts.parallel import _shard
    out = []
    for k in range(workers):
        start = time.process_time()
        _shard((tuple(map(str, SPEC)), None, k, workers, ("contradictions", "competing_values", "order_dependence",
                                                          "dead_rules", "dangling")))
        out.append(time.process_time() - start)
    return out


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def monte_carlo(games: int, playouts: int) -> tuple[str, str, str]:
    """The Monte-Carlo agent against three greedy players, its seat turned each game."""
    lineup = ("montecarlo", "greedy", "greedy", "greedy")
    seconds, records, work = timed(games, cores(), lineup, playouts)
    played = [r for r in records if r.error is None]
    wins = 0.0
    for r in played:
        seat = lineup_of(work, r.index).index("montecarlo")
        wins += 1 / len(r.winners) if seat in r.winners else 0.0
    low, high = wilson(wins, len(played))
    return (f"Monte-Carlo ({playouts} playouts) vs 3 greedy", f"{100 * wins / len(played):.1f}% wins",
            f"95% CI [{100 * low:.1f}%, {100 * high:.1f}%], {len(played)} games, {seconds:.0f} s (even share 25%)")


def arguments() -> argparse.ArgumentParser:
    """The command's options (the agents' strength's from bench/strength.py)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="random games for the games/s rows")
    parser.add_argument("--big", type=int, default=10_000, help="games of the wall-time row")
    parser.add_argument("--mc-games", type=int, default=100, help="games of the Monte-Carlo row")
    parser.add_argument("--playouts", type=int, default=24)
    parser.add_argument("--skip-conflicts", action="store_true")
    parser.add_argument("--only-strength", action="store_true", help="only the agents' strength rows")
    strength.add_arguments(parser)
    return parser


def main() -> None:
    args = arguments().parse_args()
    rows = []
    random4 = ("random",) * 4
    if args.only_strength:
        args.games = args.big = args.mc_games = 0
        args.skip_conflicts = True
    for workers in (1, 2) if args.games > 0 else ():
        cpu, own = _children_cpu(), time.process_time()
        seconds, _, _ = timed(args.games, workers, random4)
        cpu = _children_cpu() - cpu + time.process_time() - own
        rows.append((f"random games, {workers} worker(s)", f"{args.games / seconds:.0f} games/s",
                     f"{args.games} games in {seconds:.1f} s wall, {cpu:.1f} s CPU in all"))
    if args.big > 0:
        cpu = _children_cpu()
        seconds, records, _ = timed(args.big, cores(), random4)
        rows.append((f"{args.big:,} random games, {cores()} worker(s)", f"{seconds:.1f} s wall",
                     f"{len(records)} games, {sum(r.error is not None for r in records)} failed; "
                     f"{_children_cpu() - cpu:.1f} s CPU in all"))
    if args.mc_games > 0:
        rows.append(monte_carlo(args.mc_games, args.playouts))
    if not args.skip_conflicts:
        for workers in (1, 2):
            wall, cpu = conflicts(workers)
            rows.append((f"rulebook conflicts, {workers} worker(s)", f"{wall:.1f} s wall",
                         f"4th edition, every player count; {cpu:.1f} s CPU in all"))
        shards = conflict_shards(2)
        rows.append(("conflicts: CPU of each of 2 shards", " + ".join(f"{x:.1f} s" for x in shards),
                     f"one after the other; idle 2-core wall ≈ {max(shards):.1f} s (the longest)"))
    if not args.skip_strength:
        start = time.perf_counter()
        rows += strength.strength(args, cores())
        rows.append(("agents' strength: wall time", f"{time.perf_counter() - start:.0f} s", f"{cores()} worker(s)"))
    print(f"\nconfiguration \"{CONFIG}\", 4 players; {cores()} core(s); load average before the last row: "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}\n")
    width = max([42] + [len(measure) for measure, _, _ in rows])
    print(f"| {'measure':<{width}} | {'result':<16} | detail")
    print(f"|{'-' * (width + 2)}|{'-' * 18}|{'-' * 50}")
    for measure, result, detail in rows:
        print(f"| {measure:<{width}} | {result:<16} | {detail}")


if __name__ == "__main__":
    main()
