"""A witness written as an example (checker/solver/as_example.py `witness_example`) whose selection holds a card
the configuration does not (a witness selects what its question needs).  The example's game has such a card only
where its situation names it (checker/examples/run.py `named_cards`, as `play --add`), and its situation is
written against the setup with those cards (`added`): so each zone holding one is written even where the setup
leaves it as it is — on the base the Clou de girofle, on the stall where the setup shuffles it, was named nowhere,
and the example ran without it (`count(l in étal)` 3, not 4: a BUG, fixed here) — and a zone the extra card only
changes through the setup (a basket dealt from the stall it was shuffled into) is not written when the setup with
it gives the same.  Survivor of the lead's blind mutation sample 2611 (whole suite): as_example.py:164 `name in
program.cards` → `not in` (the setup compared against without the witness's extra cards)."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.runtime.engine import Engine
from checker.solver.as_example import setup_state, witness_example
from checker.solver.scopes import Scopes
from conftest import run_cli
from test_solver_survivors_examples import LOOP, MARKET, TURN

CLOU = '\ncard Lot "Clou de girofle" { épice: cannelle  prix: 1 }\n'
DEAL = "  shuffle étal\n  for p in players { draw 1 from étal to panier[p] }\n"


def _spec(tmp_path, deal: bool):
    text = MARKET.read_text(encoding="utf-8").replace(LOOP, "    for p in players { call tour(p) }") + TURN + CLOU
    text = text.replace("require count(l in selected(Lot)) == 3", "require count(l in selected(Lot)) >= 3")
    if deal:
        assert "  shuffle étal\n" in text
        text = text.replace("  shuffle étal\n", DEAL, 1)
    spec = tmp_path / "marché.rules"
    spec.write_text(text, encoding="utf-8")
    result = check_paths([spec])
    assert result.ok, result.reporter.sorted()
    return spec, result


def _run(tmp_path, capsys, spec, text):
    path = tmp_path / "exemple.rules"
    path.write_text(text, encoding="utf-8")
    code, out, _ = run_cli(capsys, "test", str(spec), str(path))
    return code, out


def test_a_card_beyond_the_configuration_left_where_the_setup_puts_it_is_named(tmp_path, capsys):
    spec, result = _spec(tmp_path, deal=False)
    state = setup_state(result, Engine(result.typed), Scopes(result.typed), 2, "Standard",
                        [("Lot", "Clou de girofle")])
    assert "Clou de girofle" in state["zones"]["étal"]
    block = witness_example(result, state, "avec le clou", ["expect count(l in étal) == 4"])
    moves = [line for line in block.text.splitlines() if line.startswith("  move ")]
    assert len(moves) == 1 and '"Clou de girofle"' in moves[0] and moves[0].endswith(" to étal"), block.text
    code, out = _run(tmp_path, capsys, spec, block.text)
    assert code == 0 and out.startswith("ok   avec le clou"), out


def test_a_zone_the_extra_card_changes_only_through_the_setup_is_not_written(tmp_path, capsys):
    """The setup shuffles the stall and deals one lot to each basket; with the Clou in the game the deal is another
    one.  Each zone is written only if it holds the Clou or differs from that setup."""
    spec, result = _spec(tmp_path, deal=True)
    state = setup_state(result, Engine(result.typed), Scopes(result.typed), 2, "Standard",
                        [("Lot", "Clou de girofle")])
    without = setup_state(result, Engine(result.typed), Scopes(result.typed), 2, "Standard")
    holding = {f"{zone}[{key}]" if key else zone for zone, content in state["zones"].items()
               for key, cards in (content.items() if isinstance(content, dict) else [(None, content)])
               if "Clou de girofle" in cards}
    assert len(holding) == 1
    assert state["zones"] != without["zones"]       # the deal depends on the extra card
    expectations = [f"expect count(l in panier[Joueur {k}]) == 1" for k in (1, 2)] + ["expect count(l in étal) == 2"]
    block = witness_example(result, state, "donne avec le clou", expectations)
    moves = [line for line in block.text.splitlines() if line.startswith("  move ")]
    assert len(moves) == 1 and '"Clou de girofle"' in moves[0], block.text
    code, out = _run(tmp_path, capsys, spec, block.text)
    assert code == 0 and out.startswith("ok   donne avec le clou"), out
