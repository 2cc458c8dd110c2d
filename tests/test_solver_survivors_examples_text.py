"""What an example written from a witness says (checker/solver/as_example.py), on the market, a tiny game.

* A state file may name a card's first copy as `"Cannelle#1"` (statefile.py reads it as the first copy); the
  example's `move` names the card by its name, `"Cannelle"`, as an example reads a card's first copy.  Survivor of
  the blind mutation sample 9171 against the whole suite: as_example.py:191 `c.split("#")[0]` → `[1]` (`move "1"`).
* The comment a conflict's example starts with is its message, one line, cut at 300 characters with its prefix
  (`rulebook conflicts: `): a house rule with a long name gives a longer one.  Survivor of 9171: as_example.py:277
  `[:300]` → `[:301]`.  The length is the code's choice (as diff's, as_example.py:303), held here as it is."""

from __future__ import annotations

from checker.conflicts.questions import Search
from checker.front.check import check_paths
from checker.runtime.engine import Engine
from checker.solver.as_example import conflict_examples, setup_state, witness_example
from checker.solver.scopes import Scopes
from conftest import ROOT

MARKET = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"


def test_a_first_copy_named_with_its_suffix_is_moved_by_its_cards_name():
    result = check_paths([MARKET])
    assert result.ok, result.reporter.sorted()
    state = setup_state(result, Engine(result.typed), Scopes(result.typed), 2, "Standard")
    state["zones"]["étal"].remove("Cannelle")
    state["zones"]["panier"]["Joueur 1"] = ["Cannelle#1"]
    block = witness_example(result, state, "un lot acheté", ["expect points(Joueur 1) == 1"])
    lines = block.text.splitlines()
    assert '  move "Cannelle" to panier[Joueur 1]' in lines, block.text


LONG = "cannelle_permise_" + "_".join(["aux_acheteurs_qui_ont_assez_de_pièces"] * 3)


def test_a_conflicts_long_message_is_cut_to_300_characters_in_its_examples_comment(tmp_path):
    house = tmp_path / "maison.rules"
    house.write_text(f'rule {LONG} {{ permit acheter(p, l) when l == "Cannelle" }}\n', encoding="utf-8")
    result = check_paths([MARKET, house])
    assert result.ok, result.reporter.sorted()
    finding = next(f for f in Search(result.typed).contradictions() if f.rules == (LONG, "payer"))
    text = f"rulebook conflicts: {finding.message}"
    assert len(text) > 301 and finding.move is not None
    lines = conflict_examples(result, [finding]).splitlines()
    start = lines.index(f'example "contradiction {LONG} / payer" {{')
    assert lines[start + 1] == f"  # {text[:300]}"
