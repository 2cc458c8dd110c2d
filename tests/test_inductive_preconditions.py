"""A procedure's precondition (`procedure name(…) requires cond { … }`, docs/language.md): the interpreter stops a
call where it does not hold; the invariant search asks the procedure from the states it allows and asks each
caller whether it can call it elsewhere (docs/conflicts.md, *Invariants broken*)."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.conflicts.inductive import broken_invariants
from checker.conflicts.questions import Search
from checker.front.check import check_paths
from checker.runtime.agents import RandomAgent
from checker.runtime.engine import Engine
from checker.runtime.frames import Stepper
from checker.runtime.state import SpecRuntimeError

GAME = Path("tests/fixtures/good/minimal_game.rules")
HOUSE = Path("tests/fixtures/invariants")
LOTS = {"Lot": ["Safran d'Iran", "Poivre noir", "Cannelle"]}


def _checked(*paths):
    result = check_paths([Path(p) for p in paths])
    assert result.ok, result
    return result


def test_a_procedure_asked_alone_is_asked_where_its_precondition_holds_and_its_caller_where_it_calls_it():
    search = Search(_checked(GAME, HOUSE / "étrennes_requises.rules").typed)
    found = broken_invariants(search, only={"étrenne_requise", "double_étrenne"}, procedures=True)
    tally = search.inductive["deux_lots_au_plus"]
    # a lot given where the basket has room: kept (without the precondition, a full basket breaks it)
    assert tally["proven"] == ["étrenne_requise"], tally
    # the caller writes nothing itself, but must meet the precondition where it calls: the second call can't
    assert tally["undecided"] == ["double_étrenne"], tally
    assert "double_étrenne" in tally["uncovered"] and "étrenne_requise" not in tally["uncovered"], tally
    [f] = found
    assert f.kind == "unknown" and "procedure étrenne_requise is called where its precondition" in f.unknown
    assert f.span.line in (15, 16)                  # one of the calls, not the declaration


def test_the_interpreter_stops_a_call_where_the_precondition_does_not_hold(tmp_path):
    house = tmp_path / "trois_étrennes.rules"
    house.write_text('overlay "Trois étrennes" on "Marché aux épices"\n'
                     + (HOUSE / "étrennes_requises.rules").read_text(encoding="utf-8") + """
replace procedure partie() {
  for p in players {
    call étrenne_requise(p)
    call étrenne_requise(p)
    call étrenne_requise(p)
  }
}
""", encoding="utf-8")
    typed = _checked(GAME, house).typed
    with pytest.raises(SpecRuntimeError, match="procedure étrenne_requise is called where its precondition") as err:
        Engine(typed).play(LOTS, 2, 0, [RandomAgent(0), RandomAgent(1)])
    assert err.value.span.line == 10                # the `requires` (the overlay's line 1 added)
    # the flow run statement by statement (a state's frames) checks it too
    engine = Engine(typed)
    engine.start(LOTS, 2, 0, [RandomAgent(0), RandomAgent(1)])
    with pytest.raises(SpecRuntimeError, match="precondition"):
        Stepper(engine).play()


def test_a_call_that_meets_the_precondition_plays_on():
    typed = _checked(GAME, HOUSE / "étrennes_requises.rules").typed
    engine = Engine(typed)
    engine.start(LOTS, 2, 0, [RandomAgent(0), RandomAgent(1)])
    engine.call("double_étrenne", (0,))             # 0 then 1 lot in the basket: room both times
    assert len(engine.st.zones["panier"][0]) == 2


def test_the_draft_is_proven_from_the_states_it_is_called_in():
    """The 4th edition's draft (`choix_à_deux`, `choix_à_trois`) declares where the flow calls it (hands empty, a
    player holding the Couronne, its player count): asked from there, it keeps every invariant; run from any state
    (before the preconditions) it broke two of them and stopped on `couronne = none` for the third."""
    search = Search(_checked("spec/citadelles").typed, players=2)
    found = broken_invariants(search, only={"choix_à_deux"}, procedures=True)
    assert found == [], [f.message for f in found]
    for inv in ("deux_personnages_à_deux_ou_trois", "un_personnage_de_chaque_rang"):
        assert search.inductive[inv]["proven"] == ["choix_à_deux"], search.inductive[inv]


def test_a_procedure_broken_alone_but_only_called_inside_one_that_keeps_the_invariant_is_covered(tmp_path):
    search = Search(_checked(GAME, HOUSE / "étrennes_requises.rules").typed)
    found = broken_invariants(search, only={"donner", "deux_étrennes"}, procedures=True)
    tally = search.inductive["deux_lots_au_plus"]
    assert tally["proven"] == ["deux_étrennes"] and tally["broken"] == ["donner"], tally
    assert tally["covered"] == ["donner"] and "donner" not in tally["uncovered"], tally
    [f] = found                                     # still a finding: true of `donner` run alone
    assert f.confirmed is True and f.resolution.startswith("every call of donner is inside deux_étrennes")
    # one more caller that is not proven (it writes nothing itself, so it is not asked): no longer covered
    house = tmp_path / "partout.rules"
    house.write_text((HOUSE / "étrennes_requises.rules").read_text(encoding="utf-8")
                     + "\nprocedure partout() {\n  for q in players {\n    call donner(q)\n  }\n}\n", encoding="utf-8")
    search = Search(_checked(GAME, house).typed)
    found = broken_invariants(search, only={"donner", "deux_étrennes"}, procedures=True)
    assert search.inductive["deux_lots_au_plus"]["covered"] == [] and found[0].resolution is None


def test_a_procedures_witness_holds_the_characters_of_a_legal_selection():
    """At 4 players a game selects 8 or 9 characters; the witness of `choix_à_trois` (asked without its
    precondition), whose model places every character it selects and gives none to a player, names one of them
    at its decision point instead of putting a 10th, unselected, in front of a player (as it did before)."""
    search = Search(_checked("spec/citadelles", HOUSE / "choix_sans_précondition.rules").typed)
    found = broken_invariants(search, only={"choix_à_trois"}, procedures=True)
    [f] = [f for f in found if f.rules == ("choix_à_trois", "un_personnage_par_joueur")]
    assert f.confirmed is True, f.replayed
    assert len(f.witness["selection"]["Character"]) in (8, 9), f.witness["selection"]
    held = [c for cards in f.witness["zones"].get("choisis", {}).values() for c in cards]
    assert len(held) <= 4, held                     # at most one each: the state meets the invariant
