"""Playing games of a checked spec under Hypothesis.

Hypothesis draws the configuration, the player count (among those the configuration allows), the game's seed
and every choice of every player.  Each game must: raise no runtime error of the spec (the engine checks every
invariant at every decision, and stops a game past its bound of decisions, both as runtime errors), and replay
to the same game from its own log.  A failure is shrunk by Hypothesis (fewer decisions, earlier options, a
smaller configuration); the last failing game it plays is the minimal one, kept as a replayable log.
"""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, Phase, given, seed as hypothesis_seed, settings, strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase

from checker.front.configurations import select
from checker.runtime import Engine, SpecRuntimeError
from checker.runtime.replay import ReplayMismatch, replay, state_digest

__all__ = ["fuzz", "FuzzReport", "FuzzFailure", "DrawnAgent"]


class DrawnAgent:
    """Every choice drawn by Hypothesis (shrinks toward the first option)."""

    def __init__(self, data):
        self.data = data

    def choose(self, decision) -> int:
        n = len(decision.options) + (1 if decision.optional else 0)
        return self.data.draw(st.integers(0, n - 1)) if n > 1 else 0


@dataclasses.dataclass
class FuzzFailure:
    message: str
    span: object                      # the failing statement's span (None when not located)
    record: dict                      # the game as a log `rulebook replay` reads
    decisions: int
    kind: str                         # "runtime" or "replay"


@dataclasses.dataclass
class FuzzReport:
    games: int = 0
    decisions: int = 0
    failure: FuzzFailure | None = None


def _decisions(events) -> int:
    return sum(1 for e in events if e["kind"] == "decision")


def fuzz(result, spec: list[str], games: int = 100, seed: int = 0, database: str | None = None) -> FuzzReport:
    """Play up to ``games`` games of the checked spec ``result`` (its paths ``spec``, written into logs);
    stop at the first failure, shrunk."""
    program = result.program
    playable = [(name, counts) for name, counts in result.configurations.items() if counts]
    report = FuzzReport()
    if not playable:
        return report
    engine = Engine(result.typed)
    last: list[FuzzFailure] = []

    @hypothesis_seed(seed)
    @settings(max_examples=games, deadline=None, database=DirectoryBasedExampleDatabase(database) if database
              else None, suppress_health_check=list(HealthCheck), print_blob=False, report_multiple_bugs=False,
              phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink])
    @given(st.data())
    def one_game(data):
        name, counts = data.draw(st.sampled_from(playable), label="configuration")
        players = data.draw(st.sampled_from(sorted(counts)), label="players")
        game_seed = data.draw(st.integers(0, 2**16), label="seed")
        selection = select(program, program.configurations[name], players).cards
        record = {"spec": spec, "configuration": name, "players": players, "seed": game_seed, "add": [],
                  "remove": [], "selection": {k: list(v) for k, v in selection.items()}}
        engine.recording = True
        try:
            game = engine.play(selection, players, game_seed, [DrawnAgent(data)] * players)
        except SpecRuntimeError as exc:
            events = list(engine.events)
            failed = {**record, "events": events, "scores": {}, "winners": []}
            last.append(FuzzFailure(exc.message, exc.span, failed, _decisions(events), "runtime"))
            raise
        report.games += 1
        report.decisions += _decisions(game.events)
        logged = {**record, "events": game.events, "scores": game.scores, "winners": game.winners,
                  "final_state": state_digest(engine.st)}
        import json
        logged = json.loads(json.dumps(logged))          # the log as it is written and read back
        decisions = [e for e in logged["events"] if e["kind"] == "decision"]
        try:
            replay(engine, logged, decisions)
        except (ReplayMismatch, SpecRuntimeError) as exc:
            last.append(FuzzFailure(f"the game does not replay: {exc}", getattr(exc, "span", None), logged,
                                    len(decisions), "replay"))
            raise

    try:
        one_game()
    except (SpecRuntimeError, ReplayMismatch):
        report.failure = last[-1]
    return report
