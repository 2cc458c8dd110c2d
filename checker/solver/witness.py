"""Witnesses: a Z3 model of a symbolic state, written as a state file (and a move file) that the
interpreter and `rulebook legal` read, and said in the spec's terms."""

from __future__ import annotations

import z3
from z3 import z3core

from checker.front import ast
from checker.runtime.engine import SLOTS, Engine
from checker.runtime.state import SpecRuntimeError
from checker.solver.encode import NONE, Encoder, is_const
from checker.solver.scopes import Scopes
from checker.solver.selection import kinds_read
from checker.solver.statefile import FORMAT, MOVE_FORMAT, _Values, load_move, load_state, site_label
from checker.front.types import PLAYER, KindT, Opt

__all__ = ["witness_files", "interpreter_rules"]


def _value(model, cell):
    """The value ``model`` (completed) gives ``cell``: True, False or an int.  Through Z3's C API, as
    :func:`~checker.solver.terms.count_true_in` counts (z3py makes an object, and asks several questions, per
    value; a witness reads thousands): the value is read before any other call can free it."""
    ctx = model.ctx
    ref, out = ctx.ref(), (z3.Ast * 1)()
    if not z3core.Z3_model_eval(ref, model.model, cell.as_ast(), True, out):
        raise z3.Z3Exception("failed to evaluate expression in the model")
    truth = z3core.Z3_get_bool_value(ref, out[0])
    if truth == z3.Z3_L_TRUE:
        return True
    if truth == z3.Z3_L_FALSE:
        return False
    if z3core.Z3_get_ast_kind(ref, out[0]) == z3.Z3_NUMERAL_AST:
        return int(z3core.Z3_get_numeral_string(ref, out[0]))
    return model.eval(cell, model_completion=True).as_long()       # not a number: z3py says what it is


def _turn_offer(program) -> tuple[ast.Offer | None, dict[str, str]]:
    """The offer of the game's turn procedure (the decision point a witness is put at; for a game that
    names no turn, the first offer its flow reaches), and the vars that hold the value of one of the
    offer's names while it is open: a var the turn procedure sets to one of its parameters (``set v = p``
    with ``p`` passed on, name for name, down to the offer) — offer name -> var."""
    game = {f.name: f.values[0] for f in program.game.fields} if program.game else {}
    turn = game.get("turn") or game.get("flow")
    if turn is None or turn.id not in program.procedures:
        return None, {}
    start = program.procedures[turn.id]
    # each procedure on the way, with its names that are the turn's parameters (turn parameter -> its name)
    stack = [(start, {x.name: x.name for x in start.params})]
    seen = {start.name}
    while stack:
        proc, names = stack.pop()
        for s in ast.statements(proc.body):
            if isinstance(s, ast.Offer):
                return s, _mirrors(start, names)
            if isinstance(s, ast.CallProc) and s.name not in seen and s.name in program.procedures:
                seen.add(s.name)
                callee = program.procedures[s.name]
                passed = {mine: prm.name for prm, arg in zip(callee.params, s.args)
                          for mine, here in names.items() if isinstance(arg, ast.Name) and arg.id == here}
                stack.append((callee, passed))
    return None, {}


def _mirrors(turn: ast.ProcedureDecl, names: dict[str, str]) -> dict[str, str]:
    """Offer name -> the var the turn procedure sets to the parameter it comes from (``set v = p``)."""
    out = {}
    for s in ast.statements(turn.body):
        if isinstance(s, ast.SetVar) and s.target.index is None and isinstance(s.value, ast.Name) \
                and s.value.id in names and names[s.value.id] not in out:
            out[names[s.value.id]] = s.target.name
    return out


def _actor(offer: ast.Offer | None, action: str | None) -> int | None:
    """Which argument of ``action`` is the player the offer proposes it to (``offer p { act(p, d) … }``),
    or None when the offer does not list the action that way."""
    if offer is None or action is None or not isinstance(offer.player, ast.Name):
        return None
    for item in offer.items:
        if isinstance(item, ast.OfferAction) and item.action == action:
            for i, arg in enumerate(item.args):
                if isinstance(arg, ast.Name) and arg.id == offer.player.id:
                    return i
    return None


