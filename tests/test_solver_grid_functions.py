"""The grid functions `row`, `column` and `step` read the same in Z3 as in the interpreter, on every cell of a
small grid (its corners and edges included) and every direction: a quantity of each, compared cell by cell
(a step off the grid is an error in both, on exactly the same cells)."""

from __future__ import annotations

import pytest
import z3

from checker.front.check import check_paths
from checker.runtime import Engine
from checker.runtime.state import SpecRuntimeError
from checker.solver.encode import Encoder, Unsupported
from conftest import ROOT

GAME = ROOT / "tests" / "fixtures" / "good" / "grid_tiles.rules"
HOUSE = """quantity ligne(x: Case): Int = row(x)
quantity colonne(x: Case): Int = column(x)
quantity voisine(x: Case, d: Côté): Case = step(x, d)
"""


def _value(term):
    return term if isinstance(term, int) else z3.simplify(term).as_long()


def test_row_column_and_step_agree_with_the_interpreter_on_every_cell(tmp_path):
    house = tmp_path / "grille.rules"
    house.write_text(HOUSE, encoding="utf-8")
    result = check_paths([GAME, house])
    assert result.ok, [d.message for d in result.diagnostics]
    e = Engine(result.typed)
    e.recording = False
    e.start({"Tuile": ["Droite", "Virage"]}, 2, 0, [])
    enc = Encoder(e, concrete=True)
    grid = e.grids["Case"]
    case_ty = enc.resolve(e.program.quantities["ligne"].params[0].type)
    side_ty = enc.resolve(e.program.quantities["voisine"].params[1].type)
    sides = list(enc.enum_names[side_ty.name])
    differ, compared, off_grid = [], 0, []
    for x in range(grid.cells):
        cell = enc.from_runtime(x, case_ty)
        for name, args, runtime_args in [("ligne", (cell,), (x,)), ("colonne", (cell,), (x,))] + [
                ("voisine", (cell, enc.from_runtime(d, side_ty)), (x, d)) for d in sides]:
            try:
                expected = e.quantity(name, runtime_args)
            except SpecRuntimeError:    # a step off the grid: an error in both
                with pytest.raises(Unsupported, match="leaves the grid"):
                    enc.quantity(name, args)
                off_grid.append(runtime_args)
                continue
            term = enc.quantity(name, args)
            compared += 1
            if _value(term) != enc.from_runtime(expected, enc.resolve(e.program.quantities[name].type)):
                differ.append((name, runtime_args, term, expected))
    assert differ == [], differ[:5]
    assert compared + len(off_grid) == grid.cells * (2 + len(sides))
    assert len(off_grid) == 4 * 9, "each side of the 9 × 9 grid, 9 cells a side"
    assert {e.quantity("ligne", (x,)) for x in range(grid.cells)} == set(range(-4, 5))
    assert {e.quantity("colonne", (x,)) for x in range(grid.cells)} == set(range(-4, 5))
