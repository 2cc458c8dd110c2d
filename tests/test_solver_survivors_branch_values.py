"""What the encoding of an `if` does with a name each branch leaves with its own value (checker/solver/transition.py,
the `ast.If` handler): the same object, kept; a value on one side only, kept; a COLLECTION (a list of (guard,
element)) on both sides, the two lists joined, each element guarded by its branch; a collection on ONE side only,
refused (located: undecided); a record on either side, refused; else an `if-then-else` term.
Survivor 5181 #58 (transition.py:664 `isinstance(a, list) or isinstance(b, list)` → `and`): between two values of
the same type a collection is a list on both sides wherever the encoding has one, so `or` and `and` send the same
pairs to the join; they differ where ONE side is a list, which two things made, each an internal error (exit 3)
before h186's fix, by either operator:
- a var holding a set, read in a symbolic state (`conflicts --effects`): the state's cell for it is an Int unknown
  (checker/solver/encode.py `Cells.var`), joined with a set literal: `for g, x in <ArithRef>`;
- a `let` inside a branch that shadowed an outer name with another type (a bug of the language's scopes: the
  interpreter, too, read the inner value after the block; such a `let` is now refused by `check`, E0303 —
  tests/test_let_scope.py).
Now the `or` refuses both (Unsupported at the `if`), and the `and` lets them through to an `if-then-else` of a list
(a Z3 exception, an internal error): killed.  And a set-valued var WRITTEN under a condition (reach's concrete
states: `If(guard, list, old)` in the store, an internal error) is refused where it is written."""

from __future__ import annotations

import json


from checker.cli import main
from conftest import ROOT

MARKET = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"
PASS = 'finish "Passer"'

SORTED = '''
action trier(p: Player) "Trier." {
  let s = filter(l in étal where l.prix >= 2)
  if bourse[p] >= 3 { set s = étal }
  for l in s { move l to panier[p] }
}
'''
TASTED = '''
var goûtées: set of Épice = {}
action trier(p: Player) "Goûter." {
  let s = goûtées
  if bourse[p] >= 3 { set s = {safran} }
  set goûtées = s
}
'''


def _spec(tmp_path, action: str):
    text = MARKET.read_text(encoding="utf-8")
    assert PASS in text
    spec = tmp_path / "marché_trié.rules"
    spec.write_text(text.replace(PASS, "trier(p)\n        " + PASS, 1) + action, encoding="utf-8")
    assert main(["check", str(spec)]) == 0
    return str(spec)


def test_a_collection_rebound_in_one_branch_is_joined_and_the_interpreter_confirms_it(tmp_path, capsys):
    spec = _spec(tmp_path, SORTED)
    capsys.readouterr()
    code = main(["reach", spec, "count(l in panier[Joueur 1]) >= 2", "--within", "2", "-n", "2", "-s", "1"])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("reached after 1 decision(s) (confirmed by the interpreter)"), out


def test_a_set_var_read_in_a_symbolic_state_and_joined_with_a_set_is_refused_at_the_if(tmp_path, capsys):
    spec = _spec(tmp_path, TASTED)
    capsys.readouterr()
    code = main(["conflicts", spec, "--effects", "--json", "--workers", "1"])
    out = json.loads(capsys.readouterr().out)
    assert code == 4, out
    [finding] = [f for f in out["findings"] if f["kind"] == "unknown"]
    assert finding["unknown"] == f"{spec}:78:3: a collection in one branch of an if and another value in the other " \
                                 f"is not encoded", finding


def test_a_set_var_written_under_a_condition_is_refused_where_it_is_written(tmp_path, capsys):
    spec = _spec(tmp_path, TASTED)
    capsys.readouterr()
    code = main(["reach", spec, "safran in goûtées", "--within", "2", "-n", "2", "-s", "1"])
    out = capsys.readouterr().out
    assert code == 4 and out.startswith(f"undecided: the encoding cannot follow the game: {spec}:79:3: writing a var "
                                        f"holding a collection under a condition is not encoded"), out

