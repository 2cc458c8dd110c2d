"""`rulebook simulate`: it takes a rule set (or two, ``--vs``) and gives many seeded games played by the
interpreter's agents, on every core or a Dask cluster (:mod:`~checker.simulate.games`), their statistics — win
rates with intervals, by seat, agent and card, and tests between rule sets (:mod:`~checker.simulate.stats`) —
reports and charts (:mod:`~checker.simulate.report`, :mod:`~checker.simulate.plots`).
"""

from checker.base.registry import lazy_exports

# imported on first use: the command line imports this package to list its commands
__getattr__ = lazy_exports({
    "GameRecord": "checker.simulate.games",
    "Job": "checker.simulate.games",
    "run_games": "checker.simulate.games",
    "compare": "checker.simulate.stats",
    "summarize": "checker.simulate.stats",
    "wilson": "checker.simulate.stats",
})

__all__ = ["Job", "GameRecord", "run_games", "summarize", "compare", "wilson"]
