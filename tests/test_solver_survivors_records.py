"""A symbolic set of records in the conflict search (checker/solver/search.py `symbolic`, shapes.py
`record_values`): one Boolean per value the record type has — every combination of its fields' values, a Bool
field being false or true — and no constraint beyond (any subset, the empty one and the full one included).
A set of cells likewise (one per cell of the grid's window).  Survivors of the blind mutation sample -e:
search.py:156 (a set of cells' constraint made false; its twin for records, :159, too) and shapes.py:63 (a Bool
field's values), which no test of the solver set ran; and search.py:252 (now :256: a question false before Z3
is asked counts no query)."""

from __future__ import annotations

import json

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



CELLS = """\
game "Cases" { players: 2..2  flow: partie }

enum Côté { nord, est, sud, ouest }
grid Case 3 by 3 directions Côté

kind Jeton { valeur: Int in 1..1  start: réserve }
zone réserve: pile of Jeton public
zone sur[Case]: set of Jeton public

action poser(p: Player, x: Case) "Poser un jeton." { }

rule occupée { forbid poser(p, x) when count(j in sur[x]) >= 1 }
rule empilée { permit poser(p, x) when count(j in sur[x]) >= 2 }

card Jeton "Un" { valeur: 1 }
card Jeton "Deux" { valeur: 1 }
procedure partie() {
  for p in players { offer p { poser(p, x) for x in collect(d in Côté: step(center(Case), d))  finish "Passer" } }
}
configuration "Tout" { include Jeton: "Un", "Deux" }
"""


def test_a_zone_at_a_symbolic_cell_is_encoded_over_the_cells_it_can_be(tmp_path):
    """`sur[x]`, a zone indexed by a grid cell, read at the move's cell (a Z3 term whose cells are known: the
    window's): both rules are encoded, and the search finds that they contradict each other where both tokens are
    on one cell — a witness the interpreter confirms.  Survivor of the blind mutation sample -l (encode.py:330, now
    :334, `is None` → `is not None`: a zone at a cell whose values are known refused as not known in advance),
    which no test of the solver set ran."""
    path = tmp_path / "cases.rules"
    path.write_text(CELLS, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    found = Search(result.typed).contradictions()
    assert [(f.kind, f.rules, f.confirmed) for f in found] == [("contradiction", ("empilée", "occupée"), True)]
    [cell] = found[0].witness["zones"]["sur"].values()
    assert sorted(cell) == ["Deux", "Un"]


BRANCHES = """\
game "Marques" { players: 2..2  flow: partie }

enum Côté { nord, sud }
record Marque { côté: Côté, fort: Bool }

kind Jeton { valeur: Int in 1..1  start: sac }
zone sac: pile of Jeton public
counter réserve unlimited
counter bourse[Player] public
var dernière: Marque? = none

action marquer(p: Player, b: Bool) "Marquer." {
  let m = dernière
  if b { set m = Marque(sud, true) }
  transfer 1 from bourse[p] to réserve
}

card Jeton "Un" { valeur: 1 }
procedure partie() { for p in players { offer p { marquer(p, true)  finish "Finir" } } }
configuration "Tout" { include Jeton: "Un" }
"""


def test_a_record_bound_in_one_branch_of_an_if_only_is_refused_where_it_is(tmp_path, capsys):
    """`m`, an optional record, set to a record in the `then` branch only: the encoding does not merge a record
    with none, and `conflicts --effects` says so at the `if` (line 14) — an undecided question, exit 4, not a
    Python error and not a message without its place.  Survivor of the blind mutation sample -l (transition.py:691,
    now :638, `or` → `and`: a record and a none merged, refused deeper with no location), which no test of the
    solver set ran."""
    from checker.cli import main
    path = tmp_path / "marques.rules"
    path.write_text(BRANCHES, encoding="utf-8")
    code = main(["conflicts", str(path), "--effects", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 4
    [finding] = out["findings"]
    assert finding["kind"] == "unknown" and finding["rules"] == ["marquer"]
    assert finding["unknown"] == f"{path}:14:3: a record bound differently in the two branches of an if is not encoded"
