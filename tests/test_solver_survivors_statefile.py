"""State files (checker/solver/statefile.py) write an indexed counter's entries that are not 0 (a counter's
default) and read them back: a player with 1 coin is written, and read back with 1.  Survivor of the blind
mutation sample -e (statefile.py:217, a counter's default 0 → 1: the entries equal to 1 were left out, and read
back as 0).  Later tests: record keys (sample -h), the grid's bounds (sample -j), a record key with a card."""

from __future__ import annotations

import json

from checker.front.check import check_paths
from checker.runtime import Engine
from checker.solver.scopes import Scopes
from checker.solver.statefile import load_state
from conftest import run_cli

GAME = """\
game "Bourse" { players: 2..3  flow: partie }

kind Jeton { valeur: Int in 1..1  start: sac }
zone sac: pile of Jeton public
counter réserve unlimited
counter bourse[Player] public
var mise[Player]: Int = 2

action payer(p: Player) "Payer." { transfer up to 1 from bourse[p] to réserve }

card Jeton "Un" { valeur: 1 }

procedure partie() {
  for p in players { transfer 1 from réserve to bourse[p] }
  for p in players { set mise[p] = 1 }
  for p in players { offer p { payer(p)  finish "Passer" } }
}

configuration "Tout" { include Jeton: "Un" }
"""


def test_a_counter_at_1_and_a_var_away_from_its_default_are_written_and_read_back(capsys, tmp_path):
    spec = tmp_path / "bourse.rules"
    spec.write_text(GAME, encoding="utf-8")
    state = tmp_path / "etat.json"
    code, _, err = run_cli(capsys, "play", str(spec), "-n", "3", "-s", "1", "-q", "--state-at", "1", str(state))
    assert code == 0, err
    data = json.loads(state.read_text(encoding="utf-8"))
    assert data["vars"]["bourse"] == {"Joueur 1": 1, "Joueur 2": 1, "Joueur 3": 1}
    assert data["vars"]["mise"] == {"Joueur 1": 1, "Joueur 2": 1, "Joueur 3": 1}
    result = check_paths([spec])
    e = Engine(result.typed)
    e.recording = False
    load_state(e, data, Scopes(result.typed))
    assert e.st.vars["bourse"] == {0: 1, 1: 1, 2: 1} and e.st.vars["mise"] == {0: 1, 1: 1, 2: 1}


MARKS = """\
game "Marques" { players: 2..2  flow: partie }

enum Côté { nord, sud }
record Marque { côté: Côté, fort: Bool }

kind Jeton { valeur: Int in 1..1  start: sac }
zone sac: pile of Jeton public
var vu[Marque]: Int = 0 public

action passer(p: Player) "Passer." { set vu[Marque(sud, true)] = 3 }

card Jeton "Un" { valeur: 1 }

procedure partie() {
  set vu[Marque(nord, false)] = 2
  for p in players { offer p { passer(p)  finish "Finir" } }
}

configuration "Tout" { include Jeton: "Un" }
"""


def test_a_record_key_is_read_field_by_field_and_null_is_no_value_of_a_field_that_is_not_optional(capsys, tmp_path):
    """A var indexed by a record is written with its fields separated by " | " and read back field by field; a
    field written `null` that is not optional is refused with the field's path, not read as no value.  Survivor
    of the blind sample -h (shapefile.py:120, `null` read as none whenever the field is not optional, or any
    text of an optional field read as none): no test of the solver set read a record key back."""
    import pytest
    from checker.solver.statefile import StateFileError
    spec = tmp_path / "marques.rules"
    spec.write_text(MARKS, encoding="utf-8")
    state = tmp_path / "etat.json"
    code, _, err = run_cli(capsys, "play", str(spec), "-n", "2", "-s", "1", "-q", "--state-at", "1", str(state))
    assert code == 0, err
    data = json.loads(state.read_text(encoding="utf-8"))
    assert data["vars"]["vu"] == {"nord | false": 2}
    result = check_paths([spec])

    def load(vu):
        e = Engine(result.typed)
        e.recording = False
        load_state(e, {**data, "vars": {**data["vars"], "vu": vu}}, Scopes(result.typed))
        return e.st.vars["vu"]
    assert load({"nord | false": 2, "sud | true": 1}) == {("nord", False): 2, ("sud", True): 1}
    with pytest.raises(StateFileError) as refused:
        load({"null | true": 1})
    assert any("(côté)" in path for path, _ in refused.value.problems), refused.value.problems


def test_a_cell_outside_the_grid_is_refused_with_the_grids_bounds(capsys, tmp_path):
    """Carcassonne's grid `Case` is 155 by 155 around (0, 0): rows and columns run from -77 to 77, and a move
    naming row 78 is refused with those bounds (shapefile.py's ``read_shape``), not read."""
    state = tmp_path / "etat.json"
    code, _, err = run_cli(capsys, "play", "spec/carcassonne", "-n", "2", "-s", "1", "-q", "--state-at", "1",
                           str(state))
    assert code == 0, err
    move = tmp_path / "coup.json"
    move.write_text(json.dumps({"player": "Joueur 1", "action": "placer",
                                "args": ["Joueur 1", {"case": [78, 0], "segment": "x"}]}), encoding="utf-8")
    code, _, err = run_cli(capsys, "legal", str(state), str(move))
    assert code == 2
    assert "args/1/case: [78, 0] is outside the grid Case (rows and columns from -77 to 77)" in err, err



