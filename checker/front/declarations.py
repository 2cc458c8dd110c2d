"""The declaration-level half of typecheck: kinds, cards, powers, rules, precedences…

Expression and statement checking live in :mod:`checker.front.typecheck`; this module
walks the declarations of a program and sets up the environment each body is
checked in.
"""

from __future__ import annotations

import dataclasses

from checker.front import ast
from checker.base.diagnostics import Note
from checker.front.program import card_hint, did_you_mean
from checker.base.source import Span
from checker.front.typecheck_core import Checker, Env
from checker.front.typecheck_shapes import check_grid, check_record
from checker.front.types import BOOL, ERROR, INT, PLAYER, TEXT, Coll, KindT, Opt, Ty

__all__ = ["check_declarations", "rule_targets", "GAME_FIELDS"]

EMPTY = Env({})
GAME_FIELDS = ("edition", "players", "flow", "turn", "round", "score", "tiebreak")     # of a `game` declaration


def check_declarations(c: Checker) -> None:
    p = c.p
    if p.game is None:
        first = Span(p.files[0], 1, 1, 1, 1) if p.files else None
        c.err("E0202", "the spec declares no `game`", first,
              hint='add `game "Name" { players: 2..5  flow: a_procedure }`')
    else:
        _game(c, p.game)
    for grid in p.grids.values():
        check_grid(c, grid)
    for record in p.records.values():
        check_record(c, record)
    for kind in p.kinds.values():
        _kind(c, kind)
    _redeclared(c)
    for var in p.vars.values():
        _var(c, var)
    for zone in p.zones.values():
        c.index_type(zone.index)
        if zone.kind.name not in p.kinds:
            c.err("E0202", f"unknown kind of card '{zone.kind.name}'", zone.kind.span, subject=zone.kind.name,
                  hint=did_you_mean(zone.kind.name, p.kinds))
    for window in p.windows.values():
        c.params_env(window.params, EMPTY)
    for action in p.actions.values():
        _action(c, action)
    for hook in p.hooks:
        _hook(c, hook)
    for quantity in p.quantities.values():
        env = c.params_env(quantity.params, EMPTY)
        c.expect(quantity.default, c.resolve_type(quantity.type), env, f"the default of {quantity.name}")
    for table in p.tables.values():
        _table(c, table)
    for card in p.cards.values():
        _card(c, card)
    for rule in p.rules.values():
        _rule(c, rule)
    for prec in p.precedences:
        _precedence(c, prec)
    _precedence_cycles(c)
    for constraint in p.constraints.values():
        for name, span in constraint.decisions:
            c.decision_ref(name, span)
        env = EMPTY if constraint.invariant else Env({}, config_only=True)
        what = "an invariant" if constraint.invariant else "a constraint"
        c.expect(constraint.require, BOOL, env, what)
        if constraint.when is not None:
            c.expect(constraint.when, BOOL, env, f"the condition of {what}")
    for proc in p.procedures.values():
        env = c.params_env(proc.params, EMPTY)
        if proc.requires is not None:
            c.expect(proc.requires, BOOL, env, "the condition of requires")
        c.block(proc.body, env)
    for config in p.configurations.values():
        _configuration(c, config)
    for name, decision in p.decisions.items():
        if name not in c.decisions_used:
            c.r.warning("W0701", f"decision '{name}' is not referenced by any rule", decision.span,
                        hint=f"add `decision {name}` to the rule or precedence that applies it")


# ---------------------------------------------------------------- game and vocabulary

def _no_repeated_fields(c: Checker, fields) -> None:
    seen: dict[str, ast.Field] = {}
    for f in fields:
        if f.name in seen:
            c.err("E0201", f"field '{f.name}' is given twice", f.span, notes=[Note("first given here", seen[f.name].span)])
        seen.setdefault(f.name, f)


