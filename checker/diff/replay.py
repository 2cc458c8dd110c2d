"""replay: a witness of `diff` by behaviour made in each side's interpreter.

Each side's interpreter loads the witness's state, makes the move (an action, a power used by its card's
holder, a procedure or its steps from the first that differs) with the witness's choices — answering every
decision, forced ones included, and every choice made at random — and must reach the values the comparison
gives, fail where it says, offer an option on one side only, or leave a choice to chance on one side only.
"""

from __future__ import annotations

from checker.diff.pair import Pair, Side
from checker.diff.semantic import Difference, _judge
from checker.runtime.cards import Cancel
from checker.runtime.state import Abort, EndTurn, SpecRuntimeError, StopProc
from checker.solver.statefile import StateFileError, _Values, load_move, load_state
from checker.front.types import BOOL, KindT, Opt

__all__ = ["replay", "replayed"]


class _ReplayFailed(Exception):
    pass


class _NotOffered(Exception):
    pass


class _Script:
    """The witness's choices, in order, made in the interpreter: it watches every decision point (forced ones
    included, as an observer) and answers with the next choice, each (the value as a state file writes it,
    its type), None for « nothing »; a value the decision does not offer is _NotOffered."""

    def __init__(self, script: list, vals: _Values):
        self.script, self.vals, self.answer = script, vals, 0
        self.asked = self.drawn_by_chance = 0   # decisions with two options or more: a player's, chance's

    def observe(self, decision) -> None:
        self.asked += len(decision.options) + decision.optional >= 2
        if not self.script:
            raise _ReplayFailed(f"the interpreter asks « {decision.prompt} », a choice the witness does not make")
        value, ty, site = self.script.pop(0)
        if site is not None and getattr(decision.site, "span", None) != site:
            raise _NotOffered(value)        # the subset is made: the interpreter takes no more of its elements
        if value is None:
            if not decision.optional:
                raise _NotOffered("nothing")
            self.answer = len(decision.options)
            return
        for i, option in enumerate(decision.options):
            if (option if ty == BOOL else self.vals.write(option, ty)) == value:
                self.answer = i
                return
        raise _NotOffered(value)

    def choose(self, decision) -> int:
        return self.answer


def replay(pair: Pair, move, diff: Difference, matched: list, choices: dict, tail=None) -> bool | None:
    """Each side's interpreter loads the witness and makes the move with the witness's choices: does it reach
    the values the comparison says on each side (and fail where it says)?  None when it cannot be set up
    (``diff.sides["replay"]`` says why): a procedure's arguments."""
    sites = {"a": {x.var: x.span for x, _ in matched if x.kind == "subset"},
             "b": {y.var: y.span for _, y in matched if y.kind == "subset"}}
    try:
        return replayed(pair, move, diff, {x.var: x.type for x, _ in matched}, choices, tail, sites)
    except _ReplayFailed as exc:
        diff.sides["replay"] = str(exc)
        return None


def replayed(pair: Pair, move, diff: Difference, types: dict, choices: dict, tail=None,
             sites: dict | None = None) -> bool:
    """``sites``: per side, the statement (its span) of each subset by its name — an element of the witness's
    subset the interpreter does not ask for (it has taken as many as it allows) is not offered there."""
    if move.kind == "procedure" and any(decl.params for decl in move.decls):
        raise _ReplayFailed("a procedure's arguments are not replayed")
    if not diff.sides.get("fails") and not diff.sides["after"] and diff.sides.get("offered") is None \
            and diff.sides.get("chance") is None:
        raise _ReplayFailed("nothing to compare: the sides differ by how they end")
    if diff.witness["a"] is None or diff.witness["b"] is None:
        raise _ReplayFailed("the spec has no decision point (`offer`) to write the witness's state at")
    got = {}
    for tag, side in (("a", pair.a), ("b", pair.b)):
        engine = _judge(side)
        try:
            loaded = load_state(engine, diff.witness[tag], side.scopes)
        except (StateFileError, ValueError, KeyError) as exc:
            raise _ReplayFailed(f"the witness does not load: {exc}") from None
        script = []
        for name, value in choices[tag]:
            if isinstance(value, list):         # a subset: its elements one at a time (then « nothing more »)
                site = (sites or {}).get(tag, {}).get(name)
                script += [(v, types[name], site) for v in value]
            else:
                script.append((value, BOOL if isinstance(value, bool) else types[name], None))
        got[tag] = _run(pair, side, engine, loaded, move, diff, script, tail)
    offered = diff.sides.get("offered")
    if offered is not None:         # an option of one side only: the interpreters offer it there only
        return got[offered][0] != "not offered" and got["b" if offered == "a" else "a"][0] == "not offered"
    chance = diff.sides.get("chance")
    if chance is not None:          # one more choice among two or more left to chance there, one more asked elsewhere
        player = "b" if chance == "a" else "a"
        if not (got[chance][2][0] > got[player][2][0] and got[player][2][1] > got[chance][2][1]):
            return False
    for tag in ("a", "b"):
        outcome, values, _ = got[tag]
        if outcome == "not offered" or (outcome == "failed") != (tag in diff.sides.get("fails", ())):
            return False
        if outcome == "done" and any(value != cell[tag] for cell, value in zip(diff.sides["after"], values)):
            return False
    return True


