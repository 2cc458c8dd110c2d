"""What makes `reach --rounds N --summarise PROC` cheaper without changing its answers (checker/reach/summary.py,
checker/solver/unroll_summary.py, checker/solver/unroll.py): the bound "none for another player" read off the
terms where the owner is each seat, without a question; the options of an action that a forbid no permit lifts
refuses, not encoded.  Each test fails on the tree before the cut (2e989f5)."""

from __future__ import annotations

import json

import z3

from checker.cli import main
from conftest import ROOT
from test_reach_summary import KEEP, _market


def _reach(capsys, spec, *args):
    code = main(["reach", spec, *args, "-n", "2", "-s", "1", "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_card_moved_to_the_owners_zone_does_not_arrive_in_another_seats():
    """Where the owner (a term) is seat 0, a member of seat 1's zone written true only where the owner is seat 1
    (a card moved to the owner's zone, read in seat 1's) has not arrived; in seat 0's zone it may have.  Without an
    owner fixed, both may have (the shapes read alone cannot tell)."""
    from checker.solver.unroll_summary import LemmaUnrolled
    p = z3.Int("joueur appelé")
    a, b, g = z3.Bools("a b g")
    before = {("cité", 0): [a], ("cité", 1): [b]}
    now = {("cité", 0): [z3.If(g, p == 0, a)], ("cité", 1): [z3.If(z3.And(g, p == 1), True, b)]}
    fixed = LemmaUnrolled.added(None, before, now, p, 0)
    assert fixed[("cité", 1)] == [] and len(fixed[("cité", 0)]) == 1
    assert z3.Solver().check(z3.And(p == 0, fixed[("cité", 0)][0] != z3.And(g, z3.Not(a)))) == z3.unsat
    loose = LemmaUnrolled.added(None, before, now)
    assert len(loose[("cité", 0)]) == 1 and len(loose[("cité", 1)]) == 1


def test_the_bound_for_another_player_is_read_off_the_terms_without_a_question(tmp_path, capsys, monkeypatch):
    """On the market summarised by turn, a purchase moves a lot to the basket of the turn's player: where the owner
    is each seat, no lot can arrive in another seat's basket by the terms' shapes, so "0 for another player" is
    proven without asking Z3 (on the 4th edition each such question took 11 to 30 s of CPU).  The answer and the
    lemma are the same as when it was asked; a version that asked it fails here."""
    import sys

    import checker.reach.summary as summary
    asked = []
    real = summary.run

    def run(solver, *assumptions):
        frame = sys._getframe(1).f_locals
        if "mine" in frame:
            asked.append((frame["mine"], frame["b"]))
        return real(solver, *assumptions)
    monkeypatch.setattr(summary, "run", run)
    monkeypatch.setattr(summary, "_stepped_first", lambda *a: None, raising=False)    # the owner's bound asked
    spec = _market(tmp_path, second=False)
    code, s = _reach(capsys, spec, "tours_joués == 0 and count(l in panier[Joueur 1]) >= 2", "--rounds", "1",
                     "--summarise", "tour", *KEEP)
    assert (code, s["status"]) == (1, "proved"), s
    assert "at most 1 for p, 0 for another player" in s["lemmas"][0], s["lemmas"]
    assert asked and all(mine for mine, _ in asked), asked


SEALED = '''
action acheter_en_échange(p: Player, l: Lot, x: Lot) refines acheter "Acheter un lot en rendant un lot du panier." {
  move x to étal
  move l to panier[p]
}
card Lot "Muscade" {
  épice: poivre
  prix: 3
  rule muscade_seulement { forbid acheter_en_échange(p, l, x) when l != "Muscade" or x is not in panier[p] }
}
'''


def test_an_option_a_forbid_no_permit_lifts_refuses_is_not_encoded(tmp_path, capsys, monkeypatch):
    """An action offered for every pair of cards whose own rule refuses every card but one that is not in the game
    (on the 4th edition, `bâtir_la_nécropole` in « Première partie », which has no Nécropole: 68 × 68 options at
    each question of a turn's offer, 3 to 9 s of CPU a question): the forbid applies (a constant), no permit lifts it,
    so the option is illegal and its other rules (the purse, the spices) are not encoded.  The answers are the
    same; a version that encoded every option's legality fails here."""
    from checker.solver.encode import Encoder
    text = (ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules").read_text(encoding="utf-8")
    offered = "        acheter(p, l) for l in étal\n"
    text = text.replace(offered, offered + "        acheter_en_échange(p, l, x) for l in étal for x in panier[p]\n")
    spec = tmp_path / "marché_scellé.rules"
    spec.write_text(text + SEALED, encoding="utf-8")
    legality = []
    real = Encoder.legality

    def noting(self, action, args):
        legality.append(action)
        return real(self, action, args)
    monkeypatch.setattr(Encoder, "legality", noting)
    code, c = _reach(capsys, str(spec), "count(l in panier[Joueur 1]) >= 2", "--within", "4")
    assert (code, c["status"], c["confirmed"]) == (0, "reached", True), c
    code, c = _reach(capsys, str(spec), "count(l in panier[Joueur 1]) == 3", "--rounds", "3", "--keep",
                     "bourse,tours_joués,réserve,étal")
    assert (code, c["status"]) == (1, "proved"), c
    assert "acheter" in legality and "acheter_en_échange" not in legality


MOMENTS = '''
kind Moment {
  heure: Int in 1..2
  start: horloge
}
zone horloge: pile of Moment public
var fermé[Moment]: Bool = false
card Moment "Matin" { heure: 1 }
card Moment "Soir" { heure: 1 }
'''


def _market_by_moment(tmp_path) -> str:
    """The market summarised by turn, each round two turns a player, one a `Moment` (two cards alike): `tour(p, m)`
    offers only while `fermé[m]` is false."""
    spec = _market(tmp_path, second=False)
    text = open(spec, encoding="utf-8").read()
    text = text.replace("for p in players { call tour(p) }",
                        "for m in selected(Moment) {\n      for p in players { call tour(p, m) }\n    }")
    text = text.replace("procedure tour(p: Player) {\n  set achats_du_tour = 0\n  offer p {",
                        "procedure tour(p: Player, m: Moment) {\n  set achats_du_tour = 0\n"
                        "  if not fermé[m] {\n  offer p {")
    text = text.replace('    finish "Passer"\n  }\n}\nvar achats_du_tour',
                        '    finish "Passer"\n  }\n  }\n}\nvar achats_du_tour')
    text = text.replace('include Lot: "Safran d\'Iran", "Poivre noir", "Cannelle"',
                        'include Lot: "Safran d\'Iran", "Poivre noir", "Cannelle"\n  include Moment: "Matin", "Soir"')
    assert "call tour(p, m)" in text and "if not fermé[m]" in text and 'include Moment' in text
    open(spec, "w", encoding="utf-8").write(text + MOMENTS)
    return spec


def test_a_lemma_whose_questions_are_anothers_up_to_its_cards_cells_has_its_answers(tmp_path, capsys, monkeypatch):
    """`tour(p, Soir)` unrolled is `tour(p, Matin)` with the cell `fermé[Soir]` for `fermé[Matin]`: the same
    questions up to a renaming of the symbolic state's cells, so the same answers, not asked again (on the 4th
    edition, five characters' turns are one lemma so).  The round is proved as when every lemma is asked, and as the
    plain search proves it; a version that asked each lemma fails here."""
    import checker.reach.summary as summary
    bounds = []
    real = summary._bound

    def noting(*args, **kw):
        bounds.append(args[-1])         # mine: the bound for p, or for another player
        return real(*args, **kw)
    monkeypatch.setattr(summary, "_bound", noting)
    monkeypatch.setattr(summary, "_stepped_first", lambda *a: None, raising=False)    # each bound searched
    spec = _market_by_moment(tmp_path)
    condition = "tours_joués == 0 and count(l in panier[Joueur 1]) >= 3"
    keep = ["--keep", "achats_du_tour,tours_joués,bourse,étal,réserve,fermé"]
    plain, p = _reach(capsys, spec, condition, "--within", "8")
    assert (plain, p["status"]) == (1, "proved"), p
    code, s = _reach(capsys, spec, condition, "--rounds", "1", "--summarise", "tour", *keep)
    assert (code, s["status"]) == (1, "proved"), s
    assert len(s["lemmas"]) == 2 and all("at most 1 for p, 0 for another player" in x for x in s["lemmas"]), s
    assert "its questions are those of tour(p, Matin)'s" in s["lemmas"][1], s["lemmas"]
    assert bounds == [True, False], bounds             # the bounds of one lemma searched
    monkeypatch.setattr(summary._Shape, "renames_to", lambda self, other: False)
    code, asked = _reach(capsys, spec, condition, "--rounds", "1", "--summarise", "tour", *keep)
    assert (code, asked["status"]) == (1, "proved") and "questions are those" not in " ".join(asked["lemmas"])
    assert bounds == [True, False] * 3, bounds
