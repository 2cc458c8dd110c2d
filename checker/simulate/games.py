"""Playing many seeded games, in this process, on every local core, or on a Dask cluster.

A :class:`Job` is everything a worker needs, as plain values: the spec's *files* (their contents,
so a worker on another machine needs no shared disk), the cards selected, the player count, the
lineup of agents, the first seed.  A worker checks and compiles the spec once per job and keeps the
engine for the job's next chunk of games.  Game ``i`` is played with seed ``seed + i`` and the
lineup turned ``i`` seats (seat ``s`` gets ``lineup[(s + i) % players]``), each agent seeded from
the game's seed and its seat; so every game depends on its number only, and any split of the games
among workers gives the same records.

What is recorded per game (:class:`GameRecord`): winners, scores, rounds, decisions, and which
players *had* each card: for every selected card of a kind that declares a ``controller``
quantity, the seats that quantity named for one of the card's copies at the start of a round (the
state the previous round left) or at the end of the game.  When the quantity cannot name one
player (it fails, e.g. a ``the(…)`` written with ``in`` finds two owners because two players hold
copies of the same card, where ``is in`` would name the owner of each copy) the sample is counted as
*undetermined* for that card, and nobody is credited by it.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from pathlib import Path
from typing import Callable

from checker.base.parallel import chunks, cluster_map, ordered_map
from checker.front import shipped
from checker.front.shipped import MAX_SPEC_BYTES, spec_files

__all__ = ["Job", "GameRecord", "spec_files", "play_chunk", "run_games", "lineup_of", "user_located", "MAX_SPEC_BYTES"]



@dataclasses.dataclass(frozen=True)
class Job:
    files: tuple[tuple[str, bytes], ...]       # (relative path, contents) of every file of the spec
    roots: tuple[str, ...]                     # the paths to check, relative to where the files are put
    selection: tuple[tuple[str, tuple[str, ...]], ...]   # kind -> card names
    players: int
    lineup: tuple[str, ...]                    # agent names by seat, before turning
    seed: int = 0
    playouts: int = 24                         # the Monte-Carlo agent's
    depth: int = 300
    key: str = ""                              # a digest of the files: what a worker caches by
    checked: bytes = b""                       # the command's check of them (front.diskcache.dumps), if it could

    @property
    def tracked(self) -> tuple[str, ...]:
        return tuple(name for _kind, names in self.selection for name in names)


@dataclasses.dataclass(frozen=True)
class GameRecord:
    index: int
    winners: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    rounds: int = 0
    decisions: int = 0
    moves: int = 0
    had: tuple[int, ...] = ()           # per card of the selection (in order): a bit per seat that had it
    undetermined: tuple[int, ...] = ()  # per card: samples where its controller could not be told
    error: str | None = None            # the game stopped on an error of the spec


def user_located(error: str, job: Job, paths: list) -> str:
    """A worker's error, located in the user's files: the job's root ``i/name`` becomes the i-th spec path."""
    return shipped.user_located(error, job.roots, paths)


def lineup_of(job: Job, game: int) -> tuple[str, ...]:
    """The agents by seat in game ``game``: the lineup turned ``game`` seats."""
    n = job.players
    return tuple(job.lineup[(seat + game) % n] for seat in range(n))


# ---------------------------------------------------------------- in a worker

_local = threading.local()       # per thread: job key -> (engine, physical cards of each tracked card)


def _prepared(job: Job):
    cache = getattr(_local, "engines", None)
    if cache is None:
        cache = _local.engines = {}
    if job.key not in cache:
        from checker.runtime.engine import Engine
        result, directory = shipped.checked_copy(job.files, job.roots, job.checked)
        engine = Engine(result.typed)
        engine.recording = False
        engine.spec_directory = directory       # where this worker put the spec's files (None: the user's own)
        cache.clear()           # one job at a time per worker thread
        cache[job.key] = engine
    return cache[job.key]


def _controllers(engine, tracked: tuple[str, ...]) -> list[tuple[int, list[int], object]]:
    """Per tracked card: (position, its physical cards in this game, its kind's controller quantity)."""
    out = []
    for position, name in enumerate(tracked):
        key = engine.def_ids[name]
        kind = engine.def_kind[key]
        if kind in engine.controllers:
            out.append((position, engine.instances.get(key, []),
                        engine.quantity_fns[engine.controllers[kind]]))
    return out


def play_chunk(task: tuple[Job, int, int]) -> list[GameRecord]:
    """Play games ``start`` to ``stop - 1`` of a job (see the module's docstring)."""
    from checker.runtime.players import make_agent
    from checker.runtime.state import SpecRuntimeError
    job, start, stop = task
    engine = _prepared(job)
    selection = dict(job.selection)
    tracked = job.tracked
    records = []
    for game in range(start, stop):
        seed = job.seed + game
        agents = [make_agent(name, seed * 1000 + seat, job.playouts, job.depth)
                  for seat, name in enumerate(lineup_of(job, game))]
        had = [0] * len(tracked)
        undetermined = [0] * len(tracked)
        watched: list = []

        def sample() -> None:
            if not watched:         # the first sample: the game is set up, its physical cards known
                watched.extend(_controllers(engine, tracked))
            engine.invalidate()
            for position, cards, controller in watched:
                for card in cards:
                    try:
                        seat = controller(card)
                    except SpecRuntimeError:
                        undetermined[position] += 1
                        continue
                    if seat is not None:
                        had[position] |= 1 << seat

        engine.round_observer = sample
        try:
            result = engine.play(selection, job.players, seed, agents)
            sample()
        except SpecRuntimeError as exc:
            where = ""
            if exc.span is not None:        # the file as the job names it (« 0/citadelles/… »), not the copy's
                file = exc.span.file
                if engine.spec_directory is not None:
                    file = os.path.relpath(os.path.realpath(file), os.path.realpath(engine.spec_directory))
                where = f"{Path(file).as_posix()}:{exc.span.line}:{exc.span.column}: "
            records.append(GameRecord(game, error=f"{where}{exc.message}"))
            continue
        finally:
            engine.round_observer = None
        records.append(GameRecord(game, tuple(result.winners), tuple(result.scores.get(s, 0) for s in range(job.players)),
                                  result.rounds, result.decisions, result.moves, tuple(had), tuple(undetermined)))
    return records


# ---------------------------------------------------------------- the whole run

def run_games(job: Job, games: int, workers: int = 1, cluster: str | None = None,
              progress: Callable[[int], None] | None = None) -> list[GameRecord]:
    """Games 0 … ``games - 1`` of ``job``, in order: in this process (``workers`` 1), on ``workers``
    local processes, or on the Dask cluster at ``cluster`` (its workers' cores).  ``progress(n)`` is
    called with the number of games each finished chunk adds."""
    if cluster is not None:
        return _on_cluster(job, games, cluster, progress)
    tasks = [(job, part.start, part.stop) for part in chunks(games, workers)]
    parts = ordered_map(play_chunk, tasks, workers,
                        done=(lambda i, records: progress(len(records))) if progress else None)
    return [record for part in parts for record in part]


def _on_cluster(job: Job, games: int, address: str, progress) -> list[GameRecord]:
    parts = cluster_map(address, _play_shared, job, lambda workers: [(p.start, p.stop) for p in chunks(games, workers)],
                        done=(lambda i, records: progress(len(records))) if progress else None)
    return [record for part in parts for record in part]


def _play_shared(job: Job, start: int, stop: int) -> list[GameRecord]:
    return play_chunk((job, start, stop))
