"""frames: a game's flow run statement by statement, so that a decision point knows the calls and loops above
it (its *frames*), and a game can go on from them.

The compiled interpreter (:mod:`checker.runtime.compile`) runs a procedure as one Python function: at a
decision point, nothing says which iteration of which loop of which caller is running.  :class:`Stepper` runs the
game's flow with the same compiled code for every statement but the ones that shape the flow — a block, `if`,
`for`, `repeat`, `call` — which it runs itself, keeping a stack of :class:`Frame` (the procedure, its locals, the
position in each nested block: the index of the statement, the `for`'s elements and iteration, the `repeat`'s
iteration, the `if`'s branch).  Each other statement is a small generated function (:func:`_leaf`), compiled
as the procedure's body would compile it (the same locals, the same names read as globals while unset), that
returns the locals after it.

:meth:`Stepper.resume` goes on from frames: the decision's statement is run again (a `choose` or an `offer`
lists its options and asks; nothing runs in it before it asks), then the rest of each block, loop and call,
innermost first — what the interpreter would have run after that decision.  A decision asked inside another
statement (an action's or a power's body run by an offer, a reaction to a window, one pick of a `choose …
subset`, an `each … chooses`) has frames that do not reach it: :func:`resumable` says why, and such a point is
not resumed.

Playing through a :class:`Stepper` is a second way to run the same compiled statements; a test plays games both
ways and requires the same log and state (``tests/test_frames.py``).  Nothing here changes how `play` runs.
"""

from __future__ import annotations

import dataclasses

from checker.front import ast
from checker.base.limits import MAX_LOOP
from checker.runtime.compile import UNSET, bound_names
from checker.runtime.state import Abort, SpecRuntimeError, StopProc

__all__ = ["Frame", "Step", "Stepper", "resumable", "procedure_locals"]

_ONCE = (None,)


@dataclasses.dataclass
class Step:
    """A position in a block: the statement ``index`` (in the block's tuple) and, for a statement that holds a
    block, where in it: ``kind`` is "for" (``iteration`` of ``over``), "repeat" (``iteration``, from 0), "if"
    (``branch``), "call" (the next frame is the procedure called) or "at" (the statement running now)."""
    index: int
    kind: str = "at"
    iteration: int = 0
    over: tuple = ()
    branch: bool = True


@dataclasses.dataclass
class Frame:
    """A procedure running: its name, its locals (unset ones left out), and the path from its body to the
    statement running now."""
    procedure: str
    names: dict
    path: list


def statement_at(block, path: list):
    """The statement ``path`` leads to from ``block`` (None when it leads nowhere)."""
    stmts = block
    s = None
    for k, step in enumerate(path):
        if not 0 <= step.index < len(stmts):
            return None
        s = stmts[step.index]
        if k == len(path) - 1:
            return s
        if step.kind == "if" and isinstance(s, ast.If):
            stmts = s.then if step.branch else s.else_
        elif step.kind in ("for", "repeat") and isinstance(s, (ast.For, ast.Repeat)):
            stmts = s.body
        else:
            return None
    return s


def procedure_locals(program, name: str) -> list[str]:
    """The local names of a procedure's body: its parameters, then every name it binds."""
    decl = program.procedures[name]
    params = [x.name for x in decl.params]
    return params + [n for n in dict.fromkeys(bound_names(decl.body)) if n not in params]


def resumable(program, frames: list[Frame], site) -> str | None:
    """Why a game cannot go on from ``frames`` at a decision asked by ``site`` (None: it can)."""
    if not frames:
        return "no frame: the decision is not inside the game's flow"
    for k, f in enumerate(frames):
        if f.procedure not in program.procedures:
            return f"no procedure {f.procedure}"
        s = statement_at(program.procedures[f.procedure].body, f.path)
        if s is None or not f.path:
            return f"frame {k + 1} ({f.procedure}) leads to no statement"
        last = f.path[-1].kind
        if k + 1 < len(frames):
            if last != "call" or not isinstance(s, ast.CallProc) or s.name != frames[k + 1].procedure:
                return f"frame {k + 1} ({f.procedure}) does not call {frames[k + 1].procedure}"
        elif last != "at":
            return f"the last frame ({f.procedure}) ends on a {last}"
    s = statement_at(program.procedures[frames[-1].procedure].body, frames[-1].path)
    if s is not site:
        what = type(s).__name__.lower()
        return (f"the decision is asked inside the `{what}` at {s.span} (by what it runs: an action, a power, a "
                f"reaction, a procedure called by an action), not by a statement of the flow's procedures")
    if not isinstance(site, (ast.Choose, ast.Offer)):
        return (f"the decision is one question of a statement that asks several (a `choose … subset`, an `each … "
                f"chooses`): what it chose before is not in the frames")
    return None


