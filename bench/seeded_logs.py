"""Digests of seeded `rulebook play --json` logs of every bundled game, to show that a change to the
interpreter leaves every game the same, byte for byte.

Run: python bench/seeded_logs.py OUT.txt      (then compare two such files with diff)
Each line: the command's arguments and the SHA-256 of the JSON log it wrote.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker.cli import main as rulebook  # noqa: E402

CIT, FAN, CAR = "spec/citadelles", "spec/extension-fan", "spec/carcassonne"
CASES = [  # (spec and overlays, configuration, players, seeds, agent)
    ([CIT], "Violente", 2, range(3), "random"),
    ([CIT], "Violente", 3, range(3), "random"),
    ([CIT], "Violente", 4, range(3), "random"),
    ([CIT], "Violente", 6, range(3), "random"),
    ([CIT], "Bluff", 5, range(2), "greedy"),
    ([CIT], "Combinaisons", 7, range(2), "random"),
    ([CIT], "Première partie", 4, range(1), "montecarlo"),
    ([CIT, FAN], "Nouveaux Personnages", 3, range(2), "random"),
    ([CIT, FAN], "Éditions mêlées", 5, range(2), "random"),
    ([CIT, "spec/éditions/jeu-de-base"], "Jeu de base", 5, range(2), "random"),
    ([CAR], "Jeu de base", 2, range(2), "random"),
    ([CAR], "Jeu de base", 4, range(1), "greedy"),
]


def main() -> None:
    out = Path(sys.argv[1])
    os.chdir(ROOT)
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for specs, config, players, seeds, agent in CASES:
            for seed in seeds:
                log = Path(tmp) / f"log{len(lines)}.json"
                argv = ["play", *specs, "-c", config, "-n", str(players), "-s", str(seed), "--agent", agent,
                        "--json", str(log), "--force", "-q"]
                start = time.process_time()
                with contextlib.redirect_stdout(io.StringIO()):
                    code = rulebook(argv)
                digest = hashlib.sha256(log.read_bytes()).hexdigest() if log.exists() else "no log"
                lines.append(f"{' '.join(argv[1:-4])}  exit {code}  {digest}")
                print(lines[-1], f"({time.process_time() - start:.1f} s CPU)", flush=True)
    out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
