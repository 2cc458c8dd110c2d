"""reach: can a condition hold within K decisions of a game?  Bounded model checking with Z3.

The game is set up as the interpreter sets it up (the configuration's cards, the seed); its ``flow``
procedure is then encoded over at most K decisions (:class:`~checker.solver.unroll.Unrolled`): every
decision a player is asked is an unknown among the options the interpreter offers there.  The condition (an
expression of the spec's language) is asked at the set-up, at every decision point a player is asked, and at
the end of the flow.  The search asks Z3 for a path where it holds after as few decisions as possible (0, 1,
… K: the first that is satisfiable is the shortest), then replays that path in the interpreter from the same
set-up: the answers are given to the interpreter's agents, the condition is evaluated by the interpreter where
the encoding says it holds, and the game is played on to its end (each later decision answered with its first
option) so that the log `rulebook replay` reads is a whole game.

Three outcomes, never more than is proven:

- ``reached``: a path of n ≤ K decisions, replayed (``confirmed`` when the interpreter agrees);
- ``proved``: no path of at most K decisions reaches the condition — for the deal the seed makes, where the
  encoding follows it, and for *any* order of a pile where it does not (:attr:`Outcome.assumptions` says
  where);
- ``undecided``: Z3 could not answer, the encoding cannot express a statement met on the way, or a path
  within K reaches a place the unrolling does not follow (a ``repeat`` unrolled its bound, …): the reason
  and the location.
"""

from __future__ import annotations

import dataclasses
import time

import z3

from checker.front import ast
from checker.front.types import BOOL
from checker.runtime.engine import Engine
from checker.solver.encode import AND, Encoder, Unsupported, as_bool, is_const
from checker.solver.factory import SolverSettings, fresh_context, make_solver, run
from checker.solver.unroll import MAX_LOOPS, Unrolled

__all__ = ["Outcome", "reach", "NOTHING"]

NOTHING = ("nothing",)      # the answer "nothing" to an optional choice


@dataclasses.dataclass
class Outcome:
    status: str                                      # reached | proved | undecided
    within: int
    decisions: list = dataclasses.field(default_factory=list)   # reached: (choice, answer), in order
    shown: list = dataclasses.field(default_factory=list)       # reached and replayed: (seat, prompt, answer) as
                                                                # the log shows them
    answers: list = dataclasses.field(default_factory=list)     # reached: the interpreter's answers, in order
    reason: str = ""
    where: object = None                             # undecided: the span of the place
    assumptions: list = dataclasses.field(default_factory=list)   # (span, text): where the deal is not followed
    confirmed: bool | None = None
    replay_note: str = ""
    log: dict | None = None
    seconds: float = 0.0                             # CPU time of the search (encoding, Z3, replay)
    questions: int = 0                               # Z3 questions asked while unrolling (deterministic)
    points: int = 0                                  # reached: the decision points of the path (n)
    branches: int = 0                                # with a split: how many searches (each a branch)


def _true(m, term) -> bool:
    if is_const(term):
        return bool(term)
    return z3.is_true(m.eval(as_bool(term), model_completion=True))


def _int(m, term) -> int:
    if is_const(term):
        return int(term)
    return m.eval(term, model_completion=True).as_long()


