"""The results of a simulation as a person reads them (tables) and as CSV."""

from __future__ import annotations

import csv
import io

__all__ = ["text_report", "comparison_report", "csv_text"]


def _percent(x) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def _title(summary: dict) -> list[str]:
    seeds = f"seeds {summary['seed']}–{summary['seed'] + summary['games'] - 1}"
    failed = f"; {summary['failed']} stopped on an error of the spec" if summary["failed"] else ""
    return [f"{summary['game']} — {' '.join(summary['spec'])}, configuration \"{summary['configuration']}\", "
            f"{summary['players']} players",
            f"{summary['games']} games ({seeds}){failed}; agents by seat: {', '.join(summary['lineup'])} "
            f"(turned one seat each game)"]


def _length_line(summary: dict) -> str:
    length = summary["length"]
    return (f"game length: {length['rounds']['mean']:.2f} rounds (sd {length['rounds']['sd']:.2f}), "
            f"{length['moves']['mean']:.1f} moves asked of an agent, {length['decisions']['mean']:.1f} "
            f"decision points in all (forced ones included)")


def text_report(summary: dict) -> str:
    """The tables of one rule set's win rates and game length."""
    lines = _title(summary) + ["", f"win rates, {summary['interval']}; a game won by k players tied after the "
                                   f"tiebreak credits each 1/k", ""]
    width = max(24, *(len(r["name"]) + 2 for r in summary["rates"]))
    current = None
    for r in summary["rates"]:
        if r["category"] != current:
            current = r["category"]
            if current == "seat":
                head, count = "by seat", "games"
            elif current == "agent":
                head, count = "by agent", "seats"
            else:
                head, count = (f"by {current} (players who had it: {r['controller']} named them at the start "
                               f"of a round or at the end)", "players")
            games = "games" if current not in ("seat", "agent") else ""
            lines += [head, f"  {'':<{width}} {count:>8} {games:>7} {'win rate':>9}   interval"]
        games = f"{r['games']:>7}" if "games" in r else f"{'':>7}"
        extra = f"   ({r['undetermined']} samples undetermined)" if r.get("undetermined") else ""
        lines.append(f"  {r['name']:<{width}} {r['trials']:>8} {games} {_percent(r['rate']):>9}   "
                     f"[{_percent(r['low'])}, {_percent(r['high'])}]{extra}")
    lines += ["", _length_line(summary)]
    for failure in summary["failures"]:
        lines.append(f"game {failure['game']} (seed {failure['seed']}) stopped: {failure['error']}")
    return "\n".join(lines) + "\n"


def comparison_report(a: dict, b: dict, comparison: dict) -> str:
    """The two rule sets side by side: each rate, the difference, its adjusted p-value, and a mark
    where the difference is significant."""
    lines = ["A: " + "\n   ".join(_title(a)), "B: " + "\n   ".join(_title(b)), "",
             f"A: {_length_line(a)}", f"B: {_length_line(b)}", "",
             f"test: {comparison['test']}; * = significant at α = {comparison['alpha']}", ""]
    width = max(24, *(len(r["name"]) + 2 for r in comparison["rows"]))
    lines.append(f"  {'':<{width}} {'A':>9} {'B':>9} {'B − A':>9} {'p (Holm)':>10}")
    current = None
    for r in comparison["rows"]:
        if r["category"] != current:
            current = r["category"]
            lines.append(f"{current}")
        if current == "length":
            shown = [f"{r['a']:.2f}", f"{r['b']:.2f}", f"{r['difference']:+.2f}"]
        else:
            shown = [_percent(r["a"]), _percent(r["b"]), f"{100 * r['difference']:+.1f}"]
        lines.append(f"  {r['name']:<{width}} {shown[0]:>9} {shown[1]:>9} {shown[2]:>9} "
                     f"{r['p_adjusted']:>10.4f}{' *' if r['significant'] else ''}")
    for r in comparison["only_b"]:
        lines.append(f"  {r['name']} ({r['category']}) is only in B: win rate {_percent(r['b'])}")
    lines += ["", f"{comparison['significant']} of {comparison['compared']} differences are significant "
                  f"(α = {comparison['alpha']}, Holm–Bonferroni)"]
    return "\n".join(lines) + "\n"


def csv_text(summary: dict, other: dict | None = None, comparison: dict | None = None) -> str:
    """One row per win rate (category, name, trials, wins, rate, interval); with a second rule set, one
    row per compared quantity with both values and the test."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if comparison is None:
        writer.writerow(["category", "name", "trials", "wins", "win_rate", "ci_low", "ci_high", "games",
                         "undetermined"])
        for r in summary["rates"]:
            writer.writerow([r["category"], r["name"], r["trials"], r["wins"], r["rate"], r["low"], r["high"],
                             r.get("games", ""), r.get("undetermined", "")])
        for name, length in summary["length"].items():
            writer.writerow(["length", name, length["n"], "", length["mean"], length["low"], length["high"], "", ""])
    else:
        writer.writerow(["category", "name", "a", "b", "difference", "p_value", "p_holm", "significant"])
        for r in comparison["rows"] + comparison["only_b"]:
            writer.writerow([r["category"], r["name"], r["a"], r["b"], r["difference"], r["p"], r["p_adjusted"],
                             "yes" if r["significant"] else "no"])
    return out.getvalue()
