"""How the generator tells apart two values of one noun without letters (« le joueur *p* », « le joueur *s* »).

A declaration's parameter reads « le joueur » throughout and a name the text introduces « ce joueur »
(:func:`told_apart`); a name the spec writes as a word keeps it beside its noun (« le personnage *visé* »,
:func:`worded`); two parameters of a rule are « le premier quartier » and « le second quartier », in the
order of their first mentions (:func:`order`); the player a moment makes its subject is named by what it
does, « le joueur qui révèle ce personnage » (:func:`window_subject`); a number by the attribute it is
compared with, « pour chaque rang de 1 à 9 », or what it counts, « ce nombre de pièces d'or »
(:func:`number_noun`, :func:`counted_noun`); two choices by the places they were made in, « le quartier de
votre cité » (:func:`placed`).  The functions take the
:class:`~checker.prose.core.Prose` they work for as ``p`` (this module sits below it).
"""

from __future__ import annotations

import dataclasses
import re

from checker.front import ast
from checker.front.types import INT, PLAYER, Coll, Opt, Ty
from checker.prose.context import Binding, Ctx
from checker.prose.french import bare, contract, demonstrative, feminine, named, plural

__all__ = ["told_apart", "worded", "is_player", "order", "names_players", "window_subject", "number_noun",
           "counted_noun", "placed", "parameter_nouns", "unit_noun", "UNIT"]

_DEFINITE = ("def",)                                    # « le joueur » at every mention
_DEMONSTRATIVE = ("intro", "each", "param", "exists", "rel")   # « ce joueur » once introduced (or described)


def told_apart(one: Binding, other: Binding) -> bool:
    """Two names of the same noun a reader tells apart without letters: a declaration's parameter, read
    « le joueur » throughout, and one name the text introduces, read « ce joueur » after its introduction;
    a name written with its own word and any other."""
    if {one.mode, other.mode} <= {*_DEFINITE, *_DEMONSTRATIVE}:
        return (one.mode in _DEFINITE) != (other.mode in _DEFINITE)
    # a name the spec gives a word of its own (« le personnage *visé* ») is told apart by that word
    return (one.mode == "named") != (other.mode == "named")


def is_player(ty: Ty | None) -> bool:
    return ty == PLAYER or isinstance(ty, Opt) and ty.inner == PLAYER


def worded(binding: Binding) -> bool:
    """A name the spec writes as a word (``visé``, ``victimes``), which tells its value apart when written
    beside its noun, unlike a letter."""
    return len(binding.name) > 2 and binding.name.replace("_", "").isalpha()


def order(p, ref, ctx: Ctx) -> None:
    """Two parameters of the same noun (a rule's « un quartier de votre cité contre un quartier de la cité
    d'un joueur ») are told apart by the order of their first mentions: « le premier quartier », « le
    second quartier », rather than by letters."""
    if not ref.labeled or ref.binding.mode != "param" or ref.plural:
        return
    rivals = [p._refs.get(u) for u in ref.rivals]
    if len(rivals) != 1 or rivals[0] is None or rivals[0].binding.mode != "param":
        return
    alike = [b for b in ctx.locals if b.mode not in ("you", "alias", "whatever") and
             (b.noun or p.type_noun(b.ty)) == ref.noun and isinstance(b.ty, Coll) == ref.plural]
    if len(alike) != 2:         # a third one of the noun: « le premier » would not say which
        return
    rival = rivals[0]
    if rival.ordinal is None and rival.binding.uid in ctx.seen:
        return          # the other one is already written with its letter
    ordinal = "second" if rival.ordinal == "premier" else "premier"
    if named(ref.noun, ordinal) is not None:
        ref.ordinal = ordinal


def names_players(p, power: ast.PowerDecl) -> bool:
    """Does the power's text introduce a player of its own (a loop, a choice, a `let`), which « ce joueur »
    would also name?"""
    for node in ast.walk((power.requires, tuple(power.body))):
        source = getattr(node, "coll", None) if hasattr(node, "var") else \
            node.value if isinstance(node, ast.Let) else None
        ty = p.types.get(id(source)) if source is not None else None
        if is_player(ty.elem if isinstance(ty, Coll) else ty):
            return True
    return False


