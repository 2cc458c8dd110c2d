"""Dispatch by node type: each pass keeps a table from AST node class to the function that handles it."""

from __future__ import annotations

from typing import Callable

__all__ = ["registrar", "lazy_exports"]


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


def lazy_exports(exports: dict[str, str]) -> Callable[[str], object]:
    """A package's ``__getattr__`` (PEP 562) giving ``name`` from the module ``exports[name]`` on first use, so
    that importing the package — as the command line does to list its commands — imports none of its heavy
    dependencies (Z3, Hypothesis).

    >>> __getattr__ = lazy_exports({"dumps": "json"})
    >>> __getattr__("dumps")([1])
    '[1]'
    """
    def __getattr__(name: str):
        module = exports.get(name)
        if module is None:
            raise AttributeError(name)
        import importlib
        return getattr(importlib.import_module(module), name)
    return __getattr__
