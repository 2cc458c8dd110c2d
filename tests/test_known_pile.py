"""A tiny game of a pile whose order is known, searched by the solver (checker.solver: deal, unroll, transition)
and written back as text (command's `moves`, as_example's witness blocks) — the cases random play of the
bundled games does not reach: a card moved out of the pile for certain before a draw, a pile moved whole, a
power on the game's first physical card (instance 0), an offer cut unconditionally, a witness stopped at a
choice, an action argument that is a record with an accented field, a rule comparing two zones explained; and the
witness minimiser (checker.solver.minimise) on an objective the constraints do not mention."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from checker.front.check import check_paths
from checker.runtime import Engine
from checker.solver.encode import Encoder
from checker.solver.explain import explain
from checker.solver.transition import Transition
from checker.solver.unroll import Unrolled
from test_unroll import compare, run_interpreter, started

PILE = """\
game "Pioche" { players: 2..2  flow: partie }

enum Côté { nord, sud }
record Marque { côté: Côté, rang: Int }

kind Carte { valeur: Int in 1..4  start: pioche }
zone pioche: pile of Carte public
zone défausse: pile of Carte public
zone main[Player]: set of Carte public
zone tas[Player]: pile of Carte public
var vus: Int = 0

action piocher(p: Player) "Piocher toute la pile." { draw 4 from pioche to main[p] }
action marquer(p: Player, m: Marque) "Marquer." { set vus = vus + m.rang }

card Carte "Un" {
  valeur: 1
  power compter "Compter." {
    limit once per game
    set vus = vus + 1
  }
}
card Carte "Deux" { valeur: 2 }
card Carte "Trois" { valeur: 3 }
card Carte "Quatre" { valeur: 4 }

procedure partie() {
  for c in pioche { if c.valeur == 1 { move c to défausse } }
  for p in players { move défausse to main[p] }
  for p in players { move main[p] to défausse }
  for p in players {
    offer p {
      piocher(p)
      powers of défausse
      finish "Passer"
    }
  }
  move pioche to défausse
}

procedure départ() {
  for p in players {
    choose c in pioche by p
    move c to main[p]
  }
}

rule pas_en_double { forbid marquer(p, m) when main[p] == défausse }

procedure hasard() {
  choose s subset of pioche size 1..1 at random
  log "tiré : {0}", s
  shuffle pioche
  for p in players {
    choose c in pioche where c.valeur <= 2 by p
    move c to main[p]
  }
  draw 1 from pioche to défausse
}

procedure mêlée() {
  choose s subset of pioche size 1..1 at random
  for p in players { draw 1 from pioche to tas[p] }
  for p in players { shuffle tas[p] }
}

procedure paquet() {
  for p in players {
    choose s subset of pioche size 1..2 by p
    for c in s { move c to main[p] }
  }
}

procedure seul() {
  for c in pioche { if c.valeur == 1 { move c to défausse } }
  for p in players {
    if count(x in défausse) >= 1 {
      choose s subset of défausse size 1..2 by p
      for c in s { move c to main[p] }
      choose d in main[p] by p
      move d to défausse
    }
  }
}

