"""The AST of `example` declarations (worked examples): frozen dataclasses with a span on every node, like
:mod:`checker.front.ast`, whose expressions, places and citations they hold."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from checker.base.source import Span
from checker.front.ast import Call, Cite, Expr, LValue

__all__ = ["ExampleSet", "ExampleMove", "ExampleCall", "ExampleAnswer", "ExampleExpect", "ExampleStep",
           "ExampleDecl"]

@dataclass(frozen=True, slots=True)
class ExampleSet:
    """`set v[i] = value`: the situation gives a var this value."""
    target: LValue
    value: Expr
    span: Span


@dataclass(frozen=True, slots=True)
class ExampleMove:
    """`move cards to zone[i]`: the situation puts these cards there (taken from wherever the setup put them)."""
    cards: Expr
    target: LValue
    span: Span


@dataclass(frozen=True, slots=True)
class ExampleCall:
    """`call proc(args)`: the game runs the procedure from the situation; the answers that follow answer it."""
    name: str
    args: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class ExampleAnswer:
    """A move or an answer: `do act(args)`, `do "Card".power`, `choose value`, `random value` (the outcome of the
    next draw `choose … at random`, a die's face), `finish "label"`."""
    kind: str                   # "action" | "power" | "choose" | "random" | "finish"
    name: str | None            # the action, the power, the finish label
    card: str | None            # a power's card
    args: tuple[Expr, ...]      # an action's arguments, or (the value chosen,)
    span: Span


@dataclass(frozen=True, slots=True)
class ExampleExpect:
    """`expect condition [by rule, …]`: true at the next decision point the game reaches (or at the end);
    ``by``: a `not can …` is forbidden by these rules."""
    condition: Expr
    by: tuple[tuple[str, Span], ...]
    span: Span


ExampleStep = Union[ExampleCall, ExampleAnswer, ExampleExpect]


@dataclass(frozen=True, slots=True)
class ExampleDecl:
    """`example "name" { … }`: a worked example — a situation, moves and answers, expectations."""
    name: str
    cites: tuple[Cite, ...]
    players: int | None
    configuration: tuple[str, Span] | None
    at: Call | None              # the offer of this procedure, its parameters bound to these arguments
    situation: tuple[ExampleSet | ExampleMove, ...]
    steps: tuple[ExampleStep, ...]
    span: Span
