"""Building at its edges, where a changed number of the spec's building rules shows in a game, not only on
the book's pages (bench/mutation.py's mutants): « le permis de construire » of every character whose number
the rulebook prints (one district fewer than the permit built this turn: one more may be built; the permit
used up: none, forbidden by ``permis_de_construire_limité``), the Cardinal's one card per piece taken, the
Manufacture's 1 gold less."""

from __future__ import annotations

import pytest

from test_scenarios import setup
from test_scenarios_decompte import table
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


@pytest.mark.parametrize("gold, legal", [(4, False), (5, True)], ids=["one short", "exactly the cost less 1"])
def test_manufacture_toute_autre_merveille_coute_1_piece_de_moins(gold, legal):
    """Manufacture : « Bâtir toute autre Merveille coûte 1 pièce d'or de moins. »  The Dracoport (6) with the
    Manufacture in the city costs 5, and is built paying 5; the Temple (1, not a Merveille) and the Manufacture
    itself keep their cost."""
    builder = 0
    e, st, _ = table(4, "Manufacture", "Dracoport")
    choose(e, st, builder, "Roi")
    give(e, st, builder, "cité", "Manufacture")
    dracoport, temple = give(e, st, builder, "main", "Dracoport", "Temple")
    manufacture_copy = [c for c in e.instances[e.def_ids["Manufacture"]] if st.where[c][0] == "cité"][0]
    st.vars["trésor"][builder] = gold
    st.vars["personnage_actif"] = e.card("Roi")
    e.invalidate()
    assert e.quantity("coût_de_construction", (builder, dracoport)) == 6 - 1
    assert e.quantity("coût_de_construction", (builder, temple)) == 1, "not a Merveille"
    assert e.quantity("coût_de_construction", (builder, manufacture_copy)) == 5, "« toute autre »"
    allowed, forbidding, _, _ = e.legal("bâtir", (builder, dracoport))
    assert allowed == legal and forbidding == ([] if legal else ["payer_le_coût"]), forbidding
    if legal:
        e.do("bâtir", (builder, dracoport))
        assert st.vars["trésor"][builder] == 0 and dracoport in st.zone("cité", builder)
