"""A conflict witness (checker/solver/witness.py `witness_files`) for a card the question needs (the move's own
card) that the model puts in no zone while saying it is not in its kind's start zone: the card goes to the
first zone of its kind that has no index and that the model says nothing about, and the state file reads back.
Survivor of the blind mutation sample -e (witness.py:217, an indexed zone taken instead, which a state file
cannot hold as a list), which no test of the solver set ran.  And a var holding a record (one Z3 constant per
field) put together from its fields: survivor of sample -j (witness.py:133)."""

from __future__ import annotations

import z3

from checker.conflicts.questions import Search
from checker.front.check import check_paths
from checker.runtime import Engine
from checker.solver.scopes import Scopes
from checker.solver.statefile import load_state
from checker.solver.witness import witness_files

GAME = """\
game "Témoin" { players: 2..2  flow: partie }

kind Carte { valeur: Int in 1..2  start: pioche }
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
zone défausse: pile of Carte public

action jouer(p: Player, c: Carte) "Jouer." { move c to défausse }

card Carte "Un" { valeur: 1 }
card Carte "Deux" { valeur: 2 }

procedure partie() { for p in players { offer p { jouer(p, c) for c in main[p]  finish "Passer" } } }

configuration "Tout" { include Carte: "Un", "Deux" }
"""


def test_a_needed_card_not_in_its_start_zone_goes_to_a_zone_of_its_kind_without_index(tmp_path):
    path = tmp_path / "temoin.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    search = Search(result.typed, players=2)
    enc = search.encoder()
    deux = search.engine.card("Deux")
    s = z3.Solver()
    s.add(z3.Not(enc.cells.member("pioche", None, deux)))        # the model: "Deux" is not in the pile
    assert s.check() == z3.sat
    state, move, _ = witness_files(search, enc, s.model(), "jouer", (0, deux))
    assert state["zones"] == {"défausse": ["Deux"]}
    assert state["selection"] == {"Carte": ["Deux"]} and move["args"] == ["Joueur 1", "Deux"]
    e = Engine(result.typed)
    e.recording = False
    load_state(e, {**state, "spec": [str(path)]}, Scopes(result.typed))
    assert [e.show_card(c) for c in e.st.zone("défausse")] == ["Deux"]


MARKED = GAME.replace('game "Témoin"', 'game "Marqué"').replace(
    "zone pioche:", 'enum Côté { nord, sud }\nrecord Marque { côté: Côté, fort: Bool }\n'
    'var marque: Marque = Marque(nord, false) public\nzone pioche:')


def test_a_record_valued_var_in_a_witness_is_written_from_its_fields_and_reads_back(tmp_path):
    """A var holding a record is one Z3 constant per field in a symbolic state: the witness puts the fields the
    model gives together into the record (the state file writes it as an object of its fields), and the
    interpreter reads it back.  Survivor of the blind mutation sample -j: witness.py:133 `key[0] == "var"` →
    `key[1] == "var"` (a field's cell taken for a whole var: the witness failed with a ValueError)."""
    path = tmp_path / "marque.rules"
    path.write_text(MARKED, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    search = Search(result.typed, players=2)
    enc = search.encoder()
    côté, fort = enc.var("marque")
    s = z3.Solver()
    s.add(côté == 1, fort)                                  # the model: Marque(sud, true), not the default
    assert s.check() == z3.sat
    state, _, _ = witness_files(search, enc, s.model(), None, ())
    assert state["vars"]["marque"] == {"côté": "sud", "fort": True}, state["vars"]
    e = Engine(result.typed)
    e.recording = False
    load_state(e, {**state, "spec": [str(path)]}, Scopes(result.typed))
    assert e.st.vars["marque"] == ("sud", True)
