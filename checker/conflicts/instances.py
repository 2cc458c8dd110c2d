"""conflicts, continued: a move's effect encoded with *one symbolic value per quantifier* — the effect-failure
search's second try at a move whose exact encoding is too large (:mod:`checker.conflicts.effects`).

The exact encoding (:mod:`checker.solver.transition`) spells out every element a quantifier ranges over: a
power whose `requires` asks `any(q in players where any(y in cité[q] where any(z in cité[me] where can a(me, y,
q, z))))` builds one legality term per player and pair of cards, and a `choose x in C where …` one per option,
each with its nested `any` spelled out again.  Here instead:

- an `any(v in C where P)` in a positive place (a `requires`, a `choose`'s `where`, under `and`, `or` and other
  `any`s) is one unknown ``v`` that must be in ``C`` and make ``P`` true (:func:`exists`): that it holds is that
  some value of the unknowns makes it hold, which the solver chooses;
- a `choose x in C where P` (not `optionally`) whose ``P`` asks an `any` is one unknown ``x``: the body goes on
  when ``x`` is in ``C`` and ``P`` holds of it (with its own unknowns for the `any`s of ``P``), and stops, as a
  `choose` with no option does, otherwise (:class:`OneInstance`); the other `choose`s are encoded as ever;
- a third try, for a move still too large so (:class:`Weaker`), makes more of them unknowns: each `any` of the
  `requires` of a power reacting to a window the effect opens (the reaction runs when the unknowns make it hold —
  the solver may also let them not, and skip a reaction whose `requires` holds, as a player may decline an
  optional one), and each `any` under a `not` (in a `requires` or a `where`): ``not any(v in C where P)`` is then
  true for some value of ``v`` whenever it holds, and also where it does not (``v`` a value that fails ``P``).  A
  single unknown cannot say "every element" (it would have to be bound for all of them, which this encoding does
  not do): it weakens the condition, and never makes it refuse an interpreter's run.

Every run of the interpreter is a model of this encoding (the choices it makes, and for each `any` that holds
the element it finds), so what this encoding refutes — *no* failure — is proven.  The other way round does not
hold: the solver may make a `choose` stop although it had an option (a value outside them), and a `choose` that
stops where the interpreter chooses lets what follows it (a caller's next statements) run on another state; the
third try may also skip a reaction the interpreter runs, or take a negated `any` to hold where it does not.  (A
move's `requires` with no `any` under a `not` is only asserted, never negated: its unknowns lose nothing.)  A
model is therefore only a witness once the interpreter, replaying it, stops at the same statement
(``confirmed``); otherwise the move stays undecided, never "safe" and never a failure.
"""

from __future__ import annotations

from checker.front import ast
from checker.front.types import Coll
from checker.solver.encode import AND, NOT, OR, is_const
from checker.solver.transition import ABORT, Choice, Transition

__all__ = ["exists", "requires", "OneInstance", "Weaker"]


def exists(enc, e, env: dict, fresh, negated: bool = False) -> object:
    """``e`` (a Bool expression) with each `any` in a positive place (under `and`, `or` and other `any`s) one
    unknown (named by ``fresh(hint)``): a term that some value of the unknowns makes true exactly when ``e`` holds.
    With ``negated``, each `any` under a `not` too: some value makes it true whenever ``e`` holds (and where it
    does not: weaker)."""
    if isinstance(e, ast.Aggregate) and e.kind == "any":
        ty = enc.type_of(e.coll)
        elem = ty.elem if isinstance(ty, Coll) else ty
        coll = enc.coll(e.coll, env)
        enc.spend(len(coll), e.span)
        value, inside = enc.fresh(fresh(e.var), elem, coll)
        if e.body is None:
            return inside
        return AND(inside, exists(enc, e.body, {**env, e.var: value}, fresh, negated))
    if isinstance(e, ast.Binary) and e.op in ("and", "or"):
        left, right = exists(enc, e.left, env, fresh, negated), exists(enc, e.right, env, fresh, negated)
        return AND(left, right) if e.op == "and" else OR(left, right)
    if negated and isinstance(e, ast.Unary) and e.op == "not" and _quantified(e.operand):
        return NOT(exists(enc, e.operand, env, fresh, negated))
    return enc.expr(e, env)


def _choose(t: Transition, s: ast.Choose, env, guard):
    """`choose x in C where P` as one unknown: chosen when in ``C`` and ``P`` holds of it, else the body stops."""
    enc = t.enc
    ty = enc.type_of(s.coll)
    elem = ty.elem if isinstance(ty, Coll) else ty
    coll = enc.coll(s.coll, env)
    value, inside = enc.fresh(t.fresh_name(s.var), elem, coll)
    if s.options.where is not None:
        inside = AND(inside, exists(enc, s.options.where, {**env, s.var: value}, t.fresh_name, t.negated))
    t.raise_(ABORT, AND(guard, NOT(inside)))
    env[s.var] = value
    if is_const(inside) and not inside:
        return None
    chosen = AND(guard, inside)
    t.choices.append(Choice(s.span, s.var, value, chosen, coll, None, type=elem, random=s.options.random,
                            chosen=chosen, inside=inside))
    return None


class OneInstance(Transition):
    """A :class:`Transition` whose `choose`s that ask an `any` (not `choose … optionally`) are one unknown each,
    their `where`'s `any`s one unknown each (:func:`exists`): fewer terms, and a weaker encoding (see the
    module's doc)."""

    negated = False         # are the `any`s under a `not` unknowns too (:class:`Weaker`)?

    def encoder_of(self, s):
        if isinstance(s, ast.Choose) and not s.options.optional and _quantified(s.options.where):
            return _choose
        return super().encoder_of(s)



class Weaker(OneInstance):
    """The third try (see the module's doc): a :class:`OneInstance` whose reacting powers' `requires` and `any`s
    under a `not` are unknowns too."""

    negated = True

    def requirement(self, e, env):
        """A reacting power's `requires`, its `any`s one unknown each (:func:`exists`)."""
        return exists(self.enc, e, env, self.fresh_name, negated=True)


def _quantified(where) -> bool:
    """Does a `where` (or a condition) ask an `any` (what spells out one term per element of each option)?  A
    `choose` whose `where` does not is kept exact: its options are as many terms as its collection has elements."""
    return where is not None and any(isinstance(n, ast.Aggregate) and n.kind == "any" for n in ast.walk(where))


def requires(enc, expr, env: dict, negated: bool = False) -> object:
    """A power's `requires` with its `any`s one unknown each (it is asserted: the solver picks them); with
    ``negated``, those under a `not` too (:class:`Weaker`)."""
    count = iter(range(1, 1 << 30))
    return exists(enc, expr, env, lambda hint: f"{hint}!requis{next(count)}", negated)

