"""Questions of a conflict search answered many at a time, when the answer is "yes, there is such a state".

Most dead-rule questions (can this rule ever apply, in a game some legal selection sets up?) and most
special-case questions (can this prohibition apply where the rule a permission overrides does not?) are
satisfiable, and their findings need only that answer, not a witness.  Asked one by one, each pays for its own
well-formedness bounds, invariants and selection constraints, and for Z3 reading them again.  Here a batch of
them is asked over one symbolic state: the questions about one action or quantity share its arguments' constants
(each is asked on its own, so they need not differ), its condition is encoded by an encoder of its own, as the
question alone encodes it (the cells, named alike, are the same Z3 constants; the zones and tests read at a
symbolic index are encoded once for all), and one solver holds the bounds of all the cells they read,
the invariants (asserted once a model breaks one, :class:`~checker.solver.search.Assumed`: a model that breaks
none is a model with them) and everything their terms need to mean something (and, for dead rules, the selection
constraints, each question's card selected when its condition holds).  Each question not answered yet is added
to it and taken away again (`push`, `pop`: Z3 reads the rest once); every question whose condition the model it
gets makes true is answered "yes" with it.

Why a "yes" here is the question's own "yes": what the batch asserts contains everything the question alone
asserts (the bounds and the defined-ness of its cells and terms, the invariants, its arguments' domains, its
card and the cards its cells place away from their start zone selected), so the model, read on the question's
constants, is a model of the question alone.  The batch asserts more (the other questions' cells and terms), so
it may miss a question that is satisfiable: those, and every question the batch cannot encode, are asked alone
as before.  Everything is asked in a private Z3 context: the questions asked alone after it, in their fresh
contexts, get the same answers and witnesses as without it.

A question whose check Z3 cannot decide in a batch (Carcassonne's about a tile's many copies) is asked again on the
states with one copy of each card in each place (as :meth:`~checker.solver.search.SymbolicSearch.solve` asks a
question it cannot decide, :mod:`checker.solver.bounded`; asked alone as before, it mostly took Z3 twice to its step
limit first): a special-case question on the batch's own terms, on a solver of its own (a state found there is one
of the batch, so "yes" is its answer); a dead-rule question alone, first on those states
(:func:`applies_with_one_copy`), then as before.
"""

from __future__ import annotations

import dataclasses

import z3

from checker.front.configurations import ConfigEvalError
from checker.solver.bounded import later_copies, restricted
from checker.solver.encode import Unsupported, is_const
from checker.solver.factory import make_solver, private_context, run
from checker.solver.search import Assumed
from checker.solver.searches import TooLarge
from checker.solver.selection import required_cards
from checker.solver.terms import assert_all, conjuncts

__all__ = ["live_rules", "not_special_cases", "upcoming", "applies_with_one_copy", "undecided_about", "BATCH_RLIMIT",
           "ONE_COPY_RLIMIT"]

# Z3's steps for one question of a batch: past it, the question is asked alone (with the search's own limit), as
# it would be without batches.  The batch's solver is incremental, which some questions that the one-shot solver
# of a question alone answers at once are slow in (a question the batch cannot show satisfiable is mostly one).
BATCH_RLIMIT = 2_000_000
# Z3's steps for each question of a dead-rule batch after one of its questions ran out of steps: such a batch holds
# some term Z3 is slow on (Carcassonne's `poser`: a tile against every rampart, a road followed from tile to tile),
# which makes its every question slow: 12 of Carcassonne's dead-rule questions ran out one after the other (2 million
# steps each, 0.3 to 1 s), then were decided alone (most in far fewer steps, or on the states with one copy of each
# card).  Now 7 of them run out at this limit; the one such a batch then showed satisfiable took 34,158 steps.  (The
# special-case batch keeps its limit: asked so, its one-copy model, which answers 5 of Carcassonne's 6 questions at
# once, was not found — Z3's terms numbered otherwise in its context — and one question ended undecided.)
HARD_BATCH_RLIMIT = 500_000
# Z3's steps for a special-case question a batch could not decide, asked on the batch's states with one copy of
# each card (:func:`_one_copy`; Carcassonne's dead-rule questions took 2 to 23 million so, one ran out at 50): past
# it, it is asked alone.
ONE_COPY_RLIMIT = 25_000_000

