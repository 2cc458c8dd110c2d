"""Carcassonne Die Stadt: scenario tests named after the rulebook's examples.

Each builds the example's situation directly in the state (tiles laid with the spec's own `poser`
action, so every placement is checked by the rules; followers, ramparts and guards written in the
state), runs the spec's procedures, and checks what the rulebook says happens.  The tiles are those
of spec/carcassonne/20-tuiles.rules (a reconstruction: see its decision).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine
from checker.runtime.agents import ScriptedAgent
from checker.runtime.state import Abort
from conftest import ROOT

SPEC = ROOT / "spec" / "carcassonne"
RULEBOOK = SPEC / "sources" / "carcassonne-die-stadt.txt"      # the rulebook's text, as the spec cites it
RED, BLUE, GREEN = 0, 1, 2          # the rulebook's Rouge, Bleu (and a third player)


@functools.cache
def checked():
    result = check_paths([SPEC])
    assert result.ok, [str(d) for d in result.reporter.errors]
    return result


@functools.cache
def engine() -> Engine:
    return Engine(checked().typed)


def play_observed(players: int, seed: int, check):
    """A whole seeded game of random agents, ``check(decision)`` called at each decision; its result."""
    from checker.runtime import RandomAgent
    e = engine()
    e.recording = False
    program = checked().program
    cards = select(program, program.configurations["Jeu de base"], players).cards
    e.observer = check
    try:
        return e.play(cards, players, seed, [RandomAgent(seed * 100 + i) for i in range(players)])
    finally:
        e.observer = None


class Game:
    """A game set up and ready for a scenario: piles dealt, pile 1 not empty (no ramparts yet)."""

    def __init__(self, players: int = 2, scripts=None):
        self.e = e = engine()
        e.recording = True
        program = checked().program
        self.agents = [ScriptedAgent(list(s)) for s in (scripts or [[]] * players)]
        cards = select(program, program.configurations["Jeu de base"], players).cards
        self.st = e.start(cards, players, 0, self.agents)
        e.call("mise_en_place", ())
        self.grid = e.grids["Case"]

    # ---------------------------------------------------------------- building the situation
    def cell(self, row: int, col: int) -> int:
        return self.grid.cell(row, col)

    def lay(self, name: str, row: int, col: int, rot: int = 0, player: int = RED) -> None:
        """Lay a copy of tile `name` with the spec's `poser` action (its rules must allow it)."""
        e, st = self.e, self.st
        copies = [i for i in e.instances[e.def_ids[name]] if st.where[i][0] != "posées"]
        assert copies, f"no copy of {name} left"
        st.put(copies[0], "tirée", None, "top")
        st.vars["tuile_posée"] = False
        st.version += 1
        e.do("poser", (player, copies[0], self.cell(row, col), rot))
        assert st.vars["tuile_en"].get(self.cell(row, col)) == copies[0], f"{name} was not laid at {(row, col)}"

    def spot(self, row: int, col: int, part: str) -> tuple:
        """An Emplacement: the part `part` of the tile at (row, col)."""
        tile = self.e.show_card(self.st.vars["tuile_en"][self.cell(row, col)])
        return (self.cell(row, col), self.e.def_ids[f"{tile} / {part}"])

    def follower(self, player: int, row: int, col: int, part: str) -> None:
        self.st.vars["bonhomme"][self.spot(row, col, part)] = player
        self.st.vars["réserve"][player] -= 1
        self.st.version += 1

    def wall(self, row: int, col: int, side: str, guard: int | None = None) -> tuple:
        """A rampart on side `side` of the cell (row, col), with a guard on it if given."""
        e, st = self.e, self.st
        b = (self.cell(row, col), side)
        card = next(i for i in st.zones["remparts_en_réserve"] if e.show_card(i) == "Rempart")
        st.put(card, "enceinte", None, "top")
        st.vars["bord_de"][card] = b
        st.vars["muré"][b] = True
        if guard is not None:
            st.vars["garde"][b] = guard
        st.vars["porte_posée"] = True
        st.version += 1
        return b

    def last(self, row: int, col: int) -> None:
        self.st.vars["dernière_case"] = self.cell(row, col)
        self.st.vars["bonhomme_placé"] = False
        self.st.version += 1

    # ---------------------------------------------------------------- reading it
    def points(self, player: int) -> int:
        return self.st.vars["points"].get(player, 0)

    def reserve(self, player: int) -> int:
        return self.st.vars["réserve"].get(player, 0)

    def can_place(self, player: int, row: int, col: int, part: str) -> tuple[bool, list[str]]:
        ok, forbidding, _, _ = self.e.legal("placer", (player, self.spot(row, col, part)))
        return ok, forbidding

    def quantity(self, name: str, *args):
        self.e.invalidate()
        return self.e.quantity(name, args)