def _player(enc: Encoder, offer, mirrors: dict, action: str | None, move_values: list, varvals: dict) -> int:
    """The player the witness's decision point is for: the move's argument the offer proposes it with (or
    else its first player argument); else the value the model gives the var that mirrors the offer's
    player; else the first seat."""
    if action is not None:
        types = enc.param_types[action]
        at = _actor(offer, action)
        if at is None:
            at = next((i for i, t in enumerate(types) if t == PLAYER), None)
        if at is not None and at < len(move_values) and isinstance(move_values[at], int):
            return move_values[at]
    if offer is not None and isinstance(offer.player, ast.Name):
        value = varvals.get((mirrors.get(offer.player.id), None))
        if isinstance(value, int):
            return value
    return 0


def _read_selections(program) -> set[str]:
    """The kinds whose `selected(…)` a state's rules read (a quantity, a rule, an action, a power, an invariant,
    a procedure): a witness holds the cards of each that its model selects."""
    decls = (program.quantities, program.rules, program.actions, program.cards, program.procedures,
             program.triggers, program.windows, {c.name: c for c in program.invariants()})
    return set().union(*(kinds_read(tuple(table.values())) for table in decls))


def _selected_in(enc: Encoder, model, kinds: set[str]) -> tuple[set[int], set[str]]:
    """(the definitions of ``kinds`` whose *selected* Boolean (:class:`~checker.solver.selection.Chosen`) the model
    makes true: a search's selection, the kinds the model selects cards of).  Nothing from an encoder with no such
    Booleans (`diff`'s), nor of a kind the model says nothing of: such a witness holds the cards it places (and
    needs), as the game's set-up would."""
    chosen = getattr(enc, "chosen", None)
    if chosen is None:
        return set(), set()
    E = enc.E
    out, decided = set(), set()
    for kind in kinds:
        for i in E.selected.get(kind, ()):
            v = model.eval(chosen.flag_of(i), model_completion=False)
            if z3.is_true(v) or z3.is_false(v):
                decided.add(kind)
                if z3.is_true(v):
                    out.add(E.defs[i])
    return out, decided


