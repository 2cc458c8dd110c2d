"""changes: the declarations two rule sets have differently, table by table.

Each change is a :class:`~checker.diff.semantic.Difference`.  Some are behavioural by nature (a card
added, a procedure's statements changed, a configuration that selects other cards); the changes to
rules and precedences are judged by the semantic search instead (:mod:`checker.diff.run` marks them
behavioural only when a legality or value difference comes from them); the rest (decisions,
sources, declarations nothing reachable uses, a var's lifetime alone: where it ends is statements in the
procedures, actions and powers, compared there) change no game.
"""

from __future__ import annotations

import dataclasses

from checker.front import ast
from checker.front.configurations import ConfigEvalError, select
from checker.diff.compare import Shaper, source_excerpt
from checker.diff.pair import Pair
from checker.diff.semantic import Difference

__all__ = ["declaration_changes"]

_NOUN = {"enums": "enum", "kinds": "kind", "vars": "var", "zones": "zone", "windows": "window", "actions": "action",
         "quantities": "quantity", "tables": "table", "rules": "rule", "constraints": "constraint",
         "decisions": "decision", "procedures": "procedure", "sources": "source"}


def declaration_changes(pair: Pair) -> list[Difference]:
    a, b = pair.a, pair.b
    sa, sb = Shaper(a.program), Shaper(b.program)
    out: list[Difference] = []
    out += _game(pair, sa, sb)
    for table in ("enums", "kinds", "vars", "zones", "windows", "actions", "quantities", "tables", "rules",
                  "constraints", "decisions", "procedures", "sources"):
        out += _table(pair, sa, sb, table)
    out += _precedences(pair, sa, sb)
    out += _cards(pair, sa, sb)
    out += _configurations(pair, sa, sb)
    return out


def _excerpt(pair: Pair, decl_a, decl_b) -> list[str]:
    return source_excerpt(pair.a.result.sources, decl_a, pair.b.result.sources, decl_b)


def _kind_of_change(table: str, name: str, pair: Pair, side: str | None) -> tuple[str, bool]:
    """(kind, behavioural) of a change in ``table``; ``side`` is the only side that has it, if any."""
    if table in ("rules",):
        return "rule", True          # judged by the semantic search
    if table in ("decisions", "sources"):
        return "decision" if table == "decisions" else "declaration", False
    if table in ("procedures", "actions"):
        if side is None:
            return "effect", True
        live = (pair.a if side == "a" else pair.b).live
        used = name in (live.procedures if table == "procedures" else live.actions)
        return "effect", used
    if table in ("constraints", "tables", "enums", "kinds"):
        return {"constraints": "constraint", "tables": "table"}.get(table, "declaration"), True
    if table == "quantities":
        return "declaration", False   # their values are compared where both sides have them
    return "declaration", side is None   # vars, zones, windows: a changed declaration; one side only: unused alone


def _table(pair: Pair, sa: Shaper, sb: Shaper, table: str) -> list[Difference]:
    ea, eb = sa.entries(table), sb.entries(table)
    out = []
    noun = _NOUN[table]
    for name in sorted(set(ea) | set(eb)):
        da, db = ea.get(name), eb.get(name)
        if da is not None and db is not None:
            if sa.shape(da) == sb.shape(db):
                if table == "decisions" and da.text != db.text:
                    out.append(Difference("decision", f"{noun} {name}", f"decision {name} is worded differently",
                                          behavioural=False))
                continue
            if table == "vars" and sa.shape(dataclasses.replace(da, until=None)) == \
                    sb.shape(dataclasses.replace(db, until=None)):
                # a lifetime is statements before the signals of its window: compared there, as effects
                out.append(Difference("declaration", f"{noun} {name}", f"var {name} lasts otherwise (where it ends "
                                      "is compared in the procedures, actions and powers that open the windows)",
                                      behavioural=False, excerpt=_excerpt(pair, da, db)))
                continue
            kind, behavioural = _kind_of_change(table, name, pair, None)
            message = f"{noun} {name} differs"
            if table == "quantities":
                message += " (its values are compared below)"
            out.append(Difference(kind, f"{noun} {name}", message, behavioural, excerpt=_excerpt(pair, da, db)))
        else:
            side = "a" if da is not None else "b"
            kind, behavioural = _kind_of_change(table, name, pair, side)
            where = "A" if side == "a" else "B"
            note = "" if behavioural or kind in ("rule", "decision") else " (nothing the game runs uses it alone)"
            out.append(Difference(kind, f"{noun} {name}", f"{noun} {name} is only in {where}{note}", behavioural,
                                  excerpt=_excerpt(pair, da, db), sides={"only": side}))
    return out


def _precedences(pair: Pair, sa: Shaper, sb: Shaper) -> list[Difference]:
    ea, eb = sa.precedences(), sb.precedences()
    out = []
    for key in sorted(set(ea) ^ set(eb)):
        side = "a" if key in ea else "b"
        decl = ea.get(key) or eb.get(key)
        between_powers = decl.winner.card is not None
        out.append(Difference("precedence", f"precedence {key}",
                              f"precedence {key} is only in {side.upper()}"
                              + (" (the reactions' order is compared below)" if between_powers else ""),
                              behavioural=not between_powers,
                              excerpt=_excerpt(pair, ea.get(key), eb.get(key)), sides={"only": side}))
    return out


