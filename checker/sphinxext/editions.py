"""Pages of the book for other editions and variants: what they decide, and what changes compared
with the 4th edition, from `rulebook diff`.

In ``conf.py``::

    rulebook_editions = {
        "jeu-de-base": {"paths": ["../spec/éditions/jeu-de-base"]},
        "peste": {"paths": ["../spec/éditions/jeu-de-base", "../spec/variantes/jeu-de-base/peste.rules"],
                  "parent": "jeu-de-base"},
    }

Each edition's rule set is the book's spec plus its ``paths``; a variant (``parent``) is also compared
with its parent.  A diff takes seconds to minutes, so its result is kept in ``docs/_diff/NAME.json`` with
two keys: ``key``, a digest of the rules it compares (the spec files and the texts they cite), and
``code``, a digest of the checker's code it was computed with (the diff, the Z3 side, the interpreter).
When each is recomputed is :mod:`checker.sphinxext.kept`'s rule.  The files are committed, so a fresh clone
builds the book without running Z3.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

from checker.front.check import spec_files
from checker.base.diagnostics import Reporter
from checker.prose import rst_escape
from checker.sphinxext import rst
from checker.sphinxext.book import Book
from checker.sphinxext.kept import COMPUTED, KEPT, OLDER_CODE, code_key, kept, refresh_wanted, rules_key

__all__ = ["Edition", "editions_of", "cached_diff", "render_edition", "render_editions", "EDITION_DIR",
           "refresh_wanted", "comparisons", "KEPT", "OLDER_CODE", "COMPUTED"]

EDITION_DIR = "editions"
CACHE_DIR = "_diff"
# what a comparison's result depends on besides the spec: the diff, the whole Z3 side (the encoding's helper
# modules shape the terms, and so Z3's witnesses), the interpreter that re-judges each witness, and the front end
# (what an overlay means — e.g. whether a replacing procedure keeps the replaced one's precondition — is decided
# there: a change of meaning there changes a comparison without changing a rule file)
_CODE = ("diff/*.py", "solver/*.py", "runtime/*.py", "front/*.py")


class Edition:
    def __init__(self, name: str, paths: list[Path], parent: str | None, root: Path):
        self.name, self.paths, self.parent, self.root = name, paths, parent, root


def editions_of(config: dict, confdir: Path, base: list[Path]) -> list[Edition]:
    """The editions of ``rulebook_editions``; paths are relative to ``confdir``, or absolute.  Their root
    (what paths are shown relative to) is the folder above the one all their files and the base share."""
    out = []
    for name, entry in (config or {}).items():
        paths = [(confdir / p).resolve() for p in entry.get("paths", ())]
        root = Path(os.path.commonpath([str(p) for p in base + paths])).parent
        out.append(Edition(name, paths, entry.get("parent"), root))
    return out


def cached_diff(cache: Path, name: str, a: list[Path], b: list[Path], root: Path,
                refresh: bool = False) -> tuple[dict, str]:
    """(the diff's JSON, how it was had) for rule sets ``a`` and ``b``: ``"kept"``, ``"kept, older code"``
    (the same rules, compared by an older checker; recomputed instead when ``refresh``) or ``"computed"``.
    Paths are written relative to ``root``, so the result is the same wherever the book is built from."""
    with contextlib.chdir(root):
        rel_a = [Path(*p.relative_to(root).parts) for p in a]
        rel_b = [Path(*p.relative_to(root).parts) for p in b]
        key = rules_key(rel_a + rel_b)

        def compute() -> dict:
            # in a process of its own, as `rulebook diff` runs: Z3's answers (the witnesses) depend on what the
            # process asked it before, and the book must get the same result wherever it is built
            command = [sys.executable, "-m", "checker", "diff", *map(str, rel_a), "--", *map(str, rel_b), "--json"]
            done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8")
            if done.returncode not in (0, 1, 4):
                raise ValueError(f"rulebook diff for {name} failed: {done.stderr.strip() or done.stdout.strip()}")
            result = json.loads(done.stdout)
            result.pop("seconds", None)          # the one thing that varies from run to run
            for envelope in ("command", "ok", "exit_code"):      # every --json document starts with these
                result.pop(envelope, None)
            for d in result["differences"]:      # the book shows the situations; the state files are left out
                d.pop("witness", None)
                d.pop("move", None)
            return result

        return kept(cache / f"{name}.json", key, code_key(_CODE), compute, refresh)


# ---------------------------------------------------------------- the pages

def render_editions(book: Book) -> str:
    """The index of the editions and variants."""
    lines = rst.title("Autres éditions et variantes")
    lines += ["Ces règles sont écrites comme des *surcouches* de la 4\\ :sup:`e` édition : un fichier qui dit ce "
              "qu'il change, et rien d'autre. Chaque page dit ce qu'une édition ou une variante décide là où son "
              "texte est ambigu, et ce qui change par rapport à la 4\\ :sup:`e` édition, tel que ``rulebook diff`` "
              "le calcule et le prouve avec Z3.", ""]
    lines += [".. toctree::", "   :maxdepth: 1", ""]
    for edition in book.editions:
        lines.append(f"   {EDITION_DIR}/{edition.name}")
    lines.append("")
    return "\n".join(lines)


def render_edition(book: Book, name: str) -> str:
    edition = next(e for e in book.editions if e.name == name)
    base = list(book.spec_paths[:1])
    paths = base + edition.paths
    result = book.check(paths)
    program = result.program
    own = {p.resolve() for path in edition.paths for p in spec_files(path, Reporter())}
    headers = [h for h in program.overlays if Path(h.span.file).resolve() in own]
    title = headers[-1].name if edition.parent else (headers[0].name if headers else name)
    lines = rst.title(title)
    edition_text = next((f.values[0].value for f in program.game.fields if f.name == "edition"), None) \
        if program.game else None
    lines += [f"Règles de « {rst_escape(program.game.name)} »" + (f" ({rst_escape(edition_text)})" if edition_text
                                                                   else "") + ".", ""]
    shown = " ".join(str(p.relative_to(edition.root)) for p in paths)
    lines += ["Pour la vérifier, y jouer et la comparer :", "", ".. code-block:: sh", "",
              f"   rulebook check {shown}",
              f"   rulebook play {shown} -n 4 -c \"{next(iter(program.configurations), '…')}\"",
              f"   rulebook diff {base[0].relative_to(edition.root)} --with "
              + " ".join(str(p.relative_to(edition.root)) for p in edition.paths), ""]
    if program.configurations:
        lines += ["**Configurations** : " + "; ".join(
            f"« {rst_escape(c)} » ({_counts(result.configurations.get(c, []))} joueurs)"
            for c in program.configurations) + ".", ""]
    lines += _decisions(book, program, own)
    for key, a, b, parent in comparisons(edition, book.editions, base):
        diff, book.comparisons[key] = cached_diff(book.cache_dir, key, a, b, edition.root, book.refresh_diffs)
        if parent is None:
            lines += rst.title("Ce qui change par rapport à la 4e édition", "-")
            lines += _diff_lines(diff, "la 4\\ :sup:`e` édition")
        else:
            lines += rst.title(f"Ce qui change par rapport à « {parent.name} »", "-")
            lines += [f"Voir aussi :doc:`{parent.name}`.", ""]
            lines += _diff_lines(diff, f"« {parent.name} »")
    return "\n".join(lines)


def comparisons(edition: Edition, editions: list[Edition], base: list[Path]) -> list[tuple]:
    """The comparisons an edition's page shows, as (kept name, rule set A, rule set B, the parent edition or
    None): with the 4th edition, and a variant's with its parent."""
    mine = [p.resolve() for p in base + edition.paths]
    out = [(edition.name, [p.resolve() for p in base], mine, None)]
    if edition.parent:
        parent = next(e for e in editions if e.name == edition.parent)
        out.append((f"{edition.name}--{parent.name}", [p.resolve() for p in base + parent.paths], mine, parent))
    return out


