"""The spec's `constraint`s over every selection of cards at once (checker.solver.selection): Z3 finds a
selection exactly when a configuration of those cards would pass `rulebook check`."""

from __future__ import annotations

import pytest
import z3

from checker.front.configurations import ConfigEvalError
from checker.solver.selection import Selected, legal_selection
from conftest import bundled


def _selectable(cards, players):
    program = bundled().program
    s = z3.Solver()
    s.add(*legal_selection(program, Selected(program), players, cards))
    return s.check()


@pytest.mark.parametrize("cards, players, expected", [
    (["Empereur"], 2, z3.unsat),            # empereur_pas_à_deux_joueurs
    (["Empereur"], 3, z3.sat),
    (["Empereur", "Roi"], 4, z3.unsat),     # un_personnage_par_rang: both are of rank 4
    (["Reine"], 4, z3.unsat),               # reine_cinq_joueurs_ou_plus
    (["Reine", "Empereur"], 5, z3.sat),
])
def test_the_constraints_decide_which_cards_a_game_can_hold(cards, players, expected):
    assert _selectable(cards, players) == expected


def test_a_symbolic_player_count_takes_the_least_the_cards_allow():
    n = z3.Int("player_count")
    program = bundled().program
    s = z3.Optimize()
    s.add(n >= 2, n <= 8, *legal_selection(program, Selected(program), n, ["Reine"]))
    s.minimize(n)
    assert s.check() == z3.sat and s.model()[n].as_long() == 5


def test_a_constraint_the_encoding_cannot_weigh_is_an_error_not_a_guess(tmp_path):
    from checker.front.check import check_paths
    from conftest import ROOT
    house = tmp_path / "contrainte.rules"
    house.write_text("constraint rang_maximal {\n  require max(c in selected(Character): c.rank) <= 9\n}\n",
                     encoding="utf-8")
    result = check_paths([ROOT / "spec" / "citadelles", house])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    with pytest.raises(ConfigEvalError, match="cannot be weighed on every selection"):
        legal_selection(result.program, Selected(result.program), 4, [])
