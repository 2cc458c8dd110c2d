"""`rulebook simulate`: many seeded games, on every core or a Dask cluster, and their statistics."""

from checker.simulate.games import GameRecord, Job, run_games
from checker.simulate.stats import compare, summarize, wilson

__all__ = ["Job", "GameRecord", "run_games", "summarize", "compare", "wilson"]