def _game(c: Checker, game: ast.GameDecl) -> None:
    _no_repeated_fields(c, game.fields)
    for f in game.fields:
        if f.name == "players":
            for v in f.values:
                c.expect(v, Coll(INT, True) if isinstance(v, ast.Binary) else INT, EMPTY, "a player count")
        elif f.name == "flow":
            v = f.values[0]
            if not isinstance(v, ast.Name) or v.id not in c.p.procedures:
                name = v.id if isinstance(v, ast.Name) else "?"
                c.err("E0202", f"the game's flow must name a procedure; '{name}' is not one", v.span,
                      subject=name, hint=did_you_mean(name, c.p.procedures))
            elif c.p.procedures[v.id].params:
                c.err("E0302", f"the flow procedure '{v.id}' must take no parameters", v.span)
        elif f.name in ("turn", "round"):
            v = f.values[0]
            if not isinstance(v, ast.Name) or v.id not in c.p.procedures:
                name = v.id if isinstance(v, ast.Name) else "?"
                c.err("E0202", f"the game's {f.name} must name a procedure; '{name}' is not one", v.span,
                      subject=name, hint=did_you_mean(name, c.p.procedures))
        elif f.name in ("score", "tiebreak"):
            v = f.values[0]
            q = c.p.quantities.get(v.id) if isinstance(v, ast.Name) else None
            if q is None or [c.resolve_type(x.type) for x in q.params] != [PLAYER] or c.resolve_type(q.type) != INT:
                c.err("E0301", f"the game's {f.name} must name a quantity (Player) -> Int", v.span)
        elif f.name in ("edition",):
            c.expect(f.values[0], TEXT, EMPTY, "the edition")
        else:
            c.err("E0206", f"unknown game field '{f.name}'", f.span,
                  hint=did_you_mean(f.name, GAME_FIELDS) or f"fields: {', '.join(GAME_FIELDS)}")


def _kind(c: Checker, kind: ast.KindDecl) -> None:
    me = KindT(kind.name)
    for name, span in kind.decisions:
        c.decision_ref(name, span)
    for attr in kind.attrs:
        ty = c.resolve_type(attr.type)
        if attr.domain is not None:
            if ty != INT:
                c.err("E0301", "only Int attributes have a range", attr.domain.span)
            c.expect(attr.domain, Coll(INT, True), EMPTY, "the range")
        if attr.default is not None and c.expect(attr.default, ty, EMPTY, f"the default of {attr.name}") is not ERROR:
            _constant(c, attr.default, f"the default of {attr.name}")
    if kind.controller is not None:
        name, span = kind.controller
        q = c.p.quantities.get(name)
        if q is None:
            c.err("E0202", f"unknown quantity '{name}' for the controller of {kind.name}", span, subject=name,
                  hint=did_you_mean(name, c.p.quantities))
        elif len(q.params) != 1 or c.resolve_type(q.params[0].type) != me or \
                c.resolve_type(q.type) not in (PLAYER, Opt(PLAYER)):
            c.err("E0301", f"the controller '{name}' must be a quantity ({kind.name}) -> Player?", span,
                  notes=[Note(f"'{name}' is declared here", q.span)])
    for setting, want, shape in (("active", BOOL, "Bool"), ("imitates", Opt(me), f"{kind.name}?")):
        if getattr(kind, setting) is None:
            continue
        name, span = getattr(kind, setting)
        q = c.p.quantities.get(name)
        if q is None:
            c.err("E0202", f"unknown quantity '{name}' for `{setting}` of {kind.name}", span, subject=name,
                  hint=did_you_mean(name, c.p.quantities))
        elif len(q.params) != 1 or c.resolve_type(q.params[0].type) != me or c.resolve_type(q.type) != want:
            c.err("E0301", f"`{setting}` of {kind.name} must name a quantity ({kind.name}) -> {shape}", span,
                  notes=[Note(f"'{name}' is declared here", q.span)])
    if kind.start is not None:
        name, span = kind.start
        zone = c.p.zones.get(name)
        if zone is None:
            c.err("E0202", f"unknown zone '{name}' for the start of {kind.name}", span, subject=name,
                  hint=did_you_mean(name, c.p.zones))
        elif zone.index is not None or zone.kind.name != kind.name:
            c.err("E0301", f"the start zone of {kind.name} must be an unindexed zone of {kind.name}", span)


def _redeclared(c: Checker) -> None:
    """An `extend kind` may widen an attribute's range or change its default, not its type."""
    for old, new in c.p.redeclared:
        before, after = c.resolve_type(old.type), c.resolve_type(new.type)
        if ERROR not in (before, after) and before != after:
            c.err("E0301", f"`extend` cannot change the type of attribute '{new.name}' ({before} → {after})",
                  new.type.span, notes=[Note("the base declares it here", old.span)],
                  hint="an extension may change an attribute's range or default; add a new attribute instead")


