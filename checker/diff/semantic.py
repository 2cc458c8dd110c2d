"""semantic: where two rule sets behave differently, searched with Z3 over the states both can be in.

- **legality** — the same action, with the same arguments, in the same state, is legal on one side
  and illegal on the other.  Each distinct cause (the set of prohibitions that forbid it on the side
  where it is illegal) is one difference, up to ``pair.causes`` (3) per action and direction;
- **value** — a quantity (a cost, a score, an income, a building permit…) has different values, or is
  defined on one side only (two `value` rules apply with no precedence);
- **order** — two powers that both react to a window take effect in opposite orders, and a state
  exists where both react and one writes what the other reads.

Every difference comes with a minimal witness (:meth:`checker.diff.pair.Pair.minimise`), written as a
state file for each side (and a move file for a legality difference) that the interpreter loads and
judges again (``confirmed``).
"""

from __future__ import annotations

import dataclasses
import itertools

import z3

from checker.front import ast
from checker.front.effects import Effects
from checker.diff.pair import Pair, Side
from checker.runtime.state import SpecRuntimeError
from checker.solver.encode import AND, NONE, NOT, OR, Encoder, Unsupported, is_const
from checker.solver.statefile import StateFileError, _Values, load_move, load_state
from checker.solver.witness import witness_files
from checker.front.types import Coll

__all__ = ["Difference", "legality", "values", "reaction_order"]


