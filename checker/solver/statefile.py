"""State and move files: a game stopped at a decision point, and a move to judge there, as JSON.

The formats are documented in ``docs/formats.md`` and described by the JSON Schemas in
``checker/schemas/``.  Values are written in the spec's terms: a player is ``"Joueur 2"``, a
card is its printed name (``"Nom"``; the second copy of a card that has several is
``"Nom#2"``), an enum member is its name, ``none`` is ``null``, a collection is a list.

Loading checks the file against the schema, then against the spec — unknown names (with a
"did you mean"), values of the wrong type, negative counters, a card in two places, a
decision point that does not exist — and reports every problem with the JSON path of the
offending field.  It never ends in a traceback.
"""

from __future__ import annotations

import dataclasses
import json
from functools import cache
from pathlib import Path

from checker.base.documents import MAX_PROBLEMS, ROOT, DocumentError, excerpt, schema, schema_problems
from checker.front.program import did_you_mean
from checker.runtime.engine import Decision, Engine, Power
from checker.runtime.state import SpecRuntimeError, places
from checker.front import ast
from checker.solver.eachpoint import dump_chosen, read_chosen
from checker.solver.points import KINDS, Move, Point
from checker.solver.scopes import Scopes
from checker.solver.shapefile import key_text, read_key_text, read_shape, write_shape
from checker.front.types import BOOL, INT, PLAYER, TEXT, Coll, EnumT, GridT, KindT, Opt, RecordT, Ty

__all__ = ["FORMAT", "StateFileError", "dump_state", "load_state", "load_move", "dump_move", "site_label",
           "player_range"]

FORMAT = "rulebook-state/1"
MOVE_FORMAT = "rulebook-move/1"


class StateFileError(DocumentError):
    """What is wrong with a state or move file: a list of (JSON path, message)."""


def _hinted(message: str, name: str, candidates, quote: str = "") -> str:
    """``message``, with "did you mean" the closest of ``candidates`` to ``name`` when there is one."""
    hint = did_you_mean(str(name), candidates, quote)
    return message + (f"; {hint}" if hint else "")


# ---------------------------------------------------------------- values

