"""The JSON documents the commands read — state, move and game-log files — read within bounds and
checked against their JSON Schema (``checker/schemas/``), every problem reported with its JSON path.

One reader for the three of them.  It reads only a regular file (a FIFO or a device could block or
never end) of at most :data:`MAX_BYTES`, in UTF-8, and accepts only the JSON that every reader
agrees on: nested at most :data:`MAX_DEPTH` deep, integers within ±:data:`MAX_INT`, no ``NaN`` or
``Infinity``, no key twice in one object.  It holds at most :data:`MAX_VALUES` values and keys, of which
at most :data:`MAX_CONTAINERS` lists and objects, counted in the text before it is parsed: under the size
limit, a file of 4 million empty objects took 1.1 GB to parse and look at before a move's loader ignored
them, an object of a million members 310 MB.  A problem's message quotes at most a short excerpt of
the document, never the document itself.

The ``spec`` a state file or a game log names is found by :func:`spec_paths`: each entry is a
directory of ``.rules`` files or one ``.rules`` file; a relative path is relative to the current
directory or, failing that, to the directory of the file that names it.  Nothing else is read, so
a file from elsewhere cannot make a command print lines of an unrelated file.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import sys
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path

from checker.base.source import SourceError, read_source

__all__ = ["DocumentError", "read_document", "parse_document", "report", "schema", "schema_problems", "excerpt", "spoken",
           "spec_paths", "MAX_BYTES", "MAX_DEPTH", "MAX_INT", "MAX_VALUES", "MAX_CONTAINERS"]

MAX_BYTES = 16 * 2**20          # an 8-player game log is about 0.1 MB
MAX_DEPTH = 32                  # a state file is 5 deep
MAX_INT = 2**53 - 1             # the integers every JSON reader reads exactly (RFC 7493)
MAX_PROBLEMS = 20               # more are summed up in one line
# what a file may hold, counted before it is parsed: a parsed list or object costs some 300 bytes (with its walk
# and its schema check), a number, a short string or a key some 100; a real game log or state holds about 95
# values and keys and 11 lists and objects a kB, so a file at the size limit about 1.6 million and 180,000
MAX_VALUES = 2_000_000
MAX_CONTAINERS = 250_000

ROOT = "(the file)"             # the JSON path of the whole document


class DocumentError(Exception):
    """What is wrong with a document: a list of (JSON path, message)."""

    def __init__(self, problems: list[tuple[str, str]], unread: bool = False):
        self.unread = unread            # the file could not be read at all (one problem says why)
        if len(problems) > MAX_PROBLEMS:
            problems = problems[:MAX_PROBLEMS] + [("…", f"and {len(problems) - MAX_PROBLEMS} more problem(s)")]
        problems = [(_clip(path, 160), _clip(message, 600)) for path, message in problems]
        super().__init__("; ".join(f"{p}: {m}" for p, m in problems))
        self.problems = problems


def spoken(value, nothing: str = "aucun", yes: str = "oui", no: str = "non", leaf=str) -> str:
    """A value of a state or a witness as a reader is told it: ``none`` as ``nothing``, a yes/no in words, a
    collection in braces, anything else by ``leaf``.

    >>> spoken([True, None, "rouge"], nothing="rien")
    '{oui, rien, rouge}'
    """
    if value is None:
        return nothing
    if isinstance(value, bool):
        return yes if value else no
    if isinstance(value, list):
        return "{" + ", ".join(spoken(v, nothing, yes, no, leaf) for v in value) + "}"
    return leaf(value)


def excerpt(value, limit: int = 60) -> str:
    """``value`` as JSON, cut after ``limit`` characters, whatever its size.

    >>> excerpt(list(range(100)), 20)
    '[0, 1, 2, 3, 4, 5, 6…'
    >>> excerpt("court")
    '"court"'
    """
    out: list[str] = []
    left = limit + 1

    def emit(text: str) -> None:
        nonlocal left
        out.append(text)
        left -= len(text)

    def walk(v, depth: int) -> None:
        if left <= 0:
            return
        if depth > 8:
            emit("…")
        elif isinstance(v, dict):
            emit("{")
            for i, (k, x) in enumerate(v.items()):
                if left <= 0:
                    return
                emit((", " if i else "") + json.dumps(str(k)[:limit + 1], ensure_ascii=False) + ": ")
                walk(x, depth + 1)
            emit("}")
        elif isinstance(v, (list, tuple)):
            emit("[")
            for i, x in enumerate(v):
                if left <= 0:
                    return
                emit(", " if i else "")
                walk(x, depth + 1)
            emit("]")
        elif isinstance(v, str):
            emit(json.dumps(v[:limit + 1], ensure_ascii=False))
        elif isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > 64:
            emit(f"(an integer of about {int(v.bit_length() * 0.30103)} digits)")
        else:
            try:
                emit(json.dumps(v, ensure_ascii=False))
            except (TypeError, ValueError):
                emit(str(v)[:limit + 1])

    walk(value, 0)
    text = "".join(out)
    return text if len(text) <= limit else text[:limit] + "…"


def _clip(text: str, limit: int) -> str:
    """A path or a message cut to ``limit`` characters: a long key or value of the file is never shown whole."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


