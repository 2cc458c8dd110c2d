"""Playing games of a checked spec under Hypothesis, and shrinking the first failure.

Hypothesis draws the configuration, the player count (among those the configuration allows), the game's seed
and the seed of the players' choices (each uniform among the options, see :class:`DrawnAgent`).  Each game
must: raise no runtime error of the spec (the engine checks every invariant at every decision, and stops a
game past its bound of decisions, both as runtime errors), and replay to the same game from its own log.  Hypothesis's own shrinking is not used (over a few hundred draws it stops
far from the shortest game): the first failing game is shrunk by :func:`checker.fuzz.shrink.shrink`, delta
debugging over its choices, and the shortest game found is played once more, recorded, as the failure's log
(the shape `rulebook play --json` writes for a game that stopped on an error: `rulebook replay` stops on it
again).  A game that does not replay is reported as Hypothesis found it.
"""

from __future__ import annotations

import dataclasses
import json
import random

from hypothesis import HealthCheck, Phase, given, seed as hypothesis_seed, settings, strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase

from checker.front.configurations import select
from checker.fuzz.shrink import Case, play_case, shrink
from checker.runtime import Engine, SpecRuntimeError
from checker.runtime.replay import ReplayMismatch, failure_of, replay, state_digest

__all__ = ["fuzz", "FuzzReport", "FuzzFailure", "DrawnAgent", "Games"]


class DrawnAgent:
    """Every choice uniform among the options, from a seed Hypothesis draws; ``taken`` keeps them, in order
    (one agent for all seats).  Not one Hypothesis draw per choice: Hypothesis favours the first options, and
    a game whose players keep taking an offer's first option (borrow again, draw again) runs to its bound of
    decisions; the choices are shrunk by :func:`checker.fuzz.shrink.shrink` instead."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.taken: list[int] = []

    def choose(self, decision) -> int:
        n = len(decision.options) + (1 if decision.optional else 0)
        index = self.rng.randrange(n)
        self.taken.append(index)
        return index


@dataclasses.dataclass
class FuzzFailure:
    message: str
    span: object                      # the failing statement's span (None when not located)
    record: dict                      # the game as a log `rulebook replay` reads
    decisions: int                    # in the shortest game found
    kind: str                         # "runtime" or "replay"
    found: int = 0                    # decisions of the game as first found (before shrinking)
    tries: int = 0                    # games played while shrinking
    case: Case | None = None          # the shortest game, as choices (runtime failures)


@dataclasses.dataclass
class FuzzReport:
    games: int = 0
    decisions: int = 0
    failure: FuzzFailure | None = None
    table: "Games | None" = None      # the spec's games (its engine), to play the failure again


def _decisions(events) -> int:
    return sum(1 for e in events if e["kind"] == "decision")


class Games:
    """The games of one checked spec: its engine and each (configuration, players)'s cards."""

    def __init__(self, result, spec: list[str], configurations: list[str] | None = None):
        self.program = result.program
        self.spec = spec
        self.playable = [(name, sorted(counts)) for name, counts in result.configurations.items()
                         if counts and (not configurations or name in configurations)]
        self.counts = dict(self.playable)
        self.engine = Engine(result.typed)
        self._selections: dict[tuple[str, int], dict] = {}

    def selection(self, configuration: str, players: int) -> dict:
        key = (configuration, players)
        if key not in self._selections:
            cards = select(self.program, self.program.configurations[configuration], players).cards
            self._selections[key] = {k: list(v) for k, v in cards.items()}
        return self._selections[key]

    def header(self, case: Case) -> dict:
        return {"spec": self.spec, "configuration": case.configuration, "players": case.players, "seed": case.seed,
                "add": [], "remove": [], "selection": self.selection(case.configuration, case.players)}

    def recorded(self, case: Case, agents=None) -> tuple[dict, SpecRuntimeError | None]:
        """Play ``case`` with its log (``agents`` wraps the seats' agents, to narrate them): the log, as
        `rulebook play --json` writes it, and the error it stopped on."""
        engine = self.engine
        engine.recording = True
        outcome = play_case(engine, self.selection, case, agents=agents)
        record = {**self.header(case), "events": json.loads(json.dumps(engine.events)), "scores": {}, "winners": []}
        if outcome.error is not None:
            record["error"] = failure_of(outcome.error)
        return record, outcome.error


def fuzz(result, spec: list[str], games: int = 100, seed: int = 0, database: str | None = None,
         budget: int = 2000, configurations: list[str] | None = None, progress=None) -> FuzzReport:
    """Play up to ``games`` games of the checked spec ``result`` (its paths ``spec``, written into logs) in
    its ``configurations`` (default: all); stop at the first failure, shrunk within ``budget`` games.
    ``progress(1)``, if given, is called after each good game."""
    table = Games(result, spec, configurations)
    report = FuzzReport(table=table)
    if not table.playable:
        return report
    engine = table.engine
    found: list = []

    @hypothesis_seed(seed)
    @settings(max_examples=games, deadline=None, database=DirectoryBasedExampleDatabase(database) if database
              else None, suppress_health_check=list(HealthCheck), print_blob=False, report_multiple_bugs=False,
              phases=[Phase.explicit, Phase.reuse, Phase.generate])
    @given(st.data())
    def one_game(data):
        name, counts = data.draw(st.sampled_from(table.playable), label="configuration")
        players = data.draw(st.sampled_from(counts), label="players")
        game_seed = data.draw(st.integers(0, 2**16), label="seed")
        agent = DrawnAgent(data.draw(st.integers(0, 2**32 - 1), label="choices"))
        engine.recording = True
        try:
            game = engine.play(table.selection(name, players), players, game_seed, [agent] * players)
        except SpecRuntimeError:
            found.append(("runtime", Case(name, players, game_seed, tuple(agent.taken))))
            raise
        report.games += 1
        report.decisions += _decisions(game.events)
        if progress is not None:
            progress(1)
        logged = {**table.header(Case(name, players, game_seed, ())), "events": game.events,
                  "scores": game.scores, "winners": game.winners, "final_state": state_digest(engine.st)}
        logged = json.loads(json.dumps(logged))          # the log as it is written and read back
        decisions = [e for e in logged["events"] if e["kind"] == "decision"]
        try:
            replay(engine, logged, decisions)
        except (ReplayMismatch, SpecRuntimeError) as exc:
            found.append(("replay", FuzzFailure(f"the game does not replay: {exc}", getattr(exc, "span", None),
                                                logged, len(decisions), "replay", len(decisions))))
            raise

    try:
        one_game()
    except (SpecRuntimeError, ReplayMismatch):
        kind, what = found[-1]
        if kind == "replay":
            report.failure = what
            return report
        shortest, tries = shrink(engine, table.selection, what, lambda c: table.counts[c], budget)
        record, error = table.recorded(shortest)
        if error is None:                   # cannot be (a game depends on its case only): keep the game found
            shortest, tries = what, tries
            record, error = table.recorded(what)
        report.failure = FuzzFailure(error.message, error.span, record, len(shortest.choices), "runtime",
                                     len(what.choices), tries, shortest)
    return report
