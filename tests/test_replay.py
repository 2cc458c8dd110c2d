"""`rulebook replay`: a game log replays to the same game, decision by decision, state by state;
a changed log is caught at the first difference; bad files are refused plainly.  And `rulebook
play --human`: a person at the terminal plays one seat."""

from __future__ import annotations

import copy
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from checker.front.configurations import select
from checker.runtime import Engine
from checker.human.agent import HumanAgent, HumanQuit
from checker.runtime.engine import Decision
from checker.runtime.replay import state_digest
from conftest import ROOT, bundled

CONFIG = "Première partie"


pytestmark = pytest.mark.usefixtures("bundled_checked_once")


def run(capsys, *argv):
    from checker.cli import main
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def play_log(capsys, tmp_path: Path, seed: int = 3, name: str = "game.json", *more: str) -> Path:
    log = tmp_path / name
    code, _, err = run(capsys, "play", "spec/citadelles", "-n", "4", "-c", CONFIG, "-s", str(seed), "-q",
                       "--json", str(log), *more)
    assert code == 0, err
    return log


@pytest.fixture
def log(capsys, tmp_path) -> Path:
    return play_log(capsys, tmp_path)


def decisions(record: dict) -> list[dict]:
    return [e for e in record["events"] if e["kind"] == "decision"]


