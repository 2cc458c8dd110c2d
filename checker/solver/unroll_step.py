"""unroll_step: a lemma's bound on the cards that arrive in the owner's watched zones, proven by induction over the
questions of the procedure's offer, its loop body encoded *once* from a fully symbolic state.

The ranking of :mod:`checker.solver.unroll_rank` asks its facts question by question on the offer unrolled: the step
from the third question to the fourth has in its state the terms of the three questions before it, and Z3 did not
prove it (on the 4th edition, the turn of a character that may build three districts).  Here the procedure is
unrolled again (:class:`StepUnrolled`, a :class:`~checker.solver.unroll_summary.LemmaUnrolled`) from the same start
— the preconditions given — up to the first question of its first offer; there every kept cell that the offer's loop
body may write (read from the program's text, :func:`~checker.solver.unroll_summary.written`'s reading: its actions,
powers, hooks, what they call) becomes an unknown of its own — the *question state* S, any state at all on what the
body writes, the cells it does not write as they were at the first question (no statement of the body changes them:
the same at every question) — and *one* question is encoded from it, its options and what follows them: either the
offer asks again (the *next question*, a point recorded and then left: the induction's next step) or the offer ends
and the rest of the procedure runs to its end.  With ``c`` a counter (a kept Int var without an index that a
`forbid`'s `when` reads: :func:`~checker.solver.unroll_rank.counters`), ``lo`` its value at the start (a
precondition's constant, else 0) and ``before`` the watched zones' members at the start, the facts, each an unsat
question on the step's constraints:

- *base*: at each decision point before the first question, and at the first question (before it becomes
  symbolic): the owner's cards in each watched zone not in it at the start number at most ``c - lo``, and
  ``c <= B``;
- *step of the arrivals*: at each point T after S (inside the step, the next question, the end), the owner's cards
  in each watched zone at T that were not in it at S number at most ``c(T) - c(S)``;
- *step of the permit*: where ``c(S) <= B``, ``c(T) <= B`` at each such T.

By induction over the questions a path passes (the question state k is one value of S: the cells the body writes
have some value there, the others are as at the first question), every point of every path of the procedure — of
any length, not only those the lemma's unrolling reaches — has at most ``c - lo <= B - lo`` cards arrived in a
watched zone of the owner: a card in it at T and not at the start is, at the last question k before T, either in it
(one of the arrivals at k, at most ``c(S_k) - lo``) or not (one of T's over S_k, at most ``c(T) - c(S_k)``).  So
``B - lo`` is a bound of the lemma for the owner, proven without a fact added to any solver.  A question not unsat
(satisfiable or unknown) proves nothing, and the least ``B`` of the permit is searched from ``lo`` (up to ``most``).
Where the whole question of a fact ends unknown at :data:`FIRST_RLIMIT` steps, it is split by the option taken at S
(one case per option and one for none of them: every path), each case pre-processed
(:func:`~checker.solver.unroll_summary._case`); where a case ends unknown too, the whole question is asked again with
:data:`STEP_RLIMIT` steps (so every fact the whole question at that limit proved is proven still: Z3 is deterministic,
and a satisfiable case is a model of the whole question).

Where a power lets the offer ask again with the counter as it was, the offer's questions are bounded by a ranking
over the counter and the powers' uses in this turn (each use's cell, set by the power and unset by nothing in the
turn, is one more unit the ranking grows by; :func:`stepped_questions`).

Refused (a reason, nothing proven): no offer, the offer encoded more than once (in a loop: its first question is
then not one state), a place the step does not follow (a cut: the points after it would not be asked), no counter
kept, no owner.
"""

from __future__ import annotations

import z3

from checker.front import ast
from checker.solver.factory import SolverSettings, make_solver
from checker.solver.formulas import AND, ITE, NOT, as_bool, is_const
from checker.solver.unroll_rank import counters, same_term
from checker.solver.unroll_summary import PREPARE, USED, HavocStore, LemmaUnrolled, _case, _Walk

__all__ = ["StepUnrolled", "ClosedLemma", "stepped_bound", "stepped_others", "stepped_questions", "STEP_RLIMIT"]

