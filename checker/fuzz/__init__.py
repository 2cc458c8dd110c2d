"""`rulebook fuzz`: it takes a rule set and gives games drawn by Hypothesis — the configuration, the player
count, the seed and the seed of every choice — checked for runtime errors, broken invariants, games past their
bound and logs that do not replay; the first failure is shrunk by delta debugging over its choices
(:mod:`checker.fuzz.shrink`), written as a log `rulebook replay` reads, and printed as `rulebook play` prints a
game."""

from checker.base.registry import lazy_exports

# imported on first use: the command line imports this package to list its commands
__getattr__ = lazy_exports({
    "fuzz": "checker.fuzz.run",
    "FuzzReport": "checker.fuzz.search",
    "FuzzFailure": "checker.fuzz.search",
})

__all__ = ["fuzz", "FuzzReport", "FuzzFailure"]
