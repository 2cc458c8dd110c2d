"""Replaying a game log: state digests, the log's shape, and an agent that answers from the log.

A log written by ``rulebook play --json`` records every decision an agent was asked (forced
decisions, with a single option, are taken by the engine without asking and are not recorded)
with the options offered, the choice and a digest of the state at that moment.  Replaying it
plays the same game again, with the same seed (so the same shuffles and random draws), and a
:class:`ReplayAgent` per seat that answers each decision from the log after checking that the
game offers the same options in the same state.  The first difference stops the replay.

This module must not import the engine at load time: the engine imports :func:`state_digest`.
"""

from __future__ import annotations

import array
import dataclasses
import hashlib
import json
import re
import sys
from typing import Callable

from checker.base.documents import DocumentError, excerpt, schema_problems

__all__ = ["state_digest", "LogError", "ReplayMismatch", "Replayer", "ReplayAgent", "ReplayResult",
           "validate_log", "replay", "failure_of"]


# ---------------------------------------------------------------- state digests

def _sorted(mapping: dict) -> list:
    """A dict's items in a canonical order (keys are ints, strings, None or tuples of them)."""
    try:
        return sorted(mapping.items())
    except TypeError:                      # keys of mixed types: order them by their text
        return sorted(mapping.items(), key=lambda kv: repr(kv[0]))


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def state_digest(st) -> str:
    """A short digest of everything that changes during a game: the vars (the crown among them),
    every zone with its cards in order (so the per-zone contents), the powers' uses, the turn and
    round counters and the random source.  Deterministic across processes: it hashes a canonical
    text, never ``hash()`` (Python randomizes string hashes) nor an address.  Empty zones are left
    out, so a zone merely looked at does not change the digest."""
    values = [(name, _sorted(v) if isinstance(v, dict) else v) for name, v in sorted(st.vars.items())]
    zones = [(name, _sorted({i: cards for i, cards in z.items() if cards}) if isinstance(z, dict) else z)
             for name, z in sorted(st.zones.items())]
    text = repr((values, zones, _sorted(st.uses), st.turn, st.round))
    if " at 0x" in text:                   # an object without a value repr: drop its address
        text = _ADDRESS.sub("", text)
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8)
    version, words, gauss = st.rng.getstate()
    words = array.array("I", words)        # the Mersenne Twister's 624 words and its position
    if sys.byteorder == "big":
        words.byteswap()
    digest.update(words.tobytes())
    digest.update(repr((version, gauss)).encode("ascii"))
    return digest.hexdigest()


# ---------------------------------------------------------------- the log's shape

class LogError(DocumentError):
    """The file is not a game log this version can replay: every problem, with its JSON path."""


def validate_log(record) -> list[dict]:
    """Check the log against its schema (``checker/schemas/log.schema.json``), then what the schema cannot say
    (seats below the number of players, a chosen option among those offered); return its decision events, in
    order.  Raises :class:`LogError`."""
    problems = schema_problems(record, "log")
    if problems:
        raise LogError(problems)
    players = record["players"]
    seats = f"a seat from 0 to {players - 1} (seats are numbered from 0)"
    problems += [(f"scores/{k}", f"{excerpt(k)} is not {seats}") for k in record["scores"] if int(k) >= players]
    problems += [(f"winners/{i}", f"{w} is not {seats}") for i, w in enumerate(record["winners"]) if w >= players]
    decisions = []
    for i, event in enumerate(record["events"]):
        if event["kind"] != "decision":
            continue
        if event["player"] >= players:
            problems.append((f"events/{i}/player", f"{event['player']} is not {seats}"))
        if event["chosen"] >= len(event["options"]):
            problems.append((f"events/{i}/chosen", f"{event['chosen']} is not the index of an option "
                                                   f"(0 to {len(event['options']) - 1})"))
        decisions.append(event)
    if problems:
        raise LogError(problems)
    return decisions


# ---------------------------------------------------------------- replaying

class ReplayMismatch(Exception):
    """The replayed game differs from the log: ``number`` is the decision (1-based) where it shows."""

    def __init__(self, number: int, detail: str, player: int | None = None, round: int | None = None,
                 after: bool = False):
        where = f"after decision {number}" if after else f"decision {number}"
        context = [f"tour {round}"] if round else []
        if player is not None:
            context.append(f"Joueur {player + 1}")
        if context:
            where += f" ({', '.join(context)})"
        super().__init__(f"{where}: {detail}")
        self.number = number
        self.player = player
        self.detail = detail