# ==================================================================== setting up


def test_preparation_trois_piles_de_30_25_et_20_tuiles():
    """« 1. une pile de 30 cartes, 2. une pile de 25 cartes, 3. une pile de 20 cartes. » — formed as three
    equal piles, then the 5 first cards of the 3rd pile put on the 1st."""
    g = Game(3)
    sizes = [len(g.st.zone("piles", k)) for k in ("première", "deuxième", "troisième")]
    assert sizes == [30, 25, 20]
    assert len(g.st.zone("sac")) == 0
    assert [g.reserve(p) for p in range(3)] == [7, 7, 7], "8 Bonhommes, one on the score track"
    assert [g.st.vars["tours"][p] for p in range(3)] == [4, 4, 4], "the 12 towers shared equally"


def test_le_materiel_compte_ce_que_la_liste_du_materiel_annonce():
    """« 75 tuiles Ville », « 1 des 32 bâtiments … publics », « Les 7 bâtiments historiques » (by name),
    « 70 Remparts », « 1 Porte de la Ville »: the numbers and names are read from the rulebook's list of
    the material, the material counted in a game set up by the spec.  The drawings and the copies of
    each kind of tile are reconstructed (decision tuiles_reconstituées): only these totals are the rules'."""
    text = RULEBOOK.read_text(encoding="utf-8")
    number = lambda pattern: int(re.search(pattern, text)[1])  # noqa: E731
    historic_list = text.split("Ces bâtiments portent ce signe")[1].split("\n\n\n")[0]
    historic = re.findall(r"^- (.+?)\s*$", historic_list, re.M)
    assert len(historic) == number(r"Les (\d+) bâtiments historiques") == 7
    g = Game(2)
    e = g.e
    tiles = [d for d, kind in e.def_kind.items() if kind == "Tuile"]
    copies = {e.def_names[d]: len(e.instances.get(d, ())) for d in tiles}
    assert sum(copies.values()) == number(r"(\d+) tuiles Ville") == 75
    assert sum(n * e.card_attrs[e.def_ids[name]]["publics"] for name, n in copies.items()) \
        == number(r"1 des (\d+) bâtiments") == 32
    assert {name: n for name, n in copies.items() if e.card_attrs[e.def_ids[name]]["historique"]} \
        == dict.fromkeys(historic, 1)
    walls = [e.show_card(w) for w in g.st.zone("remparts_en_réserve")]
    assert walls.count("Rempart") == number(r"• (\d+) Remparts") == 70
    assert walls.count("Porte de la Ville") == number(r"• (\d+) Porte de la Ville") == 1


# ==================================================================== laying tiles


def test_les_routes_ne_doivent_pas_etre_interrompues():
    """« La nouvelle tuile ne peut pas être posée à cause de la route inachevée. »"""
    g = Game()
    g.lay("Rue droite", 0, 0, 1)              # a road from west to east
    turned = [i for i in g.e.instances[g.e.def_ids["Quartier"]]][0]
    g.st.put(turned, "tirée", None, "top")
    g.st.vars["tuile_posée"] = False
    ok, forbidding, _, _ = g.e.legal("poser", (RED, turned, g.cell(0, 1), 0))
    assert not ok and forbidding == ["routes_ininterrompues"], "no road on the Quartier to go on with"
    ok, _, _, _ = g.e.legal("poser", (RED, turned, g.cell(1, 0), 0))
    assert ok, "« Les zones résidentielles et les marchés peuvent se toucher »"
    ok, forbidding, _, _ = g.e.legal("poser", (RED, turned, g.cell(1, 1), 0))
    assert not ok and forbidding == ["toucher_par_un_côté"], "touching by a corner only"


# ==================================================================== followers


