"""unroll_rank: a lemma's bound on the cards that arrive in the owner's watched zones, proven by a *ranking* — the
arrivals are at most the growth of a counter, step by step, and the counter is at most a bound, step by step — where
the bound asked of the whole lemma at once ends unknown (:func:`checker.reach.summary._bound`).

The counter and the zone are read from the spec: a *counter* is a kept Int var without an index that the `when` of a
`forbid` reads (e.g. a count of what was built this turn, which a permit compares with its limit); the zones are
the lemma's watched zones (those CONDITION reads).  The lemma's unrolling records, at each offer's
question it asks (a :class:`~checker.solver.unroll_summary.Mark`), the watched zones' members and the counters there,
and at each decision point inside it (and at its end) the same.  ``lo`` is the counter's value where the call starts
(a constant: a precondition), else 0.  Two invariants of a state S:

- *arrivals*: for the owner's seat, the cards in each watched zone at S that were not in it at the start number at
  most ``c(S) - lo`` (``c(S)`` the counter at S);
- *permit* (for a bound B): ``c(S) <= B``.

Each is proven by induction over the questions a path passes.  For a point T (a question, a decision point, the end)
and each question k before it in the unrolling, the case "k is the last question the path passed before T"
(``asked_k`` and no later question before T asked) is one fact: where T is reached in that case and the invariant
holds at k, it holds at T.  Asked as "T reached, that case, the invariant at k, and not at T" on the constraints made
since question k only (fewer constraints, more models: unsat there is unsat with all of them), split by the option
taken at k (one case per option, and one for none of them: together every path), each case substituted and
pre-processed (:func:`~checker.solver.unroll_summary._case`), with :data:`RANK_RLIMIT` steps.  Before the first
question, the case "no question passed" is asked on every constraint made so far, without a hypothesis.  A question
k that Z3 proves is asked wherever T is reached (``T ⇒ asked_k``, a small question, or read off T's conjunction)
makes the cases before it empty: they are not asked, and that implication is added too.

Every fact proven is added to the lemma's constraints (implied by them, it removes no path); then the bound
``B - lo`` is asked of the lemma as :func:`~checker.reach.summary._bound` asks its bounds — "at a point, more than
``B - lo`` cards arrived in a watched zone of the owner", every constraint and every fact — and only Z3's unsat makes
it the lemma's bound.  Any fact not proven (a case satisfiable or unknown), and the ranking proves nothing: the
bound is then asked as before.  The facts are the step's; the question that closes the bound is the lemma's.
"""

from __future__ import annotations

import z3

from checker.front.types import INT
from checker.solver.factory import SolverSettings, make_solver
from checker.solver.formulas import AND, NOT, as_bool, is_const
from checker.solver.terms import conjuncts
from checker.solver.unroll_cone import names_read
from checker.solver.unroll_summary import PREPARE, _case

__all__ = ["counters", "ranked_bound", "same_term", "RANK_RLIMIT"]

RANK_RLIMIT = 20_000_000        # the steps of each case of a step's fact
DOMINANCE_RLIMIT = 2_000_000    # the steps of "wherever this point is reached, that question was asked"
BOUND_RLIMIT = 100_000_000      # the steps of the bound's question, with the facts


def counters(lemma) -> list[str]:
    """The kept Int vars without an index that the `when` of a `forbid` reads (through the quantities it calls)."""
    p = lemma.p
    read: set[str] = set()
    for rule in p.rules.values():
        for head in rule.heads:
            if head.kind == "forbid" and head.when is not None:
                read |= names_read(p, head.when)
    return sorted(v for v in read if v in lemma.kept and v in p.vars and p.vars[v].index is None
                  and lemma.enc.var_types[v] == INT)


def _int(v):
    return z3.IntVal(v) if is_const(v) else v


class _State:
    """A question or a point of the lemma: where it is reached, the members and counters there, how many constraints
    there were, and (a question) its choice; ``marks``: how many questions come before it in the unrolling."""

    def __init__(self, guard, members, counters, until, marks, choice=None):
        self.guard, self.members, self.counters, self.until, self.marks = guard, members, counters, until, marks
        self.choice = choice

    def same(self, other, v) -> bool:
        """The same terms: the invariants read the same there."""
        if not same_term(self.counters[v], other.counters[v]):
            return False
        return all(len(x) == len(other.members[k]) and all(same_term(m, n) for m, n in zip(x, other.members[k]))
                   for k, x in self.members.items())


def same_term(a, b) -> bool:
    """The same value: the same object, equal terms, or equal constants (a constant and a term: not the same)."""
    return a is b or (not is_const(a) and not is_const(b) and a.eq(b)) or (is_const(a) and is_const(b) and a == b)


