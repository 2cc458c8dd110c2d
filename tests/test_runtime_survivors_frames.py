"""A game goes on from a decision asked inside a procedure the flow calls from a loop (checker/runtime/frames.py),
on a tiny game of three rounds: the flow's `repeat` calls `manche`, whose `for p in players` asks each player a
number.  The state file `play --state-at N` writes records both frames (the flow's repeat and call, the round's
loop and choose), and the game resumed from them, with the same answers, logs and ends as the game played
without stopping.  Written for the survivors of the blind runtime sample (bench/results/mutation-2026-11-28-f.txt):
tests/test_frames.py plays Citadelles and Carcassonne, but is not in the runtime mutants' test set (too slow)."""

from __future__ import annotations

import json

import pytest

from checker.front.check import check_paths
from checker.runtime import Engine
from checker.runtime.frames import Frame, Step, capture, resumable
from checker.runtime.replay import state_digest
from checker.runtime.state import SpecRuntimeError
from checker.solver.scopes import Scopes
from checker.solver.statefile import StateRecorder, load_state
from conftest import run_cli

GAME = """
game "Manches" {
  edition: "test"
  players: 2..4
  flow: partie
  round: manche
  score: score
}
counter banque unlimited
counter bourse[Player] public
var numéro: Int = 0
var mises[Player]: Int = 0
quantity score(p: Player): Int = bourse[p] + mises[p]

procedure partie() {
  repeat {
    set numéro = numéro + 1
    call manche(numéro)
    log "fin de la manche {0}", numéro
  } until numéro >= 3
}
procedure manche(m: Int) {
  for p in players {
    transfer 1 from banque to bourse[p]
    choose n in 1..3 by p
    set mises[p] = mises[p] + n * m
    log "{0} mise {1}", p, n
    if n == 3 { log "{0} mise gros", p }
  }
}
configuration "Standard" { players: 2..4 }
"""

# the same game, the bet asked one call deeper: three frames (the flow, the round, the bet)
BET = """    choose n in 1..3 by p
    set mises[p] = mises[p] + n * m
    log "{0} mise {1}", p, n
    if n == 3 { log "{0} mise gros", p }
"""
DEEPER = GAME.replace(BET, "    call miser(p, m)\n").replace(
    'configuration "Standard"', "procedure miser(p: Player, m: Int) {\n" + BET + '}\nconfiguration "Standard"')

# the answers (indices: 0 is 1, 2 is 3) of the six decisions, Joueur 1 then Joueur 2 in each round
ANSWERS = [1, 0, 2, 0, 0, 1]


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    path = tmp_path_factory.mktemp("frames") / "manches.rules"
    path.write_text(GAME, encoding="utf-8")
    return path


