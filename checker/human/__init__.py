"""Playing at the terminal: `rulebook play --human SEAT`.

:class:`Table` seats a person among the engine's agents: before each of their decisions it prints what
happened since (the others' choices in French, secret ones as a mere fact) and the table as that seat may
see it (:mod:`checker.human.board`), then asks (:class:`~checker.human.agent.HumanAgent`).  The words come
from the spec and the book's lexicon (:mod:`checker.human.words`), found by :func:`find_lexicon`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from checker.front import ast

from checker.base import terminal
from checker.human.agent import HumanAgent, HumanQuit, Narrator
from checker.human.board import board, board_blocks
from checker.human.words import Words
from checker.prose import Lexicon, capitalize, humanize
from checker.front.types import Coll, GridT, Opt, RecordT

__all__ = ["Table", "HumanAgent", "HumanQuit", "Words", "find_lexicon", "LexiconError"]


class LexiconError(Exception):
    """The lexicon named for a spec cannot be read; the message says which and why."""


def find_lexicon(paths: list[Path], given: str | Path | None = None) -> Lexicon | None:
    """The book's lexicon for a spec: ``given``, else the one the nearest ``rulebook.toml`` above the spec
    names (``lexicon = "docs/lexique.toml"``), else none (identifiers are then read as words)."""
    import tomllib
    from checker.base.settings import find_config, read_settings
    path = Path(given) if given else None
    if path is None and paths:
        first = Path(paths[0]).resolve()
        config = find_config(first if first.is_dir() else first.parent)
        path = read_settings(config).lexicon if config is not None else None
    if path is None:
        return None
    try:
        return Lexicon.load(path)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError, KeyError, TypeError) as exc:
        raise LexiconError(f"cannot read the lexicon {path}: {getattr(exc, 'strerror', None) or exc}") from None


class Table:
    """A game with a person at ``seat``: wraps the agents and prints, through ``output``, what they see.
    With ``seat`` None no one plays at the terminal: every agent is narrated and :meth:`show_events` prints
    the whole game, secret choices included, in the same words (the plain log of `rulebook play`)."""

    def __init__(self, engine, lexicon: Lexicon | None, seat: int | None, output: Callable[[str], None] = print,
                 input=input):
        self.engine = engine
        self.seat = seat
        self.words = Words(engine, lexicon, seat)
        self.output = output
        self.said: dict[int, str] = {}          # event index -> how the person reads that decision
        self.shown = 0                          # events printed so far
        self.last_board: list[list[str]] = []
        self.agent = HumanAgent(input=input, output=output, before=self.before, words=self.words,
                                view=self.show_board)
        self._marks: dict[str, dict] = {}

    def agents(self, agents: list) -> list:
        """The game's agents: the person at their seat, the others told to remember what they chose."""
        return [self.agent if i == self.seat else Narrator(a, self.words, self.said) for i, a in enumerate(agents)]

    def before(self, decision) -> None:
        self.show_events()
        self._marks = self._grid_marks(decision)
        blocks = board_blocks(self.words, self._marks)
        if blocks != self.last_board:
            self.output("")
            # under the same heading (round, who plays) only the blocks that changed; else the whole table
            same = bool(blocks and self.last_board and blocks[0] == self.last_board[0])
            for block in blocks:
                if not same or block not in self.last_board:
                    for line in block:
                        self.output(line)
            self.last_board = blocks

    def show_board(self) -> None:
        """The whole table (the answer « v »)."""
        for line in board(self.words, self._marks):
            self.output(line)

    def show_events(self) -> None:
        """Print the game's events since the last call, as the person at the seat may see them."""
        events = self.engine.events
        last, repeated = None, 0
        for i in range(self.shown, len(events)):
            line = self.event(i, events[i])
            if line is None:
                continue
            if line == last:                     # the same secret choice again: counted, not repeated
                repeated += 1
                continue
            if repeated:
                self.output(f"{last} (×{repeated + 1})")
            elif last is not None:
                self.output(last)
            last, repeated = line, 0
        if last is not None:
            self.output(f"{last} (×{repeated + 1})" if repeated else last)
        self.shown = len(events)

    def event(self, i: int, event: dict) -> str | None:
        kind = event["kind"]
        words = self.words
        if kind == "round":
            return "\n" + terminal.paint(f"=== Tour {event['number']} ===", "bold")
        if kind == "log":
            return "  " + event["text"]
        if kind == "reveal":
            to = event.get("to")
            if to is not None and self.seat is None:
                return f"  Révélé à {words.player(to)} : {event['value']}"
            if to is not None and to != self.seat:
                return f"  (une carte est révélée à {words.player(to)})"
            return f"  Révélé{' à vous' if to is not None else ''} : {event['value']}"
        if kind == "power":
            decl = words.powers.get((event["card"], event["power"]))
            summary = decl.summary if decl is not None and decl.summary else capitalize(humanize(event["power"]))
            verb = "utilisez" if event["player"] == self.seat else "utilise"
            return f"  {words.player(event['player'], capital=True)} {verb} « {summary} » ({event['card']})"
        if kind == "cancel":
            return f"  {capitalize(words.action_in_general(event['action']))} : n'a pas lieu, l'action est contrée."
        if kind == "retarget":
            return (f"  {capitalize(words.action_in_general(event['action']))} : n'a pas lieu, son auteur choisit "
                    f"de nouveau (son pouvoir n'est pas utilisé).")
        if kind == "decision":
            if event["player"] == self.seat:
                return None                      # the person's own answer: already on the screen
            return self.said.get(i)
        return None

    def _grid_marks(self, decision) -> dict[str, dict[int, str]]:
        """grid -> {cell: "+"} for the cells the options of ``decision`` name."""
        engine = self.engine
        if not engine.grids:
            return {}
        marks: dict[str, dict[int, str]] = {}

        def note(value, ty) -> None:
            if isinstance(ty, Opt):
                ty = ty.inner
            if isinstance(ty, GridT) and isinstance(value, int):
                marks.setdefault(ty.name, {})[value] = "+"
            elif isinstance(ty, RecordT) and isinstance(value, tuple):
                for field, v in zip(engine.program.records[ty.name].fields, value):
                    note(v, engine.resolve_type(field.type))
            elif isinstance(ty, Coll) and isinstance(value, (tuple, list)):
                for v in value:
                    note(v, ty.elem)

        for option in decision.options:
            if isinstance(decision.site, ast.Offer) and isinstance(option, tuple) and option[0] == "action":
                for v, t in zip(option[2], engine.param_types[option[1]]):
                    note(v, t)
            else:
                note(option, self.words.chosen_type(decision))
        return marks