def _var(c: Checker, var: ast.VarDecl) -> None:
    c.index_type(var.index)
    ty = c.resolve_type(var.type)
    if var.default is not None:
        if c.expect(var.default, ty, EMPTY, f"the default of {var.name}") is not ERROR:
            _constant(c, var.default, f"the default of {var.name}")
    elif not isinstance(ty, Opt) and ty is not ERROR:
        c.err("E0302", f"var '{var.name}' needs a default value", var.span,
              hint=f"write `= …`, or make it optional: {ty}? = none")


def _action(c: Checker, action: ast.ActionDecl) -> None:
    env = c.params_env(action.params, EMPTY)
    if action.parent is not None:
        name, span = action.parent
        parent = c.p.actions.get(name)
        if parent is None:
            c.err("E0202", f"unknown action '{name}'", span, subject=name, hint=did_you_mean(name, c.p.actions))
        else:
            mine = [c.resolve_type(p.type) for p in action.params]
            theirs = [c.resolve_type(p.type) for p in parent.params]
            if mine[:len(theirs)] != theirs:
                sig = ", ".join(str(t) for t in theirs)
                c.err("E0301", f"'{action.name}' refines '{name}', so its parameters must start with ({sig})",
                      action.span, notes=[Note(f"'{name}' is declared here", parent.span)])
            seen, cursor = {action.name}, parent
            while cursor is not None and cursor.parent is not None:
                if cursor.parent[0] in seen:
                    c.err("E0303", f"'{action.name}' refines itself through '{cursor.name}'", span)
                    break
                seen.add(cursor.name)
                cursor = c.p.actions.get(cursor.parent[0])
    if action.body is not None:
        c.block(action.body, env)


def _hook(c: Checker, hook: ast.BeforeDecl) -> None:
    """`before act(x…) signal w(args)`: the binders name act's parameters; args fit w's parameters."""
    action = c.p.actions.get(hook.action)
    if action is None:
        c.err("E0202", f"unknown action '{hook.action}'", hook.action_span, subject=hook.action,
              hint=did_you_mean(hook.action, c.p.actions))
        return
    if len(hook.binders) != len(action.params):
        names = ", ".join(x.name for x in action.params)
        c.err("E0302", f"'{hook.action}' has {len(action.params)} parameter(s), `before` binds {len(hook.binders)}",
              hook.action_span, hint=f"{hook.action}({names})")
    env = EMPTY
    for (name, _), param in zip(hook.binders, action.params):
        env = env.bind(name, c.resolve_type(param.type))
    c.invoke("window", c.p.windows, hook.window, hook.args, env, hook.window_span)


def _table(c: Checker, table: ast.TableDecl) -> None:
    key_types = [c.resolve_type(p.type) for p in table.params]
    value_type = c.resolve_type(table.type)
    seen: dict[tuple, ast.TableRow] = {}
    for row in table.rows:
        if len(row.keys) != len(key_types):
            c.err("E0302", f"this row has {len(row.keys)} key(s); {table.name} takes {len(key_types)}", row.span)
            continue
        for key, ty in zip(row.keys, key_types):
            c.expect(key, ty, EMPTY, "a key")
        if c.expect(row.value, value_type, EMPTY, "the value") is not ERROR:
            _constant(c, row.value, f"a value of {table.name}")
        literal = tuple(getattr(k, "value", id(k)) for k in row.keys)
        if literal in seen:
            c.err("E0201", f"the row for {literal} is given twice", row.span,
                  notes=[Note("first given here", seen[literal].span)])
        seen[literal] = row


# ---------------------------------------------------------------- cards and powers

