"""conflicts, continued: *effect failure* — a legal move whose effect cannot complete.

For every action with a body of its own, and every power, the search asks Z3 for a well-formed state
(the conflict search's symbolic state, :class:`~checker.conflicts.questions.Search`) where the move is legal and
its effect (:mod:`checker.solver.transition`: its statements, the windows it opens and the reactions
they run, in the interpreter's order) fails: a transfer of more than a counter holds or of a negative
amount, an integer past ±MAX_INT, an ``only(…)`` that does not find one element, a card's name moved.
The move is *legal*: an action whose prohibitions do not apply (what `can` says), a power its holder may
use (it is its card's controller, the card is active, the power is not used up and its `requires`
holds).  What the encoding cannot express is reported as undecided, with its location and reason.

An integer past ±MAX_INT is asked of Z3 only where the ranges of the cells its value adds up do not already keep
it within (:func:`_within`: each `Int` var is 0..BOUND on the well-formed states every question asks of): a
transfer between treasuries of 0..100 cannot pass a billion, which Z3, given the `If`s of a symbolic player's
treasury, took up to 25 million steps to say (two powers of the 4th edition that make one player pay another).
The same ranges rule out a failure one of whose conditions they make false (:func:`_ruled_out`), such as a negative
amount paid that is a `greatest(…, 0)` plus a surcharge of 0 or more: a rank-8 exchange's payment in the 4th
edition (11-personnages-5-9.rules), which took Z3 0.15 to 0.99 million steps by the names of its unknowns (past the
relaxed solver's million, its full question ran out of its 50 million: undecided).

Each witness is replayed by the interpreter (``confirmed``, :mod:`checker.conflicts.replay`): the state file is
loaded, the move made with the choices of the model, and the interpreter must stop with an error at the same
statement.  What the encoding follows of an effect is bounded (:data:`MAX_STEPS` statements, reactions
:data:`MAX_WINDOWS` window deep, nothing after an ``offer``): a failure found before is a failure; the paths
that go further are reported as undecided, with the place the encoding stops.
"""

from __future__ import annotations

import dataclasses

import z3

from checker.front import ast
from checker.solver.encode import AND, NONE, NOT, Unsupported, as_bool, is_const
from checker.conflicts.findings import Finding
from checker.conflicts.instances import OneInstance, Weaker, requires
from checker.conflicts.relaxed import Relaxed, well_placed
from checker.base.limits import MAX_INT
from checker.solver.search import BOUND
from checker.solver.terms import term_id
from checker.solver.transition import Transition
from checker.front.types import INT, KindT, Opt

__all__ = ["effect_failures", "encode_effect", "write_witness", "MAX_WINDOWS", "MAX_STEPS"]

# the reactions followed inside an effect: to the windows it opens, and to those their reactions open (a
# window opened deeper is where the effect stops being followed: reported as undecided, never as safe).  Two: the
# confiscation power (10-personnages-1-4.rules), a reaction to `quartier_payé`, builds the district and opens
# `quartier_bâti` (1 left
# every way of building of the 4th edition undecided there)
MAX_WINDOWS = 2
# the statements of an effect followed, in the interpreter's order (the rest: undecided, never safe).  200: a
# district built pays, runs the reactions to `quartier_payé` and `quartier_bâti` and checks every city (60 left
# nine moves of the 4th edition undecided, at `if not quartier_confisqué`; with 200 each is decided, at less CPU
# than the question of where the encoding stopped took)
MAX_STEPS = 200