def test_rouge_ne_peut_mettre_qu_un_habitant_une_marchande_est_deja_dans_le_marche():
    """« Rouge ne peut mettre qu'un Habitant. Une Marchande est déjà dans le marché ainsi formé. »"""
    g = Game()
    g.lay("Marché au poisson", 0, 0, 0)             # market along its north side
    g.follower(BLUE, 0, 0, "marché")
    g.lay("Coin du marché aux céréales", -1, 0, 1)   # market along east and south: joins the other
    g.last(-1, 0)
    assert g.can_place(RED, -1, 0, "marché") == (False, ["partie_déjà_occupée"])
    assert g.can_place(RED, -1, 0, "quartier") == (True, [])


def test_bleu_peut_poser_sa_marchande_ou_son_voyageur_ou_un_habitant_dans_la_petite_zone():
    """« Bleu peut poser son Marchande ou Voyageur, ou Habitant dans la petite zone résidentielle (flèche
    rouge). La grande zone résidentielle est déjà occupée. »"""
    g = Game()
    g.lay("Quartier", 0, 0)                          # a big residential area, occupied
    g.follower(RED, 0, 0, "quartier")
    g.lay("Virage du marché au bétail", 0, -1)      # its large area (east side) joins it
    g.last(0, -1)
    assert g.can_place(BLUE, 0, -1, "marché")[0]
    assert g.can_place(BLUE, 0, -1, "rue")[0]
    assert g.can_place(BLUE, 0, -1, "petit quartier")[0]
    assert g.can_place(BLUE, 0, -1, "grand quartier") == (False, ["partie_déjà_occupée"])


def test_bleu_ne_peut_pas_poser_son_bonhomme_sur_le_marche_qu_il_termine():
    """« Bleu ne peut pas poser son Bonhomme sur le marché puisqu'en posant sa tuile, il termine le
    marché. »"""
    g = Game()
    g.lay("Marché au poisson", 0, 0, 0)
    g.lay("Marché aux céréales", -1, 0, 2)          # market to the south: the two close each other
    g.last(-1, 0)
    assert g.can_place(BLUE, -1, 0, "marché") == (False, ["partie_terminée_par_la_tuile"])
    assert g.can_place(BLUE, -1, 0, "quartier")[0], "residential areas are never finished during play"


def test_les_trois_zones_residentielles_sont_reliees_et_deja_occupees():
    """« Après la pose de la nouvelle tuile, les 3 zones résidentielles sont reliées et ne forment plus
    qu'une seule zone. Le joueur qui a placé cette nouvelle tuile ne peut pas placer de Bonhomme puisqu'il
    y a déjà des Bonhommes sur cette zone. »"""
    g = Game(3)
    g.lay("Quartier", 0, 0)
    g.lay("Coin du marché au poisson", -1, 0, 1)    # markets on its east and south sides keep the areas apart
    g.lay("Coin du marché au bétail", 1, 0, 0)      # markets on its north and east sides
    g.lay("Quartier", -1, 1)
    g.lay("Quartier", 1, 1)
    for player, (row, col) in zip((RED, BLUE, GREEN), ((0, 0), (-1, 1), (1, 1))):
        g.follower(player, row, col, "quartier")
    assert len({tuple(g.quantity("partie", g.spot(r, c, "quartier"))) for r, c in ((0, 0), (-1, 1), (1, 1))}) == 3
    g.lay("Petit Puits", 0, 1)                       # all residential: joins the three
    g.last(0, 1)
    area = g.quantity("partie", g.spot(0, 1, "quartier"))
    assert len(area) == 4
    assert g.can_place(RED, 0, 1, "quartier") == (False, ["partie_déjà_occupée"])


def test_un_joueur_sans_bonhomme_ne_peut_que_poser_sa_tuile():
    """« Si au cours de la partie, un joueur n'a plus de Bonhommes, il ne peut que poser sa tuile. »"""
    g = Game()
    g.lay("Quartier", 0, 0)
    g.st.vars["réserve"][RED] = 0
    g.last(0, 0)
    assert g.can_place(RED, 0, 0, "quartier") == (False, ["de_sa_réserve"])


# ==================================================================== roads and markets


def _road(g: Game, middle: int) -> None:
    """A road from a dead end at (0, 0) to a dead end at (0, middle + 1), `middle` straight pieces between."""
    g.lay("Impasse", 0, 0, 3)                         # the road leaves it to the east
    g.follower(RED, 0, 0, "rue")
    for col in range(1, middle + 1):
        g.lay("Rue droite", 0, col, 1)
    g.lay("Impasse", 0, middle + 1, 1, player=BLUE)   # the road enters it from the west: finished
    g.last(0, middle + 1)