class _Values:
    """Interpreter values ⇄ JSON values, for one started game."""

    def __init__(self, engine: Engine):
        self.E = engine
        self.labels: dict[int, str] = {}
        self.by_label: dict[str, int] = {}
        for d, copies in engine.instances.items():
            for k, inst in enumerate(copies):
                label = engine.def_names[d] + (f"#{k + 1}" if k else "")
                self.labels[inst] = label
                self.by_label[label] = inst

    def write(self, value, ty: Ty):
        if isinstance(ty, Coll):
            return [self.write(v, ty.elem) for v in value]
        if value is None:
            return None
        if isinstance(ty, Opt):
            ty = ty.inner
        if ty == PLAYER:
            return f"Joueur {value + 1}"
        if isinstance(ty, KindT):
            return self.labels[value] if value >= 0 else self.E.def_names[value]
        if isinstance(ty, (GridT, RecordT)):
            return write_shape(self, value, ty)
        return value

    def write_key(self, value, ty: Ty) -> str:
        """An index as the key of a JSON object."""
        if isinstance(ty, (GridT, RecordT)):
            return key_text(self, value, ty)
        if isinstance(ty, EnumT):
            return value
        written = self.write(value, ty)
        return written if isinstance(written, str) else json.dumps(written, ensure_ascii=False)

    def read_key(self, key: str, ty: Ty, path: str, problems: list):
        if isinstance(ty, (GridT, RecordT)):
            return read_key_text(self, key, ty, path, problems)
        return self.read(key, ty, path, problems)

    def read(self, data, ty: Ty, path: str, problems: list):
        """A JSON value → interpreter value (a problem is recorded, and None returned, if it is not one)."""
        if isinstance(ty, Coll):
            if not isinstance(data, list):
                problems.append((path, f"expected a list, not {excerpt(data)}"))
                return ()
            return tuple(self.read(v, ty.elem, f"{path}/{i}", problems) for i, v in enumerate(data))
        if data is None:
            if isinstance(ty, Opt):
                return None
            problems.append((path, f"null is not a {ty}"))
            return None
        if isinstance(ty, Opt):
            ty = ty.inner
        if ty == PLAYER:
            return self.player(data, path, problems)
        if isinstance(ty, KindT):
            return self.card(data, path, problems, kind=ty.name, definition_ok=True)
        if isinstance(ty, EnumT):
            members = [m.name for m in self.E.program.enums[ty.name].members]
            if data not in members:
                hint = did_you_mean(str(data), members, '"')
                problems.append((path, f"{excerpt(data)} is not a {ty.name} "
                                       f"({', '.join(members)})" + (f"; {hint}" if hint else "")))
                return None
            return data
        if ty == BOOL:
            if not isinstance(data, bool):
                problems.append((path, f"expected true or false, not {excerpt(data)}"))
            return bool(data)
        if ty == INT:
            if isinstance(data, bool) or not isinstance(data, int):
                problems.append((path, f"expected a whole number, not {excerpt(data)}"))
                return 0
            return data
        if ty == TEXT:
            return str(data)
        if isinstance(ty, (GridT, RecordT)):
            return read_shape(self, data, ty, path, problems)
        problems.append((path, f"no JSON form for values of type {ty}"))
        return None

    def player(self, data, path, problems):
        n = self.E.st.n
        if isinstance(data, str) and data.startswith("Joueur "):
            try:
                k = int(data[7:])
            except ValueError:
                k = 0
            if 1 <= k <= n:
                return k - 1
            problems.append((path, f"there is no {data}: this game has {n} players (Joueur 1 … Joueur {n})"))
            return None
        problems.append((path, f"expected a player (\"Joueur 1\" … \"Joueur {n}\"), not "
                               f"{excerpt(data)}"))
        return None

    def unknown_card(self, label: str) -> str:
        """Why ``label`` names no card of this game, and how its copies are named."""
        name, _, k = label.rpartition("#")
        definition = self.E.def_ids.get(name) if name else None
        if definition is not None and k.isdigit():
            copies = self.E.instances.get(definition, ())
            if not copies:
                return f"unknown card \"{label}\": \"{name}\" is not in this game's selection"
            shown = ", ".join(f'"{self.labels[c]}"' for c in copies)
            return (f"unknown card \"{label}\": \"{name}\" has {len(copies)} "
                    f"cop{'ies' if len(copies) > 1 else 'y'} in this game, named as `moves` prints them: {shown} "
                    f"(the first is also \"{name}#1\")")
        hint = did_you_mean(label, list(self.by_label), '"')
        return f"unknown card \"{label}\"" + (f"; {hint}" if hint else "")

    def card(self, data, path, problems, kind: str | None = None, definition_ok: bool = False):
        """A physical card of this game, by its label; with ``definition_ok`` (a value, not a card that is
        somewhere), also a card of the spec that is not in the game: its definition, as a literal is."""
        E = self.E
        if not isinstance(data, str):
            problems.append((path, f"expected a card name, not {excerpt(data)}"))
            return None
        inst = self.by_label.get(data)
        if inst is None and data.endswith("#1"):        # the first copy, named like the others
            inst = self.by_label.get(data[:-2])
        if inst is None and definition_ok and data in E.def_ids and not E.instances.get(E.def_ids[data]):
            if kind is not None and E.def_kind[E.def_ids[data]] != kind:
                problems.append((path, f"\"{data}\" is a {E.def_kind[E.def_ids[data]]}, not a {kind}"))
                return None
            return E.def_ids[data]
        if inst is None:
            if data in E.def_ids:
                problems.append((path, f"\"{data}\" is not in this game's selection"))
            else:
                problems.append((path, self.unknown_card(data)))
            return None
        if kind is not None and E.def_kind[E.defs[inst]] != kind:
            problems.append((path, f"\"{data}\" is a {E.def_kind[E.defs[inst]]}, not a {kind}"))
            return None
        return inst


# ---------------------------------------------------------------- dumping

def site_label(span) -> str:
    return f"{Path(span.file).name}:{span.line}:{span.column}"


