"""The statistics of a simulation: win rates with Wilson intervals, game lengths, and the comparison
of two rule sets (two-proportion z-tests and Welch tests, Holm–Bonferroni corrected).

A *win* is credited per game and player: 1 to the only winner, 1/k to each of k players still tied
after the tiebreak, 0 to the others; a win rate is the credited wins over the trials.  The trials are
games (per seat), seats played (per agent), or players who had a card (per card: see
:mod:`checker.simulate.games`).
"""

from __future__ import annotations

import math
from typing import Iterable

__all__ = ["Z95", "wilson", "two_proportion_p", "welch_p", "holm", "summarize", "compare", "FORMAT"]

FORMAT = "rulebook-simulation/1"
Z95 = 1.959963984540054
INTERVAL = "95% Wilson score interval"
TEST = ("two-sided two-proportion z-test (pooled) for win rates, Welch's z-test for mean lengths; "
        "p-values adjusted by Holm–Bonferroni over every comparison shown")


def wilson(wins: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``wins`` may be fractional: shared wins).

    >>> [round(x, 3) for x in wilson(25, 100)]
    [0.175, 0.343]
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = wins / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p) / trials + z * z / (4 * trials * trials))) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _normal_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportion_p(w1: float, n1: int, w2: float, n2: int) -> float:
    """Two-sided p-value that two proportions are equal (pooled z-test; 1.0 when it cannot tell).

    >>> round(two_proportion_p(50, 100, 70, 100), 4)
    0.0039
    """
    if n1 <= 0 or n2 <= 0:
        return 1.0
    pooled = (w1 + w2) / (n1 + n2)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if spread == 0:
        return 1.0
    return _normal_p((w1 / n1 - w2 / n2) / spread)


def welch_p(m1: float, v1: float, n1: int, m2: float, v2: float, n2: int) -> float:
    """Two-sided p-value that two means are equal (Welch's statistic, normal for large samples)."""
    if n1 <= 1 or n2 <= 1:
        return 1.0
    spread = math.sqrt(v1 / n1 + v2 / n2)
    if spread == 0:
        return 1.0 if m1 == m2 else 0.0
    return _normal_p((m1 - m2) / spread)


def holm(pvalues: list[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the order given.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return [round(p, 12) for p in adjusted]


def _rate(category: str, name: str, wins: float, trials: int, **more) -> dict:
    low, high = wilson(wins, trials)
    return {"category": category, "name": name, "trials": trials, "wins": round(wins, 6),
            "rate": wins / trials if trials else None, "low": low, "high": high, **more}


def _length(values: list[int]) -> dict:
    n = len(values)
    mean = sum(values) / n if n else 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(variance / n) if n else 0.0
    return {"mean": mean, "sd": math.sqrt(variance), "low": mean - half, "high": mean + half, "n": n}


def summarize(meta: dict, records: Iterable, kinds: list[tuple[str, str, list[str]]], seat_names: list[str]) -> dict:
    """The summary of a run: ``meta`` (what was simulated) and the statistics of ``records``.
    ``kinds``: (kind, its controller quantity, its selected cards in the job's order) per tracked kind."""
    records = list(records)
    played = [r for r in records if r.error is None]
    players = meta["players"]
    from checker.simulate.games import lineup_of
    seat_wins = [0.0] * players
    agent_wins: dict[str, float] = {}
    agent_trials: dict[str, int] = {}
    order = [name for _kind, _controller, names in kinds for name in names]
    position = {name: i for i, name in enumerate(meta["tracked"])}
    card_wins = {name: 0.0 for name in order}
    card_trials = {name: 0 for name in order}
    card_games = {name: 0 for name in order}
    card_undetermined = {name: 0 for name in order}
    job = meta["job"]
    for r in played:
        share = 1 / len(r.winners) if r.winners else 0.0
        for seat in r.winners:
            seat_wins[seat] += share
        for seat, agent in enumerate(lineup_of(job, r.index)):
            agent_trials[agent] = agent_trials.get(agent, 0) + 1
            agent_wins[agent] = agent_wins.get(agent, 0.0) + (share if seat in r.winners else 0.0)
        for name in order:
            i = position[name]
            mask = r.had[i]
            card_undetermined[name] += r.undetermined[i]
            if mask:
                card_games[name] += 1
                for seat in range(players):
                    if mask >> seat & 1:
                        card_trials[name] += 1
                        if seat in r.winners:
                            card_wins[name] += share
    rates = [_rate("seat", seat_names[s], seat_wins[s], len(played)) for s in range(players)]
    rates += [_rate("agent", a, agent_wins[a], agent_trials[a]) for a in dict.fromkeys(job.lineup)
              if a in agent_trials]
    for kind, controller, names in kinds:
        rates += [_rate(kind, name, card_wins[name], card_trials[name], games=card_games[name],
                        undetermined=card_undetermined[name], controller=controller) for name in names]
    failures = [r for r in records if r.error is not None]
    summary = {k: v for k, v in meta.items() if k not in ("job", "tracked")}
    summary.update({
        "format": FORMAT, "played": len(played), "interval": INTERVAL,
        "length": {"rounds": _length([r.rounds for r in played]), "moves": _length([r.moves for r in played]),
                   "decisions": _length([r.decisions for r in played])},
        "rates": rates,
        "failed": len(failures),
        "failures": [{"game": r.index, "seed": meta["seed"] + r.index, "error": r.error} for r in failures[:20]],
    })
    return summary


def compare(a: dict, b: dict, alpha: float = 0.05) -> dict:
    """Every win rate and mean length of two summaries side by side, with the test's p-value, its
    Holm–Bonferroni adjustment, and whether the difference is significant at ``alpha``."""
    rows = []
    theirs = {(r["category"], r["name"]): r for r in b["rates"]}
    for mine in a["rates"]:
        other = theirs.get((mine["category"], mine["name"]))
        if other is None or not mine["trials"] or not other["trials"]:
            continue
        rows.append({"category": mine["category"], "name": mine["name"], "a": mine["rate"], "b": other["rate"],
                     "difference": other["rate"] - mine["rate"],
                     "p": two_proportion_p(mine["wins"], mine["trials"], other["wins"], other["trials"])})
    ours = {(r["category"], r["name"]) for r in a["rates"]}
    alone = [{"category": r["category"], "name": r["name"], "a": None, "b": r["rate"], "difference": None,
              "p": None, "p_adjusted": None, "significant": False}
             for r in b["rates"] if (r["category"], r["name"]) not in ours]
    for name in ("rounds", "moves"):
        x, y = a["length"][name], b["length"][name]
        rows.append({"category": "length", "name": name, "a": x["mean"], "b": y["mean"],
                     "difference": y["mean"] - x["mean"],
                     "p": welch_p(x["mean"], x["sd"] ** 2, x["n"], y["mean"], y["sd"] ** 2, y["n"])})
    for row, adjusted in zip(rows, holm([r["p"] for r in rows])):
        row["p_adjusted"] = adjusted
        row["significant"] = adjusted < alpha
    return {"test": TEST, "alpha": alpha, "rows": rows, "only_b": alone,
            "significant": sum(r["significant"] for r in rows), "compared": len(rows)}