@dataclasses.dataclass
class Difference:
    """One way the two rule sets differ."""

    kind: str                   # legality | value | order | effect | power | card | configuration | constraint
    #                             | game | table | declaration | rule | precedence | decision | undecided
    subject: str                # what differs: an action, a quantity, "procedure choix_à_trois", "card X"…
    message: str
    behavioural: bool = True    # False: a change that changes no game (proven, or documentation only)
    details: list[str] = dataclasses.field(default_factory=list)
    excerpt: list[str] = dataclasses.field(default_factory=list)     # the two declarations' sources, as a diff
    situation: list[str] = dataclasses.field(default_factory=list)   # the witness, in the spec's terms
    witness: dict | None = None      # {"a": state file, "b": state file}
    move: dict | None = None         # {"a": move file, "b": move file}
    call: str | None = None          # the quantity call to evaluate on the witness (`rulebook eval`)
    sides: dict = dataclasses.field(default_factory=dict)   # what each side says: {"a": …, "b": …}
    rules: list[str] = dataclasses.field(default_factory=list)     # the rules (or powers) it comes from
    confirmed: bool | None = None    # does the interpreter, loading the witness on each side, agree?
    players: int | None = None
    unknown: str = ""
    files: list[str] = dataclasses.field(default_factory=list)

    def as_json(self) -> dict:
        out = {"kind": self.kind, "subject": self.subject, "message": self.message,
               "behavioural": self.behavioural, "details": self.details, "sides": self.sides,
               "rules": self.rules}
        for name in ("excerpt", "situation", "files"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        for name in ("witness", "move", "call", "confirmed", "players"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.unknown:
            out["unknown"] = self.unknown
        return out


def _true(model, term) -> bool:
    if is_const(term):
        return bool(term)
    return z3.is_true(model.eval(term, model_completion=True))


def _number(model, term):
    if is_const(term):
        return term
    v = model.eval(term, model_completion=True)
    if z3.is_true(v) or z3.is_false(v):
        return z3.is_true(v)
    return v.as_long()


def _differ(x, y):
    """``x != y`` for two encoded scalars (folded when both are constants)."""
    if is_const(x) and is_const(y):
        return x != y
    if isinstance(x, bool) and not is_const(y):
        x = z3.BoolVal(x)
    if isinstance(y, bool) and not is_const(x):
        y = z3.BoolVal(y)
    return x != y


def _undecided(subject: str, reason: str, what: str) -> Difference:
    return Difference("undecided", subject, f"Z3 could not decide whether {what} differs: {reason}",
                      unknown=reason)


# ---------------------------------------------------------------- legality

def legality(pair: Pair, action: str) -> list[Difference]:
    """Every distinct reason why ``action`` is legal on one side and illegal on the other."""
    enc_a, enc_b = pair.encoders()
    try:
        args, domain = pair.a.search.action_args(enc_a, action)
        legal_a, parts_a, _ = enc_a.legality(action, args)
        legal_b, parts_b, _ = enc_b.legality(action, args)
    except Unsupported as exc:
        return [_undecided(action, exc.message, f"the legality of {action}")]
    out = []
    excluded = []
    found = {"a": 0, "b": 0}
    for _ in range(2 * pair.causes):
        status, model, reason = pair.solve(enc_a, enc_b, *domain, _differ(legal_a, legal_b), *excluded)
        if status == "unsat":
            break
        if status == "unknown":
            out.append(_undecided(action, reason, f"the legality of {action}"))
            break
        legal_side = "a" if _true(model, legal_a) else "b"
        illegal_parts = parts_b if legal_side == "a" else parts_a
        blocking = [(r, applies) for r, _h, applies, lifted, _ in illegal_parts
                    if _true(model, applies) and not _true(model, lifted)]
        excluded.append(NOT(AND(*(applies for _, applies in blocking))))      # the next cause is another one
        out.append(_legality_difference(pair, action, args, enc_a, enc_b, model, legal_side, parts_a, parts_b,
                                        blocking))
        found[legal_side] += 1
        if found[legal_side] >= pair.causes:     # enough of this direction: look for the other one only
            excluded.append(NOT(legal_a) if legal_side == "a" else NOT(legal_b))
    return out


def _legality_difference(pair: Pair, action, args, enc_a, enc_b, model, legal_side, parts_a, parts_b,
                         blocking) -> Difference:
    illegal_side = "b" if legal_side == "a" else "a"
    upper = {"a": "A", "b": "B"}
    diff = Difference("legality", action, "")
    diff.sides = {"legal": legal_side, "illegal": illegal_side}
    states = _witness(pair, enc_a, enc_b, model, action, args)
    diff.witness = {"a": states["a"][0], "b": states["b"][0]}
    diff.move = {"a": states["a"][1], "b": states["b"][1]}
    diff.situation = states["a"][2]
    diff.players = witness_players(states)
    shown = ", ".join(str(x) for x in diff.move["a"]["args"])
    diff.message = (f"{action}({shown}) is legal in {upper[legal_side]} and illegal in {upper[illegal_side]} "
                    f"({diff.players} players)")
    parts = {"a": parts_a, "b": parts_b}
    encs = {"a": enc_a, "b": enc_b}
    sides = {"a": pair.a, "b": pair.b}
    other = legal_side
    diff.sides["move"] = f"{action}({shown})"
    diff.sides["why"] = why = []
    for rule, _applies in blocking:
        diff.rules.append(rule.name)
        diff.details.append(f"{upper[illegal_side]}: forbidden by {rule.name} ({rule.span})")
        entry = {"rule": rule.name, "at": str(rule.span), "lifters": [], "reads": []}
        theirs = next((x for x in parts[other] if x[0].name == rule.name), None)
        if rule.name not in sides[other].program.rules:
            entry["there"] = "absent"
            diff.details.append(f"{upper[other]}: has no rule {rule.name}")
        elif theirs is None:
            entry["there"] = "not-about"
            diff.details.append(f"{upper[other]}: {rule.name} is not about {action}")
        elif _true(model, theirs[2]):
            entry["there"], entry["lifters"] = "lifted", [r.name for r, a in theirs[4] if _true(model, a)]
            diff.rules += [x for x in entry["lifters"] if x not in diff.rules]
            diff.details.append(f"{upper[other]}: {rule.name} applies but is lifted by {', '.join(entry['lifters'])}")
        else:
            entry["there"] = "not-applying"
            entry["reads"] = _reads(pair, rule.name, theirs[1], encs, model, args)
            diff.details.append(f"{upper[other]}: {rule.name} does not apply here")
            diff.details += [f"   {text} = {va} in A, {vb} in B" for text, va, vb in entry["reads"]]
        why.append(entry)
    if not blocking:
        diff.details.append(f"{upper[illegal_side]}: illegal (no single rule: see `rulebook legal`)")
    diff.confirmed = _confirm_legality(pair, diff, action)
    return diff


def _reads(pair: Pair, name: str, head_other, encs, model, args) -> list[tuple[str, str, str]]:
    """The quantity calls a rule's condition makes, where their values differ between the sides:
    (the call as written, its value in A, in B)."""
    rules = {"a": pair.a.program.rules.get(name), "b": pair.b.program.rules.get(name)}
    heads = {}
    for s in ("a", "b"):
        rule = rules[s]
        if rule is None:
            return []
        head = next((h for h in rule.heads if h.when is not None and h.pattern.name == head_other.pattern.name), None)
        if head is None:
            return []
        heads[s] = head
    calls = {s: [n for n in _calls(heads[s].when)] for s in ("a", "b")}
    if len(calls["a"]) != len(calls["b"]):
        return []
    out = []
    for ca, cb in zip(calls["a"], calls["b"]):
        try:
            va = encs["a"].expr(ca, encs["a"].rule_env(rules["a"], heads["a"], args[:len(heads["a"].pattern.binders)]))
            vb = encs["b"].expr(cb, encs["b"].rule_env(rules["b"], heads["b"], args[:len(heads["b"].pattern.binders)]))
        except Unsupported:
            continue
        if isinstance(va, list) or isinstance(vb, list):
            continue
        xa, xb = _number(model, va), _number(model, vb)
        if xa != xb:
            out.append((_source_text(pair.a.result, ca.span) or ca.func, _show(xa), _show(xb)))
    return out


def _calls(expr) -> list:
    out, stack = [], [expr]
    while stack:
        n = stack.pop(0)
        if isinstance(n, tuple):
            stack[:0] = list(n)
            continue
        if not dataclasses.is_dataclass(n):
            continue
        if isinstance(n, ast.Call):
            out.append(n)
            continue
        stack[:0] = [getattr(n, f.name) for f in dataclasses.fields(n) if f.name != "span"]
    return out


def _show(value) -> str:
    if value is True:
        return "oui"
    if value is False:
        return "non"
    if value == NONE:
        return "aucun"
    return str(value)


def _source_text(result, span) -> str | None:
    line = result.sources.line(span.file, span.line)
    if line is None or span.end_line != span.line:
        return None
    return line[span.column - 1:span.end_column - 1]


def _confirm_legality(pair: Pair, diff: Difference, action: str) -> bool | None:
    """Load each side's witness into a fresh interpreter: is the move legal on the side Z3 says, only?"""
    got = {}
    for tag, side in (("a", pair.a), ("b", pair.b)):
        engine = _judge(side)
        try:
            loaded = load_state(engine, diff.witness[tag], side.scopes)
            (_kind, name, values), _ = load_move(loaded, diff.move[tag])
        except (StateFileError, ValueError, KeyError):
            return None
        try:
            got[tag] = engine.legal(name, values)[0]
        except SpecRuntimeError:
            return None
    return got[diff.sides["legal"]] and not got[diff.sides["illegal"]]


def _judge(side: Side):
    from checker.runtime.engine import Engine
    if side.judge is None:
        side.judge = Engine(side.typed)
        side.judge.recording = False
    return side.judge


# ---------------------------------------------------------------- values

def values(pair: Pair, quantity: str) -> list[Difference]:
    """A state and arguments where ``quantity`` has different values (or is defined on one side only)."""
    enc_a, enc_b = pair.encoders()
    decl = pair.a.program.quantities[quantity]
    ty = enc_a.resolve(decl.type)
    if isinstance(ty, Coll):
        return [_undecided(quantity, "a collection-valued quantity is not compared", quantity)]
    try:
        args, domain = [], []
        for prm in decl.params:
            v, d = pair.a.search.symbolic(enc_a, f"{quantity}.{prm.name}", enc_a.resolve(prm.type))
            args.append(v)
            domain.append(d)
        args = tuple(args)
        va, vb = enc_a.quantity(quantity, args), enc_b.quantity(quantity, args)
        undefined_a, undefined_b = _undefined(enc_a, quantity, args), _undefined(enc_b, quantity, args)
    except Unsupported as exc:
        return [_undecided(quantity, exc.message, f"the value of {quantity}")]
    differs = OR(_differ(undefined_a, undefined_b), AND(NOT(undefined_a), NOT(undefined_b), _differ(va, vb)))
    status, model, reason = pair.solve(enc_a, enc_b, *domain, differs)
    if status == "unsat":
        return []
    if status == "unknown":
        return [_undecided(quantity, reason, f"the value of {quantity}")]
    states = _witness(pair, enc_a, enc_b, model, None, ())
    vals = _Values(pair.a.engine)
    shown_args = [vals.write(enc_a.to_runtime(_number(model, a), enc_a.resolve(p.type)), enc_a.resolve(p.type))
                  for a, p in zip(args, decl.params)]
    call = f"{quantity}({', '.join(_literal(x) for x in shown_args)})"
    result = {}
    for tag, v, undefined in (("a", va, undefined_a), ("b", vb, undefined_b)):
        result[tag] = "undefined" if _true(model, undefined) else _typed(enc_a, _number(model, v), ty, vals)
    diff = Difference("value", quantity, "", call=call)
    diff.witness = {"a": states["a"][0], "b": states["b"][0]}
    diff.situation = states["a"][2]
    diff.players = witness_players(states)
    diff.sides = {"a": result["a"], "b": result["b"], "args": shown_args}
    diff.message = f"{call} is {result['a']} in A and {result['b']} in B ({diff.players} players)"
    for tag, enc, side in (("a", enc_a, pair.a), ("b", enc_b, pair.b)):
        applied = _applied(enc, quantity, args, model)
        diff.rules += [r for r, _ in applied if r not in diff.rules]
        default = side.program.quantities[quantity].default
        text = _source_text(side.result, default.span)
        diff.sides[f"{tag}_parts"] = {"default": text, "rules": [[r, what] for r, what in applied]}
        parts = [f"its default{f' ({text})' if text else ''}"] + [f"{r} {what}" for r, what in applied]
        diff.details.append(f"{tag.upper()}: {', '.join(parts)}")
    diff.confirmed = _confirm_value(pair, diff, quantity, args, model, enc_a)
    return [diff]


def _literal(value) -> str:
    if isinstance(value, str) and not value.startswith("Joueur "):
        return f'"{value}"'
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _typed(enc: Encoder, raw, ty, vals: _Values) -> str:
    value = enc.to_runtime(raw, ty)
    written = vals.write(value, ty)
    if written is None:
        return "aucun"
    if isinstance(written, bool):
        return "oui" if written else "non"
    return str(written)


def _undefined(enc: Encoder, quantity: str, args: tuple):
    """Two `value` rules that apply together with no order between them: the quantity has no value."""
    heads = [(r, h) for r, h in enc.heads.get(quantity, []) if h.kind == "value"]
    out = []
    for (r1, h1), (r2, h2) in itertools.combinations(heads, 2):
        if (r1.name, r2.name) in enc.defeats or (r2.name, r1.name) in enc.defeats:
            continue
        out.append(AND(enc.applies(r1, h1, args), enc.applies(r2, h2, args)))
    return OR(*out)


def _applied(enc: Encoder, quantity: str, args: tuple, model) -> list[tuple[str, str]]:
    """The value and adjust rules of a quantity that apply in the model, with what they give."""
    out = []
    for rule, head in enc.heads.get(quantity, []):
        if head.kind not in ("value", "adjust"):
            continue
        try:
            if not _true(model, enc.applies(rule, head, args)):
                continue
            amount = _number(model, enc.expr(head.expr, enc.rule_env(rule, head, args)))
        except Unsupported:
            continue
        out.append((rule.name, f"{'=' if head.kind == 'value' else '+'} {_show(amount)}"))
    return out


def _confirm_value(pair: Pair, diff: Difference, quantity: str, args, model, enc_a) -> bool | None:
    """Load each side's witness into a fresh interpreter and compute the quantity there: do they differ?"""
    got = {}
    decl = pair.a.program.quantities[quantity]
    for tag, side in (("a", pair.a), ("b", pair.b)):
        engine = _judge(side)
        try:
            loaded = load_state(engine, diff.witness[tag], side.scopes)
        except (StateFileError, ValueError, KeyError):
            return None
        problems: list = []
        values = tuple(loaded.values.read(v, enc_a.resolve(p.type), "args", problems)
                       for v, p in zip(diff.sides["args"], decl.params))
        if problems:
            return None
        try:
            engine.invalidate()
            got[tag] = ("value", engine.quantity(quantity, values))
        except SpecRuntimeError as exc:
            got[tag] = ("error", str(exc))
    return got["a"] != got["b"]


# ---------------------------------------------------------------- reactions

def reaction_order(pair: Pair) -> list[Difference]:
    """Pairs of powers that react to the same window in opposite orders on the two sides."""
    out = []
    ea, eb = pair.a.engine, pair.b.engine
    for window in sorted(set(ea.window_powers) & set(eb.window_powers)):
        order = {}
        for tag, side in (("a", pair.a), ("b", pair.b)):
            E = side.engine
            present = {E.def_names[d] for d in set(E.defs)}
            order[tag] = [(side.base(E.def_names[pw.card]), pw.name, pw) for pw in E.window_powers[window]
                          if E.def_names[pw.card] in present]
        keys_b = [(c, n) for c, n, _ in order["b"]]
        for (i, x), (j, y) in itertools.combinations(enumerate(order["a"]), 2):
            kx, ky = x[:2], y[:2]
            if kx not in keys_b or ky not in keys_b or keys_b.index(kx) < keys_b.index(ky) or kx[0] == ky[0]:
                continue
            out += _order_difference(pair, window, x, y, order["b"][keys_b.index(kx)], order["b"][keys_b.index(ky)])
    return out


def _order_difference(pair: Pair, window: str, xa, ya, xb, yb) -> list[Difference]:
    name_x, name_y = f'"{xa[0]}".{xa[1]}', f'"{ya[0]}".{ya[1]}'
    subject = f"{window}: {name_x} / {name_y}"
    touched = set()
    for side, x, y in ((pair.a, xa, ya), (pair.b, xb, yb)):
        effects = Effects(side.program)
        touched |= effects.interfere(_power_decl(side, x[2]), _power_decl(side, y[2]))
    if not touched:
        return [Difference("order", subject, f"{name_x} and {name_y} react to {window} in opposite orders, but "
                                             f"neither touches what the other reads or writes", behavioural=False)]
    enc_a, enc_b = pair.encoders()
    params = pair.a.program.windows[window].params
    wargs = [pair.a.search.symbolic(enc_a, f"{window}.{p.name}", enc_a.resolve(p.type)) for p in params]
    both = []
    try:
        for side, enc, powers in ((pair.a, enc_a, (xa, ya)), (pair.b, enc_b, (xb, yb))):
            for _c, _n, power in powers:
                E = side.engine
                inst = E.instances[power.card][0]
                controller = E.controllers.get(E.def_kind[power.card])
                holder = enc.quantity(controller, (inst,)) if controller else NONE
                both.append(holder != NONE if not is_const(holder) else holder != NONE)
                decl = _power_decl(side, power)
                if decl.requires is not None:
                    env = {"me": holder, "this": inst, **{n: v for (n, _), (v, _) in zip(decl.window[1], wargs)}}
                    both.append(enc.expr(decl.requires, env))
    except Unsupported as exc:
        return [_undecided(subject, exc.message, f"the order of {name_x} and {name_y}")]
    status, model, reason = pair.solve(enc_a, enc_b, *[d for _, d in wargs], *both)
    if status == "unsat":
        return [Difference("order", subject, f"{name_x} and {name_y} react to {window} in opposite orders, but "
                                             f"no state has both react", behavioural=False)]
    if status == "unknown":
        return [_undecided(subject, reason, f"the order of {name_x} and {name_y}")]
    diff = Difference("order", subject, f"{name_x} takes effect before {name_y} in A, after it in B, when both "
                                        f"react to {window}; both touch {', '.join(sorted(touched))}")
    states = _witness(pair, enc_a, enc_b, model, None, ())
    diff.witness = {"a": states["a"][0], "b": states["b"][0]}
    diff.situation = states["a"][2]
    diff.players = witness_players(states)
    diff.rules = [name_x, name_y]
    return [diff]


def _power_decl(side: Side, power) -> ast.PowerDecl:
    card = side.program.cards[side.engine.def_names[power.card]]
    return next(x for x in card.powers if x.name == power.name)


# ---------------------------------------------------------------- witnesses

def _witness(pair: Pair, enc_a: Encoder, enc_b: Encoder, model, action: str | None, args: tuple) -> dict:
    """Each side's (state file, move file, situation) for a model; both files say every cell either side
    read, so the two states are the same state."""
    _share_cells(pair, enc_a, enc_b)
    out = {}
    for tag, side, enc in (("a", pair.a, enc_a), ("b", pair.b, enc_b)):
        state, move, situation = witness_files(side.search, enc, model, action, args)
        if state is not None:   # None: the spec has no decision point to put it at (the situation says it)
            state = {**state, "spec": [str(p) for p in side.paths]}
        out[tag] = (state, move, situation)
    return out


def witness_players(states: dict) -> int:
    """The witness's player count: its state file's, or the situation's first line where there is no file."""
    state = states["a"][0]
    if state is not None:
        return state["players"]
    return int(states["a"][2][0].rpartition("=")[2])


def _share_cells(pair: Pair, enc_a: Encoder, enc_b: Encoder) -> None:
    """Give each encoder the cells the other made that it can express (the same constant, its own key)."""
    for src, dst, dst_side in ((enc_a, enc_b, pair.b), (enc_b, enc_a, pair.a)):
        p = dst_side.program
        for key, cell in list(src.cells.made.items()):
            if key in dst.cells.made:
                continue
            if key[0] == "var" and key[1] in p.vars and not pair.own_types.get(key[1], True):
                index = key[2]
                if isinstance(index, int) and index < 0:
                    continue        # a card outside the game, named by its definition
                dst.cells.made[key] = cell
            elif key[0] == "in" and key[1] in p.zones and not pair.own_zones.get(key[1], True):
                dst.cells.made[key] = cell

