"""Witnesses written as examples (checker/solver/as_example.py) on the market, a tiny game: an example's situation
is written against the setup's state (only what the witness changes is moved or set), and `diff --witnesses` writes
an example for a legality or value difference only (an effect difference of an action has a move file, but no
`expect` says what its effect is).  Survivors of the blind mutation sample -j: as_example.py:165 `… or {}` →
`… and {}` (the setup's state dropped: every zone moved, every var set again) and as_example.py:286 `and` → `or`
(an effect difference with a move written as `expect can`), which no test of the solver set told apart."""

from __future__ import annotations

import json

from checker.front.check import check_paths
from checker.runtime.engine import Engine
from checker.solver.as_example import setup_state, witness_example
from checker.solver.scopes import Scopes
from conftest import ROOT, run_cli

MARKET = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"

LOOP = '''    for p in players {
      offer p {
        acheter(p, l) for l in étal
        powers of panier[p]
        finish "Passer"
      }
    }'''
TURN = '''
procedure tour(p: Player) {
  offer p {
    acheter(p, l) for l in étal
    powers of panier[p]
    finish "Passer"
  }
}
'''


def _turns(tmp_path):
    """The market, each player's offer in a procedure `tour(p)`: an example's `at` binds a procedure's parameters
    (an offer inside `for p in players` has no `at` an example can write)."""
    text = MARKET.read_text(encoding="utf-8")
    assert LOOP in text
    spec = tmp_path / "marché.rules"
    spec.write_text(text.replace(LOOP, "    for p in players { call tour(p) }") + TURN, encoding="utf-8")
    result = check_paths([spec])
    assert result.ok, result.reporter.sorted()
    return spec, result


def _passes(capsys, tmp_path, spec, block) -> bool:
    path = tmp_path / "exemple.rules"
    path.write_text(block.text, encoding="utf-8")
    code, out, _ = run_cli(capsys, "test", str(spec), str(path))
    assert code in (0, 1), out
    return code == 0 and out.startswith(f"ok   {block.name}")


def test_an_examples_situation_moves_and_sets_only_what_the_witness_changes_from_the_setup(tmp_path, capsys):
    spec, result = _turns(tmp_path)
    state = setup_state(result, Engine(result.typed), Scopes(result.typed), 2, "Standard")
    assert state["zones"]["étal"] and state["vars"]["bourse"] == {"Joueur 1": 5, "Joueur 2": 5}
    # the setup's own state: nothing to move or set, the example stops at the first player's offer
    block = witness_example(result, state, "au départ", ["expect points(Joueur 1) == 0"])
    assert block.text.splitlines()[1:-1] == ['  players 2', '  configuration "Standard"', '  at tour(Joueur 1)',
                                              '  expect points(Joueur 1) == 0'], block.text
    assert _passes(capsys, tmp_path, spec, block)
    # the Cannelle bought for 1: the pile's order changed (its cards placed again, in order), the lot in the basket,
    # Joueur 1's purse set; Joueur 2's purse is the setup's, not set
    state["zones"]["étal"].remove("Cannelle")
    state["zones"]["panier"]["Joueur 1"] = ["Cannelle"]
    state["vars"]["bourse"]["Joueur 1"] = 4
    rest = ", ".join(json.dumps(name, ensure_ascii=False) for name in state["zones"]["étal"])
    block = witness_example(result, state, "un lot acheté", ["expect points(Joueur 1) == 1",
                                                             "expect bourse[Joueur 1] == 4"])
    assert block.text.splitlines()[3:-3] == [f"  move {{{rest}}} to étal", '  move "Cannelle" to panier[Joueur 1]',
                                             "  set bourse[Joueur 1] = 4", "  at tour(Joueur 1)"], block.text
    assert _passes(capsys, tmp_path, spec, block)


RETURN = 'action rendre(p: Player, l: Lot) "Rendre un lot à l\'étal." {\n  move l to étal\nPAID}\n'


def test_an_effect_difference_of_an_action_is_written_as_no_example(tmp_path, capsys):
    """`rendre` gives a coin back in B only: an effect difference, with a move file (the action and its
    arguments) like a legality difference's.  The move is legal on both sides: no `expect can` pins the change,
    so examples.rules says why it has no example for it."""
    a, b = tmp_path / "a.rules", tmp_path / "b.rules"
    a.write_text(RETURN.replace("PAID", ""), encoding="utf-8")
    b.write_text(RETURN.replace("PAID", "  transfer 1 from réserve to bourse[p]\n"), encoding="utf-8")
    folder = tmp_path / "témoins"
    code, out, _ = run_cli(capsys, "diff", str(MARKET), str(a), "--", str(MARKET), str(b), "--witnesses", str(folder))
    assert code == 1 and "1 behavioural difference(s) (1 effect)" in out, out
    assert (folder / "01-action-rendre.b.move.json").exists()
    text = (folder / "examples.rules").read_text(encoding="utf-8")
    assert "# not written: action rendre (effect): its witness is not a move or a value an example can expect" \
        in text
    assert all(line.startswith("#") for line in text.splitlines() if line.strip()), text     # no example block
