"""A symbolic set of records in the conflict search (checker/solver/search.py `symbolic`, shapes.py
`record_values`): one Boolean per value the record type has — every combination of its fields' values, a Bool
field being false or true — and no constraint beyond (any subset, the empty one and the full one included).
A set of cells likewise (one per cell of the grid's window).  Survivors of the blind mutation sample -e:
search.py:156 (a set of cells' constraint made false; its twin for records, :159, too) and shapes.py:63 (a Bool
field's values), which no test of the solver set ran; and search.py:252 (now :256: a question false before Z3
is asked counts no query)."""

from __future__ import annotations

import pytest
import z3

from checker.conflicts.questions import Search
from checker.front import ast
from checker.front.check import check_paths

GAME = """\
game "Marques" { players: 2..2  flow: partie }

enum Côté { nord, sud }
enum Dir { haut, droite, bas, gauche }
grid Case 3 by 3 directions Dir
record Marque { côté: Côté, fort: Bool }

kind Carte { valeur: Int in 1..2  start: pioche }
zone pioche: pile of Carte public
var vus: Int = 0

action marquer(p: Player, m: Marque, c: Case) "Marquer." { set vus = vus + 1 }

card Carte "Un" { valeur: 1 }

procedure partie() { }

configuration "Tout" { include Carte: "Un" }
"""


@pytest.fixture(scope="module")
def search(tmp_path_factory):
    path = tmp_path_factory.mktemp("marques") / "marques.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    return Search(result.typed, players=2)


def test_a_symbolic_set_of_records_is_one_boolean_per_value_and_any_subset(search):
    enc = search.encoder()
    members, d = search.symbolic(enc, "m", enc.resolve(ast.SetType(ast.TypeName("Marque", None), None)))
    names = sorted(str(b) for b, _ in members)
    assert len(names) == 4 and len(set(names)) == 4, names
    assert all(n.startswith("m ∋ ") for n in names)
    assert sorted(x for _, x in members) == sorted((c, f) for c in (0, 1) for f in (False, True))
    domain = d if not isinstance(d, bool) else z3.BoolVal(d)
    for pick in ([], [True] * 4, [True, False, False, True]):
        s = z3.Solver()
        s.add(domain, *[b == (pick[i] if pick else False) for i, (b, _) in enumerate(members)])
        assert s.check() == z3.sat, pick


def test_a_symbolic_set_of_cells_is_one_boolean_per_cell_of_the_window_and_any_subset(search):
    from checker.solver.shapes import field_domain
    enc = search.encoder()
    case = enc.resolve(ast.TypeName("Case", None))
    members, d = search.symbolic(enc, "c", enc.resolve(ast.SetType(ast.TypeName("Case", None), None)))
    assert [x for _, x in members] == list(field_domain(enc, case)) and len(members) >= 1
    assert len({str(b) for b, _ in members}) == len(members)
    domain = d if not isinstance(d, bool) else z3.BoolVal(d)
    for value in (False, True):
        s = z3.Solver()
        s.add(domain, *[b == value for b, _ in members])
        assert s.check() == z3.sat, value


def test_a_question_false_before_z3_is_asked_is_unsat_without_a_query(search):
    """A formula that is the constant false makes the question unsat at once: no Z3 query is counted (the
    `queries` that `conflicts` reports); a question Z3 answers is one query."""
    enc = search.encoder()
    before = search.queries
    assert search.solve(enc, True, False)[0] == "unsat"
    assert search.queries == before
    x = z3.Bool("x")
    assert search.solve(enc, x, z3.Not(x))[0] == "unsat"
    assert search.queries == before + 1

