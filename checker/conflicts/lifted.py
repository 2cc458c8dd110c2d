"""conflicts, continued: *prohibition lifted by a card's state* — a card that grants an action and bounds it
stops bounding it when it is inactive, and the action opens to players the card, active, would forbid.

A kind's ``active`` quantity (docs/language.md, *A card's state*) switches off every rule of a card while
it is false: its permissions, and its prohibitions too.  For a card with a permission *and* a prohibition
on the same action (the card grants the action and says who may use it, and how), the prohibition is the
card's own bound on its grant; when the card is inactive (turned, cursed …), the grant is gone, but so is the
bound, and nothing else may forbid the action.  For each such prohibition the search asks Z3 for a
well-formed state where every copy of the card is inactive, the prohibition's condition holds (read as
if the card were active), none of the card's permissions of that action would apply, and the action is
legal (no prohibition that applies forbids it).  A protection a card gives without granting the action
(a card that forbids an attack on itself) is not asked: that an inactive card stops protecting is what
``active`` says.

Each witness is re-judged by the interpreter (``confirmed``): the state file loaded, the card is inactive
there, the move is legal, and the prohibition's condition holds with the card for ``this``.
"""

from __future__ import annotations

from checker.front import ast
from checker.solver.encode import NOT, Unsupported, is_const
from checker.conflicts.findings import Finding

__all__ = ["lifted_prohibitions", "lifted_questions"]


def lifted_questions(p) -> list[tuple]:
    """(card, prohibition rule, its head, the card's permission heads on the same action) for every card
    whose kind has an ``active`` quantity and that both permits and forbids one action."""
    out = []
    for card in p.cards.values():
        kind = p.kinds.get(card.kind)
        if kind is None or kind.active is None:
            continue
        permits: dict[str, list] = {}
        for rule in card.rules:
            for h in rule.heads:
                if h.kind == "permit":
                    permits.setdefault(h.pattern.name, []).append((rule, h))
        for rule in card.rules:
            for h in rule.heads:
                if h.kind == "forbid" and h.pattern.name in permits:
                    out.append((card, rule, h, permits[h.pattern.name]))
    return out


def _condition(enc, rule: ast.RuleDecl, head: ast.RuleHead, args: tuple):
    """The head's condition read with ``this`` its card, whether the card is active or not."""
    env = enc.rule_env(rule, head, args[:len(head.pattern.binders)])
    return True if head.when is None else enc.expr(head.when, env)


def lifted_prohibitions(search, only: set | None = None) -> list[Finding]:
    """The findings of ``search`` (a :class:`~checker.conflicts.questions.Search`); with ``only``, of the
    prohibitions it names."""
    E, out = search.engine, []
    for card, rule, head, permits in lifted_questions(search.p):
        if only is not None and rule.name not in only:
            continue
        action = head.pattern.name
        if not search._mine(out, lambda scope, rule=rule, permits=permits, action=action: scope.involves(
                scope.rule(rule) | scope.action(action) | {k for r, _ in permits for k in scope.rule(r)})):
            continue
        enc = search.encoder()
        key = E.def_ids[card.name]
        try:
            args, domain = search.action_args(enc, action)
            inactive = NOT(enc.active(key))
            forbidden = _condition(enc, rule, head, args)
            granted = [_condition(enc, r, h, args) for r, h in permits]
            legal = enc.legality(action, args)[0]
        except Unsupported as exc:
            out.append(Finding("unknown", f"cannot encode whether {rule.name} can be lifted by the state of "
                                          f"\"{card.name}\": {exc.located()}", (rule.name,), (head.span,),
                               _cites(rule), unknown=exc.located()))
            continue
        not_granted = [NOT(g) for g in granted]
        if is_const(inactive) and not inactive:
            continue
        status, model, reason = search.solve(enc, *domain, inactive, forbidden, *not_granted, legal,
                                             minimal=True, cards=(card.name,))
        if status == "unsat":
            continue
        names = ", ".join(r.name for r, _ in permits)
        if status == "unknown":
            out.append(Finding("unknown", f"cannot tell whether the state of \"{card.name}\" can lift {rule.name} "
                                          f"and leave {action} open", (rule.name,), (head.span,), _cites(rule),
                               unknown=reason))
            continue
        finding = Finding("lifted", f"{rule.name}: \"{card.name}\" inactive (its kind's `active` false) no longer "
                                    f"forbids {action}, and nothing else does — the move is legal where the card, "
                                    f"active, would forbid it and would not permit it ({names})",
                          (rule.name, *(r.name for r, _ in permits)), (head.span, *(h.span for _, h in permits)),
                          _cites(rule))
        search._witness(enc, model, finding, action, args)
        if finding.witness is not None and finding.move is not None:
            finding.confirmed = _confirm(search, finding, card.name, rule, permits)
        out.append(finding)
    return out


def _confirm(search, finding: Finding, card: str, rule: ast.RuleDecl, permits: list) -> bool | None:
    """The interpreter on the witness: the card is inactive, the move legal, and — the card read as if it
    were active — the prohibition applies and none of its permissions does.  None: the witness does not
    load."""
    from checker.runtime.engine import SLOTS
    from checker.runtime.state import SpecRuntimeError
    from checker.solver.statefile import StateFileError, load_move, load_state
    engine, scopes = search.judge()
    try:
        loaded = load_state(engine, finding.witness, scopes)
        (_, action, args), _ = load_move(loaded, finding.move)
    except (StateFileError, ValueError):
        return None
    cards = engine.cards
    definition = engine.def_ids[card]
    wanted = {rule.name} | {r.name for r, _ in permits}
    try:
        engine.invalidate()
        inactive = not cards.is_active(definition)
        legal = engine.legal(action, args)[0]
        normal = cards.is_active
        cards.is_active = lambda c: engine.def_of[c] == definition or normal(c)     # as if it were active
        try:
            engine.invalidate()
            applying = set()
            env = dict(zip(SLOTS, args))
            for name, _kind, _binders, _value, when, this in engine.rules_for[action]:
                env.update(this)
                if name in wanted and (when is None or when(env)):
                    applying.add(name)
        finally:
            del cards.is_active
            engine.invalidate()
    except SpecRuntimeError:
        return None
    return inactive and legal and applying == {rule.name}


def _cites(rule: ast.RuleDecl) -> tuple:
    return tuple((rule.name, c.quote) for c in rule.cites)