# ---------------------------------------------------------------- reading

class _Unreadable:
    """A number the document should not hold (NaN, Infinity, an integer of many digits): kept as found, to
    be reported with its JSON path once the document is parsed.  Small (slots, and a reason shared by all):
    a file may hold 800,000 of them (a list of huge integers took 450 MB of these and of the walk's stack)."""

    __slots__ = ("text", "why")

    def __init__(self, text: str, why: str):
        self.text, self.why = text, why


_TOO_LARGE = f"an integer too large (at most {MAX_INT} in absolute value)"
_NOT_FINITE = "a number too large"
_NOT_NUMBER = "not a JSON number"


class _Duplicates(dict):
    """An object in which a key is given twice (reported; the last value is kept meanwhile)."""

    repeated: list[str]


def _int(text: str):
    if len(text) > 15 and (len(text) > 20 or abs(int(text)) > MAX_INT):        # MAX_INT has 16 digits
        return _Unreadable(text, _TOO_LARGE)
    return int(text)


def _float(text: str):
    value = float(text)
    return value if math.isfinite(value) else _Unreadable(text, _NOT_FINITE)


def _constant(text: str):
    return _Unreadable(text, _NOT_NUMBER)


def _object(pairs: list[tuple[str, object]]) -> dict:
    out = dict(pairs)
    if len(out) < len(pairs):
        seen: set[str] = set()
        out = _Duplicates(pairs)
        out.repeated = [k for k, _ in pairs if k in seen or seen.add(k)]
    return out


# a JSON string, escapes included (unrolled: no backtracking); what is left is numbers, words and punctuation
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')


def _count_problem(text: str) -> str | None:
    """Why ``text`` holds too much to be parsed (more than :data:`MAX_VALUES` values and keys or
    :data:`MAX_CONTAINERS` lists and objects), or None.  Counted in the text: every list or object opens with
    ``[`` or ``{``, a value is one of those or follows a comma, a key is followed by a colon; characters inside
    strings do not count.  The cheap count (strings included) settles every real file; past it the strings are
    cut out and the count made again."""
    containers = text.count("{") + text.count("[")
    if containers <= MAX_CONTAINERS and containers + text.count(",") + text.count(":") < MAX_VALUES:
        return None
    bare = _STRING.sub('""', text)
    containers = bare.count("{") + bare.count("[")
    values = containers + bare.count(",") + bare.count(":") + 1
    if containers > MAX_CONTAINERS:
        return f"holds {containers:,} lists and objects, more than the {MAX_CONTAINERS:,} a file may hold (not parsed)"
    if values > MAX_VALUES:
        return f"holds about {values:,} values and keys, more than the {MAX_VALUES:,} a file may hold (not parsed)"
    return None


