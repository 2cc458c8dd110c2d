"""The interpreter replays a conflict search's witness: the state file loaded into a fresh engine, the move
made with the choices of the model, and what the interpreter does compared with what Z3 found."""

from __future__ import annotations

import contextlib

from checker.front import ast
from checker.runtime.engine import Engine, Power
from checker.runtime.state import Abort, EndTurn, SpecRuntimeError, StopProc

__all__ = ["replay_failure", "replay_invariant"]


class _Unanswered(Exception):
    """The interpreter asks a decision the witness has no answer for (an `offer`)."""


class _Witnessed:
    """An agent answering each decision inside the move with the witness's choice at that statement (by its
    location), and otherwise with the first option."""

    def __init__(self, engine: Engine, answers: dict):
        self.engine, self.answers = engine, answers

    def choose(self, decision) -> int:
        site = decision.site
        if isinstance(site, ast.Offer):
            raise _Unanswered()
        span = site.span if isinstance(site, (Power, ast.Choose, ast.ChooseSubset)) else None
        wanted = self.answers.get(_where(span), ())
        options = list(decision.options)
        for value in wanted:
            if value is None and decision.optional:
                return len(options)
            for i, option in enumerate(options):
                if _same(self.engine, option, value):
                    return i
        return 0


def _where(span) -> tuple | None:
    return None if span is None else (str(span.file), span.line, span.column)


def _same(engine: Engine, option, value) -> bool:
    if isinstance(value, bool) or isinstance(option, bool):
        return bool(option) == bool(value) and isinstance(option, bool) == isinstance(value, bool)
    if isinstance(option, int) and isinstance(value, str):          # a card, by its name (any copy)
        return option >= 0 and engine.def_names.get(engine.def_of[option]) == value
    return option == value


def _loaded(search, witness: dict, move: dict | None, power: tuple | None):
    """(the judge's engine with ``witness`` loaded, a function making the move on it), or (None, why not).
    ``move``: an action's move file; ``power``: (card name, power name) used by its holder instead, or
    ("procedure", name, arguments) run from its start."""
    from checker.solver.statefile import StateFileError, load_move, load_state
    engine, scopes = search.judge()
    try:
        loaded = load_state(engine, witness, scopes)
        if move is not None:
            (_, action, args), _ = load_move(loaded, move)
    except (StateFileError, ValueError) as exc:
        return None, f"the witness does not load: {exc}"
    engine.invalidate()
    if move is not None:
        return engine, lambda: engine.perform(action, args)
    if power[0] == "procedure":         # ("procedure", name, its arguments): the procedure run from its start
        _, name, call = power
        return engine, lambda: engine.call(name, call)
    card_name, power_name = power
    definition = engine.def_ids[card_name]
    card = next((c for c in engine.instances.get(definition, ()) if engine.controller(c) is not None), None)
    if card is None:
        return None, f"nobody holds \"{card_name}\" on the witness"
    runtime = next(x for x in engine.powers_of[definition] if x.name == power_name)
    holder = engine.controller(card)
    return engine, lambda: engine.run_power(runtime, holder, card, {"me": holder, "this": card})


@contextlib.contextmanager
def _answering(engine: Engine, answers: dict):
    """Within: every player answers as the witness chose (:class:`_Witnessed`), and nothing is recorded."""
    saved = engine.agents, engine.recording
    engine.agents = [_Witnessed(engine, answers)] * engine.st.n
    engine.recording = False
    try:
        yield
    finally:
        engine.agents, engine.recording = saved


def replay_failure(search, witness: dict, move: dict | None, power: tuple | None, answers: dict,
                   failure_span) -> tuple[bool | None, str]:
    """(does the interpreter stop with an error at ``failure_span`` when it makes the move on the witness?,
    what it did).  ``move``: an action's move file; ``power``: (card name, power name) used by its holder
    instead; ``answers``: statement location -> the values the witness chooses there (card names, players,
    yes/no, None for nothing).  None: the witness does not load, or the interpreter asks a decision the
    witness does not answer."""
    engine, make = _loaded(search, witness, move, power)
    if engine is None:
        return None, make
    try:
        with _answering(engine, answers):
            make()
    except SpecRuntimeError as exc:
        same = exc.span is not None and failure_span is not None and _where(exc.span) == _where(failure_span)
        return same, f"the interpreter stops: {exc.message} ({exc.span})"
    except _Unanswered:
        return None, "the interpreter reaches an offer the witness does not answer"
    except (Abort, StopProc, EndTurn):
        return False, "the interpreter completes the move (it stops early, without an error)"
    return False, "the interpreter completes the move without an error"


def replay_invariant(search, witness: dict, move: dict | None, power: tuple | None, answers: dict,
                     invariant: str) -> tuple[bool | None, str]:
    """(does the interpreter, making the move on ``witness``, break ``invariant`` — stop on it at a decision
    inside the move, or find it broken right after?, what it did); the arguments as :func:`replay_failure`'s.
    None: the witness does not load, or the interpreter asks a decision the witness does not answer."""
    engine, make = _loaded(search, witness, move, power)
    if engine is None:
        return None, make
    broke = f"the game broke the invariant {invariant}"
    try:
        with _answering(engine, answers):
            try:
                make()
            except (Abort, StopProc, EndTurn):
                pass
        broken = [inv.name for inv in engine.broken_invariants()]
    except SpecRuntimeError as exc:
        return exc.message.startswith(broke), f"the interpreter stops: {exc.message} ({exc.span})"
    except _Unanswered:
        return None, "the interpreter reaches an offer the witness does not answer"
    if invariant in broken:
        return True, f"after the move, the interpreter finds {', '.join(broken)} broken"
    return False, ("after the move, the interpreter finds every invariant holding" if not broken else
                   f"after the move, the interpreter finds {', '.join(broken)} broken, not {invariant}")
