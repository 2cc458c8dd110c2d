"""Agents: who decides at each decision point.  An agent sees a :class:`Decision`
(its options, in order) and returns the index of its choice."""

from __future__ import annotations

import random

__all__ = ["RandomAgent", "GreedyAgent", "ScriptedAgent", "ScriptError", "AGENTS", "make_agent"]

AGENTS = ("random", "greedy", "montecarlo")     # the built-in players, by the name commands take


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


def make_agent(name: str, seed: int, playouts: int = 24, depth: int = 300):
    """A built-in player by name (see :data:`AGENTS`); ``playouts`` and ``depth`` are the Monte-Carlo
    agent's (see :class:`checker.runtime.montecarlo.MonteCarloAgent`)."""
    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent(seed)
    if name == "montecarlo":
        from checker.runtime.montecarlo import MonteCarloAgent
        return MonteCarloAgent(seed, playouts=playouts, depth=depth)
    raise ValueError(f"no agent {name!r} (known: {', '.join(AGENTS)})")


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


def __getattr__(name: str):
    """``HumanAgent`` and ``HumanQuit`` live in :mod:`checker.human.agent` (kept importable from here)."""
    if name in ("HumanAgent", "HumanQuit"):
        from checker.human import agent
        return getattr(agent, name)
    raise AttributeError(name)
