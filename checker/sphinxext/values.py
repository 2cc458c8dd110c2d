"""Values read from the spec, for the teaching pages of the player's book.

The teaching pages (``docs/livre/apprendre.rst``…) are written by hand, but every number, name and rulebook
sentence in them comes from the spec through a role, so that a house rule that changes the spec changes the
page:

``:rb:nombre:`QUANTITY``` (or ``QUANTITY@N``)
    a quantity's value, computed by the interpreter at the start of a game (at N players); when it depends
    on the player count and no N is given, its values by player count: « 8 à 2 ou 3 joueurs, 7 de 4 à
    8 joueurs ».  ``:rb:selon:`QUANTITY NOUN``` writes the noun (singular) after each value, in the plural
    where it is over 1 (« 8 quartiers à … »).
``:rb:nombre:`RULE```
    the amount a rule's ``adjust … by N`` adds.
``:rb:nombre:`PROC+PROC:NAME```
    what the first player has after the procedures run, in order, from the start of a game with the cards of
    the first configuration playable at that count: the number of cards of the zone NAME, or the value of the
    counter NAME.  With ``:rb:selon:`` the same, by player count (the counts some configuration is playable at).
``:rb:joueurs:`game```
    the player counts the game allows (« de 2 à 8 joueurs »).
``:rb:composition:`CONFIGURATION``` (or ``#K``, the K-th the spec declares, named)
    the cards a configuration plays with, by player count (« à 2 joueurs et de 4 à 7 joueurs, 8 personnages
    (…) »).
``:rb:phrase:`DECLARATION``` (or ``DECLARATION#K``, ``DECLARATION~WORDS``)
    a rulebook sentence the declaration cites (its first, its K-th, the first with WORDS), as the book shows
    it (errata applied).

:func:`value_text` is what a role writes (reST inline text); :func:`expand` replaces the roles of a page's
text by it, which is how tests read a page without building the book.
"""

from __future__ import annotations

import re

from checker.front import ast
from checker.front.configurations import game_player_counts, select
from checker.prose import plural, rst_escape
from checker.sphinxext.book import Book
from checker.sphinxext.essentials import _and, _at, _nodes, _selection_text

__all__ = ["ROLES", "value_text", "expand", "UnknownValue"]

ROLES = ("nombre", "selon", "joueurs", "composition", "phrase")
_ROLE = re.compile(r":rb:(" + "|".join(ROLES) + r"):`([^`]+)`")


class UnknownValue(KeyError):
    """A role names nothing the spec declares, or nothing it can compute."""

    def __str__(self) -> str:
        return str(self.args[0])


def expand(book: Book, text: str, errors: list[str] | None = None) -> str:
    """``text`` (reST) with every value role replaced by what it writes; a role that names nothing raises
    :class:`UnknownValue`, or, given ``errors``, is added to them and left as its literal target (as the
    Sphinx role does, with a warning)."""
    def one(m: re.Match) -> str:
        try:
            return value_text(book, m.group(1), m.group(2))
        except UnknownValue as exc:
            if errors is None:
                raise
            errors.append(str(exc))
            return f"``{m.group(2)}``"
    return _ROLE.sub(one, text)


def value_text(book: Book, role: str, target: str) -> str:
    """What ``:rb:ROLE:`TARGET``` writes: reST inline text."""
    target = target.strip()
    if role == "nombre":
        values = _values(book, *_at_count(target))
        if len(set(values.values())) != 1:
            raise UnknownValue(f"{target} depends on the player count: write :rb:selon:`{target}` or {target}@N")
        return str(next(iter(values.values())))
    if role == "selon":
        name, _, noun = target.partition(" ")
        values = _values(book, *_at_count(name))
        return _by_count(values, noun)
    if role == "joueurs":
        return _at(game_player_counts(book.program))
    if role == "composition":
        return _cards(book, target)
    if role == "phrase":
        return _sentence(book, target)
    raise UnknownValue(f"unknown role rb:{role}")


def _at_count(target: str) -> tuple[str, int | None]:
    name, at, count = target.partition("@")
    if at and not count.strip().isdigit():
        raise UnknownValue(f"{target}: expected NAME@N, N a number of players")
    return name.strip(), int(count) if at else None


def _by_count(values: dict[int, object], noun: str) -> str:
    """« 8 quartiers à 2 ou 3 joueurs, 7 quartiers de 4 à 8 joueurs », or one value when all are equal."""
    groups: dict[object, list[int]] = {}
    for n, v in values.items():
        groups.setdefault(v, []).append(n)
    written = [f"**{v}**" + (f" {plural(noun) if isinstance(v, int) and v > 1 else noun}" if noun else "")
               for v in groups]
    if len(groups) == 1:
        return written[0]
    return _and([f"{w} {_at(ns)}" for w, ns in zip(written, groups.values())])


