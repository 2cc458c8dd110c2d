"""Running an `example`: its situation made a state, its moves played by the interpreter, its expectations judged.

The situation starts from the state the game's own setup reaches at its first decision (seeded, so the
same every time) — everything the example does not say comes from the setup rules.  The example's
`set` and `move` lines change that state, written as a state file (:func:`checker.solver.statefile.dump_state`)
and loaded back (:func:`checker.solver.statefile.load_state`): the loader's checks (a card in one place, values
of the right type, the spec's invariants) judge the situation.  `at proc(args)` puts the decision point at the
procedure's `offer`; else it is the setup's first decision.

Then the steps, in order.  `call proc(args)` runs the procedure; the answers after it (`choose`, `do`,
`finish`) answer the decisions it asks, each matched to the options the interpreter offers (a forced
decision is not asked, so it takes no answer).  A move at the situation's `offer` is judged by Z3 as
`rulebook legal` judges it, then run as `rulebook apply` runs it.  An `expect` is judged at the next decision
the game asks (before it is answered), or where the example ends: ``expect can act(…)`` and
``expect not can act(…) by rule`` by Z3 (the rules that forbid it are those of the unsat core), anything else
by the interpreter.
"""

from __future__ import annotations

import dataclasses
import itertools
import json

from checker.base.documents import spoken
from checker.front import ast
from checker.front import example_ast as ex
from checker.front.examples import WINNERS, example_players, offer_of
from checker.front.types import PLAYER, Coll, KindT, Opt
from checker.runtime.codegen import Scope
from checker.runtime.engine import Decision, Engine
from checker.runtime.state import Abort, EndTurn, SpecRuntimeError, StopProc
from checker.solver.legal import Legality, SolverUnknown
from checker.solver.points import Point, interpreter_moves, point_of
from checker.solver.scopes import Scopes
from checker.solver.as_example import setup_state
from checker.solver.statefile import StateFileError, load_state, site_label
from checker.solver.encode import Unsupported

__all__ = ["Failure", "Outcome", "run_examples", "run_example"]


@dataclasses.dataclass
class Failure:
    """What went other than the example says: where (the line of the example), what was expected, what happened."""

    span: object
    expected: str
    actual: str
    notes: list[str] = dataclasses.field(default_factory=list)

    def as_json(self) -> dict:
        return {"at": str(self.span), "expected": self.expected, "actual": self.actual, "notes": self.notes}


@dataclasses.dataclass
class Outcome:
    name: str
    span: object
    checked: int = 0                     # expectations judged
    failures: list[Failure] = dataclasses.field(default_factory=list)
    undecided: list[str] = dataclasses.field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures and not self.undecided

    def as_json(self) -> dict:
        return {"example": self.name, "at": str(self.span), "passed": self.passed, "expectations": self.checked,
                "failures": [f.as_json() for f in self.failures], "undecided": self.undecided}


class _Stop(Exception):
    def __init__(self, decision: Decision | None):
        self.decision = decision


class _Failed(Exception):
    """The example cannot go on (a move refused, the situation impossible): its failure is recorded."""


def run_examples(result, names: list[str] | None = None) -> list[Outcome]:
    """Every example of the checked spec ``result`` (or those named), in the order they are declared."""
    engine = Engine(result.typed)
    engine.recording = False
    scopes = Scopes(result.typed)
    return [run_example(result, engine, scopes, example) for example in result.program.examples.values()
            if (names is None or example.name in names) and example.name not in result.typed.inapplicable]


def run_example(result, engine: Engine, scopes: Scopes, example: ex.ExampleDecl) -> Outcome:
    outcome = Outcome(example.name, example.span)
    runner = _Runner(result, engine, scopes, example, outcome)
    try:
        runner.run()
    except _Failed:
        pass
    except SpecRuntimeError as exc:
        outcome.failures.append(Failure(runner.span, "the game to go on", f"the game stopped: {exc.message}"
                                        + (f" ({exc.span})" if exc.span else "")))
    return outcome


