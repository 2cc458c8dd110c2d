"""A grid built-in on a symbolic cell (`row`, `column`, `step`; `rotate` likewise) is an If chain over the cell's
possible values (checker/solver/shapes.py), built once per encoder for each built-in and arguments: a second
quantity that applies it to the same cell gets the same chain, not a copy built again — Carcassonne's dead-rule
batch built 46,848 such chains of 1,044 kinds.  The chains still read as the interpreter does, on every cell."""

from __future__ import annotations

import z3

from checker.front.check import check_paths
from checker.runtime import Engine
from checker.solver import shapes
from checker.solver.encode import Encoder
from conftest import ROOT

GAME = ROOT / "tests" / "fixtures" / "good" / "grid_tiles.rules"
HOUSE = """quantity ligne(x: Case): Int = row(x)
quantity plus_loin(x: Case, d: Côté): Int = row(step(x, d)) * 10 + column(step(x, d)) + row(x)
"""


def test_a_built_in_on_the_same_symbolic_cell_is_built_once_and_reads_as_the_interpreter(tmp_path, monkeypatch):
    house = tmp_path / "grille.rules"
    house.write_text(HOUSE, encoding="utf-8")
    result = check_paths([GAME, house])
    assert result.ok, [d.message for d in result.diagnostics]
    e = Engine(result.typed)
    e.recording = False
    e.start({"Tuile": ["Droite", "Virage"]}, 2, 0, [])
    grid = e.grids["Case"]
    enc = Encoder(e, concrete=False)
    inner = [grid.cell(r, c) for r in (-1, 0, 1) for c in (-1, 0, 1)]     # a step from each stays on the grid
    x, d = z3.Int("x"), z3.Int("d")
    shapes.remember(enc, x, tuple(inner))
    side_ty = enc.resolve(e.program.quantities["plus_loin"].params[1].type)
    sides = range(len(enc.enum_names[side_ty.name]))
    shapes.remember(enc, d, tuple(sides))
    built = []
    real = shapes._lift

    def counted(enc, args, fn, span, what):
        built.append(what)
        return real(enc, args, fn, span, what)
    monkeypatch.setattr(shapes, "_lift", counted)
    ligne = enc.quantity("ligne", (x,))
    far = enc.quantity("plus_loin", (x, d))
    # row(x) once (ligne's, reused by plus_loin), step(x, d) once (twice in plus_loin), row and column of it
    assert sorted(built) == ["column(…)", "row(…)", "row(…)", "step(…)"], built
    for cell in inner:
        assert z3.simplify(z3.substitute(ligne, (x, z3.IntVal(cell)))).as_long() == e.quantity("ligne", (cell,))
        for k in sides:
            got = z3.simplify(z3.substitute(far, (x, z3.IntVal(cell)), (d, z3.IntVal(k))))
            assert got.as_long() == e.quantity("plus_loin", (cell, enc.to_runtime(k, side_ty))), (grid.show(cell), k)
