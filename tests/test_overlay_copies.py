"""No overlay in spec/ copies a base procedure to change it: each `replace procedure` is compared with the
procedure it replaces (as the rule set has it when the overlay comes), statement by statement, and a
near-copy fails unless it is listed below with the reason it cannot be an `extend procedure` (see
docs/language.md, *Hooks*)."""

from __future__ import annotations

import dataclasses
import difflib
from pathlib import Path

from checker.front import ast
from checker.base.diagnostics import Reporter
from checker.front.lower import lower_trees
from checker.front.parse import parse_file
from checker.front.program import collect
from checker.base.source import Span, read_source
from conftest import ROOT

# a replacement that keeps at least this share of its base's statements (difflib's ratio) is a near-copy
NEAR_COPY = 0.6

# The rule sets of spec/ whose overlays replace procedures: base first, overlays in order.
RULE_SETS = [
    ["spec/citadelles", "spec/extension-fan"],
    ["spec/citadelles", "spec/éditions/jeu-de-base", "spec/variantes/jeu-de-base/peste.rules"],
    ["spec/citadelles", "spec/éditions/jeu-de-base", "spec/variantes/jeu-de-base/partie-rapide-7.rules"],
    ["spec/citadelles", "spec/éditions/jeu-de-base", "spec/variantes/jeu-de-base/partie-rapide-6.rules"],
    ["spec/citadelles", "spec/éditions/jeu-de-base", "spec/variantes/jeu-de-base/pioche-améliorée.rules"],
    ["spec/citadelles", "spec/éditions/jeu-de-base", "spec/variantes/jeu-de-base/roi-assassiné-garde-la-couronne.rules"],
    ["spec/citadelles", "spec/éditions/première-édition", "spec/variantes/première-édition/partie-raccourcie.rules"],
    ["spec/citadelles", "spec/maison"],
]

# The near-copies that remain, each with the reason an extension cannot say it.
EDITION_TEXT = ("an edition is another text: its procedure cites its own sentences, and an extension of the "
                "4th edition's would keep the 4th edition's quotations in this edition's book")
REMAINING = {
    ("spec/éditions/jeu-de-base/20-partie.rules", "choix_des_personnages"):
        "removes the 3-player draft (an extension adds; it never removes a branch); " + EDITION_TEXT,
    ("spec/éditions/jeu-de-base/20-partie.rules", "suite_du_tour"):
        "removes two ways of building (Chantier, Nécropole) from the offer; " + EDITION_TEXT,
    ("spec/éditions/jeu-de-base/20-partie.rules", "décompte"):
        "removes the tie-break (no `départage` in this edition); " + EDITION_TEXT,
    ("spec/éditions/première-édition/20-partie.rules", "recevoir_des_ressources"): EDITION_TEXT,
    ("spec/éditions/première-édition/20-partie.rules", "choix_des_personnages"):
        "applies this edition's decision on the 2-player draft; " + EDITION_TEXT,
    ("spec/éditions/première-édition/20-partie.rules", "choix_à_trois"):
        "no card set aside in the middle of the 3-player draft; " + EDITION_TEXT,
    ("spec/éditions/première-édition/20-partie.rules", "choix_standard"):
        "the last player's choice at 7 and 8 players differs; " + EDITION_TEXT,
    ("spec/éditions/première-édition/20-partie.rules", "suite_du_tour"):
        "removes three ways of building from the offer; " + EDITION_TEXT,
}


def _files(paths: list[str]) -> list[tuple[ast.SpecFile, Path]]:
    out = []
    for p in paths:
        path = ROOT / p
        for f in sorted(path.glob("*.rules")) if path.is_dir() else [path]:
            reporter = Reporter()
            source = read_source(f)
            header, decls = lower_trees(source.name, parse_file(source, reporter), reporter)
            name = str(f.relative_to(ROOT))
            out.append((ast.SpecFile(name, header, tuple(decls), Span(name, 1, 1, 1, 1)), f.parent))
    return out


def _shape(node):
    """A node without its spans and quotations: what it does."""
    if isinstance(node, tuple):
        return tuple(_shape(x) for x in node if not isinstance(x, (ast.CiteStmt, ast.DecisionStmt, ast.Cite)))
    if not dataclasses.is_dataclass(node) or isinstance(node, Span):
        return node
    return (type(node).__name__,) + tuple(_shape(getattr(node, f.name)) for f in dataclasses.fields(node)
                                          if not f.name.endswith("span"))


def statement_lines(body) -> list[str]:
    """One line per statement (nested blocks as lines of their own, an offer's items too), quotations left out."""
    out = []
    for s in ast.statements(body):
        if isinstance(s, (ast.CiteStmt, ast.DecisionStmt, ast.HookStmt)):
            continue        # (a step's statements come next: ast.statements walks into it)
        blocks = {f: () for f in ("then", "else_", "body") if isinstance(getattr(s, f, None), tuple)}
        out.append(repr(_shape(dataclasses.replace(s, **blocks))))
        if isinstance(s, ast.Offer):
            out += [repr(_shape(i)) for i in s.items if not isinstance(i, ast.OfferHook)]
    return out


def replacements() -> dict[tuple[str, str], float]:
    """(file, procedure) -> how much of its base a `replace procedure` in spec/ keeps (difflib's ratio)."""
    out = {}
    for paths in RULE_SETS:
        files = _files(paths)
        for i, (spec_file, _) in enumerate(files):
            for decl in spec_file.decls:
                if isinstance(decl, ast.ReplaceDecl) and isinstance(decl.decl, ast.ProcedureDecl):
                    base = collect(files[:i], Reporter()).procedures.get(decl.decl.name)
                    ratio = difflib.SequenceMatcher(a=statement_lines(base.body), b=statement_lines(decl.decl.body),
                                                    autojunk=False).ratio()
                    out[(spec_file.name, decl.decl.name)] = ratio
    return out


def test_no_overlay_copies_a_base_procedure_to_change_it():
    found = replacements()
    near = {key for key, ratio in found.items() if ratio >= NEAR_COPY}
    unexplained = sorted(near - set(REMAINING))
    assert not unexplained, ("near-copies of a base procedure: extend it at its hook points instead "
                             f"(`extend procedure`), or list it in REMAINING with the reason: {unexplained}")
    stale = sorted(set(REMAINING) - near)
    assert not stale, f"listed as near-copies but no longer are: {stale}"


def test_the_comparison_sees_a_copy_and_a_rewrite():
    base = _files(["spec/citadelles"])
    tour = collect(base, Reporter()).procedures["suite_du_tour"].body
    copy = tuple(s for s in tour if not isinstance(s, ast.Signal))
    matcher = difflib.SequenceMatcher(a=statement_lines(tour), b=statement_lines(copy), autojunk=False)
    assert matcher.ratio() >= NEAR_COPY
    other = collect(base, Reporter()).procedures["décompte"].body
    matcher = difflib.SequenceMatcher(a=statement_lines(tour), b=statement_lines(other), autojunk=False)
    assert matcher.ratio() < NEAR_COPY