def _run(pair: Pair, side: Side, E, loaded, move, diff: Difference, script: list, tail=None):
    """(failed, the listed cells' values after, written as the report writes them) on ``side``."""
    agents, observer = E.agents, E.observer
    agent = _Script(script, loaded.values)
    E.agents = [agent] * E.st.n
    E.observer = agent.observe

    def at_random(options):                 # `choose … at random`: the witness's value
        agent.drawn_by_chance += len(options) >= 2
        for k, option in enumerate(options):
            if agent.script and agent.script[0][0] is not None and \
                    loaded.values.write(option, agent.script[0][1]) == agent.script[0][0]:
                agent.script.pop(0)
                return options[k]
        raise _NotOffered("a random choice")
    E.st.rng.choice = at_random
    outcome = "done"
    try:
        E.invalidate()
        if move.kind == "action":
            try:
                (_kind, _name, values), _ = load_move(loaded, diff.move[side.tag])
            except (StateFileError, ValueError, KeyError) as exc:
                raise _ReplayFailed(f"the move does not load: {exc}") from None
            E.do(move.name, values)
        elif move.kind == "procedure":
            _call(side, E, move, tail)
        else:
            _use_power(side, E, loaded, move, diff)
    except (Abort, EndTurn, StopProc, Cancel):
        pass
    except SpecRuntimeError:
        outcome = "failed"
    except _NotOffered:
        outcome = "not offered"
    finally:
        E.agents, E.observer = agents, observer
        del E.st.rng.choice
    if outcome == "done" and agent.script and agent.script[0][2] is not None:
        outcome = "not offered"         # elements of a subset the interpreter never asked for
    return outcome, [_runtime_text(pair, E, loaded.values, cell) for cell in diff.sides["after"]], \
        (agent.drawn_by_chance, agent.asked)


def _call(side: Side, E, move, tail) -> None:
    """The procedure (it has no parameters) run on the witness — only its steps from the first that differs when
    it was compared so (the witness is the state there), without moving the turn or round counter."""
    # the body alone (the engine's function for the procedure counts the turn or round as it enters)
    stmts = E.program.procedures[move.name].body if tail is None else tail[0 if side.tag == "a" else 1]
    E.compiler.context = move.name
    try:
        body = E.compiler.body(stmts)
    finally:
        E.compiler.context = ""
    try:
        body({})
    except (StopProc, Abort):
        pass


def _use_power(side: Side, E, loaded, move, diff: Difference) -> None:
    """The power used by its card's holder, with the witness's window arguments, if he may use it."""
    key = E.def_ids.get(move.card[0 if side.tag == "a" else 1])
    if key is None or not E.instances.get(key):
        raise _ReplayFailed("the card is not in the witness's game")
    card = E.instances[key][0]
    runtime = next(x for x in E.powers_of[key] if x.name == move.name)
    player = E.controller(card)
    env = {"me": player, "this": card}
    decl = move.decls[0 if side.tag == "a" else 1]
    if decl.window is not None:
        problems: list = []
        params = side.program.windows[decl.window[0]].params
        env.update({n: loaded.values.read(v, side.types.resolve(prm.type), f"window/{n}", problems)
                    for n, v, prm in zip(runtime.names, diff.sides["window"], params)})
        if problems:
            raise _ReplayFailed(f"the window's arguments do not load: {problems}")
    if player is not None and (not E.cards.active or E.cards.is_active(card)) and \
            E.usable(runtime, player, card, env):
        E.run_power(runtime, player, card, env)


def _runtime_text(pair: Pair, E, vals: _Values, cell: dict) -> str:
    """A listed cell's value in ``E`` after the move, written as the report writes it."""
    key = cell["key"]
    enc = pair.a.types
    mine = _Values(pair.a.engine)

    def here(value, ty):            # the pair's value (a card by its number there) in E
        if isinstance(ty, Opt):
            ty = ty.inner
        if ty is None or isinstance(ty, KindT):
            return vals.by_label.get(mine.labels.get(value), value) if isinstance(value, int) else value
        return value

    def back(value, ty):            # E's value as the pair numbers it
        inner = ty.inner if isinstance(ty, Opt) else ty
        if isinstance(inner, KindT) and isinstance(value, int) and value >= 0:
            return mine.by_label.get(vals.labels.get(value), value)
        return value
    if key[0] == "var":
        _, name, index = key
        value = E.st.vars[name]
        if index is not None:
            k = here(enc.to_runtime(index, enc.index_types[name]), enc.index_types[name])
            value = value.get(k, 0 if E.program.vars[name].counter else E.var_defaults[name])
        ty = enc.var_types[name]
        return enc.show(enc.from_runtime(back(value, ty), ty), ty)
    if key[0] == "in":
        _, zone, index, inst = key
        where = None if index is None else here(enc.to_runtime(index, enc.zone_index_types[zone]),
                                                enc.zone_index_types[zone])
        return "oui" if E.st.where.get(here(inst, None)) == (zone, where) else "non"
    _, player, inst, name, scope = key
    last = E.st.uses.get((player, here(inst, None), name))
    used = last is not None and (scope == "game" or (scope == "turn" and last[0] == E.st.turn)
                                 or (scope == "round" and last[1] == E.st.round))
    return "oui" if used else "non"
