"""A game goes on from a state file's frames as if it had not stopped (checker.runtime.frames,
checker.solver.framefile): a seeded game is played to its end; the state at its decision N is written as
`play --state-at N` writes it (with its frames) and read back from JSON; the interpreter goes on from it with
the same agents' remaining answers.  The log from decision N on, the scores and the final state must be the
uninterrupted game's.  Also: a state file without frames still loads for eval/legal/moves and is refused
for going on, with the reason."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine
from checker.runtime.agents import RandomAgent
from checker.runtime.replay import state_digest
from checker.solver.scopes import Scopes
from checker.solver.statefile import StateFileError, StateRecorder, load_state
from conftest import ROOT, bundled


@functools.cache
def _checked(spec: str):
    if spec == "spec/citadelles":
        return bundled()            # shared with the other tests of the session
    return check_paths([ROOT / spec])


@functools.cache
def _game(spec: str, config: str | None, players: int = 4):
    result = _checked(spec)
    program = result.program
    if config is None:
        config = next(iter(program.configurations))
    return result, select(program, program.configurations[config], players).cards


@functools.cache
def _engine(spec: str) -> Engine:
    """One compiled engine per spec for these tests (each game sets it up again)."""
    return Engine(_checked(spec).typed)


def _digest(engine) -> str:
    """The state's digest, an indexed var's entries equal to its default left out (a state file leaves them out:
    a var indexed by a card that was given 0 reads 0 as one never written)."""
    st = engine.st
    saved = st.vars
    vars_ = {}
    for name, var in engine.program.vars.items():
        value = saved[name]
        if var.index is not None:
            default = 0 if var.counter else engine.var_defaults[name]
            value = {k: v for k, v in value.items() if v != default}
        vars_[name] = value
    st.vars = vars_
    try:
        return state_digest(st)
    finally:
        st.vars = saved


class _Answers:
    def __init__(self, answers):
        self.answers, self.next = list(answers), 0

    def choose(self, decision) -> int:
        self.next += 1
        return self.answers[self.next - 1]


def _uninterrupted(engine, cards, players, seed, n):
    """A whole game with random agents, the state file at decision n (frames included), the game's answers."""
    scopes = Scopes(engine.typed)
    recorder = StateRecorder(engine, scopes, n, ["spec"])
    engine.observer = recorder
    engine.recording, engine.digests = True, False
    game = engine.play(cards, players, seed, [RandomAgent(seed * 1000 + k) for k in range(players)])
    engine.observer = None
    final = _digest(engine)
    answers = list(engine.choices)
    recorder.add_frames()
    return game, final, answers, recorder, scopes


def _resumed(engine, scopes, state: dict, answers):
    from checker.play.resume import resume_game
    loaded = load_state(engine, json.loads(json.dumps(state)), scopes)
    engine.recording, engine.digests = True, False
    game = resume_game(loaded, [_Answers(answers)] * engine.st.n)
    return game, _digest(engine)


def _check(spec, config, players, seed, n):
    result, cards = _game(spec, config, players)
    engine = _engine(spec)
    game, final, answers, recorder, scopes = _uninterrupted(engine, cards, players, seed, n)
    assert recorder.frames_note is None, recorder.frames_note
    state = recorder.state
    assert state["format"] == "rulebook-state/2" and state["resume"]["frames"]
    decisions = [i for i, e in enumerate(game.events) if e["kind"] == "decision"]
    first = decisions[n - 1]
    again, digest = _resumed(engine, scopes, state, answers[n - 1:])
    assert again.events == game.events[first:]
    assert again.scores == game.scores and again.winners == game.winners
    assert digest == final
    return state


@pytest.mark.parametrize("seed,n", [(1, 1), (3, 20), (5, 37), (8, 61)])
def test_citadelles_goes_on_from_its_frames(seed, n):
    _check("spec/citadelles", "Première partie", 4, seed, n)


@pytest.mark.parametrize("seed,n", [(2, 3), (4, 15)])
def test_carcassonne_goes_on_from_its_frames(seed, n):
    _check("spec/carcassonne", None, 2, seed, n)


