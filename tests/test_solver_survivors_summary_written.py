"""What a summarised procedure may write (checker/solver/unroll_summary.py's `written`), which `reach --rounds N
--summarise PROC` makes unknown after each summarised call: a card moved out of a zone named by no expression
(`move l to panier[p]`, `l` a card) leaves every zone of its kind, and a `signal` runs the powers that react to
it.  Missing either makes the summarised search keep a zone or a var the call changes, and prove a condition
the game reaches.  Survivors of the blind mutation sample 7171 against the whole suite: unroll_summary.py:151
`e.id in program.zones` → `not in` (a card's name read as the zone it leaves: the stall is kept, and "the stall
holds at most two lots" is proved though one purchase reaches it) and unroll_summary.py:92 `pw.window is not
None` → `is None` (no test summarised a procedure that signals a window); and of sample 9171: unroll_summary.py:97
`pw.window is None` → `is not None` (the powers an offer gives, `powers of panier[p]`, not read: what they write
kept across the call)."""

from __future__ import annotations

import json
from pathlib import Path

from checker.cli import main
from test_reach_summary import KEEP, _market

BELL = '''
var cloche: Int = 0
window fin_de_tour(p: Player) "La fin d'un tour."
'''


def _reach(capsys, spec, *args):
    code = main(["reach", spec, *args, "-n", "2", "-s", "1", "--json"])
    return code, json.loads(capsys.readouterr().out)


def _written(spec) -> set:
    from checker.front.command import prepare_game
    from checker.runtime.engine import Engine
    from checker.solver.encode import Encoder
    from checker.solver.unroll_summary import written
    result, selection = prepare_game("reach", [Path(spec)], None, 2)
    engine = Engine(result.typed)
    engine.recording = False
    engine.start(selection.cards, 2, 1, [None] * 2)
    return written(Encoder(engine, concrete=False), "tour")


def test_a_lot_bought_in_a_summarised_turn_may_have_left_the_stall(tmp_path, capsys):
    """`acheter` moves `l` (a lot, not a zone) to a basket: it leaves whatever zone of its kind it is in, so the
    turn may write the stall.  One purchase leaves two lots on the stall — the plain search reaches it, confirmed
    by the interpreter — and the summarised search must not prove that it never happens."""
    spec = _market(tmp_path, second=False)
    assert _written(spec) == {"achats_du_tour", "bourse", "réserve", "panier", "étal"}
    condition = "count(l in étal) <= 2"
    plain, p = _reach(capsys, spec, condition, "--within", "3")
    assert (plain, p["status"], p["confirmed"]) == (0, "reached", True), p
    summed, s = _reach(capsys, spec, condition, "--rounds", "1", "--summarise", "tour", *KEEP)
    assert (summed, s["status"]) == (4, "undecided"), s


def test_a_power_reacting_to_a_window_the_summarised_turn_signals_is_among_what_it_writes(tmp_path, capsys):
    """`tour` signals `fin_de_tour(p)` after its offer, and the Cannelle, once in a basket, reacts by ringing a
    bell (`set cloche = 1`): the turn may write `cloche`.  The plain search reaches `cloche == 1` (confirmed by
    the interpreter); the summarised search, which keeps `cloche`, must make it unknown after each call and not
    prove it never rings.  The market also has a power outside any window (the Poivre noir's), which a window
    does not run."""
    spec = _market(tmp_path, second=False)
    text = open(spec, encoding="utf-8").read()
    offer_end = '    finish "Passer"\n  }\n}\nvar achats_du_tour'
    assert offer_end in text
    text = text.replace(offer_end, '    finish "Passer"\n  }\n  signal fin_de_tour(p)\n}\nvar achats_du_tour')
    text = text.replace('card Lot "Cannelle" { épice: cannelle  prix: 1 }',
                        'card Lot "Cannelle" { épice: cannelle  prix: 1\n'
                        '  power sonner "Sonner la cloche." { when fin_de_tour(p)  mandatory  set cloche = 1 } }')
    open(spec, "w", encoding="utf-8").write(text + BELL)
    assert _written(spec) == {"achats_du_tour", "bourse", "réserve", "panier", "étal", "cloche"}
    plain, p = _reach(capsys, spec, "cloche == 1", "--within", "3")
    assert (plain, p["status"], p["confirmed"]) == (0, "reached", True), p
    summed, s = _reach(capsys, spec, "cloche == 1", "--rounds", "1", "--summarise", "tour", KEEP[0],
                       KEEP[1] + ",cloche")
    assert (summed, s["status"]) == (4, "undecided"), s


def test_a_power_the_summarised_turns_offer_gives_is_among_what_it_writes(tmp_path, capsys):
    """`tour` offers `powers of panier[p]`, and the Cannelle, once in a basket, has a power that rings the bell
    (`set cloche = 1`, outside any window): the turn may write `cloche`.  The plain search reaches `cloche == 1`
    (a purchase of the Cannelle, then its power, confirmed by the interpreter); the summarised search must not
    prove it never rings."""
    spec = _market(tmp_path, second=False)
    text = open(spec, encoding="utf-8").read()
    text = text.replace('card Lot "Cannelle" { épice: cannelle  prix: 1 }',
                        'card Lot "Cannelle" { épice: cannelle  prix: 1\n'
                        '  power sonner "Sonner la cloche." { limit once per turn  set cloche = 1 } }')
    open(spec, "w", encoding="utf-8").write(text + "\nvar cloche: Int = 0\n")
    assert _written(spec) == {"achats_du_tour", "bourse", "réserve", "panier", "étal", "cloche"}
    plain, p = _reach(capsys, spec, "cloche == 1", "--within", "3")
    assert (plain, p["status"], p["confirmed"]) == (0, "reached", True), p
    summed, s = _reach(capsys, spec, "cloche == 1", "--rounds", "1", "--summarise", "tour", KEEP[0],
                       KEEP[1] + ",cloche")
    assert (summed, s["status"]) == (4, "undecided"), s
