"""The situation a conflict witness says (checker/solver/witness.py `witness_files`, its third value): the vars
first, then where the move's own cards are, then the rest — so that the card the move names is read first, whatever
its name.  Here `prendre(p, Basilic)` with the Ail and the Basilic both on the stall: the Basilic's place comes
before the Ail's, though "Ail" sorts first.  And a move whose optional card argument is none names no card.
Survivor of the lead's blind mutation sample 2611 (whole suite): witness.py:307 `v is not None` → `v is None` (the
move's cards never put first — every covering witness's moved card sorted first anyway, or was alone — and a none
argument an internal error)."""

from __future__ import annotations

import z3

from checker.conflicts.questions import Search
from checker.front.check import check_paths
from checker.solver.witness import witness_files

GAME = """\
game "Herbes" { players: 2..2  flow: partie  turn: tour }

kind Herbe { prix: Int in 1..2  start: étal }
zone étal: set of Herbe public
zone panier[Player]: set of Herbe public
var dernière: Herbe? = none

action prendre(p: Player, h: Herbe) "Prendre une herbe." { move h to panier[p] }
action rendre(p: Player, h: Herbe?) "Rendre une herbe, ou rien." { set dernière = h }

card Herbe "Ail" { prix: 1 }
card Herbe "Basilic" { prix: 2 }

procedure tour(p: Player) {
  offer p {
    prendre(p, h) for h in étal
    rendre(p, none)
    finish "Passer"
  }
}

procedure partie() { for p in players { call tour(p) } }

configuration "Tout" { include Herbe: "Ail", "Basilic" }
"""


def _search(tmp_path):
    path = tmp_path / "herbes.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    return Search(result.typed, players=2)


def _both_on_the_stall(search):
    enc = search.encoder()
    ail, basilic = search.engine.card("Ail"), search.engine.card("Basilic")
    s = z3.Solver()
    s.add(enc.cells.member("étal", None, ail), enc.cells.member("étal", None, basilic))
    assert s.check() == z3.sat
    return enc, s.model(), ail, basilic


def test_the_moved_cards_place_is_said_before_the_others(tmp_path):
    search = _search(tmp_path)
    enc, model, ail, basilic = _both_on_the_stall(search)
    _, move, lines = witness_files(search, enc, model, "prendre", (0, basilic))
    assert move["args"] == ["Joueur 1", "Basilic"], move
    assert lines[:2] == ["player_count = 2", "prendre(Joueur 1, Basilic)"], lines
    places = [line for line in lines[2:] if "∈ étal" in line]
    assert len(places) == 2 and places[0].startswith("Basilic") and places[1].startswith("Ail"), lines
    # the other card moved: its place first
    enc, model, ail, basilic = _both_on_the_stall(search)
    _, _, lines = witness_files(search, enc, model, "prendre", (0, ail))
    places = [line for line in lines[2:] if "∈ étal" in line]
    assert places[0].startswith("Ail") and places[1].startswith("Basilic"), lines


def test_a_move_whose_card_argument_is_none_names_no_card(tmp_path):
    from checker.solver.encode import NONE
    search = _search(tmp_path)
    enc, model, _, _ = _both_on_the_stall(search)
    _, move, lines = witness_files(search, enc, model, "rendre", (0, NONE))
    assert move["args"] == ["Joueur 1", None], move
    places = [line for line in lines[2:] if "∈ étal" in line]
    assert len(places) == 2 and places[0].startswith("Ail"), lines       # no moved card: by name
