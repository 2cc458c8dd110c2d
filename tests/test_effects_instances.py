"""A move whose effect is too large spelled out is asked again with one unknown per quantifier
(checker/conflicts/instances.py, issue 22): its *no* is a proof, its *yes* a failure only where the interpreter,
replaying the model, stops at the same statement — otherwise undecided, never a failure and never "safe".

The house card is an exchange of lots between baskets written as the 4th edition's Diplomate is (a `requires` and
`choose`s whose `where` asks `can` of every player and pair of lots); the limit of one encoding is lowered to what
the encoding with one unknown per quantifier needs, under what the exact one needs, as the Diplomate's exchange
is on the 4th edition (more than 200,000 elements spelled out, 3,332 with one unknown per quantifier)."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.solver.encode import Unsupported
from conftest import ROOT

MARKET = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"

TROC = """
action troquer(p: Player, a: Lot, q: Player, b: Lot) "Prendre le lot a du panier de q en lui cédant le lot b."
rule troc_du_sien { forbid troquer(p, a, q, b) when b is not in panier[p] }
rule troc_autre_panier { forbid troquer(p, a, q, b) when q == p or a is not in panier[q] }
rule troc_payé { forbid troquer(p, a, q, b) when bourse[p] < a.prix }
rule troc_sans_doublon { forbid troquer(p, a, q, b) when a.épice == b.épice }

card Lot "Muscade" {
  épice: cannelle
  prix: 3
  power troquer_un_lot "Échanger un lot de son panier contre un lot d'un autre panier, en payant son prix." {
    limit once per game
    requires any(q in players where any(a in panier[q] where any(b in panier[me] where can troquer(me, a, q, b))))
    choose b in panier[me] where any(q in players where any(a in panier[q] where can troquer(me, a, q, b)))
    choose q in players where q != me and any(a in panier[q] where can troquer(me, a, q, b))
    choose a in panier[q] where can troquer(me, a, q, b)
    do troquer(me, a, q, b)
    transfer PRIX from bourse[me] to bourse[q]
    swap a with b
  }
}
"""

# the procedure's `choose` always has an option (the `requires` asks the same), so the move never fails; but
# one unknown for it may leave it, stopping the procedure before the 5 it gives
CUEILLETTE = """
procedure cueillir(p: Player) {
  choose l in étal where any(q in players where q != p and bourse[q] >= l.prix)
  transfer 5 from réserve to bourse[p]
}

card Lot "Muscade" {
  épice: cannelle
  prix: 3
  power cueillir_puis_payer "Recevoir 5 en cueillant un lot de l'étal, puis payer 5." {
    requires any(l in étal where any(q in players where q != me and bourse[q] >= l.prix))
    call cueillir(me)
    transfer 5 from bourse[me] to réserve
  }
}
"""


def _search(tmp_path: Path, text: str, monkeypatch):
    """The conflict search on the market with ``text`` as a house file, the limit of one encoding lowered to
    what the effect of its power needs with one unknown per quantifier (which must be less than spelled out);
    and the power's label."""
    from checker.conflicts.effects import encode_effect
    from checker.conflicts.questions import Search
    from checker.front.check import check_paths
    import checker.solver.encode
    house = tmp_path / "maison.rules"
    house.write_text(text, encoding="utf-8")
    search = Search(check_paths([MARKET, house]).typed, None)
    card = search.p.cards["Muscade"]
    [power] = card.powers
    spent = {}
    for one in (False, True):
        enc = search.encoder()
        encode_effect(search, enc, power.name, power, card, one_instance=one)
        spent[one] = enc.spent
    assert spent[True] < spent[False], spent
    monkeypatch.setattr(checker.solver.encode, "MAX_ENCODING", spent[True])
    with pytest.raises(Unsupported, match="the limit of one Z3 encoding"):       # spelled out: undecided
        encode_effect(search, search.encoder(), power.name, power, card)
    return search, f'"Muscade".{power.name}'


def test_an_exchange_too_large_spelled_out_is_proved_with_one_unknown_per_quantifier(tmp_path, monkeypatch):
    """The price paid is what the rules ask the player to hold: no failure, proved (the exact encoding, at this
    limit, is undecided: « cannot encode the effect »)."""
    search, label = _search(tmp_path, TROC.replace("PRIX", "a.prix"), monkeypatch)
    assert search.effect_failures({label}) == []


def test_a_failure_found_with_one_unknown_per_quantifier_is_one_the_interpreter_confirms(tmp_path, monkeypatch):
    """Paying one more than the rules ask the player to hold fails; the model's choices, replayed, stop the
    interpreter at the same transfer."""
    search, label = _search(tmp_path, TROC.replace("PRIX", "a.prix + 1"), monkeypatch)
    [finding] = search.effect_failures({label})
    assert finding.kind == "effect-failure", finding
    assert "a transfer beyond what the counter holds" in finding.message
    assert finding.confirmed is True, finding.replayed
    assert "the interpreter stops: transfer of" in finding.replayed
    assert [s.split(" : ")[0] for s in finding.situation if s.startswith("choix")] == ["choix b", "choix q", "choix a"]