def _quote(labels: list[str]) -> str:
    return "[" + ", ".join(f"« {x} »" for x in labels) + "]"


class Replayer:
    """The log's decisions, answered in order whoever asks; ``state`` gives the live game state."""

    def __init__(self, decisions: list[dict], state: Callable):
        self.decisions = decisions
        self.state = state
        self.next = 0            # how many decisions have been answered
        self.hashed = 0          # how many of them had a state digest to compare

    def answer(self, seat: int, decision) -> int:
        number = self.next + 1
        st = self.state()
        labels = decision.labels()
        if self.next >= len(self.decisions):
            raise ReplayMismatch(number, f"the log ends after {len(self.decisions)} decisions, but the game asks "
                                         f"« {decision.prompt} » {_quote(labels)}", seat, st.round)
        logged = self.decisions[self.next]
        found: list[str] = []           # every difference, the state's first
        same_state = None
        if "state" in logged:
            digest = decision.state or state_digest(st)      # the engine's own, when it logs one
            same_state = digest == logged["state"]
            if not same_state:
                found.append(f"expected state {logged['state']}, found state {digest}")
        if logged["player"] != seat or logged["prompt"] != decision.prompt:
            found.append(f"expected Joueur {logged['player'] + 1} to decide « {logged['prompt']} », "
                         f"found Joueur {seat + 1} deciding « {decision.prompt} »")
        elif logged["options"] != labels:
            missing = [x for x in logged["options"] if x not in labels]
            extra = [x for x in labels if x not in logged["options"]]
            diff = "; ".join(part for part in (f"not offered now: {_quote(missing)}" if missing else "",
                                               f"new: {_quote(extra)}" if extra else "") if part) or "another order"
            found.append(f"« {decision.prompt} »: expected the options {_quote(logged['options'])}, "
                         f"found {_quote(labels)} ({diff})")
        elif "secret" in logged and logged["secret"] != bool(decision.secret):
            found.append(f"« {decision.prompt} » is {'' if decision.secret else 'not '}secret now, "
                         f"it was {'' if logged['secret'] else 'not '}in the log")
        if found:
            if same_state is False:
                why = (f"the game went another way after decision {number - 1}" if number > 1
                       else "the game was set up differently")
            elif same_state:
                why = "in the same state: the spec now decides differently here"
            else:
                why = "the log has no state digest here"
            raise ReplayMismatch(number, "; ".join(found) + f" ({why})", seat, st.round)
        if same_state:
            self.hashed += 1
        self.next += 1
        return logged["chosen"]


class ReplayAgent:
    """Plays one seat from the log (through a :class:`Replayer` shared by all seats)."""

    def __init__(self, replayer: Replayer, seat: int):
        self.replayer = replayer
        self.seat = seat

    def choose(self, decision) -> int:
        return self.replayer.answer(self.seat, decision)


@dataclasses.dataclass
class ReplayResult:
    decisions: int           # decisions answered from the log
    hashed: int              # of which the state was compared
    scores: dict[int, int]
    winners: list[int]
    failure: Exception | None = None   # the spec's runtime error, for a log of a game that stopped on one


