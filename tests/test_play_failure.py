"""A game that stops on an error of the spec keeps what led there: `rulebook play` prints the French log up to
the error and the failing statement, writes `--json FILE` with every decision up to it, and `rulebook replay`
stops again on the same error and says so.  The spec is the 4th edition with a house rule that fails
(tests/fixtures/fuzz/emprunt.rules: a player may borrow more than he can pay back at the end of the round)."""

from __future__ import annotations

import json
import re

import pytest

from conftest import run_cli

FIXTURE = "tests/fixtures/fuzz/emprunt.rules"
PLAY = ["play", "spec/citadelles", FIXTURE, "-c", "Première partie", "-n", "2", "-s", "2"]


pytestmark = pytest.mark.usefixtures("specs_checked_once")   # each command checks the spec once


def test_a_failing_play_prints_its_log_and_the_failing_statement(capsys):
    code, out, err = run_cli(capsys, *PLAY)
    assert code == 1, err
    assert out.startswith("Citadelles — Première partie, 2 joueurs, graine 2")
    assert "=== Tour 1 ===" in out and "Joueur 1 : Emprunter" in out, "the French log up to the error"
    assert "Scores" not in out
    assert f"{FIXTURE}:28:7: error[R0001]: the spec failed while playing: transfer of 6 from a counter holding 0" in err
    assert "transfer dette[q] from trésor[q] to banque" in err and "^^^^" in err, "the statement, with a caret"


def test_a_failing_play_writes_its_log_and_replay_stops_on_the_same_error(capsys, tmp_path):
    log = tmp_path / "échec.json"
    code, _, err = run_cli(capsys, *PLAY, "-q", "--json", str(log))
    assert code == 1 and f"the game up to the error (24 decisions) is written to {log}" in err
    record = json.loads(log.read_text(encoding="utf-8"))
    assert record["error"] == {"message": "transfer of 6 from a counter holding 0 (write `transfer up to` to move "
                                          "what there is)", "at": f"{FIXTURE}:28:7"}
    assert record["scores"] == {} and record["winners"] == []
    assert sum(e["kind"] == "decision" for e in record["events"]) == 24
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 1, "the spec still fails"
    assert "replay ok: 24 decisions, same state at each, and the game stops again on the log's error" in out
    assert "transfer of 6 from a counter holding 0" in err

    # another error at the end of the log is a difference
    record["error"]["message"] = "transfer of 7 from a counter holding 0"
    log.write_text(json.dumps(record), encoding="utf-8")
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 1 and "the game stops on another error" in err and "replay ok" not in out

    # an event that is not a decision changed: the replay names the first one that differs, counted from 0
    record["error"]["message"] = ("transfer of 6 from a counter holding 0 (write `transfer up to` to move what "
                                  "there is)")
    changed = max(i for i, e in enumerate(record["events"]) if e["kind"] != "decision")
    kept = record["events"][changed]
    record["events"][changed] = {**kept, "changed": True}
    log.write_text(json.dumps(record), encoding="utf-8")
    code, _, err = run_cli(capsys, "replay", str(log))
    n = len(record["events"])
    assert code == 1 and f"the events differ from event {changed} on ({n} in the log, {n} in the replay)" in err, err
    record["events"][changed] = kept

    # one decision less: the game asks for it where the log has ended
    last = max(i for i, e in enumerate(record["events"]) if e["kind"] == "decision")
    del record["events"][last]
    log.write_text(json.dumps(record), encoding="utf-8")
    code, _, err = run_cli(capsys, "replay", str(log))
    assert code == 1 and "the log ends after 23 decisions" in err


def test_a_log_ending_on_an_error_differs_from_a_game_played_to_its_end(capsys, tmp_path):
    """A complete game's log with an error added: the replay plays on past it, and says so."""
    log = tmp_path / "partie.json"
    code, _, _ = run_cli(capsys, "play", "spec/citadelles", "-c", "Première partie", "-n", "2", "-s", "2", "-q",
                         "--json", str(log))
    assert code == 0
    record = json.loads(log.read_text(encoding="utf-8"))
    record["error"] = {"message": "transfer of 6 from a counter holding 0", "at": None}
    log.write_text(json.dumps(record), encoding="utf-8")
    code, _, err = run_cli(capsys, "replay", str(log))
    assert code == 1 and "the log ends on an error (transfer of 6 from a counter holding 0), but the replayed " \
                         "game plays on to its end" in err


def test_json_on_the_standard_output_carries_the_error(capsys):
    code, out, _ = run_cli(capsys, *PLAY, "-q", "--json")
    assert code == 1
    record = json.loads(out)
    assert record["error"]["at"] == f"{FIXTURE}:28:7" and record["scores"] == {}


def test_simulate_names_the_users_file_and_how_to_play_the_failed_game_again(capsys):
    code, out, err = run_cli(capsys, "simulate", "spec/citadelles", FIXTURE, "-c", "Première partie", "--players",
                             "2", "-n", "1", "--workers", "1")
    assert code == 1
    located = re.search(rf"\(graine 0\) arrêtée : {re.escape(FIXTURE)}:28:7: (transfer of \d+ from a counter "
                        rf"holding \d+)", out)
    assert located, "located in the user's file, not in the worker's copy"
    assert "rulebook-simulate-" not in out + err
    assert (f"rulebook play spec/citadelles {FIXTURE} -c 'Première partie' -n 2 -s 0 --agent greedy "
            f"--json partie.json") in err
    # that line plays the same game, to the same error
    code, _, err = run_cli(capsys, "play", "spec/citadelles", FIXTURE, "-c", "Première partie", "-n", "2", "-s", "0",
                           "--agent", "greedy", "-q")
    assert code == 1 and located.group(1) in err


def test_play_without_a_configuration_takes_the_specs_first_for_that_count(capsys):
    """As `simulate` does: `-c` left out, the spec's first configuration that the player count allows."""
    code, out, _ = run_cli(capsys, "play", "spec/citadelles", "-n", "3", "-q", "--json")
    assert code == 0 and json.loads(out)["configuration"] == "Développement", "Première partie is not for 3"
    code, _, err = run_cli(capsys, "play", "spec/citadelles", "-n", "9", "-q")
    assert code == 2 and "no configuration of the spec is for 9 players: give --config" in err