def upcoming(search, items, involved) -> list:
    """The items of a loop whose questions :meth:`~checker.solver.search.SymbolicSearch._mine` will give this
    search (in its scope, and this shard's), in order, without counting them (``involved(item)`` is the
    scope's predicate for the item's question)."""
    unit, out = search.units, []
    for item in items:
        if search.scope is not None and not involved(item)(search.scope):
            continue
        if unit % search.shard[1] == search.shard[0]:
            out.append(item)
        unit += 1
    return out


def live_rules(search, heads: list) -> set:
    """The ids of the rule heads (``heads``: (rule, head) pairs with a condition) shown to apply in some state
    whose cards a legal selection has, as :meth:`Search.dead_rules` asks it one head at a time: a batch per
    action or quantity (a batch's solver holds every cell its questions read: questions about one action read
    mostly the same ones).  The batches share one solver (:class:`_Shared`): what every batch asserts (the
    invariants, the selection constraints) is asserted and read by Z3 once, each batch's own in a `push`."""
    groups: dict = {}
    for rule, head in heads:
        groups.setdefault(head.pattern.name, []).append((rule, head))
    if not groups:
        return set()
    with private_context():
        shared = _Shared(search)
        return set().union(*(_live(search, group, shared) for group in groups.values()))


class _Shared:
    """One solver for the batches of a search, in one private context: at its base level, what every batch asserts
    (the well-formedness of a state with no cell but those the invariants read, and the spec's constraints on a
    selection); each batch asserts the rest of its own in a `push` (a formula already at the base is the same Z3
    term, not asserted again) and takes it away after."""

    def __init__(self, search):
        self.search = search
        self.solver = make_solver(dataclasses.replace(search.settings,
                                                      rlimit=min(search.settings.rlimit, BATCH_RLIMIT)))
        self.base: set = set()
        self.known: dict = {}       # the bounds of the vars at the base (asserted there: alive, the same terms)
        empty = search.encoder()
        try:           # the invariants only when assumed in every question: else when a model breaks one (Assumed)
            self._assert(empty.defined + search.well_formed(empty, self.known, invariants=not search.lazy))
        except Unsupported:
            pass
        try:
            self._assert(search._selections().formulas([]))
        except ConfigEvalError:
            pass

    def _assert(self, formulas: list) -> None:
        todo = []
        for f in formulas:
            if is_const(f):
                if not f:
                    todo.append(z3.BoolVal(False))
                continue
            if f.get_id() not in self.base:
                self.base.add(f.get_id())
                todo.append(f)
        assert_all(self.solver, todo)

    def rounds(self, merged, extra: list, questions: list) -> set:
        """:func:`_rounds` on this solver: the batch's own formulas in a `push`, taken away after."""
        s = self.solver
        s.push()
        try:
            lazy = self.search.lazy
            formulas = [*merged.defined, *self.search.well_formed(merged, dict(self.known), invariants=not lazy),
                        *extra]
            if any(is_const(f) and not f for f in formulas):
                return set()
            assert_all(s, [f for f in formulas if not is_const(f) and f.get_id() not in self.base])
            assumed = Assumed(self.search, merged, formulas, self.known, self.base) if lazy else None
            return _ask(self.search, s, questions, assumed, lowered=True)
        finally:
            if getattr(s, "rulebook_lowered", False):      # the next batch starts with the whole limit again
                s.set("rlimit", s.rulebook_rlimit)
                s.rulebook_lowered = False
            s.pop()