# ---------------------------------------------------------------- numbers
def _values(book: Book, name: str, count: int | None) -> dict[int, object]:
    """The value named by ``name`` at each player count (or at ``count`` only)."""
    program = book.program
    counts = [count] if count is not None else game_player_counts(program)
    if count is not None and count not in game_player_counts(program):
        raise UnknownValue(f"{name}@{count}: the game is not played with {count} players")
    rule = program.rules.get(name)
    if rule is not None:
        amounts = {h.expr.value for h in rule.heads if h.kind == "adjust" and isinstance(h.expr, ast.IntLit)}
        if len(amounts) != 1:
            raise UnknownValue(f"rule {name} adjusts by no single number")
        return {n: next(iter(amounts)) for n in counts}
    if ":" in name:
        procedures, _, held = name.partition(":")
        playable = {n for c in book.program.configurations.values() for n in book.result.configurations.get(c.name, [])}
        if count is None:            # a game is played with some configuration's cards: the counts one allows
            counts = [n for n in counts if n in playable] or counts
        return {n: _after(book, [p.strip() for p in procedures.split("+")], held.strip(), n) for n in counts}
    if name in program.quantities:
        return {n: _quantity(book, name, n) for n in counts}
    raise UnknownValue(f"the spec declares no quantity or rule {name}")


def _engine(book: Book, players: int):
    """An interpreter at the start of a game with the cards of the first configuration playable at that
    count (a random player for every choice: the values read here do not depend on them)."""
    from checker.runtime import Engine, RandomAgent
    cache = book.__dict__.setdefault("_value_engine", [])      # compiling the interpreter takes a while: once
    if not cache:
        cache.append(Engine(book.result.typed))
    engine = cache[0]
    playable = [c for c in book.program.configurations.values()
                if players in book.result.configurations.get(c.name, [])]
    cards = select(book.program, playable[0], players).cards if playable else {}
    engine.start(dict(cards), players, 0, [RandomAgent(seed) for seed in range(players)])
    return engine


def _quantity(book: Book, name: str, players: int):
    q = book.program.quantities[name]
    if q.params and isinstance(q.default, ast.IntLit):     # its default, whatever card or player it is asked of
        return q.default.value
    engine = _engine(book, players)
    args = []
    for param in q.params:
        if isinstance(param.type, ast.TypeName) and param.type.name == "Player":
            args.append(0)
        else:
            raise UnknownValue(f"quantity {name}: only quantities of no parameter or of players have one value")
    return engine.quantity(name, tuple(args))


def _after(book: Book, procedures: list[str], held: str, players: int):
    program = book.program
    for proc in procedures:
        if proc not in program.procedures or program.procedures[proc].params:
            raise UnknownValue(f"the spec declares no procedure {proc} without parameters")
    from checker.runtime import SpecRuntimeError
    engine = _engine(book, players)
    try:
        for proc in procedures:
            engine.call(proc, ())
    except SpecRuntimeError as exc:
        raise UnknownValue(f"{'+'.join(procedures)} at {players} players: {exc}") from None
    st = engine.st
    if held in program.zones:
        zone = st.zones[held]
        return len(zone.get(0, ()) if isinstance(zone, dict) else zone)
    if held in program.vars:
        value = st.vars[held]
        return value.get(0, 0) if isinstance(value, dict) else value
    raise UnknownValue(f"the spec declares no zone or counter {held}")


# ---------------------------------------------------------------- cards and sentences
def _cards(book: Book, name: str) -> str:
    program = book.program
    if re.fullmatch(r"#\d+", name):       # the configurations in the order the spec declares them
        declared = list(program.configurations.values())
        k = int(name[1:])
        if not 0 < k <= len(declared):
            raise UnknownValue(f"the spec declares {len(declared)} configurations, not {k}")
        config = declared[k - 1]
        return f"« {rst_escape(config.name)} », " + _cards(book, config.name)
    config = program.configurations.get(name)
    if config is None:
        raise UnknownValue(f"the spec declares no configuration « {name} »")
    groups: dict[tuple, list[int]] = {}
    for n in book.result.configurations.get(config.name, []):
        cards = select(program, config, n).cards
        groups.setdefault(tuple((k, tuple(v)) for k, v in cards.items()), []).append(n)
    return " ; ".join(f"{_at(players)}, {_selection_text(book, dict(cards))}" for cards, players in groups.items())


_DECLARED = ("quantities", "rules", "procedures", "actions", "zones", "vars", "tables", "constraints",
             "decisions", "kinds", "cards")


def _cites(decl) -> list[ast.Cite]:
    """Every quotation in a declaration (a card's: its powers' and rules' too), in the order they are written."""
    found = [n for n in _nodes(decl) if isinstance(n, ast.Cite)]
    return sorted(dict.fromkeys(found), key=lambda c: (c.span.file, c.span.line, c.span.column))


def _sentence(book: Book, target: str) -> str:
    name, pick = re.match(r"([^#~]+)(.*)", target).groups()
    decl = next((getattr(book.program, table)[name.strip()] for table in _DECLARED
                 if name.strip() in getattr(book.program, table)), None)
    if decl is None:
        raise UnknownValue(f"the spec declares nothing named {name.strip()}")
    cites = _cites(decl)
    if pick.startswith("#"):
        k = int(pick[1:]) if pick[1:].isdigit() else 0
        chosen = cites[k - 1] if 0 < k <= len(cites) else None
    elif pick.startswith("~"):
        chosen = next((c for c in cites if pick[1:].strip().lower() in c.quote.lower()), None)
    else:
        chosen = cites[0] if cites else None
    if chosen is None:
        raise UnknownValue(f"{name.strip()} cites no such sentence ({target})")
    return f"*« {book.shown(chosen)} »*"

