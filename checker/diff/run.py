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
from checker.diff.compare import Shaper
from checker.diff.pair import Pair, Side
from checker.diff.semantic import Difference
from checker.diff.steps import Step, plan, run_job
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
                 first: bool = False, workers: int = 1, cluster: str | None = None) -> DiffResult:
    """Compare two checked rule sets.  ``ra`` may be a :class:`Side` kept from an earlier comparison (its
    engine is reused when the cards in common are the same).  ``causes``: distinct causes searched per
    action and direction (1 is enough to tell different from equivalent); ``minimise``: minimise the
    witnesses (off, a witness is any state Z3 finds); ``first``: stop searching at the first legality,
    value or order difference (enough to tell different from equivalent).  ``workers`` processes, or the Dask
    cluster at ``cluster``, run the searches (:mod:`checker.diff.parallel`): the same differences and verdicts,
    in the same order (with ``first``, every search runs and the result is cut where one process stops)."""
    start = time.perf_counter()
    side_a = ra if isinstance(ra, Side) else Side("a", ra, list(a))
    ra = side_a.result
    pair = Pair(side_a, Side("b", rb, list(b)), settings or SolverSettings(incremental=True),
                causes, minimise)
    p = plan(pair)
    outcome = None
    if (workers > 1 or cluster is not None) and len(p.jobs) > 1:
        from checker.diff.parallel import run_jobs
        outcome = run_jobs(p, list(a), list(b), settings, causes, minimise, workers, cluster, rb)
        pair.queries += outcome.queries
        pair.unknowns += outcome.unknowns

    def result_of(step: Step):
        return outcome.results[step.number] if outcome is not None else run_job(p, step.job)
    differences, semantic, searched = p.differences, [], {"actions": 0, "quantities": 0}

    def stopped() -> bool:
        return first and any(d.behavioural and d.kind != "undecided" for d in semantic)
    over: set[str] = set()          # the sections a single process would have left (``first``)
    for step in p.steps:
        if step.section in over:
            continue
        if step.note is not None:
            differences.append(step.note)
            continue
        if stopped():
            over.add(step.section)
            continue
        if step.section == "moves":
            move = p.moves[step.job[1]]
            change = next((d for d in differences if d.subject == move.subject and d.behavioural), None)
            if change is None:
                continue        # nothing the game runs uses it
            searched["effects"] = searched.get("effects", 0) + 1
            judged = result_of(step)
            judged.excerpt = change.excerpt
            if not _other_parts_differ(move, *p.shapers):
                differences.remove(change)          # the comparison by behaviour says it, with the change's text
            (semantic if judged.behavioural else differences).append(judged)
            continue
        if step.section in searched:
            searched[step.section] += 1
        semantic += result_of(step)
    differences = _judge_rules(differences, semantic, pair) + semantic
    if pair.copies_differ:
        differences.append(Difference("card", "copies", "cards with another number of copies are left out of the "
                                                        "states compared: " + ", ".join(pair.copies_differ)))
    result = DiffResult(list(a), list(b), differences, pair.queries, pair.unknowns, time.perf_counter() - start,
                        searched, (pair.low, pair.high))
    return result


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
