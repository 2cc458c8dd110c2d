"""Dispatch by node type: each pass keeps a table from AST node class to the function that handles it."""

from __future__ import annotations

from typing import Callable

__all__ = ["registrar"]


def registrar(table: dict) -> Callable:
    """A decorator factory: ``@on(ast.Name)`` puts the decorated function in ``table`` for that node type.

    >>> table = {}
    >>> on = registrar(table)
    >>> @on(int)
    ... def handle(x): return x + 1
    >>> table[int](1)
    2
    """
    def on(cls):
        def register(fn):
            table[cls] = fn
            return fn
        return register
    return on