def _counts(counts: list[int]) -> str:
    if not counts:
        return "0"
    if counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 2:
        return f"{counts[0]} à {counts[-1]}"
    return ", ".join(map(str, counts))


def _decisions(book: Book, program, own: set) -> list[str]:
    mine = [d for d in program.decisions.values() if Path(d.span.file).resolve() in own]
    if not mine:
        return []
    lines = rst.title("Décisions", "-")
    lines += ["Là où le texte est ambigu, se contredit ou se tait, la règle écrite ici est une décision nommée, "
              "qui cite les phrases qu'elle tranche.", ""]
    for d in mine:
        lines += [f"- ``{d.name}`` — {rst_escape(d.text)}", ""]
        for cite in d.cites:
            lines += [f"  « {book.shown(cite)} »", ""]
    return lines



def _diff_lines(diff: dict, before: str) -> list[str]:
    differences = diff["differences"]
    behavioural = [d for d in differences if d["behavioural"] and d["kind"] != "undecided"]
    neutral = [d for d in differences if not d["behavioural"]]
    undecided = [d for d in differences if d["kind"] == "undecided"]
    status = {"equivalent": "Les deux règles sont **équivalentes** : aucune différence de jeu (prouvé).",
              "different": f"**{len(behavioural)} différence(s)** qui changent le jeu, "
                           f"{len(neutral)} qui ne le changent pas.",
              "undecided": "Z3 n'a pas pu tout décider : voir plus bas."}[diff["status"]]
    lines = [status + f" Recherche sur les états de {diff['players'][0]} à {diff['players'][1]} joueurs "
                      f"({diff['searched'].get('actions', 0)} actions, {diff['searched'].get('quantities', 0)} "
                      f"grandeurs comparées avec Z3).", ""]
    sides = {"a": f"dans {before}", "b": "ici"}
    sections = [
        ("legality", "Coups permis ou interdits", lambda d: _legality(d, sides)),
        ("value", "Valeurs", lambda d: _value(d, sides)),
        ("order", "Ordre des réactions", lambda d: [f"- {_french(d, sides)}"] + _situation(d)),
        ("effect", "Effets et déroulement modifiés", lambda d: _changed(d, sides)),
        ("power", "Pouvoirs modifiés", lambda d: _changed(d, sides)),
        ("configuration", "Configurations", lambda d: [f"- {_french(d, sides)}", ""]
         + [f"  {rst_escape(_french_line(x, sides))}" for x in d["details"]] + [""]),
        ("constraint", "Contraintes sur le choix des cartes", lambda d: _changed(d, sides)),
        ("game", "La partie", lambda d: [f"- {_french(d, sides)}"]),
        ("table", "Tables", lambda d: _changed(d, sides)),
        ("rule", "Règles", lambda d: [f"- {_french(d, sides)}"]),
        ("precedence", "Préséances", lambda d: [f"- {_french(d, sides)}"]),
        ("declaration", "Vocabulaire", lambda d: [f"- {_french(d, sides)}"]),
    ]
    for kind, heading, item in sections:
        group = [d for d in behavioural if d["kind"] == kind]
        if not group:
            continue
        lines += [f"**{heading}**", ""]
        for d in group:
            lines += item(d)
        lines.append("")
    cards = [d for d in behavioural if d["kind"] == "card"]
    if cards:
        lines += ["**Cartes**", ""]
        for side, word in (("a", f"seulement dans {before}"), ("b", "seulement ici")):
            names = [d["subject"].split(" ", 1)[1] for d in cards if d["sides"].get("only") == side]
            if names:
                lines.append(f"- {word.capitalize()} : {rst_escape(', '.join(names))}.")
        lines += [f"- ``{d['subject'].split(' ', 1)[1]}`` : {d['sides'].get('attribute', '')} "
                  f"{d['sides'].get('a')} {sides['a']}, {d['sides'].get('b')} ici"
                  for d in cards if "only" not in d["sides"]]
        lines.append("")
    renamed = [d for d in neutral if d["kind"] == "card"]
    if renamed:
        lines += ["**Noms** : " + "; ".join(f"{rst_escape(d['sides']['a'])} → {rst_escape(d['sides']['b'])}"
                                             for d in renamed) + ".", ""]
    if undecided:
        lines += ["**Non décidé**", ""] + [f"- {rst_escape(d['message'])}" for d in undecided] + [""]
    proven = [d for d in neutral if d["kind"] in ("rule", "precedence", "order")]
    if proven:
        lines += ["**Sans effet sur la partie** (prouvé par Z3) : "
                  + ", ".join(f"``{d['subject'].split(' ', 1)[-1]}``" for d in proven) + ".", ""]
    return lines


