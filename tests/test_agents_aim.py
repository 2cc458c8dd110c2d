"""Players that aim at one of the game's endings (checker/runtime/aim.py): the endings are read from the spec (the
statements that set the var the flow's last loop tests, under the conditions of the `if`s around them), and how
far each is from happening is measured on the state by the shape of those conditions.

In the race below (« Tour de guet ») a player either picks a point (`cueillir`) or raises a shared tower
(`bâtir`); the game ends when the tower is 4 storeys high (« tour achevée ») or after round 5 (« temps écoulé »).
A storey is worth no point, so the greedy player never builds and every game ends on the time; the greedy player
aiming at « tour achevée » (weight 2: a storey nearer the aim is worth 2 points to it) builds, and the game ends
on the tower in round 2.  The Monte-Carlo agent aiming at it (playouts to the next turn) does the same."""

from __future__ import annotations

import pytest

from checker.front.configurations import select
from checker.runtime.agents import GreedyAgent
from checker.runtime.aim import distances, endings, progress, reached, resolve
from checker.runtime.engine import Engine
from checker.runtime.montecarlo import MonteCarloAgent
from checker.runtime.players import make_agent, parse_agent
from conftest import checked_once, engine_of

TOUR = """
game "Tour de guet" {
  edition: "test"
  players: 2..2
  flow: partie
  turn: tour
  score: score
}

enum Fin { tour_achevée "la tour est achevée", temps_écoulé "le temps est écoulé" }
var fin: Fin? = none
var hauteur: Int = 0
var numéro: Int = 0
var joué: Bool = false
var points[Player]: Int = 0
quantity score(p: Player): Int = points[p]
quantity achevée(): Bool = hauteur >= 4

action cueillir(p: Player) "Cueillir : un point." {
  set points[p] = points[p] + 1
  set joué = true
}
action bâtir(p: Player) "Monter la tour d'un étage." {
  set hauteur = hauteur + 1
  set joué = true
}
rule une_action { forbid cueillir(p) when joué }
rule une_seule { forbid bâtir(p) when joué }

procedure tour(p: Player) {
  set joué = false
  offer p {
    cueillir(p)
    bâtir(p)
    finish "Fini" when joué
  }
}

procedure vérifier() {
  if achevée() {
    set fin = tour_achevée
  } else if numéro >= 5 {
    set fin = temps_écoulé
  }
}

procedure partie() {
  repeat {
    set numéro = numéro + 1
    for p in players {
      call tour(p)
    }
    call vérifier()
  } until fin != none
  log "Fin : {0}", fin
}

configuration "Standard" { players: 2..2 }
"""


def _tour(tmp_path) -> Engine:
    return engine_of(tmp_path / "tour.rules", TOUR, recording=False)


def _race(engine: Engine, agents) -> tuple[str, int, int]:
    engine.play({}, 2, 1, agents)
    return engine.st.vars["fin"], engine.st.vars["hauteur"], engine.st.vars["numéro"]


def test_les_fins_du_jeu_sont_lues_dans_la_spec(tmp_path):
    engine = _tour(tmp_path)
    found = endings(engine.program, engine.flow)
    assert [(e.name, e.var, e.where, [want for _, want in e.guards], e.partial) for e in found] == [
        ("tour_achevée", "fin", "vérifier", [True], False),
        ("temps_écoulé", "fin", "vérifier", [False, True], False)], "an else-if is checked after the if before it"
    with pytest.raises(ValueError, match="its endings: tour_achevée, temps_écoulé"):
        resolve(engine, "nope")


def test_le_glouton_qui_vise_la_tour_l_achève(tmp_path):
    engine = _tour(tmp_path)
    assert _race(engine, [GreedyAgent(s) for s in range(2)]) == ("temps_écoulé", 0, 5), \
        "a storey is worth no point: the greedy player never builds"
    assert not reached(engine, "tour_achevée") and reached(engine, "temps_écoulé")
    aiming = [GreedyAgent(s, aim="tour_achevée", weight=2) for s in range(2)]
    assert _race(engine, aiming) == ("tour_achevée", 4, 2), "both build: 4 storeys in 2 rounds"
    assert reached(engine, "tour_achevée")
    # aiming at the time, it picks points as the greedy player does
    assert _race(engine, [GreedyAgent(s, aim="temps_écoulé", weight=2) for s in range(2)]) == ("temps_écoulé", 0, 5)


def test_le_monte_carlo_qui_vise_la_tour_l_achève(tmp_path):
    engine = _tour(tmp_path)
    engine.recording = True          # the Monte-Carlo agent replays the game's answers
    settings = dict(playouts=4, depth=20, rollout="greedy", judge="outcome", next_turn=True)
    plain = [MonteCarloAgent(s, **settings) for s in range(2)]
    assert _race(engine, plain) == ("temps_écoulé", 0, 5)
    aiming = [MonteCarloAgent(s, aim="tour_achevée", **settings) for s in range(2)]
    assert _race(engine, aiming) == ("tour_achevée", 4, 2)


def test_la_distance_suit_la_forme_des_conditions(tmp_path):
    engine = _tour(tmp_path)
    seen = []

    class Probe:
        def choose(self, decision):
            seen.append((engine.st.vars["hauteur"], engine.st.vars["numéro"], distances(engine),
                         progress(engine, "tour_achevée")))
            return 1 if decision.options[0][0] == "action" else 0      # bâtir, then « Fini »

    engine.play({}, 2, 1, [Probe(), Probe()])
    first = seen[0]
    # `achevée()` is measured through its formula: `hauteur >= 4` is 4 storeys away; the time's ending needs the
    # tower not finished (0: it is not) and `numéro >= 5` (4 rounds away in round 1)
    assert first[:3] == (0, 1, {"tour_achevée": 4, "temps_écoulé": 4})
    assert first[3] == -4 + min(4, 4 + 1)
    for hauteur, numéro, measured, _ in seen:
        assert measured["tour_achevée"] == max(0, 4 - hauteur)
        assert measured["temps_écoulé"] == (1 if hauteur >= 4 else max(0, 5 - numéro))


