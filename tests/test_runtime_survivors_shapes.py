"""A grid's `row` and `column` count from its middle cell (checker/runtime/shapes.py): on a 9 × 9 grid the
middle is (0, 0), the first cell (-4, -4), the last (4, 4) — the interpreter's values, each exact."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.runtime import Engine
from conftest import ROOT

GAME = ROOT / "tests" / "fixtures" / "good" / "grid_tiles.rules"
HOUSE = """quantity ligne(x: Case): Int = row(x)
quantity colonne(x: Case): Int = column(x)
quantity milieu(): Int = row(center(Case)) * 10 + column(center(Case))
"""


def test_row_and_column_count_from_the_middle_of_the_grid(tmp_path):
    house = tmp_path / "grille.rules"
    house.write_text(HOUSE, encoding="utf-8")
    result = check_paths([GAME, house])
    assert result.ok, [d.message for d in result.diagnostics]
    e = Engine(result.typed)
    e.recording = False
    e.start({"Tuile": ["Droite", "Virage"]}, 2, 0, [])
    grid = e.grids["Case"]
    assert (grid.width, grid.height) == (9, 9)
    assert e.quantity("milieu", ()) == 0
    cells = range(grid.cells)
    assert [(e.quantity("ligne", (x,)), e.quantity("colonne", (x,))) for x in cells] == \
        [(x // 9 - 4, x % 9 - 4) for x in cells]
    assert (e.quantity("ligne", (0,)), e.quantity("colonne", (0,))) == (-4, -4)
