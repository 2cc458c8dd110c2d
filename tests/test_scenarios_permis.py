"""« Le permis de construire » played at its edge, for every character whose number the rulebook prints:
with one district fewer than the permit built this turn, one more may be built; with the permit used up,
none (forbidden by ``permis_de_construire_limité``).  A changed number (2 → 1, 3 → 4) fails here, in a
game, not only on the book's pages (bench/mutation.py's mutants of the spec's building rules)."""

from __future__ import annotations

import pytest

from test_scenarios import setup
from test_scenarios_powers import choose, give

PERMITS = [
    # character, the configuration that has it, the number of districts the rulebook lets it build
    ("Roi", "Première partie", 1),              # « son permis de construire est d'un quartier »
    ("Voyante", "Tranquille", 2),               # « Vous pouvez bâtir deux quartiers durant votre tour. »
    ("Architecte", "Développement", 3),         # « Vous pouvez bâtir jusqu'à trois quartiers durant votre tour. »
    ("Archiviste", "Tranquille", 2),            # « Vous pouvez bâtir jusqu'à deux quartiers durant votre tour. »
]


@pytest.mark.parametrize("character, config, permit", PERMITS, ids=[p[0] for p in PERMITS])
def test_le_permis_de_construire_de_chaque_personnage_a_sa_limite(character, config, permit):
    builder = 0
    e, st, _ = setup(config, 4, [[], [], [], []])
    card = e.card(character)
    choose(e, st, builder, character)
    temple, = give(e, st, builder, "main", "Temple")
    st.vars["trésor"][builder] = 20
    st.vars["personnage_actif"] = card
    assert e.quantity("permis_de_construire", (card,)) == permit
    st.vars["quartiers_bâtis"] = permit - 1
    e.invalidate()
    legal, forbidding, _, _ = e.legal("bâtir", (builder, temple))
    assert legal, f"{character}: district {permit} of {permit} forbidden by {forbidding}"
    st.vars["quartiers_bâtis"] = permit
    e.invalidate()
    legal, forbidding, _, _ = e.legal("bâtir", (builder, temple))
    assert not legal and forbidding == ["permis_de_construire_limité"], (character, forbidding)
