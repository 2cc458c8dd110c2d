"""A narrowed question about an action (checker/solver/narrowed.py): the state found on the centre cell settles
it only once the interpreter, on the witness loaded, finds the rule applying to the move — a prohibition among
the rules that forbid it (or a permission among those that permit it), not both at once.  Carcassonne's
`partie_déjà_occupée` (too large over the whole window: tests/test_solver_narrowed.py) is found on the centre
cell and replayed.  Survivor of the blind mutation sample 9171 against the whole suite: narrowed.py:73
`rule in got[0] or rule in got[1]` → `and` (every state found said not to agree with the interpreter: the
question left undecided), which no test executed — the suite replayed the witness by hand, not through
`narrowed`."""

from __future__ import annotations

from checker.solver.narrowed import narrowed
from test_solver_narrowed import _carcassonne, _question


def test_a_narrowed_question_about_an_action_is_settled_by_the_state_the_interpreter_replays():
    search = _carcassonne()
    rule = "partie_déjà_occupée"
    assert narrowed(search, _question(search, rule), rule, "placer") == (True, "")