def test_rouge_recoit_3_points_pour_3_portions_de_route():
    """« Rouge reçoit 3 points (3 portions de route) »"""
    g = Game()
    _road(g, 1)
    g.e.call("évaluer_la_tuile", (BLUE,))
    assert g.points(RED) == 3 and g.points(BLUE) == 0
    assert g.reserve(RED) == 7, "the Voyageur comes back to its owner"


def test_rouge_recoit_8_points_pour_4_portions_de_route():
    """« Rouge reçoit 8 points (4 portions de route) » — although the text says « plus de 4 tuiles »:
    the decision route_de_quatre_tuiles follows the example."""
    g = Game()
    _road(g, 2)
    g.e.call("évaluer_la_tuile", (BLUE,))
    assert g.points(RED) == 8


def test_la_piste_de_score_fait_le_tour_sans_remettre_les_points_a_zero():
    """« La Piste de Score comptent 50 cases. Si un joueur a déjà obtenu plus de 50 points, il « couche » son
    pion sur la piste et se remet sur la case 0. » — the decision piste_de_score: the track only shows the
    total; 48 points and a road of 3 make 51, never 1."""
    g = Game()
    assert "piste_de_score" in checked().program.decisions
    g.st.vars["points"][RED] = 48
    _road(g, 1)
    g.e.call("évaluer_la_tuile", (BLUE,))
    assert g.points(RED) == 51 and g.quantity("score", RED) == 51


def test_a_egalite_de_points_les_joueurs_gagnent_ensemble():
    """« Le joueur qui a le plus de points gagne. » — nothing breaks a tie (decision égalité_des_points)."""
    g = Game(3)
    g.st.vars["points"].update({RED: 30, BLUE: 30, GREEN: 29})
    g.e.invalidate()
    result = g.e.result()
    assert result.winners == [RED, BLUE] and result.scores[GREEN] == 29


def test_bleu_recoit_9_points_3_types_differents_x_3_tuiles():
    """« Bleu reçoit 9 points (3 types différents x 3 tuiles = 9 points) »"""
    g = Game()
    g.lay("Coin du marché au poisson", 0, 0, 0)     # market along north and east
    g.follower(BLUE, 0, 0, "marché")
    g.lay("Marché aux céréales", -1, 0, 2)          # closes the north side
    g.lay("Marché au bétail", 0, 1, 3)              # closes the east side
    g.last(0, 1)
    g.e.call("évaluer_la_tuile", (RED,))
    assert g.points(BLUE) == 9
    assert g.reserve(BLUE) == 7, "the Marchande comes back"


def test_bleu_recoit_8_points_2_types_differents_x_4_tuiles():
    """« Bleu reçoit 8 points (2 types différents x 4 tuiles = 8 points) »"""
    g = Game()
    g.lay("Coin du marché au poisson", 0, 0, 0)     # north and east
    g.follower(BLUE, 0, 0, "marché")
    g.lay("Coin du marché au poisson", -1, 0, 1)    # east and south
    g.lay("Coin du marché aux céréales", 0, 1, 3)   # west and north
    g.lay("Coin du marché aux céréales", -1, 1, 2)  # south and west: the square is closed
    g.last(-1, 1)
    g.e.call("évaluer_la_tuile", (RED,))
    assert g.points(BLUE) == 8


def test_rouge_et_bleu_recoivent_tous_les_deux_18_points_3_types_x_6_tuiles():
    """« Rouge et Bleu reçoivent tous les deux 18 points (3 types x 6 tuiles) car tous les 2 ont une
    Marchande sur le marché. » « La nouvelle tuile relie les marchés séparés en un seul marché. »"""
    g = Game()
    g.lay("Marché au poisson", 0, 0, 1)             # market on its east side
    g.lay("Halle au bétail", 0, 1)
    g.lay("Deux marchés", 1, 1)                     # its northern market joins the Halle's south side
    g.lay("Quartier", 1, 2)                         # residential areas close the markets to the south
    g.lay("Quartier", 1, 3)
    g.lay("Halle au poisson", 0, 3)
    g.lay("Coin du marché au bétail", 0, 4, 3)      # market on west and north
    for col in (1, 2, 3, 4):
        g.wall(0, col, "nord")                      # ramparts close them to the north
    g.follower(RED, 0, 0, "marché")
    g.follower(BLUE, 0, 4, "marché")
    left, right = g.spot(0, 0, "marché"), g.spot(0, 4, "marché")
    assert right not in g.quantity("partie", left), "two separate markets before the new tile"
    g.lay("Halle aux céréales", 0, 2)
    g.last(0, 2)
    market = g.quantity("partie", left)
    assert right in market and g.quantity("tuiles_de", market) == 6 and g.quantity("types_de", market) == 3
    g.e.call("évaluer_la_tuile", (RED,))
    assert g.points(RED) == 18 and g.points(BLUE) == 18, "« En cas d'égalité, tous les joueurs concernés reçoivent la somme totale des points. »"


