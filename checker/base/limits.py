"""The limits that keep every command bounded in time and memory (docs/language.md, « Limits »).

A spec that checks clean cannot make `play`, `legal`, `moves` or `conflicts` run without end: what
can be decided when the spec is checked is (:mod:`checker.front.bounds`: the size of every range, no
recursion); the rest is counted while the spec runs, and passing a limit is a located error that
names it, never a hang.
"""

from __future__ import annotations

__all__ = ["MAX_PLAYERS", "MAX_RANGE", "MAX_INT", "MAX_LOOP", "MAX_WORK", "MAX_OPTIONS", "MAX_STEPS", "MAX_LOG",
           "MAX_ENCODING", "MAX_NARROWED", "MAX_MOVES", "MAX_SEARCHED", "MAX_RECORD_SET"]

MAX_PLAYERS = 100          # player counts a game or configuration may name
MAX_RANGE = 1_000          # elements of one range `a..b` (checked when the spec is checked)
MAX_INT = 1_000_000_000    # |an integer| a var, counter, local name or quantity holds
MAX_LOOP = 10_000          # iterations of one `repeat`
MAX_WORK = 2_000_000       # loop iterations and aggregate elements between two decisions
MAX_OPTIONS = 10_000       # options at one decision point
MAX_STEPS = 200_000        # decisions in one game
MAX_LOG = 1_000_000        # entries of one game's log, each decision counting its options too
MAX_ENCODING = 200_000    # elements the Z3 encoding of one question may range over
MAX_NARROWED = 300_000    # and one asked again with its `connected` searches narrowed (checker.solver.narrowed)
MAX_SEARCHED = 4_096       # values a `connected` through a symbolic state may reach (one unknown and one rank each)
MAX_RECORD_SET = 4_096     # records a symbolic set of records of the conflict search may hold
MAX_MOVES = 10_000         # moves `rulebook moves` lists at one decision point
