"""A state file refused, with the problem located and worded (checker/solver/statefile.py, eachpoint.py): the
spec's invariants that cannot be evaluated on the state read, and a choice made before an `each … chooses`
decision that is not one of the options, listed up to twelve.  Lines of the blind solver sample -m (seed 9494,
statefile.py:396 `+` → `-`, eachpoint.py:108 `> 12` → `>= 12`) that no test of the solver set executed (the sample
was stopped before its mutants ran: the partial coverage map credited no test with them)."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli

SHARES = """\
game "Parts" { players: 2..3  flow: partie }

kind Jeton { valeur: Int in 1..1  start: sac }
zone sac: pile of Jeton public
counter réserve unlimited
counter bourse[Player] public
var mise[Player]: Int = 2

invariant une_part {
  require all(p in players: 6 / mise[p] >= 1)
  message "Une mise partage six."
}

action payer(p: Player) "Payer." { transfer up to 1 from bourse[p] to réserve }

card Jeton "Un" { valeur: 1 }

procedure partie() {
  for p in players { transfer 1 from réserve to bourse[p] }
  for p in players { set mise[p] = 1 }
  for p in players { offer p { payer(p)  finish "Passer" } }
}

configuration "Tout" { include Jeton: "Un" }
"""

STAKES = """\
game "Mises" { players: 2..3  flow: partie }

kind Jeton { valeur: Int in 1..1  start: sac }
zone sac: pile of Jeton public
var mise[Player]: Int = 0
var plafond: Int = 12

card Jeton "Un" { valeur: 1 }

procedure partie() {
  each p in players chooses m in 1..13 where m <= plafond into mise[p]
}

configuration "Tout" { include Jeton: "Un" }
"""


def _state_at(capsys, tmp_path, game: str, decision: int) -> dict:
    spec = tmp_path / "jeu.rules"
    spec.write_text(game, encoding="utf-8")
    state = tmp_path / "etat.json"
    code, _, err = run_cli(capsys, "play", str(spec), "-n", "2", "-s", "1", "-q", "--state-at", str(decision),
                           str(state))
    assert code == 0, err
    return json.loads(state.read_text(encoding="utf-8"))


def _moves(capsys, tmp_path, data: dict) -> tuple[int, str]:
    path = tmp_path / "changé.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, _, err = run_cli(capsys, "moves", str(path))
    return code, err


def test_invariants_that_cannot_be_evaluated_on_a_state_are_a_located_problem_of_the_file(capsys, tmp_path):
    """A stake of 0 makes the invariant divide by zero: the file is refused (exit 2), the runtime's message and
    the invariant's place in one line, no traceback; with a stake of 1 the same file is read."""
    data = _state_at(capsys, tmp_path, SHARES, 1)
    assert data["vars"]["mise"] == {"Joueur 1": 1, "Joueur 2": 1}
    code, err = _moves(capsys, tmp_path, data)
    assert code == 0, err
    data["vars"]["mise"]["Joueur 1"] = 0
    code, err = _moves(capsys, tmp_path, data)
    assert code == 2
    assert ("(the file): the spec's invariants cannot be evaluated on this state: division by zero "
            f"({tmp_path / 'jeu.rules'}:10:29)") in err, err


@pytest.mark.parametrize("ceiling,shown", [(12, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)"),
                                           (13, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, …)")])
def test_a_choice_made_before_that_is_no_option_lists_twelve_options_and_marks_more(capsys, tmp_path, ceiling,
                                                                                     shown):
    """At Joueur 2's stake, Joueur 1's recorded 14 is none of 1..plafond: the message lists the options, all
    twelve of twelve, the first twelve and `…` of thirteen."""
    data = _state_at(capsys, tmp_path, STAKES, 2)
    assert data["decision"]["kind"] == "each" and data["decision"]["player"] == "Joueur 2"
    data["vars"]["plafond"] = ceiling
    data["decision"]["chosen"][0]["value"] = 14
    code, err = _moves(capsys, tmp_path, data)
    assert code == 2
    assert ("decision/chosen/0/value: 14 is not a choice Joueur 1 can make here (the options: " + shown) in err, err
    assert err.count("…") == (ceiling > 12)