def _legality(d: dict, sides: dict) -> list[str]:
    s = d["sides"]
    text = (f"- ``{s['move']}`` est permis {sides[s['legal']]} et interdit {sides[s['illegal']]} "
            f"({d['players']} joueurs)")
    reasons = []
    for why in s.get("why", ()):
        there = {"absent": f"qui n'existe pas {sides[s['legal']]}",
                 "not-about": f"qui ne porte pas sur ce coup {sides[s['legal']]}",
                 "lifted": f"levée {sides[s['legal']]} par {', '.join(why['lifters'])}",
                 "not-applying": f"qui ne s'applique pas {sides[s['legal']]}"}[why["there"]]
        reads = "".join(f", où ``{r[0]}`` vaut {r[1]} {sides['a']} et {r[2]} ici" for r in why.get("reads", ()))
        reasons.append(f"la règle ``{why['rule']}``, {there}{reads}")
    if reasons:
        text += " : " + "; ".join(reasons)
    lines = [text + "."]
    lines += _situation(d)
    return lines


def _value(d: dict, sides: dict) -> list[str]:
    s = d["sides"]
    lines = [f"- ``{d['call']}`` vaut {rst_escape(str(s['a']))} {sides['a']} et {rst_escape(str(s['b']))} ici "
             f"({d['players']} joueurs)."]
    lines += _situation(d)
    return lines