def _plain(value):
    """What a value becomes once written as JSON and read back (tuples → lists, int keys → text)."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def failure_of(exc) -> dict:
    """How a log records the runtime error that stopped its game: the message and where in the spec."""
    span = getattr(exc, "span", None)
    return {"message": exc.message, "at": None if span is None else str(span)}


def replay(engine, record: dict, decisions: list[dict], agents: Callable | None = None) -> ReplayResult:
    """Play the logged game again on ``engine`` (a compiled spec) and compare it with ``record``.  A log that
    ends on an error (``record["error"]``, written by a game that stopped on one) replays when the game stops
    on the same error after the same decisions; the result's ``failure`` is that error.  ``agents``, if given,
    wraps the replaying agents (to narrate them).

    Raises :class:`ReplayMismatch` at the first difference (``SpecRuntimeError`` if the spec fails where the
    log does not)."""
    from checker.runtime.state import SpecRuntimeError
    replayer = Replayer(decisions, lambda: engine.st)
    players = record["players"]
    expected = record.get("error")
    engine.recording = True
    seats = [ReplayAgent(replayer, seat) for seat in range(players)]
    try:
        game = engine.play(record["selection"], players, record["seed"], agents(seats) if agents else seats)
    except SpecRuntimeError as exc:
        if expected is None:
            raise
        return _replay_failure(engine, record, decisions, replayer, exc)
    answered = replayer.next
    if expected is not None:
        raise ReplayMismatch(answered, f"the log ends on an error ({expected['message']}), but the replayed game "
                                       f"plays on to its end", after=True)
    if answered < len(decisions):
        left = decisions[answered]
        raise ReplayMismatch(answered + 1, f"the game ended, but the log goes on with « {left['prompt']} » "
                                           f"{_quote(left['options'])} ({len(decisions) - answered} decision(s) left)",
                             left["player"], engine.st.round)

    def without_state(events):
        return [{k: v for k, v in e.items() if k != "state"} for e in events]

    logged, replayed = without_state(record["events"]), without_state(_plain(game.events))
    for i, (a, b) in enumerate(zip(logged, replayed)):
        if a != b:
            before = sum(1 for e in logged[:i] if e["kind"] == "decision")
            raise ReplayMismatch(before, f"event {i} differs: the log has {excerpt(a, 200)}, "
                                             f"the replay has {excerpt(b, 200)}", after=True)
    if len(logged) != len(replayed):
        raise ReplayMismatch(answered, f"the log has {len(logged)} events, the replay {len(replayed)}", after=True)
    final = record.get("final_state")
    if final is not None and final != state_digest(engine.st):
        raise ReplayMismatch(answered, f"the final state differs: expected {final}, "
                                       f"found {state_digest(engine.st)}", after=True)
    scores = _plain(game.scores)
    if scores != record["scores"]:
        raise ReplayMismatch(answered, f"the scores differ: the log has {_show_scores(record['scores'])}, "
                                       f"the replay has {_show_scores(scores)}", after=True)
    if game.winners != record["winners"]:
        raise ReplayMismatch(answered, f"the winners differ: the log has {_show_seats(record['winners'])}, "
                                       f"the replay has {_show_seats(game.winners)}", after=True)
    return ReplayResult(answered, replayer.hashed, game.scores, game.winners)


def _replay_failure(engine, record: dict, decisions: list[dict], replayer: Replayer, exc) -> ReplayResult:
    """The replayed game stopped on ``exc`` and the log ends on an error: the same one, after the same
    decisions and the same events?"""
    answered = replayer.next
    expected, found = record["error"], failure_of(exc)
    if answered < len(decisions):
        left = decisions[answered]
        raise ReplayMismatch(answered + 1, f"the game stopped on an error ({found['message']}) before the log's "
                                           f"« {left['prompt']} » ({len(decisions) - answered} decision(s) left)",
                             left["player"], engine.st.round)
    if not _same_failure(found, expected):
        raise ReplayMismatch(answered, f"the game stops on another error: the log has {excerpt(expected, 200)}, "
                                       f"the replay has {excerpt(found, 200)}", after=True)
    logged = [{k: v for k, v in e.items() if k != "state"} for e in record["events"]]
    replayed = [{k: v for k, v in e.items() if k != "state"} for e in _plain(engine.events)]
    if logged != replayed:
        i = next((i for i, (a, b) in enumerate(zip(logged, replayed)) if a != b), min(len(logged), len(replayed)))
        raise ReplayMismatch(answered, f"the events differ from event {i} on ({len(logged)} in the log, "
                                       f"{len(replayed)} in the replay)", after=True)
    return ReplayResult(answered, replayer.hashed, {}, [], exc)


def _same_failure(a: dict, b: dict) -> bool:
    """The same message at the same line and column of a file of the same name (the spec may be read from
    another directory than the one the log was written in)."""
    def where(at):
        if not isinstance(at, str):
            return at
        file, line, column = (at.rsplit(":", 2) + ["", ""])[:3]
        return file.replace("\\", "/").rsplit("/", 1)[-1], line, column

    return a.get("message") == b.get("message") and where(a.get("at")) == where(b.get("at"))


def _show_scores(scores: dict) -> str:
    return ", ".join(f"Joueur {int(seat) + 1} {s}" for seat, s in scores.items())


def _show_seats(seats: list[int]) -> str:
    return " et ".join(f"Joueur {s + 1}" for s in seats) or "personne"