class _Stop(Exception):
    """Raised by an observer to end a stepped game at a decision point."""


class Stepper:
    """Runs the game's flow on ``engine`` statement by statement, with :attr:`stack` the frames now."""

    def __init__(self, engine):
        self.E = engine
        self.stack: list[Frame] = []
        # the compiled pieces, kept with the engine (compiled once per spec, as its bodies are)
        kept = engine.__dict__.setdefault("_stepper_code", ({}, {}))
        self._code: dict = kept[0]
        self._locals: dict[str, list[str]] = kept[1]

    # ---------------------------------------------------------------- compiled pieces
    def _names(self, proc: str) -> list[str]:
        names = self._locals.get(proc)
        if names is None:
            names = self._locals[proc] = procedure_locals(self.E.program, proc)
        return names

    def _compiled(self, proc: str, node, what: str):
        """A generated function ``env -> …`` for ``node`` in ``proc``'s body: "block" runs the statement and
        returns the locals after it; "value" returns an expression's value; "args" a call's arguments."""
        key = (proc, id(node), what)
        fn = self._code.get(key)
        if fn is None:
            fn = self._code[key] = _leaf(self.E, proc, self._names(proc), node, what)
        return fn

    def _value(self, frame: Frame, e, what: str = "value"):
        return self._compiled(frame.procedure, e, what)(frame.names)

    # ---------------------------------------------------------------- running
    def play(self) -> None:
        """The game's flow from the set-up (``engine.start`` was called), as ``engine.call(flow, ())`` runs it."""
        self.call(self.E.flow, ())

    def call(self, name: str, args: tuple) -> None:
        """A procedure called, as :meth:`~checker.runtime.engine.Engine.call` does (the turn and round counters)."""
        E = self.E
        E.entering(name, args)
        params = [x.name for x in E.program.procedures[name].params]
        names = {n: UNSET for n in self._names(name)}
        names.update(zip(params, args))
        self._enter(Frame(name, names, []), None)

    def resume(self, frames: list[Frame]) -> None:
        """Go on from ``frames`` (outermost first): the decision's statement asks again, then everything after it."""
        self._resume = frames
        self._enter_resumed(0)

    def _enter_resumed(self, k: int) -> None:
        f = self._resume[k]
        names = {n: UNSET for n in self._names(f.procedure)}
        names.update(f.names)
        self._enter(Frame(f.procedure, names, []), (k, f.path))

    def _enter(self, frame: Frame, resume) -> None:
        self.stack.append(frame)
        try:
            self._block(self.E.program.procedures[frame.procedure].body, frame, resume, 0)
        except (StopProc, Abort):
            pass
        finally:
            self.stack.pop()

    def _block(self, stmts, frame: Frame, resume, depth: int) -> None:
        start, step0 = 0, None
        if resume is not None:
            step0 = resume[1][depth]
            start = step0.index
        for i in range(start, len(stmts)):
            s = stmts[i]
            if isinstance(s, (ast.CiteStmt, ast.DecisionStmt)):
                continue
            here = resume if (resume is not None and i == start) else None
            step = Step(i)
            frame.path.append(step)
            try:
                if self._statement(s, frame, step, here, here and step0, depth) is False:
                    return          # `choose … optionally` chose nothing: the rest of the block is skipped
            finally:
                frame.path.pop()

    def _statement(self, s, frame: Frame, step: Step, resume, old: Step | None, depth: int):
        E = self.E
        if isinstance(s, ast.If):
            step.kind = "if"
            step.branch = old.branch if old is not None else bool(self._value(frame, s.cond))
            self._block(s.then if step.branch else s.else_, frame, resume, depth + 1)
        elif isinstance(s, ast.For):
            step.kind = "for"
            if old is not None:
                step.over, first = old.over, old.iteration
            else:
                step.over, first = E.spend(tuple(self._value(frame, s.coll)), s.span), 0
            for j in range(first, len(step.over)):
                step.iteration = j
                frame.names[s.var] = step.over[j]
                self._block(s.body, frame, resume if j == first else None, depth + 1)
        elif isinstance(s, ast.Repeat):
            step.kind = "repeat"
            for it in range(old.iteration if old is not None else 0, MAX_LOOP):
                step.iteration = it
                if old is None or it != old.iteration:
                    E.spend(_ONCE, s.span)
                self._block(s.body, frame, resume if old is not None and it == old.iteration else None, depth + 1)
                if self._value(frame, s.until):
                    break
            else:
                raise SpecRuntimeError(f"repeat ran {MAX_LOOP:,} times without its condition becoming true (the "
                                       f"limit of one repeat)", s.span)
        elif isinstance(s, ast.CallProc):
            step.kind = "call"
            if old is not None and depth + 1 == len(resume[1]):
                self._enter_resumed(resume[0] + 1)      # the call is running: its frame goes on, not counted again
            else:
                self.call(s.name, tuple(self._value(frame, s, "args")))
        else:
            frame.names = self._compiled(frame.procedure, s, "block")(frame.names)
            if isinstance(s, ast.Choose) and s.options.optional and frame.names.get(s.var) is UNSET:
                return False
        return None


