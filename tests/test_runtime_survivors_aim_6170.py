"""Survivors of the blind runtime sample of h170 (seed 6170, bench/results/mutation-2026-11-29-h170-runtime-6170.txt)
in checker/runtime/aim_plan.py and aim_measure.py, the aiming player's planner and measure (answers:
bench/results/mutation-2026-11-29-h174-answers.txt).  Each test drives them on « Chantier » or « Trésor »
(tests/test_agents_plan.py, tests/test_runtime_survivors_aim_budget.py) edited to hold what a mutant missed, and
asserts what a player sees: the plan (the sub-goals, their depths and where they are), the conditions a chain
measures, the distances and penalties at the start, the aiming players' race."""

from __future__ import annotations

import pytest

import test_agents_plan as plan
from checker.runtime.agents import GreedyAgent
from checker.runtime.aim import distances, endings, engine_subgoals, subgoals
from checker.runtime.aim_measure import _Reads
from conftest import at_first_decision, engine_of
from test_runtime_survivors_aim_plan import _trésor


def _plan(engine) -> list[tuple[int, str]]:
    [tower] = [e for e in endings(engine.program, engine.flow) if e.name == "tour_achevée"]
    return [(g.depth, g.where) for g in subgoals(engine.program, engine.flow, tower)]


# ---- the prohibitions chained back (aim_plan.rules, _spends, _counted)

def test_a_prohibition_whose_pattern_names_the_player_otherwise_is_still_chained(tmp_path):
    """« Chantier aux outils qui s'usent » (tests/test_agents_plan.py) with its tool's prohibition written
    `forbid façonner(q) when outils[q] == 0` (the pattern's own name for the player): the same rule, aliased to the
    action's `p` — counted as a `need`, and the aiming players keep their tools and finish the tower in round 2."""
    worn = plan.WORN.replace("rule sans_outil { forbid façonner(p) when outils[p] == 0 }",
                             "rule sans_outil { forbid façonner(q) when outils[q] == 0 }")
    engine = plan._engine(tmp_path, plan.COUNTED, worn, offer="    façonner(p)\n    vendre(p)\n")
    [(_, [chain])] = [(d, c) for d, c in engine_subgoals(engine, "tour_achevée") if d == 3]
    assert [op[0] for op in chain.ops] == ["bind", "need"]
    aiming = [GreedyAgent(s, aim="tour_achevée", weight=4) for s in range(2)]
    assert plan._race(engine, aiming) == ("tour_achevée", 2, 2)


PARENT = """
var outils[Player]: Int = 1
var fourbu[Player]: Bool = false
action travailler(p: Player) "Travailler à la tour."
action tailler_outillé(p: Player) refines travailler "Tailler une pierre pour la tour, avec son outil." {
  set pierres = pierres + 1
  set joué = true
}
action vendre(p: Player) "Vendre son outil : trois points." {
  set outils[p] = outils[p] - 1
  set points[p] = points[p] + 3
  set joué = true
}
rule un_travail { forbid travailler(p) when joué }
rule une_vente { forbid vendre(p) when joué }
rule rien_à_vendre { forbid vendre(p) when outils[p] == 0 }
rule sans_outil { forbid travailler(p) when outils[p] == 0 }
"""


def test_a_prohibition_on_the_action_a_move_refines_is_chained_to_the_move(tmp_path):
    """« Chantier outillé » (tests/test_agents_plan.py) whose stone is cut by `tailler_outillé`, which refines
    `travailler`, and the tool's prohibition is on `travailler` (every rule about the parent applies to the
    refinement): chained back through the parent, keeping the tool is a step towards the tower (a condition
    measured 0 or 1: the stone spends no tool), the aiming players keep their tools and finish the tower in round 2."""
    engine = plan._engine(tmp_path, plan.COUNTED, PARENT, offer="    tailler_outillé(p)\n    vendre(p)\n")
    assert _plan(engine) == [(1, "vérifier"), (1, "maçonner"), (2, "compter"), (3, "tailler_outillé")]
    [(_, [chain])] = [(d, c) for d, c in engine_subgoals(engine, "tour_achevée") if d == 3]
    assert [op[0] for op in chain.ops] == ["bind", "guard"]
    aiming = [GreedyAgent(s, aim="tour_achevée", weight=4) for s in range(2)]
    assert plan._race(engine, aiming) == ("tour_achevée", 2, 2)
    assert all(engine.st.vars["outils"].get(p, 1) == 1 for p in range(2)), "no tool sold"