STEP_RLIMIT = 100_000_000       # the steps of each fact's whole question, asked again where the cases did not decide it
FIRST_RLIMIT = 2_000_000        # the steps of each fact's whole question asked first (on the 4th edition, "grows" of
#                                 two characters' steps ended unknown at 100 million steps, 54 s, and its cases were
#                                 all unsat in 4 s; at 20 million, each step's arrivals ended unknown in some 10 s
#                                 before its cases: small specs answer whole at 2 million)
CASE_RLIMIT = 20_000_000        # the steps of each case where the whole question ended unknown


def _int(v):
    return z3.IntVal(v) if is_const(v) else v


class StepUnrolled(LemmaUnrolled):
    """The procedure from the lemma's start, its first offer unrolled for one question from a symbolic state (see
    the module's docstring).  :attr:`question`: (the guard of the first question, the members and counters there
    before they become unknowns, those after: S); :attr:`prefix`: how many of :attr:`points` come before it;
    :attr:`next`: (guard, members, counters) where the offer asks again after S; :attr:`refused`: why the step
    cannot be read (a str), else None."""

    def __init__(self, enc, kept, max_loops: int, watched, **kw):
        super().__init__(enc, kept, max_loops, watched, **kw)
        self.store = HavocStore(self.store.base, self.kept, self.fresh_name)
        enc.cells = self.store
        self.forget()
        self.target = None
        self.question = None
        self.prefix = 0
        self.next = None
        self.refused = None
        self.permits: dict = {}         # (counter, bound) -> whether the step of the permit is proven
        self.answers = None             # the answers of steps' questions asked before, shared up to a renaming of
        #                                 cells (``recall(step, term)``: True, False or None; ``remember``), or None
        self.at_question = None         # the store's written cells and its havocs' count at S (to read a power's
        #                                 use there, :meth:`uses`)
        self.used_next: dict = {}       # the powers' uses in this turn written in the step: key -> value at the
        #                                 next question

    def encoder_of(self, s):
        if isinstance(s, ast.Offer) and self.target is None:
            self.target = s
        return super().encoder_of(s)

    def offer_rounds(self, s) -> int:
        return 1 if s is self.target else super().offer_rounds(s)

    def first_question(self, s, here) -> None:
        if s is not self.target:
            return
        if self.question is not None:
            self.refused = "its offer is encoded more than once (in a loop): its first question is no one state"
            return
        entry = (self.members(), self._counters())
        self.prefix = len(self.points)
        names = self._body_writes(s)
        self.store.havoc(here, names)
        self.forget()
        self.question = (here, *entry, self.members(), self._counters())
        self.at_question = (dict(self.store.writes), len(self.store.havocs))

    def _body_writes(self, s: ast.Offer):
        """The kept names offer ``s``'s loop body may write (None: any), and every power's use."""
        w = _Walk(self.enc)
        w.stmt(s)
        return None if w.anything else (w.out & self.kept) | {USED}

    def past_offer(self, s, here, previous) -> bool:
        if s is not self.target:
            return super().past_offer(s, here, previous)
        if not (is_const(here) and not here):
            self.next = (here, self.members(), self._counters())
            self.used_next = self._turn_uses()
            self.running = AND(self.running, NOT(here))     # its future is the induction's next step
        return False


    def _turn_uses(self) -> dict:
        """The powers' uses in this turn that the step wrote (key -> their value now): the cells of a ranking over
        the uses (:meth:`_Facts.grows_with_uses`)."""
        if self.at_question is None:
            return {}
        then = self.at_question[0]
        return {k: v for k, v in self.store.writes.items()
                if k[0] == "used" and k[-1] == "turn" and (k not in then or not same_term(v, then[k]))}

    def use_at(self, key: tuple, writes: dict):
        """The value of power use ``key`` in the store whose written cells are ``writes`` (the havocs those of S:
        the step makes none after it), read without writing it."""
        if key in writes:
            return writes[key]
        value = self.store.base.used(*key[1:])
        for guard, names, tag in self.store.havocs[:self.at_question[1]]:
            if HavocStore._hit(names, key):
                value = ITE(guard, self.store._fresh_value(tag, key), value)
        return value


