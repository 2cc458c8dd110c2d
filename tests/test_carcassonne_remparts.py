"""Carcassonne Die Stadt: the ramparts, scenario by scenario (the Porte, both ends, how many ramparts, a
rampart that finishes a road or a market, towers, what is beyond a rampart, the three ends of the game,
closing the wall), and over whole games: the wall never gets stuck.

Every tile is laid with the spec's `poser`, every rampart with its `poser_la_porte` or `bâtir` (so the rules
judge each of them); the phases run the spec's own procedures with scripted players.
"""

from __future__ import annotations

import pytest

from checker.runtime import RandomAgent
from test_carcassonne import BLUE, GREEN, RED, Game, engine, play_observed


ROAD_FREE = ("Quartier", "Petit Puits", "Saint Sernin", "Halle au poisson", "Halle aux céréales", "Halle au bétail")


class Walls(Game):
    """A game with helpers for ramparts, built through the spec's actions."""

    def at_pile(self, k: int) -> None:
        """Put the tiles of the piles before pile ``k`` aside: the game is at pile ``k``."""
        for pile in ("première", "deuxième")[:k - 1]:
            for t in list(self.st.zone("piles", pile)):
                self.st.put(t, "écartées", None, "top")
        assert self.quantity("phase") == k

    def edge(self, row: int, col: int, side: str) -> tuple:
        return (self.cell(row, col), side)

    def gate(self, row: int, col: int, side: str, player: int = RED) -> None:
        self.st.vars["rempart_posé"] = False
        self.st.version += 1
        self.e.do("poser_la_porte", (player, self.edge(row, col, side)))

    def build(self, row: int, col: int, side: str, player: int = RED) -> None:
        self.st.vars["rempart_posé"] = False
        self.st.version += 1
        self.e.do("bâtir", (player, self.edge(row, col, side)))

    def can(self, action: str, row: int, col: int, side: str, player: int = RED) -> tuple[bool, list[str]]:
        self.st.vars["rempart_posé"] = False
        self.st.version += 1
        ok, forbidding, _, _ = self.e.legal(action, (player, self.edge(row, col, side)))
        return ok, forbidding

    def walls_left(self) -> int:
        return sum(self.e.show_card(w) == "Rempart" for w in self.st.zones["remparts_en_réserve"])

    def block(self, rows, cols) -> None:
        """Road-free tiles on every cell of rows × cols (residential ones, then whole markets)."""
        for row, col in sorted(((r, c) for r in rows for c in cols), key=lambda rc: abs(rc[0]) + abs(rc[1])):
            if self.st.vars["tuile_en"].get(self.cell(row, col)) is None:
                self.lay(next(n for n in ROAD_FREE if self.left(n)), row, col)

    def lay_free(self, row: int, col: int) -> None:
        """A road-free tile on (row, col)."""
        self.block((row,), (col,))

    def left(self, name: str) -> bool:
        return any(self.st.where[i][0] != "posées" for i in self.e.instances[self.e.def_ids[name]])


def label(player: int, row: int, col: int, side: str, g: Game, action: str = "bâtir") -> str:
    return f"{action}(Joueur {player + 1}, Bord(({row}, {col}), {side}))"


# ==================================================================== the Porte, both ends, how many