configuration "Tout" { include Carte: "Un", "Deux", "Trois", "Quatre" }
"""


@pytest.fixture(scope="module")
def pile(tmp_path_factory):
    path = tmp_path_factory.mktemp("pioche") / "pioche.rules"
    path.write_text(PILE, encoding="utf-8")
    result = check_paths([path])
    assert result.typed is not None
    return result


def _started(result, seed: int) -> Engine:
    return started(result, 2, seed, "Tout")


def test_the_set_up_puts_the_first_card_at_the_bottom_as_instance_0(pile):
    """What the tests below rely on: « Un » is instance 0, at the bottom of the pile, under three others."""
    e = _started(pile, 1)
    assert e.st.zones["pioche"] == [0, 1, 2, 3]
    assert [e.def_names[e.defs[i]] for i in range(4)] == ["Un", "Deux", "Trois", "Quatre"]


@pytest.mark.parametrize("seed", [1, 4])
def test_a_card_moved_out_of_a_known_pile_for_certain_is_not_drawn_after(pile, seed):
    """« Un » leaves the pile for certain (a constant card, a constant condition) before a draw of 4 from the
    3 cards left: the deal must drop it from the pile, or the encoding draws it into the hand while the
    interpreter has it in the discard.  On its way it goes to the first player's hand and back, moved with the
    whole zone each time (`move défausse to main[p]`, `move main[p] to défausse`: known to be in that pile).  Seed 1 draws first; seed 4 draws, then uses « Un »'s power (instance 0)
    from the discard; both paths end by moving the whole pile (each card known to be in it as it moves)."""
    e = _started(pile, seed)
    _, log, _ = run_interpreter(e, e.flow, (), 2, seed)
    assert [m[0] for m in log] == (["action", "finish"] if seed == 1 else ["action", "power"])
    t = compare(e, e.flow, (), 2, seed)
    assert t.deal is not None and t.deal.lost == []


def test_the_power_of_the_first_physical_card_is_offered(pile):
    """Instance 0 is a card, not a definition id: its power is offered at every offer of the unrolled flow."""
    e = _started(pile, 1)
    t = Unrolled(Encoder(e, concrete=True), 2)
    t.procedure(e.flow, ())
    offers = [a.choice for a in t.asked if a.choice.kind == "offer"]
    assert offers
    for c in offers:
        powers = [o for _, o in c.options if o[0] == "power"]
        assert [(o[1].name, o[2]) for o in powers] == [("compter", 0)]


def test_an_offer_reached_on_every_path_is_a_cut_and_nothing_after_it_is_encoded(pile):
    """A single transition that stops at offers: the first offer is reached unconditionally, so it is cut with
    the condition True, and the pile's move after the offers is not encoded (the path stopped there)."""
    e = _started(pile, 1)
    t = Transition(Encoder(e, concrete=True), cut_at_offers=True)
    t.procedure(e.flow, ())
    assert [(c[0], c[2]) for c in t.cuts][:1] == [(True, "an offer (a decision point)")]
    assert t.running is False
    assert not [k for k in t.store.writes if k[0] == "in" and k[1] == "défausse" and k[3] != 0]


def test_a_witness_stopped_at_a_choice_says_an_example_cannot_start_there(pile):
    """A witness at a `choose` (not an offer): its example block says where it stops and why it cannot."""
    from checker.solver.as_example import setup_state, witness_example
    from checker.solver.scopes import Scopes
    engine = Engine(pile.typed)
    engine.flow = "départ"            # the first decision of this procedure is a player's choice
    state = setup_state(pile, engine, Scopes(pile.typed), 2, "Tout")
    assert state["decision"]["kind"] == "choose"
    block = witness_example(pile, state, "témoin", [])
    assert [n for n in block.notes if n.startswith("the witness stops at a choose (")], block.notes


def test_moves_writes_a_record_argument_with_its_accents(pile):
    """`rulebook moves` shows an action's arguments; a record is written as JSON, its accents as they are."""
    from checker.solver.command import describe_move
    from checker.solver.statefile import _Values
    e = _started(pile, 1)
    loaded = SimpleNamespace(engine=e, values=_Values(e), choose_type=None)
    shown = describe_move(loaded, ("action", "marquer", (0, ("sud", 2))))
    assert shown == 'marquer(Joueur 1, {"côté": "sud", "rang": 2})'


def test_a_comparison_of_two_zones_is_explained_by_the_names_it_reads_not_by_its_collections(pile):
    """`legal`'s explanation of `main[p] == défausse` (true: both empty at the set-up): the player it reads is
    shown; the two sides are collections, which are not values an explanation shows."""
    e = _started(pile, 1)
    enc = Encoder(e, concrete=True)
    rule = pile.program.rules["pas_en_double"]
    head = rule.heads[0]
    assert explain(enc, head.when, enc.rule_env(rule, head, (1, ("nord", 0)))) == [("p", "Joueur 2")]


