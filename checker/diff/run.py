"""run: `rulebook diff` from two lists of spec paths to a :class:`DiffResult`.

The passes, in order: check both rule sets; put them side by side over the cards they share
(:class:`~checker.diff.pair.Pair`); list the declarations they have differently
(:func:`~checker.diff.changes.declaration_changes`); for every action and quantity whose
dependencies differ (:func:`~checker.diff.compare.dependencies`), search for a legality or value
difference with Z3; compare the order of reactions; then say which changed rules and precedences
the differences come from, and which change nothing.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from checker.front.check import CheckResult, check_paths
from checker.diff.behaviour import changed_moves, compare_move
from checker.diff.changes import declaration_changes
from checker.diff.compare import Shaper, dependencies
from checker.diff.pair import Pair, Side
from checker.diff.semantic import Difference, legality, reaction_order, values
from checker.solver.factory import SolverSettings

__all__ = ["DiffResult", "diff_paths", "diff_results"]


@dataclasses.dataclass
class DiffResult:
    a: list[Path]
    b: list[Path]
    differences: list[Difference]
    queries: int = 0
    unknowns: int = 0
    seconds: float = 0.0
    checked: dict = dataclasses.field(default_factory=dict)    # {"actions": n, "quantities": n} searched with Z3
    players: tuple[int, int] = (0, 0)

    @property
    def behavioural(self) -> list[Difference]:
        return [d for d in self.differences if d.behavioural and d.kind != "undecided"]

    @property
    def neutral(self) -> list[Difference]:
        return [d for d in self.differences if not d.behavioural]

    @property
    def undecided(self) -> list[Difference]:
        return [d for d in self.differences if d.kind == "undecided"]

    @property
    def status(self) -> str:
        """equivalent (0), different (1), or undecided (4): a Z3 unknown is never counted as equivalent."""
        if self.behavioural:
            return "different"
        return "undecided" if self.undecided else "equivalent"

    def as_json(self) -> dict:
        return {"status": self.status, "a": [str(p) for p in self.a], "b": [str(p) for p in self.b],
                "players": list(self.players), "queries": self.queries, "unknowns": self.unknowns,
                "seconds": round(self.seconds, 2), "searched": self.checked,
                "differences": [d.as_json() for d in self.differences]}


def diff_paths(a: list[Path], b: list[Path], settings: SolverSettings | None = None, **options) -> DiffResult | tuple:
    """Check both rule sets and compare them (``options``: those of :func:`diff_results`); a rule set with
    errors is returned as (side, CheckResult)."""
    ra, rb = check_paths(list(a)), check_paths(list(b))
    for tag, result in (("a", ra), ("b", rb)):
        if not result.ok:
            return tag, result
    return diff_results(ra, a, rb, b, settings, **options)


def diff_results(ra: CheckResult | Side, a: list[Path], rb: CheckResult, b: list[Path],
                 settings: SolverSettings | None = None, causes: int = 3, minimise: bool = True,
                 first: bool = False) -> DiffResult:
    """Compare two checked rule sets.  ``ra`` may be a :class:`Side` kept from an earlier comparison (its
    engine is reused when the cards in common are the same).  ``causes``: distinct causes searched per
    action and direction (1 is enough to tell different from equivalent); ``minimise``: minimise the
    witnesses (off, a witness is any state Z3 finds); ``first``: stop searching at the first legality,
    value or order difference (enough to tell different from equivalent)."""
    start = time.perf_counter()
    side_a = ra if isinstance(ra, Side) else Side("a", ra, list(a))
    ra = side_a.result
    pair = Pair(side_a, Side("b", rb, list(b)), settings or SolverSettings(incremental=True),
                causes, minimise)
    differences = declaration_changes(pair)
    searched = {"actions": 0, "quantities": 0}
    sa, sb = Shaper(ra.program), Shaper(rb.program)
    attrs = _attributes(pair)
    pa, pb = ra.program, rb.program
    semantic: list[Difference] = []
    judged = pair.a.live.judged | pair.b.live.judged
    for action in sorted(set(pa.actions) & set(pb.actions)):
        if sa.shape(pa.actions[action].params) != sb.shape(pb.actions[action].params):
            differences.append(Difference("effect", f"action {action}", f"action {action} takes other parameters: "
                                                                        f"its legality is not compared"))
            continue
        if dependencies(sa, action, attrs["a"]) == dependencies(sb, action, attrs["b"]):
            continue
        if action not in judged:
            differences.append(Difference("rule", f"action {action}", f"the rules about {action} differ, but on "
                                                                      f"neither side does anything the game runs do "
                                                                      f"it, offer it or ask `can {action}`",
                                          behavioural=False))
            continue
        if first and any(d.behavioural and d.kind != "undecided" for d in semantic):
            break
        searched["actions"] += 1
        semantic += legality(pair, action)
    for quantity in sorted(set(pa.quantities) & set(pb.quantities)):
        qa, qb = pa.quantities[quantity], pb.quantities[quantity]
        if sa.shape(qa.params) != sb.shape(qb.params) or sa.shape(qa.type) != sb.shape(qb.type):
            differences.append(Difference("value", quantity, f"quantity {quantity} has other parameters or another "
                                                             f"type: its values are not compared"))
            continue
        if dependencies(sa, quantity, attrs["a"]) == dependencies(sb, quantity, attrs["b"]):
            continue
        if first and any(d.behavioural and d.kind != "undecided" for d in semantic):
            break
        searched["quantities"] += 1
        semantic += values(pair, quantity)
    if not (first and any(d.behavioural and d.kind != "undecided" for d in semantic)):
        semantic += reaction_order(pair)
    for move in changed_moves(pair, sa, sb):
        if first and any(d.behavioural and d.kind != "undecided" for d in semantic):
            break
        change = next((d for d in differences if d.subject == move.subject and d.behavioural), None)
        if change is None:
            continue        # nothing the game runs uses it
        searched["effects"] = searched.get("effects", 0) + 1
        judged = compare_move(pair, move)
        judged.excerpt = change.excerpt
        if not _other_parts_differ(move, sa, sb):
            differences.remove(change)          # the comparison by behaviour says it, with the change's text
        (semantic if judged.behavioural else differences).append(judged)
    differences = _judge_rules(differences, semantic, pair) + semantic
    if pair.copies_differ:
        differences.append(Difference("card", "copies", "cards with another number of copies are left out of the "
                                                        "states compared: " + ", ".join(pair.copies_differ)))
    result = DiffResult(list(a), list(b), differences, pair.queries, pair.unknowns, time.perf_counter() - start,
                        searched, (pair.low, pair.high))
    return result


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


def _judge_rules(changes: list[Difference], semantic: list[Difference], pair: Pair) -> list[Difference]:
    """A changed rule (or rule precedence) is behavioural when a semantic difference comes from it, undecided
    when the search about its subject did not finish, and otherwise proven to change nothing."""
    blamed = {name for d in semantic for name in d.rules}
    undecided = {d.subject for d in semantic if d.kind == "undecided"}
    out = []
    for d in changes:
        if d.kind == "rule":
            name = d.subject.split(" ", 1)[1]
            subjects = _subjects(pair, name)
            if name in blamed:
                d.behavioural = True
            elif subjects & undecided:
                d.behavioural = False
                d.message += f" (not decided: the search about {', '.join(sorted(subjects & undecided))} did not end)"
            else:
                d.behavioural = False
                d.message += " — it changes no legality and no value (proven)"
        elif d.kind == "precedence" and d.behavioural:
            winner, _, loser = d.subject.split(" ", 1)[1].partition(" over ")
            if winner in blamed or loser in blamed:
                d.behavioural = True
            else:
                d.behavioural = False
                d.message += " — it changes no legality and no value (proven)"
        out.append(d)
    return out


def _other_parts_differ(move, sa: Shaper, sb: Shaper) -> bool:
    """Does an action's declaration differ by more than its block (its parameters, parent or tags)?"""
    if move.kind != "action":
        return False
    return sa.shape(dataclasses.replace(move.decls[0], body=None)) != \
        sb.shape(dataclasses.replace(move.decls[1], body=None))


def _subjects(pair: Pair, rule: str) -> set[str]:
    out = set()
    for side in (pair.a, pair.b):
        decl = side.program.rules.get(rule)
        if decl is not None:
            out |= {h.pattern.name for h in decl.heads}
    return out
