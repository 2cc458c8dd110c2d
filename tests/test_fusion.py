"""One-pass aggregates (checker.runtime.fusion): ``all``/``any`` over a count per key is compiled as one
pass when the shape allows it; its value must be the straightforward nested loops' on every state, for
the shapes it fuses and for those it must leave alone (the count's key or bound reads the outer variable,
the key is a card…).  Each quantity is evaluated by an engine built with fusion and by one built without,
on seeded random deals of the cards."""

from __future__ import annotations

import random

import pytest

from checker.front.check import check_paths
from checker.runtime import Engine, fusion
from checker.runtime.agents import ScriptedAgent

GAME = """
game "Jeu" {
  edition: "test"
  players: 2..4
  flow: partie
}
enum Couleur { rouge, bleu, vert }
kind Carte {
  couleur: Couleur
  force: Int in 0..9
  start: pioche
}
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
card Carte "R1" { couleur: rouge  force: 1 }
card Carte "R5" { couleur: rouge  force: 5 }
card Carte "B2" { couleur: bleu  force: 2 }
card Carte "B7" { couleur: bleu  force: 7 }
card Carte "B8" { couleur: bleu  force: 8 }
card Carte "V3" { couleur: vert  force: 3 }
procedure partie() { stop }
"""

QUANTITIES = {
    # fused: the key and the bound do not read the outer variable
    "au_plus_deux": "all(c in Couleur: count(d in pioche where d.couleur == c) <= 2)",
    "trois_pareilles": "any(c in Couleur: count(d in pioche where c == d.couleur) >= 3)",
    "moins_de_deux_en_main": "all(c in Couleur: sum(p in players: count(d in main[p] where d.couleur == c)) < 2)",
    "autant_que_les_fortes": "any(c in Couleur: count(d in pioche where d.couleur == c) == "
                             "count(d in pioche where d.force > 4))",
    "une_absente": "any(c in Couleur: count(d in pioche where d.couleur == c) != 1)",
    "plus_que_les_mains": "all(c in Couleur: count(d in pioche where d.couleur == c) > "
                          "count(p in players where count(d in main[p]) > 3))",
    "vide_all": "all(c in filter(k in Couleur where k != k): count(d in pioche where d.couleur == c) > 9)",
    "vide_any": "any(c in filter(k in Couleur where k != k): count(d in pioche where d.couleur == c) < 9)",
    # left alone: the bound, the collection or the summed collection reads the outer variable, the key is a card
    "borne_lue": "all(c in Couleur: count(d in pioche where d.couleur == c) <= count(d in pioche where d.couleur != c))",
    "collection_lue": "any(c in Couleur: count(d in filter(e in pioche where e.couleur == c) where d.couleur == c) > 1)",
    "somme_lue": "any(c in Couleur: sum(p in filter(q in players where count(d in main[q] where d.couleur == c) > 1): "
                 "count(d in main[p] where d.couleur == c)) >= 2)",
    "cartes": "all(c in pioche: count(d in pioche where d == c) == 1)",
    "pas_un_compte": "all(c in Couleur: sum(d in pioche: d.force) >= 0)",
    "pas_une_égalité": "any(c in Couleur: count(d in pioche where d.couleur != c) >= 4)",
    "clé_sans_la_variable": "any(c in Couleur: count(d in pioche where d.couleur == rouge) >= 2)",
    "pas_un_agrégat": "any(c in Couleur: c == vert)",
    "pas_une_comparaison": "all(c in Couleur: any(d in pioche where d.couleur == c))",
    "pas_une_somme": "all(c in Couleur: max(p in players: count(d in main[p] where d.couleur == c)) <= 1)",
    "un_compte": "count(c in Couleur where count(d in pioche where d.couleur == c) >= 2)",     # an Int
}
CONSTANT = {"vide_all", "vide_any", "cartes", "pas_un_compte", "pas_un_agrégat"}


@pytest.fixture(scope="module")
def engines(tmp_path_factory):
    path = tmp_path_factory.mktemp("fusion") / "jeu.rules"
    text = GAME.replace("procedure partie", "".join(
        f"quantity {n}(): {'Int' if q.startswith('count') else 'Bool'} = {q}\n" for n, q in QUANTITIES.items())
                        + "procedure partie")
    path.write_text(text, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    fused = Engine(result.typed)
    original = fusion.per_key_count
    fusion.per_key_count = lambda *args: None
    try:
        plain = Engine(result.typed)
    finally:
        fusion.per_key_count = original
    for e in (fused, plain):
        e.start({"Carte": ["R1", "R5", "B2", "B7", "B8", "V3"]}, 3, 0, [ScriptedAgent([]) for _ in range(3)])
    return fused, plain


def test_a_fused_aggregate_has_the_value_of_the_nested_loops_on_every_deal(engines):
    fused, plain = engines
    rng = random.Random(7)
    differ, seen = [], {name: set() for name in QUANTITIES}
    for _ in range(60):
        places = [rng.choice([("pioche", None)] * 3 + [("main", 0), ("main", 1), ("main", 2)]) for _ in range(6)]
        values = []
        for e in (fused, plain):
            for card, (zone, index) in zip(["R1", "R5", "B2", "B7", "B8", "V3"], places):
                e.st.put(e.card(card), zone, index, "top")
            e.invalidate()
            values.append({name: e.quantity(name, ()) for name in QUANTITIES})
        for name in QUANTITIES:
            seen[name].add(values[1][name])
            if values[0][name] != values[1][name]:
                differ.append((name, places, values[0][name], values[1][name]))
    assert differ == []
    assert [name for name, v in seen.items() if len(v) < 2 and name not in CONSTANT] == [], \
        "each quantity has several values over the deals"
    assert seen["un_compte"] == {0, 1, 2}
    assert seen["vide_all"] == {True} and seen["vide_any"] == {False}, "all over nothing is true, any is false"
