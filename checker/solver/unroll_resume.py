"""unroll_resume: the unrolling (:class:`~checker.solver.unroll.Unrolled`) started at a state file's decision point
instead of the game's set-up (``rulebook reach --from STATE``).

The state file's frames (:mod:`checker.runtime.frames`, read by :mod:`checker.solver.framefile`) say what runs
after its decision: the innermost frame's statement (the `choose` or `offer` that asks) and the rest of its
block, then — outwards — the rest of each enclosing block, the next iterations of each `for` (over the elements
it fixed when it started) and of each `repeat` (unrolled ``max_loops`` times more, as from the set-up), and the
rest of each calling procedure.  The same statement encoders as from the set-up encode each piece; a frame adds
only where each piece starts.  The state, the piles' order and the random source are the file's (the deal is
followed from them as from a seeded set-up: :mod:`checker.solver.deal`).
"""

from __future__ import annotations

from checker.front import ast
from checker.front.types import element
from checker.solver.encode import AND, NOT, Unsupported, is_const
from checker.solver.framefile import local_types
from checker.solver.transition import ABORT, STOP

__all__ = ["resume"]


def resume(t, frames: list, scopes) -> None:
    """Encode, on ``t`` (an :class:`~checker.solver.unroll.Unrolled` over the engine's state at the decision
    point), what the interpreter runs from ``frames``' decision point to the end of the flow."""
    _frame(t, frames, 0, True, scopes)


def _frame(t, frames: list, k: int, guard, scopes) -> None:
    f = frames[k]
    types = local_types(scopes, f.procedure)
    env = {n: t.enc.from_runtime(v, types[n]) for n, v in f.names.items() if types.get(n) is not None}
    body = t.p.procedures[f.procedure].body
    t.depth += 1
    if t.depth > 16:
        raise Unsupported("calls nested more than 16 deep are not encoded", body[0].span if body else None)
    try:
        t.catching((STOP, ABORT), lambda: _block(t, body, f.path, 0, env, guard, frames, k, scopes))
    finally:
        t.depth -= 1


def _merge(env: dict, inner: dict, var: str | None = None) -> None:
    """What a block binds stays bound after it (as :meth:`Transition.run` returns it)."""
    for name, v in inner.items():
        if name != var:
            env[name] = v


def _block(t, stmts, path: list, depth: int, env: dict, guard, frames: list, k: int, scopes) -> dict:
    """The block ``stmts`` from the position ``path[depth]`` on (the statement there resumed, then the rest)."""
    step = path[depth]
    s = stmts[step.index]
    rest = stmts[step.index + 1:]
    if step.kind == "at":
        return t.run(stmts[step.index:], env, guard)
    if step.kind == "if":
        _merge(env, _block(t, s.then if step.branch else s.else_, path, depth + 1, dict(env), guard, frames, k,
                           scopes))
    elif step.kind == "for":
        elem = element(scopes.typed.types.get(id(s.coll)))
        over = [t.enc.from_runtime(x, elem) for x in step.over]
        _merge(env, _block(t, s.body, path, depth + 1, {**env, s.var: over[step.iteration]}, guard, frames, k,
                           scopes), s.var)
        for x in over[step.iteration + 1:]:
            here = AND(guard, t.running)
            if is_const(here) and not here:
                break
            _merge(env, t.run(s.body, {**env, s.var: x}, here), s.var)
    elif step.kind == "repeat":
        _merge(env, _block(t, s.body, path, depth + 1, dict(env), guard, frames, k, scopes))
        here = AND(guard, t.running)
        done = t.expr(s.until, env)
        t.checked_partial(here)
        going = AND(here, NOT(done))
        if not (is_const(going) and not going):
            from checker.solver.unroll import _repeat
            _repeat(t, s, env, going)        # the next iterations, as many as from the set-up
    elif step.kind == "call":
        if not isinstance(s, ast.CallProc) or depth + 1 != len(path):
            raise Unsupported("a frame that calls from inside a statement is not encoded", s.span)
        _frame(t, frames, k + 1, AND(guard, t.running), scopes)
    if rest:
        here = AND(guard, t.running)
        if not (is_const(here) and not here):
            env = t.run(rest, env, guard)
    return env
