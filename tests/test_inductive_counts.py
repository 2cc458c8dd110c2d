"""conflicts, *invariant broken* (docs/conflicts.md): the number of cards in a zone's cell carried across the moves
of a question (checker/solver/transition_counts.py) — equal to the sum over the cards' places it stands for, and
what lets Z3 see a pigeonhole that sum hides."""

from __future__ import annotations

from pathlib import Path

import z3

from checker.conflicts.inductive import broken_invariants
from checker.conflicts.questions import Search
from checker.front.check import check_paths
from checker.solver.transition_counts import exclusive

DEAL = Path("tests/fixtures/counts/distribution.rules")


def _search(*paths) -> Search:
    result = check_paths([Path(p) for p in paths])
    assert result.ok
    return Search(result.typed)


def test_a_deal_of_one_card_to_each_player_per_pass_is_proven_to_keep_the_hands_bounded():
    # sixty cards, four passes over the players: a hand's sum over the cards' places alone runs to Z3's step
    # limit (undecided on 6a54d72); the count carried across the moves gives it as a sum of ±1 per move
    search = _search(DEAL)
    assert broken_invariants(search, only={"distribuer"}, procedures=True) == []
    assert search.inductive["quatre_cartes_au_plus"]["proven"] == ["distribuer"]
    assert search.unknowns == 0


def test_only_moves_of_one_card_at_most_carry_the_count():
    x, y = z3.Ints("x y")
    assert exclusive({3: x == 3, 4: x == 4, 5: False})         # one chosen card: at most one test holds
    assert exclusive({7: True})
    assert not exclusive({3: x == 3, 4: y == 4})                # two terms: both may hold
    assert not exclusive({3: x == 3, 4: x == 3})
    assert not exclusive({3: z3.Bool("a"), 4: z3.Bool("b")})    # a havoc's unknown places


def _run_twice(search, name):
    """Procedure ``name`` encoded twice in a row on one transition of a fresh encoder (the second run reads the
    first's moves): (the encoder, the transition, the arguments' domain)."""
    from checker.solver.transition import Transition
    enc = search.encoder()
    t = Transition(enc, lazy_moves=True)
    args, domain = search.params_args(enc, name, search.p.procedures[name].params)
    t.procedure(name, args, True, None)
    t.procedure(name, args, True, None)
    return enc, t, domain


def test_the_count_carried_is_the_sum_over_the_places_it_stands_for():
    # a fact of the encoding, whatever the state and the choices: Z3 finds none where the two differ, after a
    # chosen card given to a player who is a term (its cell a test) and after a swap of two zones' cards
    from checker.solver.transition_counts import Counts
    search = _search("tests/fixtures/good/minimal_game.rules", "tests/fixtures/invariants/étrennes.rules")
    for name in ("étrenne", "étrenne_bornée"):
        _, t, _ = _run_twice(search, name)             # twice: the second move counts from the first's
        counts = Counts(t.store)
        differ = []
        for zone, keys in (("panier", range(4)), ("étal", [None])):
            for k in keys:
                total, carried = counts.count(zone, k)
                assert not total.eq(carried)        # carried across the moves, not the sum again
                differ.append(total != carried)
        s = z3.Solver()
        s.add(z3.Or(differ))
        assert s.check() == z3.unsat, name


def test_the_fan_expansions_theatre_is_proven_to_keep_each_players_count():
    # the exchange moves two chosen characters, each to the other's place: each player's count moves by -1 and +1;
    # over the 50 characters' places Z3 ran to its step limit on every seat, twice (undecided on 6a54d72)
    search = _search("spec/citadelles", "spec/extension-fan")
    assert broken_invariants(search, only={'"Théâtre".théâtre_échanger'}) == []
    assert search.inductive["personnages_de_chaque_joueur"]["proven"] == ['"Théâtre".théâtre_échanger']
    assert search.unknowns == 0


def test_a_list_of_seats_from_a_seat_that_is_a_term_is_proven_different_at_each_player_count():
    # position i of `seats_from(x)` is seat (x + i) mod n, n the player count (a term: every count at once); at
    # each count Z3 proves two positions in the game two seats, and the fact is said per count proven
    from checker.solver.formulas import _mod
    from checker.solver.transition_counts import distinct
    n, x = z3.Ints("player_count premier")
    seats = [(True if i < 2 else n > i, _mod(x + i, n, 8)) for i in range(8)]
    lemma = distinct(seats, n, 8, {})
    assert lemma is not None
    s = z3.Solver()
    s.add(n == 5, lemma, _mod(x + 1, n, 8) == _mod(x + 3, n, 8))     # two positions, one seat: not at 5 players
    assert s.check() == z3.unsat
    again = [(True, x), (True, x + 0)]                                  # the same seat twice: nothing proven
    assert distinct(again, n, 8, {}) is None
    assert distinct([(True, 0), (True, 1)], n, 8, {}) is None          # constants: nothing to say


def test_the_seats_facts_do_not_burden_the_question_whether_a_procedure_stops_with_an_error():
    # the fan's choix_standard: proven on 6a54d72 (1.3 s), undecided once the seats' distinct facts were added to
    # every question of its transition (the one whether it stops with an error ran out of Z3's steps); the facts
    # are implied, so asking that question without them loses and adds no model
    search = _search("spec/citadelles", "spec/extension-fan")
    broken_invariants(search, only={"choix_standard"}, procedures=True)
    assert search.inductive["personnages_de_chaque_joueur"]["proven"] == ["choix_standard"]
    assert search.unknowns == 0


