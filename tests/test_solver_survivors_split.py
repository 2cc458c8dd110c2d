"""`rulebook reach --split D` (checker/reach/split.py, checker/solver/unroll.py's pinned `choose`): each branch takes
its answers to the first decisions as known, and a path found in a branch is the branch's own answers, which the
interpreter replays.  On a tiny game whose first decision is a plain `choose` (the first player takes one of three
lots), the lot the condition asks for is reached by the branch that picks it, and the decision reported is that
pick.  Survivor of the blind mutation sample -j: unroll.py:389 `c.value == value` → `!=` (the branch's model
answered another lot than its pin: the path the interpreter replayed did not meet the condition), which
tests/test_reach.py's split search did not tell apart (there any character met its condition)."""

from __future__ import annotations

import json

import pytest

from checker.cli import main

GAME = """\
game "Choix" { players: 2..2  flow: partie }

kind Lot { prix: Int in 1..3  start: étal }
zone étal: pile of Lot public
zone panier[Player]: set of Lot public

card Lot "Un" { prix: 1 }
card Lot "Deux" { prix: 2 }
card Lot "Trois" { prix: 3 }

procedure partie() {
  for p in players {
    choose l in étal by p
    move l to panier[p]
  }
}

configuration "Tout" { include Lot: "Un", "Deux", "Trois" }
"""


@pytest.mark.parametrize("price, lot", [(1, "Un"), (3, "Trois")])
def test_a_split_branch_reaches_the_condition_with_its_own_answer_which_the_interpreter_replays(
        tmp_path, capsys, price, lot):
    spec = tmp_path / "choix.rules"
    spec.write_text(GAME, encoding="utf-8")
    condition = f"any(l in panier[Joueur 1] where l.prix == {price})"
    code = main(["reach", str(spec), condition, "--within", "1", "--split", "1", "-n", "2", "-s", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["status"], out["confirmed"], out["branches"]) == (0, "reached", True, 3), out
    assert [(d["player"], d["answer"]) for d in out["decisions"]] == [("Joueur 1", lot)], out["decisions"]
    # the second player's pick is beyond one decision: proved unreachable in every branch
    condition = f"any(l in panier[Joueur 2] where l.prix == {price})"
    code = main(["reach", str(spec), condition, "--within", "1", "--split", "1", "-n", "2", "-s", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["status"], out["branches"]) == (1, "proved", 3), out