class _Ranking:
    def __init__(self, lemma, before, owner, v):
        self.lemma, self.before, self.owner, self.v = lemma, before, owner, v
        start = lemma.start.get(v)
        self.lo = start if is_const(start) else 0
        self.marks = [_State(m.choice.reached, m.members, m.counters, m.until, k, m.choice)
                      for k, m in enumerate(lemma.marks)]
        for s, m in zip(self.marks, lemma.marks):
            s.since = m.since
        self.points = [_State(g, members, at[0], at[1], at[2]) for (g, members), at in zip(lemma.points, lemma.at)]
        self.facts: list = []
        self.asked = 0
        self.dominated: dict = {}       # (id of a question, id of a point) -> proven asked wherever it is reached
        self.asked_first: list = []     # those proven by a question: "where the point is reached, it was asked"

    # the invariants
    def arrivals(self, members, q):
        """For each watched zone of seat ``q``: how many of its cards were not in it at the start (a term)."""
        out = []
        for (z, seat), ms in members.items():
            if seat != q:
                continue
            bits = [AND(m, NOT(b)) for m, b in zip(ms, self.before[(z, seat)])]
            out.append(z3.Sum([z3.If(as_bool(x), 1, 0) for x in bits if not (is_const(x) and not x)] or [z3.IntVal(0)]))
        return out

    def inv_arrivals(self, s: _State):
        c = _int(s.counters[self.v])
        return z3.And([z3.Implies(self.owner == q, n <= c - self.lo) for q in self.lemma.enc.seats
                       for n in self.arrivals(s.members, q)])

    def inv_permit(self, bound: int):
        return lambda s: _int(s.counters[self.v]) <= bound

    # the induction
    def proven(self, inv) -> bool:
        """Every fact of ``inv`` (a function of a state: a Bool term) proven, and added to :attr:`facts`."""
        for target in self.marks + self.points:
            if not self._target(inv, target):
                return False
        return True

    def _target(self, inv, t: _State) -> bool:
        if is_const(t.guard) and not t.guard:
            return True
        before = self.marks[:t.marks]
        # the latest question asked wherever t is reached: the cases before it are empty
        first = 0
        for k in range(len(before) - 1, -1, -1):
            if self._dominates(before[k], t):
                first = k
                break
        else:
            first = -1                  # no question shown asked first: the case "none passed" too
        for k in range(first, len(before)):
            mark = before[k] if k >= 0 else None
            later = [NOT(m.guard) for m in before[k + 1:]]
            if mark is not None and mark.same(t, self.v):
                # the same terms: "inv at k" is "inv at t"; t reached with k last passed is what the fact needs
                continue
            case = AND(t.guard, *later) if mark is None else AND(t.guard, mark.guard, *later)
            hyp = True if mark is None else inv(mark)
            question = z3.And(as_bool(case), as_bool(hyp), z3.Not(inv(t)))
            if not self._unsat(question, mark, t.until):
                return False
            self.facts.append(z3.Implies(z3.And(as_bool(case), as_bool(hyp)), inv(t)))
        return True

    def _dominates(self, mark: _State, t: _State) -> bool:
        """Z3 proves (or t's conjunction shows) that wherever t is reached, ``mark``'s question was asked."""
        if mark is t:
            return True
        key = (id(mark), id(t))
        if key not in self.dominated:
            self.dominated[key] = self._dominance(mark, t)
        return self.dominated[key]

    def _dominance(self, mark: _State, t: _State) -> bool:
        if is_const(mark.guard):
            return bool(mark.guard)
        if not is_const(t.guard):
            have = {c.get_id() for c in conjuncts(t.guard)}
            if all(c.get_id() in have for c in conjuncts(mark.guard)):
                return True
        solver = make_solver(SolverSettings(incremental=False, rlimit=DOMINANCE_RLIMIT, minimize_cores=False))
        solver.add(*[as_bool(c) for c in self.lemma.constraints[:t.until]])
        self.asked += 1
        if solver.check(as_bool(t.guard), z3.Not(as_bool(mark.guard))) != z3.unsat:
            return False
        self.asked_first.append(z3.Implies(as_bool(t.guard), as_bool(mark.guard)))
        return True

    def _unsat(self, question, mark, until: int) -> bool:
        """``question`` unsat on the constraints since ``mark`` (all before ``until`` without one), split by the
        option taken at ``mark``: each case, and the case of none of them, pre-processed."""
        since = 0 if mark is None else mark.since
        facts = [as_bool(c) for c in self.lemma.constraints[since:until]] + [question]
        if mark is None:
            return self._check(_prepared(facts))
        subs = self._symbolic(mark)
        symbolic = [z3.substitute(f, *subs) for f in facts] if subs else None
        pick = mark.choice.value
        cases = [i for i, (g, _) in enumerate(mark.choice.options) if not (is_const(g) and not g)]
        rest = [pick != i for i in cases]
        for i in cases:
            if not self._check(_case(facts, pick, i)) and (symbolic is None or
                                                           not self._check(_case(symbolic, pick, i))):
                return False
        return self._check(_prepared(facts + rest)) or (symbolic is not None and
                                                         self._check(_prepared(symbolic + rest)))

    def _symbolic(self, mark: _State) -> list:
        """The watched zones' members at ``mark``, each term for a Bool unknown of its own: the step's question then
        starts from a symbolic state, as large at the fourth question as at the first (the terms of the questions
        before it, built over their options, are gone).  A generalisation: a model of the question is one of the
        question so substituted (each unknown taking the value of the term it stands for), so unsat after the
        substitution is unsat before it.  Asked only where the case as it is was not found unsat (Z3 answers
        one or the other within its steps, depending on the case: measured on the 4th edition)."""
        subs, seen = [], set()
        for ms in mark.members.values():
            for m in ms:
                if is_const(m) or z3.is_const(m) or m.get_id() in seen:
                    continue
                seen.add(m.get_id())
                subs.append((m, z3.Bool(f"rang {len(subs)}")))
        return subs

    def _check(self, formula) -> bool:
        solver = make_solver(SolverSettings(incremental=True, rlimit=RANK_RLIMIT, minimize_cores=False))
        solver.add(formula)
        self.asked += 1
        return solver.check() == z3.unsat