def witness_files(search, enc: Encoder, model, action: str | None, args: tuple,
                  focus: set | None = None) -> tuple[dict, dict | None, list]:
    """(state file, move file, the situation in the spec's terms) for ``model``; the situation says the
    cells in ``focus`` (those the conflicting rules read), or all of them."""
    E, p = search.engine, search.p
    vals = _Values(E)
    players = search.players or _value(model, enc.n)
    placed: dict[int, tuple] = {}
    varvals: dict[tuple, object] = {}
    situation: list[str] = []
    records: dict[tuple, dict] = {}
    uses: dict[tuple, dict] = {}        # (player, card, power) -> {scope: used then}
    for key, cell in enc.cells.made.items():
        value = _value(model, cell)
        if key[0] == "in" and value:
            _, zone, index, inst = key
            if enc.zone_index_types.get(zone) == PLAYER and index >= players:
                continue
            placed[inst] = (zone, index)
            if focus is None or key in focus:
                situation.append((2, E.defs[inst], f"{cell}"))
        elif key[0] == "used":
            _, player, inst, name, scope = key
            if player < players:
                uses.setdefault((player, inst, name), {})[scope] = value
                if value and (focus is None or key in focus):
                    situation.append((2, E.defs[inst], f"{cell}"))
        elif key[0] == "var" and NONE in (key[2] if isinstance(key[2], tuple) else (key[2],)):
            continue        # read at `none`, or a record with a field `none` (where the state holds one): no cell
        elif key[0] == "var" and len(key) == 4:       # a field of a record-valued var: set with the others
            records.setdefault(key[:3], {})[key[3]] = value
        elif key[0] == "var":
            _, name, index = key
            ty = enc.var_types[name]
            if enc.index_types.get(name) == PLAYER and index >= players:
                continue
            runtime = enc.to_runtime(value, ty)
            default = 0 if p.vars[name].counter else E.var_defaults[name]
            varvals[(name, index)] = runtime
            if runtime != default and (focus is None or key in focus):
                situation.append((0, 0, f"{cell} = {enc.show(value, ty)}"))
    for (_, name, index), fields in records.items():
        ty = enc.var_types[name]
        ty = ty.inner if isinstance(ty, Opt) else ty
        names = [f.name for f in p.records[ty.name].fields]
        if set(names) <= set(fields):
            varvals[(name, index)] = enc.to_runtime(tuple(fields[n] for n in names), ty)
    needed = {E.defs[i] for i in placed}
    # a kind whose selection the rules read (`count(c in selected(Character))`): the cards the model selects, as
    # the search read them (a legal selection when the question asserted the constraints: 8 or 9 characters)
    chosen, decided = _selected_in(enc, model, _read_selections(p))
    needed |= chosen
    # a var indexed by a card the model does not select: none in the game (the interpreter has no such card)
    absent = {(name, index) for name, index in varvals if isinstance(enc.index_types.get(name), KindT)
              and index is not None and E.def_kind[E.definition(index)] in decided
              and E.definition(index) not in chosen}
    if absent:
        varvals = {key: v for key, v in varvals.items() if key not in absent}
        gone = tuple(f"{enc.cells.made[('var', *key)]} = " for key in absent)
        situation = [line for line in situation if not line[2].startswith(gone)]
    # a power used: in this turn and round (the state's turn 1, round 1) or an earlier one (0), as its cells say
    used = {k: v for k, v in uses.items() if any(v.values())}
    needed |= {E.defs[inst] for _, inst, _ in used}
    for (name, index), v in varvals.items():
        ty = enc.var_types[name]
        inner = ty.inner if isinstance(ty, Opt) else ty
        if isinstance(inner, KindT) and v is not None:
            needed.add(E.definition(v))
        ity = enc.index_types.get(name)
        if isinstance(ity, KindT) and index is not None:
            needed.add(E.definition(index))
    move_values = []
    if action is not None:
        types = enc.param_types[action]
        for a, t in zip(args, types):
            if isinstance(a, list):         # a set: the values whose guard the model makes true
                a = [(True, x) for g, x in a if is_const(g) and g or not is_const(g) and _value(model, g)]
            if isinstance(a, tuple):        # a record: each field's value
                a = tuple(f if isinstance(f, (int, bool)) else _value(model, f) for f in a)
            v = enc.to_runtime(_value(model, a) if not isinstance(a, (int, bool, list, tuple)) else a, t)
            move_values.append(v)
            inner = t.inner if isinstance(t, Opt) else t
            if isinstance(inner, KindT) and v is not None:
                needed.add(E.definition(v))
    # the decision point: the turn's offer, for the player who acts, with a card of the kind its names need
    # (the one the player holds, in a zone indexed by player; or the move's own; or one the model leaves free)
    offer, mirrors = _turn_offer(p)
    offer_names = Scopes(search.typed).at.get(id(offer), {}) if offer is not None else {}
    kind_name = next(((n, t.name) for n, t in offer_names.items() if isinstance(t, KindT)), (None, None))
    card_name, kind = kind_name
    held_in = next((z for z, decl in p.zones.items() if decl.kind.name == kind and decl.index is not None
                    and decl.index.name == "Player"), None)
    player = _player(enc, offer, mirrors, action, move_values, varvals)
    character = None
    if kind is not None:
        current = [v for (name, index), v in varvals.items() if index is None and v is not None
                   and enc.var_types[name] in (KindT(kind), Opt(KindT(kind)))]
        mirrored = varvals.get((mirrors.get(card_name), None))
        character = mirrored if mirrored is not None else current[0] if current else None
        if character is None:
            character = next((i for i, (z, x) in placed.items() if z == held_in and x == player), None)
        if character is None and action is None and held_in is not None:    # any player who holds one will do
            held = next(((x, i) for i, (z, x) in sorted(placed.items()) if z == held_in), None)
            if held is not None:
                player, character = held
        if character is None:
            character = next((v for v, t in zip(move_values, enc.param_types.get(action, ()))
                              if isinstance(v, int) and v >= 0 and t == KindT(kind)), None)
        if character is None:   # a card the model says nothing against, put in front of the player: one it
            free = [i for i in E.selected.get(kind, ())                 # selects, when it selects that kind's
                    if kind not in decided or E.defs[i] in chosen]
            character = next((i for i in free if ("in", held_in, player, i) not in enc.cells.made
                              and i not in placed), None)
            if held_in is not None and character is not None:
                placed[character] = (held_in, player)
            elif character is None:     # none: one it selects is named at the decision point, where the model
                character = next((i for i in free if i not in placed), None)    # leaves it (not a card more)
                character = next(iter(free), None) if character is None else character
        if character is not None:
            needed.add(E.defs[character])
    selection = {kind: [E.def_names[d] for d in sorted(needed, reverse=True) if E.def_kind[d] == kind]
                 for kind in p.kinds}
    zones: dict = {}
    for inst, (zone, index) in sorted(placed.items()):
        label = vals.labels[inst]
        if index is None:
            zones.setdefault(zone, []).append(label)
        else:
            ity = enc.zone_index_types[zone]
            zones.setdefault(zone, {}).setdefault(vals.write_key(index, ity), []).append(label)
    # a selected card the model says nothing about goes to its kind's start zone, unless the model says it
    # is not there; then to a zone of its kind the model does not mention
    for d in needed:
        for inst in E.instances.get(d, ()):     # a card with no copy in play (a negative id) has none
            if inst in placed:
                continue
            kind = E.def_kind[d]
            start = E.starts.get(kind)
            if ("in", start, None, inst) in enc.cells.made:
                for zone, zkind in enc.zone_kind.items():
                    if zkind == kind and p.zones[zone].index is None and ("in", zone, None, inst) not in enc.cells.made:
                        zones.setdefault(zone, []).append(vals.labels[inst])
                        break
    vars_out: dict = {}
    for (name, index), v in varvals.items():
        ty = enc.var_types[name]
        if index is None:
            vars_out[name] = vals.write(v, ty)
        else:
            ity = enc.index_types[name]
            vars_out.setdefault(name, {})[vals.write_key(enc.to_runtime(index, ity), ity)] = vals.write(v, ty)
    names = {}
    for name, ty in offer_names.items():
        if ty == PLAYER:
            names[name] = vals.write(player, PLAYER)
        elif character is not None and isinstance(ty, KindT) and ty.name == E.def_kind[E.defs[character]]:
            names[name] = vals.labels[character]
    state = {"format": FORMAT, "game": p.game.name if p.game else None, "players": players,
             "selection": {k: v for k, v in selection.items() if v}, "turn": 1, "round": 1,
             "vars": vars_out, "zones": zones,
             "decision": {"kind": "offer", "at": site_label(offer.span) if offer else None,
                          "player": vals.write(player, PLAYER), "names": names}}
    if used:
        state["uses"] = [{"player": vals.write(pl, PLAYER), "card": vals.labels[inst], "power": name,
                          "turn": int(bool(v.get("turn"))), "round": int(bool(v.get("round")))}
                         for (pl, inst, name), v in sorted(used.items())]
    move = None
    if action is not None:
        move = {"format": MOVE_FORMAT, "player": vals.write(player, PLAYER), "action": action,
                "args": [vals.write(v, t) for v, t in zip(move_values, enc.param_types[action])]}
        shown = ", ".join(str(a) for a in move["args"])
    # what matters first: the vars, then where the move's cards are, then the rest
    moved = {E.defs[v] for v, t in zip(move_values, enc.param_types[action]) if v is not None
             and isinstance(t.inner if isinstance(t, Opt) else t, KindT)} if action else set()
    lines = [text for _, _, text in sorted(set((0 if prio == 0 else 1 if d in moved else 2, 0, text)
                                                for prio, d, text in situation))]
    head = [f"player_count = {players}"] + ([f"{action}({shown})"] if action else [])
    if offer is None:           # no decision point to put the witness at: it is said, not written
        return None, None, head + lines
    return state, move, head + lines


def interpreter_rules(engine: Engine, scopes: Scopes, state: dict, move: dict) -> tuple[set, set] | None:
    """Load a witness into an interpreter (its game is replaced) and evaluate every rule about the move's
    action there: (the prohibitions that apply, the permissions that apply).  None: the witness does not
    load."""
    from checker.solver.statefile import StateFileError
    try:
        loaded = load_state(engine, state, scopes)
        (kind, action, args), _ = load_move(loaded, move)
    except (StateFileError, ValueError):
        return None
    engine.invalidate()
    forbids, permits = set(), set()
    env = dict(zip(SLOTS, args))
    try:
        for rule, kind, binders, _value, when, this in engine.rules_for[action]:
            env.update(this)
            if when is None or when(env):
                (forbids if kind == "forbid" else permits).add(rule)
    except SpecRuntimeError:
        return None
    return forbids, permits
