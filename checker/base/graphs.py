"""Bounded searches through a relation: what `connected(…)` and `path(…)` compute.

Both the interpreter and the Z3 encoding (on a concrete state) call these, so the two
backends follow a relation the same way.  A search visits at most :data:`MAX_REACHED`
values; a spec whose relation reaches more is stopped with a located error rather than
left running.  Results are in a canonical order (:func:`canonical`), so two searches that
reach the same values give equal collections, whatever their starting point.

>>> reachable([1], lambda x: [x + 1] if x < 4 else [])
(1, 2, 3, 4)
>>> shortest_path([1], [4], lambda x: [x + 1, x + 2])
(1, 2, 4)
>>> shortest_path([1], [9], lambda x: [x + 1] if x < 4 else [])
()
"""

from __future__ import annotations

from collections import deque
from typing import Callable, Iterable

__all__ = ["MAX_REACHED", "TooFar", "Reached", "reachable", "shortest_path", "canonical", "sort_key"]

MAX_REACHED = 100_000


class TooFar(Exception):
    """A search went past :data:`MAX_REACHED` values."""


class Reached(tuple):
    """The values a search reached, in the canonical order; membership is a set lookup."""

    def __contains__(self, value) -> bool:
        members = self.__dict__.get("_members")
        if members is None:
            members = self.__dict__["_members"] = frozenset(self)
        try:
            return value in members
        except TypeError:              # an unhashable value: compare one by one
            return tuple.__contains__(self, value)


def sort_key(value):
    """A total order on the values of the language (none, integers, text, tuples of them)."""
    if value is None:
        return (0,)
    if isinstance(value, bool):
        return (1, int(value))
    if isinstance(value, int):
        return (1, value)
    if isinstance(value, str):
        return (2, value)
    if isinstance(value, (tuple, list)):
        return (3, tuple(sort_key(v) for v in value))
    return (4, repr(value))


def canonical(values: Iterable, key: Callable = lambda v: v) -> tuple:
    """The distinct values (distinct by ``key``), in the canonical order."""
    seen = {}
    for v in values:
        seen.setdefault(key(v), v)
    return tuple(sorted(seen.values(), key=sort_key))


def reachable(starts: Iterable, successors: Callable, key: Callable = lambda v: v) -> tuple:
    """Every value reachable from ``starts`` through ``successors`` (starts included)."""
    seen: dict = {}
    todo = deque()
    for s in starts:
        if s is not None and key(s) not in seen:
            seen[key(s)] = s
            todo.append(s)
    while todo:
        x = todo.popleft()
        for y in successors(x):
            if y is not None and key(y) not in seen:
                if len(seen) >= MAX_REACHED:
                    raise TooFar()
                seen[key(y)] = y
                todo.append(y)
    return Reached(sorted(seen.values(), key=sort_key))


def shortest_path(starts: Iterable, goals: Iterable, successors: Callable, key: Callable = lambda v: v) -> tuple:
    """A shortest sequence from one of ``starts`` to one of ``goals`` (both ends included), breadth first,
    starts and successors in the order given; () when no goal can be reached."""
    targets = {key(g) for g in goals if g is not None}
    parent: dict = {}
    values: dict = {}
    todo = deque()
    for s in starts:
        if s is not None and key(s) not in parent:
            parent[key(s)] = None
            values[key(s)] = s
            todo.append(s)

    def path_to(k) -> tuple:
        out = []
        while k is not None:
            out.append(values[k])
            k = parent[k]
        return tuple(reversed(out))
    for k in parent:
        if k in targets:
            return path_to(k)
    while todo:
        x = todo.popleft()
        for y in successors(x):
            if y is None or key(y) in parent:
                continue
            if len(parent) >= MAX_REACHED:
                raise TooFar()
            parent[key(y)] = key(x)
            values[key(y)] = y
            if key(y) in targets:
                return path_to(key(y))
            todo.append(y)
    return ()
