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
    assert run(capsys, "eval", str(state), "score(Joueur 2) == score(p)")[1].strip() == "non"     # 1 and 0
    assert run(capsys, "eval", str(state), "score(Joueur 4) == score(p)")[1].strip() == "oui"
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


CITIES = {   # hand-picked cities; the totals below are added up from the printed costs
    "Joueur 1": ["Temple", "Tour de guet", "Manoir", "Taverne", "Dracoport"],
    "Joueur 2": ["Palais", "Château"],
    "Joueur 3": ["Temple#2", "Église", "Monastère", "Prison", "Caserne", "Forteresse", "Cathédrale"],
    "Joueur 4": ["Échoppe", "Comptoir", "Port"],
}


def test_score_adds_up_and_names_the_winners(capsys, tmp_path, state):
    """« Fin du jeu »: the costs, +3 for five types, +4 for the first complete city, +2 for the others, the
    Dracoport's 2 points; `rulebook score` on a state whose cities the test wrote, checked against totals
    added up by hand (not against the engine)."""
    data = json.loads(state.read_text(encoding="utf-8"))
    placed = {card for cards in CITIES.values() for card in cards}
    for zone, content in data["zones"].items():
        if isinstance(content, dict):
            data["zones"][zone] = {k: [c for c in v if c not in placed] for k, v in content.items()}
        else:
            data["zones"][zone] = [c for c in content if c not in placed]
    data["zones"]["cité"] = CITIES
    data["vars"]["premier_complet"] = "Joueur 3"
    path = tmp_path / "fin.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, out, err = run(capsys, "score", str(path), "--json")
    assert code == 0, err
    scores = json.loads(out)
    assert scores["scores"] == {"Joueur 1": 1 + 1 + 3 + 1 + 6 + 3 + 2,          # five types, Dracoport
                                "Joueur 2": 5 + 4,
                                "Joueur 3": 1 + 2 + 3 + 2 + 3 + 5 + 5 + 4,      # the first complete city
                                "Joueur 4": 2 + 3 + 4}
    assert scores["winners"] == ["Joueur 3"]
    for player, total in scores["scores"].items():
        assert sum(p["amount"] for p in scores["parts"][player]) == total
    data["vars"]["premier_complet"] = "Joueur 1"      # Joueur 3 completed his city, not first: +2
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    scores = json.loads(run(capsys, "score", str(path), "--json")[1])
    assert scores["scores"]["Joueur 3"] == 21 + 2 and scores["scores"]["Joueur 1"] == 17 + 4
    assert scores["winners"] == ["Joueur 3"]
    assert run(capsys, "eval", str(path), "score(Joueur 1)")[1].strip() == "21"


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
