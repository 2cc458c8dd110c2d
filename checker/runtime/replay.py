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

__all__ = ["state_digest", "LogError", "ReplayMismatch", "Replayer", "ReplayAgent", "ReplayResult",
           "validate_log", "replay"]


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

class LogError(Exception):
    """The file is not a game log this version can replay (missing keys, wrong types …)."""


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _expect(ok: bool, where: str, what: str, value) -> None:
    if not ok:
        shown = json.dumps(value, ensure_ascii=False)
        if len(shown) > 60:
            shown = shown[:57] + "…"
        raise LogError(f"{where}: expected {what}, found {shown}")


def validate_log(record) -> list[dict]:
    """Check the log's shape; return its decision events, in order.  Raises :class:`LogError`."""
    _expect(isinstance(record, dict), "the log", "a JSON object", record)
    for key in ("spec", "configuration", "players", "seed", "selection", "events", "scores", "winners"):
        if key not in record:
            raise LogError(f"the log has no \"{key}\" (is it a log written by `rulebook play --json`?)")
    spec = record["spec"]
    _expect(isinstance(spec, list) and spec and all(isinstance(p, str) and p for p in spec),
            "spec", "a non-empty list of paths", spec)
    _expect(isinstance(record["configuration"], str), "configuration", "a configuration name", record["configuration"])
    players = record["players"]
    _expect(_is_int(players) and players >= 1, "players", "a number of players", players)
    _expect(_is_int(record["seed"]), "seed", "an integer", record["seed"])
    selection = record["selection"]
    _expect(isinstance(selection, dict), "selection", "an object (kind: card names)", selection)
    for kind, names in selection.items():
        _expect(isinstance(names, list) and all(isinstance(n, str) for n in names),
                f"selection.{kind}", "a list of card names", names)
    scores = record["scores"]
    _expect(isinstance(scores, dict) and all(_is_int(s) for s in scores.values())
            and all(k.isdecimal() and int(k) < players for k in scores), "scores",
            f"an object (seat 0 to {players - 1}: score)", scores)
    winners = record["winners"]
    _expect(isinstance(winners, list) and all(_is_int(w) and 0 <= w < players for w in winners), "winners",
            f"a list of seats (0 to {players - 1})", winners)
    if "final_state" in record:
        _expect(isinstance(record["final_state"], str), "final_state", "a digest", record["final_state"])
    events = record["events"]
    _expect(isinstance(events, list), "events", "a list", events)
    decisions = []
    for i, event in enumerate(events):
        where = f"events[{i}]"
        _expect(isinstance(event, dict) and isinstance(event.get("kind"), str), where,
                "an object with a \"kind\"", event)
        if event["kind"] != "decision":
            continue
        for key in ("player", "prompt", "options", "chosen"):
            if key not in event:
                raise LogError(f"{where}: a decision without \"{key}\"")
        _expect(_is_int(event["player"]) and 0 <= event["player"] < players, f"{where}.player",
                f"a seat (0 to {players - 1})", event["player"])
        _expect(isinstance(event["prompt"], str), f"{where}.prompt", "a text", event["prompt"])
        options = event["options"]
        _expect(isinstance(options, list) and all(isinstance(o, str) for o in options), f"{where}.options",
                "a list of option labels", options)
        _expect(_is_int(event["chosen"]) and 0 <= event["chosen"] < len(options), f"{where}.chosen",
                f"an option index (0 to {len(options) - 1})", event["chosen"])
        if "state" in event:
            _expect(isinstance(event["state"], str), f"{where}.state", "a digest", event["state"])
        if "secret" in event:
            _expect(isinstance(event["secret"], bool), f"{where}.secret", "true or false", event["secret"])
        decisions.append(event)
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
            digest = state_digest(st)
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


def _plain(value):
    """What a value becomes once written as JSON and read back (tuples → lists, int keys → text)."""
    return json.loads(json.dumps(value, ensure_ascii=False))


def replay(engine, record: dict, decisions: list[dict]) -> ReplayResult:
    """Play the logged game again on ``engine`` (a compiled spec) and compare it with ``record``.

    Raises :class:`ReplayMismatch` at the first difference (``SpecRuntimeError`` if the spec fails)."""
    replayer = Replayer(decisions, lambda: engine.st)
    players = record["players"]
    engine.recording = True
    game = engine.play(record["selection"], players, record["seed"],
                       [ReplayAgent(replayer, seat) for seat in range(players)])
    answered = replayer.next
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
            raise ReplayMismatch(before, f"event {i} differs: the log has {json.dumps(a, ensure_ascii=False)}, "
                                             f"the replay has {json.dumps(b, ensure_ascii=False)}", after=True)
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


def _show_scores(scores: dict) -> str:
    return ", ".join(f"Joueur {int(seat) + 1} {s}" for seat, s in scores.items())


def _show_seats(seats: list[int]) -> str:
    return " et ".join(f"Joueur {s + 1}" for s in seats) or "personne"