def test_le_joueur_qui_a_le_plus_de_voyageurs_remporte_les_points():
    """« c'est le joueur qui a le plus de Voyageurs sur cette route … qui remporte les points »"""
    g = Game()
    g.lay("Impasse", 0, 0, 3)
    g.follower(RED, 0, 0, "rue")
    g.lay("Rue droite", 0, 1, 1)
    g.follower(RED, 0, 1, "rue")
    g.lay("Rue droite", 0, 2, 1)
    g.follower(BLUE, 0, 2, "rue")
    g.lay("Impasse", 0, 3, 1)
    g.last(0, 3)
    g.e.call("évaluer_la_tuile", (BLUE,))
    assert (g.points(RED), g.points(BLUE)) == (8, 0)
    assert (g.reserve(RED), g.reserve(BLUE)) == (7, 7), "every follower on it comes back"


# ==================================================================== ramparts


def test_ce_rempart_acheve_le_marche_rouge_recoit_4_points_et_recupere_sa_marchande():
    """« Ce rempart achève le marché. Rouge reçoit 4 points (2 types x 2 cartes) et récupère sa
    Marchande. »"""
    g = Game()
    g.lay("Coin du marché au poisson", 0, 0, 0)     # north and east
    g.lay("Marché aux céréales", -1, 0, 2)          # closes the north side
    g.follower(RED, 0, 0, "marché")
    assert g.reserve(RED) == 6
    g.wall(0, 0, "est")
    g.e.call("évaluer_les_parties_terminées", (g.cell(0, 0),))
    assert g.points(RED) == 4 and g.reserve(RED) == 7


def test_ce_rempart_acheve_la_route_rouge_recoit_1_point():
    """« Ce rempart achève la route. Rouge reçoit 1 Point. »"""
    g = Game()
    g.lay("Impasse", 0, 0, 3)                          # a road that leaves the tile to the east
    g.follower(RED, 0, 0, "rue")
    g.wall(0, 0, "est")
    g.e.call("évaluer_les_parties_terminées", (g.cell(0, 0),))
    assert g.points(RED) == 1


def test_rouge_place_une_de_ses_tours_et_recoit_4_points():
    """« Rouge place une de ses tours et reçoit 4 points. » — the ramparts between the tower and the
    previous tower or the gate."""
    g = Game(2, scripts=[["placer_une_tour_au_bout(Joueur 1, horaire)"], []])
    g.lay("Quartier", 0, 0)
    g.st.vars["porte_posée"] = True
    g.st.vars["depuis_la_tour"].update({"horaire": 4, "antihoraire": 2})
    g.e.call("placer_une_tour", (RED,))
    assert g.points(RED) == 4 and g.st.vars["tours"][RED] == 5
    assert g.st.vars["depuis_la_tour"]["horaire"] == 0, "the next tower counts from this one"


def test_les_remparts_limitent_la_surface_du_jeu():
    """« aucune tuile ne peut être mise au-delà des remparts » (the decision au_delà_en_ligne_droite)."""
    g = Game()
    g.lay("Quartier", 0, 0)
    g.wall(0, 0, "nord")
    tile = g.e.instances[g.e.def_ids["Quartier"]][1]
    g.st.put(tile, "tirée", None, "top")
    g.st.vars["tuile_posée"] = False
    g.e.invalidate()
    assert g.e.legal("poser", (RED, tile, g.cell(-1, 0), 0))[1] == ["pas_au_delà_des_remparts"]
    assert g.e.legal("poser", (RED, tile, g.cell(0, 1), 0))[0]


