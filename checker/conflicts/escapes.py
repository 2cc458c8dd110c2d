"""conflicts, continued: *an action that escapes a rule about its category* — a rule that lists most of a
category's actions one by one (`forbid détruire(p, q, d) when …`, `forbid échanger(…)`, …) instead of naming
the category (`forbid any action tagged t(…) when …`) does not cover the category's actions it leaves out:
an action a house rule adds to the category, or one the rule's author forgot.

A category is a `tag`; a rule *lists* an action when one of its heads (of one kind: prohibitions, or
permissions) is written about that action by name — a head about an action that others refine (`acquérir`) is
about something else, and covers its refinements; heads the rule writes over a category are not listings.  The rule is reported for a category when it lists at least two of the category's actions and more
of them than it leaves out: a rule that lists two of six is about something else.  This is static — no Z3 — and,
like a dead rule or a dangling reference, it is shown without changing the exit code: the rule may mean to
leave the action out (then a `decision` beside it says why).
"""

from __future__ import annotations

from typing import Callable

from checker.conflicts.findings import Finding

__all__ = ["escapes"]

_VERB = {"forbid": "forbids", "permit": "permits"}


def escapes(p, descendants: Callable[[str], list[str]], scope=None) -> list[Finding]:
    """The findings of spec ``p``: each (rule, category) whose listing leaves actions out.  ``descendants(a)``:
    ``a`` and the actions that refine it; ``scope`` (a :class:`~checker.conflicts.scope.Scope`): only the
    findings about a rule or an action of its files."""
    category: dict[str, list[str]] = {}
    for action in p.actions.values():
        for use in action.tags:
            if action.name not in category.setdefault(use.name, []):
                category[use.name].append(action.name)
    out = []
    for rule in p.rules.values():
        over = {h.from_tag for h in rule.heads if h.from_tag is not None}     # categories it is written over
        for kind in ("forbid", "permit"):
            heads = {}
            for h in rule.heads:
                if h.kind == kind and h.from_tag is None and not h.tagged:
                    heads.setdefault(h.pattern.name, h)
            covered = {x for name in heads for x in descendants(name)}
            for tag, actions in category.items():
                listed = [a for a in actions if a in heads]         # named by the rule itself
                missing = [a for a in actions if a not in covered]  # nor covered as a refinement
                if tag in over or len(listed) < 2 or not missing or len(listed) <= len(missing):
                    continue
                if scope is not None and not scope.escape(rule, missing):
                    continue
                first = heads[listed[0]]
                message = (f"{rule.name} {_VERB[kind]} {', '.join(listed)} ({len(listed)} of the {len(actions)} "
                           f"actions tagged {tag}) but not {', '.join(missing)}, which "
                           f"{'escapes' if len(missing) == 1 else 'escape'} it; if it is about every such action, "
                           f"write it over the category: `{kind} any action tagged {tag}(…) when …`")
                spans = (first.span, *(p.actions[a].span for a in missing))
                out.append(Finding("escape", message, (rule.name, *missing), spans,
                                   tuple((rule.name, c.quote) for c in rule.cites)))
    return out
