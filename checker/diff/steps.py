"""steps: what a comparison searches, in the order a single process takes the steps, each Z3 search numbered
the same way in every process that puts the same two rule sets side by side (what lets
:mod:`checker.diff.parallel` share the searches out)."""

from __future__ import annotations

import dataclasses

from checker.diff.behaviour import changed_moves, compare_move
from checker.diff.changes import declaration_changes
from checker.diff.compare import Shaper, dependencies
from checker.diff.pair import Pair
from checker.diff.semantic import Difference, legality, reaction_order, values

__all__ = ["Step", "Plan", "plan", "run_job"]


@dataclasses.dataclass
class Step:
    """One step of a comparison, in the order a single process takes them.  ``job``: the Z3 search it runs
    (``("legality", action)``, ``("values", quantity)``, ``("order",)`` or ``("move", i)``, the i-th changed
    move), numbered ``number`` among the searches; none for a difference known without a search (``note``)."""

    section: str                    # actions | quantities | order | moves
    job: tuple | None = None
    number: int = -1
    note: Difference | None = None


@dataclasses.dataclass
class Plan:
    """What a comparison searches: the declarations' differences, then its steps (see :func:`plan`)."""

    pair: Pair
    shapers: tuple[Shaper, Shaper]
    differences: list[Difference]
    steps: list[Step]
    moves: list

    @property
    def jobs(self) -> list[tuple]:
        return [step.job for step in self.steps if step.job is not None]


def plan(pair: Pair) -> Plan:
    """The comparison's steps: for every action and quantity whose dependencies differ a Z3 search (or why it is
    not searched), the order of reactions, and every move (action block, procedure, power) with other
    statements.  The same in every process that builds the same pair: the searches are numbered by it."""
    differences = declaration_changes(pair)
    sa, sb = Shaper(pair.a.program), Shaper(pair.b.program)
    attrs = _attributes(pair)
    pa, pb = pair.a.program, pair.b.program
    judged = pair.a.live.judged | pair.b.live.judged
    steps: list[Step] = []
    for action in sorted(set(pa.actions) & set(pb.actions)):
        if sa.shape(pa.actions[action].params) != sb.shape(pb.actions[action].params):
            steps.append(Step("actions", note=Difference("effect", f"action {action}", f"action {action} takes other "
                                                                                      f"parameters: its legality is "
                                                                                      f"not compared")))
        elif dependencies(sa, action, attrs["a"]) == dependencies(sb, action, attrs["b"]):
            continue
        elif action not in judged:
            steps.append(Step("actions", note=Difference(
                "rule", f"action {action}", f"the rules about {action} differ, but on neither side does anything "
                                            f"the game runs do it, offer it or ask `can {action}`", behavioural=False)))
        else:
            steps.append(Step("actions", ("legality", action)))
    for quantity in sorted(set(pa.quantities) & set(pb.quantities)):
        qa, qb = pa.quantities[quantity], pb.quantities[quantity]
        if sa.shape(qa.params) != sb.shape(qb.params) or sa.shape(qa.type) != sb.shape(qb.type):
            steps.append(Step("quantities", note=Difference("value", quantity, f"quantity {quantity} has other "
                                                                               f"parameters or another type: its "
                                                                               f"values are not compared")))
        elif dependencies(sa, quantity, attrs["a"]) != dependencies(sb, quantity, attrs["b"]):
            steps.append(Step("quantities", ("values", quantity)))
    steps.append(Step("order", ("order",)))
    moves = changed_moves(pair, sa, sb)
    for i, move in enumerate(moves):
        if any(d.subject == move.subject and d.behavioural for d in differences):
            steps.append(Step("moves", ("move", i)))
    number = 0
    for step in steps:
        if step.job is not None:
            step.number, number = number, number + 1
    return Plan(pair, (sa, sb), differences, steps, moves)


def run_job(p: Plan, job: tuple):
    """One search of a plan: a list of differences, or one (a move)."""
    kind = job[0]
    if kind == "legality":
        return legality(p.pair, job[1])
    if kind == "values":
        return values(p.pair, job[1])
    if kind == "order":
        return reaction_order(p.pair)
    return compare_move(p.pair, p.moves[job[1]])


def _attributes(pair: Pair) -> dict:
    """The attributes of the cards both sides have, by base name (what rules read with `.attr`)."""
    out = {}
    for tag, side in (("a", pair.a), ("b", pair.b)):
        E = side.engine
        rows = []
        for d in sorted(set(E.defs), key=lambda x: side.base(E.def_names[x])):
            attrs = {k: v for k, v in E.card_attrs[d].items() if k != "name"}
            rows.append((side.base(E.def_names[d]), tuple(sorted((k, str(v)) for k, v in attrs.items()))))
        out[tag] = tuple(rows)
    return out