def test_la_porte_puis_un_rempart_a_droite_ou_a_gauche_de_son_voisin():
    """« Lors de la 1ère évaluation, le joueur qui a déclenché l'évaluation, obtient la Porte de la Ville.
    Tous les autres joueurs reçoivent 1 rempart. Le joueur qui a la Porte de la Ville place celle-ci à côté
    d'une tuile de son choix. Ensuite, dans le sens des aiguilles d'une montre, chaque joueur place son
    rempart à droite ou à gauche de son voisin. »  Blue finishes a road in pile 2: the Porte is his; Green,
    then Red, each build one rampart, at either end."""
    blue = ["poser_la_porte(Joueur 2, Bord((0, 0), nord))", "placer_une_tour_au_bout(Joueur 2, horaire)"]
    green = ["bâtir(Joueur 3, Bord((0, 1), nord))", "Pas de garde"]
    red = ["bâtir(Joueur 1, Bord((0, -1), nord))", "Pas de garde"]
    g = Walls(3, scripts=[red, blue, green])
    g.at_pile(2)
    g.lay("Impasse", 0, 0, 3)                       # a road leaving it to the east
    g.follower(RED, 0, 0, "rue")
    g.block(range(1, 3), range(0, 4))
    g.lay("Impasse", 0, 1, 1, player=BLUE)          # Blue finishes the road
    g.last(0, 1)
    g.e.call("évaluer_la_tuile", (BLUE,))
    assert g.points(RED) == 2, "the road of 2 tiles"
    gate_options = g.agents[BLUE].seen[0][1]
    assert "poser_la_porte(Joueur 2, Bord((0, 0), nord))" in gate_options
    assert all(o.startswith("poser_la_porte") for o in gate_options), "the Porte first, and only the Porte"
    assert len(gate_options) == len(g.quantity("côtés_de_la_ville")), "next to any tile, on a free side"
    assert "porte_à_côté_d_une_tuile" in g.can("poser_la_porte", -1, 0, "sud", BLUE)[1]
    red_options = g.agents[RED].seen[0][1]
    assert label(RED, 0, -1, "nord", g) in red_options, "to the left of the Porte"
    assert label(RED, 0, 2, "nord", g) in red_options, "to the right of Green's rampart"
    assert label(RED, 0, 1, "nord", g) not in red_options
    placed = {g.e.show_typed(g.st.vars["bord_de"][w], g.e.param_types["bâtir"][1]) for w in g.st.zones["enceinte"]}
    assert placed == {"Bord((0, 0), nord)", "Bord((0, 1), nord)", "Bord((0, -1), nord)"}
    assert g.points(BLUE) == 1, "his tower at the clockwise end counts Green's rampart"
    assert g.st.vars["fin"] is None


def test_a_droite_ou_a_gauche_seulement_aux_deux_bouts():
    """« chaque joueur place son rempart à droite ou à gauche de son voisin » (decision aux_deux_bouts):
    at either end of the rampart, and nowhere else."""
    g = Walls()
    g.at_pile(2)
    g.block(range(0, 2), range(0, 3))
    g.gate(0, 1, "nord")
    g.build(0, 2, "nord", BLUE)                     # the clockwise end
    assert g.can("bâtir", 0, 0, "nord")[0], "the other end, left of the Porte"
    assert g.can("bâtir", 0, 2, "est")[0], "round the corner after Blue's rampart"
    assert g.can("bâtir", 1, 0, "ouest")[1] == ["à_droite_ou_à_gauche"], "not touching the rampart"


@pytest.mark.parametrize("players, pile, gate, expected", [
    (3, 2, False, [0, 1, 1]),      # the Porte for the first evaluation, 1 rampart for the others
    (3, 2, True, [1, 1, 1]),
    (3, 3, True, [2, 2, 2]),       # « 2 remparts sont distribués à chaque joueur »
    (4, 3, True, [2, 2, 2, 2]),
    (2, 2, False, [1, 2]),         # « prend la Porte de la Ville et un rempart, l'autre … 2 remparts »
    (2, 2, True, [2, 2]),          # « Quand on entame la pile 2, … chaque joueur reçoit 2 remparts. »
    (2, 3, True, [4, 4]),          # « Quand on entame la pile 3, … chaque joueur reçoit 4 remparts. »
])
def test_remparts_distribues_a_chaque_evaluation(players, pile, gate, expected):
    g = Walls(players)
    g.at_pile(pile)
    g.st.vars["porte_posée"] = gate
    g.st.version += 1
    g.e.call("distribuer_les_remparts", (RED,))
    assert [g.st.vars["à_bâtir"][q] for q in range(players)] == expected