def _situation(d: dict) -> list[str]:
    shown = [x for x in d.get("situation", ())[1:] if x]
    if not shown:
        return []
    text = "; ".join(shown[:10]) + (" …" if len(shown) > 10 else "")
    return ["", f"  Exemple : ``{text}``.", ""]


_NOUNS = {"procedure": "la procédure", "action": "l'action", "power": "le pouvoir", "rule": "la règle",
          "constraint": "la contrainte", "table": "la table", "kind": "le type de carte", "var": "la variable",
          "zone": "la zone", "window": "la fenêtre", "enum": "l'énumération", "quantity": "la grandeur",
          "precedence": "la préséance", "configuration": "la configuration", "decision": "la décision",
          "source": "la source"}


def _french(d: dict, sides: dict) -> str:
    """A difference said in French, from its kind, subject and sides (the CLI's message is English)."""
    noun, _, name = d["subject"].partition(" ")
    if d["kind"] == "game" and "a" in d["sides"]:
        field = d["subject"].split(" ", 1)[-1]
        return (f"{_GAME.get(field, field)} : ``{d['sides']['a']}`` {sides['a']}, ``{d['sides']['b']}`` ici")
    if d["kind"] == "order" and d["rules"]:
        return (f"``{d['rules'][0]}`` prend effet avant ``{d['rules'][1]}`` {sides['a']}, après ici, quand les "
                f"deux réagissent au même moment")
    what = f"{_NOUNS.get(noun, noun)} ``{name or noun}``"
    if "only" in d["sides"]:
        return f"{what} : seulement {sides['a'] if d['sides']['only'] == 'a' else 'ici'}"
    if d["kind"] == "configuration":
        return f"{what} ne choisit pas les mêmes cartes"
    return f"{what} est modifiée" if _NOUNS.get(noun, "").startswith("la ") else f"{what} est modifié"


_GAME = {"players": "nombre de joueurs", "tiebreak": "départage", "score": "score", "flow": "déroulement",
         "edition": "édition", "game name": "nom du jeu"}


def _french_line(line: str, sides: dict) -> str:
    return (line.replace(" players", " joueurs").replace(" to ", " à ").replace("only in A", f"seulement {sides['a']}")
            .replace("only in B", "seulement ici"))


def _changed(d: dict, sides: dict) -> list[str]:
    lines = [f"- {_french(d, sides)}"]
    if d.get("excerpt"):
        lines += [""] + rst.indent(rst.directive("code-block", "diff", content=d["excerpt"][:24]), 2)
    return lines
