"""A state file at an `each … chooses` decision whose statement reads a local name of the procedure around it
(checker/solver/eachpoint.py's `asked`, which runs the statement on the loaded state to check the choices made):
`each q in players chooses x in 0..3 where x <= bourse[p] into mise[q]`, `p` the procedure's parameter.  The file
written at Joueur 2's pick reads back, with Joueur 1's choice.  Survivor of the blind mutation sample 9171 against
the whole suite: eachpoint.py:36 `k != site.player` → `==` (the statement run with its own player's name only:
`p` unknown, and the file refused), which the suite's auction (whose `each` reads no other name) did not see."""

from __future__ import annotations

from checker.front import ast
from checker.front.check import check_paths
from checker.runtime import Engine, RandomAgent
from checker.solver.scopes import Scopes
from checker.solver.statefile import dump_state, load_state

GAME = """\
game "Mises" { players: 2..3  flow: partie }
counter banque unlimited
counter bourse[Player] public
var mise[Player]: Int = 0 public
procedure partie() {
  for p in players { transfer 2 from banque to bourse[p] }
  for p in players { call miser(p) }
}
procedure miser(p: Player) {
  each q in players chooses x in 0..3 where x <= bourse[p] into mise[q]
}
"""


class _At(Exception):
    pass


def test_an_each_decision_reading_the_procedures_names_reads_back_from_its_state_file(tmp_path):
    spec = tmp_path / "mises.rules"
    spec.write_text(GAME, encoding="utf-8")
    result = check_paths([spec])
    assert result.ok, [d.message for d in result.reporter.errors]
    scopes = Scopes(result.typed)
    e = Engine(result.typed)
    e.recording = False
    states = []

    def observe(decision):
        if isinstance(decision.site, ast.ChooseEach) and decision.chosen:
            states.append(dump_state(e, decision, scopes, [str(spec)]))
            raise _At
    e.observer = observe
    try:
        e.play({}, 2, 1, [RandomAgent(1), RandomAgent(2)])
    except _At:
        pass
    [state] = states
    assert state["decision"]["names"] == {"p": "Joueur 1", "q": "Joueur 2"}
    other = Engine(result.typed)
    other.recording = False
    point = load_state(other, state, scopes).point
    assert (point.kind, point.player, [p for p, _ in point.chosen]) == ("each", 1, [0])