class _Runner:
    def __init__(self, result, engine: Engine, scopes: Scopes, example: ex.ExampleDecl, outcome: Outcome):
        self.result, self.E, self.scopes, self.example, self.outcome = result, engine, scopes, example, outcome
        self.players = example_players(result.program, example)
        self.seats = {f"Joueur {k}": k - 1 for k in range(1, self.players + 1)}
        self.span = example.span
        self.steps = example.steps
        self.index = 0
        self.point: Point | None = None
        self.loaded = None

    # ---------------------------------------------------------------- helpers
    def fail(self, span, expected: str, actual: str, notes=()) -> None:
        self.outcome.failures.append(Failure(span, expected, actual, list(notes)))

    def value(self, expr, env: dict):
        function = self.E.compiler.gen.env_function(expr, Scope({n: f"env[{n!r}]" for n in env}))
        self.E.invalidate()
        return function(env)

    def shown(self, value, ty) -> str:
        written = self.loaded.values.write(value, ty) if self.loaded else value
        return _text(written)

    def env(self) -> dict:
        env = {**(self.point.env if self.point else {}), **self.seats}
        return env

    # ---------------------------------------------------------------- the situation
    def configuration(self) -> str:
        program = self.result.program
        if self.example.configuration is not None:
            name = self.example.configuration[0]
            if self.players not in self.result.configurations.get(name, []):
                self.fail(self.example.configuration[1], f"configuration \"{name}\" to be played by {self.players} "
                          f"players", "it cannot be (`rulebook configs` lists what each configuration allows)")
                raise _Failed
            return name
        for name in program.configurations:
            if self.players in self.result.configurations.get(name, []):
                return name
        self.fail(self.span, f"a configuration for {self.players} players", "the spec has none")
        raise _Failed

    def setup(self) -> dict:
        """The state at the setup's first decision, as a state file."""
        try:
            data = setup_state(self.result, self.E, self.scopes, self.players, self.configuration(),
                               self.named_cards())
        except StateFileError as exc:
            self.fail(self.span, "a first decision a state file can hold",
                      "; ".join(f"{path}: {message}" if path else message for path, message in exc.problems))
            raise _Failed from None
        if data is None:
            self.fail(self.span, "a decision to start from", "the game ended without asking one")
            raise _Failed
        return data

    def named_cards(self) -> list[tuple[str, str]]:
        """(kind, name) of each card the situation places or sets: one its configuration does not select is
        added to the game, as `rulebook play --add` adds it (a house card is in no configuration of the base)."""
        program = self.result.program
        named = []
        for item in self.example.situation:
            for node in ast.walk(item.cards if isinstance(item, ex.ExampleMove) else item.value):
                if isinstance(node, ast.StrLit) and node.value in program.cards:
                    named.append((program.cards[node.value].kind, node.value))
        return named

    def situation(self, data: dict) -> None:
        E, program = self.E, self.result.program
        from checker.solver.statefile import _Values
        vals = _Values(E)
        env = dict(self.seats)
        at = self.example.at
        if at is not None:
            decl = program.procedures[at.func]
            args = [self.physical(self.value(a, env)) for a in at.args]
            env.update({p.name: v for p, v in zip(decl.params, args)})
        claimed: set[int] = set()
        resolve = self.scopes.resolve
        for item in self.example.situation:
            self.span = item.span
            target = item.target
            if isinstance(item, ex.ExampleSet):
                var = program.vars[target.name]
                value = vals.write(self.value(item.value, env), resolve(var.type))
                if var.index is None:
                    data["vars"][target.name] = value
                else:
                    key = vals.write_key(self.value(target.index, env), resolve(var.index))
                    data["vars"].setdefault(target.name, {})[key] = value
                continue
            zone = program.zones[target.name]
            cards = self.value(item.cards, env)
            labels = [self.label(vals, c, claimed, item) for c in (cards if isinstance(cards, tuple) else (cards,))]
            for name, content in data["zones"].items():
                if isinstance(content, dict):
                    for key in content:
                        content[key] = [c for c in content[key] if c not in labels]
                else:
                    data["zones"][name] = [c for c in content if c not in labels]
            # a pile's list starts with its top: the cards moved go on top
            if zone.index is None:
                listed = data["zones"].setdefault(target.name, [])
                data["zones"][target.name] = labels + listed if zone.ordered else listed + labels
            else:
                key = vals.write_key(self.value(target.index, env), resolve(zone.index))
                data["zones"].setdefault(target.name, {})
                if isinstance(data["zones"][target.name], dict):
                    listed = data["zones"][target.name].setdefault(key, [])
                    data["zones"][target.name][key] = labels + listed if zone.ordered else listed + labels
        if at is not None:
            site = offer_of(program.procedures[at.func])
            player = self.value(site.player, env)
            names = {p.name: vals.write(env[p.name], resolve(p.type)) for p in program.procedures[at.func].params}
            data["decision"] = {"kind": "offer", "at": site_label(site.span), "player": vals.write(player, PLAYER),
                                "names": names}

    def label(self, vals, card: int, claimed: set, item) -> str:
        """A card's label in the state: the copy named, or the first copy of a card not yet placed."""
        E = self.E
        if card in vals.labels:
            claimed.add(card)
            return vals.labels[card]
        for inst in E.instances.get(card, ()):
            if inst not in claimed:
                claimed.add(inst)
                return vals.labels[inst]
        name = E.def_names.get(card, card)
        where = "every copy of it is placed already" if E.instances.get(card) else "it is not in this configuration"
        self.fail(item.span, f"\"{name}\" placed", where)
        raise _Failed

    # ---------------------------------------------------------------- running
    def run(self) -> None:
        data = self.setup()
        self.situation(data)
        try:
            self.loaded = load_state(self.E, data, self.scopes)
        except StateFileError as exc:
            self.fail(self.example.span, "a situation a game can be in",
                      "; ".join(f"{path}: {message}" if path else message for path, message in exc.problems))
            raise _Failed from None
        self.point = self.loaded.point
        self.E.recording = False
        self.E.st.rng = _Draws(self.E.st.rng, self)
        while self.index < len(self.steps):
            step = self.steps[self.index]
            self.span = step.span
            if isinstance(step, ex.ExampleAnswer) and step.kind == "random":
                self.fail(step.span, "a draw at random for `random` to give its outcome",
                          "the game draws nothing at random here")
                raise _Failed
            if isinstance(step, ex.ExampleExpect):
                self.index += 1
                self.expect(step)
            elif isinstance(step, ex.ExampleCall):
                self.index += 1
                self.call(step)
            else:
                self.move_at_offer(step)

    def agents(self) -> None:
        answers = _Answers(self)
        self.E.agents = [answers] * self.E.st.n
        self.E.observer = answers.forced

    def call(self, step: ex.ExampleCall) -> None:
        args = tuple(self.physical(self.value(a, self.env())) for a in step.args)
        self.agents()
        self.point = None
        try:
            self.E.call(step.name, args)
        except _Stop as stop:
            self.point = point_of(stop.decision, self.scopes) if stop.decision else None

    def move_at_offer(self, step: ex.ExampleAnswer) -> None:
        """A move at the situation's offer (no procedure running): judged by Z3, run as `rulebook apply` runs it."""
        point = self.point
        if point is None or point.kind != "offer":
            self.fail(step.span, "a move at an offer", "no offer is open here: give the situation `at` a procedure "
                      "with an offer, or `call` the procedure that asks")
            raise _Failed
        self.index += 1
        moves = self.moves_of(step, point)
        verdict = None
        legality = Legality(self.E, self.scopes)
        for move in moves:
            verdict = legality.check(point, move)
            if verdict.legal and verdict.offered:
                break
        if verdict is None or not (verdict.legal and verdict.offered):
            why = "; ".join(f"{r.name} ({r.span})" for r in verdict.reasons) if verdict else ""
            self.fail(step.span, f"{_step_text(step)} to be a legal move", f"it is forbidden: {why or 'not offered'}")
            raise _Failed
        move = verdict.move
        E = self.E
        self.agents()
        try:
            if move[0] == "action":
                E.perform(move[1], move[2])
            elif move[0] == "power":
                power = next(x for x in E.powers_of[E.defs[move[1]]] if x.name == move[2])
                E.run_power(power, point.player, move[1], {"me": point.player, "this": move[1]})
            else:
                self.point = None           # finishing ends the offer: nothing runs after it here
                return
        except _Stop as stop:
            self.point = point_of(stop.decision, self.scopes) if stop.decision else None
        except (Abort, StopProc, EndTurn):
            pass
        else:                               # the move is over: its offer is open again (the decisions it asked
            self.point = point              # on the way are answered)

    def moves_of(self, step: ex.ExampleAnswer, point: Point | None) -> list[tuple]:
        """The moves an answer stands for: every combination of the copies of the cards it names."""
        E = self.E
        env = self.env()
        if step.kind == "finish":
            return [("finish", step.name)]
        if step.kind == "random":           # the outcome of a draw, not an answer to a decision
            return []
        if step.kind == "power":
            definition = E.def_ids[step.card]
            return [("power", inst, step.name) for inst in (*E.instances.get(definition, ()), definition)]
        if step.kind == "choose":
            value = self.value(step.args[0], env)
            if isinstance(point and point.site, object) and point is not None and point.kind == "react":
                return [("react", bool(value))]
            if value is None:
                return [("nothing",), ("choose", None)]
            return [("choose", v) for v in self.copies(value)]
        values = [self.copies(self.value(a, env)) for a in step.args]
        return [("action", step.name, combo) for combo in itertools.product(*values)]

    def physical(self, value):
        """A card named by its name (its definition) as a procedure's argument: its first copy in this game."""
        copies = self.copies(value)
        return copies[0] if copies else value

    def copies(self, value) -> list:
        E = self.E
        if isinstance(value, int) and not isinstance(value, bool) and value in E.instances:
            return list(E.instances[value])
        return [value]

    # ---------------------------------------------------------------- expectations
    def expect(self, step: ex.ExampleExpect) -> None:
        self.outcome.checked += 1
        cond = step.condition
        negated = isinstance(cond, ast.Unary) and cond.op == "not" and isinstance(cond.operand, ast.Can)
        if isinstance(cond, ast.Can) or negated:
            self.legality(step, cond.operand if negated else cond, not negated)
            return
        env = self.env()
        if any(isinstance(n, ast.Name) and n.id == WINNERS for n in ast.walk(cond)):
            self.E.invalidate()
            env[WINNERS] = tuple(self.E.result().winners)
        if self.value(cond, env):
            return
        self.fail(step.span, _source(self.result, step.condition), self.why_false(cond, env))

    def why_false(self, cond, env) -> str:
        """The values that make ``cond`` false: each side of a comparison, each operand of `and`."""
        types = self.result.typed.types
        if isinstance(cond, ast.Binary) and cond.op == "and":
            for side in (cond.left, cond.right):
                if not self.value(side, env):
                    return self.why_false(side, env)
        if isinstance(cond, ast.Binary) and cond.op not in ("and", "or"):
            parts = []
            for side in (cond.left, cond.right):
                if not isinstance(side, (ast.IntLit, ast.StrLit, ast.BoolLit, ast.NoneLit)):
                    parts.append(f"{_source(self.result, side)} is {self.shown(self.value(side, env), types.get(id(side)))}")
            return ", ".join(parts) or "false"
        return "false"

    def legality(self, step: ex.ExampleExpect, can: ast.Can, want_legal: bool) -> None:
        point = self.point
        text = _source(self.result, step.condition)
        if point is None:
            self.fail(step.span, text, "no decision is open here to judge a move at")
            return
        answer = ex.ExampleAnswer("action", can.action, None, can.args, can.span)
        legality = Legality(self.E, self.scopes)
        verdicts = []
        moves = self.moves_of(answer, point)
        try:
            for move in moves:
                verdicts.append(legality.check(point, move))
        except (SolverUnknown, Unsupported) as exc:
            self.outcome.undecided.append(f"{step.span}: {text}: {getattr(exc, 'message', exc)}")
            return
        legal = [v for v in verdicts if v.legal]      # by the rules, offered here or not: `can` asks the rules
        self.E.invalidate()
        interpreter = any(self.E.allowed(m[1], m[2]) for m in moves)
        if want_legal:
            if not legal:
                reasons = [r for v in verdicts[:1] for r in v.reasons]
                self.fail(step.span, f"{text}: the move is legal", "it is forbidden by "
                          + (", ".join(f"{r.name} ({r.span})" for r in reasons) or "no rule Z3 names"),
                          [f"{r.name}: {r.text}" for r in reasons])
            elif not interpreter:
                self.fail(step.span, text, "Z3 finds the move legal, the interpreter's `can` does not")
            return
        if legal:
            self.fail(step.span, f"{text}: the move is forbidden", "it is legal here")
            return
        if interpreter:
            self.fail(step.span, text, "Z3 finds the move forbidden, the interpreter's rules allow it")
            return
        # the rules that forbid every copy of the move, by the interpreter's rules (all of them, where Z3's
        # unsat core names one sufficient set)
        blocking = None
        for m in moves:
            rules = set(self.E.legal(m[1], m[2])[1])
            blocking = rules if blocking is None else blocking & rules
        blocking = blocking or set()
        missing = [name for name, _ in step.by if name not in blocking]
        if missing:
            self.fail(step.span, f"forbidden by {', '.join(n for n, _ in step.by)}",
                      f"forbidden by {', '.join(sorted(blocking)) or 'no rule'} "
                      f"(not by {', '.join(missing)})")


