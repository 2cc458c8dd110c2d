"""Carcassonne's scoring examples (spec/carcassonne/90-exemples.rules) run by `rulebook test`: the rulebook's
roads of 3 and 4 tiles, its markets of 3 and 4 tiles, a tie and a majority on a market, a residential area and
its markets at the final evaluation.  A copy of the spec with one scoring rule broken makes the example that
exercises it fail, with what was expected and what happened.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import ROOT, broken_copy, run_cli

CARCASSONNE = ROOT / "spec" / "carcassonne"


def test_carcassonne_scoring_examples_all_pass(capsys):
    code, out, _ = run_cli(capsys, "test", str(CARCASSONNE), "--json")
    report = json.loads(out)
    assert code == 0, out
    names = [e["example"] for e in report["examples"]]
    assert {"Une route de trois tuiles", "Une route de quatre tuiles",
            "Un marché de trois tuiles et trois marchandises", "Un marché de quatre tuiles et deux marchandises", "Une zone résidentielle et ses marchés"} <= set(names)
    assert all(e["passed"] and e["expectations"] >= 1 for e in report["examples"])


def _broken_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    return broken_copy(tmp_path, CARCASSONNE, file, old, new)


def test_a_long_road_not_doubled_fails_the_four_tile_road(tmp_path, capsys):
    spec = _broken_copy(tmp_path, "01-partie.rules", "value valeur_route(f) = 2 * tuiles_de(f) when tuiles_de(f) >= 4",
                        "value valeur_route(f) = 2 * tuiles_de(f) when tuiles_de(f) > 4")
    code, out, _ = run_cli(capsys, "test", str(spec))
    assert code == 1
    assert "FAIL Une route de quatre tuiles" in out
    assert "expected: points[Joueur 1] == 8" in out and "actual:   points[Joueur 1] is 4" in out
    assert "ok   Une route de trois tuiles" in out          # only the example of the broken rule fails


def test_a_market_that_adds_instead_of_multiplying_fails_its_examples(tmp_path, capsys):
    spec = _broken_copy(tmp_path, "01-partie.rules", "= tuiles_de(f) * types_de(f)", "= tuiles_de(f) + types_de(f)")
    code, out, _ = run_cli(capsys, "test", str(spec), "-k", "Un marché de trois tuiles et trois marchandises")
    assert code == 1
    assert "expected: points[Joueur 2] == 9 and réserve[Joueur 2] == 7" in out
    assert "actual:   points[Joueur 2] is 6" in out


def test_the_carcassonne_book_has_a_page_of_its_examples():
    from checker.sphinxext import Book, render
    page = ROOT / "docs" / "carcassonne" / "exemples.rst"
    assert page.read_text(encoding="utf-8").strip() == ".. rb:auto:: examples"
    book = Book.load([CARCASSONNE], ROOT / "docs" / "carcassonne" / "lexique.toml")
    text = render(book, "examples", "")
    count = text.count("✔ Vérifié")
    assert count >= 8 and f"**{count} sur {count}** tiennent" in text and book.problems == []
    assert "« Rouge reçoit 8 points (4 portions de route) »" in text


def test_a_removed_placement_rule_fails_the_example_that_names_it(tmp_path, capsys):
    spec = _broken_copy(tmp_path, "01-partie.rules", "forbid placer(p, e) when occupée_par_quelqu_un(partie(e))",
                        "forbid placer(p, e) when false and occupée_par_quelqu_un(partie(e))")
    code, out, _ = run_cli(capsys, "test", str(spec), "-k", "Pas de Marchande sur un marché déjà occupé")
    assert code == 1
    assert "the move is forbidden" in out and "actual:   it is legal here" in out


def test_a_historic_building_worth_2_fails_the_guards_example(tmp_path, capsys):
    spec = _broken_copy(tmp_path, "02-remparts.rules", "(if historique_en(x) then 3 else 0)",
                        "(if historique_en(x) then 2 else 0)")
    code, out, _ = run_cli(capsys, "test", str(spec), "-k", "Un garde et sa rangée de tuiles")
    assert code == 1 and "expected: points[Joueur 1] == 9" in out and "actual:   points[Joueur 1] is 8" in out


def test_a_tower_that_scores_nothing_fails_the_tower_example(tmp_path, capsys):
    spec = _broken_copy(tmp_path, "02-remparts.rules", "set points[p] = points[p] + depuis_la_tour[s]",
                        "set points[p] = points[p]")
    code, out, _ = run_cli(capsys, "test", str(spec), "-k", "Une tour au bout du rempart")
    assert code == 1 and "actual:   points[Joueur 1] is 0" in out
