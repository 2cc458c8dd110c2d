"""`rulebook simulate`: it takes a rule set (or two, ``--vs``) and gives many seeded games played by the
interpreter's agents, on every core or a Dask cluster (:mod:`~checker.simulate.games`), their statistics — win
rates with intervals, by seat, agent and card, and tests between rule sets (:mod:`~checker.simulate.stats`) —
reports and charts (:mod:`~checker.simulate.report`, :mod:`~checker.simulate.plots`).
"""

from checker.simulate.games import GameRecord, Job, run_games
from checker.simulate.stats import compare, summarize, wilson

__all__ = ["Job", "GameRecord", "run_games", "summarize", "compare", "wilson"]
