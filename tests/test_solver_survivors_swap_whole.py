"""A swap changes a cell's carried count as a whole (checker/solver/transition_statements.py `_swap_cards` records it
under its first move; transition_counts.Counts reads the record there and skips the swap's moves): one term per card
(`_swapped`: the cell gains the other card where only one of the two is in a zone), whatever the number of moves.
Without the record the moves are counted one by one — the same number (each move is of one card, so the count
follows the places exactly: tests/test_solver_survivors_swap_nowhere.py), written with a term for each card coming
in and one for each leaving, at every move: twice the terms here, which Z3 then reads across every later move.
A COST property, not a value one: the count is the sum over the places either way — and where both cards are known
in their zones, the count across the swap is the count before, so an invariant of the hands' counts across a swap
needs no question at all (the Théâtre's, below).
Survivor of the blind mutation sample 9171 (#106, open since the swap of a card in no zone became a failure,
f692a93): transition_statements.py `swaps[id(made[0])]` → `swaps[id(made[1])]` (the record keyed by the second
move, never found where the swap starts)."""

from __future__ import annotations

import z3

from checker.solver.encode import Encoder
from checker.solver.transition import Transition
from checker.solver.transition_counts import Counts
from test_solver_survivors_swap_nowhere import SEULEMENT
from test_swap_in_no_zone import SWAP, started_échange


def _summands(term) -> list:
    """The terms a sum adds or takes away (through `+` and `-`), each once as it appears."""
    if isinstance(term, int):
        return []
    if z3.is_add(term) or z3.is_sub(term):
        return [x for child in term.children() for x in _summands(child)]
    return [] if z3.is_int_value(term) else [term]


def test_a_swap_of_two_cards_adds_one_term_per_card_to_a_cells_count(tmp_path):
    e = started_échange(tmp_path, SWAP.format(placed="== 1") + SEULEMENT)[0]
    e.st.put(0, "main", 0, "top")               # the "Simple" in Joueur 1's hand, the "Autre" in Joueur 2's
    e.st.put(1, "main", 1, "top")
    t = Transition(Encoder(e, concrete=False), lazy_moves=True)
    _, before = Counts(t.store).count("main", 0)
    t.procedure("seulement_échanger", (), True, None)
    assert len(t.store.swaps) == 1 and len(t.store.moves) >= 2   # (a failure where a card is in no zone: symbolic)
    total, carried = Counts(t.store).count("main", 0)
    old = {x.get_id() for x in _summands(before)}
    new = [x for x in _summands(carried) if x.get_id() not in old]
    assert len(new) == 2, carried
    s = z3.Solver()                             # and the same number as the sum over the places
    s.add(*[c for c in t.constraints if not isinstance(c, bool)], total != carried)
    assert s.check() == z3.unsat


def test_the_theatres_exchange_keeps_each_players_count_without_a_z3_question():
    """Where it matters: the fan expansion's Théâtre exchanges two characters chosen from two hands (each known in
    its hand), so the record's change folds to nothing and each hand's count after the exchange is the count before
    — the invariant "each player's characters" is proven with no question to Z3.  Counted move by move (the
    mutant), the same invariant is proven too, with 8 questions (2.2 million Z3 steps, h186); and
    tests/fixtures/counts/donne_et_deux_échanges.rules takes 13.5 million steps instead of 6.7."""
    from checker.conflicts.inductive import broken_invariants
    from test_inductive_counts import _search
    search = _search("spec/citadelles", "spec/extension-fan")
    assert broken_invariants(search, only={'"Théâtre".théâtre_échanger'}) == []
    assert search.inductive["personnages_de_chaque_joueur"]["proven"] == ['"Théâtre".théâtre_échanger']
    assert (search.queries, search.unknowns) == (0, 0)
