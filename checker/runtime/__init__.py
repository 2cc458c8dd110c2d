"""The interpreter: a checked spec compiled into closures that play games."""

from checker.runtime.agents import RandomAgent
from checker.runtime.engine import Decision, Engine, GameResult
from checker.runtime.state import SpecRuntimeError

__all__ = ["Engine", "Decision", "GameResult", "RandomAgent", "SpecRuntimeError"]