def dump_state(engine: Engine, decision: Decision, scopes: Scopes, spec: list[str] | None = None) -> dict:
    """The state of ``engine`` at ``decision`` (a decision its observer or an agent was given)."""
    E, st, p = engine, engine.st, engine.program
    vals = _Values(E)
    resolve = scopes.resolve
    out: dict = {"format": FORMAT, "game": p.game.name if p.game else None}
    if spec:
        out["spec"] = list(spec)
    out["players"] = st.n
    out["selection"] = {kind: [E.def_names[d] for d in dict.fromkeys(E.defs[i] for i in insts)]
                        for kind, insts in E.selected.items() if insts}
    out["turn"], out["round"] = st.turn, st.round
    out["vars"] = {}
    for name, var in p.vars.items():
        ty = resolve(var.type)
        value = st.vars[name]
        if var.index is None:
            out["vars"][name] = vals.write(value, ty)
        else:
            ity = resolve(var.index)
            default = 0 if var.counter else E.var_defaults[name]
            entries = {vals.write_key(k, ity): vals.write(v, ty)
                       for k, v in sorted(value.items(), key=lambda kv: str(kv[0])) if v != default}
            if entries:
                out["vars"][name] = entries
    out["zones"] = {}
    for name, zone in p.zones.items():
        content = st.zones[name]
        if zone.index is None:
            cards = [vals.labels[c] for c in content]
            out["zones"][name] = cards[::-1] if zone.ordered else cards
        else:
            ity = resolve(zone.index)
            entries = {}
            for k, cards in sorted(content.items(), key=lambda kv: str(kv[0])):
                if cards:
                    shown = [vals.labels[c] for c in cards]
                    entries[vals.write_key(k, ity)] = shown[::-1] if zone.ordered else shown
            out["zones"][name] = entries
    out["uses"] = [{"player": vals.write(pl, PLAYER), "card": vals.labels[card], "power": power,
                    "turn": t, "round": r} for (pl, card, power), (t, r) in sorted(st.uses.items())]
    out["decision"] = _dump_point(E, decision, scopes, vals)
    return out


def _dump_point(E: Engine, decision: Decision, scopes: Scopes, vals: _Values) -> dict:
    site, env = decision.site, decision.env or {}
    out: dict = {}
    if isinstance(site, Power):
        card = E.program.cards[E.def_names[site.card]]
        pw = next(x for x in card.powers if x.name == site.name)
        types = scopes.power_names(card, pw)
        out = {"kind": "react", "card": vals.labels[env["this"]], "power": site.name}
    else:
        types = scopes.at.get(id(site), {})
        out = {"kind": KINDS[type(site)], "at": site_label(site.span)}
    out["player"] = vals.write(decision.player, PLAYER)
    out["names"] = {k: vals.write(env[k], t) for k, t in types.items() if k in env and t is not None}
    if isinstance(site, ast.ChooseEach):
        out["chosen"] = dump_chosen(decision.chosen, scopes.choice_type(site), vals)
    return out


def dump_move(engine: Engine, move: Move, player: int, choose_type: Ty | None = None) -> dict:
    vals = _Values(engine)
    out = {"format": MOVE_FORMAT, "player": vals.write(player, PLAYER)}
    kind = move[0]
    if kind == "action":
        out["action"] = move[1]
        out["args"] = [vals.write(v, t) for v, t in zip(move[2], engine.param_types[move[1]])]
    elif kind == "power":
        out["power"], out["card"] = move[2], vals.labels[move[1]]
    elif kind == "finish":
        out["finish"] = move[1]
    elif kind == "react":
        out["react"] = move[1]
    elif kind == "nothing":
        out["nothing"] = True
    else:
        out["choose"] = vals.write(move[1], choose_type)
    return out


# ---------------------------------------------------------------- loading

@dataclasses.dataclass
class Loaded:
    engine: Engine
    point: Point
    values: _Values
    choose_type: Ty | None      # the type of the value a `choose` move names
    resume: object = None       # the ``resume`` section, read (checker.solver.framefile.Resume), when there is one