def _scope_keys(search, stmts, extra: set) -> set:
    """What an effect reads and runs: its expressions, the procedures and actions it calls, and the cards
    whose powers react to the windows it opens."""
    scope, p, E = search.scope, search.p, search.engine
    keys, seen, todo = set(extra), set(), list(stmts)
    while todo:
        node = todo.pop()
        for n in ast.walk(node):
            if isinstance(n, (ast.Name, ast.Call, ast.Index, ast.Attr, ast.Can)):
                keys |= scope.expr(n)
            elif isinstance(n, ast.Do) and ("do", n.action) not in seen:
                seen.add(("do", n.action))
                keys |= scope.action(n.action)
                for anc in _chain(p, n.action):
                    body = p.actions[anc].body
                    todo.extend(body or ())
                    for hook in p.hooks:
                        if hook.action == anc:
                            todo.append(ast.Signal(hook.window, hook.args, hook.span))
            elif isinstance(n, ast.CallProc) and ("call", n.name) not in seen:
                seen.add(("call", n.name))
                keys.add(("procedure", n.name))
                todo.extend(p.procedures[n.name].body)
            elif isinstance(n, ast.Signal) and ("signal", n.window) not in seen:
                seen.add(("signal", n.window))
                keys.add(("window", n.window))
                for power in E.window_powers.get(n.window, ()):
                    name = E.def_names[power.card]
                    keys |= scope.card(name) | {("power", f'"{name}".{power.name}')}
                    decl = search._power_decl(power)
                    todo.extend(decl.body)
    return keys


def _chain(p, action: str) -> list[str]:
    out = []
    while action and action not in out and action in p.actions:
        out.append(action)
        parent = p.actions[action].parent
        action = parent[0] if parent else None
    return out


def effect_failures(search, only: set | None = None) -> list:
    """The effect-failure findings of ``search`` (a :class:`~checker.conflicts.questions.Search`); with
    ``only``, of the moves it names (an action, or a power as ``"Card".name``)."""
    p = search.p
    out: list = []
    moves = []
    for name, decl in p.actions.items():
        if decl.body is not None:
            moves.append(("action", name, decl, None))
    for card in p.cards.values():
        for pw in card.powers:
            moves.append(("power", f'"{card.name}".{pw.name}', pw, card))
    for kind, label, decl, card in moves:
        if only is not None and label not in only:
            continue
        if kind == "action":
            body = list(decl.body) + [ast.Signal(h.window, h.args, h.span) for h in p.hooks if h.action == label]
            involved = lambda scope, body=body, label=label: scope.involves(  # noqa: E731
                _scope_keys(search, body, scope.action(label)))
        else:
            involved = lambda scope, decl=decl, card=card, label=label: scope.involves(  # noqa: E731
                _scope_keys(search, decl.body, scope.card(card.name) | scope.expr(decl.requires)
                            | {("power", label)}))
        if not search._mine(out, involved):
            continue
        enc = search.encoder()
        try:
            encoded = encode_effect(search, enc, label, decl, card)
        except Unsupported as exc:
            if enc.spent <= enc.limit:
                out.append(_unencoded(label, decl, exc))
                continue
            # too large spelled out: asked again with one unknown per quantifier (checker.conflicts.instances),
            # whose *no* is a proof and whose *yes* a failure only where the interpreter confirms it; still too
            # large, with more unknowns (its reactions' `requires`, the `any`s under a `not`)
            for level in (1, 2):
                enc = search.encoder()
                try:
                    encoded = encode_effect(search, enc, label, decl, card, one_instance=level)
                except Unsupported:
                    if level == 1 and enc.spent > enc.limit:
                        continue
                    out.append(_unencoded(label, decl, exc))
                else:
                    out.extend(_ask(search, enc, label, decl, card, encoded, one_instance=exc))
                break
            continue
        out.extend(_ask(search, enc, label, decl, card, encoded))
    return out


def _unencoded(label, decl, exc) -> Finding:
    return Finding("unknown", f"cannot encode the effect of {label}: {exc.located()}", (label,), (decl.span,),
                   unknown=exc.located())


