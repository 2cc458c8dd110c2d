"""The bundled 4th-edition spec: complete, consistent with the card table, traced to the rulebook."""

from __future__ import annotations

import csv
import re

import pytest

from checker.front.check import check_paths
from checker.front.configurations import select
from checker.front.trace import trace
from conftest import ROOT, SPEC, bundled

RULEBOOK = SPEC / "sources" / "citadelles-4e.txt"
CARD_TABLE = SPEC / "sources" / "citadelles-4e-quartiers.csv"

CHARACTERS = {
    1: {"Assassin", "Sorcière", "Échevin"}, 2: {"Voleur", "Espion", "Maître-Chanteuse"},
    3: {"Magicienne", "Sorcier", "Voyante"}, 4: {"Roi", "Empereur", "Patricien"},
    5: {"Évêque", "Abbé", "Cardinal"}, 6: {"Marchande", "Alchimiste", "Négociant"},
    7: {"Architecte", "Navigatrice", "Archiviste"}, 8: {"Condottiere", "Diplomate", "Capitaine"},
    9: {"Reine", "Artiste", "Bailli"},
}


def _attr(card, name):
    for value in card.attrs:
        if value.name == name:
            v = value.value
            return getattr(v, "value", getattr(v, "id", None))
    return None


def test_the_bundled_spec_checks_clean():
    result = bundled()
    assert [d.message for d in result.reporter.diagnostics] == []


def test_all_27_characters_three_per_rank():
    program = bundled().program
    by_rank: dict[int, set[str]] = {}
    for card in program.cards_of("Character"):
        by_rank.setdefault(_attr(card, "rank"), set()).add(card.name)
    assert by_rank == CHARACTERS


def test_districts_match_the_card_table():
    program = bundled().program
    rows = list(csv.DictReader(CARD_TABLE.open(encoding="utf-8")))
    assert len(rows) == 47
    for row in rows:
        card = program.cards.get(row["nom"])
        assert card is not None and card.kind == "District", row["nom"]
        assert _attr(card, "type") == row["type"], row["nom"]
        assert _attr(card, "cost") == int(row["cout"]), row["nom"]
        assert (_attr(card, "copies") or 1) == int(row["exemplaires"]), row["nom"]
    assert {c.name for c in program.cards_of("District")} == {r["nom"] for r in rows}
    base = [r for r in rows if r["type"] != "Merveille"]
    assert sum(int(r["exemplaires"]) for r in base) == 54
    assert len(rows) - len(base) == 30


def _section(lines: list[str], title: str, until: str) -> tuple[int, int]:
    start = max(i for i, line in enumerate(lines, 1) if line.strip() == title)
    end = next(i for i, line in enumerate(lines, 1) if i > start and line.strip().startswith(until))
    return start, end


@pytest.mark.parametrize("title, until", [
    ("Pouvoirs des personnages", "Quelques précisions sur les Merveilles"),
    ("Quelques précisions sur les Merveilles", "Référence"),
])
def test_every_sentence_of_the_section_is_cited(title, until):
    text = RULEBOOK.read_text(encoding="utf-8")
    start, end = _section(text.split("\n"), title, until)
    sentences = [s for s in trace(bundled().program, "regles", text)
                 if start < s.line < end and s.kind == "sentence"]
    assert len(sentences) > 20
    assert [s.text for s in sentences if not s.traced] == []


def test_every_clarification_names_a_merveille_with_a_rule_citing_it():
    text = RULEBOOK.read_text(encoding="utf-8").split("\n")
    start, end = _section(text, "Quelques précisions sur les Merveilles", "Référence")
    program = bundled().program
    clarified = [m.group(1) for line in text[start:end - 1] if (m := re.match(r"^([^:]{3,30}) : ", line))]
    assert len(clarified) == 15
    for name in clarified:
        assert name in program.cards, name


def test_first_game_and_the_six_suggested_configurations():
    result = bundled()
    assert set(result.configurations) == {
        "Première partie", "Développement", "Confrontation", "Tranquille", "Bluff", "Combinaisons", "Violente"}
    assert result.configurations["Première partie"] == [2, 4, 5, 6, 7]
    for name, counts in result.configurations.items():
        if name != "Première partie":
            assert counts == [2, 3, 4, 5, 6, 7, 8], name


def test_configurations_swap_characters_the_rules_forbid():
    program = bundled().program
    config = program.configurations["Confrontation"]
    assert "Empereur" not in select(program, config, 2).cards["Character"]
    assert "Empereur" in select(program, config, 4).cards["Character"]
    dev = program.configurations["Développement"]
    three = select(program, dev, 3).cards["Character"]
    assert "Reine" not in three and "Artiste" in three and len(three) == 9
    assert len(select(program, dev, 5).cards["Character"]) == 8
    assert "Reine" in select(program, dev, 8).cards["Character"]


def test_every_decision_cites_the_sentence_it_resolves():
    program = bundled().program
    assert len(program.decisions) >= 20
    for decision in program.decisions.values():
        assert decision.cites, decision.name


def test_every_rule_of_a_card_cites_its_source():
    program = bundled().program
    uncited = [r.name for r in program.rules.values() if r.card and not r.cites]
    assert uncited == []


def test_the_engine_knows_no_card_by_name():
    """checker/ must not name a card or a character: every card lives in spec/."""
    program = bundled().program
    names = sorted({c.name for c in program.cards.values()}, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w-])")
    hits = []
    for path in sorted((ROOT / "checker").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            for m in pattern.finditer(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {m.group(1)}")
    assert hits == []
    assert pattern.search('if name == "Assassin":'), "the check must be able to fail"


def _unannounced(stmts) -> list:
    """The `move … to cité[…]` statements no later statement of their block follows with
    `call vérifier_fin_de_partie()` (nested blocks are searched too)."""
    from checker.front import ast as A
    out = []
    for i, s in enumerate(stmts):
        if isinstance(s, A.Move) and s.dest.target.name == "cité":
            if not any(isinstance(t, A.CallProc) and t.name == "vérifier_fin_de_partie" for t in stmts[i + 1:]):
                out.append(s.span)
        for field in ("then", "else_", "body"):
            inner = getattr(s, field, None)
            if isinstance(inner, tuple):
                out += _unannounced(inner)
    return out


def test_every_way_into_a_city_announces_a_complete_city():
    """« Fin du jeu » (decision toute_cité_complète_annonce_la_fin): every effect that moves districts into a
    city then checks whether a city became complete, however it did (building, confiscation, exchange,
    taking)."""
    program = bundled().program
    for rules in (program, check_paths([SPEC, ROOT / "spec" / "extension-fan"]).program):
        bodies = [p.body for p in rules.procedures.values()] + [a.body for a in rules.actions.values() if a.body]
        bodies += [pw.body for card in rules.cards.values() for pw in card.powers]
        assert [span for b in bodies for span in _unannounced(b)] == []
    assert sum(str(b).count("cité") > 0 for b in bodies) >= 4
    # the check can fail: the Capitaine's power without its call is reported
    from checker.front import ast as A
    taking = next(pw for pw in program.cards["Capitaine"].powers if pw.name == "prendre_un_quartier")
    assert _unannounced(tuple(s for s in taking.body if not isinstance(s, A.CallProc))) != []
