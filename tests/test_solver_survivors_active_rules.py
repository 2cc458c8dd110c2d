"""A card's rules in the Z3 encoding (checker/solver/encode.py's `rule_cases`) as the interpreter reads them
(checker/runtime/cards.py's `when_source`): a rule of a card whose kind has `active` applies only while the card
is active, and a rule that names `this` on a kind that `imitates` applies to each card imitating it too.  Read on
tests/test_language_constructs.py's cards: the Écu's `écu_remise` (the price 5 less 2 for its holder) and
`écu_interdit` (no purchase with more than 9 coins), each state held to the interpreter's answer.  Survivor of the
blind mutation sample 7171 against the whole suite (a timeout there: its 353 covering tests take longer than the
600 s a mutant had): encode.py:423 `not (active or copies)` → `not (active and copies)` (a card's rules read
as always active on a kind with `active` alone, and the imitating cards' copies dropped on a kind that
`imitates` without `active`)."""

from __future__ import annotations

import pytest

from checker.solver.encode import Encoder
from test_language_constructs import CARDS, checked, started

ACTIVE = """overlay "États" on "Jeu"
extend kind Carte { active: marche }
"""
COPIES = """overlay "Copies" on "Jeu"
extend kind Carte { imitates: copie }
"""


def _both(e, p: int) -> tuple:
    """(the encoding's price and legality of a purchase by ``p``, the interpreter's) on the engine's state."""
    e.invalidate()
    e.recording = False
    enc = Encoder(e, concrete=True)
    return (enc.quantity("prix", (p,)), enc.legality("acheter", (p,))[0]), \
        (e.quantity("prix", (p,)), e.allowed("acheter", (p,)))


@pytest.mark.parametrize("turned,expected", [(False, (3, False)), (True, (5, True))])
def test_the_rules_of_a_card_that_is_not_active_do_not_apply_in_the_encoding(tmp_path, turned, expected):
    """The Écu in Joueur 1's hand, 10 coins: while it works, its discount and its prohibition apply; turned over
    (not active), neither does — in the encoding as in the interpreter."""
    result = checked(tmp_path, CARDS, ACTIVE)
    e, _ = started(result, ["Écu", "Miroir", "Pierre"], [[], []])
    écu = e.card("Écu")
    e.st.put(écu, "main", 0, "top")
    e.st.vars["bourse"].update({0: 10, 1: 0})
    e.st.vars["retournée"][écu] = turned
    encoded, played = _both(e, 0)
    assert encoded == played == expected


@pytest.mark.parametrize("imitated,expected", [(None, (5, True)), ("Écu", (3, False))])
def test_the_rules_naming_this_apply_to_a_card_imitating_theirs_in_the_encoding(tmp_path, imitated, expected):
    """The Miroir in Joueur 2's hand (the Écu in no hand), 10 coins: imitating nothing, no rule of the Écu
    applies; imitating the Écu, its discount and its prohibition apply to Joueur 2 through the Miroir."""
    result = checked(tmp_path, CARDS, COPIES)
    e, _ = started(result, ["Écu", "Miroir", "Pierre"], [[], []])
    miroir = e.card("Miroir")
    e.st.put(miroir, "main", 1, "top")
    e.st.vars["bourse"].update({0: 0, 1: 10})
    if imitated is not None:
        e.st.vars["modèle"][miroir] = e.def_ids[imitated]
    encoded, played = _both(e, 1)
    assert encoded == played == expected
