"""The book's balance pages: one page per committed result of ``rulebook simulate --json``.

The build never plays a game.  ``conf.py`` names result files (``rulebook_simulations``); when the
build starts, each becomes a page ``equilibre/<name>.rst`` with its win-rate charts (drawn from the
file with matplotlib, into ``equilibre/<name>/``) and tables, the command that reproduces it, and a
warning on the page when the spec's files are no longer the ones the games were played with (the
file keeps a digest of them).  Pages and charts are rewritten only when their content changes.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from checker.sphinxext import rst

__all__ = ["render_balance", "write_balance_pages", "BALANCE_DIR"]

BALANCE_DIR = "equilibre"
GENERATED = ".. Generated from a result of rulebook simulate by checker.sphinxext: do not edit."


def _percent(x) -> str:
    return "—" if x is None else f"{100 * x:.1f} %".replace(".", ",")


def _command(summary: dict, output: str) -> str:
    lineup = summary["lineup"]
    agents = lineup[0] if len(set(lineup)) == 1 else ",".join(lineup)
    words = ["rulebook", "simulate", *summary["spec"], "-n", str(summary["games"]), "-c", summary["configuration"],
             "-p", str(summary["players"]), "--agent", agents, "--seed", str(summary["seed"])]
    for option in ("add", "remove"):
        if summary.get(option):
            words += [f"--{option}", ",".join(summary[option])]
    if "montecarlo" in summary:
        words += ["--playouts", str(summary["montecarlo"]["playouts"]), "--depth", str(summary["montecarlo"]["depth"])]
    return " ".join(shlex.quote(w) for w in words) + f" --json {shlex.quote(output)} --force"


def render_balance(summary: dict, charts: dict[str, str], stale: bool | None, output: str,
                   names: dict[str, str] | None = None) -> str:
    """The reST page of one result: ``charts`` maps a category to its image's path (relative to the
    page); ``stale`` says whether the spec changed since (None: it could not be read); ``names`` gives
    the French of the kinds and controllers the rates name (:func:`checker.simulate.words.report_names`)."""
    names = names or {}
    lines = [GENERATED, ""]
    lines += rst.title(f"Équilibre — {summary['configuration']}, {summary['players']} joueurs")
    agents = ", ".join(f"{name} ×{summary['lineup'].count(name)}" for name in dict.fromkeys(summary["lineup"]))
    lines += [f"Taux de victoire mesurés sur {summary['played']:,} parties simulées".replace(",", "\u202f")
              + f" de *{summary['game']}* (``{' '.join(summary['spec'])}``), graines {summary['seed']} à "
              f"{summary['seed'] + summary['games'] - 1}, joueurs automatiques : {agents} (la table tourne d'un "
              f"siège à chaque partie). Les intervalles sont des intervalles de confiance à 95 % (Wilson) ; une "
              f"partie gagnée par k joueurs encore ex aequo après le départage compte 1/k pour chacun.", ""]
    if stale:
        lines += rst.directive("warning", "", None, [
            "Les règles ont changé depuis ces parties (l'empreinte des fichiers de la spécification n'est plus "
            f"``{summary['spec_digest']}``) : ces chiffres sont ceux des règles d'avant. Relancez la commande "
            "ci-dessous."])
    elif stale is None:
        lines += rst.directive("note", "", None, ["Les fichiers de la spécification de ces parties sont "
                                                  "introuvables : impossible de dire si elle a changé depuis."])
    lines += ["Pour refaire ces parties (le résultat est le même sur n'importe quel nombre de cœurs) :", ""]
    lines += rst.directive("code-block", "sh", None, [_command(summary, output)])
    groups: dict[str, list[dict]] = {}
    for r in summary["rates"]:
        groups.setdefault(r["category"], []).append(r)
    for category, rows in groups.items():
        if category == "seat":
            lines += rst.title("Par siège", "-")
            count = "Parties"
        elif category == "agent":
            lines += rst.title("Par joueur automatique", "-")
            count = "Sièges joués"
        else:
            controller = rows[0]["controller"]
            who = f"il était {names[controller]}" if controller in names else \
                f"la grandeur ``{controller}`` le désignait"
            lines += rst.title(f"Par carte : {names.get(category, category)}", "-")
            lines += [f"Un joueur *a eu* une carte quand {who} pour "
                      f"l'un de ses exemplaires au début d'un tour ou à la fin de la partie. Comparez les cartes "
                      f"entre elles plutôt qu'à la part égale : qui a plus de cartes gagne plus souvent (un "
                      f"joueur qui a bâti beaucoup de quartiers en a eu davantage).", ""]
            count = "Joueurs l'ayant eue"
        image = charts.get(category)
        if image:
            lines += rst.directive("image", image, {"alt": "Taux de victoire " + {"seat": "par siège", "agent": (
                "par joueur automatique")}.get(category, f"par carte ({names.get(category, category)})")})
        table = [[r["name"], str(r["trials"]), _percent(r["rate"]), f"{_percent(r['low'])} – {_percent(r['high'])}"]
                 for r in rows]
        lines += rst.list_table(["", count, "Victoires", "Intervalle à 95 %"], table)
        undetermined = sum(r.get("undetermined") or 0 for r in rows)
        if undetermined:
            said = names.get(rows[0]["controller"])
            subject = f"« {said} »" if said else f"La grandeur ``{rows[0]['controller']}``"
            lines += [f"{subject[:1].upper()}{subject[1:]} n'a pas su désigner un seul joueur {undetermined} "
                      f"fois (plusieurs joueurs avaient un exemplaire de la même carte) ; ces relevés ne comptent "
                      f"pour personne.", ""]
    length = summary["length"]
    lines += rst.title("Durée d'une partie", "-")
    lines += [f"{length['rounds']['mean']:.2f} tours en moyenne (écart type {length['rounds']['sd']:.2f}), "
              f"{length['moves']['mean']:.0f} choix posés aux joueurs.".replace(".", ",", 1), ""]
    return "\n".join(lines)


def _stale(summary: dict, roots: list[Path]) -> bool | None:
    from checker.simulate.games import spec_files
    for root in roots:
        paths = [root / p for p in summary["spec"]]
        if all(p.exists() for p in paths):
            try:
                return spec_files(paths)[2] != summary["spec_digest"]
            except (OSError, ValueError):
                return None
    return None


def _write_if_changed(path: Path, data: bytes) -> None:
    if not path.exists() or path.read_bytes() != data:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def write_balance_pages(srcdir: Path, confdir: Path, results: list[str], warn, lexicon=None) -> list[Path]:
    """Write one page (and its charts) per result file, in the words of ``lexicon`` (the book's);
    ``warn(message, where)`` reports a file that cannot be read.  Generated pages of results no longer
    listed are removed."""
    from checker.simulate.words import report_names
    root = srcdir / BALANCE_DIR
    written = []
    for name in results:
        path = (confdir / name).resolve()
        try:
            summary = json.loads(path.read_text(encoding="utf-8"))
            if summary.get("format") != "rulebook-simulation/1" or "rates" not in summary:
                raise ValueError("not a result of rulebook simulate --json (of one rule set)")
        except (OSError, ValueError) as exc:
            warn(f"rulebook_simulations: cannot read {name}: {getattr(exc, 'strerror', None) or exc}", str(path))
            continue
        stem = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-") or "resultat"
        charts = {}
        names = report_names(lexicon, summary)
        try:
            from checker.simulate.plots import chart_name, charts as draw
            for file, data in draw(summary, language="fr", names=names).items():
                _write_if_changed(root / stem / file, data)
            charts = {r["category"]: f"{stem}/{chart_name(r['category'])}" for r in summary["rates"]}
        except ImportError:
            pass            # no matplotlib: the page has its tables only
        try:
            output = path.relative_to(confdir.parent).as_posix()
        except ValueError:
            output = str(path)
        text = render_balance(summary, charts, _stale(summary, [path.parent, confdir.parent]), output, names)
        page = root / f"{stem}.rst"
        _write_if_changed(page, text.encode("utf-8"))
        written.append(page)
    if root.is_dir():
        for page in root.glob("*.rst"):
            if page not in written and page.read_text(encoding="utf-8").startswith(GENERATED):
                page.unlink()
    return written

