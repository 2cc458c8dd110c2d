"""Survivors of the blind runtime sample s21 (seed 5169) in checker/runtime/aim_plan.py, the aiming player's planner.

42 of its 66 sampled mutants survived there, most in statements that tests/test_agents_plan.py and
tests/test_aim_memo.py run but bench/mutation.py's runtime set does not include.  These tests drive the planner
on the same « Chantier » specs (tests/test_agents_plan.py) and on the bundled Carcassonne, and assert what a player
sees: the plan (the sub-goals, their depths and where they are), their measures and yields during a game, and the
moves of the aiming players."""

from __future__ import annotations

import pytest

import test_agents_plan as plan
from checker.front.configurations import select
from checker.runtime import aim_plan
from checker.runtime.agents import GreedyAgent
from checker.runtime.aim import endings, engine_subgoals, subgoal_penalty, subgoals
from checker.runtime.engine import Engine
from checker.runtime.players import make_agent
from conftest import at_first_decision, engine_of
from conftest import checked_once


def test_the_counted_towers_plan_goes_from_the_reset_to_the_statement_that_sets_the_condition_true(tmp_path):
    """« Chantier compté »: `maçonner` sets `prêt = false`, calls `compter()`, then tests `prêt`.  Followed down
    from the reset, the step is `compter`'s `set prêt = true` (depth 2), and the stones it counts are cut by
    `tailler` (depth 3); the reset itself (`set prêt = false`) does not make `prêt` true and is no step."""
    engine = plan._engine(tmp_path, plan.COUNTED)
    [tower, _] = endings(engine.program, engine.flow)
    goals = subgoals(engine.program, engine.flow, tower)
    assert [(g.depth, g.where, len(g.chains)) for g in goals] == [
        (1, "vérifier", 1), (1, "maçonner", 1), (2, "compter", 1), (3, "tailler", 1)]


def test_carcassonnes_last_rampart_has_this_whole_plan():
    """Every sub-goal of Carcassonne's last rampart, in order: its depth, its body, its chains, the loops that count
    its yield, and whether it has a parent (the depth-3 steps do); the ones compiled, with the conditions each chain
    measures.  Nothing beyond depth 3."""
    result = checked_once(("spec/carcassonne",))
    engine = Engine(result.typed)
    [ending] = [e for e in endings(engine.program, engine.flow) if e.name == "dernier_rempart_posé"]
    goals = subgoals(engine.program, engine.flow, ending)
    assert [(g.depth, g.where, len(g.chains), len(g.runs), g.parent is not None) for g in goals] == [
        (1, "vérifier_la_fin", 1, 0, False), (1, "bâtir", 1, 0, False), (2, "poser", 1, 1, False),
        (2, "évaluer", 1, 1, False), (2, "distribuer_les_remparts", 2, 1, False),
        (3, "poser_la_porte", 1, 1, True), (3, "placer", 1, 1, True), (3, "tirer", 1, 1, True)]
    compiled = engine_subgoals(engine, "dernier_rempart_posé")
    assert [(d, [c.kept for c in chains], [[op[0] for op in c.ops] for c in chains]) for d, chains in compiled] == [
        (1, [1], [["bind", "guard", "bind"]]),
        (1, [3], [["bind", "guard", "bind", "loop", "loop", "guard", "guard", "bind", "loop", "bind", "bind"]]),
        (2, [2], [["bind", "bind", "loop", "guard", "guard", "bind", "bind", "guard"]]),
        (2, [1, 2], [["bind", "guard", "bind", "bind", "loop"], ["bind", "guard", "bind", "bind", "loop", "loop",
                                                                    "guard"]]),
        (3, [4], [["bind", "guard", "bind", "loop", "loop", "guard", "guard", "guard", "bind", "loop", "bind",
                   "bind"]]),
        (3, [1], [["bind", "loop", "bind", "bind", "guard"]]),
        (3, [1], [["bind", "loop", "guard"]])]


