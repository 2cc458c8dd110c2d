"""The question over the counts (checker/solver/unroll_counted.py `Counted.constraints`) has the unrolling's
constraints — the paths: the choices, the rules, the kept cells' values — but the summaries' own sums over every
card (left out: fewer constraints, more models, still implied), and without ``paths`` none of them.  On the counted
fixture of tests/test_reach_counted.py over two rounds (proved over the counts).  Survivor of the lead's blind
mutation sample 2611 (whole suite): unroll_counted.py:203 `i not in self.skip` → `i in self.skip` (the question
then had the sums and none of the paths: on that fixture the counts alone prove it, the paths are not needed, and
no test read which constraints the question had)."""

from __future__ import annotations

from test_reach_counted import SPEC, _reach


def test_the_question_over_the_counts_has_the_paths_but_the_summaries_sums(capsys, monkeypatch):
    import checker.reach.summary as summary
    seen = []
    real = summary._by_counts

    def by_counts(t, bounds, settings):
        seen.append((t, bounds))
        return real(t, bounds, settings)
    monkeypatch.setattr(summary, "_by_counts", by_counts)
    code, out = _reach(capsys, SPEC, "any(p in players: count(l in panier[p]) >= 3)", 2, monkeypatch)
    assert (code, out["status"]) == (1, "proved"), out
    assert len(seen) == 1
    t, bounds = seen[0]
    counted = t.counted
    assert counted.refused is None and counted.skip, counted.refused
    paths = {c.get_id() for i, c in enumerate(t.constraints) if i not in counted.skip and not isinstance(c, bool)}
    sums = {c.get_id() for i, c in enumerate(t.constraints) if i in counted.skip and not isinstance(c, bool)}
    assert paths and sums
    asked = {c.get_id() for c in counted.constraints(bounds)}
    assert paths <= asked and not (sums & asked)
    light = {c.get_id() for c in counted.constraints(bounds, paths=False)}
    assert not (light & (paths | sums))