def window_subject(p, window: str, i: int, types: list, binders, found: dict, ctx: Ctx) -> str | None:
    """The player a moment's wording makes its subject (``{i} révèle {1}``), named by what it does:
    « le joueur qui révèle ce personnage » (up to the first comma), so that a power's steps need no letter
    to tell it from the players they introduce."""
    template = p.lex.windows.get(window)
    if template is None or not template.startswith(f"{{{i}}} "):
        return None
    subject = p.type_noun(PLAYER)
    args = []
    for j, (binder, _) in enumerate(binders):
        if j == i:
            args.append(subject)
        elif binder in found:
            args.append(p.expr(found[binder], ctx))
        elif is_player(types[j]):
            args.append("\0")      # « le joueur qui attaque », or « … à un autre joueur » inside the clause
        else:
            args.append(demonstrative(p.type_noun(types[j])))
    text = p.fill(template, args, Ctx()).split(", ")[0]
    text = text[:-2] if text.endswith(" \0") else text.replace("\0", "un autre " + bare(subject))
    if not text.startswith(subject + " ") or "\ue000" in text:      # a name's marker: not plain words
        return None
    return f"{subject} qui {text[len(subject) + 1:]}"


def number_noun(p, name: str, body, depth: int = 0) -> str | None:
    """The noun of a number ``name`` in ``body``, from the one attribute it is compared with for equality
    (``x.rank == r``: « le rang »), or what it counts where it is the amount of a transfer or a draw
    (« le nombre de pièces d'or »), looking into the procedures it is passed to; None if there is none or
    more than one, so that the number keeps its letter."""
    found: set[str] = set()
    stack: list = [body]
    while stack:
        node = stack.pop()
        if isinstance(node, (tuple, list)):
            stack.extend(node)
            continue
        if not dataclasses.is_dataclass(node):
            continue
        if isinstance(node, ast.Binary) and node.op == "==":
            for one, other in ((node.left, node.right), (node.right, node.left)):
                if isinstance(one, ast.Name) and one.id == name and isinstance(other, ast.Attr):
                    found.add(p.lex.attribute_noun(other.name))
        if isinstance(node, (ast.Transfer, ast.Draw)) and isinstance(amount := getattr(node, "amount", None) or
                                                                   getattr(node, "count", None), ast.Name) \
                and amount.id == name:
            found.add(_counted_unit(p, node))       # « le nombre de pièces d'or » the player receives
        if isinstance(node, ast.CallProc) and depth < 4 and p.program is not None and \
                node.name in p.program.procedures:
            proc = p.program.procedures[node.name]
            for arg, param in zip(node.args, proc.params):
                if isinstance(arg, ast.Name) and arg.id == name:
                    noun = number_noun(p, param.name, proc.body, depth + 1)
                    found |= {noun} if noun else set()
        if isinstance(node, (ast.For, ast.Aggregate, ast.Choose)) and getattr(node, "var", None) == name:
            stack.append(node.coll)     # the same name bound again inside: only its collection is ours
            continue
        stack.extend(getattr(node, f.name) for f in dataclasses.fields(node) if f.name != "span")
    return found.pop() if len(found) == 1 else None


def _counted_unit(p, node) -> str:
    """« le nombre de pièces d'or », « le nombre de cartes »: what a transfer or a draw counts."""
    if isinstance(node, ast.Transfer):
        head, _, rest = (p.lex.unit or "unité").partition(" ")
        return f"le nombre de {bare(plural('la ' + head))}" + (f" {rest}" if rest else "")
    term = p.lex.terms.get(node.source.name)
    return f"le nombre de {bare(plural(term.element if term and term.element else 'la carte'))}"


