"""Win-rate charts (PNG, drawn with matplotlib's Agg renderer, no display needed): one per category —
seat, agent, and each kind of card — with the 95% intervals as error bars and the even share
(1 / players) as a dashed line; with a second rule set, its bars beside the first's."""

from __future__ import annotations

import io
import re

__all__ = ["charts", "chart_name", "MissingMatplotlib"]


class MissingMatplotlib(ImportError):
    """matplotlib is not installed (it comes with ``pip install 'rulebook[plots]'``)."""


def chart_name(category: str) -> str:
    """The file name of a category's chart.

    >>> chart_name("District")
    'win-rates-district.png'
    """
    return "win-rates-" + re.sub(r"[^a-z0-9]+", "-", category.lower()).strip("-") + ".png"


WORDS = {
    "en": {"axis": "win rate (%), 95% Wilson interval", "even": "even share ({:.0f}%)",
           "title": "{game}, {configuration}, {players} players: win rate by {category}",
           "seat": "seat", "agent": "agent"},
    "fr": {"axis": "taux de victoire (%), intervalle de Wilson à 95 %", "even": "part égale ({:.0f} %)",
           "title": "{game}, {configuration}, {players} joueurs : taux de victoire ({category})",
           "seat": "siège", "agent": "joueur automatique"},
}


def _categories(summary: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for r in summary["rates"]:
        out.setdefault(r["category"], []).append(r)
    return out


def charts(summary: dict, other: dict | None = None, labels: tuple[str, str] = ("A", "B"),
           language: str = "en", names: dict[str, str] | None = None) -> dict[str, bytes]:
    """File name -> PNG bytes, one chart per category of ``summary`` (rows without trials left out);
    the axes are labelled in ``language`` ("en" or "fr"), a kind of card named by ``names``."""
    words = WORDS[language]
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise MissingMatplotlib("the charts need matplotlib: pip install 'rulebook[plots]'") from exc
    theirs = {(r["category"], r["name"]): r for r in other["rates"]} if other else {}
    out = {}
    for category, rows in _categories(summary).items():
        rows = [r for r in rows if r["trials"]]
        if not rows:
            continue
        sets = [rows] + ([[theirs.get((category, r["name"])) for r in rows]] if other else [])
        height = 1.2 + 0.28 * len(rows) * len(sets)
        figure = Figure(figsize=(7.5, height), layout="constrained")
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        bar = 0.8 / len(sets)
        for k, (series, label) in enumerate(zip(sets, labels)):
            ys = [i + (k - (len(sets) - 1) / 2) * bar for i in range(len(rows))]
            kept = [(y, r) for y, r in zip(ys, series) if r is not None and r["trials"]]
            if not kept:
                continue
            rates = [100 * r["rate"] for _, r in kept]
            below = [max(0.0, rate - 100 * r["low"]) for rate, (_, r) in zip(rates, kept)]
            above = [max(0.0, 100 * r["high"] - rate) for rate, (_, r) in zip(rates, kept)]
            axes.barh([y for y, _ in kept], rates, height=bar, xerr=[below, above], capsize=2,
                      label=label if other else None, color=("#4c72b0", "#dd8452")[k], alpha=0.9)
        axes.axvline(100 / summary["players"], color="0.3", linestyle="--", linewidth=1,
                     label=words["even"].format(100 / summary["players"]))
        axes.set_yticks(range(len(rows)), [r["name"] for r in rows])
        axes.invert_yaxis()
        axes.set_xlabel(words["axis"])
        axes.set_xlim(0, min(100, max(100 * max((r["high"] for s in sets for r in s if r), default=0.5) + 5, 10)))
        axes.set_title(words["title"].format(game=summary["game"], configuration=summary["configuration"],
                                             players=summary["players"],
                                             category=words.get(category, (names or {}).get(category, category))),
                       fontsize=9)
        axes.legend(fontsize=8, loc="lower right")
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
        out[chart_name(category)] = buffer.getvalue()
    return out
