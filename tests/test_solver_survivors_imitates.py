"""A window opened in the symbolic transition (checker/solver/transition.py's reactions) when a card imitates
another that reacts to it: the imitating card reacts as the card it imitates would, with `this` the imitating
card — the unrolled flow, pinned to the interpreter's run, reaches its state (tests/test_unroll.py's `compare`).
The game is tests/test_language_constructs.py's cards with the `imitates` overlay.  Survivor of the blind
mutation sample -e (transition.py:461, the imitating cards' reactions kept only when they cannot happen), which
no test of the solver set ran."""

from __future__ import annotations

import pytest

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
