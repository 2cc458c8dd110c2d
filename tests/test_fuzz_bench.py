"""bench/fuzz.py's memory column is the commands' own: each huge case runs as `python -m checker …` in a process
of its own, and the peak read is that process's — not the bench's (which holds every spec checked and the huge
documents it drew), nor the largest of all the children so far."""

from __future__ import annotations

import os
import sys

import pytest

from bench import fuzz as bench

pytestmark = pytest.mark.skipif(not os.access(bench.TIME, os.X_OK), reason=f"no GNU time at {bench.TIME}")

TOUCH = "x = bytearray({} * 2**20); x[::4096] = b'1' * len(x[::4096])"     # so many MiB, every page written


def test_the_peak_is_the_child_s_own_not_the_bench_s_nor_the_largest_so_far():
    _, _, big = bench.own_process([sys.executable, "-c", TOUCH.format(300)], 60)
    assert big > 300 * 1024, f"{big} KiB for 300 MiB touched"
    held = bytearray(300 * 2**20)
    held[::4096] = b"1" * len(held[::4096])         # the bench weighs 300 MiB more when it starts the next one
    code, _, small = bench.own_process([sys.executable, "-c", "pass"], 60)
    del held
    assert code == 0
    assert small < 100 * 1024, f"{small} KiB for a bare interpreter: the parent's or the last child's pages counted"


def test_a_child_past_its_limit_is_a_hang_and_its_exit_code_and_stderr_come_back():
    code, _, _ = bench.own_process([sys.executable, "-c", "import time; time.sleep(30)"], 0.5)
    assert code == "hang"
    code, err, peak = bench.own_process([sys.executable, "-c", "import sys; sys.exit('non')"], 60)
    assert code == 1 and err.strip() == "non" and peak > 0


def test_a_case_runs_as_the_command_it_fuzzes(tmp_path):
    """A state file that is not JSON, given to `rulebook moves` in a process of its own: exit 2, a one-line
    message naming the file, and a peak that is the command's (tens of MB)."""
    argv = bench.command_argv("state", b'{"zones": [1, 2', tmp_path)
    assert argv[1:4] == ["-m", "checker", "moves"]
    code, err, peak = bench.own_process(argv, 60)
    assert code == 2 and "Traceback" not in err and "own-case.state.json" in err, err
    assert 10 * 1024 < peak < 500 * 1024


@pytest.fixture(scope="module")
def real():
    from fuzzing import real_documents
    return real_documents()


def test_every_loader_reaches_its_command_with_a_good_input(real, tmp_path):
    """Unchanged real inputs pass through every loader's command line to the end (exit 0): the fuzz's cases
    are judged by the command named in its table, with what it needs beside them (`apply`'s move is legal at
    its state, `eval`'s expression type-checks)."""
    import json
    from fuzzing import EXPRESSION, TARGETS, case_argv, run_case
    offer, move = real["offer"]
    good = {"state": offer, "move": move, "log": real["log"][0], "eval": offer, "apply": offer, "apply-move": move}
    for target, (_, command) in TARGETS.items():
        data = EXPRESSION.encode() if target == "expression" else json.dumps(good[target]).encode()
        assert case_argv(target, data, tmp_path)[0] == command
        code, err = run_case(target, data, tmp_path)
        assert code == 0, f"{target}: exit {code}: {err}"
    written = json.loads((tmp_path / "next.json").read_text(encoding="utf-8"))
    assert written["decision"] != offer["decision"]      # the move was run: a new decision point


def test_huge_eval_and_apply_cases_run_as_the_command_within_500_mb(real, tmp_path):
    """An expression of 120,000 bytes given to `eval`, and a state whose hand holds a million cards given to
    `apply`, each in a process of its own: exit 2 with a message, no traceback, under 500 MB."""
    import copy
    import json
    from fuzzing import HUGE_EXPRESSION
    expression = ("1 + " * (HUGE_EXPRESSION // 4)).encode() + b"1"
    state = copy.deepcopy(real["offer"][0])
    zone = next(k for k, v in state["zones"].items() if isinstance(v, dict))
    player = next(iter(state["zones"][zone]))
    state["zones"][zone][player] = ["Temple"] * 1_000_000
    for target, data in (("expression", expression), ("apply", json.dumps(state).encode())):
        code, err, peak = bench.own_process(bench.command_argv(target, data, tmp_path), 120)
        assert code == 2 and "Traceback" not in err and err.strip(), f"{target}: exit {code}: {err[-500:]}"
        assert peak < 500 * 1024, f"{target}: {peak} KiB"