def test_remparts_distribues_par_evaluation_a_2_3_et_4_joueurs():
    """« tous les joueurs reçoivent 1 rempart … 2 remparts sont distribués à chaque joueur » and « A 2
    joueurs, on distribue le double de remparts »."""
    for players, pile2, pile3 in ((2, 2, 4), (3, 1, 2), (4, 1, 2)):
        g = Game(players)
        g.st.zones["piles"]["première"].clear()
        g.st.version += 1
        assert g.quantity("phase") == 2 and g.quantity("remparts_par_joueur") == pile2, players
        g.st.zones["piles"]["deuxième"].clear()
        g.st.version += 1
        assert g.quantity("phase") == 3 and g.quantity("remparts_par_joueur") == pile3, players


def test_bleu_ne_peut_pas_poser_de_garde_car_rouge_a_deja_pose_un_garde_juste_en_face():
    """« Bleu ne peut pas poser de garde, car Rouge a déjà posé un garde juste en face. » and « Bleu peut
    placer un garde, puisqu'il y a un espace vide sur cette rangée. »"""
    g = Game()
    for col in range(3):
        g.lay("Rue droite", 0, col, 1)
    g.wall(0, 0, "ouest", guard=RED)
    blue = g.wall(0, 2, "est")
    g.st.vars["dernier_rempart"][BLUE] = blue
    g.st.vars["a_bâti"][BLUE] = True
    g.e.invalidate()
    assert g.e.legal("garder", (BLUE, blue))[1] == ["pas_de_garde_en_face"]
    h = Game()
    h.lay("Rue droite", 0, 0, 1)
    h.lay("Rue droite", 0, 1, 1)
    for col in (1, 2, 3):
        h.lay("Quartier", 1, col)
    h.lay("Rue droite", 0, 3, 1)                      # (0, 2) is left empty
    h.wall(0, 0, "ouest", guard=RED)
    blue = h.wall(0, 3, "est")
    h.st.vars["dernier_rempart"][BLUE] = blue
    h.st.vars["a_bâti"][BLUE] = True
    h.e.invalidate()
    assert h.e.legal("garder", (BLUE, blue))[0]


# ==================================================================== final scoring


def _guards_row(g: Game, tiles: list[tuple[int, str, int]]) -> None:
    for col, name, rot in tiles:
        g.lay(name, 0, col, rot)


def test_rouge_recoit_9_points_pour_3_batiments_publics_et_un_batiment_historique():
    """« Rouge reçoit 9 points pour 3 bâtiments publics et un bâtiment historique. »"""
    g = Game()
    _guards_row(g, [(0, "Rue droite", 1), (1, "Rue droite", 1), (2, "Tour Carrée", 1), (3, "Rue droite", 1)])
    g.wall(0, 0, "ouest", guard=RED)
    g.e.call("évaluation_finale", ())
    assert g.points(RED) == 9


def test_rouge_recoit_5_points_bleu_recoit_4_points_les_tuiles_s_arretent_a_l_espace_vide():
    """« Rouge reçoit 5 points. Bleu reçoit 4 points. Les tuiles concernées s'arrêtent à l'espace vide. »"""
    g = Game()
    _guards_row(g, [(0, "Tour Carrée", 1), (1, "Rue droite", 1)])
    for col in (1, 2, 3):
        g.lay("Quartier", 1, col)                   # (0, 2) stays empty
    _guards_row(g, [(3, "Rue droite", 1), (4, "Rue droite", 1)])
    g.wall(0, 0, "ouest", guard=RED)
    g.wall(0, 4, "est", guard=BLUE)
    g.e.call("évaluation_finale", ())
    assert (g.points(RED), g.points(BLUE)) == (5, 4)


def test_l_espace_a_ete_comble_rouge_et_bleu_recoivent_chacun_9_points():
    """« L'espace a été comblé après que les gardes aient été mis. Rouge et Bleu reçoivent chacun 9 points. »"""
    g = Game()
    _guards_row(g, [(0, "Tour Carrée", 1), (1, "Rue droite", 1)])
    _guards_row(g, [(2, "Carrefour", 0)])
    _guards_row(g, [(3, "Rue droite", 1), (4, "Rue droite", 1)])
    g.wall(0, 0, "ouest", guard=RED)
    g.wall(0, 4, "est", guard=BLUE)
    g.e.call("évaluation_finale", ())
    assert (g.points(RED), g.points(BLUE)) == (9, 9)