def test_the_count_carried_across_a_swap_of_two_cards_is_the_sum_over_the_places():
    # a swap's moves are counted as a whole (each card takes the other's place: a cell's count changes only when one
    # of the two cards is in no zone); Z3 finds no well-formed state where count and sum differ, after any two lots
    # (on the stall, in a basket or nowhere, the same lot) and after a lot of each of two baskets, each swapped twice
    from checker.solver.transition_counts import Counts
    search = _search("tests/fixtures/good/minimal_game.rules", "tests/fixtures/counts/échange.rules")
    for name in ("échanger", "troquer"):
        enc, t, domain = _run_twice(search, name)
        assert len(t.store.swaps) == 2
        counts = Counts(t.store)
        differ = []
        for zone, keys in (("panier", range(4)), ("étal", [None])):
            for k in keys:
                total, carried = counts.count(zone, k)
                assert not total.eq(carried)
                differ.append(total != carried)
        s = z3.Solver()
        s.add(z3.Or(differ),
              *[f for f in [*domain, *t.constraints, *search.well_formed(enc)] if not isinstance(f, bool)])
        assert s.check() == z3.unsat, name



def _places_after(search, name: str, placed: bool, monkeypatch) -> tuple:
    """Each lot's place in each cell after ``name`` run twice (a swap reading a chosen lot's cell, or not), what the
    question would assume, and the transition."""
    from checker.solver import transition_statements
    with monkeypatch.context() as m:
        if not placed:
            m.setattr(transition_statements, "_placed", lambda t, card, guard: None)
        enc, t, domain = _run_twice(search, name)
        cells = {(z, k, i): z3.BoolVal(v) if isinstance(v := t.store.member(z, k, i), bool) else v
                 for z, keys in (("panier", range(4)), ("étal", [None])) for k in keys
                 for i in enc.kind_instances["Lot"]}
        facts = [f for f in [*domain, *t.constraints, *search.well_formed(enc)] if not isinstance(f, bool)]
        return cells, facts, t


def test_a_swap_reads_a_card_chosen_from_a_cell_there_and_moves_the_same_cards(monkeypatch):
    # where a swapped card was chosen from a cell, nothing moved since, and the swap's guard implies the choice, the
    # swap reads its place as that cell (no disjunction over every cell): Z3 finds no state where a lot's place after
    # two runs differs from the plain encoding's, nor where a basket's count differs from its sum; a lot moved
    # between its choice and the swap is read as before
    from checker.solver.transition_counts import Counts
    search = _search("tests/fixtures/good/minimal_game.rules", "tests/fixtures/counts/échange.rules")
    for name, known in (("troquer", True), ("troquer_peut_être", True), ("déplacer_puis_troquer", False),
                        ("échanger", False)):
        (mine, facts, t), (plain, plain_facts, _) = (_places_after(search, name, p, monkeypatch) for p in (True, False))
        somewhere = [x for swap in t.store.swaps.values() for x in swap[4:6]]     # each card in a zone of the kind
        assert len(somewhere) == 4 and all(x is True for x in somewhere) == known, name
        s = z3.Solver()
        s.add(z3.Or([z3.Xor(mine[k], plain[k]) for k in mine]), *facts, *plain_facts)
        assert s.check() == z3.unsat, name
        counts = Counts(t.store)
        s = z3.Solver()
        s.add(z3.Or([total != carried for total, carried in (counts.count("panier", k) for k in range(4))]), *facts)
        assert s.check() == z3.unsat, name


def test_a_summarised_deal_then_two_swaps_of_cards_chosen_from_hands_is_proven():
    # the shape of the fan's round (its draft summarised, then the Théâtre's exchanges): each hand after the swaps is
    # the count after the deal plus what each swap changes, which reads whether each card is in any cell — after
    # the first swap, a disjunction over every cell Z3 must refute (undecided on 0134a02: its step limit, ~40 s);
    # a card chosen from a hand is in that hand, so each swap changes no hand's count
    search = _search("tests/fixtures/counts/donne_et_deux_échanges.rules")
    assert broken_invariants(search, only={"distribuer", "manche"}, procedures=True) == []
    assert search.inductive["quatre_cartes_au_plus"]["proven"] == ["distribuer", "manche"]
    assert search.unknowns == 0


def test_a_swaps_guard_is_seen_to_imply_a_choice_only_where_it_does():
    # the guard of a statement after `choose` holds `not (reached and no option)` and what reached it: the choice was
    # made; a catch's disjunction is split; nothing else is taken (a sound test, not complete)
    from checker.solver.transition_statements import _implies
    body, run, some, other = z3.Bools("body running some other")
    reached = z3.And(body, run)
    after = z3.And(body, z3.And(run, z3.Not(z3.And(reached, z3.Not(some)))))
    chosen = z3.And(reached, some)
    assert _implies(after, chosen)
    assert _implies(z3.And(after, other), chosen)
    caught = z3.And(body, z3.Or(z3.And(run, z3.Not(z3.And(reached, z3.Not(some)))), z3.And(after, other)))
    assert _implies(caught, chosen)
    assert _implies(z3.Not(z3.Not(some)), some)
    assert not _implies(reached, chosen)                        # no option: nothing chosen
    assert not _implies(z3.And(body, z3.Or(run, other)), reached)
    loop = z3.And(z3.Not(z3.And(some, z3.Not(other))), z3.Not(z3.And(other, z3.Not(some))))
    assert not _implies(loop, some)                             # each needs the other: not taken
