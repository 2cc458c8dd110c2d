"""A window opened in the symbolic transition (checker/solver/transition.py's reactions) when a card imitates
another that reacts to it: the imitating card reacts as the card it imitates would, with `this` the imitating
card — the unrolled flow, pinned to the interpreter's run, reaches its state (tests/test_unroll.py's `compare`).
The game is tests/test_language_constructs.py's cards with the `imitates` overlay.  Survivor of the blind
mutation sample -e (transition.py:461, the imitating cards' reactions kept only when they cannot happen), which
no test of the solver set ran.  And the powers an offer gives a held imitating card, the game's first card among
them: survivor of sample -j (unroll.py:429)."""

from __future__ import annotations

import pytest

from checker.solver.encode import Encoder
from checker.solver.unroll import Unrolled
from test_language_constructs import CARDS, checked, started
from test_unroll import compare

SIGNAL = CARDS + """
procedure finir(p: Player) { signal fin(p) }
"""
COPIES = """overlay "Copies" on "Jeu"
extend kind Carte { imitates: copie }
"""


@pytest.mark.parametrize("imitated", ["Écu", "Pierre", None])
def test_a_card_imitating_one_that_reacts_reacts_as_it_would(tmp_path, imitated):
    """The Miroir imitates the Écu (which reacts to `fin`, putting a token on `this`), the Pierre (which does not
    react), or nothing: a token goes on the Miroir in the first case only, and the encoding agrees."""
    result = checked(tmp_path, SIGNAL, COPIES)
    e, _ = started(result, ["Écu", "Miroir", "Pierre"], [[], []])
    miroir = e.card("Miroir")
    e.st.put(miroir, "main", 0, "top")          # held: it has a controller, so its powers fire
    if imitated is not None:
        e.st.vars["modèle"][miroir] = e.def_ids[imitated]
    e.invalidate()
    e.recording = False
    compare(e, "finir", (0,), 0, 1)
    e.call("finir", (0,))
    assert e.st.vars["jeton"].get(miroir, 0) == (1 if imitated == "Écu" else 0)


@pytest.mark.parametrize("order", [["Miroir", "Écu", "Pierre"], ["Écu", "Pierre", "Miroir"]])
def test_a_held_card_imitating_another_is_offered_its_powers_whichever_card_of_the_game_it_is(tmp_path, order):
    """The Miroir in Joueur 1's hand imitates the Écu: the turn's offer, unrolled (checker/solver/unroll.py's
    powers of a card), has the Écu's `gain` on the Miroir, as the interpreter offers it, whether the Miroir is the
    game's first card (card 0) or its last.  Survivor of the blind mutation sample -j: unroll.py:429 `card >= 0`
    → `card >= 1` (card 0 offered no copied power)."""
    result = checked(tmp_path, CARDS, COPIES)
    e, agents = started(result, order, [["gain (Miroir)", "Passer"], ["Passer"]])
    miroir = e.card("Miroir")
    assert miroir == order.index("Miroir")
    e.st.put(miroir, "main", 0, "top")
    e.st.vars["modèle"][miroir] = e.def_ids["Écu"]
    e.invalidate()
    e.recording = False
    t = Unrolled(Encoder(e, concrete=True), 2)
    t.procedure("partie", ())
    first = t.asked[0].choice
    encoded = [f"{o[1].name} ({e.show_card(o[2])})" if o[0] == "power" else o[1]
               for g, o in first.options if g is True]
    e.call("partie", ())
    assert encoded == agents[0].seen[0][1] == ["gain (Miroir)", "Passer"], (encoded, agents[0].seen)
    assert e.st.vars["bourse"] == {0: 1}
