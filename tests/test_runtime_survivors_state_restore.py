"""Survivor of the blind runtime sample s21 (seed 5169) in checker/runtime/state.py: state.py:84 (`again: bool =
True` → `False`).  A snapshot restored with the default can be restored again (the solver's `legal` explanations
and each-point searches restore one snapshot several times): what the game changes after the first restore does
not leak into the snapshot."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.runtime.engine import Engine
from test_runtime_survivors_aim_budget import TRÉSOR


def test_a_snapshot_restored_by_default_can_be_restored_again(tmp_path):
    path = tmp_path / "tresor.rules"
    path.write_text(TRÉSOR.replace("CLÉ", "200"), encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    engine = Engine(result.typed)
    engine.recording = False
    st = engine.start({}, 2, 1, [None, None])
    st.vars["points"][0] = 2
    snap = st.snapshot()
    st.restore(snap)
    st.vars["points"][0] = 7                # the game goes on from the restored state
    st.vars["trésor"] = 1
    st.restore(snap)
    assert st.vars["points"] == {0: 2} and st.vars["trésor"] == 0
