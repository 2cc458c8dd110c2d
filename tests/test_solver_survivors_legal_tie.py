"""An illegal move that several items of an offer could have made (checker/solver/legal.py's `check`): the
explanation is the item's whose reasons are fewest, and among as few, the first item's, in the offer's order —
the same move explained the same way however often it is asked.  On the spice market whose offer has a second
item `acheter(p, l) for l in panier[p]`: buying the Cannelle from the other player's basket is drawn from neither
collection, one reason each; `legal` names the first item's (`for l in étal`).  Survivor of the blind mutation
sample 9171 against the whole suite: legal.py:410 `len(verdict.reasons) < len(best.reasons)` → `<=` (the last of
the equally short explanations)."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent
from checker.solver.legal import Legality, point_of
from checker.solver.scopes import Scopes
from conftest import ROOT

ITEM = "        acheter(p, l) for l in étal\n"


class _Asked(Exception):
    pass


def test_a_move_two_items_refuse_for_as_many_reasons_is_explained_by_the_first(tmp_path):
    text = (ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules").read_text(encoding="utf-8")
    assert ITEM in text
    spec = tmp_path / "marché.rules"
    spec.write_text(text.replace(ITEM, ITEM + "        acheter(p, l) for l in panier[p]\n"), encoding="utf-8")
    result = check_paths([spec])
    assert result.ok, [d.message for d in result.reporter.errors]
    line = next(i for i, x in enumerate(spec.read_text(encoding="utf-8").splitlines(), 1) if x == ITEM[:-1])
    scopes = Scopes(result.typed)
    e = Engine(result.typed)
    e.recording = False
    verdicts = []

    def observe(decision):
        p = decision.player
        lot = e.card("Cannelle")
        e.st.put(lot, "panier", 1 - p, "top")       # in the other player's basket
        e.invalidate()
        verdicts.append(Legality(e, scopes).check(point_of(decision, scopes), ("action", "acheter", (p, lot)), p))
        raise _Asked
    e.observer = observe
    try:
        e.play(select(result.program, result.program.configurations["Standard"], 2).cards, 2, 1,
               [RandomAgent(1), RandomAgent(2)])
    except _Asked:
        pass
    [verdict] = verdicts
    assert verdict.status == "illegal"
    assert [(r.kind, r.text, r.span.line) for r in verdict.reasons] == \
        [("from", "l is not drawn from this collection", line)]
