"""State files at an `each … chooses` decision (docs/formats.md, *decision*, kind `each`): the choices the players
asked before the decider made are recorded (`chosen`), read back with located errors, and `legal`, `moves` and
`apply` judge the decider's choice there as the interpreter offers it (spec/maison/enchères.rules: the Crown's
auction is the game's first decision)."""

from __future__ import annotations

import copy
import functools
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from checker.front import ast
from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent
from checker.runtime.engine import Decision
from checker.solver.legal import Legality, interpreter_moves, interpreter_options
from checker.solver.scopes import Scopes
from checker.solver.statefile import StateFileError, dump_state, load_state
from conftest import ROOT, checked_once, run_cli

SPEC, HOUSE = str(ROOT / "spec" / "citadelles"), str(ROOT / "spec" / "maison" / "enchères.rules")
PATHS = [SPEC, HOUSE]


@functools.cache
def house():
    result = checked_once((SPEC, HOUSE))
    assert result.ok
    return result


@functools.cache
def scopes() -> Scopes:
    return Scopes(house().typed)


class _At(Exception):
    def __init__(self, decision):
        self.decision = decision


def at_pick(k: int, seed: int = 0, players: int = 4):
    """(engine, decision): a seeded game stopped where the ``k``-th player asked (from 0) bids in the first auction."""
    result = house()
    e = Engine(result.typed)
    e.recording = False
    cards = select(result.program, result.program.configurations["Première partie"], players).cards
    seen = []

    def observe(decision):
        if isinstance(decision.site, ast.ChooseEach):
            if len(seen) == k:
                raise _At(decision)
            seen.append(decision)
    e.observer = observe
    with pytest.raises(_At) as stop:
        e.play(cards, players, seed, [RandomAgent(seed * 10 + i) for i in range(players)])
    return e, stop.value.decision


def state(k: int, seed: int = 0) -> dict:
    e, decision = at_pick(k, seed)
    return dump_state(e, decision, scopes(), PATHS)


def loaded(data: dict):
    e = Engine(house().typed)
    e.recording = False
    return e, load_state(e, data, scopes())


# ---------------------------------------------------------------- writing and reading back

@pytest.mark.parametrize("k", [0, 1, 3])
def test_an_each_decision_round_trips(k):
    """dump → load → dump gives the same file; the decision records, in the order asked, the choices made before."""
    data = state(k, seed=k)
    decision = data["decision"]
    assert decision["kind"] == "each" and decision["player"] == f"Joueur {k + 1}"
    assert [c["player"] for c in decision["chosen"]] == [f"Joueur {i + 1}" for i in range(k)]
    e, got = loaded(data)
    point = got.point
    assert point.kind == "each" and point.player == k and [p for p, _ in point.chosen] == list(range(k))
    again = dump_state(e, Decision(point.player, "", (), e.show, site=point.site, env=point.env,
                                   chosen=point.chosen), scopes(), PATHS)
    assert again == data


def _with(data: dict, **decision) -> dict:
    out = copy.deepcopy(data)
    out["decision"].update(decision)
    return out


CHOSEN = [{"player": "Joueur 1", "value": 1}, {"player": "Joueur 2", "value": 0}]
BAD = [
    ({"chosen": [{"player": "Joueur 9", "value": 1}, CHOSEN[1]]}, "decision/chosen/0/player", "no Joueur 9"),
    ({"chosen": [{"player": "Joueur 1", "value": "un"}, CHOSEN[1]]}, "decision/chosen/0/value", "whole number"),
    ({"chosen": [CHOSEN[0], CHOSEN[0]]}, "decision/chosen/1/player",
     "Joueur 1 is listed twice (also decision/chosen/0)"),
    ({"chosen": [CHOSEN[1], CHOSEN[0]]}, "decision/chosen/0/player", "Joueur 2 is out of order"),
    ({"chosen": [CHOSEN[0]]}, "decision/chosen", "no choice for Joueur 2"),
    ({"chosen": [*CHOSEN, {"player": "Joueur 4", "value": 0}]}, "decision/chosen/2/player", "asked after Joueur 3"),
    ({"chosen": [*CHOSEN, {"player": "Joueur 3", "value": 0}]}, "decision/chosen/2/player", "not made yet"),
    ({"chosen": [{"player": "Joueur 1", "value": 3}, CHOSEN[1]]}, "decision/chosen/0/value", "not a choice Joueur 1"),
    ({"names": {"p": "Joueur 1"}}, "decision/names/p", "who chooses here"),
]


@pytest.mark.parametrize("change,path,words", BAD, ids=[b[2] for b in BAD])
def test_a_bad_record_of_the_choices_made_is_a_located_error(change, path, words):
    data = _with(state(2), **change)
    assert data["vars"]["trésor"]["Joueur 1"] < 3       # a bid of 3 is more than Joueur 1 has
    with pytest.raises(StateFileError) as exc:
        loaded(data)
    assert any(p == path and words in message for p, message in exc.value.problems), exc.value.problems


def test_choices_made_belong_to_an_each_decision_only(capsys, tmp_path, specs_checked_once):
    """At another kind of decision, `chosen` is refused; through the command, in one located line (exit 2)."""
    e, decision = at_pick(0)
    data = _with(dump_state(e, decision, scopes(), PATHS), chosen=CHOSEN)
    data["decision"]["kind"] = "choose"
    path = tmp_path / "state.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    code, out, err = run_cli(capsys, "moves", str(path))
    assert code == 2 and "decision/kind" in err and "decision/chosen" in err, err


