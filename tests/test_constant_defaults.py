"""A var's default, a kind's attribute default, a card's attribute and a table's value are read once, before any
game (the interpreter's `Engine._constant`): `check` refuses one that is computed, located at the computed part,
instead of `play` stopping with an internal error (exit 3) at the game's start (found by h158)."""

from __future__ import annotations

import pytest

from test_language_constructs import checked

GAME = """game "Jeu" {
  edition: "test"
  players: 2..4
  flow: partie
}
kind Carte {
  force: Int in 0..9
  start: pioche
}
zone pioche: pile of Carte public
card Carte "A" { force: FORCE }
var x: Int = DEFAULT
procedure partie() {
  set x = 3
}
configuration "Tous" { players: 2..4 }
"""


def _errors(tmp_path, force="1", default="0"):
    result = checked(tmp_path, GAME.replace("FORCE", force).replace("DEFAULT", default))
    return [(d.code, d.message, d.span.line, d.span.column) for d in result.reporter.diagnostics
            if d.code.startswith("E")]


@pytest.mark.parametrize("default", ["1 + 2", "count(c in pioche)", "player_count"])
def test_a_computed_default_is_refused_where_it_is_written(tmp_path, default):
    [(code, message, line, column)] = _errors(tmp_path, default=default)
    assert code == "E0303" and message.startswith("the default of x must be a constant"), message
    assert (line, column) == (12, 14)


def test_a_computed_attribute_is_refused_at_the_computed_part(tmp_path):
    [(code, message, line, column)] = _errors(tmp_path, force="-(2 * 2)")
    assert code == "E0303" and message.startswith("force must be a constant")
    assert (line, column) == (11, 27)


@pytest.mark.parametrize("force, default", [("9", "-3"), ("0", "7")])
def test_constants_pass(tmp_path, force, default):
    assert _errors(tmp_path, force=force, default=default) == []


def test_play_is_never_reached_with_one(tmp_path, capsys):
    from conftest import run_cli
    path = tmp_path / "jeu.rules"
    path.write_text(GAME.replace("FORCE", "1").replace("DEFAULT", "1 + 2"), encoding="utf-8")
    code, _out, err = run_cli(capsys, "play", str(path), "-n", "2")
    assert code == 1 and "the spec has 1 error(s)" in err and "internal error" not in err
