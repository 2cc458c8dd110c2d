"""Tests over the selected cards narrowed by definition or attribute (checker.runtime.fusion.narrowed_selection):
``any``/``count``/``filter``/``the`` over ``selected(K)`` whose test starts with ``x == e`` or ``x.a == e`` look up
only the selected cards that can match; over ``players`` whose test starts with ``c is in z[p]``, only the player
whose zone holds ``c`` (fusion.narrowed_players).  Each quantity is evaluated by an engine built with the narrowing and by
one built without, on several selections (a card of the test absent from the game included) and seeded random
deals; the shapes that must be left alone (the comparison is not the first conjunct, a `!=`, `all`) are."""

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
zone défausse: pile of Carte public
card Carte "R1" { couleur: rouge  force: 1 }
card Carte "R5" { couleur: rouge  force: 5 }
card Carte "B2" { couleur: bleu  force: 2 }
card Carte "B7" { couleur: bleu  force: 7 }
card Carte "V3" { couleur: vert  force: 3 }
procedure partie() { stop }
"""

NAMES = ["R1", "R5", "B2", "B7", "V3"]
QUANTITIES = {   # name -> (parameters, type, expression, narrowed?)
    "r1_en_main": ("", "Bool", 'any(c in selected(Carte): c == "R1" and c is in défausse)', True),
    "rouges_en_pioche": ("", "Int", "count(c in selected(Carte) where c.couleur == rouge and c is in pioche)", True),
    "même_carte": ("x: Carte", "Bool", "any(c in selected(Carte): x == c and c is in défausse)", True),
    "même_couleur": ("x: Carte", "Int", "count(c in selected(Carte) where c.couleur == x.couleur and c is in pioche)",
                     True),
    "fortes": ("", "Int", "count(c in filter(d in selected(Carte) where d.force == 7 and d is in défausse))", True),
    "la_verte": ("", "Bool", "the(c in selected(Carte) where c.couleur == vert) is in pioche", True),
    "détenteurs": ("x: Carte", "Int", "count(p in players where x is in main[p])", "HOLDERS("),
    # `the` of the holders: one dict.get of the zone's holder table (checker.runtime.fusion.the_holder)
    "le_détenteur": ("x: Carte", "Bool", "the(p in players where x is in main[p]) == the(p in players where x is in main[p])",
                     "_holder_"),
    "détenteur_premier": ("x: Carte", "Bool", "any(p in players: x is in main[p] and count(d in main[p]) >= 2)", "HOLDERS("),
    # left alone
    "détenteur_second": ("x: Carte", "Bool", "any(p in players: count(d in main[p]) >= 2 and x is in main[p])", False),
    "pas_en_tête": ("", "Bool", 'any(c in selected(Carte): c is in défausse and c == "R1")', False),
    "différente": ("", "Int", 'count(c in selected(Carte) where c != "R1" and c is in pioche)', False),
    "toutes": ("", "Bool", 'all(c in selected(Carte): c.couleur == rouge and c is in pioche)', False),
}
SELECTIONS = [NAMES, ["R5", "B2", "B7", "V3"], ["R1", "B7", "V3"], ["R1", "R5", "V3"], ["R1", "R5"]]


@pytest.fixture(scope="module")
def engines(tmp_path_factory):
    path = tmp_path_factory.mktemp("narrow") / "jeu.rules"
    text = GAME.replace("procedure partie", "".join(
        f"quantity {n}({params}): {t} = {q}\n" for n, (params, t, q, _) in QUANTITIES.items()) + "procedure partie")
    path.write_text(text, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    narrowed = Engine(result.typed)
    original = fusion.narrowed_selection, fusion.narrowed_players
    fusion.narrowed_selection = fusion.narrowed_players = lambda *args: None
    try:
        plain = Engine(result.typed)
    finally:
        fusion.narrowed_selection, fusion.narrowed_players = original
    return narrowed, plain


def test_narrowed_aggregates_have_the_value_of_the_whole_selection_on_every_deal(engines):
    narrowed, plain = engines
    rng = random.Random(11)
    differ, seen = [], {name: set() for name in QUANTITIES}
    for selection in SELECTIONS:
        for e in (narrowed, plain):
            e.start({"Carte": selection}, 3, 0, [ScriptedAgent([]) for _ in range(3)])
        for _ in range(25):
            places = [rng.choice([("pioche", None)] * 2 + [("défausse", None), ("main", 0), ("main", 1)]) for _ in selection]
            values = []
            for e in (narrowed, plain):
                for card, (zone, index) in zip(selection, places):
                    e.st.put(e.selected["Carte"][selection.index(card)], zone, index, "top")
                e.invalidate()
                got = {}
                for name, (params, _, _, _) in QUANTITIES.items():
                    args = [(c,) for c in e.selected["Carte"]] if params else [()]
                    try:
                        got[name] = tuple(e.quantity(name, a) for a in args)
                    except Exception as error:          # `the` of no card: the same error from both
                        got[name] = type(error).__name__
                values.append(got)
            for name in QUANTITIES:
                seen[name].add(values[1][name])
                if values[0][name] != values[1][name]:
                    differ.append((name, selection, places, values[0][name], values[1][name]))
    assert differ == []
    assert [name for name, v in seen.items() if len(v) < 2] == [], "each quantity has several values"


def test_the_narrowing_applies_to_the_shapes_it_should(engines):
    narrowed, _ = engines
    gen = narrowed.compiler.gen
    by_name = {}
    for name, src, origin in gen.sources:
        for q in QUANTITIES:
            if origin.startswith(f"quantity {q},") or origin == f"quantity {q}":
                by_name.setdefault(q, []).append(src)
    assert set(by_name) == set(QUANTITIES), sorted(set(QUANTITIES) - set(by_name))
    for q, (_, _, _, narrow) in QUANTITIES.items():
        marker = narrow if isinstance(narrow, str) else "E.sel_index["
        assert any(marker in src for src in by_name[q]) == bool(narrow), (q, by_name[q])