def _card(c: Checker, card: ast.CardDecl) -> None:
    kind = c.p.kinds.get(card.kind)
    if kind is None:
        c.err("E0202", f"unknown kind of card '{card.kind}'", card.kind_span, subject=card.kind, hint=did_you_mean(card.kind, c.p.kinds))
        return
    declared = {a.name: a for a in kind.attrs}
    given: dict[str, ast.AttrValue] = {}
    for value in card.attrs:
        attr = declared.get(value.name)
        if value.name in given:
            c.err("E0201", f"attribute '{value.name}' is given twice", value.span,
                  notes=[Note("first given here", given[value.name].span)])
        given[value.name] = value
        if attr is None:
            c.err("E0206", f"{card.kind} has no attribute '{value.name}'", value.span,
                  hint=did_you_mean(value.name, declared) or f"attributes: {', '.join(declared)}")
            continue
        ty = c.resolve_type(attr.type)
        if c.expect(value.value, ty, EMPTY, f"{value.name}") is not ERROR:
            _constant(c, value.value, f"{value.name}")
        if attr.domain is not None and isinstance(value.value, ast.IntLit):
            low, high = _int_bounds(attr.domain)
            if low is not None and not low <= value.value.value <= high:
                c.err("E0304", f"{value.name} {value.value.value} is out of range {low}..{high}", value.value.span,
                      notes=[Note(f"the range of {card.kind}.{attr.name} is declared here", attr.span)])
    for attr in kind.attrs:
        if attr.default is None and attr.name not in given and not isinstance(c.resolve_type(attr.type), Opt):
            c.err("E0207", f"{card.kind} \"{card.name}\" has no '{attr.name}'", card.name_span,
                  hint=f"add `{attr.name}: …`")
    env = Env({}, this=KindT(card.kind), me=True)
    seen: dict[str, ast.PowerDecl] = {}
    for power in card.powers:
        if power.name in seen:
            c.err("E0201", f"power '{power.name}' is defined twice in \"{card.name}\"", power.span,
                  notes=[Note("first defined here", seen[power.name].span)])
        seen[power.name] = power
        _power(c, power, env)


def _constant(c: Checker, e: ast.Expr, what: str) -> None:
    """A default, a card's attribute or a table's value is read once, before any game: it must be a constant —
    what the interpreter evaluates then (a literal, an enum member, a negated constant, a set or record of
    constants, a grid's centre); anything computed is refused here, located, not at the game's start."""
    bad = _computed(c, e)
    if bad is not None:
        c.err("E0303", f"{what} must be a constant; this is computed when the game is played", bad.span,
              hint="write the value itself (a number, a name, a set or record of constants)")


def _computed(c: Checker, e: ast.Expr) -> ast.Expr | None:
    """The first part of ``e`` that is not a constant, or None."""
    if isinstance(e, (ast.IntLit, ast.BoolLit, ast.NoneLit, ast.StrLit)):
        return None
    if isinstance(e, ast.Name):
        return None if e.id in c.p.enum_members else e
    if isinstance(e, ast.Unary) and e.op == "-":
        return _computed(c, e.operand)
    if isinstance(e, ast.SetLit):
        return next((bad for x in e.items if (bad := _computed(c, x)) is not None), None)
    if isinstance(e, ast.Call) and e.func == "center" and len(e.args) == 1 and isinstance(e.args[0], ast.Name) \
            and e.args[0].id in c.p.grids:
        return None
    if isinstance(e, ast.Call) and e.func in c.p.records:
        return next((bad for x in e.args if (bad := _computed(c, x)) is not None), None)
    return e


def _int_bounds(domain: ast.Expr) -> tuple[int | None, int | None]:
    if isinstance(domain, ast.Binary) and isinstance(domain.left, ast.IntLit) and isinstance(domain.right, ast.IntLit):
        return domain.left.value, domain.right.value
    return None, None


def _power(c: Checker, power: ast.PowerDecl, env: Env) -> None:
    if power.window is not None:
        name, names, span = power.window
        if any(hook.window == name for hook in c.p.hooks):
            env = dataclasses.replace(env, cancel=True)
        window = c.p.windows.get(name)
        if window is None:
            c.err("E0202", f"unknown window '{name}'", span, subject=name, hint=did_you_mean(name, c.p.windows))
        else:
            if len(names) > len(window.params):
                c.err("E0302", f"window '{name}' has {len(window.params)} parameter(s); {len(names)} names given",
                      span, notes=[Note("declared here", window.span)])
            for (bound, _), param in zip(names, window.params):
                env = env.bind(bound, c.resolve_type(param.type))
    if power.requires is not None:
        c.expect(power.requires, BOOL, env, "the condition of requires")
    c.block(power.body, env)


