"""What the person at the terminal may see of the game, shown compactly before a decision.

Everything comes from the spec's declarations and :meth:`Engine.view` for the person's seat, never from a
card's or a zone's name: the round and the game's public "who/what" variables (who holds a marker, which
card is playing); one line per player with their counters, their own hidden zones in full (cards with their
attributes), the others' hidden zones as a number of cards, public zones in full; the public zones of the
table; facts about cards (a public variable of a card that is not at its default); and, for a game played
on a ``grid``, a map of the cells where a public variable is set.
"""

from __future__ import annotations

from checker.front import ast
from checker.human.words import Words, count_of
from checker.prose import capitalize, contract, humanize, plural
from checker.prose.french import bare, feminine
from checker.front.types import BOOL, INT, PLAYER, EnumT, GridT, KindT, Opt, RecordT

__all__ = ["board", "board_blocks", "grid_map"]

LONG_ZONE = 12          # a public zone of the table holding more cards than this is shown as a number
MANY_FACTS = 8          # facts of one variable about cards shown at most (the rest counted)


def _element(words: Words, zone: str) -> str:
    term = words.lex.terms.get(zone)
    if term is not None and term.element:
        return bare(term.element)
    kind = words.program.zones[zone].kind.name
    return bare(words.lex.types.get(kind, "la carte"))


def _term(words: Words, name: str, args: list[str] = ()) -> str:
    """The lexicon's noun for a var or a zone (``le trésor``), applied to ``args`` if it is a template."""
    term = words.lex.terms.get(name)
    if term is None:
        text = humanize(name)
        return f"{text} ({', '.join(args)})" if args else text
    if "{" in term.text:
        return contract(term.text.format(*args, *[""] * 4))
    return words.prose.possess(term.text, args[0]) if args else term.text


def _short(words: Words, name: str) -> str:
    """A zone's or a counter's word in a player's line: ``main``, ``cité``, ``personnages``."""
    term = words.lex.terms.get(name)
    if term is None:
        return humanize(name)
    if "{" not in term.text:
        return bare(term.text)
    if term.element:
        return bare(plural(term.element))
    return humanize(name)


def _none(words: Words, zone: str) -> str:
    term = words.lex.terms.get(zone)
    element = term.element if term is not None and term.element else words.lex.types.get(
        words.program.zones[zone].kind.name, "la carte")
    return "aucune" if feminine(element) else "aucun"


def _cards(words: Words, names: list[str], rich: bool) -> str:
    if not names:
        return "—"
    if not rich:
        return ", ".join(names)
    return ", ".join(words.card(words.engine.def_ids[n]) if n in words.engine.def_ids else n for n in names)


def _default(words: Words, decl: ast.VarDecl):
    return words.engine.var_defaults.get(decl.name)


def _players_lines(words: Words, seen: dict) -> list[str]:
    engine, program = words.engine, words.program
    n = engine.st.n
    order = [words.seat, *(q for q in range(n) if q != words.seat)] if words.seat is not None else list(range(n))
    zones = [(name, decl) for name, decl in program.zones.items()
             if decl.index is not None and decl.index.name == "Player"]
    vars_ = [(name, decl) for name, decl in program.vars.items()
             if decl.index is not None and decl.index.name == "Player" and name in seen["vars"]]
    # a zone empty for every player (cards drawn and not yet kept…) says nothing
    zones = [(name, decl) for name, decl in zones
             if any(seen["zones"].get(name, {}).get(q) not in (None, 0, []) for q in range(n))]
    lines = []
    for q in order:
        parts, own = [], []
        for name, decl in vars_:
            value = seen["vars"][name].get(q, _default(words, decl))
            ty = words.engine.resolve_type(decl.type)
            if decl.counter or ty == INT:
                shown = count_of(value or 0, words.lex.unit) if decl.counter and words.lex.unit else str(value or 0)
            elif value == _default(words, decl):
                continue
            else:
                shown = words.value(value, ty)
            parts.append(f"{_short(words, name)} : {shown}")
        for name, decl in zones:
            cards = seen["zones"].get(name, {}).get(q, [])
            word = _short(words, name)
            if isinstance(cards, int):                   # another player's hidden cards, as a number
                parts.append(f"{word} : {count_of(cards, _element(words, name)) if cards else _none(words, name)}")
            elif decl.visibility != "public" and cards:     # the person's own hidden cards, in full
                own.append(f"      {word} : " + " ; ".join(words.card(words.engine.def_ids[n]) for n in cards))
            else:
                parts.append(f"{word} : {_cards(words, cards, rich=False) if cards else _none(words, name)}")
        who = f"Vous (Joueur {q + 1})" if q == words.seat else f"Joueur {q + 1}"
        lines.append([f"  {who} — " + " · ".join(parts), *own])
    return lines


