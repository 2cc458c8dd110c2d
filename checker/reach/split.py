"""split: the first decisions of a game, enumerated by the interpreter, so that a search can take each sequence
of answers as known (``rulebook reach --split D``).

From the seeded set-up (or a state file's decision point, with its frames) the interpreter is deterministic given the answers, so the sequences of answers to the
first D decisions it asks are a finite tree: :func:`prefixes` walks it (each leaf a list of answers, in order).
A branch stops early at a decision that is not a plain ``choose`` (an offer, a subset, a reaction, an optional
choice: the encoding takes only a ``choose``'s value as known) and at the end of the game.  The branches cover
every path of the game: a search that proves the condition unreachable in every branch proves it for the game.
"""

from __future__ import annotations

from checker.front import ast
from checker.runtime.engine import Engine
from checker.runtime.state import SpecRuntimeError

__all__ = ["prefixes", "MAX_BRANCHES"]

# more branches than this and the split is refused (the search would ask as many unrollings)
MAX_BRANCHES = 2_000


class _Next(Exception):
    """The decision after the prefix: its options when the split goes on there, else None."""

    def __init__(self, options):
        super().__init__()
        self.options = options


class _Prefix:
    def __init__(self, answers: list, depth: int):
        self.answers, self.depth, self.next = answers, depth, 0

    def choose(self, decision) -> int:
        if self.next < len(self.answers):
            answer = self.answers[self.next]
            self.next += 1
            return next(i for i, o in enumerate(decision.options) if o == answer)
        plain = isinstance(decision.site, ast.Choose) and not decision.optional and len(self.answers) < self.depth
        raise _Next(list(decision.options) if plain else None)


def _next_options(engine: Engine, selection: dict, players: int, seed: int, answers: list, depth: int,
                  origin=None):
    """The options of the decision asked after ``answers`` (None: the branch ends there)."""
    engine.recording = False
    agent = _Prefix(answers, depth)
    try:
        if origin is None:
            engine.start(selection, players, seed, [agent] * players)
            engine.call(engine.flow, ())
        else:               # from a state file's decision point (checker.reach.origin)
            origin.start(engine, [agent] * players)
            engine.recording = False
            origin.run(engine)
    except _Next as asked:
        return asked.options
    except SpecRuntimeError:
        return None         # the game stops there: the search's own encoding ends that path too
    return None


def prefixes(engine: Engine, selection: dict, players: int, seed: int, depth: int, origin=None) -> list[list] | str:
    """Every sequence of answers to the first ``depth`` decisions (the runtime values chosen, in order), or why
    the split is refused (more than :data:`MAX_BRANCHES` branches).  ``engine`` (compiled once: compiling
    is most of a game's cost here) sets a game up again for each prefix."""
    done: list[list] = []
    todo: list[list] = [[]]
    while todo:
        answers = todo.pop()
        options = _next_options(engine, selection, players, seed, answers, depth, origin) \
            if len(answers) < depth else None
        if not options:
            done.append(answers)
        else:
            todo.extend(answers + [o] for o in reversed(options))
        if len(done) + len(todo) > MAX_BRANCHES:
            return f"more than {MAX_BRANCHES} sequences of answers to the first {depth} decisions"
    return done
