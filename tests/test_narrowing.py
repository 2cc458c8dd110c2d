"""The interpreter's shortcuts that use what a loop or a selection already says (checker.runtime.narrowing,
fusion.holders_of, runtime.layout) leave every game the same: the same seeded games are played with each
shortcut turned off and compared event by event, decision by decision (each with its state's digest)."""

from __future__ import annotations

import re

import pytest

from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent, fusion
from checker.runtime import compile as compile_module
from tests.conftest import bundled

GAMES = ((6, 0), (3, 2))


def _logs(engine: Engine, config: str = "Violente") -> list:
    program = engine.program
    out = []
    for players, seed in GAMES:
        cards = select(program, program.configurations[config], players).cards
        game = engine.play(cards, players, seed, [RandomAgent(seed * 100 + i) for i in range(players)])
        out.append((game.scores, game.events))
    return out


@pytest.fixture(scope="module")
def engine():
    return Engine(bundled().typed)


@pytest.fixture(scope="module")
def logs(engine):
    return _logs(engine)


def _offer_source(engine: Engine) -> str:
    sources = [src for name, src, _ in engine.compiler.gen.sources if name.startswith("_offer")]
    assert len(sources) == 1, "the turn's offer"
    return sources[0]


def test_the_loops_facts_shape_the_offer(engine):
    """Inside ``for d in main[p]``, `d is not in main[p]` is not tested; a loop whose first test is
    `d != "<card>"` runs only when the zone holds that card (one count looked up)."""
    source = _offer_source(engine)
    assert "bâtir_depuis_la_main" not in source
    guards = re.findall(r"if \(st\.counts\.get\(\('main', \w+\)\) or _EMPTY\)\.get\(-?\d+\):  # (\w+)", source)
    assert sorted(guards) == ["nécropole_seulement", "tripot_seulement"]


def test_games_are_the_same_without_the_loops_facts(monkeypatch, logs):
    monkeypatch.setattr(compile_module, "without_implied", lambda tests, item, known: tests)
    monkeypatch.setattr(compile_module, "card_guards", lambda *args: {})
    plain = Engine(bundled().typed)
    assert "bâtir_depuis_la_main" in _offer_source(plain)
    assert _logs(plain) == logs


def test_games_are_the_same_without_the_holders_by_definition(monkeypatch, logs):
    real = fusion.narrowed_players

    def narrowed(g, e, scope, x):
        found = real(g, e, scope, x)
        return None if found is not None and found.startswith("HOLDERS_OF") else found
    monkeypatch.setattr(fusion, "narrowed_players", narrowed)
    plain = Engine(bundled().typed)
    assert not any("HOLDERS_OF" in src for _, src, _ in plain.compiler.gen.sources)
    assert _logs(plain) == logs


def test_a_selection_set_up_again_from_its_layout_plays_the_same(logs):
    """A fresh engine's first games (each selection laid out anew) against games on an engine that has laid
    out other selections before and plays these from its kept layouts."""
    engine = Engine(bundled().typed)
    _logs(engine, "Bluff")                    # other selections first
    first = _logs(engine)
    assert _logs(engine) == first == logs       # then these, twice: the second time from the layouts kept


class _Everything(set):
    """A set of present definitions that holds every definition: the shortcut never taken."""

    def __contains__(self, key) -> bool:
        return True


def test_games_are_the_same_when_every_named_card_is_looked_for(logs):
    """A card named in the rules whose definition has no copy in the game is in no zone: the generated
    membership test skips the count then (``HERE``); looked up every time, the games are the same."""
    plain = Engine(bundled().typed)
    assert any(" in HERE" in src for _, src, _ in plain.compiler.gen.sources)
    plain.present = plain.compiler.gen.ns["HERE"] = _Everything()
    assert _logs(plain) == logs