def _prepared(facts: list):
    goal = z3.Goal()
    goal.add(*facts)
    return z3.Then(*PREPARE)(goal).as_expr()


def ranked_bound(lemma, before: dict, owner, most: int, points=None):
    """(bound, what was proven): the least ``B - lo`` (up to ``most``) for which the ranking's facts of a counter are
    all proven and the lemma's bound question, with them, is unsat; or the reason nothing is proven (a str)."""
    names = counters(lemma)
    if owner is None or not names:
        return "no counter that a `forbid` reads is kept (the ranking needs one)" if owner is not None else \
            "the procedure has no player (the ranking bounds the owner's zones)"
    reasons = []
    for v in names:
        r = _Ranking(lemma, before, owner, v)
        if not r.proven(r.inv_arrivals):
            reasons.append(f"the arrivals are not proven at most the growth of {v} at each step")
            lemma.questions += r.asked
            continue
        for bound in range(r.lo, r.lo + most + 1):
            facts = len(r.facts)
            if not r.proven(r.inv_permit(bound)):
                del r.facts[facts:]
                continue
            own = bound - r.lo
            r.asked += 1
            if _closes(lemma, r, own, points):
                lemma.questions += r.asked
                lemma.constraints += r.asked_first + r.facts
                lemma.ranked.append(f"the arrivals in the owner's {', '.join(lemma.watched)} are at most the growth "
                                    f"of {v} from {r.lo}, and {v} stays at most {bound}, at each step "
                                    f"({len(r.facts)} facts, {r.asked} questions)")
                return own, lemma.ranked[-1]
            reasons.append(f"with the ranking of {v} (at most {bound}), the bound {own} is not proven")
            break
        else:
            reasons.append(f"{v} is not proven at most {r.lo + most} at each step")
        lemma.questions += r.asked
    return "; ".join(reasons)


def _closes(lemma, r: _Ranking, own: int, points=None) -> bool:
    """Unsat: at some point, more than ``own`` cards arrived in a watched zone of the owner — every constraint of the
    lemma and every fact of the ranking.  ``points``: the cards that may have arrived, as the bound reads them
    (:func:`checker.reach.summary._arrivals`: [(guard, seat, {(zone, seat): Bools})]); else every card counted."""
    grows = []
    if points is None:
        points = [(s.guard, q, {k: [AND(m, NOT(b)) for m, b in zip(ms, r.before[k])]
                                for k, ms in s.members.items() if k[1] == q})
                  for s in r.points for q in lemma.enc.seats]
        points = [(AND(g, r.owner == q), q, a) for g, q, a in points]
    for g, v, added in points:
        if is_const(g) and not g:
            continue
        for (z, q), new in added.items():
            new = [x for x in new if not (is_const(x) and not x)]
            if q != v or len(new) <= own:
                continue
            grows.append(z3.And(as_bool(g), z3.Sum([z3.If(as_bool(x), 1, 0) for x in new]) >= own + 1))
    if not grows:
        return True
    solver = make_solver(SolverSettings(incremental=True, rlimit=BOUND_RLIMIT, minimize_cores=False))
    solver.add(*[as_bool(c) for c in lemma.constraints], *r.asked_first, *r.facts)
    return solver.check(z3.Or(*grows)) == z3.unsat
