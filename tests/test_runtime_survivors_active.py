"""A card named by its definition (its rules' `this` when it has several copies) works while one of its copies
does (checker/runtime/cards.py, ``is_active``).  Written for a survivor of the blind runtime sample -p
(bench/results/mutation-2026-11-28-p.txt): ``card is not None and card < 0`` → ``card is None and card < 0`` asked
the `active` quantity of the definition itself, not of its copies: a spec error there ("Écu" has 2 copies in
this game: index by a physical card, not by its name), where the rule applies until both copies are turned
over."""

from __future__ import annotations

import pytest

from conftest import engine_of

GAME = """
game "Jeu" { edition: "test"  players: 2..3  flow: partie }
kind Carte { force: Int in 0..9  copies: Int = 1  start: pioche  active: marche }
zone pioche: pile of Carte public
counter banque unlimited
counter bourse[Player] public
var retournée[Carte]: Bool = false public
quantity marche(c: Carte): Bool = not retournée[c]
action acheter(p: Player) "Acheter." { transfer 1 from bourse[p] to banque }
card Carte "Écu" { force: 1  copies: 2
  rule écu_interdit { forbid acheter(p) } }
card Carte "Pierre" { force: 2 }
procedure partie() { stop }
"""


@pytest.mark.parametrize("over, forbidden", [((), True), ((0,), True), ((1,), True), ((0, 1), False)])
def test_a_rule_of_a_card_with_two_copies_applies_while_one_copy_is_active(tmp_path, over, forbidden):
    e = engine_of(tmp_path / "jeu.rules", GAME)
    e.recording = False
    e.start({"Carte": ["Écu", "Pierre"]}, 2, 0, [])
    copies = e.instances[e.def_ids["Écu"]]
    assert len(copies) == 2 and e.def_ids["Écu"] not in copies        # the rule's `this` is the definition
    e.st.vars["bourse"].update({0: 5, 1: 0})
    for k in over:
        e.st.vars["retournée"][copies[k]] = True
    e.invalidate()
    assert e.legal("acheter", (0,)) == ((False, ["écu_interdit"], [], []) if forbidden else (True, [], [], []))