def _table_lines(words: Words, seen: dict) -> list[str]:
    """The table's zones, its who/what variables, and facts about cards."""
    program, engine = words.program, words.engine
    out = []
    for name, decl in program.zones.items():
        if decl.index is not None:
            continue
        cards = seen["zones"].get(name)
        if not cards:
            continue
        word = capitalize(_term(words, name))
        if isinstance(cards, int):
            out.append(f"{word} : {count_of(cards, _element(words, name))}")
        elif len(cards) > LONG_ZONE:
            out.append(f"{word} : {count_of(len(cards), _element(words, name))}")
        else:
            out.append(f"{word} : {_cards(words, cards, rich=False)}")
    facts: dict[str, list[str]] = {}
    for name, decl in program.vars.items():
        if name not in seen["vars"] or decl.index is None:
            continue
        index = decl.index.name
        if index in program.kinds or index in program.enums:
            ty = engine.resolve_type(decl.type)
            if isinstance(ty.inner if isinstance(ty, Opt) else ty, (GridT, RecordT)):
                continue                    # where a card lies on a grid: the map shows it
            default = _default(words, decl)
            items = [(k, v) for k, v in seen["vars"][name].items()
                     if not (v == default or v is None or (decl.counter and not v))]
            if len(items) > MANY_FACTS and ty != BOOL:
                out.append(f"{capitalize(humanize(name))} : {len(items)} valeurs (v pour la table complète)")
                continue
            for key, value in items:
                label = humanize(key) if index in program.enums else key
                if ty == BOOL:
                    facts.setdefault(capitalize(humanize(name)), []).append(label)
                elif decl.counter and words.lex.unit:
                    out.append(f"{capitalize(_term(words, name, [label]))} : {count_of(value, words.lex.unit)}")
                else:
                    out.append(f"{capitalize(_term(words, name, [label]))} : {words.value(value, ty)}")
    for name, decl in program.zones.items():
        if decl.index is None or decl.index.name not in program.kinds:
            continue
        for key, cards in (seen["zones"].get(name) or {}).items():
            if cards:
                shown = count_of(cards, _element(words, name)) if isinstance(cards, int) else ", ".join(cards)
                out.append(f"{capitalize(_term(words, name, [key]))} : {shown}")
    out += [f"{label} : {', '.join(keys)}" for label, keys in facts.items()]
    return out


def _header(words: Words, seen: dict) -> str:
    engine, program = words.engine, words.program
    parts = [f"Tour {engine.st.round}"] if engine.round_proc and engine.st.round else []
    for name, decl in program.vars.items():
        if decl.index is not None or name not in seen["vars"]:
            continue
        ty = engine.resolve_type(decl.type)
        inner = ty.inner if isinstance(ty, Opt) else ty
        value = seen["vars"][name]
        if inner == PLAYER or isinstance(inner, (KindT, EnumT)):
            if value is not None and value != _default(words, decl):
                shown = words.card_name(value) if isinstance(inner, KindT) else words.value(value, ty)
                parts.append(f"{capitalize(_term(words, name))} : {shown}")
        elif inner == BOOL and value and name in _ending(words):
            parts.append(capitalize(_term(words, name)))
    return " · ".join(parts)


def _ending(words: Words) -> set[str]:
    """The names the game's flow reads to know when to stop (the `until` of its `repeat`s): a public
    Bool among them, once true, is news for every player (the last round is being played)."""
    flow = words.program.procedures.get(words.engine.flow) if words.engine.flow else None
    names: set[str] = set()
    stack = list(flow.body) if flow is not None else []
    while stack:
        s = stack.pop()
        if isinstance(s, ast.Repeat):
            names |= _names(s.until)
        for field in ("then", "else_", "body"):
            inner = getattr(s, field, None)
            if isinstance(inner, tuple):
                stack.extend(inner)
    return names


def _names(e) -> set[str]:
    if isinstance(e, ast.Name):
        return {e.id}
    found: set[str] = set()
    for field in getattr(e, "__dataclass_fields__", ()):
        value = getattr(e, field)
        for item in (value if isinstance(value, tuple) else (value,)):
            if hasattr(item, "__dataclass_fields__"):
                found |= _names(item)
    return found


def board_blocks(words: Words, marks: dict | None = None) -> list[list[str]]:
    """What the person at ``words.seat`` may see now, in blocks of lines: the heading, one block per player,
    one per line about the table, one per grid map (``marks``: grid name -> cells to mark, for the options of
    the decision asked)."""
    engine = words.engine
    seen = engine.view(words.seat if words.seat is not None else -1)
    header = _header(words, seen)
    blocks = [[header]] if header else []
    blocks += _players_lines(words, seen)
    blocks += [[line] for line in _table_lines(words, seen)]
    for grid in engine.grids.values():
        drawn = grid_map(words, grid, (marks or {}).get(grid.name, {}))
        if drawn:
            blocks.append(drawn)
    return blocks


