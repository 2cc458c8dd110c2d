"""`rulebook fuzz`: it finds the failure of a broken house rule (tests/fixtures/fuzz/emprunt.rules: a player
may borrow more than he can pay back at the end of the round), shrinks it to a short game, prints that game's
French log (the words of `rulebook play`) with the failing statement, and writes a log that `rulebook replay`
stops on with the same error.  A rule set without a failure plays its games and says so."""

from __future__ import annotations

import json

import pytest

from checker.fuzz.run import fuzz
from checker.fuzz.search import Games
from checker.fuzz.shrink import Case, failure_key, play_case, shrink
from checker.runtime import SpecRuntimeError
from conftest import checked_once, run_cli

FIXTURE = "tests/fixtures/fuzz/emprunt.rules"
# the shortest failing games the shrinker finds are 18 decisions (6 character choices at 2 players, then the
# characters' turns); the games random players fail in are 23 to 33 decisions at 2 players, about 40 at 7
SHORT = 20


pytestmark = pytest.mark.usefixtures("specs_checked_once")   # each command checks the spec once


def _games() -> Games:
    return Games(checked_once(("spec/citadelles", FIXTURE)), ["spec/citadelles", FIXTURE])


def test_fuzz_finds_the_broken_house_rule_and_writes_the_shortest_game(capsys, tmp_path):
    log = tmp_path / "échec.json"
    code, out, err = run_cli(capsys, "fuzz", "spec/citadelles", FIXTURE, "--games", "20", "--log", str(log))
    assert code == 1
    assert f"{FIXTURE}:28:7: error[R0001]: the spec failed while playing: transfer of " in err
    assert "transfer dette[q] from trésor[q] to banque" in err and "^^^^" in err
    # the French log of `rulebook play`, not the engine's labels
    assert "=== Tour 1 ===" in out and " : Emprunter" in out and "choisit en secret un personnage" in out
    assert "emprunter(" not in out and "choisir_un_personnage" not in out
    record = json.loads(log.read_text(encoding="utf-8"))
    decisions = sum(e["kind"] == "decision" for e in record["events"])
    assert decisions <= SHORT, f"the failing game is {decisions} decisions: not shrunk"
    assert f"shrunk from 33 to {decisions} decision(s)" in err      # the first failing game (seed 0) is 33
    assert record["error"]["at"] == f"{FIXTURE}:28:7" and record["scores"] == {}
    code, out, err = run_cli(capsys, "replay", str(log))
    assert code == 1
    assert f"replay ok: {decisions} decisions, same state at each, and the game stops again on the log's error" in out
    assert f"{FIXTURE}:28:7" in err


def test_a_long_failing_game_shrinks_to_a_short_one_with_fewer_players(capsys, tmp_path):
    """A 7-player game that fails after about 40 decisions: the shrinker finds one of at most SHORT, at 2
    players, failing on the same statement."""
    log = tmp_path / "sept.json"
    code, _, _ = run_cli(capsys, "play", "spec/citadelles", FIXTURE, "-c", "Première partie", "-n", "7", "-s", "1",
                         "-q", "--json", str(log))
    assert code == 1
    record = json.loads(log.read_text(encoding="utf-8"))
    choices = tuple(e["chosen"] for e in record["events"] if e["kind"] == "decision")
    assert len(choices) > 30
    games = _games()
    case = Case("Première partie", 7, 1, choices)
    first = play_case(games.engine, games.selection, case)
    assert first.error is not None and first.taken == choices, "the choices are the logged game"
    shortest, tries = shrink(games.engine, games.selection, case, lambda c: games.counts[c])
    assert shortest.players == 2 and len(shortest.choices) <= SHORT and tries < 2000
    again = play_case(games.engine, games.selection, shortest)
    assert failure_key(again.error) == failure_key(first.error)
    assert again.taken == shortest.choices


def test_the_same_failure_is_the_same_statement_and_message_numbers_aside():
    from checker.base.source import Span
    here, there = Span("a.rules", 28, 7, 28, 40), Span("a.rules", 30, 7, 30, 40)
    six = SpecRuntimeError("transfer of 6 from a counter holding 0", here)
    assert failure_key(six) == failure_key(SpecRuntimeError("transfer of 2 from a counter holding 1", here))
    assert failure_key(six) != failure_key(SpecRuntimeError("transfer of 6 from a counter holding 0", there))
    assert failure_key(six) != failure_key(SpecRuntimeError("only(…) found 0 elements", here))


def test_a_spec_without_failure_plays_its_games(capsys):
    code, out, _ = run_cli(capsys, "fuzz", "tests/fixtures/good/minimal_game.rules", "--games", "30", "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["ok"] and summary["games"] == 30 and summary["decisions"] > 30


def test_the_shrinker_keeps_a_game_that_cannot_shrink():
    """A case that does not fail is given back as it is (nothing to shrink)."""
    games = Games(checked_once(("tests/fixtures/good/minimal_game.rules",)), ["tests/fixtures/good/minimal_game.rules"])
    case = Case("Standard", 2, 0, (0, 1, 0))
    assert shrink(games.engine, games.selection, case, lambda c: games.counts[c]) == (case, 1)
    report = fuzz(checked_once(("tests/fixtures/good/minimal_game.rules",)), ["x"], games=5)
    assert report.failure is None and report.games == 5


def test_discounts_past_a_districts_cost_make_it_free_not_a_negative_payment():
    """The fan's stacked discounts made `bâtir` transfer -1 (« a transfer of -1: amounts cannot be negative »,
    spec/citadelles/01-partie.rules): the 4th edition's decision `rabais_cumulés` pays 0, never less, also when the
    Tripot is paid in cards and gold (21-merveilles.rules: « a transfer of -4 » at 6 players, seed 0, before).  A
    house rule taking 10 off every cost plays its games to the end."""
    paths = ("spec/citadelles", "tests/fixtures/fuzz/gratuit.rules")
    result = checked_once(paths)
    assert "rabais_cumulés" in result.program.decisions
    report = fuzz(result, list(paths), games=4, configurations=["Première partie"])
    assert report.failure is None, report.failure and report.failure.message
    assert report.games == 4