def _answers(t: Unrolled, m, n: int) -> list[tuple]:
    """The decisions asked on the model's path within its first ``n`` decision points (an offer with a single
    option is one, which the interpreter does not ask): (choice, the interpreter's answer)."""
    enc = t.enc
    out: list = []
    subsets: dict[int, int] = {}
    points = 0
    for a in t.asked:
        if points >= n:
            break
        if not _true(m, a.asked):
            continue
        points += 1
        c = a.choice
        if c.kind == "offer":
            if sum(1 for g, _ in c.options if _true(m, g)) == 1:
                continue            # a single option: the interpreter takes it without asking
            option = c.options[_int(m, c.value)][1]
            if option[0] == "action":
                types = enc.param_types[option[1]]
                answer = ("action", option[1], tuple(enc.to_runtime(_int(m, x) if not is_const(x) else x, ty)
                                                     for x, ty in zip(option[2], types)))
            elif option[0] == "power":
                answer = ("power", option[1].name, option[2])
            else:
                answer = ("finish", option[1])
        elif c.kind == "subset":
            picks = sorted(x for b, x in c.value if _true(m, b))
            i = subsets.get(id(c), 0)
            subsets[id(c)] = i + 1
            answer = ("choose", enc.to_runtime(picks[i], c.type)) if i < len(picks) else NOTHING
        elif c.optional is not None and not _true(m, c.optional):
            answer = NOTHING
        elif c.type == BOOL:
            answer = ("react", _true(m, c.value))
        else:
            value = c.value if is_const(c.value) else _int(m, c.value)
            answer = ("choose", enc.to_runtime(value, c.type))
        out.append((c, answer))
    return out


def _matches(option, answer) -> bool:
    kind = answer[0]
    if kind == "nothing":
        return False
    if kind == "react":
        return option is answer[1] or option == answer[1]
    if kind == "choose":
        return option == answer[1]
    if not isinstance(option, tuple) or option[0] != kind:
        return False
    if kind == "action":
        return option[1] == answer[1] and tuple(option[2]) == tuple(answer[2])
    if kind == "power":
        return option[1].name == answer[1] and option[2] == answer[2]
    return option[1] == answer[1]


class _Script:
    """Answers the witness's decisions in order, then checks the condition and plays on with first options (the
    next one where a question comes straight back unchanged)."""

    def __init__(self, shared: dict):
        self.shared = shared

    def choose(self, decision) -> int:
        sh = self.shared
        answers = sh["answers"]
        if sh["next"] < len(answers):
            answer = answers[sh["next"]]
            sh["next"] += 1
            if answer[0] == "nothing" and decision.optional:
                return len(decision.options)
            for i, option in enumerate(decision.options):
                if _matches(option, answer):
                    return i
            sh["mismatch"] = (sh["next"], decision.prompt, answer)
            raise _Mismatch()
        if sh["held"] is None:
            sh["held"] = sh["test"]()
        # Played on with first options; the same question asked again at once, with the same options, means
        # the move answered aborted (or changed nothing): the next option then, lest the game loop on it.
        asked = (decision.prompt, repr(decision.options))
        sh["again"] = sh.get("again", -1) + 1 if asked == sh.get("asked") else 0
        sh["asked"] = asked
        return sh["again"] % len(decision.options) if decision.options else 0


class _Mismatch(Exception):
    pass


def _replay(result, selection, config: str, players: int, seed: int, test_of, answers: list, spec: list[str],
            origin=None):
    """Play the witness in the interpreter: (confirmed, note, log record)."""
    from checker.runtime.state import SpecRuntimeError
    engine = Engine(result.typed)
    test = test_of(engine)
    shared = {"answers": answers, "next": 0, "held": None, "mismatch": None, "test": lambda: bool(test())}
    agents = [_Script(shared) for _ in range(players)]
    record = {"spec": spec, "configuration": config, "players": players, "seed": seed, "add": [],
              "remove": [], "selection": selection.cards}
    if origin is not None:      # the rest of a game from a state file: not a log `replay` plays from the set-up
        record = {"from": origin.path, "players": players}
    watched = test.monitors

    def observe(decision) -> None:
        """A decision point as the search counts them (an offer's every question, another when asked): the
        path functions compare the state with the previous point's."""
        if isinstance(decision.site, ast.Offer) or len(decision.options) > 1 or decision.optional:
            watched.point(test.env())
    try:
        if origin is None:
            engine.start(selection.cards, players, seed, agents)
        else:
            origin.start(engine, agents)
        watched.start(test.env())
        engine.observer = observe if watched.monitors else None
        try:
            if origin is None:
                engine.call(engine.flow, ())
            else:
                origin.run(engine)
        except RecursionError:
            raise SpecRuntimeError("procedures, actions and powers call each other too deeply") from None
        finally:
            engine.observer = None
        game = engine.result()
    except _Mismatch:
        number, prompt, answer = shared["mismatch"]
        return False, f"decision {number} ({prompt}): the interpreter does not offer {answer}", None
    except SpecRuntimeError as exc:
        if shared["held"] is None:          # on the path itself, before the condition was asked
            return False, f"the interpreter stopped with an error: {exc}", None
        # After the path, played on with first options (an option whose action aborts may be offered again
        # and again): the condition was asked where the path ends, so the answer stands; the log ends on the
        # error, marked with it as a failed `play` is, and `rulebook replay` stops on it again.
        from checker.runtime.replay import failure_of
        record.update({"events": list(engine.events), "scores": {}, "winners": [], "error": failure_of(exc)})
    else:
        if shared["held"] is None:             # the path ends the game: the condition is asked at its end
            watched.point(test.env())
            shared["held"] = shared["test"]()
        from checker.runtime.replay import state_digest
        record.update({"events": game.events, "scores": game.scores, "winners": game.winners,
                       "final_state": state_digest(engine.st)})
    if not shared["held"]:
        return False, "the interpreter, given the same answers, does not meet the condition there", record
    return True, "", record