class ClosedLemma(LemmaUnrolled):
    """The lemma's unrolling, where the step has bounded its offer's questions already (:attr:`known_most`: the
    question before -> that bound, or None where no step is built yet or none is proven — it is then built, where a
    question ends unknown, by :meth:`~checker.solver.unroll_summary.LemmaUnrolled.asks_again` as before).  With the
    bound known: the question past it is not asked at all (no path asks it, proven); one before it that the cut
    unrolling's solver does not decide is taken as asked (one more question unrolled, its options' paths added, as
    where Z3 finds a path there) instead of asked again of a fresh solver, the ranking facts and the cases — on the
    4th edition, some 10 to 30 s a lemma for questions the step bounds anyway.  A question unrolled that no path
    asks adds only points no path reaches: the lemma's questions stay the same, answered the same."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.known_most = None          # the question before -> how many questions its offer asks at most, or None
        self._taken = False             # a question not decided is taken as asked (:meth:`_afresh`)

    def asks_again(self, here, previous=None) -> bool:
        most = self.known_most(previous) if previous is not None and self.known_most is not None else None
        if most is not None and not is_const(here) \
                and sum(m.choice.span == previous.span for m in self.marks) >= most:
            self.stepped.append(f"the offer at {previous.span} asks at most {most} questions")
            return False
        self._taken = most is not None
        try:
            return super().asks_again(here, previous)
        finally:
            self._taken = False

    def _afresh(self, here):
        return True if self._taken else super()._afresh(here)


class _Facts:
    def __init__(self, step: StepUnrolled, before: dict, owner, v: str, lo: int):
        self.step, self.before, self.owner, self.v, self.lo = step, before, owner, v, lo
        self.asked = 0
        self.recalled = 0       # the questions answered by a renaming of a question asked before
        self.base = list(zip(*step.points[:step.prefix])) if step.prefix else ([], [])
        self.points = step.points[step.prefix:]
        self.counts = step.at[step.prefix:]

    def _arrived(self, members: dict, since: dict, q):
        """For each watched zone of seat ``q``: how many of its cards at ``members`` were not in it at ``since``."""
        out = []
        for (z, seat), ms in members.items():
            if seat != q:
                continue
            bits = [AND(m, NOT(b)) for m, b in zip(ms, since[(z, seat)])]
            bits = [x for x in bits if not (is_const(x) and not x)]
            if bits:
                out.append(z3.Sum([z3.If(as_bool(x), 1, 0) for x in bits]))
        return out

    def _over(self, guard, members, since, room, mine: bool = True):
        """Where ``guard`` holds: the owner's cards arrived (``members`` over ``since``) exceed ``room`` (``mine``
        false: another seat's)."""
        return [z3.And(as_bool(guard), (self.owner == q) if mine else (self.owner != q), n > room)
                for q in self.step.enc.seats for n in self._arrived(members, since, q)]

    def targets(self):
        """[(guard, members, counter)]: the points after S, the next question included."""
        out = [(g, members, at[0].get(self.v, 0)) for (g, members), at in zip(self.points, self.counts)]
        if self.step.next is not None:
            g, members, counters = self.step.next
            out.append((g, members, counters.get(self.v, 0)))
        return [(g, m, _int(c)) for g, m, c in out if not (is_const(g) and not g)]

    def base_points(self):
        """[(guard, members, counter)]: the points before the first question, and the first question itself."""
        guards, members = self.base
        out = [(g, m, at[0].get(self.v, 0)) for g, m, at in zip(guards, members, self.step.at[:self.step.prefix])]
        here, entry_members, entry_counters = self.step.question[:3]
        out.append((here, entry_members, entry_counters.get(self.v, 0)))
        return [(g, m, _int(c)) for g, m, c in out if not (is_const(g) and not g)]

    def arrivals(self) -> bool:
        """The arrivals at most the counter's growth: before the first question from the start, after it from S
        (a point after the offer on a path that did not ask its first question: from the start)."""
        cs = _int(self.step.question[4][self.v])
        return self._within(lambda c: c - self.lo, lambda c: c - cs, mine=True)

    def others(self) -> bool:
        """No card arrives in another seat's watched zone: before the first question from the start, after it from S
        (by induction, none at any point: the bound 0 for another player)."""
        return self._within(lambda c: 0, lambda c: 0, mine=False)

    def _within(self, from_start, from_s, mine: bool) -> bool:
        """At every point, the cards arrived in the owner's watched zones (``mine``; else another seat's) are at most
        ``from_start(c)`` (``c`` the counter there) since the start — before the first question, and after the offer
        on a path that did not ask it — or ``from_s(c)`` since S after it."""
        here, _, _, s_members, _ = self.step.question
        wrong = [x for g, m, c in self.base_points() for x in self._over(g, m, self.before, from_start(c), mine)]
        for g, m, c in self.targets():
            wrong += self._over(AND(g, here), m, s_members, from_s(c), mine)
            wrong += self._over(AND(g, NOT(here)), m, self.before, from_start(c), mine)
        return self._unsat(wrong)

    def grows(self) -> bool:
        """Where the offer asks again after S, the counter grew since S (by one at least)."""
        if self.step.next is None:
            return True
        here, cs = self.step.question[0], _int(self.step.question[4][self.v])
        g, _, now = self.step.next
        return self._unsat([z3.And(as_bool(AND(g, here)), _int(now.get(self.v, 0)) <= cs)])

    def uses(self, owner):
        """(the powers' uses counted at S, at the next question — each an Int term —, how many powers): for each
        power whose use in this turn the step writes (a card's power, any seat), 1 where the owner (a term; None:
        every seat, summed) has used it in this turn.  A power limited to a use per turn, round or game cannot be
        used again once its cell is set, so its use is a growth the counter does not see."""
        step = self.step
        powers = sorted({k[2:4] for k in step.used_next})
        seats = step.enc.seats

        def count(writes):
            per_seat = [z3.Sum([z3.If(as_bool(step.use_at(("used", q, inst, name, "turn"), writes)), 1, 0)
                                for inst, name in powers]) for q in seats]
            if owner is None:
                return z3.Sum(per_seat)
            return z3.Sum([z3.If(owner == q, n, 0) for q, n in zip(seats, per_seat)])

        most = len(powers) * (len(seats) if owner is None else 1)
        return count(step.at_question[0]), count(step.store.writes), most

    def grows_with_uses(self, owner) -> int | None:
        """Where the offer asks again after S, the counter plus the owner's powers used in this turn (:meth:`uses`)
        grew since S (by one at least): a ranking for an offer whose power lets it ask again with the counter as it
        was.  The most the uses add up to (the ranking's room above the counter), or None where not proven (or no
        power's use is written)."""
        if self.step.next is None or not self.step.used_next:
            return None
        at_s, at_next, most = self.uses(owner)
        here, cs = self.step.question[0], _int(self.step.question[4][self.v])
        g, _, now = self.step.next
        grown = _int(now.get(self.v, 0)) + at_next >= cs + at_s + 1
        return most if self._unsat([z3.And(as_bool(AND(g, here)), z3.Not(grown))]) else None

    def permit(self, bound: int) -> bool:
        memo = self.step.permits
        if (self.v, bound) not in memo:     # asked once per step (its questions bound, then the owner's bound)
            memo[(self.v, bound)] = self._permit(bound)
        return memo[(self.v, bound)]

    def _permit(self, bound: int) -> bool:
        here, cs = self.step.question[0], _int(self.step.question[4][self.v])
        wrong = [z3.And(as_bool(g), c > bound) for g, _, c in self.base_points()]
        for g, _, c in self.targets():
            wrong.append(z3.And(as_bool(AND(g, here)), cs <= bound, c > bound))
            wrong.append(z3.And(as_bool(AND(g, NOT(here))), c > bound))
        return self._unsat(wrong)

    def _unsat(self, wrong: list) -> bool:
        """No model of the step's constraints makes one of ``wrong`` true: asked whole, then (unknown) by the option
        taken at S; or the answer of a step's question asked before that is this one up to a renaming of its cells
        (:attr:`StepUnrolled.answers`: the renaming permutes the free constants, so the one is satisfiable exactly
        when the other is)."""
        if not wrong:
            return True
        facts = [as_bool(c) for c in self.step.constraints]
        question = z3.Or(*wrong)
        answers = self.step.answers
        whole = z3.And(*facts, question) if answers is not None else None
        known = answers.recall(self.step, whole) if answers is not None else None
        if known is not None:
            self.recalled += 1
            return known
        answer = self._asked(facts, question)
        if answers is not None:
            answers.remember(self.step, whole, answer)
        return answer

    def _asked(self, facts: list, question) -> bool:
        """The whole question with :data:`FIRST_RLIMIT` steps; where it ends unknown, case by case (each
        :data:`CASE_RLIMIT`); where a case ends unknown too, the whole question again with :data:`STEP_RLIMIT`.  A
        case satisfiable is a model of the whole question: not proven, nothing more asked."""
        first = min(FIRST_RLIMIT, STEP_RLIMIT)
        answer = self._whole(facts, question, first)
        if answer is not None:
            return answer
        choice = next((c for c in self.step.marks if c.choice.span == self.step.target.span), None)
        cases = self._cases(facts, question, choice) if choice is not None else None
        if cases is not None:
            return cases
        return STEP_RLIMIT > first and bool(self._whole(facts, question, STEP_RLIMIT))

    def _whole(self, facts: list, question, rlimit: int):
        """True (unsat), False (sat), None (unknown at ``rlimit`` steps)."""
        solver = make_solver(SolverSettings(incremental=True, rlimit=rlimit, minimize_cores=False))
        solver.add(*facts)
        self.asked += 1
        answer = solver.check(question)
        return None if answer == z3.unknown else answer == z3.unsat

    def _cases(self, facts: list, question, choice):
        """True where every case of the option taken at S is unsat, False where one is satisfiable, None where one
        ends unknown."""
        pick, cases = choice.choice.value, [i for i, (g, _) in enumerate(choice.choice.options)
                                           if not (is_const(g) and not g)]
        for f in [lambda i=i: _case(facts + [question], pick, i) for i in cases] + \
                 [lambda: _prepared(facts + [question] + [pick != i for i in cases])]:
            solver = make_solver(SolverSettings(incremental=True, rlimit=CASE_RLIMIT, minimize_cores=False))
            solver.add(f())
            self.asked += 1
            answer = solver.check()
            if answer != z3.unsat:
                return None if answer == z3.unknown else False
        return True