def board(words: Words, marks: dict | None = None) -> list[str]:
    """:func:`board_blocks`, as lines."""
    return [line for block in board_blocks(words, marks) for line in block]


# ---------------------------------------------------------------- grids

def _grid_cells(words: Words, grid) -> dict[int, list]:
    """cell -> the public values set on it: values of vars indexed by the grid, and the players named by
    vars indexed by a record with a field of the grid."""
    program, st, engine = words.program, words.engine.st, words.engine
    cells: dict[int, list] = {}
    for name, decl in program.vars.items():
        if decl.visibility != "public" or decl.index is None:
            continue
        index, ty = decl.index.name, engine.resolve_type(decl.type)
        default = engine.var_defaults.get(name)
        table = st.vars.get(name) or {}
        if index == grid.name:
            for cell, value in table.items():
                if value is not None and value != default:
                    cells.setdefault(cell, []).append((name, ty, value))
        elif index in program.records:
            fields = program.records[index].fields
            at = next((i for i, f in enumerate(fields) if isinstance(f.type, ast.TypeName)
                       and f.type.name == grid.name), None)
            inner = ty.inner if isinstance(ty, Opt) else ty
            if at is None or inner != PLAYER:
                continue
            for key, value in table.items():
                if value is not None and value != default:
                    cells.setdefault(key[at], []).append((name, PLAYER, value))
    return cells


def _code(name: str, taken: dict[str, str]) -> str:
    """A two-letter code for a card name, unique among those given so far."""
    if name in taken:
        return taken[name]
    words = [w for w in name.replace("'", " ").split() if w[:1].isalpha()] or [name]
    candidates = [(words[0][0] + (words[1][0] if len(words) > 1 else words[0][1:2])).upper()]
    candidates += [(words[0][0] + c).upper() for c in name[1:] if c.isalpha()]
    used = set(taken.values())
    code = next((c for c in candidates if len(c) == 2 and c not in used), None)
    if code is None:
        code = f"{len(taken):02d}"[-2:]
    taken[name] = code
    return code


def grid_map(words: Words, grid, marks: dict[int, str]) -> list[str]:
    """A map of ``grid`` around the cells where something is set: each cell shows a code for the card on it
    (its legend below), a number set on it (a rotation…), and the number of the player who has something
    there; cells offered by the decision are shown by their letter."""
    cells = _grid_cells(words, grid)
    if not cells and not marks:
        return []
    coords = {c: grid.coordinates(c) for c in (*cells, *marks)}
    rows = [r for r, _ in coords.values()]
    cols = [c for _, c in coords.values()]
    top, bottom, left, right = min(rows), max(rows), min(cols), max(cols)
    if (bottom - top) > 40 or (right - left) > 30:
        return [f"(la grille {grid.name} : {len(cells)} case(s) occupée(s), trop grande pour être dessinée)"]
    taken: dict[str, str] = {}
    width = 6
    meaning: dict[str, str] = {}
    noun = bare(words.lex.types.get(grid.name, "la case"))
    here = f"{'cette' if feminine(words.lex.types.get(grid.name, 'la case')) else 'ce'} {noun}"
    lines = [f"Grille {grid.name} (ligne, colonne) :", "      " + "".join(f"{c:^{width}}" for c in range(left, right + 1))]
    for r in range(top, bottom + 1):
        row = []
        for c in range(left, right + 1):
            cell = grid.cell(r, c)
            text = ""
            for name, ty, value in cells.get(cell, ()):
                inner = ty.inner if isinstance(ty, Opt) else ty
                if isinstance(inner, KindT):
                    text = _code(words.card_name(value), taken) + text
                elif inner == INT:
                    text += str(value)
                    meaning.setdefault("0-9", _term(words, name, [here]))
                elif inner == PLAYER:
                    text += _SUPERSCRIPT[(value + 1) % 10]
                    meaning.setdefault("¹²³", _term(words, name, [here]) + " (son numéro)")
            if cell in marks:
                text += marks[cell]
            row.append(f"{text or '·':^{width}}")
        lines.append(f"{r:>5} " + "".join(row))
    legend = [f"{code} {name}" for name, code in sorted(taken.items(), key=lambda x: x[1])]
    legend += [f"{mark} : {what}" for mark, what in meaning.items()] + (["+ : case proposée"] if marks else [])
    if legend:
        lines.append("  " + " ; ".join(legend))
    return lines


_SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹"
