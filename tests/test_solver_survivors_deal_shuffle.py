"""A shuffle of a pile whose order is no longer followed (checker/solver/deal.py's `Deal.shuffle`): it loses the
random source, and only a shuffle of a pile at an index that depends on the path loses the zone's other piles —
a pile at a known index (here `tas[p]`, `p` the procedure's argument) is that pile alone, and the others stay
followed.  Survivor of the blind mutation sample 7171 against the whole suite: deal.py:238 `index is not None
and not is_const(index)` → `or` (every other pile of the zone lost: a draw from the other player's pile said to
take any card, where the deal knows which)."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.solver.encode import Encoder
from checker.solver.unroll import Unrolled
from test_unroll import started

GAME = """\
game "Tas" { players: 2..2  flow: partie }

kind Carte { valeur: Int in 1..6  start: pioche }
zone pioche: pile of Carte public
zone défausse: pile of Carte public
zone tas[Player]: pile of Carte public

card Carte "Un" { valeur: 1 }
card Carte "Deux" { valeur: 2 }
card Carte "Trois" { valeur: 3 }
card Carte "Quatre" { valeur: 4 }
card Carte "Cinq" { valeur: 5 }
card Carte "Six" { valeur: 6 }

procedure partie() { }

procedure écarter_puis_mêler(p: Player) {
  for r in players { draw 2 from pioche to tas[r] }
  choose c in tas[p] by p
  move c to défausse
  shuffle tas[p]
  for r in players {
    if r != p { draw 1 from tas[r] to défausse }
  }
}

configuration "Tout" { include Carte: "Un", "Deux", "Trois", "Quatre", "Cinq", "Six" }
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("tas") / "tas.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    return result


@pytest.mark.parametrize("p", [0, 1])
def test_a_shuffle_of_a_pile_no_longer_followed_leaves_the_other_players_pile_followed(game, p):
    """Each player's pile gets two known cards; the card `p` chooses in their own pile leaves it (which one
    depends on the path: its order is no longer known), then that pile is shuffled (the random source is lost,
    said once) and the other player's top card is drawn: that pile was never touched, its order is known, and
    the draw takes its top card, the one the interpreter's deal put there."""
    e = started(game, 2, 1, "Tout")
    t = Unrolled(Encoder(e, concrete=True), 4)
    t.procedure("écarter_puis_mêler", (p,))
    assert [text.split(":")[0] for _span, text in t.deal.lost] == ["the random source is not followed from here"]
    other = t.deal.pile("tas", 1 - p)
    assert other is not None and len(other.cards) == 1
    assert t.deal.pile("tas", p) is None