def _live(search, heads: list, shared: "_Shared") -> set:
    if not heads:
        return set()
    p = search.p
    merged = search.encoder()
    questions = []
    made: dict = {}
    for rule, head in heads:
        name = head.pattern.name
        params = p.actions[name].params if name in p.actions else p.quantities[name].params
        enc = _sharing(search, merged)
        try:
            args, domain = _arguments(search, enc, made, name, params[:len(head.pattern.binders)])
            cond = search.conditions.applies(enc, rule, head, name, params[:len(head.pattern.binders)], args)[2]
        except TooLarge:        # it is alone too (it spends no less there): asked narrowed at once (dead_rules)
            search.too_large.add(id(head))
            continue
        except Unsupported:
            continue
        if is_const(cond):
            continue
        _merge(merged, enc, domain)
        questions.append((id(head), cond, rule.card))
    try:
        selection = search._selections().formulas(
            [*((card, cond) for _, cond, card in questions if card), *required_cards(search.engine, merged)])
    except ConfigEvalError:
        return set()
    # one it cannot decide is asked alone, first on the states with one copy of each card (applies_with_one_copy):
    # asked so on the batch's terms instead, Carcassonne's took Z3 longer than its encoding alone takes
    return shared.rounds(merged, selection, [(key, cond) for key, cond, _ in questions])


def _one_copy(search, merged, questions: list) -> set:
    """The keys of the special-case ``questions`` ((key, condition): those the batch could not decide) true in some
    state of the batch with one copy of each card in each place (:func:`applies_with_one_copy`), each asked on a
    solver of its own that holds all the batch asserts (the invariants too), so that its terms are the batch's, not
    encoded again; a model answers every question it makes true.  The last question, left alone by a model that
    answered the others, is not asked here but alone (:func:`applies_with_one_copy`, on its own terms): here it
    carries every other question's terms, and Carcassonne's (the `poser` special case about the ramparts) ran to this
    limit (25 million steps, 5 s) before it was found alone in 19.6 million."""
    try:
        wf = search.well_formed(merged)
    except Unsupported:
        return set()
    off = later_copies(merged, search.engine.defs)
    common = [*merged.defined, *wf]
    if not off or any(is_const(f) and not f for f in common):
        return set()
    common = restricted([f for f in common if not is_const(f)], off)
    pairs = [(cell, z3.BoolVal(False)) for cell in off]
    done: set = set()
    left = questions
    settings = dataclasses.replace(search.settings, rlimit=min(search.settings.rlimit, ONE_COPY_RLIMIT))
    while left and not (done and len(left) == 1):
        (key, cond), left = left[0], left[1:]
        s = make_solver(settings)
        assert_all(s, [*common, z3.substitute(cond, *pairs)])
        search.queries += 1
        search.batched += 1
        outcome = run(s)
        if outcome.status == "sat":
            shown, left = _answered(key, outcome.model, left)
            done |= shown
    return done


def not_special_cases(search, cases: list) -> set:
    """The keys of the special-case questions (``cases``: (key, other rule, its head, prohibition, its head,
    action)) shown satisfiable: the prohibition applies where the other rule does not, so it is no special
    case of it (:meth:`~checker.solver.search.SymbolicSearch._is_special_case`, one at a time).  A question
    false by its terms (every conjunct of the other rule's condition is one of the prohibition's: :func:`_within`)
    is answered "unsat", a special case, in the search's answers (``_cases``), and not asked at all."""
    if not cases:
        return set()
    with private_context():
        merged = search.encoder()
        questions = []
        made: dict = {}
        widers: dict = {}       # (the overridden head, the action) -> its term: the same for every prohibition
        for key, other, head, forbid, fhead, action in cases:
            params = search.p.actions[action].params
            try:
                wider = widers.get((id(head), action))
                if wider is None:       # on an encoder of its own, merged at once: the questions after it use it
                    enc = _sharing(search, merged)
                    args, domain = _arguments(search, enc, made, action, params)
                    wider = search.conditions.applies(enc, other, head, action, params[:len(head.pattern.binders)],
                                                      args[:len(head.pattern.binders)])[2]
                    _merge(merged, enc, domain)
                    widers[id(head), action] = wider
                enc = _sharing(search, merged)
                args, domain = _arguments(search, enc, made, action, params)
                narrow = search.conditions.applies(enc, forbid, fhead, action, params[:len(fhead.pattern.binders)],
                                                   args[:len(fhead.pattern.binders)])[2]
            except Unsupported:
                continue
            if is_const(wider) or is_const(narrow):
                continue
            if _within(wider, narrow):
                # false by its terms alone, whatever the state: the prohibition is a special case, as the question
                # asked alone finds (unsat), with no query
                search._cases[key] = ("unsat", "")
                continue
            question = z3.And(narrow, z3.Not(wider))
            _merge(merged, enc, domain)
            questions.append((key, question))
        done = _rounds(search, merged, [], questions)
        left = [(key, question) for key, question in questions if key in search.undecided and key not in done]
        return done | (_one_copy(search, merged, left) if left else set())


