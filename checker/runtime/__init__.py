"""The interpreter: it takes a checked, typed program (:mod:`checker.front`) and gives games.

:mod:`~checker.runtime.compile` and :mod:`~checker.runtime.codegen` generate Python source for every rule,
quantity, action, procedure and power of the program, node type by node type, and compile it once;
:class:`~checker.runtime.engine.Engine` runs it: legality by the language's exceptions, decisions asked of
agents (:mod:`~checker.runtime.agents`, :mod:`~checker.runtime.players`), reactions in their declared order,
the state (:mod:`~checker.runtime.state`, :mod:`~checker.runtime.cards`) and its views
(:mod:`~checker.runtime.showing`), a seeded log that :mod:`~checker.runtime.replay` plays again.  It knows no
card by name, and nothing of Z3, the book or the command line.
"""

from checker.runtime.agents import RandomAgent
from checker.runtime.engine import Decision, Engine, GameResult
from checker.runtime.state import SpecRuntimeError

__all__ = ["Engine", "Decision", "GameResult", "RandomAgent", "SpecRuntimeError"]
