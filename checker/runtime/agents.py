"""Agents: who decides at each decision point.  An agent sees a :class:`Decision`
(its options, in order) and returns the index of its choice."""

from __future__ import annotations

import random

__all__ = ["RandomAgent"]


class RandomAgent:
    """Chooses uniformly among the legal options (its own random source, seeded)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, decision) -> int:
        return self.rng.randrange(len(decision.options) + (1 if decision.optional else 0))