def load_state(engine: Engine, data, scopes: Scopes) -> Loaded:
    """Put ``engine`` in the state the file describes; return the decision point.  Raises
    :class:`StateFileError` with every problem found."""
    problems = schema_problems(data, "state")
    if problems:
        raise StateFileError(problems)
    E, p = engine, engine.program
    if p.game is not None and data["game"] != p.game.name:
        problems.append(("game", f"this state is of \"{data['game']}\", the spec is \"{p.game.name}\""))
    players = data["players"]
    low, high = player_range(p)
    if not low <= players <= high:
        problems.append(("players", f"{p.game.name if p.game else 'the game'} is for {low} to {high} players, "
                                    f"not {players}"))
        raise StateFileError(problems)
    selection: dict[str, list[str]] = {}
    for kind, names in data["selection"].items():
        if len(problems) > MAX_PROBLEMS:
            break
        if kind not in p.kinds:
            problems.append((f"selection/{kind}", _hinted("unknown kind of card", kind, p.kinds)))
            continue
        for i, name in enumerate(names):
            if len(problems) > MAX_PROBLEMS:
                break
            if name not in p.cards or p.cards[name].kind != kind:
                problems.append((f"selection/{kind}/{i}", _hinted(f"no {kind} named \"{name}\"", name,
                                                                  [c.name for c in p.cards_of(kind)], '"')))
            elif name in selection.get(kind, []):
                problems.append((f"selection/{kind}/{i}", f"\"{name}\" is selected twice"))
            else:
                selection.setdefault(kind, []).append(name)
    if problems:
        raise StateFileError(problems)
    E.start(selection, players, 0, [])
    st = E.st
    st.turn, st.round = data.get("turn", 0), data.get("round", 0)
    vals = _Values(E)
    resolve = scopes.resolve
    for name, value in data.get("vars", {}).items():
        if len(problems) > MAX_PROBLEMS:        # a million unknown names: a "did you mean" each took minutes
            break
        path = f"vars/{name}"
        var = p.vars.get(name)
        if var is None:
            problems.append((path, _hinted("unknown var or counter", name, p.vars)))
            continue
        ty = resolve(var.type)
        for index, raw, where in _entries(name, var, value, path, resolve, vals, problems):
            x = vals.read(raw, ty, where, problems)
            if index is None:
                st.vars[name] = x
            else:
                st.vars[name][index] = x
            _check_counter(var, x, where, problems)
    # cards: every one listed goes where it is listed, the others to their kind's start zone
    placed: dict[int, str] = {}
    listed: list[tuple[str, object, list[int]]] = []
    physical = sum(len(insts) for insts in E.selected.values())
    for name, value in data.get("zones", {}).items():
        if len(problems) > MAX_PROBLEMS:
            break
        path = f"zones/{name}"
        zone = p.zones.get(name)
        if zone is None:
            problems.append((path, _hinted("unknown zone", name, p.zones)))
            continue
        for index, cards, where in _entries(name, zone, value, path, resolve, vals, problems):
            if not isinstance(cards, list):
                problems.append((where, "expected a list of cards"))
                continue
            if len(cards) > physical:       # said once, not once per card (a million of them: minutes)
                problems.append((where, f"lists {len(cards):,} cards; the game has {physical}"))
                continue
            insts = []
            for i, label in enumerate(cards):
                inst = vals.card(label, f"{where}/{i}", problems, kind=zone.kind.name)
                if inst is None:
                    continue
                if inst in placed:
                    problems.append((f"{where}/{i}", f"\"{label}\" is already in {placed[inst]}: a card is in one "
                                                     f"place only"))
                    continue
                placed[inst] = where
                insts.append(inst)
            listed.append((name, index, insts[::-1] if zone.ordered else insts))
    if problems:
        raise StateFileError(problems)
    for zname in st.zones:
        st.zones[zname] = places() if isinstance(st.zones[zname], dict) else []     # as Engine.start makes them
    st.where.clear()
    st.counts.clear()
    for kind, zone in E.starts.items():
        for inst in E.selected.get(kind, ()):
            if inst not in placed:
                st.put(inst, zone, None, "top")
    for name, index, insts in listed:
        for inst in insts:
            st.put(inst, name, index, "top")
    for i, use in enumerate(data.get("uses", [])):
        path = f"uses/{i}"
        pl = vals.player(use["player"], f"{path}/player", problems)
        card = vals.card(use["card"], f"{path}/card", problems)
        if card is not None and use["power"] not in [x.name for x in E.powers_of.get(E.def_of[card], ())]:
            problems.append((f"{path}/power", f"\"{use['card']}\" has no power {use['power']}"))
        if pl is not None and card is not None:
            st.uses[(pl, card, use["power"])] = (use.get("turn", st.turn), use.get("round", st.round))
    E.invalidate()
    st.version += 1
    if not problems:
        try:
            broken = E.broken_invariants()      # a state no game of this spec can reach
        except SpecRuntimeError as exc:
            problems.append((ROOT, f"the spec's invariants cannot be evaluated on this state: {exc.message}"
                                   + (f" ({exc.span})" if exc.span else "")))
            broken = []
        for inv in broken:
            problems.append((ROOT, f"the state breaks the invariant {inv.name} ({inv.span})"
                                   + (f": {inv.message}" if inv.message else "")))
    point, choose_type = _load_point(E, data["decision"], scopes, vals, problems)
    resume = None
    if "resume" in data and not problems:
        from checker.solver.framefile import read_resume
        resume = read_resume(E, scopes, data["resume"], vals, point.site, problems)
    if problems:
        raise StateFileError(problems)
    return Loaded(E, point, vals, choose_type, resume)


