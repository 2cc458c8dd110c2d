"""An illegal move that several items of an offer could have made (checker/solver/legal.py's `check`): the
explanation is the item's whose reasons are fewest, and among as few, the first item's, in the offer's order —
the same move explained the same way however often it is asked.  On the spice market whose offer has a second
item `acheter(p, l) for l in panier[p]`: buying the Cannelle from the other player's basket is drawn from neither
collection, one reason each; `legal` names the first item's (`for l in étal`).  Survivor of the blind mutation
sample 9171 against the whole suite: legal.py:410 `len(verdict.reasons) < len(best.reasons)` → `<=` (the last of
the equally short explanations)."""

from __future__ import annotations

from checker.front.check import check_paths
from conftest import ROOT, verdict_at_first_decision

ITEM = "        acheter(p, l) for l in étal\n"


def test_a_move_two_items_refuse_for_as_many_reasons_is_explained_by_the_first(tmp_path):
    text = (ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules").read_text(encoding="utf-8")
    assert ITEM in text
    spec = tmp_path / "marché.rules"
    spec.write_text(text.replace(ITEM, ITEM + "        acheter(p, l) for l in panier[p]\n"), encoding="utf-8")
    result = check_paths([spec])
    assert result.ok, [d.message for d in result.reporter.errors]
    line = next(i for i, x in enumerate(spec.read_text(encoding="utf-8").splitlines(), 1) if x == ITEM[:-1])

    def from_the_other_basket(e, decision):
        lot = e.card("Cannelle")
        e.st.put(lot, "panier", 1 - decision.player, "top")       # in the other player's basket
        return ("action", "acheter", (decision.player, lot))
    verdict = verdict_at_first_decision(result, from_the_other_basket)
    assert verdict.status == "illegal"
    assert [(r.kind, r.text, r.span.line) for r in verdict.reasons] == \
        [("from", "l is not drawn from this collection", line)]
