"""A card's name where a physical card is meant (checker/solver/encode.py's `physical`): `x is "Écu"` compares
physical cards, and a value that may be a definition (a card's name, as `modèle[c]` holds) means that card's
single copy — in the encoding as in the interpreter — also when which name it holds depends on a choice (a Z3
term, each name it may be mapped to its copy).  The unrolled call, pinned to the interpreter's seeded answers,
reaches its state (tests/test_unroll.py's `compare`).  Survivor of the blind mutation sample 7171 against the
whole suite (a timeout there: its 184 covering tests take longer than the 600 s a mutant had): encode.py:257
`if not named` → `if named` (a term that may be a name left as the name: `is` never holds for it)."""

from __future__ import annotations

from checker.solver.encode import Encoder
from checker.solver.unroll import Unrolled
from test_language_constructs import CARDS, checked, started
from test_unroll import compare, run_interpreter

MARK = CARDS + """
procedure marquer(p: Player) {
  choose c in main[p] by p
  if modèle[c] is "Écu" { transfer 1 from banque to bourse[p] }
}
"""


def test_a_name_chosen_through_a_card_is_its_physical_copy_in_the_encoding(tmp_path):
    """Joueur 1 holds the Miroir (whose `modèle` is the Écu's name) and the Pierre (whose `modèle` is its own
    name) and chooses one: a coin when the chosen card's model is the Écu.  Both choices are played (two seeds),
    and on each the encoding reaches the interpreter's purse; unpinned, both purses are possible."""
    result = checked(tmp_path, MARK)
    e, _ = started(result, ["Écu", "Miroir", "Pierre"], [[], []])
    for name in ("Miroir", "Pierre"):
        e.st.put(e.card(name), "main", 0, "top")
    e.st.vars["modèle"][e.card("Miroir")] = e.def_ids["Écu"]
    e.st.vars["modèle"][e.card("Pierre")] = e.def_ids["Pierre"]
    e.invalidate()
    e.recording = False
    purses = set()
    for seed in (1, 5):
        compare(e, "marquer", (0,), 1, seed)
        purses.add(run_interpreter(e, "marquer", (0,), 1, seed)[0][1]["bourse"].get(0, 0))
    assert purses == {0, 1}
    t = Unrolled(Encoder(e, concrete=True), 1)
    t.procedure("marquer", (0,))
    assert t.asked[0].choice.var == "c"
