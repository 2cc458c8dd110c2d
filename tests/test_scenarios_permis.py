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


@pytest.mark.parametrize("hand, legal", [(("Château", "Temple"), False), (("Château", "Temple", "Taverne"), True)],
                         ids=["one card short", "exactly enough cards"])
def test_cardinal_une_carte_par_piece_a_la_limite(hand, legal):
    """Cardinal : « Pour chaque pièce ainsi prise, vous devez donner à ce joueur 1 carte de votre main. »  The
    Château (4) with 2 gold: 2 pieces missing, so 2 cards besides the Château.  One card short, the prohibitions
    decide alone (no permission applies with them: ``cardinal_or_manquant`` is narrow on purpose, and a pair
    left unordered would be a conflict); with exactly enough, the Cardinal may build."""
    cardinal, lender = 0, 1
    e, st, _ = setup("Combinaisons", 4, [[], [], [], []])
    choose(e, st, cardinal, "Cardinal")
    château, *_ = give(e, st, cardinal, "main", *hand)
    st.vars["trésor"].update({cardinal: 2, lender: 5})
    st.vars["personnage_actif"] = e.card("Cardinal")
    allowed, forbidding, permitting, unordered = e.legal("bâtir_avec_l_aide_de", (cardinal, château, lender))
    assert unordered == []
    if legal:
        assert allowed and forbidding == [] and permitting == ["cardinal_or_manquant"]
    else:
        assert not allowed and permitting == []
        assert sorted(forbidding) == ["cardinal_une_carte_par_pièce", "payer_le_coût"], "and 2 gold for 4"
