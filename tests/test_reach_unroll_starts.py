"""The cut unrolling's question "can a path start this turn?" (checker/solver/unroll_cone.py `Coned.starts`), asked
with fewer steps than the unrolling's other questions (START_RLIMIT): on the 4th edition's two rounds each of the
64 turns' questions ended unknown at the full million steps (a turn a path starts needs a model of the whole
unrolling), 40 s of CPU.  What the cut must keep: an unknown is a yes (the turn is encoded, never left out), a turn
that no path starts is still left out where Z3 shows it by propagation, and the lowered limit is the question's
alone (the next questions get the solver's whole limit again).

The fixture: the market, each player's moves of a round a call of the game's turn procedure, called a second time
where the player's basket holds 4 lots — of 3 in the game: never.  Over two rounds, 4 turns that paths start and 4
that none starts (2 of them asked: the first round's second call for the first player folds, his basket empty)."""

from __future__ import annotations

import json

import pytest
import z3

from checker.cli import main
from checker.front.check import check_paths
from checker.solver import unroll_cone
from checker.solver.encode import Encoder
from checker.solver.unroll_cone import Coned
from conftest import ROOT
from test_solver_survivors_examples import LOOP, TURN
from test_unroll import started

KEPT = {"bourse", "étal", "tours_joués", "réserve", "panier"}


def _spec(tmp_path):
    text = (ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules").read_text(encoding="utf-8")
    assert LOOP in text
    text = text.replace(LOOP, '''    for p in players {
      call tour(p)
      if count(l in panier[p]) >= 4 { call tour(p) }
    }''')
    text = text.replace("  flow: partie\n", "  flow: partie\n  turn: tour\n", 1) + TURN
    path = tmp_path / "tours.rules"
    path.write_text(text, encoding="utf-8")
    return path


def _unrolled(tmp_path):
    """The two rounds unrolled from the set-up; the answers of `starts` on the way (a constant guard included):
    each round's, then each turn's of that round."""
    e = started(check_paths([_spec(tmp_path)]), 2, 1)
    t = Coned(Encoder(e, concrete=True), KEPT, 2, 4)
    answers = []
    ask = t.starts

    def noting(guard):
        answers.append(ask(guard))
        return answers[-1]
    t.starts = noting
    t.procedure(e.flow, ())
    return t, answers


def test_a_turn_no_path_starts_is_left_out_and_the_others_followed(tmp_path):
    """The 4 turns paths start are encoded (4 offers); the second calls, whose guard no path meets, are not.  A
    cut that no longer asked (every turn followed) encodes 8 offers; one that took an unknown for a no, fewer."""
    t, answers = _unrolled(tmp_path)
    assert answers == ([True] + [True, False] * 2) * 2
    assert t.offers == 4


def test_a_turn_whose_start_z3_does_not_decide_is_followed(tmp_path, monkeypatch):
    """With a limit of one step every start ends unknown: every turn is encoded, the 4 that no path starts too
    (more encoded, nothing left out)."""
    monkeypatch.setattr(unroll_cone, "START_RLIMIT", 1)
    t, answers = _unrolled(tmp_path)
    assert answers == [True] * 10 and t.offers == 8


@pytest.mark.parametrize("limit", [None, 1])
def test_the_answer_is_the_same_whatever_the_start_questions_decide(tmp_path, capsys, monkeypatch, limit):
    """A lot in the second player's basket is within one round: the over-approximation has a path, undecided (the
    rounds search never says reached).  With the starts left unknown, the same answer — taking their unknown for a
    no leaves his turn out (its guard is not a constant, after the first player's moves), and no path of his buys:
    a false « proved » (measured with `== z3.sat` for `!= z3.unsat` in the lowered question)."""
    if limit is not None:
        monkeypatch.setattr(unroll_cone, "START_RLIMIT", limit)
    code = main(["reach", str(_spec(tmp_path)), "count(l in panier[Joueur 2]) >= 1", "--rounds", "1", "-n", "2",
                 "-s", "1", "--keep", ",".join(sorted(KEPT - {"panier"})), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["status"]) == (4, "undecided") and "over-approximation has a path" in out["reason"], out


def test_a_lowered_question_leaves_the_solver_its_whole_limit(tmp_path):
    """`feasible(cond, rlimit)`: the question asked with fewer steps is unknown (a yes); the same question asked next
    without a limit of its own has the solver's whole limit again, and is proven unsatisfiable."""
    t, _ = _unrolled(tmp_path)
    count = sum(z3.If(z3.Bool(f"x{i}"), 1, 0) for i in range(3))
    dead = z3.And(count >= 2, z3.Or(*[z3.And(z3.Bool(f"x{i}"), count <= 1) for i in range(3)]))
    asked = t.questions
    assert t.feasible(dead, 1) is True
    assert t.feasible(dead) is False
    assert t.questions == asked + 2
