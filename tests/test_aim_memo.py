"""An aiming player's measures are not run again where nothing they read changed (checker/runtime/aim_measure.py,
``_Reads``): each measure (an ending's distance, a sub-goal's chain) knows the vars and zones it reads, through the
quantities and the rules that give them values, and keeps its last answer for each player with a copy of what it
read then.  The options of one decision that leave those alone are measured once: in Citadelles, 4 players aiming at
`fin_de_partie_annoncée` cost 0.081 s of CPU a game on 71cf182 and 0.066 s with it, their 20 games the same
(docs/simulate.md)."""

from __future__ import annotations

import pathlib

import test_agents_plan as plan
from checker.runtime import aim_plan
from checker.runtime.agents import GreedyAgent, option_values
from checker.runtime.aim import progress


def _engine(tmp_path: pathlib.Path):
    return plan._engine(tmp_path, plan.COUNTED, plan.WORN, offer="    façonner(p)\n    vendre(p)\n")


def test_une_option_qui_ne_touche_pas_ce_qu_un_sous_but_lit_ne_le_mesure_pas_de_nouveau(tmp_path, monkeypatch):
    """« Chantier aux outils qui s'usent » (tests/test_agents_plan.py): the stones' sub-goal reads `pierres`, which
    only `façonner` changes.  Of the first decision's three options, the stones' sub-goal is measured after
    `cueillir` and after `façonner`, not after `vendre`, which leaves `pierres` as `cueillir` did; the tools'
    sub-goal (`outils`) is measured after each (after `vendre` the tools are as after `façonner`, but the count of
    stones still to cut is not).  71cf182 measured each sub-goal three times."""
    engine = _engine(tmp_path)
    runs: list = []
    original = aim_plan._Chain._run

    def counted(self, i, env, bound):
        if i == 0:
            runs.append(self.reads.vars)
        return original(self, i, env, bound)

    monkeypatch.setattr(aim_plan._Chain, "_run", counted)
    seen: list = []

    class First(GreedyAgent):
        def choose(self, decision):
            if not seen:
                seen.append((option_values(decision, "tour_achevée", 4), list(runs)))
            return super().choose(decision)

    engine.play({}, 2, 1, [First(s, aim="tour_achevée", weight=4) for s in range(2)])
    values, first = seen[0]
    assert len(values) == 3 and values.index(max(values)) == 1, "façonner"
    assert first == [["pierres"], ["outils"], ["pierres"], ["outils"], ["outils"]]


def test_la_mémoire_donne_les_mesures_d_un_état_neuf(tmp_path):
    """On every decision of an aiming game, the progress an option is worth is the same with the answers kept and
    with every measure run afresh."""
    engine = _engine(tmp_path)
    checked: list = []

    def forget() -> None:
        for _, chains in aim_plan.engine_subgoals(engine, "tour_achevée"):
            for chain in chains:
                chain.reads.last.clear()
        for _, (yields, _) in zip(*aim_plan._compiled(engine, "tour_achevée")):
            for count in yields:
                count.reads.last.clear()
        for measure in engine._aim_measures.values():
            measure.reads.last.clear()

    class Check(GreedyAgent):
        def choose(self, decision):
            kept = progress(engine, "tour_achevée", None, decision.player)
            forget()
            checked.append((kept, progress(engine, "tour_achevée", None, decision.player)))
            return super().choose(decision)

    engine.play({}, 2, 1, [Check(s, aim="tour_achevée", weight=4) for s in range(2)])
    assert len(checked) == 4 and all(kept == fresh for kept, fresh in checked), checked