def _entries(name: str, decl, value, path: str, resolve, vals: _Values, problems: list) -> list[tuple]:
    """The entries of a var's or zone's value in a state file: [(index, value, JSON path)]; one entry with
    index None when it is not indexed.  A bad index is a problem, and its entry is left out."""
    if decl.index is None:
        return [(None, value, path)]
    if not isinstance(value, dict):
        problems.append((path, f"{name} is indexed by {decl.index.name}: expected an object"))
        return []
    ity = resolve(decl.index)
    out = []
    for key, raw in value.items():
        if len(problems) > MAX_PROBLEMS:        # 600,000 bad indices: 850 MB of problems
            break
        index = vals.read_key(key, ity, f"{path}/{key}", problems)
        if index is not None:
            out.append((index, raw, f"{path}/{key}"))
    return out


def player_range(p) -> tuple[int, int]:
    if p.game is None:
        return 1, 100
    for f in p.game.fields:
        if f.name == "players":
            e = f.values[0]
            lo = getattr(getattr(e, "left", None), "value", None)
            hi = getattr(getattr(e, "right", None), "value", None)
            if lo is not None and hi is not None:
                return lo, hi
    return 1, 100


def _check_counter(var, value, path, problems) -> None:
    if var.counter and isinstance(value, int) and value < 0:
        problems.append((path, f"{var.name} is a counter: {value} is negative"))


def _load_point(E: Engine, d: dict, scopes: Scopes, vals: _Values, problems: list):
    kind = d["kind"]
    player = vals.player(d["player"], "decision/player", problems)
    if kind == "react":
        card = vals.card(d.get("card"), "decision/card", problems)
        if card is None:
            return None, None
        power = next((x for x in E.powers_of.get(E.def_of[card], ()) if x.name == d.get("power")), None)
        if power is None or power.window is None:
            names = [x.name for x in E.powers_of.get(E.def_of[card], ()) if x.window is not None]
            hint = did_you_mean(str(d.get("power")), names, "")
            problems.append(("decision/power", f"\"{d.get('card')}\" has no power {d.get('power')} that reacts to "
                                               f"a window" + (f"; {hint}" if hint else "")))
            return None, None
        cdecl = E.program.cards[E.def_names[power.card]]
        types = scopes.power_names(cdecl, next(x for x in cdecl.powers if x.name == power.name))
        env = _read_names(d.get("names", {}), types, set(types) - {"this"}, vals, problems)
        env.setdefault("this", card)
        return Point(power, player, env, card), None
    at = d.get("at", "")
    site = _find_site(scopes, at)
    if site is None:
        known = sorted(site_label(s.span) for s in scopes.sites.values() if KINDS.get(type(s)) == kind)
        hint = did_you_mean(at, known, '"')
        problems.append(("decision/at", f"no {kind} statement at \"{at}\"" + (f"; {hint}" if hint else "")))
        return None, None
    expected = KINDS[type(site)]
    if expected != kind:
        problems.append(("decision/kind", f"the statement at {at} is a {expected}, not a {kind}"))
    types = scopes.at.get(id(site), {})
    bound = scopes.bound.get(id(site), set())
    each = isinstance(site, ast.ChooseEach)
    if each:        # the name of who chooses is the decider's: it may be left out
        bound = bound - {site.player}
    env = _read_names(d.get("names", {}), types, bound, vals, problems)
    choose_type = scopes.choice_type(site)
    chosen: tuple = ()
    if "chosen" in d and not (each and kind == "each"):
        problems.append(("decision/chosen", "only the decision of an `each … chooses` records choices made "
                                            "before it"))
    elif each and player is not None:
        if env.get(site.player, player) != player:
            problems.append((f"decision/names/{site.player}", f"{site.player} is who chooses here: it is "
                                                              f"{d['player']}, the player who decides"))
        env[site.player] = player
        if not problems:
            chosen = read_chosen(E, site, env, player, d.get("chosen", []), choose_type, vals, problems)
    return Point(site, player, env, chosen=chosen), choose_type


