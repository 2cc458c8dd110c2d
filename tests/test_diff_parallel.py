"""`rulebook diff --workers N` / `--cluster`: the searches of a comparison run in other processes, and the
result is a single process's — the same differences, verdicts, counts and order (checker/diff/parallel.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.diff.run import diff_results
from checker.diff.steps import plan
from checker.front.check import check_paths
from conftest import run_cli
from test_diff_behaviour import MARKET, NUTMEG

# B: the filter dropped (an offer differs) and the price paid back changed (a next state differs)
CHANGED = NUTMEG.replace(" where l != this", "").replace("transfer 1 from réserve", "transfer 2 from réserve")


def _sides(tmp_path: Path):
    pa, pb = tmp_path / "a.rules", tmp_path / "b.rules"
    pa.write_text(NUTMEG, encoding="utf-8")
    pb.write_text(CHANGED, encoding="utf-8")
    ra, rb = check_paths([MARKET, pa]), check_paths([MARKET, pb])
    assert ra.ok and rb.ok, [d.message for d in ra.reporter.errors + rb.reporter.errors]
    return ra, [MARKET, pa], rb, [MARKET, pb]


def _json(result) -> dict:
    out = result.as_json()
    out.pop("seconds")
    return out


def test_two_workers_give_what_one_gives(tmp_path):
    ra, a, rb, b = _sides(tmp_path)
    one = diff_results(ra, a, rb, b)
    assert one.status == "different" and one.checked.get("effects") == 1 and one.queries > 0
    two = diff_results(ra, a, rb, b, workers=2)
    assert _json(two) == _json(one)
    # the searches really are shared out: the plan numbers them, two of them at least (the reactions' order and
    # the changed power)
    from checker.diff.pair import Pair, Side
    jobs = plan(Pair(Side("a", ra, a), Side("b", rb, b))).jobs
    assert ("order",) in jobs and ("move", 0) in jobs


def test_first_with_workers_stops_where_one_process_stops(tmp_path):
    ra, a, rb, b = _sides(tmp_path)
    one = diff_results(ra, a, rb, b, first=True)
    two = diff_results(ra, a, rb, b, first=True, workers=2)
    assert _json(two)["differences"] == _json(one)["differences"] and two.checked == one.checked


def test_a_dask_cluster_gives_what_one_process_gives(tmp_path):
    distributed = pytest.importorskip("distributed")
    ra, a, rb, b = _sides(tmp_path)
    one = diff_results(ra, a, rb, b)
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=None) as cluster:
        found = diff_results(ra, a, rb, b, cluster=cluster.scheduler_address)
    assert _json(found) == _json(one)
    # the witnesses name the user's files, not the worker's copy
    witnesses = [d["witness"] for d in _json(found)["differences"] if "witness" in d]
    assert witnesses and all(w[side]["spec"][0] == str(MARKET) for w in witnesses for side in "ab")


def test_bad_workers_and_cluster_are_one_line_and_exit_2(capsys, monkeypatch, tmp_path):
    import checker.base.parallel as parallel

    def failing(address, *args, **kwargs):
        raise parallel.ClusterError(f"cannot reach the cluster {address}: OSError: refused")
    monkeypatch.setattr("checker.diff.parallel.cluster_map", failing)
    _, (_, pa), _, (_, pb) = _sides(tmp_path)
    for extra in (["--workers", "0"], ["--cluster", "nonsense"], ["--cluster", "tcp://127.0.0.1:9"]):
        code, _, err = run_cli(capsys, "diff", *extra, str(MARKET), str(pa), "--", str(MARKET), str(pb))
        assert code == 2 and len(err.strip().splitlines()) == 1 and err.startswith("rulebook diff: "), (extra, err)
    assert "cannot reach the cluster tcp://127.0.0.1:9" in err
