"""The unrolled flow (checker/solver/unroll.py over transition.py's statements) on an optional choice
(`choose … optionally`): each player may take a card of the pile or nothing; Z3's path, pinned to the
interpreter's seeded answers (tests/test_unroll.py's `compare`), reaches the interpreter's state.  Survivor of the
blind mutation sample -e: transition.py's optional `choose` (its bound `picked → some option`) was executed by
no test of the solver set."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.runtime import Engine
from test_unroll import compare, run_interpreter, started

GAME = """\
game "Cueillette" { players: 2..2  flow: partie }

kind Carte { valeur: Int in 1..3  start: pioche }
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
var pris: Int = 0

card Carte "Un" { valeur: 1 }
card Carte "Deux" { valeur: 2 }
card Carte "Trois" { valeur: 3 }

procedure partie() {
  for p in players {
    choose c in pioche where c.valeur >= 2 by p optionally
    move c to main[p]
    set pris = pris + c.valeur
  }
}

procedure compter() {
  let n = 0
  for c in pioche { set n = n + c.valeur }
  set pris = n
}

configuration "Tout" { include Carte: "Un", "Deux", "Trois" }
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("cueillette") / "cueillette.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    return result


def _started(result, seed: int) -> Engine:
    return started(result, 2, seed, "Tout")


@pytest.mark.parametrize("budget,seed", [(0, 1), (1, 2), (2, 3), (2, 4), (2, 5), (2, 8)])
def test_an_optional_choice_is_a_decision_whose_nothing_skips_the_rest_of_its_block(game, budget, seed):
    e = _started(game, seed)
    compare(e, "partie", (), budget, seed)


def test_nothing_and_a_card_are_both_paths_of_an_optional_choice(game):
    """Over both decisions: the interpreter's seeds give some games where a player takes nothing and some where
    both take a card, and the encoding follows each (both asked; nothing stops the block, so `pris` is the sum
    of the cards taken only)."""
    answers = set()
    for seed in range(1, 13):
        e = _started(game, seed)
        _, log, stopped = run_interpreter(e, "partie", (), 2, seed)
        assert not stopped and len(log) == 2
        answers.add(tuple(isinstance(a, int) for a in log))
        compare(_started(game, seed), "partie", (), 2, seed)
    assert len(answers) >= 2, answers


def test_a_name_a_loop_sets_keeps_its_last_value_after_the_loop(game):
    """`compter`: `set n = n + c.valeur` in a loop over the pile; after it, n is the sum (6), written to `pris`
    (transition.py's `for`: what the body binds stays bound after it).  Survivor of sample -e: transition.py:696
    (now :703), a changed name not carried out of the loop."""
    e = _started(game, 1)
    t = compare(e, "compter", (), 0, 1)
    assert any(key == ("var", "pris", None) for key in t.store.writes)
