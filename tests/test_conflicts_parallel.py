"""`rulebook conflicts` on several cores finds the same findings, in the same order, with the same
witnesses, as on one (the cheap searches only: the full search is timed by bench/simulate.py)."""

from __future__ import annotations

from pathlib import Path

from checker.front.check import check_paths
from checker.conflicts.parallel import search_all
from conftest import ROOT

CHEAP = ("competing_values", "order_dependence", "dangling")


def test_two_workers_find_what_one_finds_in_the_same_order(tmp_path):
    house = tmp_path / "maison.rules"
    house.write_text('action rêver(p: Player) "Rien."\n'
                     'rule personne { forbid rêver(p) when p == p }\n'
                     'rule cité_à_six { value cité_complète_à() = 6 when player_count >= 6 }\n'
                     'rule cité_à_neuf { value cité_complète_à() = 9 when player_count >= 5 }\n', encoding="utf-8")
    paths = [ROOT / "spec" / "citadelles", house]
    result = check_paths(paths)
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    one, totals = search_all(result.typed, paths, None, 1, CHEAP)
    two, totals2 = search_all(result.typed, paths, None, 2, CHEAP)
    assert [f.as_json() for f in two] == [f.as_json() for f in one]
    assert (totals2.queries, totals2.unknowns) == (totals.queries, totals.unknowns)
    kinds = [f.kind for f in one]
    assert "competing-values" in kinds and "dangling" in kinds and len(one) >= 4
    assert sum(f.witness is not None for f in one) >= 3


def test_a_dask_cluster_finds_what_one_process_finds(tmp_path, capsys):
    """`--cluster`: the spec travels to the workers (its files and the command's check), the shards come back in
    the single-process order; scoped to a house file given by its path, as the command scopes it."""
    distributed = __import__("pytest").importorskip("distributed")
    from checker.cli import main
    from checker.front.shipped import ship
    house = tmp_path / "maison.rules"
    house.write_text('rule cité_à_six { value cité_complète_à() = 6 when player_count >= 6 }\n'
                     'rule cité_à_neuf { value cité_complète_à() = 9 when player_count >= 5 }\n', encoding="utf-8")
    paths = [ROOT / "spec" / "citadelles", house]
    result = check_paths(paths)
    one, totals = search_all(result.typed, paths, None, 1, CHEAP)
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=None) as cluster:
        found, totals2 = search_all(result.typed, paths, None, 1, CHEAP, cluster=cluster.scheduler_address,
                                    shipped=ship(paths, result))
        assert [f.as_json() for f in found] == [f.as_json() for f in one]
        assert (totals2.queries, totals2.unknowns) == (totals.queries, totals.unknowns)
        code = main(["conflicts", str(paths[0]), str(house), "--cluster", cluster.scheduler_address, "--json"])
    assert code == 1 and [f.kind for f in one].count("competing-values") >= 1
    assert '"competing-values"' in capsys.readouterr().out


def test_a_cluster_that_cannot_be_used_is_one_line_and_exit_2(capsys, monkeypatch):
    """A bad address is refused before any search; a cluster that fails (the runner's ClusterError, which
    test_fuzz_options provokes with a real garbage server) is one line and exit 2."""
    import checker.base.parallel as parallel
    from checker.cli import main

    def failing(address, *args, **kwargs):
        raise parallel.ClusterError(f"cannot reach the cluster {address}: OSError: refused")
    monkeypatch.setattr(parallel, "cluster_map", failing)
    monkeypatch.setattr("checker.conflicts.parallel.cluster_map", failing)
    for address in ("nonsense", "tcp://127.0.0.1:9"):
        code = main(["conflicts", str(ROOT / "spec" / "citadelles"), "--cluster", address])
        err = capsys.readouterr().err
        assert code == 2 and len(err.strip().splitlines()) == 1 and err.startswith("rulebook conflicts: "), err