def reach(result, selection, config: str, players: int, seed: int, condition, test_of, within: int,
          spec: list[str], max_loops: int = MAX_LOOPS, settings: SolverSettings | None = None,
          split: int = 0, origin=None) -> Outcome:
    """Search the game of ``selection`` (configuration ``config``, seeded) for a path of at most ``within``
    decisions where ``condition`` holds — (a typed expression, {name: seat} of the seats it names, the path
    functions it reads: :mod:`checker.reach.monitors`);
    ``test_of(engine)`` is the interpreter's test of it on that engine's state (a function of nothing).
    With ``split`` D, one search per sequence of answers to the first D decisions (:mod:`checker.reach.split`),
    each with those answers known: proved when every branch is, reached by the shortest path a branch finds."""
    start = time.process_time()
    fresh_context()     # its answer must not depend on what this process asked Z3 before (a test suite)
    engine = Engine(result.typed)           # compiled once, set up again by each search (and each prefix)
    args = (result, selection, config, players, seed, condition, test_of, spec, max_loops, settings, engine)
    if split <= 0:
        return _search(*args, within, [], start, origin)
    from checker.reach.split import prefixes
    branches = prefixes(engine, selection.cards, players, seed, min(split, within), origin)
    if isinstance(branches, str):
        return Outcome("undecided", within, reason=f"--split {split}: {branches}",
                       seconds=time.process_time() - start)
    best, undecided, questions, assumptions = None, None, 0, []
    for pins in branches:
        bound = within if best is None else best.points - 1
        if bound < len(pins):
            continue            # this branch asks its known decisions beyond the shortest path found
        out = _search(*args, bound, pins, time.process_time(), origin)
        questions += out.questions
        assumptions += [a for a in out.assumptions if a not in assumptions]
        if out.status == "reached" and out.confirmed:
            best = out
        elif out.status != "proved" and undecided is None:
            undecided = out
    outcome = best or undecided or Outcome("proved", within, reason=f"no sequence of at most {within} decisions "
                                                                     f"reaches the condition, in any of the "
                                                                     f"{len(branches)} branches")
    outcome.within, outcome.branches = within, len(branches)
    if best is not None and undecided is not None:
        outcome.replay_note = (f"shortest among the branches decided: {undecided.reason}")
    outcome.seconds, outcome.questions, outcome.assumptions = time.process_time() - start, questions, assumptions
    return outcome