def test_frames_without_section_load_and_are_refused(tmp_path, capsys, bundled_checked_once):
    """A state file without frames (rulebook-state/1) loads as before; going on from it is refused."""
    result, cards = _game("spec/citadelles", "Première partie")
    engine = _engine("spec/citadelles")
    *_, recorder, scopes = _uninterrupted(engine, cards, 4, 3, 20)
    old = {k: v for k, v in recorder.state.items() if k != "resume"}
    old["format"] = "rulebook-state/1"
    loaded = load_state(engine, old, scopes)
    assert loaded.resume is None and loaded.point.site is not None
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    from checker.cli import main
    code = main(["play", str(ROOT / "spec/citadelles"), "--from", str(path), "-q"])
    assert code == 4
    assert "records no frames" in capsys.readouterr().err


def test_a_frame_that_leads_elsewhere_is_bad_input():
    result, cards = _game("spec/citadelles", "Première partie")
    engine = _engine("spec/citadelles")
    *_, recorder, scopes = _uninterrupted(engine, cards, 4, 3, 20)
    state = json.loads(json.dumps(recorder.state))
    state["resume"]["frames"][0]["path"][0]["index"] += 1
    with pytest.raises(StateFileError) as exc:
        load_state(engine, state, scopes)
    assert any(path.startswith("resume/frames/0/path/0") for path, _ in exc.value.problems)


def test_apply_at_an_offer_keeps_the_frames(tmp_path, bundled_checked_once, capsys):
    """`apply` of a move at an offer whose effect asks nothing: the next state is the offer's next question, with
    the same frames and the game's random source — the state `play --state-at` writes at the next decision."""
    from checker.cli import main
    spec = str(ROOT / "spec/citadelles")
    base = ["play", spec, "-n", "4", "-s", "1", "-c", "Première partie", "-q"]
    assert main(base + ["--state-at", "32", str(tmp_path / "a.json")]) == 0
    assert main(base + ["--state-at", "33", str(tmp_path / "b.json")]) == 0
    before = json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    after = json.loads((tmp_path / "b.json").read_text(encoding="utf-8"))
    assert before["decision"]["kind"] == "offer" and after["decision"] == before["decision"]
    built = [c for c in after["zones"]["cité"]["Joueur 4"] if c not in before["zones"]["cité"].get("Joueur 4", [])]
    assert len(built) == 1
    move = tmp_path / "move.json"
    move.write_text(json.dumps({"player": "Joueur 4", "action": "bâtir", "args": ["Joueur 4", built[0]]}),
                    encoding="utf-8")
    capsys.readouterr()
    assert main(["apply", str(tmp_path / "a.json"), str(move), "-o", str(tmp_path / "next.json")]) == 0
    applied = json.loads((tmp_path / "next.json").read_text(encoding="utf-8"))
    assert applied["format"] == "rulebook-state/2"
    assert applied == after


def test_a_frame_listing_a_hundred_thousand_bad_elements_stops_after_twenty_problems(monkeypatch):
    """A `for` step's `over` (the collection the loop runs over) made of junk: the loader stops after its
    twentieth problem, as the rest of a state file's reader does — h128's probe made 1.6 million bad names
    take 2 GB of problems before."""
    from checker.base.documents import MAX_PROBLEMS
    result, cards = _game("spec/citadelles", "Première partie")
    engine = _engine("spec/citadelles")
    *_, recorder, scopes = _uninterrupted(engine, cards, 4, 3, 20)
    state = json.loads(json.dumps(recorder.state))
    steps = [(k, i) for k, frame in enumerate(state["resume"]["frames"])
             for i, step in enumerate(frame["path"]) if "over" in step]
    assert steps, "the state at decision 20 is inside a `for` loop"
    k, i = steps[0]
    state["resume"]["frames"][k]["path"][i]["over"] = ["Personne"] * 100_000
    from checker.solver import statefile
    read, elements = statefile._Values.read, []

    def counted(self, raw, ty, where, problems):
        if "/over/" in where:
            elements.append(where)
        return read(self, raw, ty, where, problems)
    monkeypatch.setattr(statefile._Values, "read", counted)
    with pytest.raises(StateFileError) as exc:
        load_state(engine, state, scopes)
    assert len(elements) <= MAX_PROBLEMS + 1, f"{len(elements):,} elements read after the problems said enough"
    problems = exc.value.problems
    assert MAX_PROBLEMS <= len(problems) <= MAX_PROBLEMS + 2, len(problems)
    assert all(path.startswith(f"resume/frames/{k}/path/{i}/over/") for path, _ in problems[:MAX_PROBLEMS])
