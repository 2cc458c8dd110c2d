"""Players that aim at an ending several steps away (checker/runtime/aim.py, *planning*): the ending's conditions are
chained back, from the spec alone, to the statements that change what they read (and the conditions those
statements run under), and to what computes a condition its procedure sets to a constant before testing it; an
aiming player measures how far those sub-goals are too.

In « Chantier » a player either picks a point (`cueillir`) or cuts a stone (`tailler`); after each round the masons
raise the tower one storey when two stones are ready, and the game ends when the tower is 2 storeys high (« tour
achevée ») or after round 6 (« temps écoulé »).  A stone changes nothing the ending reads (the height): the player
aiming at the tower by its distance alone picks points, as the greedy player does, and every game ends on the time.
Chained back, the storey's statement runs under `pierres >= 2`, so a stone is a step towards it: the aiming player
cuts stones and the tower is finished in round 2.  In « Chantier compté » the masons first count the stones
(`set prêt = false`, then `compter()` sets it to true when two are ready) and then test `prêt`: that condition is
measured through what computes it, one step further (depth 2)."""

from __future__ import annotations

import pytest

from checker.front import ast
from checker.runtime.agents import GreedyAgent
from checker.runtime.aim import distances, endings, engine_subgoals, subgoal_penalty, subgoals
from checker.runtime.engine import Engine
from checker.runtime.montecarlo import MonteCarloAgent
from conftest import engine_of

CHANTIER = """
game "Chantier" {
  edition: "test"
  players: 2..2
  flow: partie
  turn: tour
  score: score
}

enum Fin { tour_achevée "la tour est achevée", temps_écoulé "le temps est écoulé" }
var fin: Fin? = none
var hauteur: Int = 0
var pierres: Int = 0
var prêt: Bool = false
var numéro: Int = 0
var joué: Bool = false
var points[Player]: Int = 0
quantity score(p: Player): Int = points[p]

action cueillir(p: Player) "Cueillir : un point." {
  set points[p] = points[p] + 1
  set joué = true
}
action tailler(p: Player) "Tailler une pierre pour la tour." {
  set pierres = pierres + 1
  set joué = true
}
rule une_action { forbid cueillir(p) when joué }
rule une_seule { forbid tailler(p) when joué }

procedure tour(p: Player) {
  set joué = false
  offer p {
    cueillir(p)
    tailler(p)
    finish "Fini" when joué
  }
}

MAÇONNER

procedure vérifier() {
  if hauteur >= 2 {
    set fin = tour_achevée
  } else if numéro >= 6 {
    set fin = temps_écoulé
  }
}

procedure partie() {
  repeat {
    set numéro = numéro + 1
    for p in players {
      call tour(p)
    }
    call maçonner()
    call vérifier()
  } until fin != none
}

configuration "Standard" { players: 2..2 }
"""

DIRECT = """
procedure maçonner() {
  if pierres >= 2 {
    set hauteur = hauteur + 1
    set pierres = 0
  }
}
"""

COUNTED = """
procedure compter() {
  if pierres >= 2 {
    set prêt = true
  }
}

procedure maçonner() {
  set prêt = false
  call compter()
  if prêt {
    set hauteur = hauteur + 1
    set pierres = 0
  }
}
"""


def _engine(tmp_path, masons: str, extra: str = "", offer: str = "    tailler(p)\n") -> Engine:
    text = CHANTIER.replace("MAÇONNER", masons).replace("    tailler(p)\n", offer)
    return engine_of(tmp_path / "chantier.rules", text + extra, recording=False)


def _race(engine: Engine, agents) -> tuple[str, int, int]:
    engine.play({}, 2, 1, agents)
    return engine.st.vars["fin"], engine.st.vars["hauteur"], engine.st.vars["numéro"]