def test_a_threshold_on_the_action_a_move_refines_counts_what_the_move_spends(tmp_path):
    """« Chantier aux outils qui s'usent » (tests/test_agents_plan.py) whose stone is cut by `façonner`, which
    refines `travailler`, and the tool's prohibition is on `travailler` (`outils[p] == 0`): the move's body (the
    refinement's) uses a tool up, so the prohibition is counted (a `need`), as the same rule on `façonner` is; the
    aiming players keep their tools for the stones and finish the tower in round 2, every tool used.  On 0134a02
    the planner looked for the spending in `travailler`'s body (none): measured 0 or 1, the players sold their
    tools (10 points each) and the game ended on the time."""
    worn = plan.WORN.replace('action façonner(p: Player) "', 'action travailler(p: Player) "Travailler."\n'
                             'action façonner(p: Player) refines travailler "').replace(
        "rule sans_outil { forbid façonner(p) when outils[p] == 0 }",
        "rule sans_outil { forbid travailler(p) when outils[p] == 0 }")
    engine = plan._engine(tmp_path, plan.COUNTED, worn, offer="    façonner(p)\n    vendre(p)\n")
    [(_, [chain])] = [(d, c) for d, c in engine_subgoals(engine, "tour_achevée") if d == 3]
    assert [op[0] for op in chain.ops] == ["bind", "need"]
    aiming = [GreedyAgent(s, aim="tour_achevée", weight=4) for s in range(2)]
    assert plan._race(engine, aiming) == ("tour_achevée", 2, 2)
    assert [engine.st.vars["outils"].get(p, 2) for p in range(2)] == [0, 0], "every tool cut a stone"


def test_a_prohibition_that_is_a_players_flag_is_a_plain_condition(tmp_path):
    """The same with the prohibition `forbid travailler(p) when fourbu[p]` (a Bool of the player, no threshold):
    a step measured 0 or 1 at depth 3, 0 away at the start (nobody is worn out)."""
    flag = PARENT.replace("rule sans_outil { forbid travailler(p) when outils[p] == 0 }",
                          "rule sans_outil { forbid travailler(p) when fourbu[p] }")
    engine = plan._engine(tmp_path, plan.COUNTED, flag, offer="    tailler_outillé(p)\n    vendre(p)\n")
    [(_, [chain])] = [(d, c) for d, c in engine_subgoals(engine, "tour_achevée") if d == 3]
    assert [op[0] for op in chain.ops] == ["bind", "guard"]
    assert at_first_decision(engine, chain.measure) == 0


def test_a_threshold_on_a_var_the_move_does_not_take_from_is_measured_not_counted(tmp_path):
    """« Chantier outillé »: `forbid tailler(p) when outils[p] == 0`, but cutting a stone uses no tool (`vendre`
    does): the prohibition is a condition measured 0 or 1 (`guard`), not a count of tools (`need`)."""
    engine = plan._engine(tmp_path, plan.COUNTED, plan.TOOLS, offer="    tailler(p)\n    vendre(p)\n")
    [(_, [chain])] = [(d, c) for d, c in engine_subgoals(engine, "tour_achevée") if d == 3]
    assert [op[0] for op in chain.ops] == ["bind", "guard"]