def test_s_il_n_y_a_plus_assez_de_remparts_ils_sont_distribues_un_par_un():
    """« ils sont distribués un par un en commençant par le joueur qui a déclenché l'évaluation, dans le
    sens des aiguilles d'une montre, jusqu'à ce qu'il n'y ait plus de remparts »: 4 left, 3 players, pile 3."""
    g = Walls(3)
    g.at_pile(3)
    g.st.vars["porte_posée"] = True
    for w in [w for w in g.st.zones["remparts_en_réserve"] if g.e.show_card(w) == "Rempart"][4:]:
        g.st.put(w, "enceinte", None, "top")
    g.e.call("distribuer_les_remparts", (BLUE,))
    assert [g.st.vars["à_bâtir"][q] for q in (BLUE, GREEN, RED)] == [2, 1, 1]


# ==================================================================== what a rampart finishes, towers


def test_ce_rempart_acheve_la_route_par_la_phase_de_construction():
    """« Ce rempart achève la route. Rouge reçoit 1 Point. » — a rampart built in a construction phase,
    then « Après les évaluations déclenchées par la pose d'un rempart, il n'y **pas** d'autre pose de
    rempart »: Red is offered a guard, and nothing more is built."""
    g = Walls(2, scripts=[["bâtir(Joueur 1, Bord((0, 0), est))", "Pas de garde"], []])
    g.at_pile(2)
    g.lay("Impasse", 0, 0, 3)                       # its road leaves it to the east
    g.follower(RED, 0, 0, "rue")
    g.block(range(1, 2), range(0, 2))
    g.gate(0, 0, "nord", BLUE)
    g.st.vars["à_bâtir"][RED] = 1
    g.e.call("bâtir_un_rempart", (RED,))
    assert g.points(RED) == 1 and g.reserve(RED) == 7
    assert g.st.vars["à_bâtir"][RED] == 0 and len(g.st.zones["enceinte"]) == 2


def test_ce_rempart_acheve_le_marche_rouge_recoit_4_points():
    """« Ce rempart achève le marché. Rouge reçoit 4 points (2 types x 2 cartes) et récupère sa Marchande. »"""
    g = Walls(2, scripts=[["bâtir(Joueur 1, Bord((0, 0), est))", "Pas de garde"], []])
    g.at_pile(2)
    g.lay("Coin du marché au poisson", 0, 0, 0)     # market along north and east
    g.lay("Marché aux céréales", -1, 0, 2)          # closes its north side
    g.follower(RED, 0, 0, "marché")
    g.gate(-1, 0, "est", BLUE)
    g.st.vars["à_bâtir"][RED] = 1
    g.e.call("bâtir_un_rempart", (RED,))
    assert g.points(RED) == 4 and g.reserve(RED) == 7


def test_rouge_place_une_tour_et_recoit_autant_de_points_que_de_remparts_depuis_la_porte():
    """« Il reçoit autant de points que de remparts posés entre sa tour et la tour précédente et/ou la Porte
    de la Ville. » « Rouge place une de ses tours et reçoit 4 points. »"""
    g = Walls(2, scripts=[["placer_une_tour_au_bout(Joueur 1, horaire)", "placer_une_tour_au_bout(Joueur 1, horaire)"],
                          []])
    g.at_pile(2)
    g.block(range(0, 2), range(0, 4))
    g.gate(0, 0, "nord")
    for col in range(1, 4):                         # 4 ramparts at the clockwise end
        g.build(0, col, "nord", BLUE)
    g.build(0, 3, "est", BLUE)
    g.build(0, 0, "ouest", BLUE)                    # and 1 at the other end
    g.e.call("placer_une_tour", (RED,))
    assert g.points(RED) == 4 and g.st.vars["tours"][RED] == 5
    assert g.e.legal("placer_une_tour_au_bout", (RED, "horaire"))[1][-1] == "une_tour_par_bout"
    g.build(1, 3, "est", BLUE)
    g.e.call("placer_une_tour", (RED,))
    assert g.points(RED) == 5, "the next tower counts from the previous one"