def counted_noun(text: str) -> str | None:
    """The noun of a number whose value reads « le nombre de quartiers de type … »: « le nombre de
    quartiers », by which it is named after (« ce nombre de quartiers »), not by a letter."""
    m = re.match(r"le nombre (?:de |d')([^\W\d_]+)", text)
    return f"le nombre {'d' + chr(39) if text.startswith('le nombre d' + chr(39)) else 'de '}{m.group(1)}" if m else None


def placed(p, ref) -> bool:
    """Is a chosen value told apart from its rivals by the place it was chosen in (« le quartier de votre
    cité », « le quartier de la cité de ce joueur »)?  Its rivals are other choices from other places, or
    indefinites (« un quartier de la cité d'un joueur »)."""
    if ref.binding.mode == "exists":    # « un quartier de la cité d'un joueur », then « le quartier de … »
        return ref.binding.source is not None and not ref.plural and all(
            r is not None and r.binding.mode in ("param", "def") for r in map(p._refs.get, ref.rivals))
    return ref.binding.mode == "intro" and ref.binding.source is not None and all(
        r is not None and (r.binding.mode in ("exists", "rel") or r.binding.mode in ("param", "def") and
                           not worded(ref.binding) or r.binding.mode == "intro" and
                           r.binding.source is not None and r.binding.source != ref.binding.source)
        for r in map(p._refs.get, ref.rivals))


def parameter_nouns(p, params, body=None, template: str | None = None) -> list[str | None]:
    """How a procedure's steps name its parameters, as its heading does (« Le joueur subit l'attaque d'un
    autre joueur »), not by their letters: a number by the attribute it is compared with or what it counts
    (:func:`number_noun`), else by the noun the heading puts before it (« après le rang {0} »), « le rang
    donné »; of two parameters of one noun, the one the heading reads second is « l'autre joueur » (with
    three, « l'autre » would not say which: None, the type's noun and a letter).  ``template``: the
    heading's wording in the lexicon, ``{0}``… for the parameters."""
    types = [p._resolve_type(param.type) for param in params]
    nouns: list[str | None] = [None] * len(params)
    text = template or ""
    reading = sorted(range(len(params)), key=lambda i: (text.find("{%d}" % i) % (len(text) + 1), i))
    seen: list[str] = []
    for i in reading:
        if types[i] == INT:
            noun = number_noun(p, params[i].name, body) if body is not None else None
            before = re.search(r"\b(?:le|la|l'|du|de la|de l'|au|à la|à l') ?([^\W\d_]+) \{%d\}" % i, text)
            if noun is None and before is not None:
                noun = f"{'la' if feminine(before.group(1)) else 'le'} {before.group(1)}"
            if noun is not None:
                nouns[i] = f"{noun} {'donnée' if feminine(noun) else 'donné'}"
            continue
        noun = p.type_noun(types[i])
        alike = sum(1 for t in types if t is not None and t != INT and p.type_noun(t) == noun and
                    isinstance(t, Coll) == isinstance(types[i], Coll))
        if noun in seen and alike == 2 and not isinstance(types[i], Coll):
            nouns[i] = contract(f"l'autre {bare(noun)}")
        seen.append(noun)
    return nouns


UNIT = r"([^\W\d_][\w()’']*(?: (?:de|d'|du|des) ?[^\W\d_][\w()’']*)?)"      # « quart(s) de tour », « points »


def unit_noun(template: str | None, i: int) -> str | None:
    """The noun of a number a wording puts before its unit (« tournée de {3} quart(s) de tour »): « le nombre
    de quarts de tour », by which the number is named (« un nombre de quarts de tour », then « ce nombre de
    quarts de tour »), not by a letter; None when the wording has no word after it."""
    m = re.search(r"\{%d\} %s" % (i, UNIT), template or "")
    if m is None or m.group(1) in ("de", "à", "et", "ou", "en", "pour", "par", "sur", "si", "qui", "que"):
        return None
    return f"le nombre de {m.group(1).replace('(s)', 's')}"
