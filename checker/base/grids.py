"""Grids: the cells of a declared ``grid``, as integers, and the moves between them.

A grid ``W by H`` has ``W * H`` cells.  A cell is the integer ``row_index * W + column_index``
(0-based); the language shows it by its row and column counted from the grid's central cell,
which is ``(0, 0)``: rows grow downwards, columns to the right.  The grid's direction enum lists
the four directions clockwise, the first one going up a row.  Every pass (interpreter, Z3
encoding, state files, prose) reads grids through this module.

>>> g = Grid("Cell", 5, 5, ("n", "e", "s", "o"))
>>> c = g.center()
>>> g.coordinates(c), g.coordinates(g.step(c, "e")), g.step(g.cell(-2, 0), "n") is None
((0, 0), (0, 1), True)
>>> [g.coordinates(x) for x in g.within(1)][:4], len(g.within(2)), len(g.within(3))
([(-1, -1), (-1, 0), (-1, 1), (0, -1)], 25, 25)
>>> rotate(("n", "e", "s", "o"), "o", 1), rotate(("n", "e", "s", "o"), "n", -1)
('n', 'o')
"""

from __future__ import annotations

import dataclasses
import functools

__all__ = ["Grid", "MAX_CELLS", "DIRECTIONS", "rotate", "grids_of"]

MAX_CELLS = 40_000          # the largest grid a spec may declare (200 by 200)
DIRECTIONS = 4
_DELTAS = ((-1, 0), (0, 1), (1, 0), (0, -1))     # up, right, down, left: clockwise from up


@dataclasses.dataclass(frozen=True)
class Grid:
    name: str
    width: int
    height: int
    directions: tuple[str, ...]      # the members of the direction enum, clockwise from up

    @property
    def cells(self) -> int:
        return self.width * self.height

    def _origin(self) -> tuple[int, int]:
        return (self.height - 1) // 2, (self.width - 1) // 2

    def cell(self, row: int, column: int) -> int | None:
        """The cell at (row, column) counted from the centre; None outside the grid."""
        r0, c0 = self._origin()
        r, c = row + r0, column + c0
        if 0 <= r < self.height and 0 <= c < self.width:
            return r * self.width + c
        return None

    def center(self) -> int:
        return self.cell(0, 0)

    def coordinates(self, cell: int) -> tuple[int, int]:
        r0, c0 = self._origin()
        return cell // self.width - r0, cell % self.width - c0

    def row(self, cell: int) -> int:
        return cell // self.width - self._origin()[0]

    def column(self, cell: int) -> int:
        return cell % self.width - self._origin()[1]

    def step(self, cell: int, direction: str) -> int | None:
        """The next cell in ``direction``; None when that is outside the grid."""
        dr, dc = _DELTAS[self.directions.index(direction)]
        r, c = divmod(cell, self.width)
        r, c = r + dr, c + dc
        if 0 <= r < self.height and 0 <= c < self.width:
            return r * self.width + c
        return None

    def within(self, radius: int) -> tuple[int, ...]:
        """The cells at most ``radius`` rows and columns from the centre, row by row (worked out once per grid
        and radius: the Z3 encoding asks it of every symbolic cell it reads)."""
        return _within(self, radius)

    def contains(self, cell) -> bool:
        return isinstance(cell, int) and not isinstance(cell, bool) and 0 <= cell < self.cells

    def show(self, cell: int) -> str:
        row, column = self.coordinates(cell)
        return f"({row}, {column})"


@functools.lru_cache(maxsize=None)
def _within(grid: Grid, radius: int) -> tuple[int, ...]:
    return tuple(c for c in (grid.cell(r, k) for r in range(-radius, radius + 1) for k in range(-radius, radius + 1))
                 if c is not None)


def rotate(members: tuple[str, ...], value: str, k: int) -> str:
    """The member ``k`` places after ``value`` in declaration order, going round (``k`` may be negative)."""
    return members[(members.index(value) + k) % len(members)]


def grids_of(program) -> dict[str, Grid]:
    """The grids a checked program declares (a grid whose direction enum is missing is left out)."""
    out = {}
    for g in program.grids.values():
        enum = program.enums.get(g.directions[0])
        if enum is not None:
            out[g.name] = Grid(g.name, g.width, g.height, tuple(m.name for m in enum.members))
    return out
