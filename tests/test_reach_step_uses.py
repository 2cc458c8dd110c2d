"""A lemma's offer closed by a ranking over its counter *and* its powers' uses (checker/solver/unroll_step.py
`_Facts.grows_with_uses`): where a power lets the offer ask again with the counter as it was (on the 4th edition,
the Assassin's and the Condottiere's turns), the counter does not grow at each question; but a power used once a
turn sets its use's cell, which nothing unsets within the turn, so the counter plus the owner's powers used in this
turn grows at each question that asks again — proven once for every question from a symbolic state — and stays at
most the counter's bound plus the number of those powers.  On the market where a lot's power takes a second lot
(`chaparder`, once per turn): at most 3 questions (buy, take, finish); the same power usable any number of times
(`limit unlimited`): its use's cell is already set at its second use, the ranking does not grow, nothing proven."""

from __future__ import annotations

from pathlib import Path

from test_reach_questions import _blind, _questions
from test_reach_summary import _market, market_lemma


def unlimited_market(tmp_path) -> str:
    """The market whose fourth lot's power takes a lot from the stall, usable any number of times in a turn."""
    spec = Path(_market(tmp_path, second=True))
    text = spec.read_text(encoding="utf-8")
    assert "    limit once per turn\n    choose l in étal" in text
    spec.write_text(text.replace("    limit once per turn\n    choose l in étal",
                                 "    limit unlimited\n    choose l in étal"), encoding="utf-8")
    return str(spec)


def _owned_questions(spec):
    """stepped_questions's answer for `tour`, the ranking's uses counted for the called player only."""
    from checker.solver.unroll_step import StepUnrolled, stepped_questions
    step, _, p = market_lemma(spec, members_before=True, cls=StepUnrolled)
    return stepped_questions(step, 12, p), step


def test_a_power_once_a_turn_bounds_the_offer_with_the_counter(tmp_path):
    """`achats_du_tour` does not grow where `chaparder` is used, but it plus the owner's uses in this turn does: at
    most 1 + 1 + 1 questions; without the owner (every seat's uses summed, 2 players) at most 4 — a looser bound,
    still one."""
    spec = _market(tmp_path, second=True)
    proven, step = _owned_questions(spec)
    assert not isinstance(proven, str) and proven[0] == 3, proven
    assert "plus the powers used in this turn (1 at most)" in proven[1], proven
    assert {k[3] for k in step.used_next} == {"chaparder"}, step.used_next
    anyone, _ = _questions(spec)
    assert not isinstance(anyone, str) and anyone[0] == 4, anyone


def test_the_blind_lemma_closes_the_offer_after_three_questions_and_keeps_its_bound(tmp_path):
    """With Z3 answering nothing while unrolling, the lemma's offer is unrolled three times and closed there (no
    place left unfollowed), and its points still show two lots arriving in the owner's basket (a purchase and a
    lot taken): the bound the step proves is not lowered by the closing."""
    import z3
    spec = _market(tmp_path, second=True)
    proven, step = _owned_questions(spec)
    span = step.target.span
    lemma, before, p = market_lemma(spec, members_before=True, cls=_blind(proven[0], span))
    assert sum(m.choice.span == span for m in lemma.marks) == 3
    assert lemma.stepped and not lemma.cuts, (lemma.stepped, lemma.cuts)
    solver = z3.Solver()
    solver.add(*[c if isinstance(c, z3.BoolRef) else z3.BoolVal(c) for c in lemma.constraints])
    guard, members = lemma.points[-1]
    arrived = z3.Sum([z3.If(z3.And(m, z3.Not(b)) if not isinstance(m, bool) else z3.BoolVal(m), 1, 0)
                      for m, b in zip(members[("panier", 0)], before[("panier", 0)])])
    assert solver.check(p == 0, guard if not isinstance(guard, bool) else z3.BoolVal(guard), arrived >= 2) == z3.sat


def test_a_power_usable_again_proves_no_bound(tmp_path):
    """`chaparder` without a limit: a path takes a lot at every question, its use's cell true at S and after; the
    counter plus the uses does not grow there — no bound on the questions (a version that counted "a power's cell
    is set at the next question" as growth, not "it grew since S", would close this offer after 3 questions while a
    turn may take every lot of the stall)."""
    proven, _ = _owned_questions(unlimited_market(tmp_path))
    assert isinstance(proven, str) and "nor with the powers' uses" in proven, proven


def test_the_lemma_with_the_bound_known_asks_nothing_past_it(tmp_path):
    """`ClosedLemma` (the lemma's unrolling of the command) with the step's bound known before it unrolls: the offer
    is unrolled three times, the question past them not asked at all (fewer questions than the plain unrolling,
    which asks Z3 whether a fourth is asked), no place left unfollowed, and two lots still arrive at its last point
    (the closing removes no path a turn can take)."""
    import z3
    from checker.solver.unroll_step import ClosedLemma
    from checker.solver.unroll_summary import LemmaUnrolled
    spec = _market(tmp_path, second=True)
    proven, step = _owned_questions(spec)
    span = step.target.span

    class Known(ClosedLemma):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            self.known_most = lambda previous: proven[0] if previous.span == span else None

    lemma, before, p = market_lemma(spec, members_before=True, cls=Known)
    assert sum(m.choice.span == span for m in lemma.marks) == 3 and lemma.stepped and not lemma.cuts
    from checker.solver.formulas import AND, NOT, as_bool
    guard, members = lemma.points[-1]
    arrived = z3.Sum([z3.If(as_bool(AND(m, NOT(b))), 1, 0)
                      for m, b in zip(members[("panier", 0)], before[("panier", 0)])])
    from checker.solver.factory import SolverSettings, make_solver
    solver = make_solver(SolverSettings(incremental=True, minimize_cores=False))
    solver.add(*[as_bool(c) for c in lemma.constraints])
    assert solver.check(p == 0, as_bool(guard), arrived >= 2) == z3.sat
    plain, _, _ = market_lemma(spec, cls=LemmaUnrolled)       # (a fresh Z3 context: the terms above are gone)
    assert lemma.questions < plain.questions, (lemma.questions, plain.questions)


def _most_arrived(spec, cls) -> int:
    """The most lots that arrive in seat 0's basket at a point of `tour`'s lemma unrolled by ``cls`` (up to 7)."""
    import z3
    from checker.solver.formulas import AND, NOT, as_bool
    lemma, before, p = market_lemma(spec, members_before=True, cls=cls)
    solver = z3.Solver()
    solver.add(*[as_bool(c) for c in lemma.constraints])
    best = 0
    for g, members in lemma.points:
        arrived = z3.Sum([z3.If(as_bool(AND(m, NOT(b))), 1, 0)
                          for m, b in zip(members[("panier", 0)], before[("panier", 0)])])
        while best < 7 and solver.check(p == 0, as_bool(g), arrived >= best + 1) == z3.sat:
            best += 1
    return best


def test_closing_the_unlimited_offer_after_three_questions_would_hide_a_lot(tmp_path):
    """Why the offer with a power usable again must not be closed: unrolled as before, a turn puts 4 lots in the
    basket (a purchase, then the power at each question); closed after 3 questions (what the careless ranking above
    would prove), the lemma's points show at most 3 — a bound of 3 that is false."""
    from checker.solver.unroll_step import ClosedLemma
    from checker.solver.unroll_summary import LemmaUnrolled
    spec = unlimited_market(tmp_path)

    class Closed3(ClosedLemma):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            self.known_most = lambda previous: 3

    assert _most_arrived(spec, LemmaUnrolled) == 4
    assert _most_arrived(spec, Closed3) == 3