# ---------------------------------------------------------------- rules and precedence

def rule_targets(c: Checker, rule: ast.RuleDecl) -> set[tuple[str, str]]:
    """The (polarity, subject) pairs a rule speaks about: ("permit", "bâtir"), ("value", "score")…"""
    return {(h.kind, h.pattern.name) for h in rule.heads}


def _ancestors(c: Checker, action: str) -> list[str]:
    chain, seen = [], set()
    while action in c.p.actions and action not in seen:
        seen.add(action)
        chain.append(action)
        parent = c.p.actions[action].parent
        action = parent[0] if parent else ""
    return chain


def _related(c: Checker, a: str, b: str) -> bool:
    return a in _ancestors(c, b) or b in _ancestors(c, a)


def _rule(c: Checker, rule: ast.RuleDecl) -> None:
    this = KindT(c.p.cards[rule.card].kind) if rule.card and rule.card in c.p.cards else None
    for head in rule.heads:
        env = Env({}, this=this)
        pat = head.pattern
        if head.kind in ("permit", "forbid"):
            decl = c.p.actions.get(pat.name)
            if decl is None:
                hint = "value and adjust rules name quantities; permit and forbid name actions" \
                    if pat.name in c.p.quantities else did_you_mean(pat.name, c.p.actions)
                c.err("E0202", f"unknown action '{pat.name}'", pat.span, hint=hint, subject=pat.name)
                continue
        else:
            decl = c.p.quantities.get(pat.name)
            if decl is None:
                hint = "permit and forbid name actions; value and adjust name quantities" \
                    if pat.name in c.p.actions else did_you_mean(pat.name, c.p.quantities)
                c.err("E0202", f"unknown quantity '{pat.name}'", pat.span, hint=hint, subject=pat.name)
                continue
        if len(pat.binders) != len(decl.params):
            names = ", ".join(p.name for p in decl.params)
            c.err("E0302", f"'{pat.name}' has {len(decl.params)} parameter(s), the pattern binds {len(pat.binders)}",
                  pat.span, hint=f"{pat.name}({names})")
        for (bound, _), param in zip(pat.binders, decl.params):
            env = env.bind(bound, c.resolve_type(param.type))
        if head.expr is not None:
            want: Ty = c.resolve_type(decl.type)
            if head.kind == "adjust" and want is not ERROR and want != INT:
                c.err("E0301", f"only Int quantities can be adjusted; '{pat.name}' is {want}", head.span,
                      hint="use a `value` rule")
            c.expect(head.expr, want, env, f"the value of {pat.name}")
        if head.when is not None:
            c.expect(head.when, BOOL, env, "the condition")
    for name, span in rule.overrides:
        other = c.rule_ref(name, span)
        if other is not None:
            _check_can_disagree(c, rule, other, span)
    for name, span in rule.decisions:
        c.decision_ref(name, span)


def _check_can_disagree(c: Checker, winner: ast.RuleDecl, loser: ast.RuleDecl, span) -> None:
    pairs = {"permit": "forbid", "forbid": "permit", "value": "value"}
    for kind, subject in rule_targets(c, winner):
        for other_kind, other_subject in rule_targets(c, loser):
            if pairs.get(kind) == other_kind and (subject == other_subject or _related(c, subject, other_subject)):
                return
    c.r.warning("W0702", f"'{winner.name}' and '{loser.name}' never disagree, so the precedence has no effect", span,
                notes=[Note(f"'{loser.name}' is declared here", loser.span)],
                hint="a permission overrides a prohibition of the same action (or a refinement of it); "
                     "a value overrides another value of the same quantity")


def _power_ref(c: Checker, subject: ast.Subject) -> ast.PowerDecl | None:
    card = c.p.cards.get(subject.card)
    if card is None:
        c.err("E0203", f"unknown card \"{subject.card}\"", subject.span,
              hint=card_hint(c.p, subject.card, c.p.cards))
        return None
    for power in card.powers:
        if power.name == subject.name:
            return power
    c.err("E0202", f"\"{card.name}\" has no power '{subject.name}'", subject.span,
          hint=did_you_mean(subject.name, [x.name for x in card.powers]) or
          f"its powers: {', '.join(x.name for x in card.powers) or 'none'}")
    return None


