"""Every sentence the prose generator writes for one checked program, with where it comes from.

The book (:mod:`checker.sphinxext`) and the editor's hovers show these sentences; the style
check (:mod:`checker.prose.style`) and its test read them all, so that a construct of the
language that reads badly is found whatever spec uses it.
"""

from __future__ import annotations

import dataclasses

from checker.prose.core import Ctx, Prose, Step, UnsupportedNode
from checker.front.types import KindT

__all__ = ["Sentence", "sentences"]


@dataclasses.dataclass(frozen=True)
class Sentence:
    """One sentence of the book: ``where`` says which declaration (``rule pas_de_doublon``)."""
    where: str
    text: str


def _flat(steps: list[Step]):
    for step in steps:
        if step.text:
            yield step.text
        yield from _flat(step.children)


def _bound(prose: Prose, params) -> Ctx:
    ctx = Ctx()
    for param in params:
        ctx = ctx.bind(param.name, prose._resolve_type(param.type))
    return ctx


def sentences(prose: Prose, program) -> list[Sentence]:
    """The rules' heads, the powers (facets, condition, steps), procedures, actions, quantities,
    windows, hooks, kinds' settings and constraints, as the book words them.  A node the
    generator cannot word is itself a sentence (``UnsupportedNode: …``), so that it is seen."""
    out: list[Sentence] = []

    def add(where: str, make) -> None:
        try:
            texts = make()
        except UnsupportedNode as exc:
            texts = [f"UnsupportedNode: {exc}"]
        out.extend(Sentence(where, t) for t in texts if t)

    for card in program.cards.values():
        ctx = prose.card_ctx(card.kind, card.name)
        for power in card.powers:
            def power_text(power=power, ctx=ctx):
                pctx = prose.power_ctx(power, ctx)
                texts = ["Pouvoir " + " · ".join(prose.power_facets(power, ctx)) + "."]
                condition = prose.requirement(power, pctx)
                if condition:
                    texts.append(f"Condition : {condition}.")
                return texts + list(_flat(prose.steps(power.body, pctx)))
            add(f"power {card.name}.{power.name}", power_text)
    for rule in program.rules.values():
        card = program.cards.get(rule.card) if rule.card else None
        ctx = prose.card_ctx(card.kind, card.name) if card is not None else prose.card_ctx(None)
        for head in rule.heads:
            def rule_text(head=head, ctx=ctx):
                legend = prose.legend(head.pattern, ctx) if head.kind in ("permit", "forbid") else ""
                return [prose.head(head, ctx)] + ([f"Où {legend}."] if legend else [])
            add(f"rule {rule.name}", rule_text)
    for proc in program.procedures.values():
        add(f"procedure {proc.name}", lambda proc=proc: list(_flat(prose.steps(proc.body, _bound(prose, proc.params)))))
    for action in program.actions.values():
        def action_text(action=action):
            texts = [prose.action_summary(action)] if action.params else []
            return texts + list(_flat(prose.steps(action.body or (), _bound(prose, action.params))))
        add(f"action {action.name}", action_text)
    for q in program.quantities.values():
        add(f"quantity {q.name}", lambda q=q: [f"Par défaut, {prose.default_clause(q, _bound(prose, q.params))}."])
    for window in program.windows.values():
        add(f"window {window.name}", lambda window=window: [prose.window_sentence(window)])
    for hook in program.hooks:
        add(f"before {hook.action}", lambda hook=hook: [prose.hook_sentence(hook)])
    for kind in program.kinds.values():
        noun = prose.type_noun(KindT(kind.name))
        add(f"kind {kind.name}", lambda kind=kind, noun=noun: prose.kind_settings(kind, noun))
    for constraint in program.constraints.values():
        def constraint_text(constraint=constraint):
            text = prose.cond(constraint.require, Ctx(mood="ind" if constraint.when is not None else "subj"))
            if constraint.when is not None:
                return [f"Lorsque {prose.cond(constraint.when, Ctx())}, {text}."]
            return [f"Il faut que {text}."]
        add(f"constraint {constraint.name}", constraint_text)
    return out
