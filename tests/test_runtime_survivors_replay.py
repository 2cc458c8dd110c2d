"""`rulebook replay` names each difference between a log and the game played again (checker/runtime/replay.py),
on a tiny game of three rounds where each player bets a number in secret: a decision logged as not secret, the
winners changed, and, for the same game with a last payment that fails, a log that goes on after the error and a
log that ends on another error.  Written for the survivors of the blind runtime sample
(bench/results/mutation-2026-11-28-f.txt); tests/test_replay.py and tests/test_play_failure.py play Citadelles."""

from __future__ import annotations

import hashlib
import json
import struct
from pathlib import Path

import pytest

from checker.base.documents import excerpt
from checker.runtime.replay import state_digest
from checker.runtime.state import State
from conftest import run_cli

GAME = """
game "Mises" {
  edition: "test"
  players: 2..4
  flow: partie
  round: manche
  score: score
}
counter banque unlimited
counter bourse[Player] public
var numéro: Int = 0
var mises[Player]: Int = 0
quantity score(p: Player): Int = bourse[p] + mises[p]

procedure partie() {
  repeat {
    set numéro = numéro + 1
    call manche(numéro)
  } until numéro >= 3
  call solde()
}
procedure manche(m: Int) {
  for p in players {
    transfer 1 from banque to bourse[p]
    choose n in 1..3 by p secretly
    set mises[p] = mises[p] + n * m
  }
}
procedure solde() { log "fin" }
configuration "Standard" { players: 2..4 }
"""

# the same game, whose last payment asks each player one coin more than the three a game gives
FAILING = GAME.replace('procedure solde() { log "fin" }',
                       'procedure solde() { for p in players { transfer 4 from bourse[p] to banque } }')