def parse_document(text: str) -> object:
    """Parse JSON text within the bounds above, or raise :class:`DocumentError`."""
    crowded = _count_problem(text)
    if crowded is not None:
        raise DocumentError([(ROOT, crowded)])
    try:
        data = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant,
                          object_pairs_hook=_object)
    except json.JSONDecodeError as exc:
        raise DocumentError([(ROOT, f"not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")]) from None
    except RecursionError:
        raise DocumentError([(ROOT, f"nested too deeply (more than {MAX_DEPTH} levels)")]) from None
    problems: list[tuple[str, str]] = []
    # (value, its parent's path, its key, depth): a path is spelt only for what is looked into or reported,
    # and only containers and unreadable numbers are looked at (a list of a million names: no million paths)
    stack: list[tuple[object, str, object, int]] = [(data, "", None, 0)]
    while stack and len(problems) <= MAX_PROBLEMS:
        value, parent, key, depth = stack.pop()
        path = "" if key is None else f"{parent}/{key}" if parent else str(key)
        where = path or ROOT
        if depth > MAX_DEPTH:
            problems.append((where, f"nested too deeply (more than {MAX_DEPTH} levels)"))
            continue
        if isinstance(value, _Unreadable):
            shown = value.text if len(value.text) <= 24 else f"{value.text[:12]}…({len(value.text)} characters)"
            problems.append((where, f"{shown} is {value.why}"))
        elif isinstance(value, (dict, list)):
            if isinstance(value, _Duplicates):
                problems += [(where, f"the key {excerpt(k)} is given twice") for k in dict.fromkeys(value.repeated)]
            pairs = value.items() if isinstance(value, dict) else enumerate(value)
            deeper = depth + 1
            if deeper > MAX_DEPTH:
                found = list(pairs)
            else:       # every container, but only as many unreadable numbers as can still be reported (the walk
                room = MAX_PROBLEMS + 1 - len(problems)         # stops there): not 800,000 entries on the stack
                found = []
                for k, v in pairs:
                    if isinstance(v, (dict, list)):
                        found.append((k, v))
                    elif isinstance(v, _Unreadable) and room > 0:
                        found.append((k, v))
                        room -= 1
            stack += [(v, path, k, deeper) for k, v in reversed(found)]
    if problems:
        raise DocumentError(problems)
    return data


def read_document(path: str | Path, kind: str | None = None) -> object:
    """The JSON document in the file ``path``, checked against the schema ``kind`` (``state``, ``move``,
    ``log``) when one is given; :class:`DocumentError` says every problem found."""
    path = Path(path)
    try:
        source = read_source(path, limit=MAX_BYTES)
    except SourceError as exc:
        name, span = exc.span.file, exc.span
        message = exc.message.replace(f"'{name}' is ", "").replace(f" '{name}'", "").replace(f"'{name}' ", "")
        where = f" at line {span.line}, column {span.column}" if (span.line, span.column) != (1, 1) else ""
        raise DocumentError([(ROOT, f"cannot read {name}: {message}{where}")], unread=True) from None
    data = parse_document(source.text)
    if kind is not None:
        problems = schema_problems(data, kind)
        if problems:
            raise DocumentError(problems)
    return data


def report(command: str, name: str, what: str, exc: DocumentError) -> int:
    """Say on stderr why the file ``name`` is not ``what`` (``a state file`` …); the exit code for bad input."""
    problems = exc.problems
    if exc.unread:
        print(f"rulebook {command}: {problems[0][1]}", file=sys.stderr)
    elif len(problems) == 1:
        print(f"rulebook {command}: {name} is not {what}: {problems[0][0]}: {problems[0][1]}", file=sys.stderr)
    else:
        print(f"rulebook {command}: {name} is not {what}:", file=sys.stderr)
        for path, message in problems:
            print(f"  {path}: {message}", file=sys.stderr)
    return 2


# ---------------------------------------------------------------- schemas

@cache
def _schema_text(name: str) -> str:
    return resources.files("checker").joinpath("schemas", f"{name}.schema.json").read_text(encoding="utf-8")


def schema(name: str) -> dict:
    """The JSON Schema of ``state``, ``move`` or ``log`` files."""
    return json.loads(_schema_text(name))