def test_a_threshold_whose_var_cannot_be_read_now_is_one_away(tmp_path):
    """« Chantier aux outils qui s'usent » whose prohibition reads the tools of `only(q in players where q == p and
    q == actif)` (`actif`: the player whose turn it is): measured for the other player, `only` finds nobody (a
    spec error in a hypothetical), and the tools it needs are 1 away, not more; the player in turn has the 2 tools
    2 stones need: 0 away."""
    worn = plan.WORN.replace(
        "rule sans_outil { forbid façonner(p) when outils[p] == 0 }",
        "rule sans_outil { forbid façonner(p) when outils[only(q in players where q == p and q == actif)] == 0 }")
    engine = _engine_of(tmp_path, _chantier(plan.COUNTED, worn + "var actif: Player? = none\n",
                                            "    façonner(p)\n    vendre(p)\n").replace(
        "  set joué = false\n", "  set joué = false\n  set actif = p\n"))
    [(_, [chain])] = [(d, c) for d, c in engine_subgoals(engine, "tour_achevée") if d == 3]
    assert [op[0] for op in chain.ops] == ["bind", "need"]
    assert at_first_decision(engine, lambda p: (chain.measure(1 - p, 2), chain.measure(p, 2))) == (1, 0)


# ---- what changes what the ending reads (aim_plan._writes, down)

def test_a_transfer_into_the_counter_the_ending_reads_is_a_step(tmp_path):
    """« Trésor » whose ending reads a counter, `coffre >= 3`, filled by `déposer` (`transfer 1 from banque to
    coffre`): the transfer is a step towards the ending (depth 1, in `déposer`), as the chests' search is."""
    engine = _trésor(tmp_path, lambda text: text.replace("    cueillir(p)\n", "    cueillir(p)\n    déposer(p)\n")
                     .replace("if trésor >= 1 {", "if trésor >= 1 or coffre >= 3 {"), """
counter banque unlimited public "La banque."
counter coffre public "Le coffre commun."
action déposer(p: Player) "Déposer une pièce au coffre." {
  transfer 1 from banque to coffre
  set joué = true
}
rule un_dépôt { forbid déposer(p) when joué }
""")
    [ending] = endings(engine.program, engine.flow)
    assert [(g.depth, g.where) for g in subgoals(engine.program, engine.flow, ending)] == [
        (1, "vérifier"), (1, "déposer"), (1, "fouiller")]


def _counted_down(calls: int) -> str:
    """« Chantier compté » whose `set prêt = true` is ``calls`` calls below `maçonner` (`compter1` → …)."""
    chain = "".join(f"procedure compter{i}() {{\n  call compter{i + 1}()\n}}\n" for i in range(1, calls))
    return plan.COUNTED.replace("procedure compter() {", f"{chain}procedure compter{calls}() {{").replace(
        "  call compter()\n", "  call compter1()\n")


@pytest.mark.parametrize("calls, found", [(4, True), (6, True), (7, False)])
def test_what_computes_a_stale_condition_is_followed_down_six_calls(tmp_path, calls, found):
    """« Chantier compté » whose `prêt` is computed ``calls`` calls below `maçonner`: what computes it is followed
    down 6 calls (`_DOWN`): at 4 and 6 calls, `set prêt = true` is the depth-2 step (and `tailler` at depth 3); at
    7 it is not found, and the plan stops at the storey."""
    engine = plan._engine(tmp_path, _counted_down(calls))
    deeper = [(2, f"compter{calls}"), (3, "tailler")] if found else []
    assert _plan(engine) == [(1, "vérifier"), (1, "maçonner")] + deeper


