"""The deal followed (the random source lost first, at a random subset, so that a shuffle is not followed) through the unrolled flow (checker/solver/deal.py, unroll.py's draws): what `lost` says when
a pile's order stops being known, and which piles stay known.  Survivors of the blind mutation sample -e:
unroll.py:537 (a draw under a constant guard), deal.py:80 (the pile named at a symbolic index) and others in
deal.py, each asserted here on a tiny game."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.runtime import Engine
from checker.solver.encode import Encoder
from checker.solver.unroll import Unrolled
from test_unroll import compare, started

TAS = """\
game "Tas" { players: 2..2  flow: partie }

kind Carte { valeur: Int in 1..4  start: pioche }
zone pioche: pile of Carte public
zone défausse: pile of Carte public
zone tas[Player]: pile of Carte public

card Carte "Un" { valeur: 1 }
card Carte "Deux" { valeur: 2 }
card Carte "Trois" { valeur: 3 }
card Carte "Quatre" { valeur: 4 }

procedure partie() { }
"""
GAME = TAS + """

procedure mêlée_puis_pioche() {
  choose s subset of pioche size 1..1 at random
  shuffle pioche
  draw 1 from pioche to défausse
}

procedure viser() {
  for p in players { draw 1 from pioche to tas[p] }
  choose s subset of pioche size 1..1 at random
  for p in players { shuffle tas[p] }
  for p in players {
    choose q in players by p
    draw 1 from tas[q] to défausse
  }
}

procedure dessous(p: Player, n: Int) {
  draw 2 from pioche to défausse
  choose c in défausse by p
  move c to bottom of pioche
  draw n from pioche to tas[p]
}

procedure poser(p: Player) {
  for r in players { draw 1 from pioche to tas[r] }
  draw 1 from pioche to tas[p]
  for r in players { draw 1 from tas[r] to défausse }
}

procedure donner(p: Player) {
  choose q in players by p
  draw 1 from pioche to tas[p]
  draw 1 from pioche to tas[q]
  for r in players { draw 1 from tas[r] to défausse }
}

procedure reprendre(p: Player) {
  choose q in players by p
  if q == p { draw 1 from pioche to défausse }
  choose c in défausse by p
  move c to tas[p]
  draw 1 from pioche to tas[p]
}

procedure écarter(p: Player) {
  choose c in pioche by p
  move c to défausse
  draw 1 from pioche to tas[p]
}

procedure écarter_deux(p: Player) {
  choose s subset of pioche size 2..2 by p
  move s to défausse
  draw 1 from pioche to tas[p]
}

procedure rendre_deux(p: Player) {
  draw 1 from pioche to défausse
  choose q in players by p
  if q == p { draw 2 from pioche to défausse }
  choose s subset of défausse size 1..2 by p
  move s to tas[p]
  draw 1 from pioche to tas[p]
}

configuration "Tout" { include Carte: "Un", "Deux", "Trois", "Quatre" }
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("tas") / "tas.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    return result


def _started(result, seed: int = 1) -> Engine:
    return started(result, 2, seed, "Tout")


def _unrolled(result, proc: str, budget: int = 4, args: tuple = ()) -> Unrolled:
    e = _started(result)
    t = Unrolled(Encoder(e, concrete=True), budget)
    t.procedure(proc, args)
    return t


def _lost(t: Unrolled) -> list[str]:
    return [text.split(":")[0] for _span, text in t.deal.lost]


def test_a_draw_on_every_path_from_a_shuffled_pile_is_said_to_take_any_card(game):
    """No condition before it (its guard is the constant true): the draw after the shuffle is said in `lost`."""
    assert _lost(_unrolled(game, "mêlée_puis_pioche")) == ["the random source is not followed from here",
                                                           "a shuffle is not followed (pioche",
                                                           "a draw takes any of the pile's cards (pioche"]