def test_the_smallest_model_reads_an_objective_the_constraints_leave_free_at_its_least_value():
    """Objectives minimised in turn: one no constraint mentions is read as Z3 completes it (0, its floor here:
    no check needed), the next is pushed down to its bound (x >= 3) in two checks."""
    import z3
    from checker.solver.minimise import smallest
    s = z3.Solver()
    x, y = z3.Int("x"), z3.Int("y")
    s.add(x >= 3, x <= 9)
    s.add(x == 9)
    assert s.check() == z3.sat
    model = s.model()
    s = z3.Solver()
    s.add(x >= 3, x <= 9)
    found = smallest(s, model, [(y, 0), (x, 0)])
    assert found.values == [0, 3]


@pytest.mark.parametrize("budget", [0, 1])
def test_a_random_subset_stops_the_random_source_and_a_choice_of_two_is_a_decision(pile, budget):
    """`hasard`: a random subset is not followed, so the random source is not either, and the shuffle after it
    leaves the pile's order unknown (both said in `lost`, in that order); then each player chooses among the
    pile's cards of value at most 2 — two options for the first player, a decision point (budget 0: the
    search stops there, as the interpreter does); one for the second, taken without asking; last, a draw from
    the pile whose order is not known takes any of its cards (said too)."""
    e = _started(pile, 3)
    _, log, stopped = run_interpreter(e, "hasard", (), budget, 3)
    assert (len(log), stopped) == ((0, True) if budget == 0 else (1, False))
    if budget == 0:     # stopped at the choice: the state is the interpreter's there
        t = compare(e, "hasard", (), budget, 3)
    else:               # the draw takes any card (not pinned: which one is Z3's pick), so only what `lost` says
        t = Unrolled(Encoder(e, concrete=True), budget)
        t.procedure("hasard", ())
    assert [x[1].split(":")[0] for x in t.deal.lost] == ["the random source is not followed from here",
                                                         "a shuffle is not followed (pioche"] + \
        ([] if budget == 0 else ["a draw takes any of the pile's cards (pioche"])


def test_a_shuffle_not_followed_names_the_pile_of_the_player_it_shuffles(pile):
    """`mêlée`: the random source is lost, then each player's own pile (`tas[p]`, a zone indexed by player)
    is shuffled: `lost` names each pile with its index as `moves` writes it, not the zone alone."""
    e = _started(pile, 3)
    t = Unrolled(Encoder(e, concrete=True), 0)
    t.procedure("mêlée", ())
    shuffles = [x[1].split(":")[0] for x in t.deal.lost if x[1].startswith("a shuffle")]
    assert shuffles == ["a shuffle is not followed (tas[Joueur 1]", "a shuffle is not followed (tas[Joueur 2]"]


@pytest.mark.parametrize("budget,seed", [(0, 1), (1, 2), (2, 5), (3, 7), (6, 11), (6, 12)])
def test_a_players_subset_is_asked_one_pick_at_a_time_as_the_interpreter_asks(pile, budget, seed):
    """`paquet`: each player chooses one or two cards of the pile, one pick at a time, then whether to stop
    (asked once one is chosen and fewer than two); the unrolled flow asks the same questions in the same order
    and reaches the interpreter's state after ``budget`` decision points, whatever the seeded answers."""
    e = _started(pile, seed)
    compare(e, "paquet", (), budget, seed)


@pytest.mark.parametrize("budget", [0, 1])
def test_a_subset_with_one_card_to_pick_and_one_to_choose_is_no_decision(pile, budget):
    """`seul`: the first player must pick one or two of a discard holding one card: the pick is forced and
    nothing is asked (no decision point, as the interpreter counts them); then he chooses a card of his hand,
    which holds that card alone: one option, not asked either, and the card goes back to the discard."""
    e = _started(pile, 1)
    _, log, stopped = run_interpreter(e, "seul", (), budget, 1)
    assert (log, stopped) == ([], False)
    compare(e, "seul", (), budget, 1)