def test_a_step_reached_again_through_conditions_only_keeps_the_loop_it_was_reached_through(tmp_path):
    """« Chantier compté » whose masons, once `prêt`, raise a storey, then one per player while the tower is 1 high
    (a loop under a condition), then one more under three conditions (no loop): `compter`'s step, reached from all
    three, is counted through the players' loop (2 storeys a run at 2 players), not replaced by the reach through
    more steps that are not loops."""
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
    if hauteur == 9 and numéro == 9 and pierres == 9 {
      set hauteur = hauteur + 1
    }
    set pierres = 0
  }""")
    engine = plan._engine(tmp_path, masons)
    [tower, _] = endings(engine.program, engine.flow)
    goals = subgoals(engine.program, engine.flow, tower)
    assert [(g.depth, g.where, [step[1] for chain, k in g.runs for step in chain[k + 1:]
                                if step[0] == "loop" and len(step) == 3]) for g in goals] == [
        (1, "vérifier", []), (1, "maçonner", []), (1, "maçonner", []), (1, "maçonner", []), (2, "compter", ["q"]),
        (3, "tailler", ["q"])]


@pytest.mark.parametrize("loops, measured", [(3, True), (4, False)])
def test_a_chain_through_more_than_three_loops_is_not_measured(tmp_path, loops, measured):
    """« Trésor » whose key is searched under ``loops`` nested loops (the chests' and single-valued ones around
    it): a chain is measured through 3 loops at most (`_LOOPS`); through 4 the sub-goal is left out and the
    penalty at the start is 0 (the key at 200: found within 1..300 either way)."""
    outer = [f"a{i}" for i in range(loops - 1)]
    head = "".join(f"  for {v} in 1..1 {{\n" for v in outer)
    engine = _trésor(tmp_path, lambda text: text.replace("  for x in 1..300 {\n", head + "  for x in 1..300 {\n")
                     .replace("  set joué = true\n}\naction cueillir", "  }" * len(outer) + "\n  set joué = true\n}\n"
                              "action cueillir"))
    compiled = engine_subgoals(engine, "trouvé")
    assert [[sum(op[0] == "loop" for op in c.ops) for c in chains] for _, chains in compiled] == (
        [[loops]] if measured else [])


# ---- the measure (aim_measure)

def test_a_negated_condition_is_measured_as_far_as_its_opposite(tmp_path):
    """« Chantier » whose tower is finished `if not (hauteur < 2)`: at the start it is 2 storeys away, as with
    `hauteur >= 2`, not 1 (a `not` is measured through, not as true or false)."""
    engine = plan._engine(tmp_path, plan.DIRECT)
    text = plan.CHANTIER.replace("if hauteur >= 2 {", "if not (hauteur < 2) {")
    negated = _engine_of(tmp_path, text.replace("MAÇONNER", plan.DIRECT))
    assert at_first_decision(engine, lambda p: distances(engine)["tour_achevée"]) == 2
    assert at_first_decision(negated, lambda p: distances(negated)["tour_achevée"]) == 2


def _chantier(masons: str, extra: str, offer: str) -> str:
    """tests/test_agents_plan.py's « Chantier » text, as its _engine makes it."""
    return plan.CHANTIER.replace("MAÇONNER", masons).replace("    tailler(p)\n", offer) + extra


def _engine_of(tmp_path, text: str):
    return engine_of(tmp_path / "variante.rules", text, recording=False)


def test_an_all_over_a_collection_the_state_cannot_give_is_one_away(tmp_path):
    """« Chantier » whose tower also needs `all(x in 1..(10 / diviseur): x > 0)`, `diviseur` 0 until the masons
    set it: at the start the range fails (a division by zero) and that condition is 1 away: the tower is 2 + 1."""
    text = plan.CHANTIER.replace("if hauteur >= 2 {", "if hauteur >= 2 and all(x in 1..(10 / diviseur): x > 0) {")
    text = text.replace("var hauteur: Int = 0", "var hauteur: Int = 0\nvar diviseur: Int = 0")
    engine = _engine_of(tmp_path, text.replace("MAÇONNER", plan.DIRECT.replace(
        "procedure maçonner() {\n", "procedure maçonner() {\n  set diviseur = 1\n")))
    assert at_first_decision(engine, lambda p: distances(engine)["tour_achevée"]) == 3