def _leaf(E, proc: str, names: list[str], node, what: str):
    """Compile ``node`` as ``proc``'s body compiles it (:meth:`~checker.runtime.compile.Compiler.body`): the same
    locals, read from and given back in a dict."""
    c, g = E.compiler, E.compiler.gen
    decl = E.program.procedures[proc]
    params = [x.name for x in decl.params]
    others = [n for n in names if n not in params]
    saved = (c.bound, c.locals, c.params, c.scope_, c.context)
    c.context = proc
    c.bind(params, others)
    name = g.fresh("step" + proc)
    lines = [f"def {name}(env):", "    st = E.st"]
    lines += [f"    {c.locals[n]} = env[{n!r}]" for n in names]
    try:
        if what == "block":
            lines += c.block([node], "    ")
            lines.append("    return {" + ", ".join(f"{n!r}: {c.locals[n]}" for n in names) + "}")
        elif what == "args":
            lines.append("    return (" + "".join(c.expr(a) + ", " for a in node.args) + ")")
        else:
            lines.append(f"    return {c.expr(node)}")
    finally:
        c.bound, c.locals, c.params, c.scope_, c.context = saved
    return g.define(name, "\n".join(lines) + "\n", f"a step of procedure {proc}")


# ---------------------------------------------------------------- capture

def frames_now(stepper: Stepper) -> list[Frame]:
    """A copy of the stack (unset locals left out)."""
    return [Frame(f.procedure, {k: v for k, v in f.names.items() if v is not UNSET},
                  [dataclasses.replace(s, over=tuple(s.over)) for s in f.path]) for f in stepper.stack]


class _Scripted:
    """Gives the answers of a game (``Engine.choices``) in order; past them, stops the game."""

    def __init__(self, answers: list[int]):
        self.answers, self.next = answers, 0

    def choose(self, decision) -> int:
        if self.next >= len(self.answers):
            raise _Stop()
        self.next += 1
        return self.answers[self.next - 1]


def capture(engine, setup: tuple, answers: list[int], n: int):
    """Play the game set up by ``setup`` (selection, players, seed) again through a :class:`Stepper`, with
    ``answers`` (the agents' answers, in order), to its ``n``-th decision an agent is asked (numbered as the
    game log numbers them): ((frames, decisions asked before it, the random source's state), the decision, the
    state's digest there) — or (None, why, None).  The engine's game is put back as it was."""
    from checker.runtime.replay import state_digest
    selection, players, seed = setup
    kept = ("st", "agents", "events", "decisions", "moves", "choices", "setup", "work", "logged", "observer",
            "recording", "round_observer")
    saved = {a: getattr(engine, a) for a in kept}
    stepper = Stepper(engine)
    seen: dict = {"count": 0, "out": None}

    def observe(decision) -> None:
        if len(decision.options) > 1 or decision.optional:
            seen["count"] += 1
            if seen["count"] == n:
                seen["out"] = ((frames_now(stepper), engine.decisions - 1, engine.st.rng.getstate()), decision,
                               state_digest(engine.st))
                raise _Stop()
    try:
        engine.start(selection, players, seed, [_Scripted(answers)] * players)
        engine.recording = False
        engine.round_observer = None
        engine.observer = observe
        stepper.play()
    except _Stop:
        pass
    except SpecRuntimeError as exc:
        return None, f"the game stepped again stopped with an error: {exc.message}", None
    except RecursionError:
        return None, "procedures call each other too deeply", None
    finally:
        for a, v in saved.items():
            setattr(engine, a, v)
        engine.invalidate()
    if seen["out"] is None:
        return None, f"the game stepped again has no decision {n}", None
    return seen["out"]


def go_on(engine, frames: list[Frame]) -> None:
    """Run the rest of the game from ``frames`` on ``engine`` (its state set at their decision point)."""
    Stepper(engine).resume(frames)