def _spec(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mises.rules"
    path.write_text(text, encoding="utf-8")
    return path


def _log(capsys, tmp_path: Path, text: str, code: int = 0) -> tuple[Path, dict]:
    spec = _spec(tmp_path, text)
    log = tmp_path / "partie.json"
    got, _, err = run_cli(capsys, "play", str(spec), "-n", "2", "-s", "5", "-q", "--json", str(log))
    assert got == code, err
    return log, json.loads(log.read_text(encoding="utf-8"))


def _replay(capsys, log: Path, record: dict) -> tuple[int, str, str]:
    log.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return run_cli(capsys, "replay", str(log))


def _decisions(record: dict) -> list[dict]:
    return [e for e in record["events"] if e["kind"] == "decision"]


def test_the_log_replays_and_a_secret_decision_logged_as_open_is_caught_where_it_is(capsys, tmp_path):
    log, record = _log(capsys, tmp_path, GAME)
    asked = _decisions(record)
    assert len(asked) == 6 and all(e["secret"] is True for e in asked)
    code, out, err = _replay(capsys, log, record)
    assert code == 0 and "replay ok: 6 decisions, same state at each, same scores" in out, err
    asked[2]["secret"] = False          # Joueur 1's bet in round 2
    code, out, err = _replay(capsys, log, record)
    assert code == 1 and "replay ok" not in out
    assert ("rulebook replay: the game differs from the log: decision 3 (tour 2, Joueur 1): « manche — choisir n » "
            "is secret now, it was not in the log (in the same state: the spec now decides differently here)"
            ) in err, err


def test_changed_winners_are_named_by_seat(capsys, tmp_path):
    log, record = _log(capsys, tmp_path, GAME)
    winners = record["winners"]
    assert winners in ([0], [1], [0, 1])
    record["winners"] = [1] if winners == [0] else [0]
    code, _, err = _replay(capsys, log, record)
    seats = {(0,): "Joueur 1", (1,): "Joueur 2", (0, 1): "Joueur 1 et Joueur 2"}
    assert code == 1
    assert (f"after decision 6: the winners differ: the log has {seats[tuple(record['winners'])]}, "
            f"the replay has {seats[tuple(winners)]}") in err, err
    record["winners"] = []
    code, _, err = _replay(capsys, log, record)
    assert code == 1 and f"the log has personne, the replay has {seats[tuple(winners)]}" in err, err


def test_a_log_that_goes_on_after_the_games_error_is_caught_with_the_decisions_left(capsys, tmp_path):
    log, record = _log(capsys, tmp_path, FAILING, code=1)
    assert record["error"]["message"].startswith("transfer of 4 from a counter holding 3")
    last = _decisions(record)[-1]
    code, out, err = _replay(capsys, log, record)
    assert code == 1
    assert "replay ok: 6 decisions, same state at each, and the game stops again on the log's error" in out
    record["events"] += [dict(last), dict(last)]
    code, out, err = _replay(capsys, log, record)
    assert code == 1 and "replay ok" not in out
    assert (f"decision 7 (tour 3, Joueur 2): the game stopped on an error ({record['error']['message']}) before the "
            f"log's « manche — choisir n » (2 decision(s) left)") in err, err


@pytest.mark.parametrize("where", ["message", "at"])
def test_a_log_that_ends_on_another_error_is_a_difference_after_its_last_decision(capsys, tmp_path, where):
    """Another message, or the same message at another place of the spec (the round's first `transfer`): the
    replayed game stops on its error after the log's six decisions, and the difference is after decision 6."""
    deep = tmp_path / ("un-répertoire-au-nom-long-" * 4)      # the error's place: more than 200 characters with it
    deep.mkdir()
    log, record = _log(capsys, deep, FAILING, code=1)
    found = dict(record["error"])
    assert len(excerpt(found, 10_000)) > 201
    at = record["error"]["at"]
    assert at.endswith("mises.rules:29:40"), "the `transfer` of `solde`"
    if where == "message":          # a long message: the log's error is cut after 200 characters
        record["error"]["message"] = "transfer of 5 from a counter holding 3 " + "x" * 300
    else:
        record["error"]["at"] = at.replace(":29:40", ":24:5")
    code, out, err = _replay(capsys, log, record)
    assert code == 1 and "replay ok" not in out
    assert "rulebook replay: the game differs from the log: after decision 6: the game stops on another error: " in err
    if where == "message":
        shown = err.split("the log has ", 1)[1].split(", the replay has ", 1)[0]
        assert shown == ('{"message": "transfer of 5 from a counter holding 3 ' + "x" * 148)[:200] + "…", shown
    replayed = err.split(", the replay has ", 1)[1].split("\n", 1)[0]
    assert replayed == excerpt(found, 200) and len(replayed) == 201, replayed


def test_an_event_changed_in_the_log_is_named_with_both_versions(capsys, tmp_path):
    """The decisions and the states agree, but an event the game wrote (the closing log line) was edited:
    replay compares every event, not only the decisions, and names the first that differs."""
    log, record = _log(capsys, tmp_path, GAME)
    (i, line), = [(i, e) for i, e in enumerate(record["events"]) if e["kind"] == "log"]
    assert "fin" in json.dumps(line, ensure_ascii=False)
    record["events"][i] = json.loads(json.dumps(line, ensure_ascii=False).replace('"fin"', '"début"'))
    code, out, err = _replay(capsys, log, record)
    assert code == 1 and "replay ok" not in out
    assert f"after decision 6: event {i} differs: the log has " in err and "début" in err and "fin" in err, err


@pytest.mark.parametrize("index", [0, 1, 3])
def test_a_decision_reached_from_another_state_says_after_which_decision_the_game_went_another_way(
        capsys, tmp_path, index):
    """Decision ``index + 1`` of the log is offered other options, and its state digest differs: the game
    went another way after the decision before it (not "set up differently", which is for the first)."""
    log, record = _log(capsys, tmp_path, GAME)
    asked = _decisions(record)
    assert all("state" in e for e in asked)
    asked[index]["state"] = "0" * len(asked[index]["state"])
    asked[index]["options"] = asked[index]["options"] + ["4"]
    code, _, err = _replay(capsys, log, record)
    assert code == 1
    why = f"the game went another way after decision {index}" if index else "the game was set up differently"
    assert f"decision {index + 1} (" in err and f"({why})" in err, err


def test_a_states_digest_is_the_same_on_every_machine():
    """A log written on one machine replays on another: the random source's 624 words and its position enter the
    digest as little-endian 32-bit words whatever the machine's byte order (checker/runtime/replay.py's
    ``state_digest``), after the canonical text of the vars, zones, uses, turn and round."""
    st = State(2, 7, [-1])
    st.vars["trésor"] = 3
    st.zones["pioche"] = [0]
    st.where[0] = ("pioche", None)
    version, words, gauss = st.rng.getstate()
    expected = hashlib.blake2b(repr(([("trésor", 3)], [("pioche", [0])], [], 0, 0)).encode("utf-8"), digest_size=8)
    expected.update(struct.pack(f"<{len(words)}I", *words))
    expected.update(repr((version, gauss)).encode("ascii"))
    assert state_digest(st) == expected.hexdigest() == "3703cf9e999c8adc"


# ---------------------------------------------------------------- sample -k (bench/results/mutation-2026-11-28-k.txt)

def test_a_changed_final_state_is_caught_after_the_last_decision(capsys, tmp_path):
    """The events and the scores agree, only the log's final state digest was edited: replay compares it too
    (replay.py, ``final is not None and final != state_digest(…)``), and a log without one is not compared."""
    log, record = _log(capsys, tmp_path, GAME)
    final = record["final_state"]
    assert len(final) == 16
    record["final_state"] = "0" * 16
    code, out, err = _replay(capsys, log, record)
    assert code == 1 and "replay ok" not in out
    assert f"after decision 6: the final state differs: expected {'0' * 16}, found {final}" in err, err
    del record["final_state"]
    code, out, err = _replay(capsys, log, record)
    assert code == 0 and "replay ok: 6 decisions" in out, err


def test_changed_scores_are_a_difference_after_the_last_decision(capsys, tmp_path):
    """The scores are compared once the game has ended: the difference is *after* decision 6, not at it."""
    log, record = _log(capsys, tmp_path, GAME)
    scores = record["scores"]
    assert sorted(scores) == ["0", "1"]
    record["scores"] = {seat: s + 1 for seat, s in scores.items()}
    code, out, err = _replay(capsys, log, record)
    assert code == 1 and "replay ok" not in out
    shown = ", ".join(f"Joueur {int(seat) + 1} {{}}" for seat in scores)
    assert ("rulebook replay: the game differs from the log: after decision 6: the scores differ: the log has "
            + shown.format(*(s + 1 for s in scores.values())) + ", the replay has "
            + shown.format(*scores.values())) in err, err


@pytest.mark.parametrize("written_at", ["/ailleurs/partie/mises.rules", "C:\\parties\\mises.rules", "mises.rules"])
def test_a_log_of_a_failed_game_replays_from_a_spec_in_another_directory(capsys, tmp_path, written_at):
    """The log's error is at the same line and column of a file of the same name, written in another
    directory (or on Windows, or as a bare name): the same error; a file of another name is another error."""
    log, record = _log(capsys, tmp_path, FAILING, code=1)
    at = record["error"]["at"]
    assert at.endswith("mises.rules:29:40") and at.startswith(str(tmp_path)), at
    record["error"]["at"] = f"{written_at}:29:40"
    code, out, err = _replay(capsys, log, record)
    assert code == 1 and "replay ok: 6 decisions, same state at each, and the game stops again on the log's error" \
        in out, err
    record["error"]["at"] = f"{written_at.replace('mises.rules', 'paris.rules')}:29:40"
    code, out, err = _replay(capsys, log, record)
    assert code == 1 and "replay ok" not in out and "after decision 6: the game stops on another error" in err, err
