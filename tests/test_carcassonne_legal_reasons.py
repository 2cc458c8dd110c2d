"""`rulebook legal` names the rule that forbids a tile on an occupied cell (case_vide) or on a cell touching
no tile (toucher_par_un_côté): a move outside the offer's collections is judged by the rules on its own values,
not by a rule whose condition merely mentions the cell (routes_ininterrompues, whose condition is false)."""

from __future__ import annotations

from checker.solver.legal import Legality, Point
from test_carcassonne import RED, Game
from test_carcassonne_tools import _offer_in, _scopes


def _point() -> tuple[Game, Point, int]:
    g = Game()
    g.lay("Rue droite", 0, 0, 1)
    tile = g.e.instances[g.e.def_ids["Quartier"]][0]
    g.st.put(tile, "tirée", None, "top")
    g.st.vars["tuile_posée"] = False
    g.e.invalidate()
    return g, Point(_offer_in("tirer_et_poser"), RED, {"p": RED, "t": tile}), tile


def test_a_tile_on_an_occupied_cell_is_refused_by_case_vide():
    g, point, tile = _point()
    verdict = Legality(g.e, _scopes()).check(point, ("action", "poser", (RED, tile, g.cell(0, 0), 0)))
    assert verdict.status == "illegal" and [r.name for r in verdict.reasons] == ["case_vide"]


def test_a_tile_touching_no_tile_is_refused_by_toucher_par_un_cote():
    g, point, tile = _point()
    verdict = Legality(g.e, _scopes()).check(point, ("action", "poser", (RED, tile, g.cell(3, 3), 0)))
    assert verdict.status == "illegal" and [r.name for r in verdict.reasons] == ["toucher_par_un_côté"]
