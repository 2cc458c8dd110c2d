"""Aggregates compiled as one pass where the straightforward code would nest loops, or narrowed to the cards
that can match.

``all(x in xs: sum(y in ys: count(z in zs where key == x)) <= k)`` (or with `any`, any comparison, and
without the `sum`) counts, for every ``x``, the ``z`` whose key is ``x``: the straightforward code walks
every ``zs`` once per ``x``.  When neither ``ys``, ``zs``, ``key`` nor ``k`` mention ``x``, the keys are
counted in one pass and each ``x`` looks its count up.  Same value: the expressions are pure, the key and
``k`` are read only when ``xs`` is not empty (as before), and ``k`` once.
"""

from __future__ import annotations

import ast as pyast
import operator
import re

from checker.front import ast
from checker.front.ast import names_in

__all__ = ["per_key_count", "count_per_key", "selected_index", "narrowed_selection", "holders", "holders_of",
           "narrowed_players", "holders_answer"]

_SPENT = re.compile(r"SPEND\((\w+), (\w+)\)")
_COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
            "!=": operator.ne}


def count_per_key(values, keys, test, bound, every: bool) -> bool:
    """Runtime helper: ``all`` (``every``) or ``any`` of ``test(how many keys equal v, bound())`` over
    ``values``; ``keys()`` (a list) and ``bound()`` are called only when there are values."""
    if not values:
        return every
    keyed = keys()
    k = bound()
    if every and test(0, k) and test(1, k) and len(set(keyed)) == len(keyed):
        return True             # no key twice: every count is 0 or 1, and both pass (one set, built in C)
    counts: dict = {}
    for key in keyed:
        counts[key] = counts.get(key, 0) + 1
    get = counts.get
    if every and test(0, k):    # a value no key equals passes: only the keys counted can fail (fewer than
        for key, n in counts.items():       # the values, as a rank of each character chosen)
            if not test(n, k) and key in values:
                return False
        return True
    if every:                   # plain loops: no generator to resume per value
        for v in values:
            if not test(get(v, 0), k):
                return False
        return True
    for v in values:
        if test(get(v, 0), k):
            return True
    return False


def per_key_count(g, e: ast.Aggregate, scope, statement: tuple[int, str] | None = None):
    """The one-pass source of ``e`` when it has the shape above, else None.  With ``statement`` (number,
    indent): instead, the lines of a test that returns ``number`` when ``e`` is false — an `all` whose test a
    count of 0 and of 1 both pass (a constant bound) asks no call when no key is counted twice, its work
    counted inline as SPEND counts it, in the same order."""
    if e.kind not in ("all", "any") or not isinstance(e.body, ast.Binary) or e.body.op not in _COMPARE:
        return None
    left, bound, x = e.body.left, e.body.right, e.var
    outer = None
    if isinstance(left, ast.Aggregate) and left.kind == "sum" and isinstance(left.body, ast.Aggregate):
        outer, left = left, left.body
    if not (isinstance(left, ast.Aggregate) and left.kind == "count" and isinstance(left.body, ast.Binary)
            and left.body.op == "=="):
        return None
    a, b = left.body.left, left.body.right
    key = b if isinstance(a, ast.Name) and a.id == x else a if isinstance(b, ast.Name) and b.id == x else None
    if key is None or g.is_card(a) or g.is_card(b):
        return None
    free = [key, left.coll, bound] + ([outer.coll] if outer is not None else [])
    if any(x in names_in(part) for part in free) or (outer is not None and outer.var == x) or left.var == x:
        return None
    span = g.const(e.span, "span")
    z = g.fresh("z")
    test = g.const(_COMPARE[e.body.op], "cmp")
    compare = _COMPARE[e.body.op]
    if statement is not None and e.kind == "all" and isinstance(bound, ast.IntLit) \
            and compare(0, bound.value) and compare(1, bound.value):
        number, ind = statement
        values, keyed, seats = g.fresh("values"), g.fresh("keys"), g.fresh("items")
        spend = [f"{ind}    E.work += len({{0}})", f"{ind}    if E.work > MAX_WORK:", f"{ind}        SPEND((), {span})"]
        coll = g.expr(e.coll, scope)
        counted = _SPENT.fullmatch(coll)          # a range of literal bounds: its work counted inline too
        lines = [f"{ind}{values} = {counted.group(1) if counted else coll}"]
        if counted:
            lines += [line[4:].format(values).replace(span, counted.group(2)) for line in spend]
        lines += [line[4:].format(values) for line in spend]
        lines.append(f"{ind}if {values}:")
        if outer is None:
            lines.append(f"{ind}    {keyed} = [{g.expr(key, scope.with_fixed(left.var, z))} for {z} in "
                         f"{g.expr(left.coll, scope)}]")
        else:
            y = g.fresh("y")
            around = scope.with_fixed(outer.var, y)
            lines += [f"{ind}    {seats} = {g.expr(outer.coll, scope)}"] + [line.format(seats) for line in spend]
            lines.append(f"{ind}    {keyed} = [{g.expr(key, around.with_fixed(left.var, z))} for {y} in {seats} "
                         f"for {z} in {g.expr(left.coll, around)}]")
        lines += [line.format(keyed) for line in spend]
        return lines + [f"{ind}    if len(set({keyed})) != len({keyed}) and not COUNT_PER_KEY({values}, "
                        f"lambda: {keyed}, {test}, lambda: {bound.value}, True):",
                        f"{ind}        return {number}"]
    if outer is None:
        keys = f"[{g.expr(key, scope.with_fixed(left.var, z))} for {z} in {g.expr(left.coll, scope)}]"
    else:
        y = g.fresh("y")
        around = scope.with_fixed(outer.var, y)
        keys = f"[{g.expr(key, around.with_fixed(left.var, z))} for {y} in SPEND({g.expr(outer.coll, scope)}, " \
               f"{span}) for {z} in {g.expr(left.coll, around)}]"
    fused = (f"COUNT_PER_KEY(SPEND({g.expr(e.coll, scope)}, {span}), lambda: SPEND({keys}, {span}), {test}, "
             f"lambda: {g.expr(bound, scope)}, {e.kind == 'all'})")
    if statement is None:
        return fused
    return [f"{statement[1]}if not {fused}:", f"{statement[1]}    return {statement[0]}"]


