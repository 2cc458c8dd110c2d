"""The results of a simulation as a person reads them (tables) and as CSV."""

from __future__ import annotations

import csv
import io

__all__ = ["text_report", "comparison_report", "csv_text"]


def _percent(x) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


# The report's own words; a category that is a kind of card is named by ``names`` (the lexicon's plural,
# « Quartiers »), else by the kind's identifier.
WORDS = {
    "en": {"players": "players", "seeds": "seeds {}–{}", "failed": "; {} stopped on an error of the spec",
           "games": "{} games ({}){}; agents by seat: {} (turned one seat each game)",
           "configuration": "configuration", "rates": "win rates, {}; a game won by k players tied after the "
                                                      "tiebreak credits each 1/k",
           "seat": ("by seat", "games"), "agent": ("by agent", "seats"),
           "kind": ("by {} (players who had it: {} named them at the start of a round or at the end)", "players"),
           "count_games": "games", "rate": "win rate", "interval": "interval",
           "undetermined": "({} samples undetermined)", "stopped": "game {} (seed {}) stopped: {}",
           "length": "game length: {:.2f} rounds (sd {:.2f}), {:.1f} moves asked of an agent, {:.1f} decision "
                     "points in all (forced ones included)"},
    "fr": {"players": "joueurs", "seeds": "graines {} à {}", "failed": " ; {} arrêtées sur une erreur de la spec",
           "games": "{} parties ({}){} ; joueurs automatiques par siège : {} (la table tourne d'un siège à chaque "
                    "partie)",
           "configuration": "configuration", "rates": "taux de victoire, intervalle de confiance à 95 % (Wilson) ; "
                                                      "une partie gagnée par k joueurs encore ex æquo après le "
                                                      "départage compte 1/k pour chacun",
           "seat": ("Par siège", "parties"), "agent": ("Par joueur automatique", "sièges"),
           "kind": ("Par carte : {} (joueurs qui l'ont eue : {} les désignait en début de tour ou en fin de "
                    "partie)", "joueurs"),
           "count_games": "parties", "rate": "victoires", "interval": "intervalle",
           "undetermined": "({} relevés indéterminés)", "stopped": "partie {} (graine {}) arrêtée : {}",
           "length": "durée d'une partie : {:.2f} tours (écart type {:.2f}), {:.1f} choix posés aux joueurs "
                     "automatiques, {:.1f} points de décision en tout (ceux qui sont forcés compris)"},
}


def _title(summary: dict, language: str = "en") -> list[str]:
    w = WORDS[language]
    seeds = w["seeds"].format(summary["seed"], summary["seed"] + summary["games"] - 1)
    failed = w["failed"].format(summary["failed"]) if summary["failed"] else ""
    return [f"{summary['game']} — {' '.join(summary['spec'])}, {w['configuration']} \"{summary['configuration']}\", "
            f"{summary['players']} {w['players']}",
            w["games"].format(summary["games"], seeds, failed, ", ".join(summary["lineup"]))]


def _length_line(summary: dict, language: str = "en") -> str:
    length = summary["length"]
    return WORDS[language]["length"].format(length["rounds"]["mean"], length["rounds"]["sd"],
                                            length["moves"]["mean"], length["decisions"]["mean"])


def text_report(summary: dict, language: str = "en", names: dict[str, str] | None = None) -> str:
    """The tables of one rule set's win rates and game length, in ``language`` ("en" or "fr"), each kind
    of card named by ``names`` (its identifier where not given)."""
    w = WORDS[language]
    rates = w["rates"].format(summary["interval"]) if language == "en" else w["rates"]
    lines = _title(summary, language) + ["", rates, ""]
    width = max(24, *(len(r["name"]) + 2 for r in summary["rates"]))
    current = None
    for r in summary["rates"]:
        if r["category"] != current:
            current = r["category"]
            if current in ("seat", "agent"):
                head, count = w[current]
            else:
                head, count = w["kind"]
                head = head.format((names or {}).get(current, current),
                                   (names or {}).get(r["controller"], r["controller"]))
            games = w["count_games"] if current not in ("seat", "agent") else ""
            lines += [head, f"  {'':<{width}} {count:>8} {games:>7} {w['rate']:>9}   {w['interval']}"]
        games = f"{r['games']:>7}" if "games" in r else f"{'':>7}"
        extra = "   " + w["undetermined"].format(r["undetermined"]) if r.get("undetermined") else ""
        lines.append(f"  {r['name']:<{width}} {r['trials']:>8} {games} {_percent(r['rate']):>9}   "
                     f"[{_percent(r['low'])}, {_percent(r['high'])}]{extra}")
    lines += ["", _length_line(summary, language)]
    for failure in summary["failures"]:
        lines.append(w["stopped"].format(failure["game"], failure["seed"], failure["error"]))
    return "\n".join(lines) + "\n"


def comparison_report(a: dict, b: dict, comparison: dict, names: dict[str, str] | None = None) -> str:
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
            lines.append(f"{(names or {}).get(current, current)}")
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
