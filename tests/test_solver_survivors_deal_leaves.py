"""A known card that leaves a pile whose top is drawn on some paths only (checker/solver/deal.py's `_may_leave`):
the card is certainly in the pile (its membership is the constant true: no draw can reach it), so the pile's
order is said lost without a question, and the next draw from it, which reaches below that card, is said to take
any of its cards — where following the old order would draw the card that left.  The unrolled call, pinned to the
interpreter's seeded answers on both paths, reaches its state (tests/test_unroll.py's `compare`).  Survivor of
the blind mutation sample 9171 against the whole suite: deal.py:191 `return True` → `return False` (a card
certainly in the pile said unable to leave it), which no test executed.  And two draws from the pile, each on
the same paths only (`deux_fois`): the second adds to a count of cards taken that is already a term, and the
draw after them takes the third card on those paths, the first elsewhere.  Survivor of the same sample:
deal.py:224 `taken + n` → `taken - n` (the count taken back down: the draw after them takes the top card, which
went to the discard)."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.solver.encode import Encoder
from checker.solver.unroll import Unrolled
from test_solver_survivors_deal import GAME
from test_unroll import compare, started

LEAVES = GAME.replace('configuration "Tout"', '''procedure ôter(p: Player) {
  choose q in players by p
  if q == p { draw 1 from pioche to défausse }
  for c in pioche {
    if c.valeur == 1 { move c to défausse }
  }
  draw 3 from pioche to tas[p]
}

procedure deux_fois(p: Player) {
  choose q in players by p
  if q == p { draw 1 from pioche to défausse }
  if q == p { draw 1 from pioche to défausse }
  draw 1 from pioche to tas[p]
}

configuration "Tout"''')


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("tas") / "tas.rules"
    path.write_text(LEAVES, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    return result


def test_a_known_card_leaving_a_pile_drawn_on_some_paths_makes_its_order_unknown(game):
    e = started(game, 2, 1, "Tout")
    assert [e.show_card(c) for c in e.st.zones["pioche"]] == ["Un", "Deux", "Trois", "Quatre"]   # Un at the bottom
    t = Unrolled(Encoder(e, concrete=True), 4)
    t.procedure("ôter", (0,))
    [(_span, text)] = t.deal.lost
    assert text.startswith("a draw takes any of the pile's cards (pioche: its order is not known since "), text
    assert text.endswith(", where a card that may be in it leaves it, which one or whether depends on the path)")


@pytest.mark.parametrize("seed", [1, 5])        # Joueur 1 chooses themself (the top card drawn), or the other
def test_the_draw_after_it_takes_the_cards_the_interpreter_draws(game, seed):
    compare(started(game, 2, 1, "Tout"), "ôter", (0,), 4, seed)


@pytest.mark.parametrize("seed", [1, 5])        # Joueur 1 chooses themself (two cards drawn first), or the other
def test_a_draw_after_two_draws_made_on_the_same_paths_takes_the_card_the_interpreter_draws(game, seed):
    compare(started(game, 2, 1, "Tout"), "deux_fois", (0,), 4, seed)