def _game(pair: Pair, sa: Shaper, sb: Shaper) -> list[Difference]:
    ga, gb = pair.a.program.game, pair.b.program.game
    fa = {f.name: f for f in ga.fields} if ga else {}
    fb = {f.name: f for f in gb.fields} if gb else {}
    out = []
    if ga and gb and ga.name != gb.name:
        out.append(Difference("game", "game name", f"the game is \"{ga.name}\" in A and \"{gb.name}\" in B",
                              behavioural=False, sides={"a": ga.name, "b": gb.name}))
    for name in sorted(set(fa) | set(fb)):
        x, y = fa.get(name), fb.get(name)
        if x is not None and y is not None and sa.shape(x) == sb.shape(y):
            continue
        shown = {tag: _field_text(pair, tag, f) for tag, f in (("a", x), ("b", y))}
        out.append(Difference("game", f"game {name}", f"the game's {name} is {shown['a']} in A and {shown['b']} in B",
                              behavioural=name != "edition", sides=shown))
    return out


def _field_text(pair: Pair, tag: str, field) -> str:
    if field is None:
        return "(none)"
    result = (pair.a if tag == "a" else pair.b).result
    span = field.values[0].span
    line = result.sources.line(span.file, span.line)
    last = field.values[-1].span
    if line is None or last.line != span.line:
        return "(see the spec)"
    return line[span.column - 1:last.end_column - 1]


def _cards(pair: Pair, sa: Shaper, sb: Shaper) -> list[Difference]:
    ca, cb = sa.entries("cards"), sb.entries("cards")
    # an attribute no expression of either side reads (where a card comes from, say) changes no game
    read = {n.name for side in (pair.a, pair.b) for f in side.result.files for n in ast.walk(tuple(f.decls))
            if isinstance(n, ast.Attr)}
    out = []
    for base in sorted(set(ca) | set(cb), key=lambda n: ((ca.get(n) or cb.get(n)).kind, n)):
        x, y = ca.get(base), cb.get(base)
        if x is None or y is None:
            side = "a" if y is None else "b"
            card = x or y
            out.append(Difference("card", f"card {card.name}", f"{card.kind} \"{card.name}\" is only in {side.upper()}",
                                  sides={"only": side, "kind": card.kind}))
            continue
        if x.name != y.name:
            out.append(Difference("card", f"card {base}", f"{x.kind} \"{x.name}\" in A is \"{y.name}\" in B",
                                  behavioural=False, sides={"a": x.name, "b": y.name}))
        if x.kind != y.kind:
            out.append(Difference("card", f"card {base}", f"\"{base}\" is a {x.kind} in A and a {y.kind} in B"))
            continue
        attrs_a = pair.a.engine.card_attrs.get(pair.a.engine.def_ids[x.name], {})
        attrs_b = pair.b.engine.card_attrs.get(pair.b.engine.def_ids[y.name], {})
        for attr in sorted((set(attrs_a) | set(attrs_b)) - {"name"}):
            if attrs_a.get(attr) != attrs_b.get(attr):
                out.append(Difference("card", f"card {base}", f"\"{base}\": {attr} is {attrs_a.get(attr)} in A and "
                                                              f"{attrs_b.get(attr)} in B",
                                      behavioural=attr in read,
                                      sides={"attribute": attr, "a": attrs_a.get(attr), "b": attrs_b.get(attr)}))
        powers_a = {pw.name: pw for pw in x.powers}
        powers_b = {pw.name: pw for pw in y.powers}
        for name in sorted(set(powers_a) | set(powers_b)):
            pa_, pb_ = powers_a.get(name), powers_b.get(name)
            if pa_ is not None and pb_ is not None and sa.shape(pa_) == sb.shape(pb_):
                continue
            if pa_ is None or pb_ is None:
                message = f"power \"{base}\".{name} is only in {'A' if pb_ is None else 'B'}"
            else:
                message = f"power \"{base}\".{name} differs"
            out.append(Difference("power", f"power \"{base}\".{name}", message, excerpt=_excerpt(pair, pa_, pb_)))
    return out


def _configurations(pair: Pair, sa: Shaper, sb: Shaper) -> list[Difference]:
    pa, pb = pair.a.program, pair.b.program
    out = []
    for name in sorted(set(pa.configurations) | set(pb.configurations)):
        x, y = pa.configurations.get(name), pb.configurations.get(name)
        if x is None or y is None:
            side = "a" if y is None else "b"
            out.append(Difference("configuration", f"configuration {name}",
                                  f"configuration \"{name}\" is only in {side.upper()}", sides={"only": side}))
            continue
        counts_a = set(pair.a.result.configurations.get(name, ()))
        counts_b = set(pair.b.result.configurations.get(name, ()))
        lines = []
        if counts_a != counts_b:
            lines.append(f"players: {_counts(counts_a)} in A, {_counts(counts_b)} in B")
        changes: dict[tuple, list[int]] = {}      # (kind, only in A, only in B) -> the player counts
        for n in sorted(counts_a & counts_b):
            try:
                sel_a, sel_b = select(pa, x, n), select(pb, y, n)
            except ConfigEvalError:
                continue
            for kind in sorted(set(sel_a.cards) | set(sel_b.cards)):
                cards_a = {sa.card(c) for c in sel_a.cards.get(kind, ())}
                cards_b = {sb.card(c) for c in sel_b.cards.get(kind, ())}
                if cards_a != cards_b:
                    changes.setdefault((kind, tuple(sorted(cards_a - cards_b)), tuple(sorted(cards_b - cards_a))),
                                       []).append(n)
        for (kind, only_a, only_b), counts in changes.items():
            parts = [f"only in A: {', '.join(only_a)}" if only_a else "", f"only in B: {', '.join(only_b)}" if only_b
                     else ""]
            lines.append(f"{_counts(set(counts))} players, {kind}: " + "; ".join(p for p in parts if p))
        if lines:
            out.append(Difference("configuration", f"configuration {name}",
                                  f"configuration \"{name}\" selects other cards", details=lines))
    return out


def _counts(counts: set) -> str:
    ordered = sorted(counts)
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]} to {ordered[-1]}"
    return ", ".join(map(str, ordered)) or "none"