def test_une_tour_compte_les_remparts_de_son_bout_seulement():
    """« entre sa tour et la tour précédente et/ou la Porte de la Ville » (decision tour_à_son_bout): a tower
    counts the ramparts of its own end since the Porte or the last tower there — not the Porte, not the other
    end, nor the tower just placed at the other end."""
    g = Walls(2, scripts=[["placer_une_tour_au_bout(Joueur 1, horaire)",
                           "placer_une_tour_au_bout(Joueur 1, antihoraire)"], []])
    g.at_pile(2)
    g.block(range(0, 2), range(0, 4))
    g.gate(0, 0, "nord")
    for col in range(1, 4):                         # 3 ramparts at the clockwise end
        g.build(0, col, "nord", BLUE)
    g.build(0, 0, "ouest", BLUE)                    # 2 at the other end
    g.build(1, 0, "ouest", BLUE)
    g.e.call("placer_une_tour", (RED,))
    assert g.points(RED) == 3
    g.e.call("placer_une_tour", (RED,))
    assert g.points(RED) == 3 + 2, "2, not 2 + the Porte + the 3 ramparts back to the first tower"


def test_les_remparts_imagines_a_la_fin_ne_comptent_pour_aucune_tour():
    """The ramparts that close the wall at the end come after the last tower (decision tour_à_son_bout)."""
    g = Walls()
    g.at_pile(3)
    g.block(range(0, 2), range(0, 3))
    g.gate(0, 0, "nord")
    g.build(0, 1, "nord")
    before = dict(g.st.vars["depuis_la_tour"])
    g.e.call("fin_du_jeu", ())
    assert g.quantity("rempart_fermé") and len(g.st.zones["enceinte"]) > 2
    assert g.st.vars["depuis_la_tour"] == before


@pytest.mark.parametrize("left_in_pile_1, walls", [(1, False), (0, True)])
def test_la_derniere_tuile_de_la_pile_1_declenche_la_construction(left_in_pile_1: int, walls: bool):
    """« Dès que la dernière tuile de la pile 1 a été prise, on passe à la pile 2 » (decision
    remparts_dès_la_dernière_tuile_de_la_pile_1): the tile that emptied pile 1 and finishes an occupied road
    brings the Porte out; one tile earlier it does not."""
    g = Walls()
    g.e.agents = [RandomAgent(1), RandomAgent(2)]
    pile = g.st.zone("piles", "première")
    for t in list(pile)[:-1 - left_in_pile_1]:
        g.st.put(t, "écartées", None, "top")
    g.e.call("tirer", ())                           # the player takes a tile: the last one, or the one before
    assert g.quantity("phase") == (2 if walls else 1)
    g.lay("Impasse", 0, 0, 3)
    g.follower(RED, 0, 0, "rue")
    g.lay("Rue droite", 0, 1, 1)
    g.lay("Impasse", 0, 2, 1, player=BLUE)
    g.last(0, 2)
    g.e.call("évaluer_la_tuile", (BLUE,))
    assert g.points(RED) == 3
    assert g.st.vars["porte_posée"] is walls


# ==================================================================== beyond the ramparts


def test_aucune_tuile_au_dela_d_un_rempart_en_ligne_droite():
    """« aucune tuile ne peut être mise au-delà des remparts » (decision au_delà_en_ligne_droite): behind a
    rampart in line, however far."""
    g = Walls()
    g.at_pile(2)
    g.block(range(0, 2), range(0, 3))
    g.gate(0, 1, "nord")
    for cell in ((-1, 1), (-3, 1)):
        assert g.quantity("au_delà", g.cell(*cell)), cell
    assert not g.quantity("au_delà", g.cell(-1, 0)), "beside the rampart's line: the city may still grow there"
    g.lay_free(-1, 0)


def test_la_ville_ne_contourne_pas_un_rempart():
    """(decision au_delà_en_ligne_droite) The city passes the Porte's line on its left: on its right, beyond
    that line, no tile may go."""
    g = Walls()
    g.at_pile(2)
    g.block(range(0, 1), range(-1, 3))
    g.lay_free(-1, -1)
    g.gate(0, 1, "nord")
    assert not g.quantity("au_delà", g.cell(-2, -1))
    assert g.quantity("au_delà", g.cell(-1, 2)), "beyond the line, on the other side"
    tile = next(t for n in ROAD_FREE for t in g.e.instances[g.e.def_ids[n]] if g.st.where[t][0] != "posées")
    g.st.put(tile, "tirée", None, "top")
    g.st.vars["tuile_posée"] = False
    assert g.e.legal("poser", (RED, tile, g.cell(-1, 2), 0))[1] == ["pas_au_delà_des_remparts"]


