"""Bad files and outputs found by a robustness probe: outputs that are not regular files, spec files as
outputs (even with --force), `apply` at the encoding limit, card names in the copy notation, a var named as
an enum member, and a log whose spec list names other files than it was played with."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from conftest import ROOT, run_cli

MINIMAL = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"


@pytest.fixture
def minimal(tmp_path):
    folder = tmp_path / "jeu"
    folder.mkdir()
    shutil.copy(MINIMAL, folder / "jeu.rules")
    return folder


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_an_output_that_is_not_a_regular_file_is_refused_even_with_force(capsys, tmp_path, minimal):
    pipe = tmp_path / "tuyau"
    os.mkfifo(pipe)
    for argv in (["play", str(minimal), "-n", "2", "-q", "--json", str(pipe), "--force"],
                 ["simulate", str(minimal), "-n", "2", "--json", str(pipe), "--force"],
                 ["simulate", str(minimal), "-n", "2", "--csv", str(pipe)]):
        code, _, err = run_cli(capsys, *argv)
        assert code == 2 and "is not a regular file" in err, argv
    assert not pipe.is_file()



def test_an_output_under_a_file_says_which_file_is_in_the_way(capsys, tmp_path, minimal):
    """A path under a file (`notes.txt/out.json`, or deeper) names the file in the way, not a missing directory."""
    notes = tmp_path / "notes.txt"
    notes.write_text("mes notes\n", encoding="utf-8")
    for target in (notes / "out.json", notes / "a" / "b" / "out.json"):
        code, _, err = run_cli(capsys, "play", str(minimal), "-n", "2", "-q", "--json", str(target), "--force")
        assert code == 2 and f"{str(notes)!r} is a file, not a directory" in err, err
    missing = tmp_path / "nulle_part" / "out.json"
    code, _, err = run_cli(capsys, "play", str(minimal), "-n", "2", "-q", "--json", str(missing))
    assert code == 2 and "does not exist" in err, err
    assert notes.read_text(encoding="utf-8") == "mes notes\n"

def test_a_spec_file_is_never_an_output_even_with_force(capsys, minimal):
    rules = minimal / "jeu.rules"
    before = rules.read_bytes()
    for argv in (["play", str(minimal), "-n", "2", "-q", "--state-at", "1", str(rules), "--force"],
                 ["simulate", str(minimal), "-n", "2", "--json", str(rules), "--force"],
                 ["fuzz", str(minimal), "--games", "2", "--log", str(rules), "--force"]):
        code, _, err = run_cli(capsys, *argv)
        assert code == 2 and "is an input of this command" in err, argv
    assert rules.read_bytes() == before


def test_apply_at_the_encoding_limit_is_undecided_as_legal_says(capsys, tmp_path, minimal):
    rules = minimal / "jeu.rules"
    rules.write_text(rules.read_text(encoding="utf-8") + "\nrule lourde { forbid acheter(p, l) when "
                     "sum(x in 0..599: sum(y in 0..599: if x == y then 1 else 0)) > bourse[p] + 1000 }\n",
                     encoding="utf-8")
    state = tmp_path / "état.json"
    assert run_cli(capsys, "play", str(minimal), "-n", "2", "-q", "--state-at", "1", str(state))[0] == 0
    move = tmp_path / "coup.json"
    lot = json.loads(state.read_text(encoding="utf-8"))["zones"]["étal"][0]
    move.write_text(json.dumps({"player": "Joueur 1", "action": "acheter", "args": ["Joueur 1", lot]}),
                    encoding="utf-8")
    for argv in (["legal", str(state), str(move)], ["apply", str(state), str(move), "-o", str(tmp_path / "o.json")]):
        code, out, _ = run_cli(capsys, *argv)
        assert code == 4 and "the limit of one Z3 encoding" in out, argv


def test_a_card_named_as_a_copy_is_refused(capsys, minimal):
    rules = minimal / "jeu.rules"
    rules.write_text(rules.read_text(encoding="utf-8").replace('"Cannelle"', '"Cannelle#2"'), encoding="utf-8")
    code, out, err = run_cli(capsys, "check", str(minimal))
    err += out
    assert code == 1 and "error[E0101]: card 'Cannelle#2' ends in '#' and a number" in err
    assert "such as 'Cannelle 2'" in err


@pytest.mark.parametrize("text", ["var poivre: Int = 0", "quantity safran(): Int = 1"])
def test_a_value_named_as_an_enum_member_is_reported(capsys, minimal, text):
    rules = minimal / "jeu.rules"
    rules.write_text(rules.read_text(encoding="utf-8") + "\n" + text + "\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "check", str(minimal))
    err += out
    assert code == 1 and "has the name of a member of enum 'Épice'" in err


def test_an_enum_member_named_as_a_var_is_reported(capsys, minimal):
    rules = minimal / "jeu.rules"
    rules.write_text("var girofle: Int = 0\n" + rules.read_text(encoding="utf-8").replace(
        "enum Épice { safran, poivre, cannelle }", "enum Épice { safran, poivre, cannelle, girofle }"),
        encoding="utf-8")
    code, out, err = run_cli(capsys, "check", str(minimal))
    err += out
    assert code == 1 and "enum member 'girofle' has the name of a var" in err


def test_replay_binds_the_files_of_the_logs_spec_list(capsys, tmp_path, minimal):
    log = tmp_path / "partie.json"
    assert run_cli(capsys, "play", str(minimal), "-n", "2", "-q", "--json", str(log))[0] == 0
    record = json.loads(log.read_text(encoding="utf-8"))
    assert len(record["spec_digest"]) == 16
    assert run_cli(capsys, "replay", str(log))[0] == 0
    unused = tmp_path / "rien.rules"
    unused.write_text('overlay "rien" on "Marché aux épices"\nvar inutile: Int = 0\n', encoding="utf-8")
    record["spec"].append(str(unused))
    log.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    code, _, err = run_cli(capsys, "replay", str(log))
    assert code == 1 and "the log was played with other rules" in err


def test_apply_never_writes_over_the_spec_its_state_names(capsys, tmp_path, minimal):
    """`apply` learns its spec from the state file: the spec's files are refused as its output too."""
    rules = minimal / "jeu.rules"
    before = rules.read_bytes()
    state = tmp_path / "état.json"
    assert run_cli(capsys, "play", str(minimal), "-n", "2", "-q", "--state-at", "1", str(state))[0] == 0
    lot = json.loads(state.read_text(encoding="utf-8"))["zones"]["étal"][0]
    move = tmp_path / "coup.json"
    move.write_text(json.dumps({"player": "Joueur 1", "action": "acheter", "args": ["Joueur 1", lot]}),
                    encoding="utf-8")
    code, _, err = run_cli(capsys, "apply", str(state), str(move), "-o", str(rules), "--force")
    assert code == 2 and "is an input of this command" in err
    assert rules.read_bytes() == before