class _Draws:
    """The game's random source while an example runs: a draw `choose … at random` gives the outcome the example's
    next `random` line says (a die's face), where that line comes next; everything else is the seeded source's."""

    def __init__(self, rng, runner: _Runner):
        self.rng, self.runner = rng, runner

    def __getattr__(self, name):
        return getattr(self.rng, name)

    def choice(self, pool):
        r = self.runner
        j = r.index
        while j < len(r.steps) and isinstance(r.steps[j], ex.ExampleExpect):
            j += 1
        step = r.steps[j] if j < len(r.steps) else None
        if not (isinstance(step, ex.ExampleAnswer) and step.kind == "random"):
            return self.rng.choice(pool)
        while r.index < j:                  # the expectations before the draw are judged before it
            r.span = r.steps[r.index].span
            r.index += 1
            r.expect(r.steps[r.index - 1])
        r.span = step.span
        r.index += 1
        for value in r.copies(r.value(step.args[0], r.env())):
            if value in pool:
                return value
        faces = all(type(v) is int and v not in r.E.defs and v not in r.E.def_names for v in pool)
        outcomes = f": {', '.join(str(v) for v in pool)}" if faces and len(pool) <= 12 else f" ({len(pool)} in all)"
        r.fail(step.span, "this outcome of the draw at random", f"it is not one of its outcomes{outcomes}")
        raise _Failed


