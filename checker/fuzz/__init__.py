"""`rulebook fuzz`: games played under Hypothesis, every choice drawn by it, shrunk to the shortest failure."""

from checker.fuzz.search import FuzzFailure, FuzzReport, fuzz

__all__ = ["fuzz", "FuzzReport", "FuzzFailure"]