def test_a_comparison_with_an_optional_that_is_none_is_not_held(tmp_path):
    """« Chantier » whose tower ends the game when a height is noted and 2 or more (`notée != none and notée >= 2`,
    `notée: Int?`, none until a storey notes the height): at the start both conditions are 1 away (`notée >= 2`
    on none is not held: it was a TypeError, a traceback for an aiming player, on 0134a02); the aiming players
    cut stones and the tower is finished in round 2."""
    text = plan.CHANTIER.replace("var hauteur: Int = 0", "var hauteur: Int = 0\nvar notée: Int? = none")
    text = text.replace("if hauteur >= 2 {", "if notée != none and notée >= 2 {")
    engine = _engine_of(tmp_path, text.replace("MAÇONNER", plan.DIRECT.replace(
        "    set pierres = 0\n", "    set pierres = 0\n    set notée = hauteur\n")))
    assert at_first_decision(engine, lambda p: distances(engine)["tour_achevée"]) == 2
    aiming = [GreedyAgent(s, aim="tour_achevée", weight=2) for s in range(2)]
    assert plan._race(engine, aiming) == ("tour_achevée", 2, 2)


def test_a_measure_keeps_its_last_three_answers(tmp_path):
    """A measure asked on a state where nothing it reads changed answers from its last 3 answers (newest first)
    without measuring again: over `hauteur` 0, 1, 2, 3 and 0 again, the fifth is measured again (0 was the fourth
    answer back), then 3 and 2 are not."""
    engine = plan._engine(tmp_path, plan.DIRECT)
    [tower, _] = endings(engine.program, engine.flow)
    reads = _Reads(engine, [g for g, _ in tower.guards])
    measured: list[int] = []

    def ask(height: int) -> int:
        engine.st.vars["hauteur"] = height
        return reads.answer(engine.st, None, lambda: measured.append(height) or height)

    def asked(_player) -> list[int]:
        answers = [ask(h) for h in (0, 1, 2, 3, 0, 3, 2)]
        engine.st.vars["hauteur"] = 0
        return answers

    assert at_first_decision(engine, asked) == [0, 1, 2, 3, 0, 3, 2]
    assert measured == [0, 1, 2, 3, 0]


READY = """
procedure maçonner() {
  set prêt = false
  if not prêt and pierres >= 2 {
    set prêt = true
  }
  if prêt {
    set hauteur = hauteur + 1
    set pierres = 0
  }
}
"""


def test_a_statement_under_a_stale_condition_and_under_the_same_condition_measured_is_two_steps(tmp_path):
    """« Chantier » whose tower is finished when a storey is up and the next is ready (`hauteur >= 1 and prêt`),
    and whose masons set `prêt` to false, then to true `if not prêt and pierres >= 2`.  `set prêt = true` is a
    step towards the ending at depth 1 (it writes what the ending reads), under `not prêt` stale there (set just
    before: it says nothing now); it is also what computes the storey's stale `prêt`, followed down from the reset
    at depth 2, where `not prêt` is a condition measured.  Two steps, told apart by that condition's kind; the
    stones `tailler` cuts for it are the step at depth 3."""
    text = plan.CHANTIER.replace("if hauteur >= 2 {", "if hauteur >= 1 and prêt {")
    engine = _engine_of(tmp_path, text.replace("MAÇONNER", READY))
    [tower] = [e for e in endings(engine.program, engine.flow) if e.name == "tour_achevée"]
    goals = subgoals(engine.program, engine.flow, tower)
    assert [(g.depth, g.where, [step[0] for step in g.chains[0]]) for g in goals] == [
        (1, "vérifier", ["top"]), (1, "maçonner", ["top"]), (1, "maçonner", ["top", "stale", "guard"]),
        (1, "maçonner", ["top", "stale"]), (2, "maçonner", ["top", "guard", "guard"]),
        (3, "tailler", ["top", "enter"])]
