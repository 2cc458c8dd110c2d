"""An invariant no state meets (its condition folds to false: the spec contradicts itself) makes every rule dead:
no state of a legal game reaches any rule.  The invariants' template (checker/solver/template.py, `Invariants.into`)
translated each formula into the question's context, a constant (a Python bool) too: an AttributeError, an internal
error, on the first question whose model the invariants were asked of.  And the lazy search's `Assumed.extra`
(checker/solver/search.py) must assert such a constant as false: survivor of the blind mutation sample 9171 against
the whole suite, search.py:111 `z3.BoolVal(False)` → `z3.BoolVal(True)` (the invariant dropped: every rule said
live, on states no game has)."""

from __future__ import annotations

import pytest

from checker.conflicts.questions import Search
from checker.front.check import check_paths
from test_conflicts import SPICES

NEVER = ('invariant jamais { require 1 == 2 message "jamais" }\n'
         'rule cannelle_interdite { forbid acheter(p, l) when l == "Cannelle" }\n')


@pytest.mark.parametrize("lazy", [True, False])
def test_an_invariant_no_state_meets_leaves_no_rule_alive(tmp_path, lazy):
    house = tmp_path / "maison.rules"
    house.write_text(NEVER, encoding="utf-8")
    result = check_paths([SPICES, house])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    search = Search(result.typed)
    search.lazy = lazy
    dead = {f.rules[0]: f.message for f in search.dead_rules()}
    rules = {"payer", "un_lot_par_épice", "marchand_de_safran", "remise", "cannelle_interdite"}
    assert set(dead) == rules
    assert dead["cannelle_interdite"] == (
        "cannelle_interdite can never apply: no well-formed state meets its condition")


def test_without_the_invariant_the_same_rules_can_apply(tmp_path):
    house = tmp_path / "maison.rules"
    house.write_text(NEVER.split("\n", 1)[1], encoding="utf-8")
    result = check_paths([SPICES, house])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    assert Search(result.typed).dead_rules() == []