def test_a_draw_from_a_pile_a_player_chooses_names_the_zone_not_a_symbolic_index(game):
    """`tas[q]` with q a player's choice (a Z3 term): `lost` names the zone, as `moves` cannot write the index."""
    lost = _lost(_unrolled(game, "viser"))
    assert lost[:3] == ["the random source is not followed from here", "a shuffle is not followed (tas[Joueur 1]", "a shuffle is not followed (tas[Joueur 2]"]
    assert lost[3:] and set(lost[3:]) == {"a draw takes any of the pile's cards (tas"}, lost


@pytest.mark.parametrize("n,known", [(1, True), (2, True), (3, False)])
def test_a_draw_of_the_known_cards_above_an_unknown_bottom_stays_known(game, n, known):
    """Two cards stay in the pile, known, and the card a player chooses goes under them (which one depends on
    the path: the bottom is not known).  Drawing one or both known cards follows them; a third reaches the
    unknown bottom, and `lost` says so."""
    lost = _lost(_unrolled(game, "dessous", 4, (0, n)))
    assert lost == ([] if known else ["a draw takes any of the pile's cards (pioche"])


@pytest.mark.parametrize("p", [0, 1])
def test_a_card_put_on_one_players_pile_is_on_that_pile_only(game, p):
    """`poser`: each player's pile gets a card, then the next card goes on `tas[p]` for certain; then one card is
    drawn from each player's pile: the one put last on `tas[p]`, the first one on the other.  The unrolled flow reaches the interpreter's state (no decision: nothing to pin)."""
    compare(_started(game, 3), "poser", (p,), 2, 3)


def test_a_card_put_on_the_pile_a_player_chooses_makes_both_piles_unknown(game):
    """`donner`: a card goes on the chooser's pile, then which player's pile gets the next card is a choice (a Z3
    term): neither pile's order is known after it (the one made before, the one made after), so each draw from them takes any card, and `lost` says where each stopped being known."""
    lost = [text for _span, text in _unrolled(game, "donner", 4, (0,)).deal.lost]
    assert [x.split(":")[0] for x in lost] == ["a draw takes any of the pile's cards (tas[Joueur 1]",
                                               "a draw takes any of the pile's cards (tas[Joueur 2]"]
    assert all("where a card may be put on top of it on some paths only" in x for x in lost), lost


def test_a_card_chosen_from_the_discard_is_not_taken_for_one_still_in_the_pile(game):
    """`reprendre`: the pile's top card goes to the discard on some paths only, then a card of the discard is
    moved: on the paths where it is that top card, the card is no longer in the pile (Z3 proves it), so the pile's
    order stays known and the last draw follows it."""
    assert _lost(_unrolled(game, "reprendre", 4, (0,))) == []


def test_a_card_a_player_chooses_in_the_pile_leaves_it_so_its_order_is_not_known(game):
    """`écarter`: the card moved out of the pile is a player's choice (a Z3 term): Z3 finds that it may be any of
    the pile's cards, so the pile's order is not known after it, and the draw from it says so, with where."""
    [(_span, text)] = _unrolled(game, "écarter", 4, (0,)).deal.lost
    assert text.startswith("a draw takes any of the pile's cards (pioche: its order is not known since ")
    assert text.endswith(", where a card that may be in it leaves it, which one or whether depends on the path)")


def test_two_cards_a_player_chooses_in_the_pile_leave_it_so_its_order_is_not_known(game):
    """`écarter_deux`: two cards of the pile, a player's choice, moved at once (one question for the pile,
    `Deal.none_inside`): Z3 finds that they may be in it, so its order is not known after the move and the draw
    from it says so.  Survivors of the blind sample -h: deal.py:173 (the pile's cell asked of another zone) and
    deal.py:175 (`not` removed: a pile the cards may be in taken for one they are not in), not run by the set."""
    [(_span, text)] = _unrolled(game, "écarter_deux", 4, (0,)).deal.lost
    assert text.startswith("a draw takes any of the pile's cards (pioche: its order is not known since ")
    assert text.endswith(", where a card that may be in it leaves it, which one or whether depends on the path)")