def _ask(search, enc, label, decl, card, encoded, one_instance=None) -> list:
    """The questions of one move's encoded effect (``encoded``: what :func:`encode_effect` returns).  With
    ``one_instance`` (why the exact encoding failed), the effect was encoded with one unknown per quantifier: a
    model is a failure only where the interpreter confirms it, else undecided."""
    domain, legal, t, before, move = encoded
    out: list = []
    enc.cells = before          # the state the witness and the invariants describe is the one before
    t.forget()
    cards = (card.name,) if card is not None else ()
    # each question asked first on the move's relaxed solver (checker.conflicts.relaxed): what it refutes
    # needs no full question; the places in the order of the constraints they need
    relaxed = Relaxed(search, [*domain, legal, *well_placed(search, enc)], t.constraints)
    places = _by_place(t.failures)
    # the unknowns chosen before the place are all its question needs
    made = [max(f.constraints for f in failures) for _, failures in places]
    # an integer past ±MAX_INT that the ranges of the cells it adds up keep within them (on the well-formed
    # states every question asks of) is no question (Z3 took up to 25 million steps to say so)
    # the same for a failure whose condition the ranges make false (a negative amount paid that is a difference
    # kept at 0 or more by `greatest`: in the 4th edition, 0.15 to 1 million steps for Z3, by the names of unknowns)
    bounds, ranges = _cell_bounds(enc), {}
    refuted = {k for k, (_, failures) in enumerate(places)
               if all(f.value is not None and _within(f.value, bounds, -MAX_INT, MAX_INT, ranges)
                      or f.value is None and _ruled_out(f.when, bounds, ranges) for f in failures)}
    refuted |= {k for k in sorted(range(len(places)), key=made.__getitem__)
                if k not in refuted and relaxed.refuted(_any(places[k][1]), upto=made[k])}
    for k, (span, failures) in enumerate(places):
        if k not in refuted:
            found = _place(search, enc, label, decl, move, card, t, span, failures,
                           [*domain, legal, _any(failures), *t.constraints[:made[k]]])
            out.extend(found if one_instance is None else [_confirmed_only(f, one_instance) for f in found])
    if t.cuts and not relaxed.refuted(z3.Or([as_bool(w) for w, _, _ in t.cuts])):
        out.extend(_cut_findings(search, enc, label, decl, t, [*domain, legal, *t.constraints], cards))
    return out


def _cell_bounds(enc) -> dict:
    """Term id -> (least, greatest) of the state's integer cells, as every full question bounds them (the
    well-formed state: :meth:`~checker.solver.search.SymbolicSearch.well_formed`, an `Int` var 0..BOUND)."""
    out = {}
    for key, cell in enc.cells.made.items():
        if key[0] == "var" and len(key) == 3:
            ty = enc.var_types[key[1]]
            if ty == INT:
                out[term_id(cell)] = (0, BOUND)
            elif isinstance(ty, Opt) and ty.inner == INT:
                out[term_id(cell)] = (NONE, BOUND)
    return out


_ARITH = {z3.Z3_OP_ADD, z3.Z3_OP_SUB, z3.Z3_OP_UMINUS, z3.Z3_OP_MUL, z3.Z3_OP_ITE}


def _within(value, bounds: dict, low: int, high: int, ranges: dict | None = None) -> bool:
    """Is the integer term ``value`` between ``low`` and ``high`` whatever its cells hold within ``bounds``, by
    its terms' ranges (:func:`_range`)?  False where a term is none of those told there (an unknown, the player
    count).  ``ranges``: the ranges found so far (term id -> range), shared by the calls over one state."""
    found = _range(value, bounds, {} if ranges is None else ranges)
    return found is not None and low <= found[0] and found[1] <= high


_CMP = {z3.Z3_OP_LT: lambda a, b: a[0] < b[1], z3.Z3_OP_LE: lambda a, b: a[0] <= b[1],
        z3.Z3_OP_GT: lambda a, b: a[1] > b[0], z3.Z3_OP_GE: lambda a, b: a[1] >= b[0]}


def _ruled_out(when, bounds: dict, ranges: dict) -> bool:
    """Is the condition ``when`` false whatever the cells hold within ``bounds``: one of its conjuncts an integer
    comparison that the ranges of its two sides cannot make true (`amount < 0` of an amount that is a sum of
    `greatest(…, 0)` and a count)?"""
    todo, seen = [when], set()
    while todo:
        t = todo.pop()
        if not z3.is_app(t) or term_id(t) in seen:
            continue
        seen.add(term_id(t))
        kind = t.decl().kind()
        if kind == z3.Z3_OP_AND:
            todo.extend(t.children())
        elif kind in _CMP and z3.is_int(t.arg(0)):
            a, b = _range(t.arg(0), bounds, ranges), _range(t.arg(1), bounds, ranges)
            if a is not None and b is not None and not _CMP[kind](a, b):
                return True
    return False


