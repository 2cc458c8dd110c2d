"""The player's book in brief (``player-essentials``): what a new player must know before the first turn,
generated from the spec so that it cannot drift.

Each fact comes from a declaration, never from a sentence written here: the numbers that depend on the
player count are the spec's quantities evaluated by the interpreter at each count the game allows; what
a player receives is the quantities' defaults; who wins is the game's ``score`` and ``tiebreak``; what
everyone sees is the visibility of the zones, counters and vars; the cards to play with are each
configuration's selection.  Where a declaration cites the rulebook, its sentences are shown beside it.
"""

from __future__ import annotations

import dataclasses

from checker.front import ast
from checker.front.configurations import game_player_counts, select
from checker.front.types import INT, EnumT
from checker.prose import capitalize, humanize, plural, rst_escape
from checker.prose.french import bare, contract
from checker.sphinxext import rst
from checker.sphinxext.book import FLOW_PAGES, Book
from checker.sphinxext.render import _params_ctx

__all__ = ["render_player_essentials"]


def _nodes(node):
    """Every AST node under ``node`` (itself included)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (tuple, list)):
            stack.extend(n)
            continue
        if not dataclasses.is_dataclass(n):
            continue
        yield n
        stack.extend(getattr(n, f.name) for f in dataclasses.fields(n) if f.name != "span")


def _reads_player_count(expr) -> bool:
    return any(isinstance(n, ast.Name) and n.id == "player_count" for n in _nodes(expr))


def _quotes(book: Book, cites) -> list[str]:
    said = list(dict.fromkeys(book.shown(c) for c in cites))
    return [f"*« {q} »*" for q in said]


def _runs(counts: list[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for n in sorted(counts):
        if out and n == out[-1][-1] + 1:
            out[-1].append(n)
        else:
            out.append([n])
    return out


def _at(counts: list[int]) -> str:
    """« à 2 ou 3 joueurs », « de 4 à 8 joueurs », « à 2 joueurs et de 4 à 7 joueurs »."""
    return _and([f"à {r[0]} joueurs" if len(r) == 1 else f"à {r[0]} ou {r[1]} joueurs" if len(r) == 2
                 else f"de {r[0]} à {r[-1]} joueurs" for r in _runs(counts)])


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " et " + items[-1] if items else ""


def _per_player_count(book: Book) -> list[str]:
    """The zero-parameter quantities that depend on the player count, evaluated at each count."""
    program, prose = book.program, book.prose
    counts = game_player_counts(program)
    chosen = [q for q in program.quantities.values()
              if not q.params and prose._resolve_type(q.type) == INT and _reads_player_count(q.default)]
    if not chosen or not counts:
        return []
    from checker.runtime import Engine
    engine = Engine(book.result.typed)
    values: dict[str, dict[int, object]] = {q.name: {} for q in chosen}
    for n in counts:
        engine.start({}, n, 0, [])
        for q in chosen:
            values[q.name][n] = engine.quantity(q.name, ())
    lines = rst.title("Selon le nombre de joueurs", "-")
    for q in chosen:
        term = capitalize(prose.term_text(q.name, [], INT))
        by_value: dict[object, list[int]] = {}
        for n, v in values[q.name].items():
            by_value.setdefault(v, []).append(n)
        parts = [f"**{v}** {_at(ns)}" for v, ns in by_value.items()]
        lines += [rst.sentence(f"{term} : " + " ; ".join(parts)), ""]
        lines += [line for quote in _quotes(book, q.cites) for line in (quote, "")]
    return lines


def _flow_actions(book: Book) -> list[str]:
    """The actions the game's procedures make a player take (``do``), in the order they appear."""
    found: list[str] = []
    for proc in book.program.procedures.values():
        for n in _nodes(proc.body):
            if isinstance(n, ast.Do) and n.action in book.program.actions:
                found.append(n.action)
    return list(dict.fromkeys(found))


def _defaults(book: Book) -> list[str]:
    """What a player receives or may do by default: the quantities of one player whose value is a number,
    then the rulebook's sentences the actions of the game's procedures cite."""
    program, prose = book.program, book.prose
    rows = []
    for q in program.quantities.values():
        if len(q.params) == 1 and isinstance(q.default, ast.IntLit) and \
                prose._resolve_type(q.params[0].type) == prose._resolve_type(ast.TypeName("Player", None)):
            rows.append(rst.sentence("Par défaut, " + prose.default_clause(q, _params_ctx(book, q.params))))
    cited = []
    for name in _flow_actions(book):
        body = program.actions[name].body or ()
        cites = [n.cite for n in _nodes(body) if isinstance(n, ast.CiteStmt)]
        cited += _quotes(book, cites)
    if not rows and not cited:
        return []
    lines = rst.title("Ce que chacun reçoit", "-") + rst.bullets(rows)
    return lines + [line for quote in cited for line in (quote, "")]


