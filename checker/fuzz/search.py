"""Playing games of a checked spec under Hypothesis, and shrinking the first failure.

Hypothesis draws one number per game, and from it come the configuration, the player count (among those the
configuration allows), the game's seed and the seed of the players' choices (each uniform among the options, see :class:`DrawnAgent`).  Each game
must: raise no runtime error of the spec (the engine checks every invariant at every decision, and stops a
game past its bound of decisions, both as runtime errors), and replay to the same game from its own log: the
same decisions (seat, prompt, options, choice), the same events, the same digest of the final state, the same
scores and winners.  The search's logs keep no digest of the state at each decision (``Engine.digests``):
digesting the whole state at every decision of the game and of its replay was most of a fuzzed game's cost;
a game that does not replay is played again with them (:func:`settle`), which says where it went another way.
Hypothesis's own shrinking is not used (over a few hundred draws it stops
far from the shortest game): the first failing game is shrunk by :func:`checker.fuzz.shrink.shrink`, delta
debugging over its choices, and the shortest game found is played once more, recorded, as the failure's log
(the shape `rulebook play --json` writes for a game that stopped on an error: `rulebook replay` stops on it
again).  A game that does not replay is reported as Hypothesis found it.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed as hypothesis_seed, settings, strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase

from checker.front.configurations import select
from checker.fuzz.shrink import Case, ChoiceAgent, play_case, shrink
from checker.runtime import Engine, SpecRuntimeError
from checker.runtime.replay import ReplayMismatch, failure_of, replay, state_digest

__all__ = ["search", "settle", "Found", "FuzzReport", "FuzzFailure", "DrawnAgent", "Games"]


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


@st.composite
def _bits(draw, n: int) -> int:
    """A number of ``n`` bits drawn as booleans: Hypothesis draws an integer now and then among constants it
    finds in the modules loaded (which differ between a command and a worker, or a test), and booleans never,
    so the same seed draws the same games wherever it runs."""
    number = 0
    for _ in range(n):
        number = number * 2 + draw(st.booleans())
    return number


def _located(exc: SpecRuntimeError) -> str:
    span = exc.span
    return exc.message if span is None else f"{Path(span.file).as_posix()}:{span.line}:{span.column}: {exc.message}"


def _decisions(events) -> int:
    return sum(1 for e in events if e["kind"] == "decision")


class Games:
    """The games of one checked spec: its engine and each (configuration, players)'s cards, with ``add``
    added and ``remove`` removed (:func:`checker.front.command.compose_selection`: with cards added or
    removed, every player count of the game whose selection the spec's constraints accept).  ``refused``
    says why the other (configuration, players) are not played."""

    def __init__(self, result, spec: list[str], configurations: list[str] | None = None,
                 add: list[str] = (), remove: list[str] = ()):
        self.program = result.program
        self.spec = spec
        self.add, self.remove = list(add), list(remove)
        self.digest = _digest(spec)
        self._selections: dict[tuple[str, int], dict] = {}
        self.refused: list[tuple[str, int, str]] = []
        names = [name for name in result.configurations if not configurations or name in configurations]
        if add or remove:
            from checker.front.command import SelectionRefused, compose_selection
            from checker.front.configurations import game_player_counts
            for name in names:
                for players in game_player_counts(self.program):
                    try:
                        cards = compose_selection(result, name, players, self.add, self.remove).cards
                    except SelectionRefused as exc:
                        self.refused.append((name, players, str(exc)))
                        continue
                    self._selections[(name, players)] = {k: list(v) for k, v in cards.items()}
            self.playable = [(name, sorted(n for c, n in self._selections if c == name)) for name in names]
            self.playable = [(name, counts) for name, counts in self.playable if counts]
        else:
            self.playable = [(name, sorted(result.configurations[name])) for name in names
                             if result.configurations[name]]
        self.counts = dict(self.playable)
        self.engine = Engine(result.typed)

    def selection(self, configuration: str, players: int) -> dict:
        key = (configuration, players)
        if key not in self._selections:
            cards = select(self.program, self.program.configurations[configuration], players).cards
            self._selections[key] = {k: list(v) for k, v in cards.items()}
        return self._selections[key]

    def header(self, case: Case) -> dict:
        return {"spec": self.spec, **self.digest, "configuration": case.configuration, "players": case.players, "seed": case.seed,
                "add": self.add, "remove": self.remove, "selection": self.selection(case.configuration, case.players)}

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

    def logged(self, case: Case, game) -> dict:
        """The log of a game that ended, as it is written and read back."""
        logged = {**self.header(dataclasses.replace(case, choices=())), "events": game.events,
                  "scores": game.scores, "winners": game.winners, "final_state": state_digest(self.engine.st)}
        return json.loads(json.dumps(logged))

    def replays(self, logged: dict) -> FuzzFailure | None:
        """None when the logged game replays to the same game; else the failure."""
        decisions = [e for e in logged["events"] if e["kind"] == "decision"]
        try:
            replay(self.engine, logged, decisions)
        except (ReplayMismatch, SpecRuntimeError) as exc:
            return FuzzFailure(f"the game does not replay: {exc}", getattr(exc, "span", None), logged,
                               len(decisions), "replay", len(decisions))
        return None


def _digest(spec: list[str]) -> dict:
    from checker.front.shipped import spec_files
    try:
        return {"spec_digest": spec_files([Path(p) for p in spec])[2]} if spec else {}
    except (OSError, ValueError):
        return {}


@dataclasses.dataclass
class Found:
    """What a search found: the games played without failure, their decisions, and the first failing game
    (its kind, "runtime" or "replay", and its case) if any."""
    games: int = 0
    decisions: int = 0
    kind: str | None = None
    case: Case | None = None
    # with keep_going: every failing game, (kind, case, located message), and the games count them too
    failures: list = dataclasses.field(default_factory=list)


def search(table: Games, games: int, seed: int, database: str | None = None, progress=None,
           keep_going: bool = False) -> Found:
    """Play up to ``games`` games of ``table`` drawn by Hypothesis from ``seed``; stop at the first failure
    (not shrunk), or with ``keep_going`` play them all and list the failures (a benchmark's count).
    ``progress(1)``, if given, is called after each good game."""
    found = Found()
    if not table.playable:
        return found
    engine = table.engine

    @hypothesis_seed(seed)
    @settings(max_examples=games, deadline=None, database=DirectoryBasedExampleDatabase(database) if database
              else None, suppress_health_check=list(HealthCheck), print_blob=False, report_multiple_bugs=False,
              phases=[Phase.explicit, Phase.reuse, Phase.generate])
    @given(st.data())
    def one_game(data):
        # one number per game, the rest drawn from it: each boolean Hypothesis draws costs about 0.15 ms
        drawn = random.Random(data.draw(_bits(32), label="game"))
        name, counts = table.playable[drawn.randrange(len(table.playable))]
        players = counts[drawn.randrange(len(counts))]
        game_seed = drawn.getrandbits(16)
        agent = DrawnAgent(drawn.getrandbits(32))
        engine.recording = True
        try:
            game = engine.play(table.selection(name, players), players, game_seed, [agent] * players)
        except SpecRuntimeError as exc:
            case = Case(name, players, game_seed, tuple(agent.taken))
            if keep_going:
                found.games += 1
                found.failures.append(("runtime", case, _located(exc)))
                return
            found.kind, found.case = "runtime", case
            raise
        case = Case(name, players, game_seed, tuple(agent.taken))
        failure = table.replays(table.logged(case, game))
        if failure is not None:
            if keep_going:
                found.games += 1
                found.failures.append(("replay", case, failure.message))
                return
            found.kind, found.case = "replay", case
            raise ReplayMismatch("the game does not replay")
        found.games += 1
        found.decisions += _decisions(game.events)
        if progress is not None:
            progress(1)

    digests, engine.digests = engine.digests, False
    try:
        one_game()
    except (SpecRuntimeError, ReplayMismatch):
        pass
    finally:
        engine.digests = digests
    return found


def settle(table: Games, kind: str, case: Case, budget: int) -> FuzzFailure:
    """The failure of the game ``case``, as a log and a located message: a runtime error shrunk within
    ``budget`` games; a game that does not replay, as it was found."""
    engine = table.engine
    if kind == "replay":
        engine.recording = True
        agent = ChoiceAgent(case.choices)
        game = engine.play(table.selection(case.configuration, case.players), case.players, case.seed,
                           [agent] * case.players)
        failure = table.replays(table.logged(case, game))
        if failure is not None:
            return failure
        return FuzzFailure("the game did not replay in a worker, and replays here", None, table.logged(case, game),
                           len(case.choices), "replay", len(case.choices))
    shortest, tries = shrink(engine, table.selection, case, lambda c: table.counts[c], budget)
    record, error = table.recorded(shortest)
    if error is None:                   # cannot be (a game depends on its case only): keep the game found
        shortest = case
        record, error = table.recorded(case)
    if error is None:
        return FuzzFailure("the game failed in a worker, and plays to its end here", None, record,
                           len(case.choices), "runtime", len(case.choices), tries, case)
    return FuzzFailure(error.message, error.span, record, len(shortest.choices), "runtime", len(case.choices),
                       tries, shortest)