# ---------------------------------------------------------------- the selected cards, by definition or attribute
# ``any(x in selected(K): x == e and …)`` (or `count`, `filter`, `the`, `only`; the test ``x.a == e`` for a
# constant attribute ``a`` likewise), ``e`` not mentioning ``x``: only the selected cards of ``e``'s
# definition (attribute value) can pass, and a rule about a card absent from the game looks nothing up.  Each
# game indexes its selection once (Engine.start, ``E.sel_index``).  Same value: the test's first conjunct is
# the one narrowed on (a card it skips would have failed there, before anything else of the test was read),
# the order of the cards is kept, and ``e`` is a plain read (a literal, a name, a var, a constant attribute),
# evaluated once instead of once per card, which cannot fail or change anything.

_CONDITIONS = ("any", "count", "filter", "the", "only")


def selected_index(cards, table, def_of) -> dict:
    """value -> the ``cards`` (in their order) whose definition (``table`` None) or whose definition's value in
    ``table`` (an attribute) it is."""
    index: dict = {}
    for card in cards:
        key = def_of[card] if table is None else table.get(def_of[card])
        index.setdefault(key, []).append(card)
    return {key: tuple(found) for key, found in index.items()}


def _plain(g, e) -> bool:
    """Is ``e`` a read that cannot fail: a literal, a name, a var (not a zone), a constant attribute of one?"""
    if isinstance(e, (ast.StrLit, ast.IntLit, ast.BoolLit, ast.NoneLit, ast.Name)):
        return True
    if isinstance(e, ast.Index):
        return isinstance(e.obj, ast.Name) and e.obj.id in g.p.vars and _plain(g, e.index)
    if isinstance(e, ast.Attr):
        return isinstance(e.obj, (ast.Name, ast.StrLit)) and not g.name_may_be_none(e.obj) and _plain(g, e.obj)
    return False


def narrowed_selection(g, e: ast.Aggregate, scope, x: str) -> str | None:
    """The source of the selected cards ``e`` (a test over ``selected(K)``, its variable compiled as ``x``) can
    match, narrowed by its first conjunct; None when it has no such shape."""
    coll = e.coll
    if e.kind not in _CONDITIONS or e.body is None or not (isinstance(coll, ast.Call) and coll.func == "selected"):
        return None
    first = e.body
    while isinstance(first, ast.Binary) and first.op == "and":
        first = first.left
    if not (isinstance(first, ast.Binary) and first.op == "=="):
        return None
    for mine, other in ((first.left, first.right), (first.right, first.left)):
        if e.var in names_in(other) or not _plain(g, other):
            continue
        if isinstance(mine, ast.Name) and mine.id == e.var and g.is_card(mine) and g.is_card(other):
            table, key = None, g.card_key(other, scope)
        elif isinstance(mine, ast.Attr) and isinstance(mine.obj, ast.Name) and mine.obj.id == e.var:
            table, by_card = g.E.attr_table(mine.name), g.E.card_attr_table(mine.name)
            if g.expr(mine, scope.with_fixed(e.var, x)) != f"{g.const(by_card, 'attr' + mine.name)}[{x}]":
                continue        # not read from the constant table
            key = g.expr(other, scope)
        else:
            continue
        return f"E.sel_index[{g.E.selection_index(coll.args[0].id, table)}].get({key}, ())"
    return None