def _within(wider, narrow) -> bool:
    """Is every conjunct of ``wider`` one of ``narrow``'s (the same Z3 term: the conditions are encoded on shared
    caches)?  Then ``narrow and not wider`` is false whatever the state.  Z3's simplifier, asked this before,
    found the same questions in the house file's search and the 4th edition's (2 and 0), for about 5% of the
    house file's CPU time; one it would find and this does not is asked (in the batch, then alone) and answered
    the same."""
    mine = {c.get_id() for c in conjuncts(narrow)}
    return all(c.get_id() in mine for c in conjuncts(wider))


def _arguments(search, enc, made: dict, name: str, params) -> tuple:
    """``search.params_args(enc, f"{name}@", params)``, made once per action or quantity and its number of
    arguments for a whole batch (the questions about one action share its arguments' constants): a question's
    encoder is given what the first one's made (the values each argument can take)."""
    key = (name, len(params))
    hit = made.get(key)
    if hit is None:
        before, alive = set(enc.domains), len(enc._alive)
        args, domain = search.params_args(enc, f"{name}@", params)
        made[key] = hit = (args, domain, {k: v for k, v in enc.domains.items() if k not in before},
                           enc._alive[alive:])
        return args, domain
    args, domain, domains, alive = hit
    enc.domains.update(domains)
    enc._alive.extend(alive)
    return args, domain


def _sharing(search, merged):
    """An encoder of its own for one question, which finds the tests and zones the questions before it encoded
    (their caches are the batch's: the same terms, of the same context; they count no elements ranged over, so
    what the question cannot encode alone it cannot encode here either)."""
    enc = search.encoder()
    enc._zones, enc._eqs, enc._defs = merged._zones, merged._eqs, merged._defs
    return enc


def _merge(merged, enc, domain: list) -> None:
    """What ``enc`` made for one question, into the batch's encoder ``merged`` (the same context)."""
    merged.cells.made.update(enc.cells.made)
    merged.cells.meaning.update(enc.cells.meaning)
    merged.domains.update(enc.domains)
    merged._alive.extend(enc._alive)
    merged.defined.extend(enc.defined)
    merged.defined.extend(d for d in domain if not (is_const(d) and d))


def _rounds(search, merged, extra: list, questions: list) -> set:
    """The keys of the ``questions`` ((key, condition)) that hold in some well-formed state of ``merged``'s cells
    (with ``extra``): one solver holds all that; each question not answered yet is added and taken away again
    (a `push` and a `pop`), and every question the model it gets makes true is answered with it."""
    s = make_solver(dataclasses.replace(search.settings, rlimit=min(search.settings.rlimit, BATCH_RLIMIT)))
    assert_all(s, merged.defined)
    wf = search.well_formed(merged, invariants=not search.lazy)
    assert_all(s, wf)
    if any(is_const(f) and not f for f in extra):
        return set()
    assert_all(s, [f for f in extra if not is_const(f)])
    return _ask(search, s, questions, Assumed(search, merged, [*merged.defined, *wf, *extra]) if search.lazy else None)


def _answered(key, model, left: list) -> tuple[set, list]:
    """The question ``key`` (its ``model`` found) and every question of ``left`` ((key, condition)) that model
    makes true too; and the questions left after them."""
    shown = {key} | {k for k, c in left if z3.is_true(model.eval(c, model_completion=True))}
    return shown, [(k, c) for k, c in left if k not in shown]


