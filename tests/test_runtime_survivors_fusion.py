"""``the(p in players where c in main[p] …)`` looks only at the player whose hand holds the card
(checker/runtime/fusion.py's ``narrowed_players``), whether the test is the whole condition or the first part of
an `and`: the generated quantity reads the card's holders, and its value is the one every player's test gives."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.runtime import Engine

GAME = """
game "Jeu" {
  edition: "test"
  players: 2..4
  flow: partie
}
kind Carte {
  force: Int in 0..9
  start: pioche
}
counter bourse[Player] public
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
quantity porteur(c: Carte): Player? = the(p in players where c in main[p])
quantity tenant(c: Carte): Player? = the(p in players where c is in main[p] and bourse[p] >= 0)
quantity riche_porteur(c: Carte): Player? = the(p in players where c in main[p] and bourse[p] > 0)
quantity partout(c: Carte, q: Player): Int = count(p in players where c is in main[q])
card Carte "A" { force: 1 }
card Carte "B" { force: 2 }
card Carte "C" { force: 3 }
procedure partie() { stop }
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    path = tmp_path_factory.mktemp("fusion") / "jeu.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    e = Engine(result.typed)
    e.recording = False
    return e


def _computed(engine: Engine, quantity: str) -> str:
    (source,) = [src for _, src, origin in engine.compiler.gen.sources if origin == f"quantity {quantity}, computed"]
    return source


def test_the_players_looked_at_are_the_cards_holders(engine):
    """One test for the three quantities, not one per quantity: the engine (the module's fixture) generates them
    all in the first test that asks for it, and bench/mutation.py's coverage map credits fusion.py's lines to
    that test only (sample -k's survivor fusion.py:186 Eq → NotEq, `c is in main[p]`, was credited to the
    `porteur` case, which reads the other branch, and survived --covering-only)."""
    for quantity, helper in [("porteur", "HOLDERS_OF("), ("riche_porteur", "HOLDERS_OF("), ("tenant", "HOLDERS(")]:
        source = _computed(engine, quantity)
        assert helper in source and " in E.seats if " not in source, (quantity, source)


def test_the_narrowed_quantities_give_each_players_answer(engine):
    engine.start({"Carte": ["A", "B", "C"]}, 3, 0, [None] * 3)
    st = engine.st
    cards = {engine.def_names[engine.def_of[c]]: c for c in st.where}
    st.put(cards["A"], "main", 1, "top")
    st.put(cards["B"], "main", 2, "top")
    st.vars["bourse"] = {2: 4}
    engine.invalidate()
    values = {q: [engine.quantity(q, (cards[name],)) for name in "ABC"]
              for q in ("porteur", "tenant", "riche_porteur")}
    assert values == {"porteur": [1, 2, None], "tenant": [1, 2, None], "riche_porteur": [None, 2, None]}
    # the zone's index is not the aggregate's variable: every player's test is the same test, not narrowed
    assert "HOLDERS" not in _computed(engine, "partout")
    assert [[engine.quantity("partout", (cards[name], q)) for q in range(3)] for name in "AB"] == [[0, 3, 0], [0, 0, 3]]


SELECTED = """
game "Jeu" {
  edition: "test"
  players: 2..4
  flow: partie
}
kind Carte {
  force: Int in 0..9
  poids: Int in 0..9
  start: pioche
}
zone pioche: pile of Carte public
quantity fortes(n: Int): Int = count(c in selected(Carte) where c.force == n)
quantity lourdes(n: Int): Int = count(c in selected(Carte) where c.poids == n)
quantity pareilles(d: Carte): Int = count(c in selected(Carte) where c == d)
card Carte "A" { force: 3  poids: 1 }
card Carte "B" { force: 5  poids: 3 }
card Carte "C" { force: 1  poids: 3 }
procedure partie() { stop }
"""


def test_each_narrowed_selection_reads_its_own_index(tmp_path):
    """`count(c in selected(K) where c.attr == v)` reads an index of the selected cards by that attribute
    (fusion.py's ``narrowed_selection``); two attributes and the definition itself are three indexes, and each
    quantity must read its own, however many were made after it."""
    path = tmp_path / "jeu.rules"
    path.write_text(SELECTED, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    e = Engine(result.typed)
    e.recording = False
    e.start({"Carte": ["A", "B", "C"]}, 2, 0, [None, None])
    sources = [src for _, src, origin in e.compiler.gen.sources if origin.startswith("quantity ")]
    assert sum("E.sel_index[" in src for src in sources) == 3, sources
    cards = {e.def_names[e.def_of[c]]: c for c in e.st.where}
    values = ([e.quantity("fortes", (n,)) for n in (1, 3, 5)], [e.quantity("lourdes", (n,)) for n in (1, 3, 5)],
              [e.quantity("pareilles", (cards[name],)) for name in "ABC"])
    assert values == ([1, 1, 1], [1, 2, 0], [1, 1, 1])
    # the base value `rulebook scenario` explains a quantity with (Engine.quantities, generated apart) reads
    # the same indexes: it was generated first, when each index was the newest
    base = {name: e.quantities[name][1] for name in ("fortes", "lourdes")}
    assert [base["fortes"]({"n": n}) for n in (1, 3, 5)] == [1, 1, 1]
    assert [base["lourdes"]({"n": n}) for n in (1, 3, 5)] == [1, 2, 0]
    assert [e.quantities["pareilles"][1]({"d": cards[name]}) for name in "ABC"] == [1, 1, 1]


def test_a_selection_narrowed_by_an_element_of_a_var_reads_the_index_and_one_by_a_count_does_not(tmp_path):
    """``c.force == seuil[p]``: an element of a var is a read that cannot fail (fusion.py's ``_plain``), so it is
    the index's key; ``c == favori[p]``, ``favori`` a var of cards, too.  A count of a zone's cards is not a
    plain read: that test is evaluated per card.  Each gives the value of the test of every selected card."""
    text = SELECTED.replace("procedure partie()", """var seuil[Player]: Int = 0
var favori[Player]: Carte? = none
zone main[Player]: set of Carte public
quantity au_seuil(p: Player): Int = count(c in selected(Carte) where c.force == seuil[p])
quantity favoris(p: Player): Int = count(c in selected(Carte) where c == favori[p])
quantity autant(p: Player): Int = count(c in selected(Carte) where c.poids == count(d in main[p]))
procedure partie()""")
    path = tmp_path / "jeu.rules"
    path.write_text(text, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    e = Engine(result.typed)
    e.recording = False
    e.start({"Carte": ["A", "B", "C"]}, 2, 0, [None, None])
    sources = {origin: src for _, src, origin in e.compiler.gen.sources}
    assert "E.sel_index[" in sources["quantity au_seuil, computed"], sources["quantity au_seuil, computed"]
    assert "E.sel_index[" in sources["quantity favoris, computed"], sources["quantity favoris, computed"]
    assert "E.sel_index[" not in sources["quantity autant, computed"], sources["quantity autant, computed"]
    cards = {e.def_names[e.def_of[c]]: c for c in e.st.where}
    e.st.vars["seuil"] = {0: 5, 1: 2}
    e.st.vars["favori"] = {0: cards["C"], 1: None}
    e.st.put(cards["A"], "main", 1, "top")
    e.invalidate()
    assert [[e.quantity(q, (p,)) for p in (0, 1)] for q in ("au_seuil", "favoris", "autant")] == \
        [[1, 0], [1, 0], [0, 1]]
