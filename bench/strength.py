"""How strong the built-in players are, on both bundled games (part of `python bench/simulate.py`).

Pairwise tables order the players: one player of a kind against n - 1 of another (greedy + 3 random and
Monte-Carlo + 3 greedy on Citadelles; greedy vs random and Monte-Carlo vs greedy at ``--carc-random-players`` and
``--carc-mc-players`` on Carcassonne), each followed by a verdict row: the order is *shown* when the lone player's
95% interval lies above the even share 1/n and above the other players' interval (:func:`pair_rows`).  A table
of three kinds (Monte-Carlo + greedy + 2 random, ``--cit-mixed-games``) cannot order the two weaker ones when the
strongest wins nearly every game.

Mixed tables: each game turns the lineup one seat (game i puts ``lineup[(s + i) mod n]`` at seat s, as
`rulebook simulate` does), so every agent sits at every seat equally often.  Per agent: the win rate
(a game won by k tied players counts 1/k; 95% Wilson interval) and the mean score (95% normal interval),
over the seats it played.  For Carcassonne also: how each game ended (the spec's `fin`, per end
condition), and the greedy players' mean score before and after the greedy player looked at the game's
ending (``builder``: the first greedy builder, ``GreedyAgent(ending=False)``), on the same seeds and
player counts; a 3-player table of one Monte-Carlo, one greedy and one random player
(``--carc-mixed-games``): the three kinds of player at one table, as Citadelles' Monte-Carlo table; with
``--carc-start-games N``, a table from the game's start for each kind of player in
``--carc-start-agents`` (all-random, all-builder, all-greedy and all-Monte-Carlo by default; ``greedy:aim=E`` and
``montecarlo:aim=E`` aim at the ending E, checker/runtime/aim.py), to count each ending per kind of player, with the
construction phases and the tiles' rows + columns of each game.  And games from a prepared position near the
last-rampart ending (``PREPARED``: the first answers of a kept game, after which the agents play on), where that
ending occurs most often (from the start it takes players aiming at it, and then seldom: docs/simulate.md).
Games are played on every core (``checker.base.parallel``); CPU seconds are summed over the games.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

from checker.base.parallel import ordered_map
from checker.simulate.stats import wilson

SPECS = {"Citadelles": (Path("spec/citadelles"), "Première partie"), "Carcassonne": (Path("spec/carcassonne"), None)}
# A Carcassonne game near its end, kept for tests/test_agent_last_rampart.py: its first ``probe_answers`` answers,
# those of `bench/carcassonne_walls.py --agent waller` (a probe that lays the city out along one row), leave 56
# ramparts standing and 69 tiles laid, 14 ramparts short of the last-rampart ending.
PREPARED = Path("tests/fixtures/carcassonne-dernier-rempart.json")
# The Monte-Carlo players of the prepared position's table: the bench's Carcassonne settings before 2026-11-29b (one
# playout for each of 8 candidates, the rest of the turn), four seats of them being cheap at that; the other tables
# take the --carc-* options
PREPARED_MC = (1, 60, "greedy", 8, "outcome", "turn", 1, None, False)
_engines: dict = {}          # per process: game -> (engine, program)


def _engine(game: str):
    if game not in _engines:
        from checker.front.check import check_paths
        from checker.runtime.engine import Engine
        result = check_paths([SPECS[game][0]])
        engine = Engine(result.typed)
        engine.recording = False
        _engines[game] = (engine, result.program)
    return _engines[game]


def make(name: str, seed: int, mc: tuple):
    """An agent by the bench's names: random, builder (the first greedy), greedy, montecarlo; ``greedy:aim=E``
    (``:weight=W``), the greedy player aiming at the ending E (:mod:`checker.runtime.aim`)."""
    from checker.runtime.agents import GreedyAgent, RandomAgent
    from checker.runtime.montecarlo import MonteCarloAgent
    options: dict = {}
    if ":" in name:
        from checker.runtime.players import parse_agent
        name, options = parse_agent(name)
    if name == "random":
        return RandomAgent(seed)
    if name in ("builder", "greedy"):
        return GreedyAgent(seed, ending=name == "greedy", **options)
    playouts, depth, rollout, candidates, judge, span, turns, later, paired = (
        tuple(mc) + ("wins", "game", 1, None, False)[len(mc) - 4:])
    return MonteCarloAgent(seed, playouts=playouts, depth=depth, rollout=rollout, candidates=candidates,
                           judge=judge, turn=span == "own", next_turn=span == "turn", turns=turns, later=later,
                           paired=paired, **options)


class _Prepared:
    """A seat of a game from a prepared position: the kept answers while they last (one count for every seat),
    then its agent."""

    def __init__(self, answers: list[int], asked: list[int], agent):
        self.answers, self.asked, self.agent = answers, asked, agent
        for name in ("played", "finished", "ends"):         # the Monte-Carlo agent's counts, for the table
            if hasattr(agent, name):
                setattr(self, name, getattr(agent, name))

    def choose(self, decision) -> int:
        k = self.asked[0]
        self.asked[0] += 1
        if k < len(self.answers):
            return self.answers[k]
        index = self.agent.choose(decision)
        for name in ("played", "finished", "ends"):
            if hasattr(self.agent, name):
                setattr(self, name, getattr(self.agent, name))
        return index


def prepared() -> tuple[int, int, list[int]]:
    """The prepared Carcassonne position: (players, engine seed, the probe's answers)."""
    import json
    kept = json.loads(PREPARED.read_text(encoding="utf-8"))
    return kept["players"], kept["seed"], kept["answers"][:kept["probe_answers"]]


def play(task: tuple) -> dict:
    """One game: ``(game, lineup, seed, mc)``, or ``(game, lineup, seed, mc, True)`` from the prepared position
    (the engine seeded as the kept game, the agents by ``seed``); the lineup turned ``seed`` seats."""
    from checker.front.configurations import select
    game, lineup, seed, mc = task[:4]
    engine, program = _engine(game)
    n = len(lineup)
    config = SPECS[game][1]
    configuration = program.configurations[config] if config else next(iter(program.configurations.values()))
    selection = select(program, configuration, n)
    seats = tuple(lineup[(s + seed) % n] for s in range(n))
    if len(mc) > 6 and mc[6] == 0:           # --carc-turns 0: through the player's own next turn
        mc = tuple(mc[:6]) + (n + 1,) + tuple(mc[7:])
    game_seed, answers = seed, None
    if len(task) > 4 and task[4]:
        players, game_seed, answers = prepared()
        assert players == n, f"the prepared position is for {players} players"
    walls = [0]          # Carcassonne: the most ramparts standing at a decision (the Porte included), before the close
    phases: set = set()  # Carcassonne: the turns in which ramparts were laid (a construction phase each)

    def watch(decision) -> None:
        standing = len(engine.st.zones.get("enceinte", ()))
        if standing > walls[0]:
            phases.add(engine.st.turn)
        walls[0] = max(walls[0], standing)

    engine.observer = watch
    start = time.process_time()
    try:
        agents = [make(name, seed * 1000 + s, mc) for s, name in enumerate(seats)]
        if answers is not None:
            asked = [0]
            agents = [_Prepared(answers, asked, a) for a in agents]
        result = engine.play(selection.cards, n, game_seed, agents)
    finally:
        engine.observer = None
    playouts = [(a.played, a.finished, *a.ends) for a in agents if hasattr(a, "ends")]
    towers = engine.st.vars.get("tours")       # Carcassonne: the towers each player has left (12 shared at the start)
    left = span = None                         # Carcassonne: the tiles left (a phase after the last tile may end
    if game == "Carcassonne":                  # the game on « bouts proches » too), the tiles' rows + columns
        engine.invalidate()
        left = engine.quantity("tuiles_restantes", ())
        span = (engine.quantity("bas", ()) - engine.quantity("haut", ()) + engine.quantity("droite", ())
                - engine.quantity("gauche", ()) + 2)
    return {"seats": seats, "scores": [result.scores.get(s, 0) for s in range(n)], "winners": list(result.winners),
            "end": engine.st.vars.get("fin"), "tiles_left": left, "walls": walls[0], "cpu": time.process_time() - start,
            "span": span, "phases": len(phases),
            "towers": 12 // n * n - sum(towers.values()) if isinstance(towers, dict) else 0,
            "playouts": [sum(p[i] for p in playouts) for i in range(4)]}


def run(game: str, lineup: tuple[str, ...], games: int, workers: int, mc, first: int = 0,
        from_prepared: bool = False) -> list[dict]:
    """``games`` games on seeds ``first``, ``first`` + 1, … (from the prepared position: the agents' seeds)"""
    return ordered_map(play, [(game, lineup, seed, mc, from_prepared) for seed in range(first, first + games)],
                       workers)


def per_agent(records: list[dict]) -> dict[str, dict]:
    """Per agent: seats played, win credit, win rate and interval, mean score and interval."""
    out: dict[str, dict] = {}
    for r in records:
        for seat, name in enumerate(r["seats"]):
            row = out.setdefault(name, {"seats": 0, "wins": 0.0, "scores": []})
            row["seats"] += 1
            row["wins"] += 1 / len(r["winners"]) if seat in r["winners"] else 0.0
            row["scores"].append(r["scores"][seat])
    for row in out.values():
        row["rate"] = row["wins"] / row["seats"]
        row["interval"] = wilson(row["wins"], row["seats"])
        row["mean"], row["half"] = mean_interval(row["scores"])
    return out


def mean_interval(values: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% normal interval (0 with fewer than two values)."""
    n = len(values)
    mean = sum(values) / n if n else 0.0
    if n < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def _shown(rows: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The rows, printed to stderr at once too (a long run shows each table as it ends)."""
    for row in rows:
        print(" | ".join(row), file=sys.stderr, flush=True)
    return rows


def table_rows(title: str, records: list[dict]) -> list[tuple[str, str, str]]:
    rows = []
    cpu = sum(r["cpu"] for r in records)
    for name, row in sorted(per_agent(records).items(), key=lambda kv: -kv[1]["rate"]):
        low, high = row["interval"]
        rows.append((f"{title}: {name}", f"{100 * row['rate']:.1f}% wins",
                     f"[{100 * low:.1f}%, {100 * high:.1f}%] over {row['seats']} seats; mean score "
                     f"{row['mean']:.1f} ± {row['half']:.1f}"))
    ended = f"; ends: {_ends(ends(records), every=True)}" if any(r["end"] for r in records) else ""
    played, finished, reach, chosen = (sum(r["playouts"][i] for r in records) for i in range(4))
    if played:
        ended += (f"; Monte-Carlo: {played} playouts, {finished} reached the end of the game; the end in reach "
                  f"(some options' playouts ended the game, others' did not) at {reach} decisions, an option "
                  f"that ended it taken at {chosen}")
    rows.append((f"{title}: games", f"{len(records)} games",
                 f"{cpu:.0f} s CPU in all ({cpu / len(records):.1f} s a game){ended}"))
    return _shown(rows)


def pair_rows(game: str, a: str, b: str, n: int, records: list[dict], label: str = "",
              note: str = "") -> list[tuple[str, str, str]]:
    """A pairwise table: one ``a`` and ``n`` - 1 ``b`` players, the lineup turned a seat a game (so, over a multiple
    of ``n`` games, ``a`` sat at every seat equally often).  Its rows (:func:`table_rows`) and the verdict: ``a``
    is shown stronger when the low end of its 95% interval is above the even share 1/n and above the high end of
    ``b``'s interval (over b's seats); weaker, the other way round; otherwise not shown."""
    title = f"{game} {n}p, {label or a} vs {f'{n - 1} ' if n > 2 else ''}{b}{note}"
    rows = table_rows(title, records)
    table = per_agent(records)
    (a_low, a_high), (b_low, b_high) = table[a]["interval"], table[b]["interval"]
    even = 1 / n
    if a_low > even and a_low > b_high:
        verdict = f"{a} > {b} shown"
    elif a_high < even and a_high < b_low:
        verdict = f"{a} < {b} shown"
    else:
        verdict = "order not shown"
    rows += _shown([(f"{title}: order", verdict,
                     f"{a} {100 * table[a]['rate']:.1f}% [{100 * a_low:.1f}, {100 * a_high:.1f}], {b} "
                     f"{100 * table[b]['rate']:.1f}% [{100 * b_low:.1f}, {100 * b_high:.1f}], even share "
                     f"{100 * even:.1f}%; mean score {table[a]['mean'] - table[b]['mean']:+.1f} for {a}")])
    return rows


def _mc_label(args) -> str:
    """The Carcassonne Monte-Carlo settings, for a table's title."""
    turns = "players + 1" if args.carc_turns == 0 else args.carc_turns
    span = args.carc_span if args.carc_span != "turn" or args.carc_turns == 1 else f"{turns} turns"
    later = f" then {args.carc_later}" if args.carc_later else ""
    return (f"MC({args.carc_playouts} playouts, {args.carc_candidates} candidates, depth {args.carc_depth}, "
            f"{args.carc_rollout}{later}, {args.carc_judge}, {span}{', paired' if args.carc_paired else ''})")


def _counts(text) -> list[int]:
    """Player counts from ``"2,4"`` (or one int)."""
    return [int(x) for x in str(text).split(",") if x.strip()]


def ends(records: list[dict]) -> dict:
    counts: dict = {}
    for r in records:
        counts[r["end"]] = counts.get(r["end"], 0) + 1
    return counts


def strength(args, workers: int) -> list[tuple[str, str, str]]:
    """The rows of the agents' section (see the module's docstring)."""
    rows: list[tuple[str, str, str]] = []
    mc_cit = (args.playouts, 300, "builder", 12)
    mc_carc = (args.carc_playouts, args.carc_depth, args.carc_rollout, args.carc_candidates, args.carc_judge,
               args.carc_span, args.carc_turns, args.carc_later, args.carc_paired)
    if args.cit_games > 0:
        rows += pair_rows("Citadelles", "greedy", "random", 4, run("Citadelles", ("greedy", "random", "random", "random"),
                                                                    args.cit_games, workers, mc_cit))
        rows += pair_rows("Citadelles", "builder", "random", 4,
                          run("Citadelles", ("builder", "random", "random", "random"), args.cit_games, workers, mc_cit))
    if args.cit_mc_games > 0:
        rows += pair_rows("Citadelles", "montecarlo", "greedy", 4,
                          run("Citadelles", ("montecarlo", "greedy", "greedy", "greedy"), args.cit_mc_games, workers,
                              mc_cit), f"MC({args.playouts})")
    if args.cit_mixed_games > 0:
        rows += table_rows(f"Citadelles 4p, MC({args.playouts}) + greedy + 2 random",
                           run("Citadelles", ("montecarlo", "greedy", "random", "random"), args.cit_mixed_games,
                               workers, mc_cit))
    improved: list[dict] = []
    if args.carc_games > 0:
        for n in _counts(args.carc_random_players):
            records = run("Carcassonne", ("greedy",) + ("random",) * (n - 1), args.carc_games, workers, mc_carc)
            improved += records
            rows += pair_rows("Carcassonne", "greedy", "random", n, records)
    if args.carc_mc_games > 0:
        first = args.carc_mc_first_seed
        for n in _counts(args.carc_mc_players):
            records = run("Carcassonne", ("montecarlo",) + ("greedy",) * (n - 1), args.carc_mc_games, workers,
                          mc_carc, first)
            improved += records
            rows += pair_rows("Carcassonne", "montecarlo", "greedy", n, records,
                              _mc_label(args), f", seeds {first}-{first + args.carc_mc_games - 1}")
    if args.carc_mixed_games > 0:
        records = run("Carcassonne", ("montecarlo", "greedy", "random"), args.carc_mixed_games, workers, mc_carc)
        improved += records
        rows += table_rows(f"Carcassonne 3p, MC({args.carc_playouts} a candidate, {args.carc_candidates} candidates, "
                           f"depth {args.carc_depth}, {args.carc_rollout}, {args.carc_judge}, {args.carc_span}) "
                           f"+ greedy + random, seeds 0-{args.carc_mixed_games - 1}", records)
    if args.carc_seeds > 0:
        for players in (2, 3, 4):
            before = run("Carcassonne", ("builder",) * players, args.carc_seeds, workers, mc_carc)
            after = run("Carcassonne", ("greedy",) * players, args.carc_seeds, workers, mc_carc)
            improved += after
            old, old_half = mean_interval([s for r in before for s in r["scores"]])
            new, new_half = mean_interval([s for r in after for s in r["scores"]])
            rows += _shown([(f"Carcassonne {players}p, all greedy: mean score", f"{old:.1f} -> {new:.1f}",
                         f"before ± {old_half:.1f}, after ± {new_half:.1f}; seeds 0-{args.carc_seeds - 1}; "
                         f"ends before {_ends(ends(before))}; after {_ends(ends(after))}; towers placed before "
                         f"{sum(r['towers'] for r in before)}, after {sum(r['towers'] for r in after)}; "
                         f"{sum(r['cpu'] for r in after) / len(after):.1f} s CPU a game after")])
    for players in _counts(args.carc_mc_players) if args.carc_start_games > 0 else ():
        for name in args.carc_start_agents.split(","):
            records = run("Carcassonne", (name,) * players, args.carc_start_games, workers, mc_carc)
            if name.split(":")[0] in ("greedy", "montecarlo"):
                improved += records
            rows += table_rows(f"Carcassonne {players}p from the game's start, all {name}, "
                               f"seeds 0-{args.carc_start_games - 1}", records)
            rows += _shown([(f"Carcassonne {players}p from the game's start, all {name}: the city", "",
                             f"construction phases {_spread([r['phases'] for r in records])}; ramparts standing "
                             f"{_spread([r['walls'] for r in records])}; tiles' rows + columns "
                             f"{_spread([r['span'] for r in records])}")])
    if args.carc_prepared_games > 0:
        players = prepared()[0]
        for name in ("montecarlo", "greedy"):
            records = run("Carcassonne", (name,) * players, args.carc_prepared_games, workers, PREPARED_MC,
                          from_prepared=True)
            improved += records
            rows += table_rows(f"Carcassonne {players}p from {PREPARED.name} (56 ramparts, 69 tiles), all {name}, "
                               f"agents' seeds 0-{args.carc_prepared_games - 1}", records)
    if improved:
        walls = [r["walls"] for r in improved]
        rows += _shown([("Carcassonne: how the games with greedy/MC players ended", f"{len(improved)} games",
                         f"{_ends(ends(improved), every=True)}; ramparts standing in play (Porte included): mean "
                         f"{sum(walls) / len(walls):.1f}, most {max(walls)} of 71; « bouts proches » with tiles "
                         f"left {sum(r['end'] == 'bouts_proches' and bool(r['tiles_left']) for r in improved)}; "
                         f"towers placed "
                         f"{sum(r['towers'] for r in improved)} (in {sum(r['towers'] > 0 for r in improved)} games)")])
    return rows


def _spread(values: list) -> str:
    """``mean [min..max]``."""
    return f"{sum(values) / len(values):.1f} [{min(values)}..{max(values)}]" if values else "-"


END_CONDITIONS = ("dernier_rempart_posé", "dernière_tuile_posée", "bouts_proches")


def _ends(counts: dict, every: bool = False) -> str:
    names = list(END_CONDITIONS) if every else [k for k in END_CONDITIONS if k in counts]
    names += [k for k in counts if k not in END_CONDITIONS]
    return ", ".join(f"{k} {counts.get(k, 0)}" for k in names)


def add_arguments(parser) -> None:
    group = parser.add_argument_group("agents' strength (both games)")
    group.add_argument("--cit-games", type=int, default=1000, help="Citadelles games of each greedy-vs-random table")
    group.add_argument("--cit-mc-games", type=int, default=40,
                       help="Citadelles games, one Monte-Carlo seat against 3 greedy players")
    group.add_argument("--cit-mixed-games", type=int, default=0,
                       help="Citadelles games, Monte-Carlo + greedy + 2 random (the former table: the Monte-Carlo seat "
                            "wins most games, so it cannot order the other two)")
    group.add_argument("--carc-games", type=int, default=8,
                       help="Carcassonne games of each greedy-vs-random table (one greedy seat, the others random)")
    group.add_argument("--carc-random-players", default="2,4", metavar="COUNTS",
                       help="player counts of the greedy-vs-random tables, comma-separated (default 2,4)")
    group.add_argument("--carc-mc-games", type=int, default=24,
                       help="Carcassonne games of each Monte-Carlo table (one Monte-Carlo seat, the others greedy)")
    group.add_argument("--carc-mixed-games", type=int, default=0,
                       help="Carcassonne games at 3 players, Monte-Carlo + greedy + random (3: each agent at every "
                            "seat once)")
    group.add_argument("--carc-seeds", type=int, default=2,
                       help="seeds of the all-greedy Carcassonne tables at 2, 3 and 4 players (before/after)")
    group.add_argument("--carc-start-games", type=int, default=0,
                       help="Carcassonne games from the game's start at --carc-mc-players players, one table a kind "
                            "of player (all random, all builder, all greedy, all Monte-Carlo): how each ends")
    group.add_argument("--carc-start-agents", default="random,builder,greedy,montecarlo", metavar="AGENTS",
                       help="the kinds of player of the --carc-start-games tables, comma-separated (greedy:aim=E, "
                            "montecarlo:aim=E: aiming at the ending E; default random,builder,greedy,montecarlo)")
    group.add_argument("--carc-prepared-games", type=int, default=2,
                       help="Carcassonne games from the prepared position near the last-rampart ending, all "
                            "Monte-Carlo and all greedy players (their agents' seeds 0, 1, …); the Monte-Carlo "
                            "players with the former settings (PREPARED_MC), whatever the --carc-* options")
    group.add_argument("--carc-mc-first-seed", type=int, default=0,
                       help="the Monte-Carlo table's first seed (default 0): its games play seeds N, N+1, …")
    group.add_argument("--carc-mc-players", default="2", metavar="COUNTS",
                       help="player counts of the Monte-Carlo tables (1 Monte-Carlo, the others greedy) and of the "
                            "--carc-start-games tables, comma-separated (default 2; 4 as well costs about as much "
                            "again at 2,4 --carc-turns 1 --carc-playouts 1, and 5 turns a playout at 4 players more)")
    group.add_argument("--carc-playouts", type=int, default=16, help="at least one a candidate (default 16: two "
                       "futures for each of 8 candidates)")
    group.add_argument("--carc-depth", type=int, default=60)
    group.add_argument("--carc-candidates", type=int, default=8)
    group.add_argument("--carc-rollout", choices=("builder", "greedy", "random"), default="greedy")
    group.add_argument("--carc-judge", choices=("wins", "margin", "outcome"), default="outcome",
                       help="what a Carcassonne playout is worth to the Monte-Carlo agent")
    group.add_argument("--carc-span", choices=("own", "turn", "game"), default="turn",
                       help="how far a Carcassonne playout goes before its depth: the player's own decisions "
                            "(own), the rest of the game's turn, every player's decisions in it (turn, the "
                            "default), or on through the other players' turns (game)")
    group.add_argument("--carc-turns", type=int, default=0,
                       help="with --carc-span turn: the turns a playout plays (1: the rest of the current one; "
                            "players + 1, or 0, the default: through the others' turns and the player's own next one)")
    group.add_argument("--carc-later", choices=("builder", "greedy", "random"), default="builder",
                       help="the rollout of the turns after the current one (default: builder, the first greedy "
                            "builder; the same as --carc-rollout: one policy throughout)")
    group.add_argument("--carc-paired", action=argparse.BooleanOptionalAction, default=True,
                       help="the k-th playout of every option on the same future (hidden cards dealt alike)")
    group.add_argument("--skip-strength", action="store_true")