def test_un_rempart_n_a_rien_de_la_ville_derriere_lui():
    """« aucune tuile ne peut être mise au-delà des remparts »: no rampart with a tile behind it, in line."""
    g = Walls()
    g.at_pile(2)
    g.lay_free(0, 0)
    g.block(range(-2, 1), range(1, 2))              # a column, then a tile left of its top: a gap at (-1, 0)
    g.lay_free(-2, 0)
    assert g.can("poser_la_porte", 0, 0, "nord")[1] == ["rien_au_delà_du_rempart"]
    assert g.can("poser_la_porte", -2, 0, "nord")[0]


def test_un_rempart_ne_coupe_pas_la_ville():
    """(decision rempart_autour_de_la_ville) The city passes the line of the north side of (0, 1) on both
    sides: a rampart there would stand in a notch of the city, with the city beyond it on both sides."""
    g = Walls()
    g.at_pile(2)
    g.block(range(0, 1), range(0, 3))
    g.lay_free(-1, 0)
    g.lay_free(-1, 2)
    assert g.can("poser_la_porte", 0, 1, "nord")[1] == ["la_ville_d_un_seul_côté"]
    assert g.can("poser_la_porte", -1, 0, "nord")[0]


def test_un_rempart_n_est_pas_au_dela_d_un_autre():
    """(decision rempart_autour_de_la_ville) Turning away from the city at one end, the rampart would stand
    beyond the Porte, on the side the city does not pass."""
    g = Walls()
    g.at_pile(2)
    g.block(range(0, 1), range(0, 2))
    g.lay_free(-1, 1)                               # the city passes the line of the Porte on its right
    g.gate(0, 0, "nord")
    assert "pas_au_delà_d_un_rempart" in g.can("bâtir", -1, -1, "est")[1]
    assert g.can("bâtir", 0, -1, "nord")[0]


def test_un_rempart_reste_au_bord_de_l_aire_de_jeu():
    """(decision rempart_au_bord_de_l_aire_de_jeu) One row away from the tiles at most."""
    g = Walls()
    g.at_pile(2)
    g.block(range(0, 1), range(0, 1))
    g.gate(0, 0, "nord")
    g.build(-1, 1, "ouest")                         # turning away: one row above the tile
    assert g.can("bâtir", -2, 1, "ouest")[1] == ["au_bord_de_l_aire_de_jeu"]
    assert g.can("bâtir", -1, 1, "nord")[0]


# ==================================================================== the end of the game


def test_fin_le_dernier_rempart_est_pose():
    """« Soit... le dernier rempart est posé, »"""
    g = Walls()
    g.at_pile(3)
    g.block(range(0, 3), range(0, 3))
    g.gate(0, 0, "nord")
    for w in [w for w in g.st.zones["remparts_en_réserve"] if g.e.show_card(w) == "Rempart"][1:]:
        g.st.put(w, "écartées", None, "top")
    g.build(0, 1, "nord")
    g.e.call("vérifier_la_fin", ())
    assert g.walls_left() == 0 and g.st.vars["fin"] == "dernier_rempart_posé"


def test_fin_la_derniere_tuile_est_posee():
    """« Soit... la dernière tuile est posée »"""
    g = Walls(2, scripts=[[], []])
    g.agents[:] = [RandomAgent(1), RandomAgent(2)]
    g.at_pile(3)
    g.lay("Quartier", 0, 0)
    for t in list(g.st.zone("piles", "troisième"))[1:]:
        g.st.put(t, "écartées", None, "top")
    g.e.call("tour", (RED,))
    assert g.quantity("tuiles_restantes") == 0 and g.st.vars["fin"] == "dernière_tuile_posée"