def _ask(search, s, questions: list, assumed: Assumed | None = None, lowered: bool = False) -> set:
    """The keys of the ``questions`` ((key, condition)) that hold in some model of ``s``: each one not answered
    yet is added and taken away again, and every question the model it gets makes true is answered with it.
    ``assumed``: the invariants, left out of ``s``: a model that breaks one is no answer; they are asserted
    in ``s`` then (for the rest of the batch) and the question asked again (:class:`~checker.solver.search.
    Assumed`).  The keys of those Z3 could not decide go into ``search.undecided``.  With ``lowered``, the questions
    after one Z3 could not decide get :data:`HARD_BATCH_RLIMIT` steps (``s.rulebook_lowered`` says it was lowered)."""
    def check(cond):
        s.push()
        s.add(cond)
        outcome = run(s)
        s.pop()
        search.queries += 1
        search.batched += 1
        return outcome

    done: set = set()
    left = questions
    while left:
        (key, cond), left = left[0], left[1:]
        outcome = check(cond)
        if outcome.status == "unknown" and lowered and not getattr(s, "rulebook_lowered", False) \
                and s.rulebook_rlimit > HARD_BATCH_RLIMIT:
            s.set("rlimit", HARD_BATCH_RLIMIT)      # a batch Z3 is slow on: its other questions asked alone sooner
            s.rulebook_lowered = True
        if outcome.status == "sat" and assumed is not None and not assumed.meets(outcome.model):
            assumed.assume(s)
            search.assumed += 1
            assumed = None
            outcome = check(cond)
        if outcome.status == "unknown":
            search.undecided.add(key)
        if outcome.status == "sat":
            shown, left = _answered(key, outcome.model, left)
            done |= shown
    return done


def undecided_about(search, heads) -> bool:
    """Did a batch fail to decide a question about one of the rule ``heads`` (``search.undecided``: a head's dead-rule
    question, or a special-case question of it and another)?  A question about them is asked on the states with one
    copy of each card first (:meth:`~checker.solver.search.SymbolicSearch.solve`): Carcassonne's contradiction
    about the tile put in the middle of the table, with every prohibition of putting a tile, took Z3 twice to its
    step limit (21 s) before it was asked there, and found (in 3 s)."""
    if not search.undecided:
        return False
    ids = {id(h) for h in heads}
    return any(k in ids if isinstance(k, int) else not ids.isdisjoint(k) for k in search.undecided)


def applies_with_one_copy(search, encode, cards: tuple, legal: bool = True) -> bool:
    """Is a question a batch could not decide (``search.undecided``) satisfiable on the states with one copy of each
    card in each place (:mod:`checker.solver.bounded`) — with ``legal``, in a game a legal selection sets up (with
    ``cards``)?  ``encode(enc)``: its formulas on the encoder ``enc`` (one of its own: the question alone is encoded
    anew when this says no).

    Asked alone, such a question mostly takes Z3 to the step limit twice (the question with the selection, then
    without it) before :meth:`~checker.solver.search.SymbolicSearch.solve` asks it on those states (Carcassonne's
    dead-rule questions about a tile's copies: 20 s of Z3 each, then 1 to 2 s there).  A state found there is one
    of the question with every bound, invariant and selection constraint it asserts (asserted here too, the
    invariants at once), so "yes" is its answer; anything else says nothing, and the question is asked as before."""
    enc = search.encoder()
    try:
        formulas = [f for f in encode(enc) if not (is_const(f) and f)]
        wf = search.well_formed(enc)
        selection = search._selections().formulas([*cards, *required_cards(search.engine, enc)]) if legal else []
    except (Unsupported, ConfigEvalError):
        return False
    off = later_copies(enc, search.engine.defs)
    todo = [*formulas, *enc.defined, *wf, *selection]
    if not off or any(is_const(f) and not f for f in todo):
        return False
    s = make_solver(search.settings)
    assert_all(s, restricted([f for f in todo if not is_const(f)], off))
    search.queries += 1
    return run(s).status == "sat"