def test_a_model_the_interpreter_does_not_confirm_leaves_the_move_undecided(tmp_path, monkeypatch):
    """One unknown for the procedure's `choose` may stop it although it had an option: the model pays 5 without
    receiving them, and the interpreter, replaying it, completes the move — undecided, not a failure."""
    search, label = _search(tmp_path, CUEILLETTE, monkeypatch)
    [finding] = search.effect_failures({label})
    assert finding.kind == "unknown", finding
    assert finding.message.startswith(f"cannot tell whether the effect of {label} can fail here (a transfer beyond")
    assert "finds a failure the interpreter does not confirm (the interpreter completes the move" in finding.unknown
    assert "the limit of one Z3 encoding" in finding.unknown


# issue 22: a reaction's `requires` (the power reacting to the window the move opens) asks `can` of every player and
# pair of lots, as the exchange above; the move itself asks nothing.  The second try spells that `requires` out as
# the first did; the third makes its `any`s unknowns.  PAYÉ: what the reaction takes, 1 (what any exchange allowed
# guarantees the player holds) or 6 (more than any lot's price).
SALUT = """
window troc_possible(p: Player) "Un joueur salue le marché."
action troquer(p: Player, a: Lot, q: Player, b: Lot) "Prendre le lot a du panier de q en lui cédant le lot b."
rule troc_du_sien { forbid troquer(p, a, q, b) when b is not in panier[p] }
rule troc_autre_panier { forbid troquer(p, a, q, b) when q == p or a is not in panier[q] }
rule troc_payé { forbid troquer(p, a, q, b) when bourse[p] < a.prix }
rule troc_sans_doublon { forbid troquer(p, a, q, b) when a.épice == b.épice }

action saluer(p: Player) "Saluer le marché." {
  signal troc_possible(p)
}

card Lot "Muscade" {
  épice: cannelle
  prix: 3
  power commission "Payer une commission quand un troc est possible." {
    when troc_possible(p)
    limit unlimited
    mandatory
    requires any(q in players where any(a in panier[q] where any(b in panier[p] where can troquer(p, a, q, b))))
    transfer PAYÉ from bourse[p] to réserve
  }
}
"""

# a `not any` in a power's `requires`: spelled out by the second try as by the first
REFUS = """
action troquer(p: Player, a: Lot, q: Player, b: Lot) "Prendre le lot a du panier de q en lui cédant le lot b."
rule troc_du_sien { forbid troquer(p, a, q, b) when b is not in panier[p] }
rule troc_autre_panier { forbid troquer(p, a, q, b) when q == p or a is not in panier[q] }
rule troc_payé { forbid troquer(p, a, q, b) when bourse[p] < a.prix }

card Lot "Muscade" {
  épice: cannelle
  prix: 3
  power consolation "Recevoir 1 de la réserve quand aucun troc n'est possible." {
    requires not any(q in players where any(a in panier[q] where any(b in panier[me] where can troquer(me, a, q, b))))
    transfer 1 from réserve to bourse[me]
  }
}
"""


def _third_try(tmp_path: Path, text: str, label: str, monkeypatch):
    """The conflict search on the market with ``text`` as a house file, the limit of one encoding lowered to what
    the third try (checker.conflicts.instances.Weaker) needs for move ``label``: under what the second needs."""
    from checker.conflicts.effects import encode_effect
    from checker.conflicts.questions import Search
    from checker.front.check import check_paths
    import checker.solver.encode
    house = tmp_path / "maison.rules"
    house.write_text(text, encoding="utf-8")
    search = Search(check_paths([MARKET, house]).typed, None)
    decl = card = None
    if label.startswith('"'):
        card = search.p.cards[label[1:].split('".')[0]]
        decl = next(x for x in card.powers if x.name == label.split('".')[1])
    spent = {}
    for level in (0, 1, 2):
        enc = search.encoder()
        encode_effect(search, enc, label, decl, card, one_instance=level)
        spent[level] = enc.spent
    assert spent[2] < spent[1] <= spent[0], spent
    monkeypatch.setattr(checker.solver.encode, "MAX_ENCODING", spent[2])
    for level in (0, 1):
        with pytest.raises(Unsupported, match="the limit of one Z3 encoding"):
            encode_effect(search, search.encoder(), label, decl, card, one_instance=level)
    return search


def test_a_reaction_whose_requires_is_too_large_spelled_out_is_proved_with_its_any_unknowns(tmp_path, monkeypatch):
    """The commission of 1 is what any exchange the `requires` finds guarantees the player holds: no failure, proved
    by the third try (the second, spelling the reaction's `requires` out, is « cannot encode the effect »)."""
    search = _third_try(tmp_path, SALUT.replace("PAYÉ", "1"), "saluer", monkeypatch)
    assert search.effect_failures({"saluer"}) == []


def test_a_failure_in_a_reaction_found_by_the_third_try_is_one_the_interpreter_confirms(tmp_path, monkeypatch):
    """A commission of 6 is more than any lot's price: the model's state, replayed, stops the interpreter at the
    reaction's transfer."""
    search = _third_try(tmp_path, SALUT.replace("PAYÉ", "6"), "saluer", monkeypatch)
    [finding] = search.effect_failures({"saluer"})
    assert finding.kind == "effect-failure", finding
    assert finding.confirmed is True, finding.replayed


def test_an_any_under_not_too_large_spelled_out_is_one_unknown_in_the_third_try(tmp_path, monkeypatch):
    """The `requires` says no exchange is possible, which one unknown cannot say (it would have to be every
    exchange): the third try weakens it, and still proves the move (taking from the unlimited reserve cannot fail)."""
    label = '"Muscade".consolation'
    search = _third_try(tmp_path, REFUS, label, monkeypatch)
    assert search.effect_failures({label}) == []
