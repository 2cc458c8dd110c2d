"""What one fuzzed game costs, counted (never timed): the state is digested once per decision of a logged game
and once when it is replayed (the replay compares the engine's own digest, it does not digest the state a
second time), and the fuzz's games keep no per-decision digest at all, yet a game that does not replay is
still found (its decisions, its events, its end state, its scores are compared)."""

from __future__ import annotations

import pytest

import checker.fuzz.search as search_module
import checker.runtime.replay as replay_module
from checker.fuzz.search import DrawnAgent, Games, search
from checker.fuzz.shrink import Case
from conftest import checked_once

MINIMAL = "tests/fixtures/good/minimal_game.rules"


@pytest.fixture
def digests(monkeypatch) -> list:
    """Every state digest made, in order."""
    made: list = []
    real = replay_module.state_digest

    def counted(st):
        made.append(1)
        return real(st)

    # the engine imports state_digest from the replay module when it records a digest (not at start-up): patched there
    monkeypatch.setattr(replay_module, "state_digest", counted)
    monkeypatch.setattr(search_module, "state_digest", counted)
    return made


def _played(games: Games, seed: int = 3) -> tuple[Case, dict]:
    configuration, counts = games.playable[0]
    agent = DrawnAgent(seed)
    game = games.engine.play(games.selection(configuration, counts[0]), counts[0], seed, [agent] * counts[0])
    case = Case(configuration, counts[0], seed, tuple(agent.taken))
    return case, games.logged(case, game)


def test_a_replay_digests_the_state_once_per_decision(digests):
    games = Games(checked_once((MINIMAL,)), [MINIMAL])
    _, logged = _played(games)
    decisions = sum(e["kind"] == "decision" for e in logged["events"])
    assert decisions > 3 and all("state" in e for e in logged["events"] if e["kind"] == "decision")
    digests.clear()
    assert games.replays(logged) is None
    assert len(digests) == decisions + 1, "one digest per decision, one of the final state"


def test_the_fuzz_keeps_no_digest_per_decision_and_still_finds_a_game_that_does_not_replay(digests):
    games = Games(checked_once((MINIMAL,)), [MINIMAL])
    found = search(games, 5, 0)
    assert found.games == 5 and found.case is None
    assert len(digests) == 2 * 5, "the final state of each game and of its replay only"
    assert games.engine.digests, "the engine digests again after the search"
    games.engine.digests = False
    try:
        _, logged = _played(games)
        assert not any("state" in e for e in logged["events"])
        assert games.replays(logged) is None
        for tamper in ("final_state", "event", "options"):
            bad = {**logged, "events": [dict(e) for e in logged["events"]]}
            if tamper == "final_state":
                bad["final_state"] = "0" * 16
            elif tamper == "event":
                last = next(e for e in reversed(bad["events"]) if e["kind"] != "decision")
                last["kind"] += "!"
            else:
                first = next(e for e in bad["events"] if e["kind"] == "decision")
                first["options"] = first["options"][::-1] + ["?"]
            failure = games.replays(bad)
            assert failure is not None and failure.kind == "replay", tamper
    finally:
        games.engine.digests = True
