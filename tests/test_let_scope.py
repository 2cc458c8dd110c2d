"""A local name lives from where it is bound to the end of its action, procedure or power — in the interpreter (one
Python local a name per body: checker/runtime/compile.py) and in the encoding (an `if`'s branches join their
names) alike.  A `let` inside a block that rebinds a name bound outside it, or a `for`/`choose` variable that reuses
a name in scope, read as if the block ended the new binding (the type checker scoped names by block) while the game
went on with it: h186 found a `let` of another type inside a branch making `play` fail with an internal error after
the block.  Both are now refused by `check` (E0303) with `set` as the way to change a name."""

from __future__ import annotations

from checker.cli import main
from conftest import ROOT

MARKET = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"
PASS = 'finish "Passer"'


def _check(tmp_path, capsys, action: str):
    """The market with `action` added and offered; `check`'s exit code and its diagnostics."""
    text = MARKET.read_text(encoding="utf-8")
    assert PASS in text
    spec = tmp_path / "marché.rules"
    spec.write_text(text.replace(PASS, "trier(p)\n        " + PASS, 1) + action, encoding="utf-8")
    capsys.readouterr()
    code = main(["check", str(spec)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err, spec


def test_a_let_of_another_type_inside_a_branch_is_refused_where_it_is_written(tmp_path, capsys):
    code, err, spec = _check(tmp_path, capsys, '''
action trier(p: Player) "Trier." {
  let s = 1
  if bourse[p] >= 3 {
    let s = filter(l in étal where l.prix >= 2)
    for l in s { move l to panier[p] }
  }
  transfer s from bourse[p] to réserve
}
''')
    assert code != 0, err
    assert f"{spec}:78:5: error[E0303]: 's' is bound outside this block" in err, err
    assert "    let s = filter(l in étal where l.prix >= 2)\n      |     ^" in err, err
    assert "hint: `set s = …` to change it" in err, err


def test_a_let_of_the_same_type_inside_a_loop_is_refused_too(tmp_path, capsys):
    # read as a new name that ends with the block, it changes the outer one in both backends: `set` says so
    code, err, spec = _check(tmp_path, capsys, '''
action trier(p: Player) "Trier." {
  let n = 0
  repeat {
    let n = n + 1
  } until n >= 2
  transfer n from bourse[p] to réserve
}
''')
    assert code != 0 and f"{spec}:78:5: error[E0303]: 'n' is bound outside this block" in err, err


def test_a_for_variable_that_reuses_a_name_in_scope_is_refused(tmp_path, capsys):
    # after the loop the interpreter's `l` held the last lot, the type checker's the Int
    code, err, spec = _check(tmp_path, capsys, '''
action trier(p: Player) "Trier." {
  let l = 1
  for l in étal { move l to panier[p] }
  transfer l from bourse[p] to réserve
}
''')
    assert code != 0 and f"{spec}:77:3: error[E0303]: 'l' is already bound here: the for variable" in err, err


def test_a_choose_variable_that_reuses_a_parameter_is_refused(tmp_path, capsys):
    code, err, spec = _check(tmp_path, capsys, '''
action trier(p: Player) "Trier." {
  choose p in players by p
}
''')
    assert code != 0 and f"{spec}:76:3: error[E0303]: 'p' is already bound here: the choose variable" in err, err


def test_a_name_bound_in_a_block_that_has_ended_is_not_read_as_the_var_of_that_name(tmp_path, capsys):
    # the interpreter read its local where the branch was taken and the var elsewhere; the encoding the branch's value
    code, err, spec = _check(tmp_path, capsys, '''
action trier(p: Player) "Trier." {
  if bourse[p] >= 3 { let tours_joués = 0 }
  transfer tours_joués from bourse[p] to réserve
}
''')
    assert code != 0 and f"{spec}:77:12: error[E0303]: 'tours_joués' was bound inside a block above" in err, err


def test_a_var_written_after_a_loop_over_its_name_is_refused(tmp_path, capsys):
    # the interpreter wrote its local (the loop's last lot), the type checker the var
    code, err, spec = _check(tmp_path, capsys, '''
action trier(p: Player) "Trier." {
  for tours_joués in 1..2 { transfer 0 from bourse[p] to réserve }
  set tours_joués = 5
}
''')
    assert code != 0 and f"{spec}:77:7: error[E0303]: 'tours_joués' was bound inside a block above" in err, err


def test_set_in_a_block_a_let_at_the_same_level_and_sibling_loops_are_accepted(tmp_path, capsys):
    code, err, _ = _check(tmp_path, capsys, '''
action trier(p: Player) "Trier." {
  let n = 0
  let n = n + 1
  repeat {
    set n = n + 1
  } until n >= 3
  if bourse[p] >= 3 { set n = 0 }
  for l in étal { move l to panier[p] }
  for l in panier[p] { move l to étal }
  transfer n from bourse[p] to réserve
}
''')
    assert code == 0, err
