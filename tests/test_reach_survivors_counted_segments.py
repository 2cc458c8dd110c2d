"""The rounds' segments of the question over the counts (checker/solver/unroll_counted.py `segments`): each round's
growth is asked from the snapshot the round starts from to the next round's, and the last round's to the LAST
snapshot — together every snapshot after the start, so every summary's havoc has its round's growth fact.  On the
counted fixture of tests/test_reach_counted.py over two rounds (proved over the counts).  Survivor of the targeted
mutation sample h181 (seed 181) of the reach machinery: unroll_counted.py:221 `len(counted.snapshots) - 1` → `- 2`
(the last snapshot left out of the last round's growth: a fact fewer, still proved on this small game)."""

from __future__ import annotations

from test_reach_counted import SPEC, _reach


def test_the_rounds_segments_chain_from_the_first_snapshot_to_the_last(capsys, monkeypatch):
    import checker.reach.summary as summary
    seen = []
    real = summary.segments

    def segments(counted):
        out = real(counted)
        seen.append((out, len(counted.snapshots), list(counted.rounds)))
        return out
    monkeypatch.setattr(summary, "segments", segments)
    code, out = _reach(capsys, SPEC, "any(p in players: count(l in panier[p]) >= 3)", 2, monkeypatch)
    assert (code, out["status"]) == (1, "proved"), out
    assert len(seen) == 1
    segs, snapshots, rounds = seen[0]
    assert len(segs) == len(rounds) == 2, seen
    assert segs[0][0] == rounds[0] and segs[-1][1] == snapshots - 1, seen
    assert all(a < b for a, b in segs) and all(segs[i][1] == segs[i + 1][0] for i in range(len(segs) - 1)), seen
