"""Shrinking a failing game to the shortest one that shows the same failure.

A game is a :class:`Case`: the configuration, the player count, the seed and the *choices*, the index of the
option taken at each decision an agent was asked, in order (decisions with one option are taken by the
engine and are not in it).  A case is played by :class:`ChoiceAgent`: the i-th decision asked takes
``choices[i]`` (modulo its number of options, so that any list of integers is a game), and once the list is
spent, the first option.

:func:`shrink` is delta debugging (Zeller's *ddmin*, over the choices): it tries smaller cases and keeps one
when it fails with the same failure (:func:`failure_key`: the same statement and the same message, numbers
aside) in fewer decisions, or in as many with fewer players or smaller choices:

1. fewer players, the same choices;
2. the choices with a slice deleted, from half the list down to one choice, each slice position in turn
   (what follows a deleted slice answers other decisions: often a shorter game);
3. the choices cut after each point (the rest: first options);
4. each decision answered by each of its other options (an offer's last option often ends a turn).

The passes repeat until none shrinks the case, or ``budget`` games have been tried.  A try stops as soon
as it asks more decisions than the best case so far: it cannot be shorter.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Callable

from checker.runtime.state import SpecRuntimeError

__all__ = ["Case", "ChoiceAgent", "Outcome", "failure_key", "play_case", "shrink"]


@dataclasses.dataclass(frozen=True)
class Case:
    configuration: str
    players: int
    seed: int
    choices: tuple[int, ...]


class _TooLong(Exception):
    """A try asked more decisions than the best case so far."""


class ChoiceAgent:
    """Answers every seat's decisions from one list of choices (shared by all seats); past the list, the
    first option; past ``limit`` decisions, it stops the game (:class:`_TooLong`)."""

    def __init__(self, choices: tuple[int, ...], limit: int | None = None):
        self.choices = choices
        self.limit = limit
        self.taken: list[int] = []
        self.sizes: list[int] = []      # how many options each decision had

    def choose(self, decision) -> int:
        n = len(decision.options) + (1 if decision.optional else 0)
        if self.limit is not None and len(self.taken) >= self.limit:
            raise _TooLong()
        i = len(self.taken)
        index = self.choices[i] % n if i < len(self.choices) else 0
        self.taken.append(index)
        self.sizes.append(n)
        return index


@dataclasses.dataclass
class Outcome:
    error: SpecRuntimeError | None      # None: the game ended (or the try went past its limit)
    taken: tuple[int, ...]              # the choices made, up to the error or the end
    sizes: tuple[int, ...] = ()         # the number of options of each


_NUMBER = re.compile(r"-?\d[\d,]*")


def failure_key(exc: SpecRuntimeError) -> tuple:
    """What makes two runtime errors the same failure: the statement, and the message with its numbers left
    out (« transfer of 6 from a counter holding 0 » and « … of 2 … holding 1 » are one failure)."""
    span = exc.span
    where = None if span is None else (span.file, span.line, span.column)
    return where, _NUMBER.sub("#", exc.message)


def play_case(engine, selection: Callable[[str, int], dict], case: Case, limit: int | None = None,
              agents: Callable[[list], list] | None = None) -> Outcome:
    """Play ``case`` on ``engine`` (``selection(configuration, players)`` gives its cards); ``agents``, if
    given, wraps the seats' agents (to narrate them)."""
    agent = ChoiceAgent(case.choices, limit)
    seats = [agent] * case.players
    try:
        engine.play(selection(case.configuration, case.players), case.players, case.seed,
                    agents(seats) if agents else seats)
    except SpecRuntimeError as exc:
        return Outcome(exc, tuple(agent.taken), tuple(agent.sizes))
    except _TooLong:
        pass
    return Outcome(None, tuple(agent.taken), tuple(agent.sizes))


def shrink(engine, selection: Callable[[str, int], dict], case: Case, counts: Callable[[str], list[int]],
           budget: int = 2000) -> tuple[Case, int]:
    """The shortest case found that fails as ``case`` does, and how many games were tried.  ``counts(c)``
    are the player counts configuration ``c`` allows."""
    # a try is kept when it fails as ``case`` does in fewer decisions, or as many with fewer players or
    # smaller choices: each kept try is smaller, so the search ends
    recording = engine.recording
    engine.recording = False            # tries need no log nor state digests
    try:
        first = play_case(engine, selection, case)
        if first.error is None:
            return case, 1
        target = failure_key(first.error)
        best = dataclasses.replace(case, choices=first.taken)
        sizes = first.sizes
        tries = 1

        def better(candidate: Case):
            nonlocal tries
            tries += 1
            outcome = play_case(engine, selection, candidate, limit=len(best.choices))
            if outcome.error is None or failure_key(outcome.error) != target:
                return None
            found = dataclasses.replace(candidate, choices=outcome.taken)
            if (len(found.choices), found.players, sum(found.choices)) < \
                    (len(best.choices), best.players, sum(best.choices)):
                return found, outcome.sizes
            return None

        def candidates():
            for players in sorted(n for n in counts(best.configuration) if n < best.players):
                yield dataclasses.replace(best, players=players)
            size = len(best.choices) // 2
            while size >= 1:
                start = 0
                while start < len(best.choices):
                    choices = best.choices
                    yield dataclasses.replace(best, choices=choices[:start] + choices[start + size:])
                    start += size
                size //= 2
            for cut in range(len(best.choices)):
                yield dataclasses.replace(best, choices=best.choices[:cut])
            for i in range(len(best.choices)):         # each other option at each decision, from the first
                for other in range(sizes[i]):
                    if other != best.choices[i]:
                        yield dataclasses.replace(best, choices=best.choices[:i] + (other,) + best.choices[i + 1:])

        improved = True
        while improved and tries < budget:
            improved = False
            for candidate in candidates():
                if tries >= budget:
                    break
                found = better(candidate)
                if found is not None:
                    (best, sizes), improved = found, True
                    break                   # the passes start again from the smaller case
        return best, tries
    finally:
        engine.recording = recording
