"""Tests written for the survivors of the mutation sample of checker/conflicts/instances.py (h153, seed 153,
bench/results/mutation-2026-11-29-h153.txt): the effect with one unknown per quantifier, where the exchange of
tests/test_effects_instances.py does not look."""

from __future__ import annotations

from test_effects_instances import CUEILLETTE, _search

# the `choose`'s `where` is what makes the payment safe: the lot chosen is one the player can pay
PAIEMENT = """
card Lot "Muscade" {
  épice: cannelle
  prix: 3
  power payer_un_lot "Payer un lot de l'étal que l'on peut payer." {
    choose l in étal where any(q in players where any(m in étal where q == me and m == l and bourse[q] >= l.prix))
    transfer l.prix from bourse[me] to réserve
  }
}
"""


def test_the_unknown_of_a_choose_is_held_to_its_where(tmp_path, monkeypatch):
    """With one unknown for the `choose`, the unknown must still make its `where` hold: the lot paid for is one the
    player can pay, so the transfer never fails — proved, no finding (an unknown free of its `where` could be a lot
    the player cannot pay, and the search would not prove the move)."""
    search, label = _search(tmp_path, PAIEMENT, monkeypatch)
    assert search.effect_failures({label}) == []


def test_a_choose_whose_where_asks_no_any_is_kept_exact(tmp_path, monkeypatch):
    """The procedure's `choose` asks no `any` (`where l.prix >= 1`): it stays exact, so it cannot stop while the
    stall has a lot (the `requires` asks for one) and the move, paid only after it, never fails — proved.  (The
    same `choose` as one unknown may stop the procedure: tests/test_effects_instances.py's « cueillette », undecided.)"""
    text = CUEILLETTE.replace("choose l in étal where any(q in players where q != p and bourse[q] >= l.prix)",
                              "choose l in étal where l.prix >= 1")
    assert text != CUEILLETTE
    search, label = _search(tmp_path, text, monkeypatch)
    assert search.effect_failures({label}) == []


def test_an_any_whose_body_is_a_comparison_is_that_comparison_of_its_unknown(tmp_path, monkeypatch):
    """`any(q in players where bourse[me] >= l.prix)`: its body, a comparison (no `and`, `or` or `any` to open),
    is encoded as it is, of the unknowns: the lot chosen is one the player can pay, the transfer never fails."""
    text = PAIEMENT.replace("any(q in players where any(m in étal where q == me and m == l and bourse[q] >= l.prix))",
                            "any(q in players where bourse[me] >= l.prix)")
    assert text != PAIEMENT
    search, label = _search(tmp_path, text, monkeypatch)
    assert search.effect_failures({label}) == []