@pytest.mark.parametrize("players", [2, 4])
def test_carcassonnes_sub_goals_measured_during_a_game(players):
    """A seeded game of random players: at each of its first 30 decisions, each sub-goal's yield (how many ramparts
    one run of it brings: a construction phase gives each player one in the first pile, so the players' number),
    each chain's distance, and the penalty the aiming player would add."""
    result = checked_once(("spec/carcassonne",))
    engine = Engine(result.typed)
    engine.recording = False
    program = result.program
    selection = select(program, next(iter(program.configurations.values())), players)
    goals, counts = aim_plan._compiled(engine, "dernier_rempart_posé")
    seen = []

    def watch(decision):
        if len(seen) < 30 and engine.st.vars["fin"] is None:
            p = decision.player
            seen.append((p, [[c.runs(p) for c in ys] for ys, _ in counts],
                         [[c.measure(p) for c in chains] for _, chains in goals],
                         round(subgoal_penalty(engine, "dernier_rempart_posé", p), 3)))

    engine.observer = watch
    engine.play(selection.cards, players, 0, [make_agent("random", s) for s in range(players)])
    assert len(seen) == 30
    n = players
    assert all(yields == [[], [], [n], [1], [n], [n], [1]] for _, yields, _, _ in seen), seen[0]
    assert [(p, measures, penalty) for p, _, measures, penalty in seen[::3]] == EXPECTED[players]


EXPECTED = {
    2: [(1, [[1], [1], [13], [1, 1], [1], [0], [0]], 16.167), (0, [[1], [1], [3], [1, 1], [1], [0], [0]], 6.167),
        (1, [[1], [1], [2], [1, 1], [1], [0], [0]], 5.167), (0, [[1], [1], [1], [1, 1], [1], [0], [1]], 4.5),
        (0, [[1], [1], [3], [1, 1], [1], [0], [0]], 6.167), (1, [[1], [1], [1], [1, 1], [1], [0], [0]], 4.167),
        (0, [[1], [1], [2], [1, 1], [1], [0], [0]], 5.167), (1, [[1], [1], [2], [1, 1], [1], [0], [1]], 5.5),
        (1, [[1], [1], [3], [1, 1], [1], [0], [0]], 6.167), (0, [[1], [1], [3], [1, 1], [1], [0], [0]], 6.167)],
    4: [(2, [[1], [1], [13], [1, 1], [1], [0], [0]], 29.833), (3, [[1], [1], [3], [1, 1], [1], [0], [0]], 9.833),
        (0, [[1], [1], [3], [1, 1], [1], [0], [1]], 10.167), (1, [[1], [1], [2], [1, 1], [1], [0], [1]], 8.167),
        (2, [[1], [1], [3], [1, 1], [1], [0], [1]], 10.167), (2, [[1], [1], [5], [1, 1], [1], [0], [0]], 13.833),
        (3, [[1], [1], [2], [1, 1], [1], [0], [0]], 7.833), (0, [[1], [1], [3], [1, 1], [1], [0], [0]], 9.833),
        (1, [[1], [1], [2], [1, 1], [1], [0], [1]], 8.167), (1, [[1], [1], [2], [1, 1], [1], [0], [0]], 7.833)],
}


def _worn(tmp_path, spelling: str):
    """« Chantier aux outils qui s'usent » (tests/test_agents_plan.py) with `sans_outil` spelled ``spelling``."""
    tools = plan.WORN.replace("rule sans_outil { forbid façonner(p) when outils[p] == 0 }",
                              "rule sans_outil { forbid façonner(p) when %s }" % spelling)
    return plan._engine(tmp_path, plan.COUNTED, tools + "quantity outils_de(p: Player): Int = outils[p]\n",
                        offer="    façonner(p)\n    vendre(p)\n")


def _penalties(engine, picks) -> list[float]:
    seen: list[float] = []

    class Probe:
        def choose(self, decision):
            seen.append(round(subgoal_penalty(engine, "tour_achevée", decision.player), 3))
            return picks(decision) % len(decision.options)

    engine.play({}, 2, 1, [Probe(), Probe()])
    return seen


def _sell_first():
    """Each player sells a tool at its first move, then cuts stones (`façonner`)."""
    sold: set = set()

    def pick(decision) -> int:
        if decision.options[0][0] != "action":
            return 0
        if decision.player not in sold:
            sold.add(decision.player)
            return 2
        return 1
    return pick


