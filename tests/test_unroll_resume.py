"""The flow over K decisions from a state file's frames (`reach --from`), two ways, in the style of
tests/test_unroll.py: a seeded game's state at decision N is written with its frames (as `play --state-at`
writes it) and read back; the interpreter goes on from it with seeded random answers over K decision points
(checker.runtime.frames); the Z3 encoding unrolls from the same frames (checker.solver.unroll_resume), its
unknowns pinned to the same answers.  They must reach the same state, at decision K + 1 or at the game's end."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from checker.front import ast
from checker.solver.encode import Encoder
from checker.solver.unroll import Unrolled
from checker.solver.unroll_resume import resume
from checker.solver.statefile import load_state
from test_frames import _engine, _game, _uninterrupted
from test_unroll import _Agent, _Budget, pin, same_state


def _state(spec, config, players, seed, n):
    result, cards = _game(spec, config, players)
    engine = _engine(spec)
    *_, recorder, scopes = _uninterrupted(engine, cards, players, seed, n)
    assert recorder.frames_note is None, recorder.frames_note
    return engine, scopes, json.loads(json.dumps(recorder.state))


def _interpreter(engine, scopes, data, budget: int, seed: int):
    loaded = load_state(engine, data, scopes)
    log: list = []
    rng = random.Random(seed)
    loaded.resume.prepare(engine, [_Agent(rng, log) for _ in range(engine.st.n)])
    engine.recording = False
    points = [0]

    def observe(decision):
        if isinstance(decision.site, ast.Offer) or len(decision.options) > 1 or decision.optional:
            points[0] += 1
            if points[0] > budget:
                raise _Budget()
    engine.observer = observe
    stopped = False
    try:
        loaded.resume.go_on(engine)
    except _Budget:
        stopped = True
    finally:
        engine.observer = None
    st = engine.st
    after = (dict(st.where), {k: (dict(v) if isinstance(v, dict) else v) for k, v in st.vars.items()},
             dict(st.uses), st.turn, st.round)
    return after, log, stopped


def compare_from(engine, scopes, data, budget: int, seed: int) -> Unrolled:
    after, log, stopped = _interpreter(engine, scopes, data, budget, seed)
    loaded = load_state(engine, data, scopes)
    loaded.resume.prepare(engine, [None] * engine.st.n)
    engine.recording = False
    before_where = dict(engine.st.where)
    before_vars = {k: (dict(v) if isinstance(v, dict) else v) for k, v in engine.st.vars.items()}
    t = Unrolled(Encoder(engine, concrete=True), budget)
    resume(t, loaded.resume.frames, scopes)
    m = pin(t, log)
    same_state(engine, t, m, before_where, before_vars, after, stopped, log)
    return t


@pytest.mark.parametrize("seed,n,budget,answers", [(3, 20, 2, 0), (1, 1, 2, 1), (5, 37, 1, 2)])
def test_the_fourth_edition_from_a_state_file(seed, n, budget, answers):
    """From a draft's `choose` (inside a `for` over the seats, inside the round's `repeat`) and from an offer's
    question: the rest of the draft, the reveals, the resources and the offers, as the interpreter plays them."""
    engine, scopes, data = _state("spec/citadelles", "Première partie", 4, seed, n)
    compare_from(engine, scopes, data, budget, answers)


def test_the_market_from_a_state_file():
    engine, scopes, data = _state("tests/fixtures/good/minimal_game.rules", "Standard", 2, 3, 2)
    t = compare_from(engine, scopes, data, 4, 7)
    assert t.deal is not None


def test_reach_from_a_state_file_answers_and_refuses_one_without_frames(tmp_path, capsys):
    """`reach --from`: a path found from the state file's decision point is replayed by the interpreter from
    there; a proof; the same file without its frames is refused (exit 4, one line)."""
    from checker.cli import main
    _, _, data = _state("tests/fixtures/good/minimal_game.rules", "Standard", 2, 3, 2)
    path = tmp_path / "state.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    spec = "tests/fixtures/good/minimal_game.rules"
    held = sum(1 for _ in data["zones"].get("panier", {}).get("Joueur 1", []))
    assert main(["reach", spec, f"count(l in panier[Joueur 1]) >= {held + 1}", "--within", "3", "--from",
                 str(path)]) == 0
    out = capsys.readouterr().out
    assert "confirmed by the interpreter" in out and "the state file's" in out
    assert main(["reach", spec, "count(l in panier[Joueur 1]) >= 4", "--within", "3", "--from", str(path)]) == 1
    assert "proved" in capsys.readouterr().out
    old = {k: v for k, v in data.items() if k != "resume"}
    old["format"] = "rulebook-state/1"
    path.write_text(json.dumps(old), encoding="utf-8")
    assert main(["reach", spec, "true", "--within", "1", "--from", str(path)]) == 4
    err = capsys.readouterr().err
    assert "records no frames" in err and len(err.strip().splitlines()) == 1


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 3), seed=st.integers(0, 10**6), n=st.integers(1, 6), budget=st.integers(0, 4))
def test_market_states_drawn_by_hypothesis(players, seed, n, budget):
    result, cards = _game("tests/fixtures/good/minimal_game.rules", "Standard", players)
    engine = _engine("tests/fixtures/good/minimal_game.rules")
    *_, recorder, scopes = _uninterrupted(engine, cards, players, seed, n)
    assume(recorder.state is not None)          # the game has a decision n
    assert recorder.frames_note is None, recorder.frames_note
    compare_from(engine, scopes, json.loads(json.dumps(recorder.state)), budget, seed)