def _find_site(scopes: Scopes, at: str):
    parts = at.rsplit(":", 2)
    if len(parts) != 3:
        return None
    file, line, col = parts
    for key, site in scopes.sites.items():
        s = site.span
        if Path(s.file).name == Path(file).name and str(s.line) == line and str(s.column) == col:
            return site
    return None


def _read_names(data: dict, types: dict, bound: set, vals: _Values, problems: list) -> dict:
    """The local names of a decision point; every name that has a value on every path to it must be given."""
    env = {}
    for name, value in data.items():
        if name not in types or types[name] is None:
            hint = did_you_mean(name, [k for k, t in types.items() if t is not None], "")
            problems.append((f"decision/names/{name}", "no such name in scope here" + (f"; {hint}" if hint else "")))
            continue
        env[name] = vals.read(value, types[name], f"decision/names/{name}", problems)
    missing = [n for n in types if n in bound and types[n] is not None and n not in data]
    if missing:
        problems.append(("decision/names", f"no value for {', '.join(missing)}: the names in scope at this decision "
                                           f"point must all be given ({', '.join(f'{n}: {types[n]}' for n in missing)})"))
    return env


@cache
def _move_kinds() -> dict[str, tuple[str, ...]]:
    """The members of each kind of move (besides "player" and "format"), named by its first: the move schema's
    ``oneOf``, each of whose branches requires them all."""
    return {branch["required"][0]: tuple(branch["required"]) for branch in schema("move")["oneOf"]}


def load_move(loaded: Loaded, data) -> tuple[Move, int | None]:
    """A move file → (move, the player making it).  A member of another kind of move is refused, not ignored:
    a move is exactly what `dump_move` writes for it (a power has no parameters — what it needs it asks as it
    runs — so ``args`` beside ``power`` would be values nobody reads)."""
    problems = schema_problems(data, "move")
    if problems:
        raise StateFileError(problems)
    kinds = _move_kinds()
    kind = next(k for k, keys in kinds.items() if all(x in data for x in keys))    # the schema: exactly one
    for key in data:
        if key not in ("player", "format") and key not in kinds[kind]:
            takes = " and ".join(f"`{k}`" for k in kinds[kind])
            why = "; a power has no parameters" if key == "args" and kind == "power" else ""
            problems.append((key, f"a move with `{kind}` takes {takes} only, not `{key}`{why}"))
    if problems:
        raise StateFileError(problems)
    E, vals = loaded.engine, loaded.values
    player = vals.player(data["player"], "player", problems)
    move: Move | None = None
    if "action" in data:
        name = data["action"]
        if name not in E.program.actions:
            problems.append(("action", _hinted(f"unknown action {name}", name, E.program.actions)))
        else:
            types = E.param_types[name]
            args = data.get("args", [])
            if len(args) != len(types):
                problems.append(("args", f"{name} takes {len(types)} argument(s), not {len(args)}"))
            else:
                move = ("action", name, tuple(vals.read(a, t, f"args/{i}", problems)
                                              for i, (a, t) in enumerate(zip(args, types))))
    elif "power" in data:
        card = vals.card(data.get("card"), "card", problems)
        if card is not None:
            names = [x.name for x in E.powers_of.get(E.def_of[card], ())]
            if data["power"] not in names:
                problems.append(("power", _hinted(f"\"{data.get('card')}\" has no power {data['power']}",
                                                  data["power"], names)))
            elif E.controller(card) is None:
                problems.append(("card", f"\"{data.get('card')}\" is held by no player: nobody can use its powers"))
            else:
                move = ("power", card, data["power"])
    elif "finish" in data:
        move = ("finish", data["finish"])
    elif "react" in data:
        move = ("react", bool(data["react"]))
    elif data.get("nothing"):
        move = ("nothing",)
    elif "choose" in data:
        if loaded.choose_type is None:
            problems.append(("choose", "this decision point is not a choice"))
        else:
            move = ("choose", vals.read(data["choose"], loaded.choose_type, "choose", problems))
    if problems:
        raise StateFileError(problems)
    return move, player