# ``the(p in players where c is in z[p] and …)`` (or `any`, `count`, `filter`, `only`), ``c`` a plain read not
# mentioning ``p``: only the player whose ``z`` holds the card ``c`` (the state keeps each card's place) can pass;
# the test is still evaluated for that one.  Same value, same order (one player at most).

def holders(place, zone: str, seats) -> tuple:
    """The player whose ``zone`` is ``place`` (a card's place, or MISSING/None), as a 0- or 1-tuple of ``seats``."""
    if place.__class__ is tuple and place[0] == zone and place[1] in seats:
        return (place[1],)
    return ()


def holder_tables(engine, zone: str) -> tuple[dict, dict]:
    """(place -> its player, place -> (its player,)) over the places ``(zone, p)`` of the game's seats: what
    :func:`holders` says of a card's place, and ``the`` of it (None, () for any other), in one ``dict.get`` and no
    call of ours.  Made for the game on, if one is, and refilled by each game's start (:func:`fill_holders`)."""
    tables = engine.holder_tables.get(zone)
    if tables is None:
        tables = engine.holder_tables[zone] = ({}, {})
        fill_holders(zone, engine.seats, *tables)
    return tables


def fill_holders(zone: str, seats, one: dict, every: dict) -> None:
    one.clear()
    every.clear()
    for p in seats:
        one[(zone, p)], every[(zone, p)] = p, (p,)


def holders_of(key, zone: str, engine) -> tuple:
    """The players (in seat order) whose ``zone`` holds a physical card of definition ``key``."""
    copies = engine.instances.get(key)
    if not copies:
        return ()
    where, seats = engine.st.where, engine.seats
    if len(copies) == 1:
        return engine.holder_tables[zone][1].get(where.get(copies[0]), ())
    found = {place[1] for place in map(where.get, copies) if place.__class__ is tuple and place[0] == zone}
    return tuple(p for p in seats if p in found)


def _holders_test(g, e: ast.Aggregate) -> tuple[str, ast.Binary] | None:
    """("in" or "isin", the membership) when ``e`` is a test over ``players`` starting with ``c is in z[p]``, or
    ``c in z[p]`` by definition, ``z`` a zone of each player; None when it has no such shape."""
    if e.kind not in _CONDITIONS or e.body is None or not (isinstance(e.coll, ast.Name) and e.coll.id == "players"):
        return None
    first = e.body
    while isinstance(first, ast.Binary) and first.op == "and":
        first = first.left
    if not (isinstance(first, ast.Binary) and first.op in ("in", "isin") and isinstance(first.right, ast.Index)
            and isinstance(first.right.obj, ast.Name) and first.right.obj.id in g.p.zones
            and isinstance(first.right.index, ast.Name) and first.right.index.id == e.var
            and e.var not in names_in(first.left) and _plain(g, first.left)):
        return None
    if first.op == "in" and not (g.is_card(first.left) and g.is_card_coll(first.right)):
        return None
    decl = g.p.zones[first.right.obj.id]
    if decl.index is None or decl.index.name in g.p.kinds:
        return None
    return first.op, first


def holders_answer(g, e: ast.Aggregate) -> bool:
    """Is ``e`` answered by its holders alone: a test over ``players`` that is just the membership
    :func:`narrowed_players` finds them by (the code generator writes no loop for it)?"""
    return _holders_test(g, e) is not None and not (isinstance(e.body, ast.Binary) and e.body.op == "and")


def narrowed_players(g, e: ast.Aggregate, scope, x: str) -> str | None:
    """The source of the players ``e`` (a test over ``players`` starting with ``c is in z[p]``, or ``c in z[p]``
    by definition) can match; None when it has no such shape."""
    found = _holders_test(g, e)
    if found is None:
        return None
    op, first = found
    if op == "in":
        # by definition: the players whose zone holds a copy of the card's definition (State.counts and
        # State.where agree), found from the copies' places instead of every player's count
        holder_tables(g.E, first.right.obj.id)          # HOLDERS_OF reads the zone's table
        return f"HOLDERS_OF({g.card_key(first.left, scope)}, {first.right.obj.id!r}, E)"
    card = g.expr(first.left, scope)
    span = g.const(first.span, "span")      # the test's own error, if the card is not one physical card
    card = f"({card} if {card} is None or {card} >= 0 else SAME({card}, {span}))" if card.isidentifier() \
        else f"SAME({card}, {span})"
    return f"HOLDERS(st.where.get({card}, MISSING), {first.right.obj.id!r}, E.seats)"


def the_holder(g, holders: str) -> str:
    """``the`` of the players :func:`narrowed_players` wrote as ``HOLDERS(place, zone, E.seats)``: the player whose
    ``zone`` is the card's place, or None, in one ``dict.get`` of the zone's table."""
    place, _, zone = holders[len("HOLDERS("):-len(", E.seats)")].rpartition(", ")
    return f"{g.const(holder_tables(g.E, pyast.literal_eval(zone))[0], 'holder')}.get({place})"