@pytest.mark.parametrize("masons, weight", [(DIRECT, 2), (COUNTED, 4)], ids=["direct", "counted"])
def test_le_glouton_qui_vise_la_tour_taille_les_pierres_qu_elle_attend(tmp_path, masons, weight):
    engine = _engine(tmp_path, masons)
    assert _race(engine, [GreedyAgent(s) for s in range(2)]) == ("temps_écoulé", 0, 6)
    aiming = [GreedyAgent(s, aim="tour_achevée", weight=weight) for s in range(2)]
    assert _race(engine, aiming) == ("tour_achevée", 2, 2), "both cut a stone each round: a storey a round"


def test_le_monte_carlo_qui_vise_la_tour_taille_les_pierres(tmp_path):
    engine = _engine(tmp_path, COUNTED)
    engine.recording = True          # the Monte-Carlo agent replays the game's answers
    settings = dict(playouts=4, depth=20, rollout="greedy", judge="outcome", next_turn=True, weight=4)
    aiming = [MonteCarloAgent(s, aim="tour_achevée", **settings) for s in range(2)]
    assert _race(engine, aiming) == ("tour_achevée", 2, 2)


def test_les_sous_buts_sont_lus_dans_la_spec(tmp_path):
    """Direct: the storey's statement runs under `pierres >= 2` (depth 1, 2 stones away at the start).  Counted:
    that chain's `prêt` is set to false before it is tested, so it is measured through `compter()`, which sets it
    under `pierres >= 2` (depth 2); the chain of the storey itself measures nothing else and is left out."""
    engine = _engine(tmp_path, DIRECT)
    [tower, _] = endings(engine.program, engine.flow)
    # reaching `vérifier` (called by the rounds: no condition) and the storey's statement in `maçonner`
    assert [(g.depth, g.where) for g in subgoals(engine.program, engine.flow, tower)] == [(1, "vérifier"),
                                                                                         (1, "maçonner")]
    assert [(d, [c.kept for c in chains]) for d, chains in engine_subgoals(engine, "tour_achevée")] == [(1, [1])]
    counted = _engine(tmp_path, COUNTED)
    assert [(d, [c.kept for c in chains]) for d, chains in engine_subgoals(counted, "tour_achevée")] == [(2, [1])]
    seen = []

    class Probe:
        def choose(self, decision):
            seen.append((counted.st.vars["pierres"], distances(counted)["tour_achevée"],
                         subgoal_penalty(counted, "tour_achevée", decision.player)))
            return 1 if decision.options[0][0] == "action" else 0      # tailler, then « Fini »

    counted.play({}, 2, 1, [Probe(), Probe()])
    assert seen[0] == (0, 2, 2 / 2), "2 stones away, at depth 2: worth 1"
    assert all(penalty == max(0, 2 - stones) / 2 for stones, _, penalty in seen)


POWER = """
kind Sceau {
  controller: porteur
  start: coffre
}
zone coffre: set of Sceau public
quantity porteur(s: Sceau): Player? = none
card Sceau "Sceau royal" {
  power clore "Clore la partie par décret." {
    if numéro >= 4 {
      set fin = temps_écoulé
    }
  }
}
"""


def test_une_fin_posée_par_un_pouvoir_est_une_fin(tmp_path):
    """An ending set in a card's power is read like one in a procedure: named by its constant, where it is the
    card's power; its conditions are measured (here, 4 rounds away at the start)."""
    engine = _engine(tmp_path, DIRECT, POWER)
    found = endings(engine.program, engine.flow)
    assert [(e.name, e.where, e.partial) for e in found] == [
        ("tour_achevée", "vérifier", False), ("temps_écoulé", "vérifier", False),
        ("temps_écoulé", '"Sceau royal".clore', False)]
    seen = []

    class Probe:
        def choose(self, decision):
            if not seen:            # round 1: the time's ending in `vérifier` is 5 rounds away, the power's 3
                seen.append(distances(engine))
                engine.st.vars["numéro"] = 3
                engine.invalidate()
                seen.append(distances(engine))
                engine.st.vars["numéro"] = 1
                engine.invalidate()
            return 0

    engine.play({}, 2, 1, [Probe(), Probe()])
    assert seen == [{"tour_achevée": 2, "temps_écoulé": 3}, {"tour_achevée": 2, "temps_écoulé": 1}]


