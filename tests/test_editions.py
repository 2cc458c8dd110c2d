"""Other editions and variants: each is an overlay on the 4th edition that checks without a warning,
cites its own source text verbatim, and plays."""

from __future__ import annotations


import pytest

from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine
from checker.runtime.agents import RandomAgent
from conftest import ROOT

BASE = ROOT / "spec" / "citadelles"
JEU_DE_BASE = ROOT / "spec" / "éditions" / "jeu-de-base"
PREMIÈRE = ROOT / "spec" / "éditions" / "première-édition"
VARIANTES = ROOT / "spec" / "variantes"
RULE_SETS = {
    "jeu de base": [JEU_DE_BASE],
    "partie rapide 7": [JEU_DE_BASE, VARIANTES / "jeu-de-base" / "partie-rapide-7.rules"],
    "partie rapide 6": [JEU_DE_BASE, VARIANTES / "jeu-de-base" / "partie-rapide-6.rules"],
    "roi assassiné": [JEU_DE_BASE, VARIANTES / "jeu-de-base" / "roi-assassiné-garde-la-couronne.rules"],
    "pioche améliorée": [JEU_DE_BASE, VARIANTES / "jeu-de-base" / "pioche-améliorée.rules"],
    "peste": [JEU_DE_BASE, VARIANTES / "jeu-de-base" / "peste.rules"],
    "première édition": [PREMIÈRE],
    "partie raccourcie": [PREMIÈRE, VARIANTES / "première-édition" / "partie-raccourcie.rules"],
}


@pytest.mark.parametrize("name", RULE_SETS)
def test_each_rule_set_checks_without_a_warning_and_plays(name):
    result = check_paths([BASE, *RULE_SETS[name]])
    assert result.ok and not result.reporter.diagnostics, [d.message for d in result.reporter.diagnostics]
    sources = {decl.path for decl in result.program.sources.values()}
    assert any(path.startswith("sources/citadelles-") and path != "sources/citadelles-4e.txt" for path in sources)
    engine = Engine(result.typed)
    engine.recording = False
    for config, counts in result.configurations.items():
        players = counts[len(counts) // 2]
        selection = select(result.program, result.program.configurations[config], players)
        game = engine.play(selection.cards, players, 1, [RandomAgent(seed) for seed in range(players)])
        assert game.winners and game.rounds >= 2


def test_a_variant_without_its_edition_is_refused():
    result = check_paths([BASE, VARIANTES / "jeu-de-base" / "peste.rules"])
    assert not result.ok
    error = result.reporter.errors[0]
    assert "overlay is for 'Citadelles (jeu de base)'" in error.message and "'Citadelles'" in error.message


def test_the_base_game_ends_at_ten_districts_with_three_players():
    """« La partie se joue en 10 quartiers au lieu de 8. » (3 joueurs, sans l'Assassin)"""
    result = check_paths([BASE, JEU_DE_BASE])
    engine = Engine(result.typed)
    engine.recording = False
    selection = select(result.program, result.program.configurations["Jeu de base"], 3)
    assert "Assassin" not in selection.cards["Character"] and len(selection.cards["Character"]) == 7
    engine.play(selection.cards, 3, 4, [RandomAgent(seed) for seed in range(3)])
    complete = [p for p in engine.seats if len(engine.st.zones["cité"].get(p, ())) >= 10]
    assert engine.st.vars["premier_complet"] in complete


def test_the_translated_edition_keeps_its_printed_names():
    program = check_paths([BASE, PREMIÈRE]).program
    for printed, fourth in (("Général", "Condottiere"), ("Magicien", "Magicienne"), ("Navigateur", "Navigatrice"),
                            ("Marchand", "Marchande")):
        assert printed in program.cards and fourth not in program.cards
        assert program.base_name(printed) == fourth
    assert "Trésorier" in program.cards and "Bailli" not in program.cards
    assert {"coréen_마법사", "coréen_연금술사", "artiste_deux_pièces_une_par_tour"} <= set(program.decisions)