def _precedence(c: Checker, prec: ast.PrecedenceDecl) -> None:
    if prec.decision is not None:
        c.decision_ref(*prec.decision)
    w, l = prec.winner, prec.loser
    if (w.card is None) != (l.card is None):
        c.err("E0205", f"a precedence orders two rules or two powers; '{w}' and '{l}' are one of each", prec.span)
        return
    if w.card is not None:
        first, second = _power_ref(c, w), _power_ref(c, l)
        if first is not None and second is not None:
            windows = {x.window[0] if x.window else None for x in (first, second)}
            if len(windows) != 1 or None in windows:
                c.r.warning("W0702", f"{w} and {l} never react to the same window, so their order does not matter",
                            prec.span, hint="an order between powers matters for powers with the same `when` window")
        return
    winner = c.rule_ref(w.name, w.span)
    loser = c.rule_ref(l.name, l.span)
    if winner is not None and loser is not None:
        _check_can_disagree(c, winner, loser, prec.span)


def _precedence_cycles(c: Checker) -> None:
    """`a over b` (or `a overrides b`) and, through any chain, `b over a`: no order is left."""
    edges: dict[str, list[tuple[str, object]]] = {}
    for rule in c.p.rules.values():
        for name, span in rule.overrides:
            edges.setdefault(rule.name, []).append((name, span))
    for prec in c.p.precedences:
        edges.setdefault(str(prec.winner), []).append((str(prec.loser), prec.span))
    state: dict[str, int] = {}       # 1: on the current path, 2: done
    path: list[str] = []
    reported: set[frozenset] = set()

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for target, span in edges.get(node, ()):
            if state.get(target) == 1:
                cycle = path[path.index(target):] + [target]
                key = frozenset(cycle)
                if key not in reported:
                    reported.add(key)
                    notes = [Note(f"'{a}' over '{b}' is declared here", where)
                             for a, b in zip(cycle, cycle[1:])
                             for t, where in edges[a] if t == b]
                    c.err("E0303", f"precedence cycle: {' over '.join(cycle)}", span, notes=notes[:-1],
                          hint="each pair of rules may be ordered one way only; remove one of these")
            elif target not in state:
                visit(target)
        path.pop()
        state[node] = 2

    for node in list(edges):
        if node not in state:
            visit(node)


# ---------------------------------------------------------------- configurations

def _configuration(c: Checker, config: ast.ConfigDecl) -> None:
    env = Env({}, config_only=True)
    for name, span in config.decisions:
        c.decision_ref(name, span)
    _no_repeated_fields(c, config.fields)
    for f in config.fields:
        if f.name == "players":
            for v in f.values:
                c.expect(v, Coll(INT, True) if isinstance(v, ast.Binary) else INT, env, "a player count")
        else:
            c.err("E0206", f"unknown configuration field '{f.name}'", f.span, hint="fields: players")
    for inc in config.includes:
        if inc.kind not in c.p.kinds:
            c.err("E0202", f"unknown kind of card '{inc.kind}'", inc.span, subject=inc.kind, hint=did_you_mean(inc.kind, c.p.kinds))
            continue
        for name, span in inc.names:
            _card_of_kind(c, name, span, inc.kind)
        if inc.when is not None:
            c.expect(inc.when, BOOL, env, "the condition of include")
    for rep in config.replaces:
        old = c.p.cards.get(rep.old[0])
        if old is None:
            c.err("E0203", f"unknown card \"{rep.old[0]}\"", rep.old[1], subject=rep.old[0],
                  hint=card_hint(c.p, rep.old[0], c.p.cards))
        for name, span in rep.new:
            if old is not None:
                _card_of_kind(c, name, span, old.kind)
        if rep.when is not None:
            c.expect(rep.when, BOOL, env, "the condition of replace")


def _card_of_kind(c: Checker, name: str, span, kind: str) -> None:
    card = c.p.cards.get(name)
    if card is None:
        c.err("E0203", f"unknown card \"{name}\"", span, subject=name,
              hint=card_hint(c.p, name, [x.name for x in c.p.cards_of(kind)]))
    elif card.kind != kind:
        c.err("E0205", f"\"{name}\" is a {card.kind}, not a {kind}", span)