def copies_of(loaded: Loaded, move: Move, data: dict) -> list[Move]:
    """The move with each physical copy of a card named without ``#k`` (any copy will do: cards compare by
    name, and the copy the player holds is the one meant)."""
    E = loaded.engine
    if move[0] == "action":
        options = []
        for raw, value, ty in zip(data.get("args", []), move[2], E.param_types[move[1]]):
            if isinstance(ty, Opt):
                ty = ty.inner
            if isinstance(ty, KindT) and isinstance(raw, str) and "#" not in raw and value is not None:
                options.append(E.instances.get(E.defs[value], [value]))
            else:
                options.append([value])
        import itertools
        return [("action", move[1], combo) for combo in itertools.product(*options)]
    if move[0] == "choose" and isinstance(loaded.choose_type, KindT) and isinstance(data.get("choose"), str) \
            and "#" not in data["choose"] and move[1] is not None:
        return [("choose", c) for c in E.instances.get(E.defs[move[1]], [move[1]])]
    return [move]


class StateRecorder:
    """An engine observer that writes the state at the ``n``-th decision an agent is asked (numbered as
    the decisions of the game log, from 1)."""

    def __init__(self, engine: Engine, scopes: Scopes, n: int, spec: list[str]):
        self.engine, self.scopes, self.n, self.spec = engine, scopes, n, spec
        self.count = 0
        self.state: dict | None = None
        self.problem: str | None = None         # why the state at decision n cannot be written
        self.digest: str | None = None          # the state's digest there (the frames are checked against it)
        self.frames_note: str | None = None     # why the state has no frames (a game cannot go on from it)

    def __call__(self, decision: Decision) -> None:
        if len(decision.options) > 1 or decision.optional:
            self.count += 1
            if self.count == self.n:
                try:
                    self.state = dump_state(self.engine, decision, self.scopes, self.spec)
                except StateFileError as exc:
                    self.problem = "; ".join(message for _, message in exc.problems)
                    return
                from checker.runtime.replay import state_digest
                self.digest = state_digest(self.engine.st)

    def add_frames(self) -> None:
        """After the game: its ``resume`` section (:mod:`checker.solver.framefile`), found by playing the game
        again to decision n through :class:`checker.runtime.frames.Stepper` with the same answers, and kept
        only when that game reaches the same state there.  Else :attr:`frames_note` says why."""
        if self.state is None:
            return
        from checker.runtime.frames import capture, resumable
        from checker.solver.framefile import FORMAT_RESUME, resume_section
        E = self.engine
        got, decision, digest = capture(E, E.setup, list(E.choices), self.n)
        if got is None:
            self.frames_note = decision
            return
        frames, decisions, rng = got
        if digest != self.digest:
            self.frames_note = "the game stepped again does not reach the same state there (a bug of ours)"
            return
        why = resumable(E.program, frames, decision.site)
        if why is not None:
            self.frames_note = why
            return
        section = resume_section(E, self.scopes, frames, decisions, _Values(E), rng)
        self.state = {**self.state, "format": FORMAT_RESUME, "resume": section}