def _range(value, bounds: dict, ranges: dict) -> tuple[int, int] | None:
    """The least and greatest values of the integer term ``value`` whatever its cells hold within ``bounds``:
    a number, a bounded cell, an `If` of such (either branch; `If(a > b, a, b)` is the greater of ``a`` and ``b``,
    as `greatest` is written, and the lesser the other way round), their sums, differences, products, quotients
    and remainders by a positive number; None where a term is none of these.  ``ranges``: the ranges found so far
    (term id -> range, or None), shared by the calls over one state."""
    todo = [value]
    while todo:
        t = todo[-1]
        key = term_id(t)
        if key in ranges:
            todo.pop()
            continue
        if z3.is_int_value(t):
            ranges[key] = (t.as_long(), t.as_long())
            todo.pop()
            continue
        if t.num_args() == 0:
            ranges[key] = bounds.get(key)       # None: not told (and remembered so, for the next calls)
            if ranges[key] is None:
                return None
            todo.pop()
            continue
        op = t.decl().kind()
        if op in (z3.Z3_OP_IDIV, z3.Z3_OP_MOD):     # by a positive number
            divisor = t.arg(1)
            if not (z3.is_int_value(divisor) and divisor.as_long() > 0):
                ranges[key] = None
                return None
        elif op not in _ARITH:
            ranges[key] = None
            return None
        args = t.children()[1:] if op == z3.Z3_OP_ITE else t.children()
        missing = [a for a in args if term_id(a) not in ranges]
        if missing:
            todo.extend(missing)
            continue
        todo.pop()
        rs = [ranges[term_id(a)] for a in args]
        if None in rs:
            ranges[key] = None
            return None
        if op == z3.Z3_OP_ITE:
            ranges[key] = _extremum(t, rs) or (min(rs[0][0], rs[1][0]), max(rs[0][1], rs[1][1]))
        elif op == z3.Z3_OP_ADD:
            ranges[key] = (sum(r[0] for r in rs), sum(r[1] for r in rs))
        elif op == z3.Z3_OP_UMINUS:
            ranges[key] = (-rs[0][1], -rs[0][0])
        elif op == z3.Z3_OP_IDIV:          # (Z3's quotient by a positive number rounds down, as Python's)
            ranges[key] = (rs[0][0] // rs[1][0], rs[0][1] // rs[1][0])
        elif op == z3.Z3_OP_MOD:
            ranges[key] = (0, rs[1][0] - 1)
        elif op == z3.Z3_OP_SUB:
            ranges[key] = (rs[0][0] - sum(r[1] for r in rs[1:]), rs[0][1] - sum(r[0] for r in rs[1:]))
        else:
            lo, hi = rs[0]
            for a, b in rs[1:]:
                corners = (lo * a, lo * b, hi * a, hi * b)
                lo, hi = min(corners), max(corners)
            ranges[key] = (lo, hi)
    return ranges[term_id(value)]


def _extremum(ite, rs) -> tuple[int, int] | None:
    """The range of `If(a > b, a, b)` (or `>=`, or `<`/`<=` with the branches the other way round): the greater
    of ``a`` and ``b``; of `If(a < b, a, b)` (…): the lesser; None for any other `If`.  ``rs``: its branches'."""
    cond, then, other = ite.children()
    kind = cond.decl().kind() if z3.is_app(cond) else None
    if kind not in _CMP or cond.num_args() != 2:
        return None
    left, right = cond.arg(0), cond.arg(1)
    if left.eq(then) and right.eq(other):
        greater = kind in (z3.Z3_OP_GT, z3.Z3_OP_GE)
    elif left.eq(other) and right.eq(then):
        greater = kind in (z3.Z3_OP_LT, z3.Z3_OP_LE)
    else:
        return None
    (a, b), (c, d) = rs
    return (max(a, c), max(b, d)) if greater else (min(a, c), min(b, d))


def _confirmed_only(finding: Finding, exact) -> Finding:
    """A finding of the encoding with one unknown per quantifier: a failure the interpreter confirms stays one;
    any other is undecided (the model may make a `choose` stop that had an option)."""
    if finding.kind != "effect-failure" or finding.confirmed:
        return finding
    why = (f"the encoding with one unknown per quantifier (the exact one: {exact.located()}) finds a failure "
           f"the interpreter does not confirm ({finding.replayed or 'not replayed'})")
    reason = finding.message.split(" — ", 1)[-1]
    return dataclasses.replace(finding, kind="unknown", message=f"cannot tell whether the effect of "
                               f"{finding.rules[0]} can fail here ({reason})", unknown=why)


def encode_effect(search, enc, label: str, decl, card=None, one_instance: int = 0) -> tuple:
    """The effect of action ``label`` (``card`` None) or of power ``decl`` of ``card``, encoded as the search asks
    it: (the move's domain, that it is legal, the :class:`Transition`, the state before, the move — (action,
    args), or None for a power).  With ``one_instance`` (1, or True), each quantifier of a `requires` and each
    `choose` is one unknown (:mod:`checker.conflicts.instances`: weaker, and smaller); with 2, also those of the
    reactions' `requires` and those under a `not` (:class:`~checker.conflicts.instances.Weaker`)."""
    steps = getattr(search, "effect_steps", MAX_STEPS)
    enc.memos.rules = {}        # a rule's condition kept by the arguments it reads (a `can` over many moves asks it often)
    transition = (Transition, OneInstance, Weaker)[int(one_instance)]
    if card is None:
        args, domain = search.action_args(enc, label)
        legal = enc.legality(label, args)[0]
        before = enc.cells
        t = transition(enc, cut_at_offers=True, max_windows=MAX_WINDOWS, max_steps=steps, lazy_moves=True)
        t.perform(label, args, legal)
        return domain, legal, t, before, (label, args)
    requiring = (lambda enc, expr, env: requires(enc, expr, env, negated=True)) if one_instance == 2 else \
        requires if one_instance else None
    domain, legal, t, _ = _power_move(search, enc, decl, card, steps, transition, requiring)
    return domain, legal, t, t.store.base, None


def _nowhere(enc, key) -> bool:
    """A cell read at an index the state has no cell for: `none` (an `only(…)` that found nothing), or a card
    of another kind (a value the encoding lets range wider than the index type, on a path not taken)."""
    if len(key) < 3 or key[0] not in ("var", "in") or not isinstance(key[2], int) or isinstance(key[2], bool):
        return False
    if key[2] == NONE:
        return True
    ty = enc.index_types.get(key[1]) if key[0] == "var" else enc.zone_index_types.get(key[1])
    ty = getattr(ty, "inner", ty)
    if isinstance(ty, KindT):
        E = enc.E
        return key[2] < 0 and E.def_kind.get(key[2]) != ty.name or key[2] >= 0 and (
            key[2] >= len(E.defs) or E.def_kind.get(E.defs[key[2]]) != ty.name)
    return False


def _any(failures):
    return as_bool(failures[0].when) if len(failures) == 1 else z3.Or([as_bool(f.when) for f in failures])


def _place(search, enc, label, decl, move, card, t, span, failures, formulas) -> list:
    """The failures at one place asked alone."""
    status, model, reason = search.solve(enc, *formulas, minimal=True,
                                         cards=((card.name,) if card is not None else ()))
    if status == "unsat":
        return []
    if status == "sat":
        return [_found(search, enc, model, label, decl, move, card, t, span, failures)]
    return [Finding("unknown", f"cannot tell whether the effect of {label} can fail here ({failures[0].reason})",
                    (label,), (span, decl.span), unknown=reason)]


def write_witness(search, enc, model, finding: Finding, move, t) -> None:
    """The finding's witness from ``model``: the state file, the move (``move``: (action, args), or None for a
    power), the situation, and the choices made inside the effect ``t``."""
    # a cell read at index `none` (an `only(…)` that found nothing, used as an index) is no cell of a state
    made = enc.cells.made
    nowhere = {k: made.pop(k) for k in list(made) if _nowhere(enc, k)}
    try:
        search._witness(enc, model, finding, move[0] if move else None, move[1] if move else ())
    finally:
        made.update(nowhere)
    finding.situation = finding.situation + _choices(enc, model, t)


def _found(search, enc, model, label, decl, move, card, t, span, failures) -> Finding:
    """The finding of a model where the move fails at ``span``, with its witness replayed."""
    finding = Finding("effect-failure", f"{label}: a legal move whose effect cannot complete — {failures[0].reason}",
                      (label,), (span, decl.span))
    write_witness(search, enc, model, finding, move, t)
    if finding.witness is not None:
        from checker.conflicts.replay import replay_failure
        finding.confirmed, finding.replayed = replay_failure(
            search, finding.witness, finding.move, None if move else (card.name, decl.name), _answers(enc, model, t),
            span)
    return finding


def _cut_findings(search, enc, label, decl, t, formulas, cards) -> list:
    """Undecided: the paths of the effect that reach a place where the encoding stops following it."""
    if not t.cuts:
        return []
    status, model, reason = search.solve(enc, *formulas, z3.Or([as_bool(w) for w, _, _ in t.cuts]), cards=cards)
    if status == "unsat":
        return []
    if status == "sat":
        reached = [(span, what) for w, span, what in t.cuts if z3.is_true(model.eval(as_bool(w), model_completion=True))]
        span, what = reached[0] if reached else (t.cuts[0][1], t.cuts[0][2])
        note = f"the effect is followed up to {what} ({span}); what runs after it is not searched"
    else:
        span, note = t.cuts[0][1], f"cannot tell whether the effect reaches what is not followed ({reason})"
    return [Finding("unknown", f"the effect of {label} is searched in part: {note}", (label,),
                    (span, decl.span), unknown=note)]


def _by_place(failures) -> list:
    """The failures grouped by the statement they are at (one question each), in order."""
    groups: dict = {}
    for f in failures:
        groups.setdefault((str(f.span), f.reason), []).append(f)
    return [(fs[0].span, fs) for fs in groups.values()]


def _power_move(search, enc, pw: ast.PowerDecl, card: ast.CardDecl, steps: int | None = MAX_STEPS,
                transition=Transition, requiring=None):
    """A power used: its holder, the card (its first copy), the window's arguments (symbolic); ``transition``
    makes the :class:`Transition` its effect is encoded in, ``requiring(enc, expr, env)`` its `requires` (by
    default, as any expression)."""
    E = search.engine
    key = E.def_ids[card.name]
    inst = E.instances[key][0]
    controller = E.controllers.get(E.def_kind[key])
    holder = enc.quantity(controller, (inst,)) if controller else NONE
    domain = []
    wargs = {}
    if pw.window is not None:
        params = search.p.windows[pw.window[0]].params
        values, domain = search.params_args(enc, pw.window[0], params)
        wargs = {n: v for (n, _), v in zip(pw.window[1], values)}
    runtime = next(x for x in E.powers_of[key] if x.name == pw.name)
    usable = AND(NOT(holder == NONE) if not is_const(holder) else holder != NONE, enc.active(inst))
    if runtime.limit != "unlimited" and not is_const(holder):
        usable = AND(usable, NOT(enc.select(holder, tuple(enc.seats), lambda k: enc.cells.used_up(k, inst, runtime))))
    if pw.requires is not None:
        usable = AND(usable, (requiring or _expr)(enc, pw.requires, {"me": holder, "this": inst, **wargs}))
    if pw.window is None:
        usable = AND(usable, _offered(search, enc, holder, inst))
    before = enc.cells
    t = transition(enc, cut_at_offers=True, max_windows=MAX_WINDOWS, max_steps=steps, lazy_moves=True)
    t.power(pw, holder, inst, wargs, usable)
    t.store.base = before
    return domain, usable, t, None


def _expr(enc, expr, env: dict):
    return enc.expr(expr, env)


def _offered(search, enc, holder, inst):
    """Is a power of card ``inst`` (without a window) offered to ``holder`` by the turn's offer?  Its `powers
    of …` items are read with the offer's player as ``holder`` and its other names as the vars the turn
    procedure mirrors them in (see :func:`checker.solver.witness._turn_offer`); an item whose names are not
    all known is taken to offer it (the question is then asked of more states than a game reaches)."""
    from checker.solver.encode import OR
    from checker.solver.witness import _turn_offer
    offer, mirrors = _turn_offer(search.p)
    if offer is None or not isinstance(offer.player, ast.Name):
        return True
    env = {name: enc.var(var) for name, var in mirrors.items()}
    env[offer.player.id] = holder
    known = set(env)
    out = []
    for item in offer.items:
        if not isinstance(item, ast.OfferPowers):
            continue
        names = {n.id for n in ast.walk(item.source) if isinstance(n, ast.Name)}
        locals_ = {n for n in names if n not in search.p.vars and n not in search.p.zones
                   and n not in search.p.enum_members and n not in ("players", "player_count")}
        if not locals_ <= known:
            return True
        v = enc.expr(item.source, env)
        items = v if isinstance(v, list) else [(True, v)]
        out.append(OR(*(AND(g, enc.eq(x, inst) if not is_const(x) else x == inst) for g, x in items)))
    return OR(*out) if out else True


def _answers(enc, model, t: Transition) -> dict:
    """Statement location -> the values the witness chooses there, as the interpreter's values (a card by its
    name), for the replay."""
    out: dict = {}
    for c in t.choices:
        reached = c.reached
        if is_const(reached) and not reached or not is_const(reached) and not z3.is_true(
                model.eval(as_bool(reached), model_completion=True)):
            continue
        if c.kind != "one":
            continue
        where = (str(c.span.file), c.span.line, c.span.column)
        if c.optional is not None and not z3.is_true(model.eval(c.optional, model_completion=True)):
            out.setdefault(where, []).append(None)
            continue
        if c.value is None:
            continue
        v = model.eval(c.value, model_completion=True)
        if z3.is_bool(v):
            out.setdefault(where, []).append(z3.is_true(v))
            continue
        value = enc.to_runtime(v.as_long(), c.type)
        if isinstance(value, int) and c.type is not None and isinstance(getattr(c.type, "inner", c.type), KindT):
            value = enc.E.def_names[enc.E.defs[value]] if value >= 0 else enc.E.def_names[value]
        out.setdefault(where, []).append(value)
    return out


def _choices(enc, model, t: Transition) -> list[str]:
    """The choices the witness makes, in the spec's terms."""
    out = []
    for c in t.choices:
        reached = c.reached
        if not is_const(reached) and not z3.is_true(model.eval(reached, model_completion=True)):
            continue
        if is_const(reached) and not reached:
            continue
        if c.optional is not None and not z3.is_true(model.eval(c.optional, model_completion=True)):
            out.append(f"choix {c.var} : rien")
            continue
        if c.value is None:
            continue
        if c.kind != "one":         # a subset or a draw: the elements whose "chosen" unknown the model sets
            picked = [x for b, x in c.value if z3.is_true(model.eval(as_bool(b), model_completion=True))]
            if c.kind == "draw":    # physical cards of a pile
                shown = [enc.E.show_card(x) + enc.copy_mark(x) for x in picked]
                out.append(f"tirage de {c.var} : {{{', '.join(shown)}}}")
            else:
                shown = [enc.show(_value(model, x), c.type) for x in picked]
                out.append(f"choix {c.var} : {{{', '.join(shown)}}}")
            continue
        out.append(f"choix {c.var} : {enc.show(_value(model, c.value), c.type)}")
    return out


def _value(model, term):
    """A chosen value as Python: an element known when encoded, or what the model gives the unknown."""
    if is_const(term):
        return term
    v = model.eval(term, model_completion=True)
    return z3.is_true(v) if z3.is_bool(v) else v.as_long()
