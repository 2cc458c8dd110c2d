"""Agents: who decides at each decision point.  An agent sees a :class:`Decision`
(its options, in order) and returns the index of its choice.  The built-in players by the names commands
take are in :mod:`checker.runtime.players`; a person at the terminal is :mod:`checker.human.agent`."""

from __future__ import annotations

import random

__all__ = ["RandomAgent", "GreedyAgent", "ScriptedAgent", "ScriptError"]


class ScriptError(AssertionError):
    """A scripted agent was asked something its script does not answer."""


class RandomAgent:
    """Chooses uniformly among the legal options (its own random source, seeded)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, decision) -> int:
        return self.rng.randrange(len(decision.options) + (1 if decision.optional else 0))


class GreedyAgent:
    """A simple greedy builder, for any game with a `score`: among the actions offered, it takes the one
    that raises its score the most right away; otherwise it chooses at random."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, decision) -> int:
        engine = decision.engine
        if engine is not None:
            now = engine.quantity(engine.score, (decision.player,)) if engine.score else 0
            best, best_gain = None, 0
            for i, option in enumerate(decision.options):
                if isinstance(option, tuple) and option and option[0] == "action":
                    after = engine.lookahead(decision.player, option)
                    if after is not None and after - now > best_gain:
                        best, best_gain = i, after - now
            if best is not None:
                return best
        return self.rng.randrange(len(decision.options) + (1 if decision.optional else 0))


class ScriptedAgent:
    """Answers from a script: each answer is the label of the option to take, in order.

    Every decision it sees is kept in ``seen`` as (prompt, labels, answer), so a test can
    also check what was *not* offered.
    """

    def __init__(self, answers: list[str]):
        self.answers = list(answers)
        self.seen: list[tuple[str, list[str], str]] = []

    def choose(self, decision) -> int:
        labels = decision.labels()
        if not self.answers:
            raise ScriptError(f"unscripted decision: {decision.prompt} {labels}")
        answer = self.answers.pop(0)
        if answer not in labels:
            raise ScriptError(f"{answer!r} is not offered at {decision.prompt!r}: {labels}")
        self.seen.append((decision.prompt, labels, answer))
        return labels.index(answer)