# ---------------------------------------------------------------- judging the decider's choice

@pytest.mark.parametrize("k,gold", [(0, None), (2, None), (3, None), (2, 0), (1, 3), (3, 1)])
def test_z3_moves_at_an_each_decision_are_the_interpreter_options(k, gold):
    """Z3's legal bids are the interpreter's, on the state the game reached and on one whose decider has other gold
    (which only the decider's options read: the earlier choices change no state)."""
    e, decision = at_pick(k, seed=k)
    data = dump_state(e, decision, scopes(), PATHS)
    live = interpreter_moves(decision)
    if gold is not None:
        data["vars"]["trésor"][f"Joueur {k + 1}"] = gold
        live = [("choose", m) for m in range(min(gold, 3) + 1)]
    e2, got = loaded(data)
    legality = Legality(e2, scopes())
    z3_moves = legality.moves(got.point)
    assert sorted(z3_moves) == sorted(interpreter_options(e2, got.point)) == sorted(live)
    for bid in range(5):
        verdict = legality.check(got.point, ("choose", bid))
        assert verdict.legal == (("choose", bid) in live), (bid, verdict.reasons)
        if not verdict.legal:
            assert {r.kind for r in verdict.reasons} <= {"where", "from"} and verdict.reasons
    other = legality.check(got.point, ("choose", 0), player=(k + 1) % 4)
    assert other.status == "illegal" and other.reasons[0].kind == "player"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(k=st.integers(0, 3), gold=st.lists(st.integers(0, 5), min_size=4, max_size=4), data=st.data())
def test_generated_each_states_agree(k, gold, data):
    """States Hypothesis draws: everyone's gold, and bids already made among what each could bid; the file loads,
    and Z3's legal bids for the decider are the interpreter's (run with the earlier bids replayed)."""
    state_ = copy.deepcopy(state(k))
    state_["vars"]["trésor"] = {f"Joueur {p + 1}": g for p, g in enumerate(gold)}
    state_["decision"]["chosen"] = [{"player": f"Joueur {p + 1}", "value": data.draw(st.integers(0, min(gold[p], 3)))}
                                    for p in range(k)]
    e, got = loaded(state_)
    z3_moves = Legality(e, scopes()).moves(got.point)
    assert sorted(z3_moves) == sorted(interpreter_options(e, got.point)) \
        == [("choose", m) for m in range(min(gold[k], 3) + 1)]


def test_legal_and_moves_say_how_many_chose_not_what(capsys, tmp_path, specs_checked_once):
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state(2), ensure_ascii=False), encoding="utf-8")
    code, out, err = run_cli(capsys, "moves", str(path))
    assert code == 0 and "(each, Joueur 3 decides; 2 chose before, in secret)" in out, out + err
    move = tmp_path / "move.json"
    move.write_text(json.dumps({"player": "Joueur 3", "choose": 3}), encoding="utf-8")
    code, out, err = run_cli(capsys, "legal", str(path), str(move))
    assert code == 1 and out.startswith("illegal: 3 at") and "where" in out, out + err


def test_apply_at_an_each_decision_writes_the_next_players_pick(capsys, tmp_path, specs_checked_once):
    """`apply` with the bid the game made gives the state the game is in at the next player's bid."""
    before, after = state(1, seed=5), state(2, seed=5)
    bid = after["decision"]["chosen"][-1]["value"]
    path, move, out = tmp_path / "state.json", tmp_path / "move.json", tmp_path / "next.json"
    path.write_text(json.dumps(before, ensure_ascii=False), encoding="utf-8")
    move.write_text(json.dumps({"player": "Joueur 2", "choose": bid}), encoding="utf-8")
    code, text, err = run_cli(capsys, "apply", str(path), str(move), "-o", str(out))
    assert code == 0, err
    assert json.loads(out.read_text(encoding="utf-8")) == after


def test_apply_at_the_last_pick_says_the_game_goes_on_past_a_state_file(capsys, tmp_path, specs_checked_once):
    path, move = tmp_path / "state.json", tmp_path / "move.json"
    path.write_text(json.dumps(state(3), ensure_ascii=False), encoding="utf-8")
    move.write_text(json.dumps({"player": "Joueur 4", "choose": 0}), encoding="utf-8")
    code, text, err = run_cli(capsys, "apply", str(path), str(move), "-o", str(tmp_path / "next.json"))
    assert code == 2 and "last choice of this `each … chooses`" in err and not (tmp_path / "next.json").exists()


# ---------------------------------------------------------------- the commands

def test_play_writes_the_state_at_an_each_decision(capsys, tmp_path, specs_checked_once):
    out = tmp_path / "state.json"
    code, text, err = run_cli(capsys, "play", SPEC, HOUSE, "-n", "4", "-c", "Première partie", "--state-at", "2",
                              str(out), "--quiet")
    assert code == 0, err
    decision = json.loads(out.read_text(encoding="utf-8"))["decision"]
    assert decision["kind"] == "each" and decision["player"] == "Joueur 2"
    assert [c["player"] for c in decision["chosen"]] == ["Joueur 1"]


def test_the_examples_of_the_auction_run(capsys, specs_checked_once):
    """Every example starts from the game's first decision, the first bid: each runs (the auction's own call
    the auction and can fail: a wrong bid expectation is reported)."""
    code, out, err = run_cli(capsys, "test", SPEC, HOUSE)
    assert code == 0 and "Le plus offrant, seul, paie sa mise" in out and "FAIL" not in out, out
