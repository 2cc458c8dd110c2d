"""narrow: the small states a comparison by behaviour searches for a witness when the full question is too large.

A move's statements can range over so many cards and players that their encoding passes the limit of one Z3
encoding (nested `can` over pairs of districts, for every player: more than 200,000 elements), or that Z3 runs
out of resources on it.  The same question is then asked on the states of fewer cards and players: each kind
keeps one copy of every card whose rules or powers the move may meet (:func:`relevant`: a rule about an action
it does or asks about, or about a quantity it reads; a power reacting to a window it opens; the move's own
card), and the first copy of up to FILLERS cards with neither rule nor power (to fill a city); at most PLAYERS
players.  The cards left out are in no zone of these states: such a state is one of the full question's states,
but its question is not the full one.  So only a witness counts — and only once both interpreters replay it
(:func:`checker.diff.behaviour.compare_move`): ``unsat`` on the small states proves nothing, and the comparison
stays undecided.
"""

from __future__ import annotations

import copy

from checker.front import ast

__all__ = ["narrowed", "relevant", "FILLERS", "PLAYERS"]

FILLERS = 8         # cards with neither rule nor power kept per kind, one copy each
PLAYERS = 4         # players at most


def relevant(program, decls) -> set[str]:
    """The names of the cards whose rules or powers the statements of ``decls`` may meet: a rule with a head about
    an action they do or ask about (or its ancestors) or a quantity they read, a power reacting to a window they
    signal — following the procedures and the actions' bodies they run, the quantities' definitions and the
    conditions of the rules met."""
    p = program
    heads: dict[str, list] = {}
    for rule in p.rules.values():
        for h in rule.heads:
            heads.setdefault(h.pattern.name, []).append(rule)
    names: set[str] = set()
    windows: set[str] = set()
    todo = list(decls)
    while todo:
        for node in ast.walk(todo.pop()):
            name = node.func if isinstance(node, ast.Call) else node.action if isinstance(node, (ast.Can, ast.Do)) \
                else node.name if isinstance(node, ast.CallProc) else None
            if isinstance(node, ast.Signal):
                windows.add(node.window)
            if name is None or name in names:
                continue
            names.add(name)
            if name in p.quantities:
                todo.append(p.quantities[name])
            elif name in p.procedures:
                todo.append(p.procedures[name].body)
            elif name in p.actions:
                action = p.actions[name]
                todo.append(action.body or ())
                if action.parent:
                    todo.append(ast.Can(action.parent[0], (), action.span))
            todo += [(h.when, h.expr) for rule in heads.get(name, ()) for h in rule.heads
                     if h.pattern.name == name]
    out = set()
    for card in p.cards.values():
        if any(h.pattern.name in names for rule in p.rules.values() if rule.card == card.name for h in rule.heads) \
                or any(pw.window and pw.window[0] in windows for pw in card.powers):
            out.add(card.name)
    return out


def narrowed(pair, move):
    """A copy of ``pair`` whose encoders range over the small states of ``move`` (see the module's docstring), or
    None when they are not smaller."""
    E, p = pair.a.engine, pair.a.program
    keep = {pair.a.base(n) for n in relevant(p, move.decls[:1])} | \
        {pair.b.base(n) for n in relevant(pair.b.program, move.decls[1:])}
    if move.card is not None:
        keep.add(pair.a.base(move.card[0]))
    plain = {name for name, card in p.cards.items() if not card.powers
             and not any(rule.card == name for rule in p.rules.values())}
    universe: dict[str, list[int]] = {}
    total = 0
    for kind, insts in E.selected.items():
        fillers = 0
        universe[kind] = []
        for d in dict.fromkeys(E.defs[i] for i in insts):
            name = E.def_names[d]
            if pair.a.base(name) in keep or (name in plain and fillers < FILLERS):
                fillers += pair.a.base(name) not in keep
                universe[kind].append(E.instances[d][0])
        total += len(insts)
    if sum(len(x) for x in universe.values()) == total and pair.high <= PLAYERS:
        return None
    small = copy.copy(pair)
    small.universe = universe
    small.high = max(pair.low, min(pair.high, PLAYERS))
    small.queries = small.unknowns = 0
    small.seconds = 0.0
    return small
