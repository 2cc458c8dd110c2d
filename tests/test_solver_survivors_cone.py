"""`rulebook reach --rounds N --keep …` follows an action only when its text may write the kept state
(checker/solver/unroll_cone.py, `Writes`): an action whose one statement is `reset` of a kept var is followed, one
that resets a var that is not kept is not.  Survivor of the blind mutation sample -h (unroll_cone.py:166, In→NotIn:
a reset of a kept var read as harmless — an unsound cut — and one of a cut var followed)."""

from __future__ import annotations

import json

from checker.cli import main
from checker.solver.unroll_cone import OFFER_ROUNDS
from conftest import ROOT

RESETS = '''
var achats: Int = 0
var autre: Int = 0
action effacer(p: Player) "Effacer les achats." { reset achats }
action oublier(p: Player) "Oublier." { reset autre }
'''


def test_a_reset_of_a_kept_var_is_followed_and_one_of_a_cut_var_is_not(tmp_path, capsys):
    text = (ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules").read_text(encoding="utf-8")
    assert text.count('        finish "Passer"') == 1
    text = text.replace('        finish "Passer"', '        effacer(p)\n        oublier(p)\n        finish "Passer"')
    spec = tmp_path / "marché.rules"
    spec.write_text(text + RESETS, encoding="utf-8")
    code = main(["reach", str(spec), "achats >= 1", "--rounds", "1", "--keep", "achats", "-n", "2", "-s", "1",
                 "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["kept"]) == (4, ["achats"]), out      # undecided: the offer is unrolled 12 times at most
    # the place it stops at, said with the question's number (5181's #76, unroll_cone.py's `OFFER_ROUNDS + 1`)
    assert out["reason"].endswith(f"its question number {OFFER_ROUNDS + 1} (an offer is unrolled {OFFER_ROUNDS} "
                                  "times when the state is cut)"), out
    assert out["not_followed"] == ["acheter", "flairer", "oublier"], out


def _reach(capsys, spec, *args):
    code = main(["reach", str(spec), *args, "-n", "2", "-s", "1", "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_player_may_end_an_offer_without_acting_in_the_rounds_search(capsys):
    """Joueur 1 may pass (`finish "Passer"`) at their first offer, with lots they could buy on the stall: the plain
    search reaches "a round played and Joueur 1's basket empty", confirmed by the interpreter, so the rounds search
    must not prove it unreachable — it has a path (undecided: its paths are not games).  Survivor of the blind
    mutation sample -l (unroll_cone.py:340, `pending = True`: `finish` never offered, every player made to buy
    while they can, and the condition proved unreachable)."""
    market = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"
    condition = "tours_joués >= 1 and count(l in panier[Joueur 1]) == 0"
    plain, p = _reach(capsys, market, condition, "--within", "3")
    assert (plain, p["status"], p["confirmed"]) == (0, "reached", True)
    coned, c = _reach(capsys, market, condition, "--rounds", "2", "--keep", "bourse,étal,tours_joués,réserve,panier")
    assert (coned, c["status"]) == (4, "undecided"), c
    assert "over-approximation has a path" in c["reason"]


DOS = '''
var achats: Int = 0
var autre: Int = 0
action gagner(p: Player) "Gagner." { set achats = achats + 1 }
action oublier(p: Player) "Oublier." { set autre = autre + 1 }
'''


def test_a_do_of_an_action_that_writes_the_kept_state_is_followed_and_one_that_does_not_is_cut(tmp_path, capsys):
    """At the end of each round every player `do gagner(p)` (which writes `achats`, kept: the condition reads it) and
    `do oublier(p)` (which writes `autre`, not kept).  The plain search reaches `achats >= 1`; the rounds search
    follows `gagner` (it has a path: undecided) and cuts `oublier` (listed as not followed).  Survivor of the blind
    mutation sample -l (unroll_cone.py:271, `not` removed: the `do` that writes the kept state cut — an unsound
    « proved » — and the other one followed)."""
    text = (ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules").read_text(encoding="utf-8")
    assert text.count("    set tours_joués = tours_joués + 1\n") == 1
    text = text.replace("    set tours_joués = tours_joués + 1\n", "    for p in players {\n      do gagner(p)\n"
                        "      do oublier(p)\n    }\n    set tours_joués = tours_joués + 1\n")
    spec = tmp_path / "marché.rules"
    spec.write_text(text + DOS, encoding="utf-8")
    plain, p = _reach(capsys, spec, "achats >= 1", "--within", "4")
    assert (plain, p["status"], p["confirmed"]) == (0, "reached", True)
    coned, c = _reach(capsys, spec, "achats >= 1", "--rounds", "1", "--keep", "tours_joués")
    assert (coned, c["status"], c["kept"]) == (4, "undecided", ["achats", "tours_joués"]), c
    assert "oublier" in c["not_followed"] and "gagner" not in c["not_followed"], c


GRIFFONNER = '''
var autre: Int = 0
action griffonner(p: Player) "Griffonner, puis prendre un lot trop cher." {
  set autre = autre + 1
  choose l in étal where l.prix > 5 by p
  move l to panier[p]
}
'''


def test_a_write_to_a_cut_var_is_dropped_so_a_move_that_aborts_after_it_is_a_stutter(tmp_path, capsys):
    """`griffonner` writes `autre` (not kept) and then always aborts (no lot costs more than 5): the write to a cut
    var is dropped, so the move changes nothing kept — a stutter, forbidden — and the offer is not asked again and
    again: three lots in Joueur 1's basket within 3 rounds is proved, as without `griffonner`.  Survivor of the
    mutation sample h153 (unroll_cone.py:77, `key[0]` → `key[1]`: the cut var's write kept, compared with a fresh
    unknown, the stutter no longer forbidden, the offer unrolled past its 12 questions: undecided)."""
    text = (ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules").read_text(encoding="utf-8")
    text = text.replace('        finish "Passer"', '        griffonner(p)\n        finish "Passer"')
    spec = tmp_path / "marché.rules"
    spec.write_text(text + GRIFFONNER, encoding="utf-8")
    coned, c = _reach(capsys, spec, "count(l in panier[Joueur 1]) == 3", "--rounds", "3",
                      "--keep", "bourse,étal,tours_joués,réserve")
    assert (coned, c["status"]) == (1, "proved"), c


PIOCHER = '''
zone pioché[Player]: set of Lot public
action piocher(p: Player) "Piocher un lot de l'étal." {
  draw 1 from étal to pioché[p]
}
'''


def test_a_draw_into_a_kept_zone_is_followed(tmp_path, capsys):
    """`piocher` only draws a lot of the stall into `pioché` (what the condition reads, so kept): it writes the kept
    state, so it is offered, and the rounds search has a path (undecided), never « proved ».  Survivor of the mutation
    sample h153 (unroll_cone.py:219, a draw into a kept zone read as harmless: `piocher` not followed, an unsound
    « proved »)."""
    text = (ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules").read_text(encoding="utf-8")
    text = text.replace('        finish "Passer"', '        piocher(p)\n        finish "Passer"')
    spec = tmp_path / "marché.rules"
    spec.write_text(text + PIOCHER, encoding="utf-8")
    coned, c = _reach(capsys, spec, "count(l in pioché[Joueur 1]) >= 1", "--rounds", "1", "--keep", "tours_joués")
    assert (coned, c["status"]) == (4, "undecided"), c
    assert "piocher" not in c["not_followed"], c
