"""`rulebook fuzz`: it takes a rule set and gives games played under Hypothesis — the configuration, the player
count, the seed and every choice drawn by it — checked for runtime errors, broken invariants, games past their
bound and logs that do not replay; a failure is shrunk and written as a log `rulebook replay` reads, and its events printed."""

from checker.fuzz.search import FuzzFailure, FuzzReport, fuzz

__all__ = ["fuzz", "FuzzReport", "FuzzFailure"]
