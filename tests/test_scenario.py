"""Scenarios without whole games: `rulebook eval`, `score` and `apply` on a state from a seeded game."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli

run = run_cli


@pytest.fixture
def state(capsys, tmp_path):
    """Decision 25 of seed 3: Joueur 4 plays the Assassin (« Annoncez le personnage que vous assassinez. »)."""
    path = tmp_path / "etat.json"
    code, _, err = run(capsys, "play", "spec/citadelles", "-n", "4", "-s", "3", "-c", "Première partie", "-q",
                       "--state-at", "25", str(path))
    assert code == 0, err
    return path


def move(tmp_path, name, data) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_eval_reads_quantities_vars_and_the_names_in_scope(capsys, state):
    gold = json.loads(state.read_text(encoding="utf-8"))["vars"]["trésor"]["Joueur 4"]
    assert run(capsys, "eval", str(state), "trésor[p] + 1")[1].strip() == str(gold + 1)
    assert run(capsys, "eval", str(state), "c")[1].strip() == "Assassin"
    assert run(capsys, "eval", str(state), "score(Joueur 2) == score(p)")[1].strip() in ("oui", "non")
    code, _, err = run(capsys, "eval", str(state), "scor(p)")
    assert code == 2 and "did you mean 'score'?" in err and "EXPR:1:1" in err


def test_eval_errors_show_the_expression_as_typed_with_a_caret(capsys, state):
    code, _, err = run(capsys, "eval", str(state), "score(Joueur 2) + trésorr[p]")
    lines = err.splitlines()
    assert code == 2 and lines[0].startswith("EXPR:1:19: error[E0202]")
    assert lines[1] == "    1 | score(Joueur 2) + trésorr[p]"          # not Joueur_2, not the quantity around it
    assert lines[2].index("^") == lines[1].index("trésorr") and lines[2].count("^") == len("trésorr")
    code, _, err = run(capsys, "eval", str(state), "score(Joueur 1) +")
    assert code == 2 and "end of the expression" in err and "__évaluée__" not in err and "Joueur_1" not in err
    assert "    1 | score(Joueur 1) +" in err
    code, _, err = run(capsys, "eval", str(state), "score(Joueur 9)")
    assert code == 2 and "there is no Joueur 9" in err


def test_score_adds_up_and_names_the_winners(capsys, state):
    code, out, _ = run(capsys, "score", str(state), "--json")
    assert code == 0
    data = json.loads(out)
    for player, total in data["scores"].items():
        assert sum(p["amount"] for p in data["parts"][player]) == total
        assert run(capsys, "eval", str(state), f"score({player})")[1].strip() == str(total)
    assert data["winners"]


def test_apply_runs_the_power_and_its_answers(capsys, tmp_path, state):
    power = move(tmp_path, "pouvoir.json", {"player": "Joueur 4", "power": "assassinat", "card": "Assassin"})
    half = tmp_path / "choix.json"
    code, out, _ = run(capsys, "apply", str(state), power, "-o", str(half))
    assert code == 0 and "choose at 10-personnages-1-4.rules:39:5" in out    # the power asks whom to kill
    assert "Roi" in run(capsys, "moves", str(half))[1]
    answer = move(tmp_path, "réponse.json", {"player": "Joueur 4", "choose": "Roi"})
    after = tmp_path / "après.json"
    code, out, _ = run(capsys, "apply", str(state), power, answer, "-o", str(after))
    assert code == 0 and "offer at 01-partie.rules:240:3" in out
    assert run(capsys, "eval", str(after), 'assassiné["Roi"]')[1].strip() == "oui"
    assert "assassinat" not in run(capsys, "moves", str(after))[1]         # once per turn
    code, _, err = run(capsys, "apply", str(state), power, answer, "-o", str(after))
    assert code == 2 and "already exists" in err


def test_apply_refuses_an_illegal_move_with_its_reasons(capsys, tmp_path, state):
    build = move(tmp_path, "coup.json", {"player": "Joueur 4", "action": "bâtir", "args": ["Joueur 4", "Palais"]})
    code, _, err = run(capsys, "apply", str(state), build, "-o", str(tmp_path / "x.json"))
    assert code == 1 and "bâtir_depuis_la_main" in err
    assert not (tmp_path / "x.json").exists()
