"""The built-in players, by the names commands take (``--agent random``, ``greedy``, ``montecarlo``)."""

from __future__ import annotations

from checker.runtime.agents import GreedyAgent, RandomAgent

__all__ = ["AGENTS", "make_agent"]

AGENTS = ("random", "greedy", "montecarlo")     # the built-in players, by the name commands take


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