@pytest.mark.parametrize("spelling", ["outils[p] == 0", "outils[p] < 1", "outils[p] <= 0"])
def test_a_threshold_spelled_three_ways_counts_the_tools_still_needed_alike(tmp_path, spelling):
    """`outils[p] == 0`, `outils[p] < 1` and `outils[p] <= 0` forbid the same moves: the tools the tower still
    needs are counted the same (a `need` of as many tools as stones to cut), the penalties along a game are the
    same (a sale costs a tool of that count: 4/3 → 5/3), and the aiming players keep their tools and finish the tower in round 2."""
    engine = _worn(tmp_path, spelling)
    [(_, [chain])] = [(d, c) for d, c in engine_subgoals(engine, "tour_achevée") if d == 3]
    assert [op[0] for op in chain.ops] == ["bind", "need"]
    assert _penalties(engine, _sell_first()) == [1.333, 1.333, 1.667, 0.833], "each sells a tool, then cuts"
    aiming = [GreedyAgent(s, aim="tour_achevée", weight=4) for s in range(2)]
    assert plan._race(engine, aiming) == ("tour_achevée", 2, 2)


def test_a_threshold_read_through_a_quantity_is_measured_but_not_counted(tmp_path):
    """`forbid façonner(p) when outils_de(p) == 0` (a quantity, not a var): the planner counts only a var's
    threshold, so this prohibition is a plain condition, measured 0 or 1 (no `need`), and the aiming player, as on
    71cf182, sells its first tool and the game ends on the time.  A limit, written down: the quantity is not seen
    through."""
    engine = _worn(tmp_path, "outils_de(p) == 0")
    [(_, [chain])] = [(d, c) for d, c in engine_subgoals(engine, "tour_achevée") if d == 3]
    assert [op[0] for op in chain.ops] == ["bind", "guard"]
    aiming = [GreedyAgent(s, aim="tour_achevée", weight=4) for s in range(2)]
    assert plan._race(engine, aiming) == ("temps_écoulé", 0, 6)


def _trésor(tmp_path, edit=lambda text: text, extra: str = "") -> Engine:
    """« Trésor » (tests/test_runtime_survivors_aim_budget.py, the key at 200) edited by ``edit``."""
    from test_runtime_survivors_aim_budget import TRÉSOR
    return engine_of(tmp_path / "tresor.rules", edit(TRÉSOR.replace("CLÉ", "200")) + extra, recording=False)


def _first_penalty(engine, aim: str = "trouvé") -> float:
    return at_first_decision(engine, lambda p: subgoal_penalty(engine, aim, p))


def test_a_chain_whose_loop_runs_over_nothing_is_one_more_than_its_conditions(tmp_path):
    """The chests are searched `for x in 1..least(coffres, 300)` with `coffres` 0: the loop has no value, so the key's
    condition under it cannot hold now; the sub-goal is 1 (the empty loop) + 1 (the condition after it) = 2 away.
    With 300 chests it is 0 away (the key, 200, is among them)."""
    def chests(n):
        return lambda text: text.replace("for x in 1..300", "for x in 1..least(coffres, 300)").replace(
            "var clé: Int", f"var coffres: Int = {n}\nvar clé: Int")
    assert _first_penalty(_trésor(tmp_path, chests(0))) == 2
    assert _first_penalty(_trésor(tmp_path, chests(300))) == 0


def test_a_condition_on_a_let_of_a_body_the_rounds_call_is_left_out(tmp_path):
    """« Chantier » (tests/test_agents_plan.py) with the masons' threshold a local: `maçonner` (called by the rounds:
    the top of its chains) raises a storey `if pierres >= seuil`, `let seuil = 2`.  The chain cannot know
    `seuil`, so that condition is not measured: no sub-goal measures anything, and the aiming player, with only the
    tower's distance to go by, picks points as the greedy one does (the game ends on the time)."""
    masons = plan.DIRECT.replace("  if pierres >= 2 {", "  let seuil = 2\n  if pierres >= seuil {")
    engine = plan._engine(tmp_path, masons)
    assert engine_subgoals(engine, "tour_achevée") == []
    aiming = [GreedyAgent(s, aim="tour_achevée", weight=2) for s in range(2)]
    assert plan._race(engine, aiming) == ("temps_écoulé", 0, 6)


