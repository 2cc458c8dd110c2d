"""`rulebook reach --rounds N --summarise PROC`: each call of PROC replaced by a summary whose bound Z3 proves as a
lemma (checker/solver/unroll_summary.py, checker/reach/summary.py).  Held to the plain search (`--within K`, every
cell followed, every "reached" replayed by the interpreter) on a market whose turns are a procedure with a permit
of one purchase, and to a game where the lemma's bound "one lot a turn" would be unsound — a power that takes a
second lot — which must not be proved."""

from __future__ import annotations

import json

import pytest

from checker.cli import main
from conftest import ROOT

KEEP = ["--keep", "achats_du_tour,tours_joués,bourse,étal,réserve"]

TURN = '''
procedure tour(p: Player) {
  set achats_du_tour = 0
  offer p {
    acheter(p, l) for l in étal
    powers of panier[p]
    finish "Passer"
  }
}
var achats_du_tour: Int = 0
rule une_par_tour { forbid acheter(p, l) when achats_du_tour >= 1 }
'''

SECOND = '''
card Lot "Clou de girofle" {
  épice: cannelle
  prix: 1
  power chaparder "Prendre un second lot de l'étal." {
    limit once per turn
    choose l in étal by me
    move l to panier[me]
  }
}
'''


def _market(tmp_path, second: bool) -> str:
    """The market fixture, each player's moves of a round a call of `tour` (one purchase a turn); with
    ``second``, a fourth lot whose power takes a lot from the stall besides the purchase."""
    text = (ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules").read_text(encoding="utf-8")
    turn_loop = '''    for p in players {
      offer p {
        acheter(p, l) for l in étal
        powers of panier[p]
        finish "Passer"
      }
    }'''
    assert turn_loop in text
    text = text.replace(turn_loop, "    for p in players { call tour(p) }")
    text = text.replace("  move l to panier[p]\n}", "  move l to panier[p]\n  set achats_du_tour = achats_du_tour + 1\n}", 1)
    text += TURN
    if second:
        text = text.replace('include Lot: "Safran d\'Iran", "Poivre noir", "Cannelle"',
                            'include Lot: "Safran d\'Iran", "Poivre noir", "Cannelle", "Clou de girofle"')
        text = text.replace("require count(l in selected(Lot)) == 3", "require count(l in selected(Lot)) == 4")
        text += SECOND
    spec = tmp_path / ("marché_chapardeur.rules" if second else "marché_par_tour.rules")
    spec.write_text(text, encoding="utf-8")
    return str(spec)


def market_lemma(spec, members_before: bool = False, cls=None):
    """The lemma of `tour` on a market spec (2 players, seed 1), from any state where `tours_joués == 0` (as the
    command finds), its offer unrolled up to 4 questions: (lemma, the baskets' members where it starts — only with
    ``members_before``, which makes Z3 terms —, the called player's unknown).  The tests of the lemma's questions,
    cases, counters, ranking and step build it here (``cls``: the unrolling, a LemmaUnrolled by default)."""
    from pathlib import Path

    import z3

    from checker.front.command import prepare_game
    from checker.runtime.engine import Engine
    from checker.solver.encode import Encoder
    from checker.solver.factory import fresh_context
    from checker.solver.unroll_summary import LemmaUnrolled

    fresh_context()
    result, selection = prepare_game("reach", [Path(spec)], None, 2)
    engine = Engine(result.typed)
    engine.recording = False
    engine.start(selection.cards, 2, 1, [None] * 2)
    enc = Encoder(engine, concrete=False)
    kept = frozenset({"achats_du_tour", "tours_joués", "bourse", "étal", "réserve", "panier"})
    lemma = (cls or LemmaUnrolled)(enc, kept, 4, ["panier"])
    p = z3.Int("joueur appelé")
    lemma.constraints.append(z3.And(p >= 0, p < 2))
    lemma.store.write(("var", "tours_joués", None), 0, True)
    before = lemma.members() if members_before else None
    lemma.call("tour", (p,))
    return lemma, before, p


def _reach(capsys, spec, *args):
    code = main(["reach", spec, *args, "-n", "2", "-s", "1", "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("condition, rounds, plain_k", [
    ("tours_joués == 0 and count(l in panier[Joueur 1]) >= 2", 1, 8),   # one purchase a turn: never in round 1
    ("count(l in panier[Joueur 1]) >= 2", 2, 4),                         # the second round's purchase reaches it
    ("count(l in panier[Joueur 2]) >= 1", 1, 3),
])
def test_the_summarised_search_agrees_with_the_plain_search(tmp_path, capsys, condition, rounds, plain_k):
    """Where the plain search reaches the condition (confirmed by the interpreter), the summarised search never
    says proved; where the plain search proves it over the rounds asked, the summarised search proves it, and
    its lemma says one lot a turn for the player whose turn it is, none for the other."""
    spec = _market(tmp_path, second=False)
    plain, p = _reach(capsys, spec, condition, "--within", str(plain_k))
    summed, s = _reach(capsys, spec, condition, "--rounds", str(rounds), "--summarise", "tour", *KEEP)
    assert p["status"] in ("reached", "proved")
    if p["status"] == "reached":
        assert p["confirmed"] is True and (summed, s["status"]) == (4, "undecided"), s
    else:
        assert (plain, summed, s["status"]) == (1, 1, "proved"), s
    assert len(s["lemmas"]) == 1 and "at most 1 for p, 0 for another player" in s["lemmas"][0], s["lemmas"]


def test_a_power_that_takes_a_second_lot_is_not_summarised_as_one(tmp_path, capsys):
    """With the Clou de girofle's power, a turn may put two lots in a basket: the plain search reaches two lots in
    the first round (confirmed by the interpreter); the lemma must find the bound 2, and the summarised search
    must not prove the first round safe.  A summary that read the permit instead of the effects would."""
    spec = _market(tmp_path, second=True)
    condition = "tours_joués == 0 and count(l in panier[Joueur 1]) >= 2"
    plain, p = _reach(capsys, spec, condition, "--within", "8")
    assert (plain, p["status"], p["confirmed"]) == (0, "reached", True), p
    summed, s = _reach(capsys, spec, condition, "--rounds", "1", "--summarise", "tour", *KEEP)
    assert (summed, s["status"]) == (4, "undecided"), s
    assert "at most 2 for p" in s["lemmas"][0], s["lemmas"]


def test_summarise_refuses_what_it_does_not_answer(tmp_path, capsys):
    """A name that is no procedure, and a condition over the path (the points inside a call are not counted), are
    bad input."""
    spec = _market(tmp_path, second=False)
    assert main(["reach", spec, "true", "--rounds", "1", "-n", "2", "--summarise", "acheter"]) == 2
    assert "not a procedure" in capsys.readouterr().err
    assert main(["reach", spec, "changes(tours_joués) >= 1", "--rounds", "1", "-n", "2", "--summarise", "tour"]) == 2
    assert "path" in capsys.readouterr().err


def test_a_value_is_read_off_the_guard_only_where_the_guard_implies_it():
    """The preconditions are read off the call's guard without a question where they can be: a var set under the
    guard's conjuncts folds to what was set; one set under a condition the guard does not imply does not fold
    (folding it would assume at the call a value that some path does not have)."""
    import z3

    from checker.solver.unroll_summary import _under
    g, h, x = z3.Bools("g h x")
    y = z3.Int("y")
    value = z3.If(g, z3.IntVal(0), y)
    assert _under(z3.And(g, x), value).eq(z3.IntVal(0))
    assert _under(z3.And(z3.Not(h), g), z3.If(h, y, value)).eq(z3.IntVal(0))   # a negated conjunct: false
    assert _under(x, value) is None                                               # g not implied: no value
    assert _under(z3.Or(g, x), value) is None                                     # a disjunction implies neither
    assert _under(True, value) is None and _under(g, 3) is None


def test_a_permit_set_by_the_caller_is_a_precondition_of_the_lemma(tmp_path, capsys):
    """The counter of purchases set to 0 by the procedure that calls `tour` (not by `tour`): the lemma holds only
    from a state where it is 0, a precondition found at every call; with it, one lot a turn, and the first round
    is proved as the plain search proves it.  Without the precondition the counter is any number and the lemma's
    bound is not one lot."""
    spec = _market(tmp_path, second=False)
    text = open(spec, encoding="utf-8").read()
    text = text.replace("  set achats_du_tour = 0\n  offer p {", "  offer p {")
    text = text.replace("for p in players { call tour(p) }",
                        "for p in players {\n      set achats_du_tour = 0\n      call tour(p)\n    }")
    assert "set achats_du_tour = 0\n      call tour(p)" in text and "set achats_du_tour = 0\n  offer" not in text
    open(spec, "w", encoding="utf-8").write(text)
    condition = "tours_joués == 0 and count(l in panier[Joueur 1]) >= 2"
    plain, p = _reach(capsys, spec, condition, "--within", "8")
    summed, s = _reach(capsys, spec, condition, "--rounds", "1", "--summarise", "tour", *KEEP)
    assert (plain, p["status"]) == (1, "proved"), p
    assert (summed, s["status"]) == (1, "proved"), s
    assert "achats_du_tour == 0" in s["lemmas"][0] and "at most 1 for p" in s["lemmas"][0], s["lemmas"]


def test_a_value_read_off_the_guard_is_a_precondition_only_once_z3_proves_it():
    """What the guard's conjuncts fold a value to is kept only when Z3 answers unsat to "the guard holds and the
    value is another": a fold the guard implies is proven, one it does not imply (a wrong fold, or a guard that
    says nothing about the value) is refused."""
    import z3

    from checker.solver.unroll_summary import entailed
    g, x = z3.Bools("g x")
    y = z3.Int("y")
    value = z3.If(g, z3.IntVal(0), y)
    assert entailed(z3.And(g, x), value, z3.IntVal(0))
    assert not entailed(z3.And(g, x), value, z3.IntVal(1))          # the guard implies 0, not 1
    assert not entailed(x, value, z3.IntVal(0))                      # y may be anything where g is false
    assert entailed(z3.And(z3.Not(g), y == 2, x), value, z3.IntVal(2))


def test_a_permit_that_differs_between_calls_is_no_precondition(tmp_path, capsys):
    """The permit is one purchase for the game's first call of `tour` (Joueur 1's) and two for every later one
    (the caller raises it after each call).  No value holds at every call, so the lemma must not assume one:
    assumed from the first call (permit 1), the lemma would bound a turn by one lot and prove that Joueur 2 never
    holds two lots in the first round, where the plain search reaches it and the interpreter confirms it."""
    spec = _market(tmp_path, second=False)
    text = open(spec, encoding="utf-8").read()
    text = text.replace("  set achats_du_tour = 0\n  offer p {", "  offer p {")
    text = text.replace("for p in players { call tour(p) }",
                        "for p in players {\n      set achats_du_tour = 0\n      call tour(p)\n      set permis = 2\n    }")
    text = text.replace("rule une_par_tour { forbid acheter(p, l) when achats_du_tour >= 1 }",
                        "var permis: Int = 1\nrule une_par_tour { forbid acheter(p, l) when achats_du_tour >= permis }")
    assert "call tour(p)\n      set permis = 2" in text and "achats_du_tour >= permis" in text
    open(spec, "w", encoding="utf-8").write(text)
    condition = "tours_joués == 0 and count(l in panier[Joueur 2]) >= 2"
    plain, p = _reach(capsys, spec, condition, "--within", "8")
    assert (plain, p["status"], p["confirmed"]) == (0, "reached", True), p
    summed, s = _reach(capsys, spec, condition, "--rounds", "1", "--summarise", "tour", *KEEP, "--keep", "permis")
    assert (summed, s["status"]) == (4, "undecided"), s
    assert "permis ==" not in " ".join(s["lemmas"]), s["lemmas"]


def test_a_lemma_question_z3_cannot_decide_is_said_so(tmp_path, capsys, monkeypatch):
    """With Z3's steps cut to 2,000 a question, whether the turn's offer asks a 13th question is not decided: the
    answer is undecided and says that Z3 could not decide it — not that a path reaches it (the version before
    this one said "a path reaches a place the unrolling does not follow" for an unknown).  The step that bounds the
    offer's questions (unroll_step.stepped_questions) is made to prove nothing: its cases, pre-processed, are unsat
    within those steps, and it would close the offer after two questions (a proof: the round is then proved)."""
    spec = _market(tmp_path, second=False)
    monkeypatch.setenv("RULEBOOK_Z3_RLIMIT", "2000")
    monkeypatch.setattr("checker.reach.summary.stepped_questions", lambda *a: "not asked (made so by the test)",
                        raising=False)
    summed, s = _reach(capsys, spec, "tours_joués == 0 and count(l in panier[Joueur 1]) >= 2", "--rounds", "1",
                       "--summarise", "tour", *KEEP)
    assert (summed, s["status"]) == (4, "undecided"), s
    assert "Z3 could not decide whether a path reaches" in s["reason"], s["reason"]
    assert not s["reason"].startswith("the lemma of tour(p): a path reaches"), s["reason"]


HAGGLE = '''
action marchander(p: Player) "Prendre le lot de son choix sur l'étal, si sa bourse tient encore 3 pièces." {
  choose l in étal where bourse[p] >= 3 by p
  move l to panier[p]
  set achats_du_tour = achats_du_tour + 1
}
rule marchander_riche { forbid marchander(p) when bourse[p] < 3 or count(l in étal) == 0 or achats_du_tour >= 1 }
'''

GRAB = '''
action marchander(p: Player, l: Lot) "Prendre un lot de l'étal, puis ne rien payer : le marché est rompu." {
  move l to panier[p]
  choose x in étal where false by p
}
rule marchander_une_fois { forbid marchander(p, l) when achats_du_tour >= 1 }
'''


def _haggling(tmp_path, action: str, offered_as: str = "marchander(p)") -> str:
    """The market by turns with one more move offered each turn, ``marchander`` (its text: ``action``)."""
    spec = _market(tmp_path, second=False)
    text = open(spec, encoding="utf-8").read()
    offered = '    acheter(p, l) for l in étal\n    powers of panier[p]'
    assert offered in text
    text = text.replace(offered, f'    acheter(p, l) for l in étal\n    {offered_as}\n    powers of panier[p]') + action
    open(spec, "w", encoding="utf-8").write(text)
    return spec


def test_a_move_that_aborts_on_a_cut_cell_does_not_ask_the_offer_forever(tmp_path, capsys):
    """`marchander` is legal when the purse holds 3 coins, and its effect asks again: with the purse cut, the
    legality and the effect read two unknowns, so on the cut state the effect may abort having changed nothing
    kept, and be taken again, and again.  In the game it never aborts (the purse is the same), and a turn takes
    one lot.  The version before this one let that stutter ask the offer a 13th question: the lemma was
    undecided (the 4th edition's Assassin's turn stopped there, through the Tripot's payment in cards).  A move
    that aborts with nothing kept changed is not followed again; the first round is proved as the plain search
    proves it (the purse followed)."""
    spec = _haggling(tmp_path, HAGGLE)
    condition = "tours_joués == 0 and count(l in panier[Joueur 1]) >= 2"
    plain, p = _reach(capsys, spec, condition, "--within", "8")
    assert (plain, p["status"]) == (1, "proved"), p
    keep = ["--keep", "achats_du_tour,tours_joués,étal,réserve"]          # the purse cut
    summed, s = _reach(capsys, spec, condition, "--rounds", "1", "--summarise", "tour", *keep)
    assert (summed, s["status"]) == (1, "proved"), s
    assert "at most 1 for p, 0 for another player" in s["lemmas"][0], s["lemmas"]


def test_a_move_that_aborts_after_a_kept_change_is_followed(tmp_path, capsys):
    """A `marchander` that takes a lot of the stall and then aborts (no payment, no purchase counted): the
    abort changed a basket (and no decision point comes between), so it is no stutter, and a turn may take two lots — the plain search reaches it and
    the interpreter confirms it.  Forbidding every move that aborts would prove the first round safe."""
    spec = _haggling(tmp_path, GRAB, "marchander(p, l) for l in étal")
    condition = "tours_joués == 0 and count(l in panier[Joueur 1]) >= 2"
    plain, p = _reach(capsys, spec, condition, "--within", "8")
    assert (plain, p["status"], p["confirmed"]) == (0, "reached", True), p
    summed, s = _reach(capsys, spec, condition, "--rounds", "1", "--summarise", "tour", *KEEP)
    assert (summed, s["status"]) == (4, "undecided"), s


def test_a_lemma_offer_stops_where_z3_proves_no_path_asks_again(tmp_path, monkeypatch):
    """The lemma of `tour` on the market: a turn asks the offer at most twice (a purchase, then only "Passer").
    With the unrolling's own question "does a path ask again?" cut to one step (unknown, as it ends on the 4th
    edition's turns), the lemma asks it again of a fresh solver with more steps, which proves the third question
    unreachable: the offer is unrolled twice, not 12 times with a larger question about a 13th (the version before
    this one unrolled the Assassin's turn 12 times, 93 s of CPU, and that question ended unknown)."""
    import checker.solver.unroll as unroll

    monkeypatch.setattr(unroll, "FEASIBLE_RLIMIT", 1)
    lemma = market_lemma(_market(tmp_path, second=False))[0]
    offers = [c for c in lemma.choices if c.kind == "offer"]
    assert len(offers) == 2 and not lemma.cuts, (len(offers), lemma.cuts)


def test_a_bound_question_left_unknown_is_no_proof_and_the_next_bound_is_asked(tmp_path, capsys, monkeypatch):
    """Each bound of a lemma is an unsatisfiable question; one that ends unknown (on the 4th edition, at its
    resource limit) proves nothing.  Here the question "does more than one lot reach p's basket in p's turn?"
    (unsat: 1) is made to end unknown: the lemma is then the next bound proven, 2 for p, and the first round is
    no longer proved (a turn may put two lots in Joueur 1's basket, for all the weaker lemma says).  A version
    that gave up at the first unknown bound answered no lemma at all.  (The bound for another player is no
    question here: where the owner is each seat, no lot can arrive in another's basket by the terms' shapes.)  The
    ranking and the step, tried where a bound's question ends unknown, are made to prove nothing here (each would
    prove 1: see tests/test_reach_ranking.py, tests/test_reach_step.py)."""
    import sys

    import checker.reach.summary as summary
    from checker.solver.factory import Outcome
    real = summary.run

    def run(solver, *assumptions):
        frame = sys._getframe(1).f_locals
        if frame.get("mine") is True and frame.get("b") == 1:
            return Outcome("unknown", reason="max. resource limit exceeded (made so by the test)")
        return real(solver, *assumptions)
    spec = _market(tmp_path, second=False)
    condition = "tours_joués == 0 and count(l in panier[Joueur 1]) >= 2"
    proved, s = _reach(capsys, spec, condition, "--rounds", "1", "--summarise", "tour", *KEEP)
    assert (proved, s["status"]) == (1, "proved") and "at most 1 for p, 0 for another" in s["lemmas"][0], s
    monkeypatch.setattr(summary, "run", run)
    monkeypatch.setattr(summary, "ranked_bound", lambda *a: "no ranking (made so by the test)")
    monkeypatch.setattr(summary, "stepped_bound", lambda *a: "no step (made so by the test)")
    weaker, w = _reach(capsys, spec, condition, "--rounds", "1", "--summarise", "tour", *KEEP)
    assert (weaker, w["status"]) == (4, "undecided"), w
    assert "at most 2 for p, 0 for another" in w["lemmas"][0], w


def test_a_lemma_counts_the_cards_that_may_have_arrived():
    """The bound is asked of the cards added to a zone (in it now, not before), only for those whose place may
    differ: a member that is the same term as before, or false now, adds nothing; the others are each one Bool
    (a zone of n cards before holds at most n + that many after)."""
    import z3

    from checker.solver.unroll_summary import LemmaUnrolled
    a, b, c = z3.Bools("a b c")
    before = {("cité", 0): [a, b, False, True]}
    now = {("cité", 0): [a, False, c, True]}
    added = LemmaUnrolled.added(None, before, now)[("cité", 0)]
    assert len(added) == 1 and z3.Solver().check(added[0] != c) == z3.unsat


def test_a_card_only_taken_out_of_a_zone_has_not_arrived():
    """A member written false over what it was, on some paths (a card taken out of every zone of its kind when it
    is moved elsewhere: the Magicienne's exchange of hands on the 4th edition), implies what it was: it is not
    counted among the cards that may have arrived.  One that may be written true is."""
    import z3

    from checker.solver.unroll_summary import LemmaUnrolled
    a, g, h = z3.Bools("a g h")
    out = z3.If(g, False, z3.If(h, z3.And(a, z3.Not(g)), a))
    came = z3.If(g, True, a)
    added = LemmaUnrolled.added(None, {("cité", 0): [a, a]}, {("cité", 0): [out, came]})[("cité", 0)]
    assert len(added) == 1 and z3.Solver().check(added[0] != z3.And(came, z3.Not(a))) == z3.unsat