def test_rouge_recoit_6_points_3_marches_dans_la_zone_residentielle():
    """« Rouge reçoit 6 points (3 marchés dans la zone résidentielle) » — « Cela ne change rien que le
    marché soit grand ou petit, terminé ou non terminé. »"""
    g = Game()
    g.lay("Marché au poisson", 0, 0, 0)             # market north, residential area on the other sides
    g.lay("Marché aux céréales", 0, 1, 0)           # the same area goes on east; another market north
    g.lay("Marché au bétail", 1, 0, 2)              # market south, its area north joins the area
    g.lay("Coin du marché au poisson", -1, 1, 1)    # joins the northern market of (0, 1): still one market
    g.follower(RED, 0, 0, "quartier")
    area = g.quantity("partie", g.spot(0, 0, "quartier"))
    assert g.quantity("marchés_de_la_zone", area) == 3
    g.e.call("évaluation_finale", ())
    assert g.points(RED) == 6


# ==================================================================== the end of the game


def test_entre_les_deux_bouts_on_ne_peut_plus_placer_que_4_remparts_le_jeu_est_termine():
    """« Après la dernière construction de rempart, entre les deux bouts de remparts, on ne peut plus
    placer que 4 remparts. Le jeu est terminé. »"""
    g = Game()
    blocks = iter(["Quartier"] * 4 + ["Petit Puits", "Saint Sernin"])     # residential only, no road
    for row in range(2):
        for col in range(3):
            g.lay(next(blocks), row, col)
    # the ring round the 2 by 3 block has 10 sides; 6 are built, from the gate at the top left, clockwise
    built = [((0, 0), "nord"), ((0, 1), "nord"), ((0, 2), "nord"), ((0, 2), "est"), ((1, 2), "est"),
             ((1, 2), "sud")]
    for (row, col), side in built:
        g.wall(row, col, side)
    g.st.vars["bout"].update({"antihoraire": (g.cell(0, 0), "nord"), "horaire": (g.cell(1, 2), "sud")})
    g.st.version += 1
    assert g.quantity("écart") == 4
    g.e.call("vérifier_la_fin", ())
    assert g.st.vars["fin"] == "bouts_proches"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_complete_game_keeps_every_follower_and_tile(players: int):
    """A whole seeded game: at every decision each of the 7 followers of each player is in his reserve,
    on a tile or on a rampart; every tile is in a pile, laid, or put aside; the game ends."""
    e = engine()
    seen = []

    def check(decision) -> None:
        st = e.st
        if not st.vars["réserve"]:
            return                                   # not dealt yet
        for p in range(players):
            on_board = sum(1 for v in st.vars["bonhomme"].values() if v == p)
            guards = sum(1 for v in st.vars["garde"].values() if v == p)
            assert st.vars["réserve"][p] + on_board + guards == 7, (p, st.vars["réserve"][p], on_board, guards)
        seen.append(decision)
    result = play_observed(players, 11, check)
    st = e.st
    assert len(seen) > 75
    assert len(st.zones["posées"]) + len(st.zones["écartées"]) + sum(
        len(st.zone("piles", k)) for k in ("première", "deuxième", "troisième")) == 75
    assert st.vars["fin"] is not None
    assert set(result.scores) == set(range(players)) and all(s >= 0 for s in result.scores.values())


@pytest.mark.parametrize("players, seed", [(2, 5), (4, 2)])
def test_every_cached_quantity_is_what_it_would_be_computed_now(players: int, seed: int):
    """A var no cached quantity reads is written without moving the state's version (codegen.cached_reads):
    at every decision of a whole game, each value cached for the current state equals the quantity computed
    afresh."""
    e = engine()
    checked_values = []

    def check(decision) -> None:
        if e._qversion != e.st.version:
            return
        for name, cache in e._qcaches.items():
            arity = len(checked().program.quantities[name].params)
            for key, value in list(cache.items()):
                args = () if arity == 0 else (key,) if arity == 1 else key
                assert e._quantity(name, args) == value, (name, args)
                checked_values.append(name)
    play_observed(players, seed, check)
    assert len(checked_values) > 1000 and {"au_delà", "partie", "cases_libres"} <= set(checked_values)