def write(tmp_path: Path, record, name: str = "changed.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return path


# ---------------------------------------------------------------- the log and its replay

def test_a_logged_game_replays_to_the_same_game(capsys, log):
    record = json.loads(log.read_text(encoding="utf-8"))
    asked = decisions(record)
    assert asked and all(re.fullmatch(r"[0-9a-f]{16}", d["state"]) for d in asked)
    assert re.fullmatch(r"[0-9a-f]{16}", record["final_state"])
    assert len({d["state"] for d in asked}) > len(asked) // 2, "the state changes as the game goes"
    code, out, err = run(capsys, "replay", str(log))
    assert code == 0, err
    assert out.strip() == f"replay ok: {len(asked)} decisions, same state at each, same scores"


def test_the_same_seed_writes_the_same_bytes(capsys, tmp_path):
    first = play_log(capsys, tmp_path, 5, "a.json").read_bytes()
    again = play_log(capsys, tmp_path, 5, "b.json").read_bytes()
    other = play_log(capsys, tmp_path, 6, "c.json").read_bytes()
    assert first == again
    assert first != other


def test_the_log_is_the_same_in_another_process(capsys, tmp_path):
    """No str hash, no address in the digests: another interpreter, with other string hashes, agrees."""
    here = play_log(capsys, tmp_path, 7, "here.json").read_bytes()
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run([sys.executable, "-m", "checker", "play", "spec/citadelles", "-n", "4", "-c", CONFIG,
                           "-s", "7", "-q", "--json", str(tmp_path / "there.json")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "there.json").read_bytes() == here


def test_a_changed_choice_is_caught_at_the_next_decision(capsys, log, tmp_path):
    record = json.loads(log.read_text(encoding="utf-8"))
    changed = copy.deepcopy(record)
    k = next(i for i, d in enumerate(decisions(changed)) if i >= 20 and len(d["options"]) >= 2)
    d = decisions(changed)[k]
    d["chosen"] = (d["chosen"] + 1) % len(d["options"])
    code, out, err = run(capsys, "replay", str(write(tmp_path, changed)))
    assert code == 1 and "replay ok" not in out
    # decision k+1 (1-based) was changed: the game goes another way from there, seen at the next one
    assert f"decision {k + 2} (" in err and f"after decision {k + 1}" in err
    assert "expected state" in err and "found state" in err


def test_a_changed_state_digest_is_caught_where_it_is(capsys, log, tmp_path):
    record = json.loads(log.read_text(encoding="utf-8"))
    d = decisions(record)[40]
    logged, d["state"] = d["state"], "0123456789abcdef"
    code, _, err = run(capsys, "replay", str(write(tmp_path, record)))
    assert code == 1
    player = f"Joueur {d['player'] + 1}"
    assert re.search(rf"decision 41 \(tour \d+, {player}\): expected state 0123456789abcdef, found state {logged}",
                     err), err


def test_a_changed_decider_is_caught_naming_both_players(capsys, log, tmp_path):
    record = json.loads(log.read_text(encoding="utf-8"))
    d = decisions(record)[10]
    seat = d["player"]
    d["player"] = (seat + 1) % 4
    code, _, err = run(capsys, "replay", str(write(tmp_path, record)))
    assert code == 1
    assert (f"expected Joueur {(seat + 1) % 4 + 1} to decide « {d['prompt']} », "
            f"found Joueur {seat + 1} deciding « {d['prompt']} »") in err, err


def test_changed_options_are_caught_in_the_same_state(capsys, log, tmp_path):
    record = json.loads(log.read_text(encoding="utf-8"))
    d = decisions(record)[10]
    option = d["options"][0]
    d["options"][0] += " (modifié)"
    code, _, err = run(capsys, "replay", str(write(tmp_path, record)))
    assert code == 1
    assert "decision 11 (" in err and "expected the options" in err and "(modifié)" in err
    assert f"(not offered now: [« {option} (modifié) »]; new: [« {option} »])" in err, err
    assert "in the same state" in err


def test_a_cut_log_and_changed_scores_are_caught(capsys, log, tmp_path):
    record = json.loads(log.read_text(encoding="utf-8"))
    cut = dict(record, events=record["events"][:100])
    n = len(decisions(cut))
    code, _, err = run(capsys, "replay", str(write(tmp_path, cut, "cut.json")))
    assert code == 1 and f"decision {n + 1} (" in err and f"the log ends after {n} decisions" in err
    scores = dict(record, scores={**record["scores"], "0": record["scores"]["0"] + 1})
    code, _, err = run(capsys, "replay", str(write(tmp_path, scores, "scores.json")))
    assert code == 1 and "the scores differ" in err
    seed = dict(record, seed=record["seed"] + 1)
    code, _, err = run(capsys, "replay", str(write(tmp_path, seed, "seed.json")))
    assert code == 1 and "decision 1 (" in err


def test_a_log_that_goes_on_after_the_game_ended_is_caught(capsys, log, tmp_path):
    """Decisions logged after the last one the game asks: the replay names the first one left over and how many
    are left (not the ones answered)."""
    record = json.loads(log.read_text(encoding="utf-8"))
    last = decisions(record)[-1]
    longer = dict(record, events=record["events"] + [copy.deepcopy(last), copy.deepcopy(last)])
    code, out, err = run(capsys, "replay", str(write(tmp_path, longer, "longer.json")))
    assert code == 1 and "replay ok" not in out
    assert f"decision {len(decisions(record)) + 1} (" in err, "named by its place in the log, 1-based"
    assert f"the game ended, but the log goes on with « {last['prompt']} »" in err, err
    assert "(2 decision(s) left)" in err, err


BAD = {
    "not JSON": b"{ this is not json",
    "empty": b"",
    "not UTF-8": b"\xff\xfe\x00",
    "a list": b"[1, 2, 3]",
    "no events": json.dumps({"spec": ["spec/citadelles"], "configuration": CONFIG, "players": 4, "seed": 0,
                             "selection": {}, "scores": {}, "winners": []}).encode(),
}


@pytest.mark.parametrize("name", list(BAD))
def test_a_file_that_is_not_a_log_is_refused_plainly(capsys, tmp_path, name):
    path = tmp_path / "bad.json"
    path.write_bytes(BAD[name])
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and err.startswith("rulebook replay: ") and "replay ok" not in out


def test_a_log_of_the_wrong_shape_is_refused_plainly(capsys, log, tmp_path):
    record = json.loads(log.read_text(encoding="utf-8"))
    first = record["events"].index(decisions(record)[0])
    changes = {
        "players": lambda r: r.update(players="4"),
        "seed": lambda r: r.update(seed=None),
        "spec": lambda r: r.update(spec="spec/citadelles"),
        "selection": lambda r: r.update(selection=["Roi"]),
        "events": lambda r: r["events"].__setitem__(3, "round"),
        f"events/{first}/chosen": lambda r: r["events"][first].update(chosen=99),
        f"events/{first}/options": lambda r: r["events"][first].update(options="Roi"),
        f"events/{first}/state": lambda r: r["events"][first].update(state=12),
        "winners": lambda r: r.update(winners=[7]),
    }
    for where, change in changes.items():
        bad = copy.deepcopy(record)
        change(bad)
        code, _, err = run(capsys, "replay", str(write(tmp_path, bad)))
        assert code == 2 and f"is not a game log: {where}" in err, (where, err)
    del record["scores"]
    code, _, err = run(capsys, "replay", str(write(tmp_path, record)))
    assert code == 2 and "'scores' is a required property" in err


def test_a_missing_file_or_spec_is_refused_plainly(capsys, log, tmp_path):
    code, _, err = run(capsys, "replay", str(tmp_path / "nowhere.json"))
    assert code == 2 and "no such file" in err
    code, _, err = run(capsys, "replay", str(tmp_path))
    assert code == 2 and "cannot read" in err
    record = json.loads(log.read_text(encoding="utf-8"))
    code, _, err = run(capsys, "replay", str(write(tmp_path, dict(record, spec=["spec/gone"]))))
    assert code == 2 and '"spec/gone" does not exist' in err
    code, _, err = run(capsys, "replay", str(write(tmp_path, dict(record, configuration="Disparue"))))
    assert code == 2 and 'no configuration "Disparue"' in err


def test_a_spec_that_no_longer_checks_is_refused(capsys, log, tmp_path):
    broken = tmp_path / "citadelles"
    shutil.copytree(ROOT / "spec" / "citadelles", broken)
    with open(broken / "00-jeu.rules", "a", encoding="utf-8") as f:
        f.write("\nvar cassée: Inconnu = 0\n")
    record = json.loads(log.read_text(encoding="utf-8"))
    code, out, err = run(capsys, "replay", str(write(tmp_path, dict(record, spec=[str(broken)]))))
    assert code == 1 and "rulebook replay: the spec has 1 error(s): fix them first" in err and "unknown type 'Inconnu'" in out


def test_the_state_digest_covers_what_changes_and_only_that():
    program = bundled().program
    e = Engine(bundled().typed)
    st = e.start(select(program, program.configurations[CONFIG], 4).cards, 4, 1, [None] * 4)
    first = state_digest(st)
    st.zone("cité", 2)                              # a zone looked at (created empty) is not a change
    assert state_digest(st) == first
    st.vars["couronne"] = 2
    crowned = state_digest(st)
    assert crowned != first
    st.rng.random()
    drawn = state_digest(st)
    assert drawn != crowned, "the random source is part of the state"
    pioche = st.zone("pioche")
    pioche[0], pioche[1] = pioche[1], pioche[0]
    assert state_digest(st) != drawn, "the order of the cards in a zone is part of the state"


# ---------------------------------------------------------------- a person at the terminal

def decision(options, optional=False) -> Decision:
    return Decision(player=1, prompt="que faire ?", options=options, label=str, optional=optional)


def scripted(*answers):
    """An input() that gives ``answers`` in order, then the end of input."""
    queue = list(answers)

    def read(prompt=""):
        if not queue:
            raise EOFError
        answer = queue.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer
    return read


def test_a_person_answers_by_number_and_is_asked_again_when_wrong():
    said: list[str] = []
    agent = HumanAgent(input=scripted("", "trois", "0", "4", " 2 "), output=said.append)
    assert agent.choose(decision(["bâtir", "pièces", "Terminer son tour"])) == 1
    text = "\n".join(said)
    assert "Joueur 2 — que faire ?" in text and "  1. bâtir" in text and "  3. Terminer son tour" in text
    assert sum("n'est pas un choix" in line for line in said) == 3
    assert sum(line.startswith("Tapez un nombre de 1 à 3") for line in said) == 1, "an empty answer"
    assert HumanAgent(input=scripted("Terminer son tour"), output=said.append).choose(
        decision(["bâtir", "Terminer son tour"])) == 1, "an option's exact label is an answer too"
    assert HumanAgent(input=scripted("2"), output=said.append).choose(decision(["a"], optional=True)) == 1, \
        "an optional decision offers (rien) last"


@pytest.mark.parametrize("ending", [EOFError(), KeyboardInterrupt(), "q"])
def test_a_person_who_leaves_ends_the_game_cleanly(ending):
    agent = HumanAgent(input=scripted("x", ending), output=lambda *_: None)
    with pytest.raises(HumanQuit):
        agent.choose(decision(["a", "b"]))


def test_play_with_a_person_at_one_seat(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 5000))
    log = tmp_path / "human.json"
    code, out, err = run(capsys, "play", "spec/citadelles", "-n", "4", "-c", CONFIG, "-s", "2", "--human", "3",
                         "--json", str(log))
    assert code == 0, err
    assert "Joueur 3" in out and "Votre choix (1-" in out and "Vainqueur : Joueur" in out
    asked = [e for e in decisions(json.loads(log.read_text(encoding="utf-8"))) if e["player"] == 2]
    assert asked and all(e["chosen"] == 0 for e in asked), "the person answered 1 each time"
    # the others' secret choices are not shown to the person
    assert not re.search(r"Joueur [124] \(en secret\) — .* → ", out)
    code, out, err = run(capsys, "replay", str(log))
    assert code == 0 and out.startswith("replay ok: "), err


def test_play_with_a_person_who_leaves(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("7\n"))
    code, out, err = run(capsys, "play", "spec/citadelles", "-n", "4", "-c", CONFIG, "--human", "1")
    assert code == 130 and "Partie interrompue" in err and "n'est pas un choix" in out
    code, _, err = run(capsys, "play", "spec/citadelles", "-n", "4", "-c", CONFIG, "--human", "5")
    assert code == 2 and "--human takes a seat from 1 to 4" in err