def _shared(f: _Facts) -> str:
    return f"; {f.recalled} answered as a step's asked before, its cells renamed" if f.recalled else ""


def _prepared(facts: list):
    goal = z3.Goal()
    goal.add(*facts)
    return z3.Then(*PREPARE)(goal).as_expr()


def _refusal(step: StepUnrolled, owner):
    if step.refused is not None:
        return step.refused
    if step.question is None:
        return "the procedure asks no offer's question (nothing to step)"
    if any(not (is_const(g) and not g) for g, *_ in step.cuts + step.beyond):
        return "the step has places it does not follow (their points would not be asked)"
    if owner is None:
        return "the procedure has no player (the step bounds the owner's zones)"
    return None


def stepped_questions(step: StepUnrolled, most: int, owner=None):
    """(n, what was proven): no path of the procedure asks its offer more than ``n`` questions — a counter ``c`` that
    is a constant ``c1`` at the first question, grows by one at least from each question to the next (where the offer
    asks again after S, ``c`` is more than at S) and stays at most ``B`` (the step of the permit, the least ``B`` up
    to ``lo + most``): ``n = B - c1 + 1``, by induction over the questions as the module's docstring says; or why
    not (a str).  Where the counter does not grow at every such question (a power lets the offer ask again with it
    as it was), the ranking is the counter plus the powers the owner (a term; None: any seat) used in this turn
    (:meth:`_Facts.grows_with_uses`, each a cell the step writes, 0 or 1): it grows by one at least from each question
    to the next, is at least ``c1`` at the first and at most ``B + P`` at any (``P`` the powers counted): ``n = B -
    c1 + P + 1``.  Asked before the offer is unrolled past its questions, it closes the next one without the questions
    of :meth:`~checker.solver.unroll_summary.LemmaUnrolled.asks_again`."""
    refused = _refusal(step, 0)
    if refused is not None:
        return refused
    names = counters(step)
    if not names:
        return "no counter that a `forbid` reads is kept"
    reasons = []
    for v in names:
        start, first = step.start.get(v), step.question[2].get(v)
        if first is None or not is_const(first):
            reasons.append(f"{v} is not known at the offer's first question")
            continue
        lo = start if is_const(start) else 0
        f = _Facts(step, None, None, v, lo)
        proven = f.grows()
        uses = None if proven else f.grows_with_uses(owner)
        bound = next((b for b in range(max(lo, first), lo + most + 1) if f.permit(b)), None) \
            if proven or uses is not None else None
        step.questions += f.asked
        if not proven and uses is None:
            reasons.append(f"{v} is not proven to grow at each question that asks again (nor with the powers' uses "
                           f"in this turn)")
        elif bound is None:
            reasons.append(f"{v} is not proven at most {lo + most} at each question")
        elif proven:
            return bound - first + 1, (f"{v} grows at each question that asks again and stays at most {bound} "
                                       f"(from {first}): at most {bound - first + 1} questions, proven once for every "
                                       f"question{_shared(f)}")
        else:
            n = bound - first + uses + 1
            return n, (f"{v} plus the powers used in this turn ({uses} at most) grows at each question that asks "
                       f"again, {v} stays at most {bound} (from {first}): at most {n} questions, proven once for "
                       f"every question{_shared(f)}")
    return "; ".join(reasons)


