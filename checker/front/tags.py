"""Categories of actions: `tag` declarations, `tagged` actions, and rule heads about every tagged action.

``tag rang_8(p: Player, q: Player, d: District)`` declares a category; an action carries it with its own
parameters, ``action prendre(p: Player, d: District, q: Player) tagged rang_8(p, q, d)`` (several times when
the action belongs to the category in several ways: an exchange affects the district taken and the
district given).  A rule head ``forbid any action tagged rang_8(p, q, d) when cond`` is about each action
that carries the tag: once every file is collected, :func:`expand` writes it as one ordinary head per
use, ``forbid prendre(p, d, q) when cond``, binding the tag's names to the action's parameters (a
parameter the tag does not name gets a name of its own, ``_x``).  Every later pass reads ordinary heads,
so the interpreter, the Z3 encoding and the book cannot read a category differently, and an action a
later overlay tags is covered by the rule without being named.

A use that gives one parameter to two of the tag's names (``tagged rang_8(p, p, x)``: a district of the
actor's own city) renames the second name to the first in the condition; a head whose condition then
says ``n != n`` can never apply and is left out.

``Program`` in the annotations is :class:`checker.front.program.Program`: its ``collect`` calls this module, which
therefore does not import it.
"""

from __future__ import annotations

import dataclasses

from checker.front import ast
from checker.base.diagnostics import Note, Reporter
from checker.base.diagnostics import did_you_mean
from checker.front.types import written
from checker.base.source import Span

__all__ = ["expand", "tagged_actions"]


def tagged_actions(program: Program, tag: str) -> list[tuple[ast.ActionDecl, ast.TagUse]]:
    """Each (action, use) that puts an action in category ``tag``, in the order the actions are declared."""
    return [(a, u) for a in program.actions.values() for u in a.tags if u.name == tag]


def expand(program: Program, reporter: Reporter) -> None:
    for action in program.actions.values():
        for use in action.tags:
            _check_use(program, action, use, reporter)
    for name, rule in list(program.rules.items()):
        if not any(h.tagged for h in rule.heads):
            continue
        heads: list[ast.RuleHead] = []
        for head in rule.heads:
            heads += _expanded(program, head, reporter) if head.tagged else [head]
        program.rules[name] = dataclasses.replace(rule, heads=tuple(heads))
    for card_name, card in list(program.cards.items()):
        if any(h.tagged for r in card.rules for h in r.heads):
            program.cards[card_name] = dataclasses.replace(
                card, rules=tuple(program.rules.get(r.name, r) for r in card.rules))


def _check_use(program: Program, action: ast.ActionDecl, use: ast.TagUse, reporter: Reporter) -> None:
    tag = program.tags.get(use.name)
    if tag is None:
        reporter.error("E0202", f"unknown tag '{use.name}'", use.span, subject=use.name,
                       hint=did_you_mean(use.name, program.tags) or "declare it: `tag name(x: Type, …) \"doc\"`")
        return
    if len(use.args) != len(tag.params):
        reporter.error("E0302", f"tag '{use.name}' has {len(tag.params)} parameter(s), this use gives "
                                f"{len(use.args)}", use.span, notes=[Note("the tag is declared here", tag.span)])
        return
    params = {p.name: p for p in action.params}
    for (arg, span), want in zip(use.args, tag.params):
        if arg not in params:
            reporter.error("E0202", f"'{arg}' is not a parameter of action '{action.name}'", span, subject=arg,
                           hint=did_you_mean(arg, params) or "a tag names the action's own parameters")
        elif written(params[arg].type) != written(want.type):
            reporter.error("E0301", f"'{arg}' is a {written(params[arg].type)}; tag '{use.name}' takes a "
                                    f"{written(want.type)} here", span,
                           notes=[Note("the tag is declared here", tag.span)])


def _expanded(program: Program, head: ast.RuleHead, reporter: Reporter) -> list[ast.RuleHead]:
    tag = program.tags.get(head.pattern.name)
    if tag is None:
        reporter.error("E0202", f"unknown tag '{head.pattern.name}'", head.pattern.span, subject=head.pattern.name,
                       hint=did_you_mean(head.pattern.name, program.tags))
        return []
    binders = head.pattern.binders
    if len(binders) != len(tag.params):
        reporter.error("E0302", f"tag '{tag.name}' has {len(tag.params)} parameter(s), the rule binds "
                                f"{len(binders)}", head.pattern.span, notes=[Note("the tag is declared here", tag.span)])
        return []
    uses = tagged_actions(program, tag.name)
    if not uses:
        reporter.warning("W0703", f"no action is tagged '{tag.name}': this head applies to nothing",
                         head.pattern.span, hint=f"add `tagged {tag.name}(…)` to the actions it is about")
    out = []
    for action, use in uses:
        if len(use.args) != len(binders) or any(a not in {p.name for p in action.params} for a, _ in use.args):
            continue        # reported on the action
        names = {b for b, _ in binders}
        first: dict[str, str] = {}          # the action's parameter -> the rule's name bound to it
        renames: dict[str, str] = {}
        for (rule_name, _), (param, _) in zip(binders, use.args):
            if param in first:
                renames[rule_name] = first[param]
            else:
                first[param] = rule_name
        pattern = []
        for p in action.params:
            if p.name in first:
                pattern.append((first[p.name], head.pattern.span))
            else:
                fresh = "_" + p.name
                while fresh in names:
                    fresh = "_" + fresh
                pattern.append((fresh, head.pattern.span))
        when = rename(head.when, renames) if head.when is not None else None
        expr = rename(head.expr, renames) if head.expr is not None else None
        if when is not None and _never(when):
            continue
        out.append(dataclasses.replace(head, pattern=ast.Pattern(action.name, tuple(pattern), head.pattern.span),
                                       when=when, expr=expr, tagged=False, from_tag=tag.name))
    return out


def _never(e) -> bool:
    """A condition that is ``… and n != n and …``: false whatever the state."""
    if isinstance(e, ast.Binary) and e.op == "and":
        return _never(e.left) or _never(e.right)
    return isinstance(e, ast.Binary) and e.op == "!=" and isinstance(e.left, ast.Name) and \
        isinstance(e.right, ast.Name) and e.left.id == e.right.id


_BINDERS = (ast.Aggregate, ast.Connected, ast.Path)


def rename(node, names: dict[str, str]):
    """``node`` with every free occurrence of a name in ``names`` renamed; a variable bound inside it (an
    aggregate's, a search's) hides the outer name in its scope."""
    if not names:
        return node
    if isinstance(node, ast.Name):
        return dataclasses.replace(node, id=names[node.id]) if node.id in names else node
    if isinstance(node, tuple):
        out = tuple(rename(x, names) for x in node)
        return out if any(a is not b for a, b in zip(out, node)) else node
    if not dataclasses.is_dataclass(node) or isinstance(node, Span):
        return node
    changes = {}
    for field in dataclasses.fields(node):
        if field.name in ("span", "var_span", "name_span"):
            continue
        value = getattr(node, field.name)
        inner = names
        if isinstance(node, _BINDERS) and field.name not in ("coll", "start", "goal") and node.var in names:
            inner = {k: v for k, v in names.items() if k != node.var}
        if isinstance(value, (tuple,)) or dataclasses.is_dataclass(value):
            updated = rename(value, inner)
            if updated is not value:
                changes[field.name] = updated
    return dataclasses.replace(node, **changes) if changes else node