class _Answers:
    """The agent of every seat while an example runs: judges the expectations due, then answers the decision with
    the example's next answer (or stops the game there when the example has none)."""

    def __init__(self, runner: _Runner):
        self.runner = runner

    def forced(self, decision: Decision) -> None:
        """A decision with one option is not asked; an answer that names that option answers it all the same
        (the example says what the rulebook says, without knowing which choices the rules leave open)."""
        if len(decision.options) != 1 or decision.optional:
            return
        r = self.runner
        j = r.index
        while j < len(r.steps) and isinstance(r.steps[j], ex.ExampleExpect):
            j += 1
        if j >= len(r.steps) or not isinstance(r.steps[j], ex.ExampleAnswer):
            return
        r.point = point_of(decision, r.scopes)
        r.loaded.choose_type = r.scopes.choice_type(decision.site)
        try:
            moves = r.moves_of(r.steps[j], r.point)
        except SpecRuntimeError:
            return
        if interpreter_moves(decision)[0] in moves:
            self.choose(decision)

    def choose(self, decision: Decision) -> int:
        r = self.runner
        r.point = point_of(decision, r.scopes)
        r.loaded.choose_type = r.scopes.choice_type(decision.site)
        while r.index < len(r.steps) and isinstance(r.steps[r.index], ex.ExampleExpect):
            step = r.steps[r.index]
            r.span = step.span
            r.index += 1
            r.expect(step)
        if r.index >= len(r.steps) or not isinstance(r.steps[r.index], ex.ExampleAnswer):
            raise _Stop(decision)
        step = r.steps[r.index]
        r.span = step.span
        r.index += 1
        options = interpreter_moves(decision)
        for move in r.moves_of(step, r.point):
            if move in options:
                return options.index(move)
        from checker.solver.command import describe_move
        offered = ", ".join(describe_move(r.loaded, o) for o in options[:12])
        more = f" … ({len(options)} in all)" if len(options) > 12 else ""
        r.fail(step.span, f"{_step_text(step)} to answer « {decision.prompt} »",
               f"it is not one of the options, Joueur {decision.player + 1} has: {offered}{more}")
        raise _Failed


def _step_text(step: ex.ExampleAnswer) -> str:
    if step.kind == "power":
        return f"do \"{step.card}\".{step.name}"
    if step.kind == "finish":
        return f"finish \"{step.name}\""
    if step.kind == "choose":
        return "this choice"
    return f"do {step.name}(…)"


def _source(result, node) -> str:
    span = node.span
    line = result.sources.line(span.file, span.line)
    if line is None or span.end_line != span.line:
        return str(span)
    return line[span.column - 1:span.end_column - 1]


def _text(value) -> str:
    return spoken(value, yes="vrai", no="faux",
                  leaf=lambda v: v if isinstance(v, str) else json.dumps(v, ensure_ascii=False))
