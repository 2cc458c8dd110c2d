"""How deep a state file's frames may be for `reach --from STATE` (checker/solver/unroll_resume.py's `_frame`): the
same limit as the unrolling from the set-up (checker/solver/transition.py's `body`), 16 nested bodies.  A game
whose flow calls 15 procedures one inside the other, the innermost asking a `choose`, has 16 frames at that
decision (the flow's procedure and the 15): from the set-up the unrolling encodes it, and from the state file it
must too; one level more (17 frames) is refused from both, located.  Survivor of the lead's blind mutation
sample 2611 (whole suite): unroll_resume.py:36 `t.depth > 16` → `>= 16` (no test resumed from frames 16 deep:
the state file refused where the set-up's unrolling answers)."""

from __future__ import annotations

import json

import pytest

from checker.cli import main
from checker.solver.encode import Unsupported
from test_solver_survivors_examples import LOOP
from test_unroll_resume import _state, compare_from

ROOT_SPEC = "tests/fixtures/good/minimal_game.rules"


def _deep(tmp_path, levels: int, once: bool = False) -> str:
    """The market whose round calls `niveau_1(p)` for each player, each level calling the next, and the last
    (`niveau_<levels>`) letting the player choose a lot of the stall and take it (no action: no body of its own).
    With ``once``, no rounds: each player's call once, so that after the second player's choice nothing calls
    the levels again (only the state file's frames are that deep)."""
    text = open(ROOT_SPEC, encoding="utf-8").read()
    assert LOOP in text
    text = text.replace(LOOP, "    for p in players { call niveau_1(p) }")
    if once:
        start, end = text.index("  repeat {"), text.index("  log \"Gagnants")
        text = text[:start] + "  for p in players { call niveau_1(p) }\n" + text[end:]
    for i in range(1, levels):
        text += f"\nprocedure niveau_{i}(p: Player) {{ call niveau_{i + 1}(p) }}\n"
    text += f"\nprocedure niveau_{levels}(p: Player) {{\n  choose l in étal by p\n  move l to panier[p]\n}}\n"
    path = tmp_path / f"profond_{levels}.rules"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_frames_sixteen_deep_are_resumed_as_the_set_up_unrolls_them(tmp_path, capsys):
    spec = _deep(tmp_path, 15)
    engine, scopes, data = _state(spec, "Standard", 2, 3, 2)
    assert len(data["resume"]["frames"]) == 16
    compare_from(engine, scopes, data, 4, 7)          # the interpreter's state, reached by the encoding
    # from the set-up, the same nesting is encoded (a path found, replayed by the interpreter)
    assert main(["reach", spec, "count(l in panier[Joueur 1]) >= 1", "--within", "2", "-n", "2", "-s", "3"]) == 0
    out = capsys.readouterr().out
    assert "confirmed by the interpreter" in out and "nested" not in out
    # and from the state file, by the command
    state = tmp_path / "state.json"
    state.write_text(json.dumps(data), encoding="utf-8")
    assert main(["reach", spec, "count(l in panier[Joueur 1]) >= 1", "--within", "2", "--from", str(state)]) == 0
    out = capsys.readouterr().out
    assert "confirmed by the interpreter" in out and "nested" not in out


@pytest.mark.parametrize("levels,refused", [(15, False), (16, True)])
def test_the_last_decision_of_a_game_called_once_is_refused_at_seventeen_frames(tmp_path, levels, refused):
    """The second player's choice, the game's last decision: after it nothing is called, so the frames' own
    depth alone decides — 16 resumed, 17 refused (the set-up's unrolling refuses the same nesting)."""
    spec = _deep(tmp_path, levels, once=True)
    engine, scopes, data = _state(spec, "Standard", 2, 3, 2)
    assert len(data["resume"]["frames"]) == levels + 1
    if refused:
        with pytest.raises(Unsupported, match="nested more than 16 deep"):
            compare_from(engine, scopes, data, 4, 7)
    else:
        compare_from(engine, scopes, data, 4, 7)