def test_two_cards_chosen_from_the_discard_are_not_taken_for_cards_still_in_the_pile(game):
    """`rendre_deux`: the pile's two top cards go to the discard on some paths only, then cards of the discard
    move at once: Z3 proves that none of them is still in the pile, so its order stays known — in one question
    for the pile (`none_inside`), not one per card that may be there: two questions in all (the other one:
    whether the pile's first top card can be in the chosen cards, on its own).  Survivor of the blind sample -h:
    deal.py:173 (0 → 1: the pile's cell asked of no zone, so each of the two cards is asked on its own: 3)."""
    t = _unrolled(game, "rendre_deux", 4, (0,))
    assert _lost(t) == [] and t.questions == 2


EMPTYING = """procedure vider(p: Player) {
  for r in players { draw 1 from pioche to tas[r] }
  move tas[p] to défausse
  draw 1 from tas[p] to pioche
}

"""


@pytest.mark.parametrize("p,seed", [(0, 1), (1, 2)])
def test_the_cards_of_a_pile_moved_whole_leave_that_pile(tmp_path, p, seed):
    """`vider`: a card on each player's pile, then `move tas[p]` (the pile moved whole, from a known place): its
    card leaves that pile, so the draw from it after takes nothing, as in the interpreter (the other player's
    pile keeps its card), and no pile's order is lost.  Survivor of the blind mutation sample -l (deal.py:128
    `!=` → `==`: the moved pile skipped as if it were another one, its card still drawn from it)."""
    path = tmp_path / "tas.rules"
    path.write_text(GAME.replace('configuration "Tout"', EMPTYING + 'configuration "Tout"'), encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    t = compare(started(result, 2, seed, "Tout"), "vider", (p,), 2, seed)
    assert _lost(t) == []


RETURNING = """procedure rendre_filtrées(p: Player) {
  choose q in players by p
  if q == p { draw 1 from pioche to tas[p] }
  draw 2 from pioche to défausse
  move filter(c in défausse where c.valeur > 0) to tas[p]
  draw 1 from pioche to tas[p]
}

"""


def test_cards_of_a_collection_moved_on_every_path_are_asked_of_the_pile_at_once(tmp_path):
    """`rendre_filtrées`: which two cards the pile's top gives the discard depends on a choice, then the discard's
    cards move at once, on every path (the statement's guard is the constant true): Z3 proves that none of them is
    still in the pile — one question for the pile (`Deal.none_inside`), not one per card that may be there — and
    its order stays known.  Survivor of the blind solver sample h171 (seed 7171): unroll.py:620 `not removed @1`
    (`not (is_const(guard) and guard)`: a move on every path skips the one question, and the cards are asked of
    the pile one by one: 3 questions, the same answer).  The sample counted it a timeout (its covering tests
    passed; their whole files ran past 600 s at load ~9)."""
    path = tmp_path / "tas.rules"
    path.write_text(GAME.replace('configuration "Tout"', RETURNING + 'configuration "Tout"'), encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    e = started(result, 2, 1, "Tout")
    t = Unrolled(Encoder(e, concrete=True), 4)
    t.procedure("rendre_filtrées", (0,))
    assert _lost(t) == [] and t.questions == 1


DYEING = """enum Couleur { rouge, vert, bleu }
var couleur: Couleur = rouge

procedure teindre() {
  choose k in Couleur at random
  set couleur = k
  draw 1 from pioche to défausse
}

"""


def test_a_random_choice_among_an_enums_members_loses_the_random_source_and_goes_on(tmp_path):
    """`choose k in Couleur at random` (a name that is not a zone) from a known random source: the order of its
    options is not followed (unroll.py's `_ordered` knows a pile's and the seats'), so the random source is said
    lost there, and the unrolling goes on — the pile's order is still known for the draw after it.  Survivor of
    the blind solver sample h171 (seed 7171): unroll.py:578 `and` → `or` (`coll.id in zones or
    zones[coll.id].index is None`: a KeyError on the enum's name, an internal error), run by no test of the set."""
    path = tmp_path / "tas.rules"
    path.write_text(GAME.replace('configuration "Tout"', DYEING + 'configuration "Tout"'), encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    t = _unrolled(result, "teindre", 4, ())
    assert _lost(t) == ["the random source is not followed from here"]