def test_carcassonne_le_dernier_rempart_passe_par_une_évaluation():
    """Carcassonne's last rampart is chained back to the construction phase's call (`évaluation and phase() >= 2`,
    `évaluation` reset just before) and, at depth 2, to `set évaluation = true` in `évaluer`: a finished road or
    market with a Bonhomme on it round the last tile laid."""
    from conftest import checked_once
    result = checked_once(("spec/carcassonne",))
    engine = Engine(result.typed)
    [ending] = [e for e in endings(engine.program, engine.flow) if e.name == "dernier_rempart_posé"]
    goals = [(g.depth, g.where) for g in subgoals(engine.program, engine.flow, ending)]
    assert goals[:2] == [(1, "vérifier_la_fin"), (1, "bâtir")] and (2, "évaluer") in goals, goals
    compiled = engine_subgoals(engine, "dernier_rempart_posé")
    assert [(d, [c.kept for c in chains]) for d, chains in compiled][:3] == [(1, [1]), (1, [3]), (2, [2])]
    # depth 3: `placer` sets the `bonhomme` that `occupée_par_quelqu_un(f)` reads, under the one rule about it that
    # reads its player's state (`réserve[p] == 0`); `évaluer`'s own release of the Bonhommes is not a step
    assert (3, "placer") in goals and (3, "évaluer") not in goals, goals
    [placer] = [g for g in subgoals(engine.program, engine.flow, ending) if (g.depth, g.where) == (3, "placer")]
    [rule] = [step for step in placer.chains[0] if step[0] == "guard"]
    assert "réserve" in ast.names_in(rule[1]) and rule[2] is False
    # the others: `un_seul_bonhomme` (`bonhomme_placé`) and where the Bonhomme goes do not read the player's state


def test_carcassonne_une_évaluation_vaut_les_remparts_de_sa_phase():
    """Counts: the depth-2 sub-goal (`set évaluation = true` in `évaluer`) starts a construction phase, where each
    player, for each of `1..remparts_par_joueur()`, takes a rampart from the reserve: its yield is those two loops'
    sizes multiplied (4 at 4 players in piles 1 and 2, 8 in pile 3), and so is that of `placer` below it; a rampart
    laid (`bâtir`) yields 1.  `placer` spends a Bonhomme (`réserve[p] - 1`, forbidden at 0), but `évaluer` gives the
    Bonhommes back (`réserve[q] + bonhommes(f, q)`): lent, not used up, so its prohibition stays 0 or 1."""
    from conftest import checked_once
    result = checked_once(("spec/carcassonne",))
    engine = Engine(result.typed)
    [ending] = [e for e in endings(engine.program, engine.flow) if e.name == "dernier_rempart_posé"]
    goals = {(g.depth, g.where): g for g in subgoals(engine.program, engine.flow, ending)}
    loops = {key: [step[1] for chain, k in g.runs for step in chain[k + 1:] if step[0] == "loop" and len(step) == 3]
             for key, g in goals.items()}
    assert loops[(1, "bâtir")] == [] and loops[(2, "évaluer")] == ["k", "q"] and loops[(3, "placer")] == ["k", "q"]
    [rule] = [step for step in goals[(3, "placer")].chains[0] if step[0] == "guard"]
    assert rule[3:] == (), "lent: évaluer gives the Bonhommes back"


TOOLS = """
var outils[Player]: Int = 1
action vendre(p: Player) "Vendre son outil : trois points." {
  set outils[p] = outils[p] - 1
  set points[p] = points[p] + 3
  set joué = true
}
rule une_vente { forbid vendre(p) when joué }
rule rien_à_vendre { forbid vendre(p) when outils[p] == 0 }
rule sans_outil { forbid tailler(p) when outils[p] == 0 }
"""


