"""Cells of a grid and records in state and move files.

A cell is written ``[row, column]``, counted from the grid's centre (``[0, 0]``); a record is an
object of its fields (``{"cell": [0, 1], "side": "up"}``); a card in a record is its name (records
hold cards by name).  As the key of a JSON object (an indexed var or zone), a cell is ``"0,1"`` and a
record its fields' keys joined by ``" | "`` (``"0,1 | up"``).
"""

from __future__ import annotations

import json

from checker.front.types import BOOL, INT, PLAYER, GridT, KindT, Opt, RecordT, Ty

__all__ = ["write_shape", "read_shape", "key_text", "read_key_text"]

SEPARATOR = " | "


def _fields(vals, ty: RecordT) -> list[tuple[str, Ty]]:
    decl = vals.E.program.records[ty.name]
    return [(f.name, vals.E.resolve_type(f.type)) for f in decl.fields]


def _shown(data) -> str:
    text = json.dumps(data, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "…"


def write_shape(vals, value, ty: Ty):
    if isinstance(ty, GridT):
        return list(vals.E.grids[ty.name].coordinates(value))
    return {name: vals.write(v, fty) for (name, fty), v in zip(_fields(vals, ty), value)}


def _card_by_name(vals, data, kind: str, path: str, problems: list):
    E = vals.E
    if isinstance(data, str) and data.split("#")[0] in E.def_ids and E.def_kind[E.def_ids[data.split("#")[0]]] == kind:
        return E.def_ids[data.split("#")[0]]
    from checker.front.program import did_you_mean
    hint = did_you_mean(str(data), [c.name for c in E.program.cards_of(kind)], '"')
    problems.append((path, f"expected a {kind}, not {_shown(data)}" + (f"; {hint}" if hint else "")))
    return None


def read_shape(vals, data, ty: Ty, path: str, problems: list):
    if isinstance(ty, GridT):
        grid = vals.E.grids[ty.name]
        if not (isinstance(data, list) and len(data) == 2 and all(isinstance(x, int) and not isinstance(x, bool)
                                                                   for x in data)):
            problems.append((path, f"expected a cell of {ty.name}, [row, column], not {_shown(data)}"))
            return None
        cell = grid.cell(*data)
        if cell is None:
            problems.append((path, f"{data} is outside the grid {ty.name} (rows and columns from "
                                   f"{-((grid.height - 1) // 2)} to {grid.height // 2})"))
        return cell
    fields = _fields(vals, ty)
    if not isinstance(data, dict):
        problems.append((path, f"expected a {ty.name}, an object of its fields ({', '.join(n for n, _ in fields)}), "
                               f"not {_shown(data)}"))
        return None
    unknown = [k for k in data if k not in dict(fields)]
    for k in unknown:
        problems.append((f"{path}/{k}", f"{ty.name} has no field '{k}' (fields: {', '.join(n for n, _ in fields)})"))
    out = []
    for name, fty in fields:
        if name not in data:
            problems.append((path, f"the {ty.name} has no '{name}'"))
            out.append(None)
            continue
        inner = fty.inner if isinstance(fty, Opt) else fty
        if isinstance(inner, KindT) and data[name] is not None:
            out.append(_card_by_name(vals, data[name], inner.name, f"{path}/{name}", problems))
        else:
            out.append(vals.read(data[name], fty, f"{path}/{name}", problems))
    return tuple(out)


def key_text(vals, value, ty: Ty) -> str:
    if value is None:
        return "null"
    if isinstance(ty, Opt):
        ty = ty.inner
    if isinstance(ty, GridT):
        row, column = vals.E.grids[ty.name].coordinates(value)
        return f"{row},{column}"
    if isinstance(ty, RecordT):
        return SEPARATOR.join(key_text(vals, v, fty) for (_, fty), v in zip(_fields(vals, ty), value))
    if isinstance(ty, KindT):
        return vals.E.def_names[value] if value < 0 else vals.labels[value]
    if ty == PLAYER:
        return f"Joueur {value + 1}"
    if ty == BOOL:
        return "true" if value else "false"
    return str(value)


def read_key_text(vals, key: str, ty: Ty, path: str, problems: list):
    if isinstance(ty, GridT):
        parts = key.split(",")
        try:
            data = [int(p) for p in parts]
        except ValueError:
            data = None
        if data is None or len(data) != 2:
            problems.append((path, f"expected a cell of {ty.name} written \"row,column\", not {_shown(key)}"))
            return None
        return read_shape(vals, data, ty, path, problems)
    fields = _fields(vals, ty)
    parts = key.split(SEPARATOR)
    if len(parts) != len(fields):
        problems.append((path, f"expected a {ty.name} written with its {len(fields)} fields separated by "
                               f"\"{SEPARATOR.strip()}\" ({SEPARATOR.join(n for n, _ in fields)}), not {_shown(key)}"))
        return None
    out = []
    for part, (name, fty) in zip(parts, fields):
        inner = fty.inner if isinstance(fty, Opt) else fty
        where = f"{path} ({name})"
        if part == "null" and isinstance(fty, Opt):
            out.append(None)
        elif isinstance(inner, (GridT, RecordT)):
            out.append(read_key_text(vals, part, inner, where, problems))
        elif isinstance(inner, KindT):
            out.append(_card_by_name(vals, part, inner.name, where, problems))
        elif inner == INT:
            try:
                out.append(int(part))
            except ValueError:
                problems.append((where, f"expected a whole number, not {_shown(part)}"))
                out.append(None)
        elif inner == BOOL:
            out.append(part == "true")
        else:
            out.append(vals.read(part, fty, where, problems))
    return tuple(out)
