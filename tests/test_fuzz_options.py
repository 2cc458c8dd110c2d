"""`rulebook fuzz --add/--remove`, `--workers` and `--cluster`: cards added and removed as the spec's constraints
accept them (the selection `simulate` and `play` compose), the search on local processes or a Dask cluster
finding and shrinking the same failure as in one process, and every cluster failure as one line, exit 2."""

from __future__ import annotations

import json

import pytest

from checker.fuzz.search import Games
from checker.fuzz.workers import chunk_sizes
from conftest import checked_once, run_cli

FIXTURE = "tests/fixtures/fuzz/emprunt.rules"      # a house rule that fails in the first game (see test_fuzz.py)
MINIMAL = "tests/fixtures/good/minimal_game.rules"
SHORT = 20
pytestmark = pytest.mark.usefixtures("specs_checked_once")   # each command checks the spec once
SWAP = ["-c", "Première partie", "--remove", "Forge, Tripot", "--add", "Musée, Parc"]


def test_added_and_removed_cards_are_in_every_game_and_in_the_failures_log(capsys, tmp_path):
    log = tmp_path / "échec.json"
    code, _, err = run_cli(capsys, "fuzz", "spec/citadelles", FIXTURE, *SWAP, "--games", "10", "--log", str(log))
    assert code == 1 and f"{FIXTURE}:28:7" in err
    record = json.loads(log.read_text(encoding="utf-8"))
    assert record["add"] == ["Musée", "Parc"] and record["remove"] == ["Forge", "Tripot"]
    districts = [name for names in record["selection"].values() for name in names]
    assert "Musée" in districts and "Parc" in districts and "Forge" not in districts and "Tripot" not in districts
    assert sum(e["kind"] == "decision" for e in record["events"]) <= SHORT
    # replay composes the same selection from the log's add and remove, and stops on the same error
    code, out, _ = run_cli(capsys, "replay", str(log))
    assert code == 1 and "replay ok" in out


def test_with_cards_added_every_count_the_constraints_accept_is_played():
    """Without --add/--remove, a configuration's own counts; with them, every count of the game whose
    composed selection the constraints accept, and why the others are not."""
    paths = ("spec/citadelles", FIXTURE)
    result = checked_once(paths)
    plain = Games(result, list(paths), ["Première partie"])
    swapped = Games(result, list(paths), ["Première partie"], ["Musée", "Parc"], ["Forge", "Tripot"])
    assert swapped.counts["Première partie"] == plain.counts["Première partie"]
    assert "Musée" in swapped.selection("Première partie", 4)["District"]
    queen = Games(result, list(paths), ["Première partie"], ["Reine"], ["Roi"])
    assert not queen.playable and all("refused by the spec" in why for _, _, why in queen.refused)


def test_cards_the_constraints_refuse_everywhere_are_bad_usage(capsys):
    code, _, err = run_cli(capsys, "fuzz", "spec/citadelles", "-c", "Première partie", "--remove", "Roi",
                           "--add", "Reine", "--games", "3")
    assert code == 2 and "the selection is refused by the spec" in err and len(err.strip().splitlines()) == 1
    code, _, err = run_cli(capsys, "fuzz", "spec/citadelles", "--add", "Musee", "--games", "3")
    assert code == 2 and err.strip() == 'rulebook fuzz: no card "Musee"; did you mean "Musée"?'


def test_chunks_depend_on_the_games_only():
    assert chunk_sizes(30) == [20, 10] and sum(chunk_sizes(100_000)) == 100_000
    assert max(chunk_sizes(100_000)) == 500 and len(chunk_sizes(1000)) == 50


def test_two_workers_find_and_shrink_the_failure(capsys, tmp_path):
    log = tmp_path / "échec.json"
    code, _, err = run_cli(capsys, "fuzz", "spec/citadelles", FIXTURE, "--games", "40", "-j", "2",
                           "--log", str(log))
    assert code == 1 and "shrunk from " in err
    record = json.loads(log.read_text(encoding="utf-8"))
    assert record["error"]["at"] == f"{FIXTURE}:28:7"          # the user's file, not a worker's copy
    assert record["spec"] == ["spec/citadelles", FIXTURE]
    assert sum(e["kind"] == "decision" for e in record["events"]) <= SHORT


def test_a_dask_cluster_plays_the_games_of_any_number_of_workers(capsys):
    distributed = pytest.importorskip("distributed")
    code, out, _ = run_cli(capsys, "fuzz", MINIMAL, "--games", "50", "-j", "2", "--json")
    assert code == 0
    local = json.loads(out)
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        code, out, _ = run_cli(capsys, "fuzz", MINIMAL, "--games", "50", "--cluster", cluster.scheduler_address,
                               "--json")
    assert code == 0
    there = json.loads(out)
    assert (there["games"], there["decisions"]) == (local["games"], local["decisions"]) == (50, local["decisions"])


@pytest.fixture
def garbage_server():
    """A TCP address where something that is no Dask scheduler answers with garbage (a probe found one such:
    the client read a frame length of 3 EiB, MemoryError, then waited 40 s to close)."""
    import socket
    import threading
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def answer():
        while True:
            try:
                connection, _ = server.accept()
            except OSError:
                return
            with connection:
                connection.sendall(b"\xff" * 64)
    threading.Thread(target=answer, daemon=True).start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    server.close()


@pytest.mark.parametrize("command", ["fuzz", "simulate"])
def test_every_cluster_failure_is_one_line_and_exit_2(capsys, garbage_server, command):
    pytest.importorskip("distributed")
    for address in (garbage_server, "nonsense"):
        code, out, err = run_cli(capsys, command, MINIMAL, "--cluster", address, "-n" if command == "simulate"
                                 else "--games", "5")
        assert code == 2 and out == ""
        assert len(err.strip().splitlines()) == 1 and err.startswith(f"rulebook {command}: "), err


def test_keep_going_plays_every_game_and_lists_each_failure():
    """bench/fuzz.py counts failing games instead of stopping at the first: the broken house rule fails in
    most of its games, each listed with its case and its located message."""
    from checker.fuzz.search import search
    paths = ["spec/citadelles", FIXTURE]
    games = Games(checked_once(tuple(paths)), paths, ["Première partie"])
    found = search(games, 4, 0, keep_going=True)
    assert found.games == 4 and found.case is None and 1 <= len(found.failures) <= 4
    kind, case, message = found.failures[0]
    assert kind == "runtime" and message.startswith(f"{FIXTURE}:28:7: transfer of ")
    assert case.configuration == "Première partie"
