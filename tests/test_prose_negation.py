"""The book says « not » where the rules say `not`: every condition of the 4th edition's rules, negated, reads
differently from the condition itself, with a negation in it, and negated twice reads as the condition again.

A wrong word here inverts a rule for the reader (« vous pouvez … si » for « vous ne pouvez pas … si »); the golden
pages would notice, but a golden page is rewritten by `--update-golden`: this test is the guard that is not one.
"""

from __future__ import annotations

import functools
import re

import pytest

from checker.front import ast
from checker.prose.heads import bind_pattern
from checker.sphinxext import Book
from conftest import ROOT

NEGATIONS = re.compile(r"\b(ne|n'|n’|aucun|aucune|non|faux|jamais|ni|rien|personne|pas)\b|il est faux que|"
                       r"autres? que|sauf", re.IGNORECASE)


@functools.cache
def _book() -> Book:
    book = Book.load([ROOT / "spec" / "citadelles"], ROOT / "docs" / "lexique.toml")
    assert book.ok
    return book


def _conditions() -> list[tuple[str, int]]:
    out = []
    for rule in _book().program.rules.values():
        for i, head in enumerate(rule.heads):
            if head.when is not None:
                out.append((rule.name, i))
    return out


def _texts(rule_name: str, i: int) -> tuple[str, str, str]:
    from checker.prose.core import Ctx
    book = _book()
    head = book.program.rules[rule_name].heads[i]
    when = head.when

    def read(e) -> str:          # a context of its own each time: a name is introduced at its first mention
        return book.prose.cond(e, bind_pattern(book.prose, head, Ctx())[0])
    return read(when), read(ast.Unary("not", when, when.span)), \
        read(ast.Unary("not", ast.Unary("not", when, when.span), when.span))


def test_there_are_conditions_to_read():
    assert len(_conditions()) > 60


@pytest.mark.parametrize("rule_name, i", _conditions(), ids=lambda x: str(x))
def test_a_negated_condition_reads_as_its_negation(rule_name: str, i: int):
    plain, once, twice = _texts(rule_name, i)
    assert once != plain, f"`not` changed nothing: {plain!r}"
    when = _book().program.rules[rule_name].heads[i].when
    if isinstance(when, ast.Binary) and when.op in ("and", "or"):     # De Morgan: the connective turns
        turned = (" ou ", " et ") if when.op == "and" else (" et ", " ou ")
        assert turned[0] in once, f"`not ({when.op} …)` should read with « {turned[0].strip()} »:\n  {plain}\n  {once}"
    else:
        assert len(NEGATIONS.findall(once)) != len(NEGATIONS.findall(plain)) or "il est faux que" in once, \
            f"no negation added or removed:\n  {plain}\n  {once}"
    assert twice == plain, f"negated twice:\n  {plain}\n  {twice}"
