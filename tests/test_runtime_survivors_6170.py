"""Survivors of the blind runtime sample of h170 (seed 6170, bench/results/mutation-2026-11-29-h170-runtime-6170.txt)
outside the aiming player's planner (answers: bench/results/mutation-2026-11-29-h174-answers.txt): the aiming
greedy player's default weight and its value of « (rien) », an invariant asking `can` broken where nothing it is
known to read changed, `eval` of an optional truth that is none.  (A swap out of a pile and back, and a frame one
step past its block's end: tests/test_runtime_survivors_state.py and test_runtime_survivors_frames.py.)"""

from __future__ import annotations

import pytest

import test_agents_plan as plan
import test_invariants_incremental as incremental
from checker.runtime import RandomAgent
from checker.runtime.agents import GreedyAgent, option_values
from checker.runtime.players import make_agent
from checker.runtime.state import SpecRuntimeError


def test_an_aiming_greedy_player_without_a_weight_weighs_its_aim_once(tmp_path):
    """`greedy:aim=tour_achevée` (no weight) on « Chantier » (tests/test_agents_plan.py): the aim's progress counts
    once, as `weight=1`: a stone's progress only ties with a point, and the tower is finished in round 4;
    `weight=2` finishes it in round 2."""
    engine = plan._engine(tmp_path, plan.DIRECT)
    assert plan._race(engine, [make_agent("greedy:aim=tour_achevée", s) for s in range(2)]) == ("tour_achevée", 2, 4)
    assert plan._race(engine, [GreedyAgent(s, aim="tour_achevée", weight=1) for s in range(2)]) == (
        "tour_achevée", 2, 4)
    assert plan._race(engine, [GreedyAgent(s, aim="tour_achevée", weight=2) for s in range(2)]) == (
        "tour_achevée", 2, 2)


def test_an_aiming_greedy_player_values_nothing_once_at_an_optional_choice(tmp_path):
    """« Chantier » whose masons first ask each player a number they may decline (`optionally`): the aiming
    player's values are one per option and one for « (rien) », each the position as it is, and its pick is among
    the three; the tower is finished."""
    asking = "procedure maçonner() {\n  for q in players {\n    choose n in 1..2 by q optionally\n  }\n"
    engine = plan._engine(tmp_path, plan.DIRECT.replace("procedure maçonner() {\n", asking))
    seen: list = []

    class Aiming(GreedyAgent):
        def choose(self, decision):
            if decision.optional and len(seen) < 4:
                seen.append((len(decision.options), option_values(decision, "tour_achevée", 2)))
            index = super().choose(decision)
            assert 0 <= index < len(decision.options) + decision.optional
            return index

    assert plan._race(engine, [Aiming(s, aim="tour_achevée", weight=2) for s in range(2)])[0] == "tour_achevée"
    assert seen and all(n == 2 and len(values) == 3 and len(set(values)) == 1 for n, values in seen), seen


def test_an_invariant_asking_can_is_caught_broken_where_nothing_watched_changed(tmp_path):
    """An invariant that asks `can` (its reads cannot be known: tested before every decision) and reads a var no
    other invariant reads (`bruit`: its write does not make the invariants due): set to 1 between two choices,
    the game stops before the second with the invariant named."""
    e = incremental.engine(tmp_path, """action jouer(c: Carte) { move c to défausse }
rule jamais { forbid jouer(c) when c.force > 0 }
invariant calme { require can jouer("A") or bruit == 0 }
procedure partie() {
  for p in players {
    choose c in pioche by p
    set bruit = 1
    choose d in pioche by p
  }
}""")
    assert e.watch.unknown == {"calme"} and [inv.name for inv, _, _ in e.watch.always] == ["calme"]
    with pytest.raises(SpecRuntimeError, match="broke the invariant calme"):
        e.play({"Carte": ["A", "B", "C", "D"]}, 2, 0, [RandomAgent(1), RandomAgent(2)])
    assert e.decisions == 2


def test_eval_of_an_optional_truth_that_is_none_prints_aucun(tmp_path, capsys):
    """`rulebook eval` of a `Bool?` whose value is none (`if numéro > 5 then any(…) else none`, in round 1)
    prints « aucun », not « non »: the value, not its truth; where it is a truth, « non » (nobody has points)."""
    from conftest import run_cli
    spec = tmp_path / "chantier.rules"
    spec.write_text(plan.CHANTIER.replace("MAÇONNER", plan.DIRECT), encoding="utf-8")
    state = tmp_path / "état.json"
    code, _, err = run_cli(capsys, "play", str(spec), "-n", "2", "-s", "1", "-q", "--state-at", "1", str(state))
    assert code == 0, err
    for bound, shown in ((5, "aucun"), (0, "non")):
        code, out, err = run_cli(capsys, "eval", str(state),
                                 f"if numéro > {bound} then any(q in players where points[q] > 0) else none")
        assert (code, out.strip()) == (0, shown), err
