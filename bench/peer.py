"""Our interpreter against a hand-written Python engine of Citadelles, side by side: random 6-player games.

The peer is davpat108/CITADELS_self_play (MIT), a hand-written engine of the 4th edition for self-play
training.  Fetch it once, anywhere (the bench does not download anything):

    git clone https://github.com/davpat108/CITADELS_self_play /tmp/peer
    python bench/peer.py --peer /tmp/peer [--games 500] [--process-games 300] [--rounds 5]

It imports PyTorch at import time only (for its training code, never in a random game); the bench puts a stub
``torch`` package before it on the path, so PyTorch need not be installed.  Its random games are its own
random game set-up (``Game()``: a random deck of 14 unique districts, random roles) with a random option taken
at every decision point; ours are `simulate`'s: the 4th edition's « Violente » configuration, 6 players,
random agents.  Two measures, CPU time, runs alternated:

- in process: ``--games`` games of each, played in ``--rounds`` alternating blocks after one warm-up game each,
  start-up excluded;
- whole process: ``--process-games`` games in a fresh Python process each (start-up, imports and our spec's
  check included; our check is read from the disk cache after the first run, as a user's second run is).

Prints a table: games, CPU seconds, games per CPU second for each, and our speed over the peer's.  The
issue's targets: in process ≥ 5×, whole process ≥ 3×.  Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = "Violente"
PLAYERS = 6

_TORCH_STUB = '''"""A stand-in for PyTorch: the peer imports it at import time and never uses it in a random game."""
import types as _types
nn = _types.ModuleType("torch.nn")
nn.functional = _types.ModuleType("torch.nn.functional")
nn.Module = object
'''

def _stub(folder: Path) -> Path:
    package = folder / "torch"
    (package / "nn").mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text(_TORCH_STUB, encoding="utf-8")
    (package / "nn" / "__init__.py").write_text("from torch import nn as _n\nfunctional = _n.functional\n", encoding="utf-8")
    (package / "nn" / "functional.py").write_text("", encoding="utf-8")
    return folder


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _player(name: str, peer: Path, stub: Path):
    """``play(seed)``: one random 6-player game, ours (``name`` "ours") or the peer's, played in this process
    (only that side is imported)."""
    if name == "peer":
        sys.path[:0] = [str(stub), str(peer)]
        from game.game import Game

        def theirs(seed: int) -> None:
            random.seed(seed)
            game = Game()
            game.setup_round()
            winner = False
            while not winner:
                winner = random.choice(game.get_options_from_state()).carry_out(game)
        return theirs
    sys.path.insert(0, str(ROOT))
    from checker.front.check import check_paths
    from checker.front.configurations import select
    from checker.runtime import Engine, RandomAgent
    result = check_paths([ROOT / "spec" / "citadelles"])
    selection = select(result.program, result.program.configurations[CONFIG], PLAYERS)
    engine = Engine(result.typed)
    engine.recording = False

    def ours(seed: int) -> None:
        engine.play(selection.cards, PLAYERS, seed, [RandomAgent(seed * 100 + i) for i in range(PLAYERS)])
    return ours


def _in_process(peer: Path, stub: Path, games: int, rounds: int) -> tuple[float, float]:
    """CPU seconds for ``games`` games of each (ours, the peer's), alternated in ``rounds`` blocks."""
    play = {name: _player(name, peer, stub) for name in ("ours", "peer")}
    play["ours"](10**6)
    play["peer"](10**6)                                      # warm-up, not counted
    spent = {"ours": 0.0, "peer": 0.0}
    block = max(1, games // rounds)
    for r in range(rounds):
        for name in ("ours", "peer") if r % 2 == 0 else ("peer", "ours"):
            start = _cpu()
            for seed in range(r * block, (r + 1) * block):
                play[name](seed)
            spent[name] += _cpu() - start
    return spent["ours"], spent["peer"]


def _whole_process(peer: Path, stub: Path, games: int, rounds: int) -> tuple[float, float]:
    """CPU seconds of a fresh process playing ``games`` games of each (this file, ``--play``), alternated."""
    def command(name: str, count: int) -> list[str]:
        return [sys.executable, __file__, "--peer", str(peer), "--stub", str(stub), "--play", name,
                "--games", str(count)]
    subprocess.run(command("ours", 0), check=True)          # our check into the disk cache, as a second run has it
    spent = {"ours": 0.0, "peer": 0.0}
    for r in range(rounds):
        for name in ("ours", "peer") if r % 2 == 0 else ("peer", "ours"):
            start = _children()
            subprocess.run(command(name, games), check=True)
            spent[name] += _children() - start
    return spent["ours"] / rounds, spent["peer"] / rounds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, required=True, help="a clone of davpat108/CITADELS_self_play")
    parser.add_argument("--games", type=int, default=500, help="in process: games of each")
    parser.add_argument("--rounds", type=int, default=5, help="in process: alternating blocks")
    parser.add_argument("--process-games", type=int, default=300, help="whole process: games of each per process")
    parser.add_argument("--process-rounds", type=int, default=2, help="whole process: processes of each, alternated")
    parser.add_argument("--play", choices=("ours", "peer"), help=argparse.SUPPRESS)   # one whole process's games
    parser.add_argument("--stub", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        play = _player(args.play, args.peer.resolve(), args.stub)
        for seed in range(args.games):
            play(seed)
        return 0
    if not (args.peer / "game" / "game.py").is_file():
        sys.exit(f"{args.peer} is not a clone of davpat108/CITADELS_self_play (see this file's docstring)")
    print(f"load average {os.getloadavg()[0]:.2f}, python {sys.version.split()[0]}, {time.strftime('%Y-%m-%d %H:%M')}")
    with tempfile.TemporaryDirectory() as tmp:
        stub = _stub(Path(tmp))
        rows = []
        if args.process_games:
            ours, theirs = _whole_process(args.peer.resolve(), stub, args.process_games, args.process_rounds)
            rows.append(("whole process", args.process_games, ours, theirs))
        if args.games:
            ours, theirs = _in_process(args.peer.resolve(), stub, args.games, args.rounds)
            rows.append(("in process", args.games // args.rounds * args.rounds, ours, theirs))
    print(f"{'measure':15} {'games':>6} {'ours CPU s':>11} {'peer CPU s':>11} {'ours g/s':>9} {'peer g/s':>9} {'ratio':>6}")
    for name, games, ours, theirs in rows:
        print(f"{name:15} {games:6} {ours:11.2f} {theirs:11.2f} {games / ours:9.1f} {games / theirs:9.1f} "
              f"{theirs / ours:5.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
