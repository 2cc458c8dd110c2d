"""What a position is worth: the scores the game would give if it ended now, and after an option.

A game's ``score`` quantity often says little in the middle of a game: points that the rules only
count at the end (areas owned, a wall closed, followers that come back) are worth nothing until
then.  The spec says how a game ends: its ``flow`` procedure plays its rounds in a last top-level
``repeat`` loop and, after it, runs the *ending* — the statements that follow that loop (a final
count, the last evaluations, the end-of-game reactions).  :func:`outlook` runs the ending on the
state as it is now, reads every player's ``score``, and puts everything back: *the scores if the
game ended now*.  :func:`outlook_after` does the same after taking one option of a decision (an
offered action or power), which is what the greedy player compares.

Nothing here knows a game: the ending is found in the flow's structure.  When the flow has no
statement after its last loop, or that ending reads a local name the flow bound before it (its
value is not in the state), the outlook is the plain ``score``.  An ending that fails on a
position the game would not end in (a spec error in a hypothetical) gives the plain score too:
the game itself is not affected.

Inside an outlook nobody is asked anything: nested choices take their first option, nothing is
recorded or observed, and the work and decision counters are put back, so that looking ahead
never uses up the game's own limits.  :data:`COUNTS` counts outlooks and ending runs, for tests
that budget the cost without timing it.
"""

from __future__ import annotations

from collections import Counter

from checker.front import ast
from checker.runtime.compile import bound_names
from checker.runtime.state import Abort, EndTurn, SpecRuntimeError, StopProc

__all__ = ["ending", "outlook", "outlook_after", "margin", "lookahead", "COUNTS"]

COUNTS: Counter = Counter()      # "outlooks": positions valued; "endings": times the ending was run


class _FirstOption:
    """Every seat's agent inside an outlook: the first option, always."""

    def choose(self, decision) -> int:
        return 0


_NONE = object()


def ending(engine):
    """The compiled ending of ``engine``'s game (see the module's docstring), or None when there is none."""
    found = getattr(engine, "_ending", _NONE)
    if found is not _NONE:
        return found
    engine._ending = None
    procedure = engine.program.procedures.get(engine.flow) if engine.flow else None
    if procedure is not None and not procedure.params:
        body = tuple(procedure.body)
        last = max((i for i, s in enumerate(body) if isinstance(s, ast.Repeat)), default=None)
        if last is not None and last + 1 < len(body):
            tail = body[last + 1:]
            before = set(bound_names(body[:last + 1]))
            if not (before & ast.names_in(tail)):
                compiler = engine.compiler
                context, compiler.context = compiler.context, f"{engine.flow}_ending"
                try:
                    engine._ending = compiler.body(tail, [])
                finally:
                    compiler.context = context
    return engine._ending


def _scores(engine) -> dict[int, int]:
    return {q: engine.quantity(engine.score, (q,)) for q in engine.seats}


def outlook_after(engine, player: int | None, option=None, probe=None) -> dict[int, int] | None:
    """Every player's score if ``player`` took ``option`` now (an ``("action", …)`` or ``("power", …)``
    option of a decision; None, and no player: the position as it is) and the game then ended.  None when the game
    has no score, the option is neither, or taking it aborts.  ``probe``, when given, is called with the engine
    after the option and before the ending (what an aiming player measures: :mod:`checker.runtime.aim`)."""
    if engine.score is None or (option is not None and option[0] not in ("action", "power")):
        return None
    st = engine.st
    snap = st.snapshot()
    saved = (engine.recording, engine.agents, engine.observer, engine.round_observer, engine.decisions,
             engine.moves, engine.work, len(engine.events), len(engine.choices))
    engine.recording, engine.agents, engine.observer, engine.round_observer = False, [_FirstOption()] * st.n, None, None
    COUNTS["outlooks"] += 1
    try:
        if option is not None:
            if option[0] == "action":
                engine.perform(option[1], option[2])
            else:
                engine.run_power(option[1], player, option[2], dict(option[3]))
        if probe is not None:
            probe(engine)
        plain = _scores(engine)
        tail = ending(engine)
        if tail is None:
            return plain
        COUNTS["endings"] += 1
        try:
            tail({})
        except (Abort, StopProc, EndTurn):
            pass
        except SpecRuntimeError:
            return plain
        return _scores(engine)
    except (Abort, StopProc, EndTurn):
        return None
    finally:
        st.restore(snap, again=False)
        (engine.recording, engine.agents, engine.observer, engine.round_observer, engine.decisions,
         engine.moves, engine.work) = saved[:7]
        del engine.events[saved[7]:]
        del engine.choices[saved[8]:]


def outlook(engine) -> dict[int, int] | None:
    """Every player's score if the game ended now (see the module's docstring): nobody acts first."""
    return outlook_after(engine, None, None)


def margin(scores: dict[int, int], player: int) -> int:
    """``player``'s lead over the best of the others (negative: behind); its score when alone."""
    others = [s for q, s in scores.items() if q != player]
    return scores[player] - (max(others) if others else 0)


def lookahead(engine, player: int, option) -> int | None:
    """``player``'s score if the offered action ``option`` were taken now (None: not an action).
    The state, the log, the agents and the observer are put back as they were; nested choices take the
    first option, unseen by the observer."""
    if option[0] != "action" or engine.score is None:
        return None
    snap = engine.st.snapshot()
    saved = (engine.recording, engine.agents, engine.observer, engine.decisions, engine.moves, len(engine.events),
             len(engine.choices))
    # a look-ahead is not the game: nothing records or observes its decisions
    engine.recording, engine.agents, engine.observer = False, [_FirstOption()] * engine.st.n, None
    try:
        engine.perform(option[1], option[2])
        return engine.quantity(engine.score, (player,))
    except (Abort, StopProc, EndTurn):
        return None
    finally:
        engine.st.restore(snap, again=False)
        engine.recording, engine.agents, engine.observer, engine.decisions, engine.moves = saved[:5]
        del engine.events[saved[5]:]
        del engine.choices[saved[6]:]
