"""An offer's loop `for l in rayon[safran]`, in a procedure whose parameter `safran` shadows the enum value of that
name, and a rule `forbid goûter(p, l) when l not in rayon[safran]` whose `safran` is the enum value: the two places
are written alike but are not the same zone's cell, so the offer's loop says nothing about the rule's condition
(checker/runtime/narrowing.py: only binders and the spec's zones and vars are « names a rule and the offer both mean
the same by »).  Called with `poivre`, the Poivre noir in `rayon[poivre]` is not in `rayon[safran]`: forbidden, and
not offered.  Written for the survivor narrowing.py:124 `False → True` of the blind runtime sample h169
(bench/results/mutation-2026-11-29-h169.txt): no test ran that line; the mutant takes the two places for one and
drops the prohibition's only part — it offers the forbidden move."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.runtime import Engine
from conftest import ROOT

ADDED = """
zone rayon[Épice]: pile of Lot public
action goûter(p: Player, l: Lot) "Goûter." { move l to panier[p] }
rule pas_du_rayon { forbid goûter(p, l) when l not in rayon[safran] }
procedure goûts(p: Player, safran: Épice) {
  offer p {
    goûter(p, l) for l in rayon[safran]
    finish "Passer"
  }
}
"""


def _offered(tmp_path, shelf: str) -> list[str]:
    text = (ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules").read_text(encoding="utf-8")
    text = text.replace("  shuffle étal\n", "  shuffle étal\n  for l in étal { if l.épice == poivre { move l to "
                        f"rayon[{shelf}] }} }}\n  for p in players {{ call goûts(p, {shelf}) }}\n", 1)
    path = tmp_path / "marché.rules"
    path.write_text(text + ADDED, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    engine = Engine(result.typed)
    engine.recording = False
    seen = []

    class First:
        def choose(self, decision):
            if not seen:
                seen.append([str(decision.label(o)) for o in decision.options])
            return len(decision.options) - 1 if decision.options else 0

    engine.play({"Lot": ["Safran d'Iran", "Poivre noir", "Cannelle"]}, 2, 1, [First(), First()])
    return seen[0]


def test_a_move_the_rule_forbids_on_a_shelf_named_by_a_shadowing_parameter_is_not_offered(tmp_path):
    offered = _offered(tmp_path, "poivre")
    assert not any("Poivre" in o for o in offered), offered


def test_the_same_offer_on_the_shelf_the_rule_names_lists_the_card(tmp_path):
    """Called with `safran` (the enum value, no shadowing at the call), the pepper is on `rayon[safran]`: allowed."""
    offered = _offered(tmp_path, "safran")
    assert any("Poivre" in o for o in offered), offered