def test_le_glouton_qui_vise_la_tour_garde_l_outil_qu_il_faut_pour_tailler(tmp_path):
    """« Chantier outillé »: cutting a stone needs a tool (`forbid tailler(p) when outils[p] == 0`), and a tool
    sells for 3 points.  Chained back, the stones the masons count (depth 2) are cut by `tailler` (depth 3), which
    the player can take only while that prohibition does not apply: keeping its tool is a step towards the tower.
    Aiming (weight 4), a stone is worth 4 × 1/2 and the tool's sale 3 points, less 4 × 1/3 for the tool gone: the
    player keeps its tool and cuts stones, and the tower is finished in round 2.  Without the prohibitions chained
    (2e989f5), it sells the tool (3 > 2) and the game ends on the time."""
    engine = _engine(tmp_path, COUNTED, TOOLS, offer="    tailler(p)\n    vendre(p)\n")
    assert _race(engine, [GreedyAgent(s) for s in range(2)]) == ("temps_écoulé", 0, 6)
    aiming = [GreedyAgent(s, aim="tour_achevée", weight=4) for s in range(2)]
    assert _race(engine, aiming) == ("tour_achevée", 2, 2)
    assert all(engine.st.vars["outils"].get(p, 1) == 1 for p in range(2)), "no tool sold"
    [(depth, [chain])] = [(d, c) for d, c in engine_subgoals(engine, "tour_achevée") if d == 3]
    assert chain.kept == 1, "the tool's prohibition; `une_seule` reads `joué`, reset before the offer, not the player"


WORN = """
var outils[Player]: Int = 2
action façonner(p: Player) "Tailler une pierre avec un outil, qui s'use." {
  set outils[p] = outils[p] - 1
  set pierres = pierres + 1
  set joué = true
}
action vendre(p: Player) "Vendre un outil : trois points." {
  set outils[p] = outils[p] - 1
  set points[p] = points[p] + 3
  set joué = true
}
rule un_façonnage { forbid façonner(p) when joué }
rule une_vente { forbid vendre(p) when joué }
rule rien_à_vendre { forbid vendre(p) when outils[p] == 0 }
rule sans_outil { forbid façonner(p) when outils[p] == 0 }
"""


def test_le_glouton_qui_vise_la_tour_garde_les_outils_qu_il_faudra_encore(tmp_path):
    """« Chantier aux outils qui s'usent »: each stone uses up a tool (`façonner`: `outils[p] - 1`, forbidden when
    `outils[p] == 0`), each player has 2, and a tool sells for 3 points.  The tower needs 2 storeys of 2 stones: all
    four tools.  Measured 0 or 1 (71cf182), the prohibition costs nothing while a tool is left, so the aiming
    player sells its first tool (3 points against a stone's 4 × 1/2) and the tower is never finished.  Counted, the
    stones' sub-goal must still happen once per storey left, the next one after as many stones as it lacks: a sale
    leaves the player a tool short of that count (4 × 1/3), a stone needs one tool fewer as it uses one (nothing
    lost): both players cut a stone each round and the tower is finished in round 2, every tool used."""
    engine = _engine(tmp_path, COUNTED, WORN, offer="    façonner(p)\n    vendre(p)\n")
    assert _race(engine, [GreedyAgent(s) for s in range(2)]) == ("temps_écoulé", 0, 6)
    aiming = [GreedyAgent(s, aim="tour_achevée", weight=4) for s in range(2)]
    assert _race(engine, aiming) == ("tour_achevée", 2, 2)
    assert [engine.st.vars["outils"].get(p, 2) for p in range(2)] == [0, 0], "every tool cut a stone"
    assert engine.st.vars["points"] == {} or set(engine.st.vars["points"].values()) == {0}, "no tool sold"
    [(_, [chain])] = [(d, c) for d, c in engine_subgoals(engine, "tour_achevée") if d == 3]
    assert [op[0] for op in chain.ops if op[0] in ("guard", "need")] == ["need"], "counted: a tool is used up"
