"""The fan expansion plays at every player count its text allows: each configuration's 12 characters suffice
from 2 to 5 players (two per player, one set aside at the start and one at the end; « Éditions mêlées » has
the Reine, for 5 players or more), and cards added with `--add` are counted by the constraints, which then
judge any count of the game."""

from __future__ import annotations

import functools
from pathlib import Path

from checker.front.check import check_paths
from checker.front.command import prepare_game

FAN = [Path("spec/citadelles"), Path("spec/extension-fan")]


@functools.cache
def _checked():
    return check_paths(FAN)


def test_the_fan_configurations_play_at_every_count_their_characters_allow():
    counts = _checked().configurations
    assert counts == {"Nouveaux Personnages": [2, 3, 4, 5], "Nouveaux Personnages II": [2, 3, 4, 5],
                      "Éditions mêlées": [5]}


def test_added_cards_are_counted_by_the_constraints(monkeypatch, capsys):
    import checker.front.check
    monkeypatch.setattr(checker.front.check, "check_paths", lambda paths, **options: _checked())
    prepared = prepare_game("play", FAN, "Nouveaux Personnages", 6, ["Kraken", "Ashura"])
    assert not isinstance(prepared, int), capsys.readouterr().err
    _, selection = prepared
    assert len(selection.cards["Character"]) == 14 and {"Kraken", "Ashura"} <= set(selection.cards["Character"])
    # 14 characters are too few for 7 players: the message counts the added ones
    assert prepare_game("play", FAN, "Nouveaux Personnages", 7, ["Kraken", "Ashura"]) == 2
    assert "count(c in selected(Character)) is 14, required >= 2 * player_count + 2" in capsys.readouterr().err
    # without cards added, the configuration's own counts
    assert prepare_game("play", FAN, "Nouveaux Personnages", 6) == 2
    assert "its players field allows 2–5" in capsys.readouterr().err