def _winner(book: Book) -> list[str]:
    """Who wins: the game's score, then its tie-break, each as a sentence with the rulebook's own."""
    program, prose = book.program, book.prose
    lines: list[str] = []
    score, tiebreak = book.game_field("score"), book.game_field("tiebreak")
    for name, sentence in ((score, "Le vainqueur est le joueur qui a {} le plus grand."),
                           (tiebreak, "En cas d'égalité, le vainqueur est, parmi les ex æquo, celui qui a {} "
                                      "le plus grand.")):
        q = program.quantities.get(name) if name else None
        if q is None:
            continue
        wording = prose.lex.terms.get(q.name)
        text = wording.text if wording is not None else f"le {humanize(q.name)} de {{0}}"
        term = text[:-len(" de {0}")] if text.endswith(" de {0}") else text.format("chaque joueur")
        clause = prose.default_clause(q, _params_ctx(book, q.params))
        changed = sum(1 for r in program.rules.values() for h in r.heads if h.pattern.name == q.name)
        lines += [contract(sentence.format(term)), "",
                  rst.sentence(f"Par défaut, {clause} ; des règles et des cartes le modifient (voir "
                               f"« {dict(FLOW_PAGES)['end']} »)" if changed else capitalize(clause)), ""]
        lines += [line for quote in _quotes(book, q.cites) for line in (quote, "")]
    return rst.title("Qui gagne", "-") + lines if lines else []


def _visibility(book: Book) -> list[str]:
    """What every player sees, what only its owner sees, what no one sees: from the declarations."""
    program, prose = book.program, book.prose
    public, own, secret = [], [], []
    # a player's zones and counters (a var is the game's bookkeeping: who plays, what was done this turn)
    declared = [*program.zones.values(), *(v for v in program.vars.values() if v.counter)]
    for decl in declared:
        index = getattr(decl, "index", None)
        if index is None or index.name != "Player":
            continue
        term = prose.lex.terms.get(decl.name)
        if term is None:
            continue
        text = term.text.format("chaque joueur", *[""] * 3) if "{" in term.text else \
            prose.possess(term.text, "chaque joueur")
        visibility = getattr(decl, "visibility", None)
        if visibility == "public":
            public.append(contract(text))
        elif visibility == "hidden":
            own.append(contract(text))
        elif visibility == "secret":
            secret.append(contract(text))
    rows = []
    if public:
        rows.append(rst.sentence(f"Tous les joueurs voient {_and(public)}"))
    if own:
        rows.append(rst.sentence(f"Seul le joueur concerné voit le contenu de {_and(own)} ; les autres "
                                 f"en voient le nombre"))
    if secret:
        rows.append(rst.sentence(f"Personne ne voit le contenu de {_and(secret)}"))
    return rst.title("Ce que chacun voit", "-") + rst.bullets(rows) if rows else []


def _selection_text(book: Book, cards: dict) -> str:
    program, prose = book.program, book.prose
    parts = []
    for kind, names in cards.items():
        if not names:
            continue
        noun = bare(book.kind_noun(kind))
        decls = [program.cards[n] for n in names]
        total = sum(book.attr(c, "copies") or 1 for c in decls)
        if len(names) <= 12:
            parts.append(f"{total} {plural(noun) if total > 1 else noun} ("
                         + ", ".join(book.card_ref(n) for n in names) + ")")
            continue
        detail = []
        for attr in program.kinds[kind].attrs:
            if not isinstance(prose._resolve_type(attr.type), EnumT):
                continue
            by_member: dict[str, int] = {}
            for card in decls:
                value = book.attr(card, attr.name)
                if value is not None:
                    by_member[value] = by_member.get(value, 0) + (book.attr(card, "copies") or 1)
            detail += [f"{k} {plural(capitalize(humanize(m))) if k > 1 else capitalize(humanize(m))}"
                       for m, k in by_member.items()]
        # the kind's own noun, as with few cards (« 75 tuiles », « 68 quartiers »), not « cartes Tuile »
        parts.append(f"{total} {plural(noun) if total > 1 else noun}" + (f", dont {_and(detail)}" if detail else ""))
    return " ; ".join(parts)


def _configurations(book: Book) -> list[str]:
    """Each configuration's cards, once per group of player counts that use the same: a kind with few
    cards by name, else counted by the members of its enum attributes."""
    program = book.program
    rows: list[str] = []
    for config in program.configurations.values():
        counts = book.result.configurations.get(config.name, [])
        groups: dict[tuple, list[int]] = {}
        for n in counts:
            cards = select(program, config, n).cards
            groups.setdefault(tuple((k, tuple(v)) for k, v in cards.items()), []).append(n)
        for cards, players in groups.items():
            rows.append(rst.sentence(f"**{rst_escape(config.name)}**, {_at(players)} : "
                                     + _selection_text(book, dict(cards))))
    return rst.title("Avec quelles cartes jouer", "-") + rst.bullets(rows) if rows else []


PARTS = {"counts": _per_player_count, "receives": _defaults, "winner": _winner, "visibility": _visibility,
         "configurations": _configurations}


def render_player_essentials(book: Book, arg: str = "") -> str:
    """``player-essentials [PART]``: the page a new player reads first; with a part's name (``visibility``…),
    that part alone, without its title (for the teaching page)."""
    if arg:
        if arg not in PARTS:
            raise KeyError(f"part {arg} (expected one of {', '.join(PARTS)})")
        return "\n".join(PARTS[arg](book)[3:])
    lines = rst.title("La partie en bref")
    for part in PARTS.values():
        lines += part(book)
    return "\n".join(lines)