def test_citadelles_la_cité_complète_la_plus_proche():
    """Citadelles' ending is set in a loop over the players, under `complète(p)`: its distance is the least, over
    the players, of the districts a city still lacks (measured through `complète`'s formula)."""
    result = checked_once(("spec/citadelles",))
    engine = Engine(result.typed)
    engine.recording = False
    [ending] = endings(engine.program, engine.flow)
    assert (ending.name, ending.where, [v for v, _ in ending.loops], ending.partial) == \
        ("fin_de_partie_annoncée", "vérifier_fin_de_partie", ["p"], False)
    program = result.program
    selection = select(program, program.configurations["Première partie"], 4)
    checked = []

    def watch(decision):
        if engine.st.vars["fin_de_partie_annoncée"]:
            return
        lacking = min(engine.quantity("cité_complète_à", ()) - engine.quantity("taille_cité", (p,))
                      for p in range(4))
        checked.append((distances(engine)["fin_de_partie_annoncée"], max(0, lacking)))

    engine.observer = watch
    engine.play(selection.cards, 4, 3, [make_agent("greedy", s) for s in range(4)])
    assert len(checked) > 50 and all(d == lacking for d, lacking in checked), checked[:5]
    assert checked[0][0] == 7 and checked[-1][0] <= 1


def test_carcassonne_ses_trois_fins():
    result = checked_once(("spec/carcassonne",))
    engine = Engine(result.typed)
    engine.recording = False
    assert [(e.name, e.where) for e in endings(engine.program, engine.flow)] == [
        ("dernière_tuile_posée", "tour"), ("dernier_rempart_posé", "vérifier_la_fin"),
        ("bouts_proches", "vérifier_la_fin")]
    program = result.program
    selection = select(program, next(iter(program.configurations.values())), 2)
    seen = []

    def watch(decision):
        if len(seen) < 40 and engine.st.vars["fin"] is None:
            reserve = sum(engine.show_card(w) == "Rempart" for w in engine.st.zones["remparts_en_réserve"])
            gap = 1 - engine.st.vars["porte_posée"] + max(0, engine.quantity("écart", ()) - 5)
            seen.append((distances(engine), {"dernière_tuile_posée": engine.quantity("tuiles_restantes", ()),
                                             "dernier_rempart_posé": reserve, "bouts_proches": gap}))

    engine.observer = watch
    engine.play(selection.cards, 2, 0, [make_agent("random", s) for s in range(2)])
    assert len(seen) == 40 and all(measured == expected for measured, expected in seen), seen[:3]


def test_les_options_d_un_joueur():
    assert parse_agent("greedy") == ("greedy", {})
    assert parse_agent("greedy:aim=fin:weight=3") == ("greedy", {"aim": "fin", "weight": 3})
    assert parse_agent("montecarlo:aim=fin") == ("montecarlo", {"aim": "fin"})
    for bad, message in [("greedy:weight=2", "only with aim"), ("greedy:aim=x:weight=deux", "must be an integer"),
                         ("random:aim=x", "random takes no options"), ("glouton", "no agent"),
                         ("greedy:aim", "greedy takes aim=…, weight=…")]:
        with pytest.raises(ValueError, match=message):
            parse_agent(bad)
    agent = make_agent("greedy:aim=fin:weight=3", 7)
    assert isinstance(agent, GreedyAgent) and (agent.aim, agent.weight) == ("fin", 3)


def test_simulate_refuse_une_fin_que_le_jeu_n_a_pas(tmp_path, capsys):
    from checker.cli import main
    path = tmp_path / "tour.rules"
    path.write_text(TOUR, encoding="utf-8")
    assert main(["simulate", str(path), "-n", "2", "--workers", "1", "--agent", "greedy:aim=nope"]) == 2
    assert 'no ending "nope" to aim at in this game (its endings: temps_écoulé, tour_achevée)' in capsys.readouterr().err
    assert main(["simulate", str(path), "-n", "2", "--workers", "1", "--agent", "greedy:weight=2"]) == 2
    assert "only with aim" in capsys.readouterr().err


def test_play_prend_les_options_des_joueurs_comme_simulate(tmp_path, capsys):
    """`rulebook play --agent` reads a player's options as `simulate` does: an aim the game has plays the game, an
    ending it does not have and an unknown option are refused with the reason (exit 2), also with --from."""
    from checker.cli import main
    path = tmp_path / "tour.rules"
    path.write_text(TOUR, encoding="utf-8")
    assert main(["play", str(path), "-n", "2", "-s", "1", "-q", "--agent", "greedy:aim=tour_achevée"]) == 0
    assert main(["play", str(path), "-n", "2", "-s", "1", "-q", "--agent", "greedy:aim=nope"]) == 2
    assert 'no ending "nope"' in capsys.readouterr().err
    assert main(["play", str(path), "-n", "2", "-q", "--agent", "greedy:bad=1"]) == 2
    assert 'not "bad=1"' in capsys.readouterr().err
    state = tmp_path / "état.json"
    assert main(["play", str(path), "-n", "2", "-s", "1", "-q", "--state-at", "3", str(state)]) == 0
    assert main(["play", str(path), "--from", str(state), "-q", "--agent", "greedy:aim=nope"]) == 2
    assert main(["play", str(path), "--from", str(state), "-q", "--agent", "greedy:aim=tour_achevée"]) == 0