def test_a_transfer_between_other_vars_is_no_step_towards_the_ending(tmp_path):
    """A `transfer` from `banque` to `bourse[p]` changes neither `trésor` nor anything the ending reads: the plan
    is the ending's body and the chests' search only."""
    engine = _trésor(tmp_path, lambda text: text.replace("    cueillir(p)\n", "    cueillir(p)\n    payer(p)\n"), """
counter banque unlimited public "La banque."
counter bourse[Player] public "La bourse d'un joueur."
action payer(p: Player) "Se payer à la banque." {
  transfer 1 from banque to bourse[p]
  set joué = true
}
rule une_paie { forbid payer(p) when joué }
""")
    [ending] = endings(engine.program, engine.flow)
    assert [(g.depth, g.where) for g in subgoals(engine.program, engine.flow, ending)] == [
        (1, "vérifier"), (1, "fouiller")]


def test_a_statement_seven_calls_below_the_rounds_is_chained_up_six(tmp_path):
    """The key is set seven calls below the rounds (`vérifier` → `étage1` → … → `étage7`) and only from round 2
    on (`if numéro >= 2`, in `vérifier`).  Callers are followed up 6 bodies (`_UP`): the chain starts in
    `étage1`, the round's condition is not on it, and the sub-goal measures nothing; a chain one body longer
    would measure `numéro >= 2` (1 away in round 1)."""
    calls = "".join(f"procedure étage{i}() {{\n  call étage{i + 1}()\n}}\n" for i in range(1, 7))
    engine = _trésor(tmp_path, lambda text: text.replace(
        "procedure vérifier() {\n", "procedure vérifier() {\n  if numéro >= 2 {\n    call étage1()\n  }\n"),
        calls + "procedure étage7() {\n  set trésor = 1\n}\n")
    [ending] = endings(engine.program, engine.flow)
    goals = subgoals(engine.program, engine.flow, ending)
    [étage] = [g for g in goals if g.where == "étage7"]
    assert [step[3] for step in étage.chains[0] if step[0] == "top"] == ["étage1"]
    assert not any(step[0] == "guard" for step in étage.chains[0])


def test_a_step_reached_again_through_a_loop_counts_the_loop(tmp_path):
    """« Chantier compté » whose masons, once `prêt`, raise a storey, then one more for each player while the
    tower is 1 high (`for q in players { if hauteur == 1 { … } }`): both storeys' statements are tested after the
    same reset of `prêt`, so `compter`'s `set prêt = true` is reached from each, the same step at depth 2.  Reached
    the second time through the players' loop, its yield is counted through that loop (and so is `tailler`'s below
    it): at 2 players, 2 storeys a run; the penalty at the start is 3."""
    masons = plan.COUNTED.replace("""  if prêt {
    set hauteur = hauteur + 1
    set pierres = 0
  }""", """  if prêt {
    set hauteur = hauteur + 1
    for q in players {
      if hauteur == 1 {
        set hauteur = hauteur + 1
      }
    }
    set pierres = 0
  }""")
    engine = plan._engine(tmp_path, masons)
    [tower, _] = endings(engine.program, engine.flow)
    goals = subgoals(engine.program, engine.flow, tower)
    assert [(g.depth, g.where, [step[1] for chain, k in g.runs for step in chain[k + 1:]
                                if step[0] == "loop" and len(step) == 3]) for g in goals] == [
        (1, "vérifier", []), (1, "maçonner", []), (1, "maçonner", []), (2, "compter", ["q"]), (3, "tailler", ["q"])]
    seen: list = []

    class Probe:
        def choose(self, decision):
            seen.append(subgoal_penalty(engine, "tour_achevée", decision.player))
            return 0

    engine.play({}, 2, 1, [Probe(), Probe()])
    assert seen[0] == 3


def test_a_condition_reset_by_a_reset_statement_is_computed_like_one_set_to_a_constant(tmp_path):
    """« Chantier compté » with `reset prêt` (back to its default, false) instead of `set prêt = false`: `prêt` is
    still stale when tested, so the plan goes through `compter` (depth 2) to `tailler` (depth 3), the same plan."""
    plain = plan._engine(tmp_path, plan.COUNTED)
    reset = plan._engine(tmp_path, plan.COUNTED.replace("  set prêt = false\n", "  reset prêt\n"))
    plans = []
    for engine in (plain, reset):
        [tower, _] = endings(engine.program, engine.flow)
        plans.append([(g.depth, g.where) for g in subgoals(engine.program, engine.flow, tower)])
    assert plans[1] == plans[0] == [(1, "vérifier"), (1, "maçonner"), (2, "compter"), (3, "tailler")]