PLEDGES = """\
game "Gages" { players: 2..2  flow: partie }

record Gage { jeton: Jeton, fort: Bool }

kind Jeton { valeur: Int in 1..2  start: sac }
zone sac: pile of Jeton public
var vu[Gage]: Int = 0 public
quantity vu_de(j: Jeton): Int = vu[Gage(j, j.valeur == 2)]

action passer(p: Player) "Passer." { }

card Jeton "Un" { valeur: 1 }
card Jeton "Deux" { valeur: 2 }

procedure partie() {
  for j in sac { set vu[Gage(j, j.valeur == 2)] = j.valeur }
  for p in players { offer p { passer(p)  finish "Finir" } }
}

configuration "Tout" { include Jeton: "Un", "Deux" }
"""


def test_a_record_key_with_a_card_names_the_card_and_reads_back_to_what_the_game_reads(capsys, tmp_path):
    """A var indexed by a record with a card field: a card in a record is its definition (cards compare by name),
    so each key names its card by its name and reads back to the definition, where the game, reading
    `vu[Gage(j, …)]` with the card itself, finds the value again.  (Written for the blind mutation sample -j's
    shapefile.py:91 `value < 0` → `value < 1`, which it does not kill: a card in a record is never card 0, see
    bench/results/mutation-2026-11-28-j-kills.txt.)"""
    spec = tmp_path / "gages.rules"
    spec.write_text(PLEDGES, encoding="utf-8")
    state = tmp_path / "etat.json"
    code, _, err = run_cli(capsys, "play", str(spec), "-n", "2", "-s", "1", "-q", "--state-at", "1", str(state))
    assert code == 0, err
    data = json.loads(state.read_text(encoding="utf-8"))
    assert data["vars"]["vu"] == {"Un | false": 1, "Deux | true": 2}
    result = check_paths([spec])
    e = Engine(result.typed)
    e.recording = False
    load_state(e, data, Scopes(result.typed))
    assert e.st.vars["vu"] == {(e.def_ids["Un"], False): 1, (e.def_ids["Deux"], True): 2}
    assert [e.quantity("vu_de", (e.card(name),)) for name in ("Un", "Deux")] == [1, 2]


def test_a_record_key_with_an_optional_field_reads_its_value_and_null_as_none(capsys, tmp_path):
    """A var indexed by a record whose first field is optional (`côté: Côté?`): the key "nord | true" reads back
    with the field's value, "null | false" with none in it, and the game reads both entries where it wrote
    them.  Survivor of the blind mutation sample -l (shapefile.py:120 `==` → `!=`: an optional field's value read
    as none, and its `null` read as a value of the field's type, which is refused)."""
    spec = tmp_path / "marques.rules"
    spec.write_text(MARKS.replace("record Marque { côté: Côté, fort: Bool }",
                                  "record Marque { côté: Côté?, fort: Bool }").replace(
        "set vu[Marque(nord, false)] = 2", "set vu[Marque(nord, true)] = 2\n  set vu[Marque(none, false)] = 4"),
        encoding="utf-8")
    state = tmp_path / "etat.json"
    code, _, err = run_cli(capsys, "play", str(spec), "-n", "2", "-s", "1", "-q", "--state-at", "1", str(state))
    assert code == 0, err
    data = json.loads(state.read_text(encoding="utf-8"))
    assert data["vars"]["vu"] == {"nord | true": 2, "null | false": 4}
    result = check_paths([spec])
    e = Engine(result.typed)
    e.recording = False
    load_state(e, data, Scopes(result.typed))
    assert e.st.vars["vu"] == {("nord", True): 2, (None, False): 4}


def test_a_resume_section_counts_the_decisions_asked_before_and_one_without_the_count_is_refused(tmp_path):
    """`play --state-at 4` on tests/test_runtime_survivors_frames.py's game of three rounds (six decisions): the
    resume section says 3 decisions were asked before, and the game resumed from it counts all 6, with the same
    scores.  The count is required (docs/formats.md's schema): a section without it is refused with its path, so
    framefile.py's `read_resume` always has it.  Written for the blind mutation sample -l's framefile.py:176 (the
    count missing read as 1 instead of 0), which no state file reaches: the default was dead, and is gone."""
    import copy

    import pytest

    from checker.play.resume import resume_game
    from checker.solver.statefile import StateFileError
    from test_runtime_survivors_frames import ANSWERS, GAME as ROUNDS, _Answers, _compiled, _played
    engine = _compiled(tmp_path / "manches.rules", ROUNDS)
    game, _final, recorder, scopes = _played(engine, 4)
    assert game.decisions == 6 and recorder.state["resume"]["decisions"] == 3
    loaded = load_state(engine, json.loads(json.dumps(recorder.state)), scopes)
    engine.recording, engine.digests = True, False
    again = resume_game(loaded, [_Answers(ANSWERS[3:])] * 2)
    assert (again.decisions, again.scores) == (6, game.scores)
    data = copy.deepcopy(recorder.state)
    del data["resume"]["decisions"]
    with pytest.raises(StateFileError) as refused:
        load_state(engine, data, scopes)
    assert refused.value.problems == [("resume", "'decisions' is a required property")]
