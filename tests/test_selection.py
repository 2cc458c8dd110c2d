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


# A game of its own, each operator in a constraint: the symbolic selection (every selection at once, a
# symbolic player count) must read each constraint as the configuration checker reads it on one selection.
SMALL_GAME = """
game "Jeu" {
  edition: "test"
  players: 2..4
  flow: partie
}
kind Carte {
  force: Int in 0..9
  start: pioche
}
zone pioche: pile of Carte public
card Carte "Un" { force: 1 }
card Carte "Deux" { force: 2 }
card Carte "Trois" { force: 3 }
card Carte "Six" { force: 6 }
procedure partie() { stop }
constraint k_gt { require count(c in selected(Carte)) > player_count }
constraint k_ge { require count(c in selected(Carte)) >= player_count }
constraint k_lt { require count(c in selected(Carte)) < player_count }
constraint k_le { require count(c in selected(Carte)) <= player_count }
constraint k_eq { require count(c in selected(Carte)) == player_count }
constraint k_ne { require count(c in selected(Carte)) != player_count }
constraint k_arith { require sum(c in selected(Carte): c.force) * 2 - player_count >= 3 + -1 * 4 }
constraint k_if { require (if player_count > 2 then least(count(c in selected(Carte)), 2) else greatest(count(c in selected(Carte)), 3)) == 2 }
constraint k_any { require any(c in selected(Carte) where c.force > 2) or not all(c in selected(Carte): c.force < 3) }
constraint k_in { require "Un" in selected(Carte) and "Deux" not in filter(c in selected(Carte) where c.force != 1) }
constraint k_when { require count(c in selected(Carte) where c.force >= 2) == 2 when player_count == 3 }
"""


def test_every_operator_of_a_constraint_is_read_on_every_selection_as_on_one(tmp_path):
    import itertools

    from checker.front.check import check_paths
    from checker.front.configurations import Selection, evaluate
    from checker.solver.selection import _constraint
    path = tmp_path / "jeu.rules"
    path.write_text(SMALL_GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    program = result.program
    constraints = program.selection_constraints()
    assert len(constraints) == 11
    names = [c.name for c in program.cards.values()]
    n = z3.Int("player_count")
    selected = Selected(program)
    formulas = {c.name: _constraint(c, program, selected, n) for c in constraints}
    differ, holds, fails = [], set(), set()
    for players in (2, 3, 4):
        for k in range(len(names) + 1):
            for chosen in itertools.combinations(names, k):
                sel = Selection(players, {"Carte": chosen})
                pairs = [(n, z3.IntVal(players))] + [(selected.flags[x], z3.BoolVal(x in chosen)) for x in names]
                for c in constraints:
                    expected = bool(c.when is not None and not evaluate(c.when, program, sel, {})
                                    or evaluate(c.require, program, sel, {}))
                    f = formulas[c.name]
                    got = f if isinstance(f, bool) else z3.is_true(z3.simplify(z3.substitute(f, *pairs)))
                    if got != expected:
                        differ.append((c.name, players, chosen, expected))
                    (holds if expected else fails).add(c.name)
    assert differ == []
    assert holds == fails == set(formulas), "each constraint holds on some selections and fails on others"