def _search(result, selection, config: str, players: int, seed: int, condition, test_of, spec, max_loops,
            settings, engine: Engine, within: int, pins: list, start: float, origin=None) -> Outcome:
    """One search (see :func:`reach`), the answers to the first decisions known when ``pins`` are given;
    ``start`` is when its CPU time counts from."""
    engine.recording = False
    engine.observer = None
    if origin is None:
        engine.start(selection.cards, players, seed, [None] * players)
    else:               # a state file's decision point (checker.reach.origin)
        origin.start(engine, [None] * players)
    enc = Encoder(engine, concrete=True)
    t = Unrolled(enc, within, max_loops=max_loops)
    t.pins = list(pins)
    t.condition, t.condition_env = condition[0], condition[1]
    t.watch(condition[2] if len(condition) > 2 else [])
    flow = engine.program.procedures[engine.flow]

    def done(outcome: Outcome) -> Outcome:
        outcome.assumptions = list(t.deal.lost) if t.deal is not None else []
        outcome.seconds = time.process_time() - start
        outcome.questions = t.questions
        return outcome

    try:
        if origin is None:
            t.procedure(engine.flow, ())
        else:
            origin.unroll(t)
        t.check(t.running, flow.span)
        if t._pinned != len(t.pins):
            raise Unsupported(f"the split's decision {t._pinned + 1} is not asked by the encoding", flow.span)
    except Unsupported as exc:
        return done(Outcome("undecided", within, reason=f"the encoding cannot follow the game: {exc.located()}",
                            where=exc.span))
    solver = make_solver(settings or SolverSettings(incremental=True))
    solver.add(*[as_bool(c) for c in t.constraints])

    def within_n(n: int) -> list:
        hits = [AND(when, count.at_most(n)) for when, count, _ in t.hits]
        return [as_bool(h) for h in hits if not (is_const(h) and not h)]
    # one question first: does any path of at most K decisions reach it?  A proof needs no other; only a path
    # found makes the search ask again, from 0 decisions up, for a shortest one
    everything = within_n(within)
    first = run(solver, z3.Or(everything)) if everything else None
    if first is not None and first.status == "unknown":
        return done(Outcome("undecided", within, reason=f"Z3 could not decide whether {within} decisions "
                                                       f"reach it: {first.reason}"))
    for n in range(within + 1) if first is not None and first.status == "sat" else ():
        hits = within_n(n)
        if not hits:
            continue
        out = first if n == within else run(solver, z3.Or(hits))
        if out.status == "unknown":
            return done(Outcome("undecided", within, reason=f"Z3 could not decide whether {n} decisions "
                                                           f"reach it: {out.reason}"))
        if out.status == "sat":
            answers = _answers(t, out.model, n)
            outcome = Outcome("reached", within, points=n)
            outcome.answers = [a for _, a in answers]
            outcome.decisions = [(c, a) for c, a in answers]
            outcome.confirmed, outcome.replay_note, outcome.log = _replay(
                result, selection, config, players, seed, test_of, outcome.answers, spec, origin)
            if outcome.log is not None:
                asked = [e for e in outcome.log["events"] if e["kind"] == "decision"][:len(outcome.answers)]
                outcome.shown = [(e["player"], e["prompt"], e["options"][e["chosen"]] if e["chosen"] < len(
                    e["options"]) else "rien") for e in asked]
            return done(outcome)
    # no path within K: unless one reaches a place the unrolling does not follow
    live = [(g, span, what) for g, span, what in t.cuts]
    failures = [(f.when, f.span, f"the interpreter may stop with an error there ({f.reason})") for f in t.failures]
    for g, span, what in live:
        out = run(solver, as_bool(g))
        if out.status != "unsat":
            why = what if out.status == "sat" else f"{what} (Z3 could not tell whether a path goes there: " \
                                                   f"{out.reason})"
            return done(Outcome("undecided", within, reason=f"a path within {within} decisions reaches a place "
                                                            f"the search does not follow: {why}", where=span))
    proved = Outcome("proved", within)
    proved.reason = (f"no sequence of at most {within} decisions reaches the condition"
                     + ("" if not failures else "; the paths where the interpreter would stop with an error of "
                                                 "the spec end there"))
    return done(proved)
