"""Worked examples (`example` declarations, docs/examples.md): lowered, typed, run by `rulebook test`.

The spec's own examples (spec/citadelles/90-exemples.rules: the livret's « Exemple de tour d'un joueur » and
clarifications of its rules) all pass; a copy of the spec with one rule broken makes the example that
exercises that rule fail, with what was expected and what happened.
"""

from __future__ import annotations

import json
from pathlib import Path

import lark
import pytest

from checker.front import ast
from checker.front import example_ast as ex
from checker.base.source import Span
from checker.front.check import check_paths
from conftest import ROOT, broken_copy, run_cli

CITADELLES = ROOT / "spec" / "citadelles"


def _values(node):
    """The fields of a node, and what the tuples among them hold (a Lark token is a str: walk skips it)."""
    stack = [getattr(node, f) for f in node.__dataclass_fields__]
    while stack:
        value = stack.pop()
        if isinstance(value, tuple):
            stack.extend(value)
        else:
            yield value


@pytest.fixture(scope="module")
def checked():
    result = check_paths([CITADELLES])
    assert result.ok
    return result


def test_examples_lower_to_frozen_nodes_with_spans(checked):
    examples = checked.program.examples
    assert "Exemple de tour d'un joueur" in examples
    for example in examples.values():
        for node in ast.walk(example):
            if isinstance(node, Span):
                continue
            assert getattr(node, "span", None) is not None, type(node).__name__
            for value in _values(node):
                assert not isinstance(value, (lark.Tree, lark.Token)), (type(node).__name__, value)
    worked = examples["Exemple de tour d'un joueur"]
    assert worked.players == 4 and worked.configuration[0] == "Première partie"
    assert any(isinstance(s, ex.ExampleCall) and s.name == "tour" for s in worked.steps)
    assert any(isinstance(s, ex.ExampleExpect) and s.by for s in worked.steps)


def test_citadelles_examples_all_pass(capsys):
    code, out, err = run_cli(capsys, "test", str(CITADELLES), "--json")
    report = json.loads(out)
    assert code == 0, out
    names = [e["example"] for e in report["examples"]]
    assert "Exemple de tour d'un joueur" in names
    assert len(names) >= 21                     # the worked example and at least 20 clarifications
    assert all(e["passed"] for e in report["examples"])
    assert sum(e["expectations"] for e in report["examples"]) >= 40


def _broken_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    return broken_copy(tmp_path, CITADELLES, file, old, new)


def test_a_broken_quantity_fails_its_example_with_expected_and_actual(tmp_path, capsys):
    spec = _broken_copy(tmp_path, "00-jeu.rules", "quantity or_reçu(p: Player): Int = 2",
                        "quantity or_reçu(p: Player): Int = 3")
    code, out, _ = run_cli(capsys, "test", str(spec), "-k", "Prendre 2 pièces d'or")
    assert code == 1
    assert "FAIL Prendre 2 pièces d'or" in out
    assert "expected: trésor[Joueur 1] == 2" in out
    assert "actual:   trésor[Joueur 1] is 3" in out


def test_a_removed_prohibition_fails_the_example_that_names_it(tmp_path, capsys):
    spec = _broken_copy(tmp_path, "01-partie.rules", "forbid bâtir(p, d) when d in cité[p]",
                        "forbid bâtir(p, d) when false and d in cité[p]")
    code, out, _ = run_cli(capsys, "test", str(spec), "--json", "-k", "Pas deux quartiers identiques")
    assert code == 1
    [example] = json.loads(out)["examples"]
    [failure] = example["failures"]
    assert failure["expected"].endswith("the move is forbidden")
    assert failure["actual"] == "it is legal here"


def test_an_answer_that_is_not_an_option_says_what_the_options_are(tmp_path, capsys):
    spec = _broken_copy(tmp_path, "90-exemples.rules", "  choose pièces\n  expect trésor[Joueur 1] == 2",
                        "  choose \"Temple\"\n  expect trésor[Joueur 1] == 2")
    code, out, _ = run_cli(capsys, "test", str(spec), "-k", "Prendre 2 pièces d'or")
    assert code == 1
    assert "to answer" in out and "it is not one of the options, Joueur 1 has: pièces, cartes" in out


def test_a_situation_that_breaks_an_invariant_is_refused(tmp_path, capsys):
    spec = _broken_copy(tmp_path, "90-exemples.rules", '  move "Roi" to choisis[Joueur 1]\n  set trésor[Joueur 1] = 0',
                        '  move {"Roi", "Évêque"} to choisis[Joueur 1]\n  set trésor[Joueur 1] = 0')
    code, out, _ = run_cli(capsys, "test", str(spec), "-k", "Prendre 2 pièces d'or")
    assert code == 1
    assert "expected: a situation a game can be in" in out
    assert "un_personnage_par_joueur" in out


def test_unknown_example_name_is_bad_input(capsys):
    code, _, err = run_cli(capsys, "test", str(CITADELLES), "-k", "Exemple de tour d'un jouer")
    assert code == 2 and "did you mean \"Exemple de tour d'un joueur\"" in err


def test_base_examples_an_overlay_makes_ill_formed_are_set_aside(capsys):
    result = check_paths([CITADELLES, ROOT / "spec" / "extension-fan"])
    assert result.ok
    assert "Exemple de tour d'un joueur" in result.typed.inapplicable
    code, out, _ = run_cli(capsys, "test", str(CITADELLES), str(ROOT / "spec" / "extension-fan"), "-k",
                           "Exemple de tour d'un joueur")
    assert code == 0 and out.startswith("skip Exemple de tour d'un joueur  (does not apply to this rule set")


def test_eval_names_one_copy_as_moves_prints_it(tmp_path, capsys):
    state = tmp_path / "state.json"
    code, _, _ = run_cli(capsys, "play", str(CITADELLES), "-n", "4", "-s", "1", "-c", "Première partie",
                         "--state-at", "5", str(state), "-q")
    assert code == 0 and state.exists(), code
    code, out, _ = run_cli(capsys, "eval", str(state), '"Temple#3" is "Temple#1"')
    assert (code, out.strip()) == (0, "non")
    code, out, _ = run_cli(capsys, "eval", str(state), '"Temple#1" is "Temple#1"')
    assert (code, out.strip()) == (0, "oui")
    code, out, _ = run_cli(capsys, "eval", str(state), '"Temple#2" in pioche or "Temple#2" not in pioche')
    assert (code, out.strip()) == (0, "oui")          # a Bool, not the count of copies by name
    code, _, err = run_cli(capsys, "eval", str(state), 'count(d in pioche where d is "Temple#4")')
    assert code == 2
    assert ('unknown card "Temple#4": "Temple" has 3 copies in this game, named as `moves` prints them: '
            '"Temple", "Temple#2", "Temple#3"') in err
