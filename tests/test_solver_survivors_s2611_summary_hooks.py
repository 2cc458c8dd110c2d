"""What a summarised procedure may write (checker/solver/unroll_summary.py's `written`) when an action it offers
opens a window before it takes effect (`before acheter(p, l) signal achat(p)`): what the powers reacting to that
window write (the Cannelle, once in a basket, rings a bell: `set cloche = 1`).  Missing it makes the summarised
search keep `cloche` across each call of the turn and prove that it never rings, though one purchase rings it.
Survivor of the lead's blind mutation sample 2611 (whole suite): unroll_summary.py:88 `h.action in
self.enc.ancestors(name)` → `not in` (no test summarised a procedure whose action a `before … signal` hooks: the
line ran in no test)."""

from __future__ import annotations

import json

from checker.cli import main
from test_reach_summary import KEEP, _market
from test_solver_survivors_summary_written import _written

HOOK = '''
var cloche: Int = 0
window achat(p: Player) "Un achat."
before acheter(p, l) signal achat(p)
'''


def _hooked(tmp_path, reacting: bool = True) -> str:
    spec = _market(tmp_path, second=False)
    text = open(spec, encoding="utf-8").read()
    cannelle = 'card Lot "Cannelle" { épice: cannelle  prix: 1 }'
    assert cannelle in text
    if reacting:
        text = text.replace(cannelle, 'card Lot "Cannelle" { épice: cannelle  prix: 1\n'
                                      '  power sonner "Sonner la cloche." { when achat(p)  mandatory  set cloche = 1 } }')
    open(spec, "w", encoding="utf-8").write(text + HOOK)
    return spec


def _reach(capsys, spec, *args):
    code = main(["reach", spec, *args, "-n", "2", "-s", "1", "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_power_reacting_to_the_window_an_offered_action_opens_is_among_what_the_turn_writes(tmp_path, capsys):
    spec = _hooked(tmp_path)
    assert _written(spec) == {"achats_du_tour", "bourse", "réserve", "panier", "étal", "cloche"}
    plain, p = _reach(capsys, spec, "cloche == 1", "--within", "4")
    assert (plain, p["status"], p["confirmed"]) == (0, "reached", True), p
    summed, s = _reach(capsys, spec, "cloche == 1", "--rounds", "1", "--summarise", "tour", KEEP[0],
                       KEEP[1] + ",cloche")
    assert summed != 1 and s["status"] != "proved", s


def test_without_a_power_reacting_to_it_the_window_adds_nothing(tmp_path):
    assert _written(_hooked(tmp_path, reacting=False)) == {"achats_du_tour", "bourse", "réserve", "panier", "étal"}