@cache
def _validator(name: str):
    import jsonschema               # only when a file is read: the engine imports this module
    base = jsonschema.Draft202012Validator
    # "integer" is an int, never 4.0: a float where a count belongs is a mistake to report
    strict = base.TYPE_CHECKER.redefine(
        "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool))
    return jsonschema.validators.extend(base, {"anyOf": _any_of, "oneOf": _one_of, "items": _items,
                                                 "additionalProperties": _additional, "type": _type,
                                                 "enum": _enum}, type_checker=strict)(schema(name))


_QUICK = {"type", "description", "minimum", "maximum", "minLength", "maxLength", "required", "properties",
          "additionalProperties", "items"}       # the keywords :func:`_quick` checks itself


def _quick(validator, schema) -> Callable[[object], bool] | None:
    """A test of an item against ``schema`` written as a plain loop — one type with bounds or lengths, or an
    object of such properties — or None when the schema says more (jsonschema checks it then)."""
    if schema == {} or schema is True:
        return lambda item: True
    if isinstance(schema, dict) and set(schema) - {"description"} == {"anyOf"}:     # a zone: a list or an object
        branches = [_quick(validator, branch) for branch in schema["anyOf"]]
        return None if None in branches else lambda item: any(fits(item) for fits in branches)
    if not isinstance(schema, dict) or not isinstance(schema.get("type"), str) or not set(schema) <= _QUICK:
        return None
    kind, low, high = schema["type"], schema.get("minimum"), schema.get("maximum")
    shortest, longest = schema.get("minLength"), schema.get("maxLength")
    required, closed = schema.get("required", ()), schema.get("additionalProperties", True) is False
    other = schema.get("additionalProperties", False)
    values = None if other is False else _quick(validator, other)           # an object's other members
    each = _quick(validator, schema["items"]) if "items" in schema else (lambda item: True)
    properties = {k: _quick(validator, v) for k, v in schema.get("properties", {}).items()}
    if None in properties.values() or each is None or (other is not False and values is None):
        return None

    def fits(item) -> bool:
        if not validator.is_type(item, kind):
            return False
        if isinstance(item, (int, float)) and not isinstance(item, bool):
            return (low is None or item >= low) and (high is None or item <= high)
        if isinstance(item, str):
            return (shortest is None or len(item) >= shortest) and (longest is None or len(item) <= longest)
        if isinstance(item, dict):
            return (all(k in item for k in required) and (not closed or all(k in properties for k in item))
                    and all(properties[k](v) if k in properties else values is None or values(v)
                            for k, v in item.items()))
        if isinstance(item, list):
            return all(map(each, item))
        return True
    return fits


def _items(validator, items, instance, schema):
    """jsonschema's ``items``, with a fast path for items :func:`_quick` can test (a list of names, the random
    source's numbers, a list of small objects): only the items that fail are validated by jsonschema, which
    takes some 30 µs an item (a million names in a zone took a minute, twice; a million numbers in
    ``resume/random`` some 20 s of CPU; 670,000 choices ``{"player": "", "value": 0}`` 24 s)."""
    from jsonschema._keywords import items as checked_one_by_one
    fits = _quick(validator, items) if validator.is_type(instance, "array") else None
    if fits is None:
        yield from checked_one_by_one(validator, items, instance, schema)
        return
    for index in range(len(schema.get("prefixItems", [])), len(instance)):
        if not fits(instance[index]):
            yield from validator.descend(instance[index], items, path=index)


def _additional(validator, other, instance, schema):
    """jsonschema's ``additionalProperties``, with :func:`_items`'s fast path for the members :func:`_quick` can
    test: a state's zones listing a million empty zones took minutes, jsonschema checking each (an anyOf)."""
    from jsonschema._keywords import additionalProperties as checked_one_by_one
    fits = _quick(validator, other) if other is not False and validator.is_type(instance, "object") \
        and "patternProperties" not in schema else None
    if fits is None:
        yield from checked_one_by_one(validator, other, instance, schema)
        return
    known = schema.get("properties", {})
    for key, value in instance.items():
        if key not in known and not fits(value):
            yield from validator.descend(value, other, path=key)


def _branch_errors(validator, instance, subschema, index) -> list:
    """The first errors of ``instance`` under one branch of an anyOf/oneOf: jsonschema keeps them all, which
    for a zone listing a million numbers is a million errors (minutes and gigabytes) to say it is not a list
    of names."""
    return list(itertools.islice(validator.descend(instance, subschema, schema_path=index), MAX_PROBLEMS))


# jsonschema's own "type" and "enum" spell the whole value in their message (``f"{instance!r} …"``): a list of
# 430,000 strings where an integer belongs took 180 MB to say so.  These say the same with an excerpt.

def _type(validator, types, instance, schema):
    from jsonschema.exceptions import ValidationError
    types = types if isinstance(types, list) else [types]
    if not any(validator.is_type(instance, kind) for kind in types):
        yield ValidationError(f"{excerpt(instance)} is not of type {', '.join(map(repr, types))}")


def _enum(validator, enums, instance, schema):
    if isinstance(instance, (dict, list)) and not any(isinstance(e, (dict, list)) for e in enums):
        from jsonschema.exceptions import ValidationError
        yield ValidationError(f"{excerpt(instance)} is not one of {enums!r}")
    else:                           # a scalar: jsonschema's own test (its equality of numbers and Booleans)
        from jsonschema import Draft202012Validator
        yield from Draft202012Validator.VALIDATORS["enum"](validator, enums, instance, schema)


def _any_of(validator, any_of, instance, schema):
    from jsonschema.exceptions import ValidationError
    errors = []
    for index, subschema in enumerate(any_of):
        found = _branch_errors(validator, instance, subschema, index)
        if not found:
            return
        errors.extend(found)
    yield ValidationError(f"{excerpt(instance, 80)} is not valid under any of the given schemas", context=errors)


def _one_of(validator, one_of, instance, schema):
    from jsonschema.exceptions import ValidationError
    errors, valid = [], []
    for index, subschema in enumerate(one_of):
        found = _branch_errors(validator, instance, subschema, index)
        if found:
            errors.extend(found)
        else:
            valid.append(index)
    if not valid:
        yield ValidationError(f"{excerpt(instance, 80)} is not valid under any of the given schemas", context=errors)
    elif len(valid) > 1:
        yield ValidationError(f"{excerpt(instance, 80)} is valid under each of {valid}")


def schema_problems(data, name: str) -> list[tuple[str, str]]:
    """Every place ``data`` does not follow the schema ``name``: [(JSON path, message)], in document order."""
    out = []
    first = itertools.islice(_validator(name).iter_errors(data), 10 * MAX_PROBLEMS)     # a huge list: not all
    errors = sorted(first, key=lambda e: [str(x) for x in e.absolute_path])
    for err in errors[:MAX_PROBLEMS + 1]:
        if err.validator == "anyOf" and err.context:       # say what is wrong inside the shape that went deepest
            err = max(err.context, key=lambda e: len(e.absolute_path))
        out.append(("/".join(map(str, err.absolute_path)) or ROOT, _message(err)))
    return out


def _message(err) -> str:
    """jsonschema's message, with the offending value quoted as a short excerpt."""
    shown = excerpt(err.instance)
    kind, expected = err.validator, err.validator_value
    if kind == "type":
        return f"{shown} is not of type {expected!r}"
    if kind == "required":
        return err.message                  # names the missing key, which the schema spells
    if kind == "additionalProperties":
        extra = [k for k in err.instance if k not in err.schema.get("properties", {})] \
            if isinstance(err.instance, dict) else []
        known = ", ".join(err.schema.get("properties", {}))
        return (f"unknown key {excerpt(extra[0])}" + (f" (known: {known})" if known else "")) if extra else err.message
    if kind == "const":
        return f"expected {json.dumps(expected, ensure_ascii=False)}, not {shown}"
    if kind == "enum":
        return f"{shown} is not one of {', '.join(json.dumps(x, ensure_ascii=False) for x in expected)}"
    if kind == "anyOf":
        return f"{shown} is not valid under any of the given schemas"
    if kind == "oneOf":
        return f"{shown} must have exactly one of the shapes the format allows"
    if kind in ("minimum", "maximum", "minItems", "maxItems", "minLength", "pattern"):
        return f"{shown}: {kind} is {expected!r}"
    return err.message if len(err.message) <= 200 else err.message[:200] + "…"


# ---------------------------------------------------------------- the spec a document names

def spec_paths(named: list[str], document: str | Path) -> list[Path]:
    """The spec paths a state file or a log names (its ``spec`` field), each a directory of ``.rules`` files or
    one ``.rules`` file; relative to the current directory, or else to the directory of ``document``.  Raises
    :class:`DocumentError` with the JSON path ``spec/i`` of each that is not one."""
    here = Path(document).parent
    paths, problems, seen = [], [], {}
    for i, entry in enumerate(named):
        where = f"spec/{i}"
        if len(problems) >= MAX_PROBLEMS:       # a list of a million: say so, and do not look at each
            problems.append(("…", f"and the {len(named) - i} spec(s) after spec/{i - 1}, not checked"))
            break
        candidates = [Path(entry)] if Path(entry).is_absolute() else [Path(entry), here / entry]
        try:
            found = next((c for c in candidates if c.exists()), None)
        except (OSError, ValueError):
            found = None
        if found is None:
            problems.append((where, f"the spec {excerpt(entry)} does not exist (a relative path is relative to the "
                                    f"current directory or to the directory of {Path(document).name})"))
            continue
        real = Path(os.path.realpath(found))
        if not (real.is_dir() or (real.suffix == ".rules" and real.is_file())):
            problems.append((where, f"{excerpt(entry)} is not a spec: a spec is a directory of .rules files or a "
                                    f".rules file"))
            continue
        if real in seen:        # each would be checked again: a million times "" (the current directory) never ended
            problems.append((where, f"{excerpt(entry)} is the spec of spec/{seen[real]} again"))
            continue
        seen[real] = i
        paths.append(found)
    if problems:
        raise DocumentError(problems)
    return paths