def test_fin_le_rempart_ferme_par_les_joueurs():
    """The players close the wall round a single tile: the ends meet (écart 0, « 5, ou moins de 5 »), nobody
    is offered a rampart any more, and the game ends."""
    g = Walls()
    g.at_pile(2)
    g.lay("Quartier", 0, 0)
    g.gate(0, 0, "nord")
    for side in ("est", "sud"):
        g.build(0, 0, side)
    assert not g.quantity("rempart_fermé") and g.quantity("écart") == 1
    g.build(0, 0, "ouest")
    assert g.quantity("rempart_fermé") and g.quantity("écart") == 0
    g.st.vars["à_bâtir"][BLUE] = 1
    g.e.call("vérifier_la_fin", ())
    assert g.st.vars["fin"] == "bouts_proches"


def test_dans_tous_les_cas_on_ferme_le_rempart_completement():
    """« Dans tous les cas, on ferme le rempart complètement. S'il reste des remparts, ils sont simplement
    posés » — by the shortest way round the city (decision fermeture_par_le_plus_court)."""
    g = Walls()
    g.at_pile(3)
    g.block(range(0, 2), range(0, 3))
    g.lay_free(-1, 1)
    g.gate(0, 0, "nord")
    g.build(0, 0, "ouest")
    needed = g.quantity("écart")
    assert needed == 2 * (3 + 3) - 2
    left = g.walls_left()
    g.e.call("fin_du_jeu", ())
    assert g.quantity("rempart_fermé") and len(g.st.zones["enceinte"]) == 2 + needed
    assert g.walls_left() == left - needed
    walls = [g.st.vars["bord_de"][w] for w in g.st.zones["enceinte"]]
    assert len(set(walls)) == len(walls)
    assert (g.cell(-1, 1), "nord") in walls and (g.cell(0, 1), "nord") not in walls, "round the tile on top"


def test_s_il_n_y_en_a_plus_on_imagine_que_le_rempart_est_ferme():
    """« S'il n'y en a plus, on imagine que le rempart est complètement fermé » — the imagined ramparts
    still finish the roads they close: « Rouge reçoit 1 point pour la route finie »."""
    g = Walls()
    g.at_pile(3)
    g.lay("Impasse", 0, 0, 3)                       # its road leaves it to the east
    g.follower(RED, 0, 0, "rue")
    g.gate(0, 0, "nord")
    for w in [w for w in g.st.zones["remparts_en_réserve"] if g.e.show_card(w) == "Rempart"]:
        g.st.put(w, "écartées", None, "top")
    g.e.call("fin_du_jeu", ())
    assert len(g.st.zones["enceinte"]) == 1 and g.st.vars["muré"].get(g.edge(0, 0, "est"))
    assert g.quantity("rempart_fermé") and g.points(RED) == 1


# ==================================================================== whole games


@pytest.mark.parametrize("players, seed", [(2, 3), (2, 31), (3, 7), (4, 3)])
def test_le_rempart_ne_reste_jamais_bloque(players: int, seed: int):
    """Over a whole random game: whenever the Porte is down and the wall is open, each of its two ends can be
    prolonged (some rampart there is legal); the wall never crosses itself; at the end it is closed."""
    e = engine()
    checked_points = []

    def check(decision) -> None:
        st = e.st
        if not st.vars["porte_posée"] or e.quantity("rempart_fermé", ()):
            return
        walls = [st.vars["bord_de"][w] for w in st.zones["enceinte"]]
        corners = [e.quantity("coin_horaire", (b,)) for b in walls]
        assert len(set(corners)) == len(corners), "the wall crosses itself"
        saved = st.vars["rempart_posé"]
        st.vars["rempart_posé"] = False
        st.version += 1
        try:
            for end in ("horaire", "antihoraire"):
                nxt = e.quantity("suites", (st.vars["bout"][end], end))
                assert any(e.legal("bâtir", (0, b))[0] for b in nxt), f"the {end} end is stuck"
        finally:
            st.vars["rempart_posé"] = saved
            st.version += 1
        checked_points.append(decision)
    play_observed(players, seed, check)
    assert checked_points, "the game never had an open wall: choose another seed"
    e.invalidate()
    assert e.st.vars["porte_posée"] and e.quantity("rempart_fermé", ())
    walls = [e.st.vars["bord_de"][w] for w in e.st.zones["enceinte"]]
    assert len(set(walls)) == len(walls)
