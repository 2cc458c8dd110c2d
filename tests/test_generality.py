"""The engine knows no game: no name a bundled spec declares is written in `checker/`.

Every game's vocabulary — its vars and counters, zones, kinds and their attributes, windows, actions,
quantities, tables, procedures, enums and their members, records, grids and cards — lives in `spec/`.
The test reads every module of `checker/` (docstrings and comments apart) and fails on a string that
is one of those names, or on a snake_case name of the vocabulary anywhere in a string or an identifier
(such a name cannot be an ordinary word of a message).  A few French words that the book's prose uses as
words, and that a spec happens to use as a name too, are listed below with the file they are allowed in.
"""

from __future__ import annotations

import ast as pyast
import functools
import re
from pathlib import Path

import pytest

from checker.front.check import check_paths
from checker.front.declarations import GAME_FIELDS
from checker.front.parse import keywords

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = [("spec/citadelles",), ("spec/carcassonne",), ("spec/citadelles", "spec/extension-fan"),
           ("spec/citadelles", "spec/maison/bâtisseuse.rules")]
TABLES = ("vars", "zones", "kinds", "windows", "actions", "quantities", "tables", "procedures", "enums",
          "records", "grids", "cards")
# words of the language itself, which a spec may also use as names
LANGUAGE = set(GAME_FIELDS) | {"copies", "name"}
# (file, word): a French word written as a word (or a key of a JSON document), not as the spec's name
WORDS = {
    ("checker/prose/core.py", "est"): "the verb « être » (Carcassonne's direction `est` is another thing)",
    ("checker/prose/exprs.py", "est"): "the verb « être »",
    ("checker/prose/aggregates.py", "est"): "the verb « être »",
    ("checker/prose/style.py", "est"): "the verb « être », in the style rules' tables of verbs",
    ("checker/prose/style.py", "ouest"): "a word before which « le » is not elided (« le ouest » is not French)",
    ("checker/prose/exprs.py", "derrière"): "a preposition",
    ("checker/prose/french.py", "cartes"): "the lexicon's section [cartes]",
    ("checker/prose/french.py", "est"): "the verb « être »",
    ("checker/prose/french.py", "pouvoir"): "the verb « pouvoir »",
    ("checker/sphinxext/book.py", "pouvoir"): "the label of the book's power pages",
    ("checker/sphinxext/book.py", "quartier"): "the label of a district's page in the book",
    ("checker/sphinxext/book.py", "type"): "the label of a type's page in the book",
    ("checker/sphinxext/__init__.py", "cartes"): "the folder of the book's card pages",
    ("checker/base/documents.py", "type"): "a JSON Schema key",
    ("checker/lsp/complete.py", "type"): "an LSP message key",
    ("checker/lsp/hover.py", "type"): "an LSP message key",
    ("checker/lsp/index.py", "type"): "an LSP message key",
    ("checker/lsp/server.py", "type"): "an LSP message key",
    ("checker/scenario/command.py", "type"): "a key of `rulebook eval --json`",
    ("checker/sphinxext/editions.py", "départage"): "the French label of the game's `tiebreak` field",
}


# modules that are tables of the French language (conjugations): any word there is a French word
FRENCH = {"checker/prose/verbs.py"}


@functools.cache
def vocabulary() -> dict[str, str]:
    """Every name the bundled specs declare -> what it names (in the first spec that declares it)."""
    out: dict[str, str] = {}
    for paths in BUNDLED:
        result = check_paths([ROOT / p for p in paths])
        assert result.ok, paths
        p = result.program
        for table in TABLES:
            for name in getattr(p, table):
                out.setdefault(name, f"{table[:-1]} of {paths[-1]}")
        for name in p.enum_members:
            out.setdefault(name, f"enum member of {paths[-1]}")
        for kind in p.kinds.values():
            for attr in kind.attrs:
                out.setdefault(attr.name, f"attribute of {kind.name} ({paths[-1]})")
    for word in LANGUAGE | keywords():
        out.pop(word, None)
    return out


def _docstrings(tree) -> set[int]:
    """The ids of the docstring constants of a module, its classes and functions."""
    out = set()
    for node in pyast.walk(tree):
        if isinstance(node, (pyast.Module, pyast.ClassDef, pyast.FunctionDef, pyast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, pyast.Expr) and isinstance(first.value, pyast.Constant) \
                    and isinstance(first.value.value, str):
                out.add(id(first.value))
    return out


def _exported(tree) -> set[int]:
    """The ids of the strings of ``__all__`` (they name Python objects)."""
    out = set()
    for node in pyast.walk(tree):
        if isinstance(node, (pyast.Assign, pyast.AugAssign)):
            targets = node.targets if isinstance(node, pyast.Assign) else [node.target]
            if any(isinstance(t, pyast.Name) and t.id == "__all__" for t in targets):
                out |= {id(n) for n in pyast.walk(node.value) if isinstance(n, pyast.Constant)}
    return out


def uses(source: str, names: dict[str, str]) -> list[tuple[int, str]]:
    """(line, name) for each use of a vocabulary name in Python ``source`` (docstrings and comments apart)."""
    tree = pyast.parse(source)
    skip = _docstrings(tree) | _exported(tree)
    found = []
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            text = node.value
            if text in names:
                found.append((node.lineno, text))
            found += [(node.lineno, w) for w in re.findall(r"\w+", text) if "_" in w and w in names and w != text]
        elif isinstance(node, (pyast.Name, pyast.Attribute, pyast.arg, pyast.FunctionDef, pyast.ClassDef)):
            ident = getattr(node, "id", None) or getattr(node, "attr", None) or getattr(node, "arg", None) \
                or getattr(node, "name", None)
            if ident and "_" in ident.strip("_") and ident in names:
                found.append((node.lineno, ident))
    return found


def test_the_engine_names_nothing_a_bundled_spec_declares():
    names = vocabulary()
    hits = []
    for path in sorted((ROOT / "checker").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative in FRENCH:
            continue
        for line, name in uses(path.read_text(encoding="utf-8"), names):
            if (relative, name) not in WORDS:
                hits.append(f"{relative}:{line}: '{name}' ({names[name]})")
    assert hits == []


def test_every_allowed_word_is_still_needed():
    """An allowance that no longer matches anything is taken away (the list only shrinks)."""
    names = vocabulary()
    found = {(path.relative_to(ROOT).as_posix(), name) for path in (ROOT / "checker").rglob("*.py")
             for _, name in uses(path.read_text(encoding="utf-8"), names)}
    assert set(WORDS) - found == set()


@pytest.mark.parametrize("planted, name", [
    ('if zone == "choisis":\n    pass\n', "choisis"),
    ('rank = attrs.get("rank")\n', "rank"),
    ('player = values.get(("joueur_actif", None))\n', "joueur_actif"),
    ('message = f"the {x} of personnage_actif"\n', "personnage_actif"),
    ('kinds = {"Character": 1}\n', "Character"),
    ('def tour_de_jeu():\n    return 1\n', "tour_de_jeu"),
])
def test_a_planted_use_is_found(planted, name):
    assert (1, name) in uses(planted, vocabulary())


def test_docstrings_comments_and_words_are_not_uses():
    source = ('"""The zone choisis holds the chosen characters."""\n'
              '# zone == "choisis"\n'
              'def f():\n    """joueur_actif, in a docstring."""\n    return "Le personnage est choisi."\n')
    assert uses(source, vocabulary()) == []