def stepped_others(step: StepUnrolled, before: dict, owner):
    """(0, what was proven): no card arrives in another player's watched zone at any point of the procedure, proven by
    one question of the offer from a symbolic state (as :func:`stepped_bound`, without a counter); or why not (a
    str)."""
    refused = _refusal(step, owner)
    if refused is not None:
        return refused
    f = _Facts(step, before, owner, None, 0)
    proven = f.others()
    step.questions += f.asked
    if not proven:
        return "one question of the offer is not proven to bring nothing to another player's zones"
    return 0, (f"one question of the offer, from any state, brings nothing to another player's "
               f"{', '.join(step.watched)}: proven once for every question ({f.asked} questions{_shared(f)})")


def stepped_bound(step: StepUnrolled, before: dict, owner, most: int):
    """(bound, what was proven): the least ``B - lo`` (up to ``most``) for which every fact of the step of a counter
    is proven (see the module's docstring); or the reason none is (a str).  ``step``: the procedure unrolled by
    :class:`StepUnrolled` from the lemma's start; ``before``: the watched zones' members there; ``owner``: the
    procedure's player (a term)."""
    refused = _refusal(step, owner)
    if refused is not None:
        return refused
    names = counters(step)
    if not names:
        return "no counter that a `forbid` reads is kept (the step needs one)"
    reasons = []
    for v in names:
        start = step.start.get(v)
        lo = start if is_const(start) else 0
        f = _Facts(step, before, owner, v, lo)
        if not f.arrivals():
            reasons.append(f"one question of the offer is not proven to add at most the growth of {v}")
            step.questions += f.asked
            continue
        for bound in range(lo, lo + most + 1):
            if f.permit(bound):
                step.questions += f.asked
                return bound - lo, (f"one question of the offer, from any state, adds to the owner's "
                                    f"{', '.join(step.watched)} at most the growth of {v}, and keeps {v} at most "
                                    f"{bound} where it was (from {lo}): proven once for every question "
                                    f"({f.asked} questions{_shared(f)})")
        reasons.append(f"{v} is not proven at most {lo + most} at each question")
        step.questions += f.asked
    return "; ".join(reasons)