def _compiled(path, text: str) -> Engine:
    path.write_text(text, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    return Engine(result.typed)


@pytest.fixture(scope="module")
def engine(spec):
    return _compiled(spec, GAME)


@pytest.fixture(scope="module")
def deeper(tmp_path_factory):
    return _compiled(tmp_path_factory.mktemp("deeper") / "manches.rules", DEEPER)


class _Answers:
    def __init__(self, answers):
        self.answers, self.next = list(answers), 0

    def choose(self, decision) -> int:
        self.next += 1
        return self.answers[self.next - 1]


def _played(engine, n):
    """The whole game with ANSWERS, and the state file at its decision n (frames included)."""
    scopes = Scopes(engine.typed)
    recorder = StateRecorder(engine, scopes, n, ["manches.rules"])
    engine.observer = recorder
    engine.recording, engine.digests = True, False
    game = engine.play({}, 2, 1, [_Answers(ANSWERS)] * 2)
    engine.observer = None
    final = state_digest(engine.st)
    recorder.add_frames()
    return game, final, recorder, scopes


def test_the_state_file_inside_the_called_round_records_both_frames(capsys, spec, tmp_path):
    """Decision 4 is Joueur 2's number in round 2: the flow's frame is in the repeat's iteration 1, on the call of
    `manche`; the round's frame is in its loop's iteration 1 over both players, on the `choose`, its locals
    holding Joueur 1's number of this round (3: the random players of seed 1, as `play -s 1` logs them)."""
    out = tmp_path / "état.json"
    code, printed, err = run_cli(capsys, "play", str(spec), "-n", "2", "-s", "1", "-q", "--state-at", "4", str(out))
    assert code == 0, err
    assert "without frames" not in printed + err
    state = json.loads(out.read_text(encoding="utf-8"))
    assert state["round"] == 2 and state["vars"]["numéro"] == 2
    assert state["decision"]["player"] == "Joueur 2" and state["decision"]["names"] == {"m": 2, "p": "Joueur 2"}
    resume = state["resume"]
    assert resume["decisions"] == 3
    assert resume["frames"] == [
        {"procedure": "partie", "names": {},
         "path": [{"index": 0, "at": "manches.rules:16:3", "repeat": 1},
                  {"index": 1, "at": "manches.rules:18:5", "call": "manche"}]},
        {"procedure": "manche", "names": {"m": 2, "p": "Joueur 2", "n": 3},
         "path": [{"index": 0, "at": "manches.rules:23:3", "for": 1, "over": ["Joueur 1", "Joueur 2"]},
                  {"index": 1, "at": "manches.rules:25:5"}]}]


@pytest.mark.parametrize("n", [1, 3, 4, 6])
def test_the_game_goes_on_from_a_decision_of_the_called_round_as_if_it_had_not_stopped(engine, n):
    """From decision n, with the answers the game gave from there: the same events from that decision on (a bet
    of 3 logs one line more), the same scores (each bet times its round's number, plus a coin a round) and the
    same final state."""
    _goes_on(engine, n, [2, 2])


@pytest.mark.parametrize("n", [2, 3])
def test_the_game_goes_on_from_a_decision_two_calls_deep(deeper, n):
    """The bet asked by `miser`, called by the round, called by the flow: three frames, and the same game."""
    _goes_on(deeper, n, [2, 2, 1])


def _goes_on(engine, n: int, paths: list[int]):
    game, final, recorder, scopes = _played(engine, n)
    assert recorder.frames_note is None, recorder.frames_note
    assert [len(f["path"]) for f in recorder.state["resume"]["frames"]] == paths
    assert game.scores == {0: 3 + 2 * 1 + 3 * 2 + 1 * 3, 1: 3 + 1 * 1 + 1 * 2 + 2 * 3}
    first = [i for i, e in enumerate(game.events) if e["kind"] == "decision"][n - 1]
    loaded = load_state(engine, json.loads(json.dumps(recorder.state)), scopes)
    from checker.play.resume import resume_game
    engine.recording, engine.digests = True, False
    again = resume_game(loaded, [_Answers(ANSWERS[n - 1:])] * 2)
    assert again.events == game.events[first:]
    assert again.scores == game.scores and again.winners == game.winners == [0]
    assert state_digest(engine.st) == final
    logs = [e for e in again.events if e["kind"] == "log"]
    assert sum("fin de la manche" in json.dumps(e, ensure_ascii=False) for e in logs) == 3 - (n - 1) // 2
    big = sum(1 for k in range(n - 1, 6) if ANSWERS[k] == 2)
    assert sum("mise gros" in json.dumps(e, ensure_ascii=False) for e in logs) == big


def test_frames_of_the_flow_calling_the_round_are_resumable_and_a_cut_stack_is_not(engine):
    """resumable: the flow's frame must end on the call of the next frame's procedure, the last frame on the
    decision's statement."""
    body = engine.program.procedures["manche"].body
    choose = body[0].body[1]
    flow = Frame("partie", {}, [Step(0, "repeat", 1), Step(1, "call")])
    round_ = Frame("manche", {"m": 2, "p": 1}, [Step(0, "for", 1, (0, 1)), Step(1)])
    assert resumable(engine.program, [flow, round_], choose) is None
    assert resumable(engine.program, [flow], choose) == "the last frame (partie) ends on a call"
    at_the_call = Frame("partie", {}, [Step(0, "repeat", 1), Step(1)])
    assert resumable(engine.program, [at_the_call, round_], choose) == "frame 1 (partie) does not call manche"
    # a path past the end of a block leads nowhere, whatever the step's kind (a state file edited by hand)
    past_the_end = Frame("manche", {"m": 2, "p": 1}, [Step(0, "for", 1, (0, 1)), Step(99)])
    assert resumable(engine.program, [flow, past_the_end], choose) == "frame 2 (manche) leads to no statement"
    assert resumable(engine.program, [Frame("partie", {}, []), round_], choose) == \
        "frame 1 (partie) leads to no statement"


def test_a_path_one_step_past_the_end_of_a_block_leads_nowhere(engine):
    """A frame whose step is the block's length (one past its last statement: a state file edited by hand)
    leads to no statement, in the round's loop body (5 statements) and in the flow's body (1)."""
    body = engine.program.procedures["manche"].body
    choose = body[0].body[1]
    flow = Frame("partie", {}, [Step(0, "repeat", 1), Step(1, "call")])
    past = Frame("manche", {"m": 2, "p": 1}, [Step(0, "for", 1, (0, 1)), Step(len(body[0].body))])
    assert len(body[0].body) == 5
    assert resumable(engine.program, [flow, past], choose) == "frame 2 (manche) leads to no statement"
    beyond = Frame("partie", {}, [Step(len(engine.program.procedures["partie"].body), "repeat", 1), Step(1, "call")])
    assert resumable(engine.program, [beyond, past], choose) == "frame 1 (partie) leads to no statement"


def test_three_frames_are_resumable_only_each_calling_the_next(deeper):
    bet = deeper.program.procedures["miser"].body[0]
    flow = Frame("partie", {}, [Step(0, "repeat", 1), Step(1, "call")])
    round_ = Frame("manche", {"m": 2, "p": 1}, [Step(0, "for", 1, (0, 1)), Step(1, "call")])
    asked = Frame("miser", {"m": 2, "p": 1}, [Step(0)])
    assert resumable(deeper.program, [flow, round_, asked], bet) is None
    assert resumable(deeper.program, [flow, asked, round_], bet) == "frame 1 (partie) does not call miser"


def test_capture_finds_the_frames_of_a_decision_and_says_when_the_game_has_no_such_decision(engine):
    engine.recording = False
    engine.start({}, 2, 1, [_Answers(ANSWERS)] * 2)
    setup = engine.setup
    (frames, asked, _rng), decision, _digest = capture(engine, setup, ANSWERS, 5)
    assert asked == 4 and decision.player == 0
    assert [(f.procedure, [(s.index, s.kind, s.iteration) for s in f.path]) for f in frames] == [
        ("partie", [(0, "repeat", 2), (1, "call", 0)]), ("manche", [(0, "for", 0), (1, "at", 0)])]
    assert frames[1].names["m"] == 3
    assert capture(engine, setup, ANSWERS, 7) == (None, "the game stepped again has no decision 7", None)


# ---------------------------------------------------------------- sample -n (bench/results/mutation-2026-11-28-n.txt)

# the bet may be declined (index 3, « (rien) »): the rest of the loop's body (the bet counted, its log) is skipped
OPTIONAL = GAME.replace("    choose n in 1..3 by p\n", "    choose n in 1..3 by p optionally\n")
# Joueur 1 declines in round 1, Joueur 2 in round 2
DECLINED = [3, 0, 2, 3, 1, 0]


@pytest.mark.parametrize("n", [1, 2, 4])
def test_a_bet_declined_after_the_game_went_on_from_its_frames_skips_the_rest_of_the_round(tmp_path, n):
    """The resumed game runs its statements itself (frames.py's ``_statement``), the declined bets among them (at
    decision 1 the resumed choice itself, at 2 and 4 a later one): each skips its bet and its log, as in the game
    played without stopping.  Scores: a coin a round, plus each bet made times its round's number."""
    engine = _compiled(tmp_path / "manches.rules", OPTIONAL)
    scopes = Scopes(engine.typed)
    recorder = StateRecorder(engine, scopes, n, ["manches.rules"])
    engine.observer = recorder
    engine.recording, engine.digests = True, False
    game = engine.play({}, 2, 1, [_Answers(DECLINED)] * 2)
    engine.observer = None
    final = state_digest(engine.st)
    recorder.add_frames()
    assert recorder.frames_note is None, recorder.frames_note
    assert game.scores == {0: 3 + 3 * 2 + 2 * 3, 1: 3 + 1 * 1 + 1 * 3}
    first = [i for i, e in enumerate(game.events) if e["kind"] == "decision"][n - 1]
    loaded = load_state(engine, json.loads(json.dumps(recorder.state)), scopes)
    from checker.play.resume import resume_game
    engine.recording, engine.digests = True, False
    again = resume_game(loaded, [_Answers(DECLINED[n - 1:])] * 2)
    assert again.events == game.events[first:]
    assert again.scores == game.scores
    assert state_digest(engine.st) == final
    bets = [e["text"] for e in again.events if e["kind"] == "log" and e["text"][-1].isdigit()
            and " mise " in e["text"]]
    made = [None, "Joueur 2 mise 1", "Joueur 1 mise 3", None, "Joueur 1 mise 2", "Joueur 2 mise 1"]   # per decision
    assert bets == [b for b in made[n - 1:] if b is not None]


def test_capture_past_the_answers_it_is_given_says_the_game_has_no_such_decision(engine):
    """(s21 survivor frames.py:280 `>=` → `>`) the game stepped again with fewer answers than it needs before the
    decision asked for stops where the answers run out: decision 5 after 4 answers is found, after 2 it is not
    (with `>`, the third decision read past the answers: an IndexError, a traceback)."""
    engine.recording = False
    engine.start({}, 2, 1, [_Answers(ANSWERS)] * 2)
    setup = engine.setup
    (_frames, asked, _rng), decision, _digest = capture(engine, setup, ANSWERS[:4], 5)
    assert asked == 4 and decision.player == 0
    assert capture(engine, setup, ANSWERS[:2], 5) == (None, "the game stepped again has no decision 5", None)


def test_the_game_stepped_again_stops_where_a_rounds_precondition_does_not_hold(tmp_path):
    """(s21 survivor engine.py:520 `args is not None` → `is None`) `manche(m)` requires `m < 3`: the game stops
    in round 3 with the precondition's error, and so does the game stepped again (frames.py's Stepper, through
    `Engine.entering`): decision 5 (round 3's first) is not reached there either; decision 4 is."""
    engine = _compiled(tmp_path / "manches.rules", GAME.replace("procedure manche(m: Int) {",
                                                                 "procedure manche(m: Int) requires m < 3 {"))
    engine.recording = False
    with pytest.raises(SpecRuntimeError, match="procedure manche is called where its precondition"):
        engine.play({}, 2, 1, [_Answers(ANSWERS)] * 2)
    setup = engine.setup
    (_frames, asked, _rng), _decision, _digest = capture(engine, setup, ANSWERS, 4)
    assert asked == 3
    assert capture(engine, setup, ANSWERS, 5) == (
        None, "the game stepped again stopped with an error: procedure manche is called where its precondition "
              "(requires) does not hold", None)
