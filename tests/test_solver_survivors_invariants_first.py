"""A rule that applies only in games the configuration constraints forbid, found by a search that asserts the
invariants in a question's first check (`SymbolicSearch.lazy` off, as checker/conflicts/watched.py's
`invariants_first` sets it) rather than once a model breaks one: the same answer as the lazy search — dead, and
the constraints that forbid it named (checker/solver/search.py's `_legal_game`, where there is then no
`Assumed` to hold the invariants).  tests/test_conflicts.py's house rules on the spice market.  Survivor of the
blind mutation sample 9171 against the whole suite: search.py:526 `assumed is not None` → `is None` (an
AttributeError on None there: an internal error), which the suite reached only with a lazy search."""

from __future__ import annotations

import pytest

from checker.conflicts.questions import Search
from checker.front.check import check_paths
from test_conflicts import MUSCADE as HOUSE, SPICES


@pytest.mark.parametrize("lazy", [True, False])
def test_a_rule_only_forbidden_games_reach_is_dead_whether_the_invariants_come_first_or_not(tmp_path, lazy):
    house = tmp_path / "maison.rules"
    house.write_text(HOUSE, encoding="utf-8")
    result = check_paths([SPICES, house])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    search = Search(result.typed)
    search.lazy = lazy
    dead = {f.rules[0]: f for f in search.dead_rules()}
    assert set(dead) == {"muscade_à_quatre", "muscade_poivre_cannelle"}
    assert dead["muscade_à_quatre"].message == (
        "muscade_à_quatre can never apply: it applies only in games the configuration constraints forbid: "
        "pas_de_muscade_à_quatre")
    assert dead["muscade_poivre_cannelle"].message.endswith("forbid: trois_lots, muscade_avec_safran")
