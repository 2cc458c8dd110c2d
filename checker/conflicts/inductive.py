"""conflicts, continued: *invariant broken* — from a state that meets every invariant, a legal move leads to
a state that breaks one.

Each `invariant` of the spec is asked of every move whose effect the transition encodes
(:mod:`checker.solver.transition`): every action an `offer` proposes (its body, or its nearest ancestor's,
after the windows opened `before` it; an action only done by a `do` is encoded inside the moves that do
it) and every power (used by its holder, as :mod:`checker.conflicts.effects` makes it).
For a move and an invariant the search is, in order:

1. **the frame**: what the move may write — its statements, the procedures and actions it calls, the
   reactions to the windows it opens, to any depth (a card moved writes every zone of its kind) — and what
   the invariant reads (:func:`checker.runtime.invariants.state_reads`, through the quantities it calls).
   When they do not meet, the move keeps the invariant, whatever its effect: *unchanged*, no query;
2. **Z3**: a well-formed state (every invariant holds in it) where the move is legal and, at a decision the
   interpreter asks inside the effect (a `choose` by a player, a reaction's yes or no, an `offer`: the
   interpreter checks the invariants before each) or in the state right after the effect, the invariant does
   not hold.  ``unsat``: *proven* over this move; ``sat``: an **invariant-broken** finding, its witness
   replayed by the interpreter (:func:`checker.conflicts.replay.replay_invariant`: the move made on the
   state file, the interpreter must stop on the invariant at a decision inside the move, or find it broken
   right after);
3. a `repeat … until` by induction (:mod:`checker.conflicts.loops`): its first pass from the state it is entered
   in, one later pass from any state that meets every invariant with its condition false; a call of a procedure
   proven before is summarised (:func:`~checker.conflicts.watched.summary`: the cells it may write any values in
   their ranges, then every invariant holds); past an `offer` (a decision), the path goes on from what the moves
   may leave, every invariant holding (``_decision`` there); a break found through any of them counts only when
   the interpreter confirms it;
4. what the encoding does not follow of the effect (:data:`~checker.conflicts.effects.MAX_STEPS`
   statements, reactions :data:`~checker.conflicts.effects.MAX_WINDOWS` window deep): when the move may reach
   it (Z3 is asked) and the frame cannot exclude it, the question is *undecided*, with the place; so is a move
   whose effect cannot be encoded.

What is not a move is not covered: the procedures the game's flow runs between decisions (setting up, the
draft, the turn order, the end of a round …).  :func:`uncovered_procedures` lists, per invariant, those
that write what it reads; the command prints them, so that "proven over the moves" never reads as
"proven for every step of a game".  The states are bounded, not reachable (docs/conflicts.md, *Limits*): a
counterexample may need a state no game reaches.
"""

from __future__ import annotations


import typing

import z3

from checker.front import ast
from checker.conflicts.findings import Finding
from checker.conflicts.relaxed import Eager
from checker.runtime.invariants import state_reads
from checker.solver.encode import AND, NOT, OR, Unsupported, as_bool, is_const
from checker.conflicts.emptied import emptied
from checker.conflicts.loops import Loops, Writes, never_none
from checker.conflicts.watched import (Idle, Watched as _Watched, holds, invariants_first, per_player_count,
                                       where as _where)
from checker.front.types import KindT

__all__ = ["broken_invariants", "uncovered_procedures", "move_writes", "STATUSES"]

# per invariant and move, what the search found (the tally the command prints, :attr:`Search.inductive`)
STATUSES = ("unchanged", "proven", "broken", "undecided")

# a proven procedure whose own question followed at least this many statements is summarised where a procedure
# asked after it calls it (:func:`~checker.conflicts.watched.summary`); a smaller one is followed there, exactly
SUMMARY_STEPS = 100


# ==================================================================== the frame

# what a statement may write, for the frame above: those that write nothing the state keeps (vars, zones, uses);
# the others are handled one by one, and one of neither kind (a statement added to the language later) is taken
# to write everything, so that an invariant is never called unchanged by a move that changes what it reads
_STATEMENTS = frozenset(typing.get_args(ast.Stmt))
_WRITES_NOTHING = frozenset({ast.Let, ast.Choose, ast.ChooseSubset, ast.If, ast.For, ast.Repeat, ast.Reveal,
                             ast.Offer, ast.EndTurn, ast.Stop, ast.Cancel, ast.Log, ast.CiteStmt, ast.DecisionStmt,
                             ast.HookStmt})
_HANDLED = (ast.SetVar, ast.Reset, ast.Transfer, ast.Move, ast.Draw, ast.Shuffle, ast.Do, ast.CallProc, ast.Signal,
            ast.Swap, ast.ChooseEach, ast.Retarget)


def move_writes(search, stmts, follow_calls: bool = True, called: set | None = None,
                met: set | None = None, entered: set | None = None) -> tuple[set, set, bool]:
    """(vars, zones, used) that ``stmts`` may write, with what they call and the reactions to the windows they
    open, to any depth (without ``follow_calls``, not the procedures they call).  A card moved or drawn writes
    every zone of its kind (it leaves one); ``used``: a power's use is recorded (it changes what `can` and a
    power's availability read).  An `offer`'s actions are moves of their own, not followed.  ``called``, when
    given, receives the name of every procedure called (followed or not), ``met`` the type of every node,
    ``entered`` every zone a card may move into (a move's or a draw's, a swap's every zone it writes)."""
    p, E = search.p, search.engine
    kinds = {}
    for name, z in p.zones.items():
        kinds.setdefault(z.kind.name, set()).add(name)
    vars_, zones, used = set(), set(), False
    into = entered if entered is not None else set()
    seen: set = set()
    todo = list(stmts)
    while todo:
        node = todo.pop()
        for n in ast.walk(node):
            if met is not None:
                met.add(type(n))
            if isinstance(n, ast.SetVar) and n.target.name in p.vars:
                vars_.add(n.target.name)
            elif isinstance(n, ast.Reset):
                vars_.add(n.name)
            elif isinstance(n, ast.Transfer):
                vars_ |= {n.source.name, n.target.name}
            elif isinstance(n, (ast.Move, ast.Draw)):
                zones |= kinds.get(p.zones[n.dest.target.name].kind.name, set())
                into.add(n.dest.target.name)
            elif isinstance(n, ast.Shuffle):
                zones.add(n.target.name)
            elif isinstance(n, ast.Swap):           # the cards' kinds' zones (or the two zones' kind's)
                for side in (n.left, n.right):
                    ty = E.typed.types.get(id(side))
                    ty = getattr(ty, "inner", ty)
                    ty = getattr(ty, "elem", ty)
                    if isinstance(ty, KindT) and ty.name in kinds:
                        zones |= kinds[ty.name]
                    else:                           # not known: every zone
                        zones |= set(p.zones)
                into |= zones                       # (a card of either may come into any zone written)
            elif isinstance(n, ast.ChooseEach):
                vars_.add(n.target.name)
            elif isinstance(n, ast.Retarget):       # the power is given back
                used = True
            elif type(n) in _STATEMENTS and type(n) not in _WRITES_NOTHING and not isinstance(n, _HANDLED):
                vars_ |= set(p.vars)                # a statement this analysis does not know: it may write anything
                zones |= set(p.zones)
                into |= zones
                used = True
            elif isinstance(n, ast.Do) and ("do", n.action) not in seen:
                seen.add(("do", n.action))
                todo.extend(_action_parts(p, n.action))
            elif isinstance(n, ast.CallProc) and called is not None and n.name not in called:
                called.add(n.name)
                if follow_calls and n.name in p.procedures:
                    seen.add(("call", n.name))
                    todo.extend(p.procedures[n.name].body)
            elif isinstance(n, ast.CallProc) and follow_calls and ("call", n.name) not in seen \
                    and n.name in p.procedures:
                seen.add(("call", n.name))
                todo.extend(p.procedures[n.name].body)
            elif isinstance(n, ast.Signal) and ("signal", n.window) not in seen:
                seen.add(("signal", n.window))
                for power in E.window_powers.get(n.window, ()):
                    used = True
                    todo.extend(search._power_decl(power).body)
    return vars_, zones, used


def _action_parts(p, action: str) -> list:
    """What doing ``action`` runs: the windows opened `before` it (or a parent) and its nearest body."""
    out, at, body = [], action, None
    chain = []
    while at and at not in chain and at in p.actions:
        chain.append(at)
        decl = p.actions[at]
        if body is None and decl.body is not None:
            body = decl.body
        at = decl.parent[0] if decl.parent else None
    out.extend(ast.Signal(h.window, h.args, h.span) for h in p.hooks if h.action in chain)
    return out + list(body or ())


def _reads(search) -> dict:
    """Invariant name -> (vars, zones) it reads, or None when that cannot be known: made once per search (the
    spec's invariants do not change during it), read, never written, by every question."""
    reads = getattr(search, "invariant_reads", None)
    if reads is None:
        reads = search.invariant_reads = {
            inv.name: state_reads(search.engine, [e for e in (inv.require, inv.when) if e is not None])
            for inv, _, _ in search.engine.invariants}
    return reads


def _meets(reads, writes) -> bool:
    if reads is None:
        return True
    vars_, zones, _ = writes
    return bool(reads[0] & vars_ or reads[1] & zones)


def uncovered_procedures(search) -> dict[str, list[str]]:
    """Invariant name -> the procedures (run by the game's flow between decisions, not moves) that write what
    it reads, or call a procedure whose precondition (`requires`) they must meet: what "proven over the moves"
    does not cover."""
    reads = _reads(search)
    out: dict[str, list[str]] = {name: [] for name in reads}
    required = {name for name, decl in search.p.procedures.items() if decl.requires is not None}
    for name, decl in search.p.procedures.items():
        writes = move_writes(search, decl.body, follow_calls=False)
        obliged = any(isinstance(n, ast.CallProc) and n.name in required for n in ast.walk(tuple(decl.body)))
        for inv, r in reads.items():
            if obliged or _meets(r, writes):
                out[inv].append(name)
    return out


# ==================================================================== the moves

def _moves(p) -> list[tuple]:
    """(kind, label, declaration, card): every action an `offer` proposes, every power.  An action only done
    by a `do` is a step of the moves that do it (their transition encodes it, with its legality), not a move
    of its own: asked alone, it would be asked of states where nothing does it."""
    offered = _offered_actions(p)
    out = [("action", name, decl, None) for name, decl in p.actions.items() if name in offered]
    for card in p.cards.values():
        for pw in card.powers:
            out.append(("power", f'"{card.name}".{pw.name}', pw, card))
    return out


def _offered_actions(p) -> set:
    bodies = [d.body or () for d in p.actions.values()] + [d.body for d in p.procedures.values()]
    bodies += [pw.body for c in p.cards.values() for pw in c.powers]
    return {item.action for body in bodies for s in ast.statements(body) if isinstance(s, ast.Offer)
            for item in s.items if isinstance(item, ast.OfferAction)}


def _summaries(search, invariants: list, loop: bool = False) -> dict:
    """Procedure -> the cells it may write (:class:`~checker.conflicts.loops.Writes`), for the procedures this
    search has proven to keep every invariant whose reads they may write (the others they keep unchanged), that
    end no turn and cancel nothing, to any depth (:func:`~checker.conflicts.watched.summary` stands for their
    calls).  Without ``loop``: those whose question followed at least :data:`SUMMARY_STEPS` statements, and that
    open no `offer` and call no turn or round procedure; with it (a call in a loop's pass), any of them, with
    what the moves an `offer` proposes may write where one keeps every invariant (when one does not, not those
    that may reach an `offer`)."""
    p, E, tally = search.p, search.engine, search.inductive
    reads = _reads(search)
    out = {}
    steps = getattr(search, "procedure_steps", {})
    for name, decl in p.procedures.items():
        if not loop and steps.get(name, 0) < SUMMARY_STEPS or \
                not any(name in tally[inv.name]["proven"] for inv in invariants):
            continue
        called, met = set(), set()
        writes = move_writes(search, decl.body, called=called, met=met)
        if met & {ast.EndTurn, ast.Cancel, ast.Retarget} or not loop and (
                met & {ast.Offer} or called & {E.turn_proc, E.round_proc}):
            continue
        if ast.Offer in met:
            moves = _moves_kept(search, invariants)
            if moves is None:
                continue
            writes = (writes[0] | moves[0], writes[1] | moves[1], writes[2] or moves[2])
        if _kept(search, name, invariants, reads, frozenset()):
            left = emptied(p, decl, lambda stmts, **kw: move_writes(search, stmts, **kw)) & writes[1]
            out[name] = Writes(frozenset(writes[0]), frozenset(writes[1]), bool(writes[2]), left)
    return out


def _moves_kept(search, invariants: list) -> tuple | None:
    """What every move may write, when each keeps every invariant (unchanged or proven: what a procedure that
    offers them leaves is then what they write, after which the invariants hold); None when one does not."""
    tally = search.inductive
    vars_, zones, used = set(), set(), False
    for kind, label, decl, _card in _moves(search.p):
        if not all(label in tally[inv.name]["unchanged"] or label in tally[inv.name]["proven"] for inv in invariants):
            return None
        w = _one_move_writes(search, kind, label, decl)
        vars_ |= w[0]
        zones |= w[1]
        used = used or w[2] or kind == "power"
    return vars_, zones, used


def _one_move_writes(search, kind: str, label: str, decl):
    """What one move (an action, with the parts it refines, or a power) may write: :func:`move_writes`."""
    return move_writes(search, _action_parts(search.p, label) if kind == "action" else list(decl.body))


def _loops(search, invariants: list) -> Loops:
    """A `repeat`'s encoding by induction for a question of this search (:class:`~checker.conflicts.loops.Loops`):
    what a pass may write (with what the moves of an `offer` it opens may write), the vars' ranges, and the
    proven procedures a call of which in a pass is summarised."""
    if getattr(search, "never_none", None) is None:
        search.never_none = never_none(search.p, search.engine.typed.types)

    def writes(stmts) -> Writes:
        met: set = set()
        w = move_writes(search, stmts, met=met)
        if ast.Offer in met:
            # what the moves may write: all of it, whatever they keep (a pass is not a proof of them)
            every = [_one_move_writes(search, kind, label, decl) for kind, label, decl, _ in _moves(search.p)]
            w = (w[0].union(*(x[0] for x in every)), w[1].union(*(x[1] for x in every)), True)
        return Writes(frozenset(w[0]), frozenset(w[1]), bool(w[2]))

    return Loops(writes, search._domain, search.never_none, lambda: _summaries(search, invariants, loop=True))


def _kept(search, name: str, invariants: list, reads: dict, seen: frozenset) -> bool:
    """Is procedure ``name`` proven to keep every invariant whose reads it may write, with what it calls?  One
    proven by its own question followed its callees (or summarised them: proven too); one proven only to meet
    its callees' preconditions (:func:`_obligations`, it writes nothing itself) is kept when its callees are."""
    tally = search.inductive
    decl = search.p.procedures[name]
    writes = move_writes(search, decl.body)
    if not all(name in tally[inv.name]["proven"] or not _meets(reads[inv.name], writes) for inv in invariants):
        return False
    if name not in getattr(search, "obliged", ()):
        return True
    callees = {n.name for n in ast.walk(tuple(decl.body))
               if isinstance(n, ast.CallProc) and n.name in search.p.procedures}
    return all(c not in seen and _kept(search, c, invariants, reads, seen | {name}) for c in callees)


def _same(a, b) -> bool:
    if is_const(a) or is_const(b):
        return is_const(a) and is_const(b) and bool(a) == bool(b)
    return a.eq(b)


def _offer_sites(p) -> set:
    bodies = [d.body or () for d in p.actions.values()] + [d.body for d in p.procedures.values()]
    bodies += [pw.body for c in p.cards.values() for pw in c.powers]
    return {_where(s.span) for body in bodies for s in ast.statements(body) if isinstance(s, ast.Offer)}


# ==================================================================== the search

def broken_invariants(search, only: set | None = None, procedures: bool = False) -> list:
    """The invariant-broken findings of ``search`` (a :class:`~checker.conflicts.questions.Search`), and
    undecided ones; ``search.inductive`` (invariant -> status -> moves) tallies every move asked, and
    lists under ``"uncovered"`` the procedures that write what the invariant reads.  With
    ``only``, the moves it names (an action, or a power as ``"Card".name``).  With ``procedures``, each of
    those procedures is asked too, as a move is (:func:`_procedures`).  The states asked are those of legal
    games' selections (:attr:`~checker.solver.search.SymbolicSearch.placed_selections`): a card placed is
    selected, and the selection meets the spec's constraints (the 4th edition's: one character of each rank)."""
    p, E = search.p, search.engine
    out: list = []
    tally = search.inductive
    invariants = [inv for inv, _, _ in E.invariants]
    if not invariants:
        return out
    uncovered = uncovered_procedures(search)
    for inv in invariants:
        tally.setdefault(inv.name, {s: [] for s in STATUSES})["uncovered"] = uncovered[inv.name]
    placed, search.placed_selections = search.placed_selections, True     # the states of legal games' selections
    try:
        _moves_asked(search, only, invariants, out)
        if procedures:
            out.extend(_procedures(search, invariants, _offer_sites(p), only))
    finally:
        search.placed_selections = placed
    return out


def _moves_asked(search, only: set | None, invariants: list, out: list) -> None:
    """The moves' questions (an action, a power), their findings added to ``out``."""
    from checker.conflicts.effects import _scope_keys
    p, tally = search.p, search.inductive
    reads = _reads(search)
    offers = _offer_sites(p)
    for kind, label, decl, card in _moves(p):
        if only is not None and label not in only:
            continue
        if kind == "action":
            parts = _action_parts(p, label)
            keys = lambda scope, parts=parts, label=label: scope.involves(  # noqa: E731
                _scope_keys(search, parts, scope.action(label) | {("invariants",)}))
        else:
            parts = list(decl.body)
            keys = lambda scope, decl=decl, card=card, label=label: scope.involves(  # noqa: E731
                _scope_keys(search, decl.body, scope.card(card.name) | scope.expr(decl.requires)
                            | {("power", label), ("invariants",)}))
        if not search._mine(out, keys):
            continue
        writes = move_writes(search, parts)
        if kind == "power":
            writes = (writes[0], writes[1], True)
        asked = [inv for inv in invariants if _meets(reads[inv.name], writes)]
        for inv in invariants:
            if inv not in asked:
                tally[inv.name]["unchanged"].append(label)
        if asked:
            out.extend(_ask(search, kind, label, decl, card, asked, offers))


def _procedures(search, invariants: list, offers: set, only: set | None) -> list:
    """The procedures that write what an invariant reads, each asked as a move is: run from its start (any
    arguments of its parameters' types) on a state that meets every invariant, does it break one at a
    decision inside it (an `offer` among them: past it, the path goes on from what its moves may leave), or at
    its end?  Proven ones leave ``"uncovered"``; one reaching what the encoding cannot follow is undecided, with
    the reason."""
    from checker.conflicts.effects import _scope_keys
    p, tally, out = search.p, search.inductive, []
    reads = _reads(search)
    for name, decl in _callees_first(p):
        asked = [inv for inv in invariants if name in tally[inv.name]["uncovered"]]
        if not asked or only is not None and name not in only:
            continue
        keys = lambda scope, decl=decl, name=name: scope.involves(  # noqa: E731
            _scope_keys(search, decl.body, {("procedure", name), ("invariants",)}))
        if not search._mine(out, keys):
            continue
        writes = move_writes(search, decl.body, follow_calls=False)
        if any(_meets(reads[inv.name], writes) for inv in asked):
            out.extend(_ask_procedure(search, name, decl, asked, offers, invariants))
        else:       # asked only for the preconditions of what it calls: one question, not one per invariant
            out.extend(_obligations(search, name, decl, asked, offers))
    for inv in invariants:
        own = tally[inv.name]
        own["covered"] = _covered(search, inv.name, [*own["broken"], *own["undecided"]], out)
        own["uncovered"] = [n for n in own["uncovered"] if n not in own["proven"] and n not in own["covered"]]
    return out


def _ask_procedure(search, name: str, decl, asked: list, offers: set, invariants: list) -> list:
    """A procedure's questions, asked first with the calls of the procedures proven so far summarised
    (:func:`~checker.conflicts.watched.summary`: their statements are not encoded again).  That answer is kept
    unless it may come from what a summary allows and the callee does not (a summary forgets what the callee
    leaves besides the invariants: a precondition met after it, say): a break the interpreter does not confirm,
    an error met after a summary, a place the encoding does not follow; then the procedure is asked again with
    the callees' statements, and that is the answer."""
    tally = search.inductive
    summaries = {n: z for n, z in _summaries(search, invariants).items() if n != name}
    trace: dict = {}
    found = _ask(search, "procedure", name, decl, None, asked, offers, summaries=summaries, trace=trace)
    if not trace["suspect"]:
        if trace["summarised"]:
            search.summarised = {**getattr(search, "summarised", {}), name: sorted(set(trace["summarised"]))}
        return found
    for inv in asked:
        for status in STATUSES:
            tally[inv.name][status] = [m for m in tally[inv.name][status] if m != name]
    return _ask(search, "procedure", name, decl, None, asked, offers)


def _callees_first(p) -> list[tuple]:
    """The procedures, each after those it calls (to any depth; otherwise in the spec's order): a procedure is
    asked after its callees, so that the calls of those proven are summarised
    (:func:`~checker.conflicts.watched.summary`)."""
    calls = {name: {n.name for n in ast.walk(tuple(d.body)) if isinstance(n, ast.CallProc) and n.name in p.procedures}
             for name, d in p.procedures.items()}
    out: dict = {}

    def visit(name: str, path: frozenset) -> None:
        if name in out or name in path:
            return
        for callee in sorted(calls[name], key=list(p.procedures).index):
            visit(callee, path | {name})
        out[name] = p.procedures[name]

    for name in p.procedures:
        visit(name, frozenset())
    return list(out.items())


def _obligations(search, name: str, decl, asked: list, offers: set) -> list:
    """A procedure that writes nothing the invariants read but calls one with a precondition: can it, from a
    state that meets every invariant (and its own precondition), call one where its precondition does not hold?
    No: it keeps them (what it calls is asked on its own); yes, or not known: undecided, with the call."""
    from checker.conflicts.effects import MAX_STEPS, MAX_WINDOWS
    tally = search.inductive
    enc = search.encoder()
    enc.memos.rules = {}
    options = dict(cut_at_offers=True, max_windows=MAX_WINDOWS, max_steps=getattr(search, "effect_steps", MAX_STEPS),
                   lazy_moves=True)
    note = span = None
    try:
        args, domain = search.params_args(enc, name, decl.params)
        pre = _precondition(enc, decl, args)
        t = _Watched(enc, [], offers, idle=Idle(search, (set(), set()), move_writes, _every_read(_reads(search))),
                     loops=_loops(search, [inv for inv, _, _ in search.engine.invariants]), **options)
        t.procedure(name, args, True, decl.span)
    except Unsupported as exc:
        note, span = f"cannot encode its effect ({exc.located()})", decl.span
    else:
        t.forget()
        search.procedure_steps = {**getattr(search, "procedure_steps", {}), name: t.steps}
        unmet = [f for f in t.failures if "its precondition (requires" in f.reason]
        bounded = _bounded(search, enc, domain, pre, t, ()) if t.bounds else ("unsat", "", None)
        status, model, reason = ("unsat", None, "") if not unmet else \
            search.solve(enc, *domain, pre, *t.constraints, OR(*(f.when for f in unmet)))
        later = ""
        if status == "sat" and t.later:     # in the first passes of its loops, or only in a later one?
            first = search.solve(enc, *domain, pre, *t.constraints, *(NOT(g) for g in t.later),
                                 OR(*(f.when for f in unmet)))
            if first[0] == "sat":
                model = first[1]
            else:
                later = (" (in a later pass of a loop, from a state that meets every invariant with the loop's "
                         "condition false: one no run may reach)")
        if status == "sat":
            hit = next((f for f in unmet if z3.is_true(model.eval(as_bool(f.when), model_completion=True))), unmet[0])
            note, span = f"from such a state it can stop with an error{later}: {hit.reason} ({hit.span})", hit.span
        elif status == "unknown":
            note, span = f"cannot tell whether it meets the preconditions of what it calls ({reason})", unmet[0].span
        elif bounded[0] != "unsat":
            note, span = bounded[1], bounded[2]
    for inv in asked:
        tally[inv.name]["undecided" if note else "proven"].append(name)
    if not note:
        search.obliged = getattr(search, "obliged", set()) | {name}     # proven for its callees' preconditions
        return []
    names = ", ".join(inv.name for inv in asked)
    return [Finding("unknown", f"{name} writes nothing {names} read(s), but {note}", (name, *[i.name for i in asked]),
                    (span, decl.span), unknown=note)]


def _callers(p) -> dict[str, set]:
    """Procedure -> what calls it: the procedures by name, an action or a power as ``("move", name)``."""
    out: dict[str, set] = {}
    bodies = [(name, d.body) for name, d in p.procedures.items()]
    bodies += [(("move", name), d.body or ()) for name, d in p.actions.items()]
    bodies += [(("move", f'"{c.name}".{pw.name}'), pw.body) for c in p.cards.values() for pw in c.powers]
    for caller, body in bodies:
        for n in ast.walk(tuple(body)):
            if isinstance(n, ast.CallProc):
                out.setdefault(n.name, set()).add(caller)
    return out


def _covered(search, inv: str, candidates: list, found: list) -> list:
    """The procedures of ``candidates`` (broken or undecided when run alone, from any state) that only ever run
    inside procedures that keep ``inv`` at every decision they reach and at their end (their transition follows
    the calls, so that proof is the callee's too, as it is called): every caller is such a procedure (asked and
    its checks proven: ``search.held``), or only runs inside such procedures itself.  A procedure nothing calls (the flow) is not.  Their
    findings say so (``resolution``); they stay findings: true of the procedure run alone."""
    held = {name for name, i in getattr(search, "held", ()) if i == inv}
    callers = _callers(search.p)
    flow = {search.engine.flow, search.engine.turn_proc, search.engine.round_proc}
    covered: dict[str, bool] = {}

    def ok(name: str, seen: frozenset) -> bool:       # does every run of ``name`` happen inside a held one?
        if name in seen or name in flow or not callers.get(name):
            return False
        return all(isinstance(c, str) and (c in held or ok(c, seen | {name})) for c in callers[name])

    for name in candidates:
        covered[name] = ok(name, frozenset())
    for f in found:
        if f.rules and f.rules[-1] == inv and covered.get(f.rules[0]):
            via = sorted(c for c in callers[f.rules[0]])
            f.resolution = (f"every call of {f.rules[0]} is inside {', '.join(via)}, which keep {inv} at every "
                            f"decision they reach (or are themselves only called so)")
    return [n for n, yes in covered.items() if yes]


def _ask(search, kind, label, decl, card, asked: list, offers: set, summaries: dict | None = None,
         trace: dict | None = None) -> list:
    """The questions of one move, for the invariants whose reads it may write (a procedure: with the calls of
    ``summaries`` summarised, :func:`~checker.conflicts.watched.summary`; ``trace`` then says which were
    (``"summarised"``) and whether
    an answer that is not a proof may come from what a summary allows (``"suspect"``))."""
    trace = trace if trace is not None else {}
    trace.setdefault("summarised", [])
    trace.setdefault("suspect", False)
    from checker.conflicts.effects import MAX_STEPS, MAX_WINDOWS, _power_move
    tally = search.inductive
    enc = search.encoder()
    enc.memos.rules = {}        # as the effect failures' (checker/conflicts/effects.py encode_effect)
    steps = getattr(search, "effect_steps", MAX_STEPS)
    options = dict(cut_at_offers=True, max_windows=MAX_WINDOWS, max_steps=steps, lazy_moves=True,
                   loops=_loops(search, [inv for inv, _, _ in search.engine.invariants]))
    try:
        if kind == "action":
            args, domain = search.action_args(enc, label)
            legal = enc.legality(label, args)[0]
            before_cells, before = enc.cells, holds(enc, asked)
            t = _Watched(enc, asked, offers, **options)
            t.perform(label, args, legal)
            move = (label, args)
        elif kind == "procedure":
            args, domain = search.params_args(enc, label, decl.params)
            legal = _precondition(enc, decl, args)      # asked alone, it is called where its `requires` holds
            before_cells, before = enc.cells, holds(enc, asked)
            t = _Watched(enc, asked, offers, idle=_idle_of(search, asked), summaries=summaries, **options)
            t.procedure(label, args, True, decl.span)
            move = ("procedure", label, args)
        else:
            domain, legal, t, _ = _power_move(search, enc, decl, card, steps, transition=lambda e, **kw: _Watched(
                e, asked, offers, loops=options["loops"], **kw))
            before_cells, move = t.store.base, None
            before = None
        # the state right after the effect, on the paths that complete it (no failure, not cut)
        end = AND(*(NOT(f.when) for f in t.failures), *(NOT(g) for g, _, _ in t.cuts))
        t.check(end, None)
    except Unsupported as exc:
        for inv in asked:
            tally[inv.name]["undecided"].append(label)
        names = ", ".join(inv.name for inv in asked)
        return [Finding("unknown", f"cannot tell whether {label} keeps {names}: cannot encode its effect "
                                   f"({exc.located()})", (label, *[inv.name for inv in asked]), (decl.span,),
                        unknown=exc.located())]
    enc.cells = before_cells        # the state the witness and the invariants assumed describe: the one before
    t.forget()
    trace["summarised"].extend(getattr(t, "summarised", ()))
    if kind == "procedure":
        search.procedure_steps = {**getattr(search, "procedure_steps", {}), label: t.steps}
    summarised = bool(getattr(t, "summarised", ()))
    if before is None:
        before = holds(enc, asked)
    cards = (card.name,) if card is not None else ()
    out = []
    bounded = None                  # may the move reach where the encoding stops following it?
    failing = None                  # may the procedure stop with an error?
    # the facts (implied: no model lost or added) only where they help, the invariant's own conjuncts: in the
    # question whether it stops with an error they made Z3 run out of steps (the fan's choix_standard)
    eager = Eager(search, enc, [*domain, legal, *t.constraints, *t.facts])
    for inv in asked:
        status, model, reason = _search(search, enc, [*domain, legal, *t.constraints, *t.facts], t, inv.name,
                                        before[inv.name], cards, eager, first_unknown=kind == "procedure")
        # a break in the first passes, before the moves of an offer (the interpreter can replay it), if any
        firsts = ([t.checks[:t.before_offers]] if t.offered else []) + ([t.checks] if t.later else [])
        for checks in firsts if status == "sat" else ():
            first = _search(search, enc, [*domain, legal, *t.constraints, *t.facts, *(NOT(g) for g in t.later)],
                            t, inv.name, before[inv.name], cards, eager, first_unknown=kind == "procedure",
                            checks=checks)
            if first[0] == "sat":
                status, model, reason = first
                break
        if status == "sat":
            finding = _found(search, enc, model, label, decl, move, card, t, inv)
            if (summarised or t.havocked or t.offered) and finding.confirmed is not True:   # a state only they allow?
                trace["suspect"] = trace["suspect"] or summarised
                tally[inv.name]["undecided"].append(label)
                finding.kind = "unknown"
                through = ", ".join([*sorted(set(t.summarised)),
                                     *(f"a later pass of the loop at {span}" for span in t.havocked),
                                     *(f"the moves offered at {span}" for span in dict.fromkeys(t.offered))])
                finding.unknown = (f"the state found goes through what stands for {through}, and the interpreter "
                                   f"does not confirm it ({finding.replayed})")
                finding.message = f"cannot tell whether {label} keeps the invariant {inv.name}: {finding.unknown}"
            else:
                tally[inv.name]["broken"].append(label)
            out.append(finding)
            continue
        if status == "unknown":
            tally[inv.name]["undecided"].append(label)
            out.append(Finding("unknown", f"cannot tell whether {label} keeps the invariant {inv.name}",
                               (label, inv.name), (decl.span, inv.span), unknown=reason))
            continue
        if t.bounds and bounded is None:
            bounded = _bounded(search, enc, domain, legal, t, cards)
        if t.bounds and bounded[0] != "unsat":
            trace["suspect"] = trace["suspect"] or summarised
            tally[inv.name]["undecided"].append(label)
            out.append(Finding("unknown", f"{label} keeps the invariant {inv.name} as far as its effect is followed: "
                                          f"{bounded[1]}", (label, inv.name), (bounded[2], decl.span, inv.span),
                               unknown=bounded[1]))
            continue
        if kind == "procedure":     # kept at every check it reaches: what its callees do inside it is kept too
            search.held = getattr(search, "held", set()) | {(label, inv.name)}
        # a procedure's errors are searched by nobody else: kept on the paths that complete is no proof when
        # some state meeting every invariant stops it with an error (all of them, it may be: then vacuously kept)
        if kind == "procedure" and t.failures and failing is None:
            failing = _failing(search, enc, [*domain, legal], t, cards)
        if kind == "procedure" and t.failures and failing[0] != "unsat":
            # an error a summary's unknowns may lead to (one met after them), not one on the way to them
            trace["suspect"] = trace["suspect"] or summarised and failing[0] == "sat" and \
                any(failing[3] is f for f in t.failures[t.havoc_at:])
            tally[inv.name]["undecided"].append(label)
            out.append(Finding("unknown", f"{label} keeps the invariant {inv.name} on the paths that complete, but "
                                          f"{failing[1]}", (label, inv.name), (failing[2], decl.span, inv.span),
                               unknown=failing[1]))
            continue
        tally[inv.name]["proven"].append(label)
    return out


def _idle_of(search, asked: list) -> Idle | None:
    """What the invariants ``asked`` read, to stop following a path where nothing after writes it (None when
    what one reads cannot be known)."""
    reads = _reads(search)
    if any(reads[inv.name] is None for inv in asked):
        return None
    return Idle(search, (set().union(*(reads[inv.name][0] for inv in asked)),
                         set().union(*(reads[inv.name][1] for inv in asked))), move_writes, _every_read(reads))


def _every_read(reads: dict) -> tuple | None:
    """(vars, zones) every invariant reads, from :func:`_reads`'s answer (None when what one reads cannot be
    known)."""
    every = list(reads.values())
    return None if None in every else (set().union(*(r[0] for r in every)), set().union(*(r[1] for r in every)))


def _precondition(enc, decl, args):
    """The procedure's `requires` on ``args`` in the state before (True without one): what its callers ensure,
    each checked where it calls (a call that does not meet it is a failure of the caller)."""
    if decl.requires is None:
        return True
    partial = len(enc.partial)
    ok = enc.expr(decl.requires, {prm.name: a for prm, a in zip(decl.params, args)})
    oks = [ok for _, ok, _ in enc.partial[partial:]]
    del enc.partial[partial:]
    return AND(ok, *oks)


def _failing(search, enc, domain, t, cards) -> tuple:
    """(status, note, span, the failure found or None) of: may the procedure stop with an error, from a state
    that meets every invariant?"""
    status, model, reason = search.solve(enc, *domain, *t.constraints, OR(*(f.when for f in t.failures)), cards=cards)
    if status == "sat":
        hit = next((f for f in t.failures if z3.is_true(model.eval(as_bool(f.when), model_completion=True))),
                   t.failures[0])
        return status, f"from such a state it can stop with an error: {hit.reason} ({hit.span})", hit.span, hit
    if status == "unknown":
        return status, f"cannot tell whether it stops with an error ({reason})", t.failures[0].span, None
    return status, "", None, None


def _search(search, enc, formulas, t, name: str, before: tuple, cards, eager: Eager,
            first_unknown: bool = False, checks: list | None = None) -> tuple:
    """(status, model, reason): is ``name`` broken somewhere the move's checks reach?  Asked conjunct by
    conjunct (a sum of cards counted per player is easier for Z3 one player at a time); a conjunct that does
    not change at a check (the same term as before the move) is not asked there.  Each is asked first as it is
    (``eager``, :class:`~checker.conflicts.relaxed.Eager`): what that refutes needs no full question.  After one
    Z3 cannot decide, the others are still asked for a move: one may be broken; with ``first_unknown`` (a
    procedure, whose question follows more statements: the fan expansion's round, 8 conjuncts, one per seat,
    each undecided at the step limit after ~50 s) the answer is undecided there, and a break in a conjunct not
    asked is not found.  ``checks``: those of ``t`` asked (all of them by default)."""
    unknown, at_once = None, True
    checks = t.checks if checks is None else checks
    for j in range(max((len(h[name]) for _, _, h in checks), default=0)):
        broken = []
        for g, _, h in checks:
            parts = h[name]
            if len(parts) != len(before):        # not the same shape as before: the whole invariant at once
                if j == 0:
                    broken.append(AND(g, NOT(AND(*parts))))
                continue
            if j < len(parts) and not any(_same(parts[j], b) for b in before):
                broken.append(AND(g, NOT(parts[j])))
        broken = [b for b in broken if not (is_const(b) and not b)]
        if not broken or eager.refuted(OR(*broken)):
            continue
        status, model, reason, split = per_player_count(search, enc, *formulas, OR(*broken), at_once=at_once,
                                                        minimal=True, cards=cards)
        at_once = at_once and not split     # the next conjuncts: per player count from the start
        if status == "sat":
            return status, model, reason
        if status == "unknown" and unknown is None:
            unknown = (status, model, reason)
            if first_unknown:
                break
    return unknown or ("unsat", None, "")


def _bounded(search, enc, domain, legal, t, cards) -> tuple:
    """(status, note, span) of: may the move reach a place where the encoding stops following its effect?  Where
    a path was cut because an invariant may not hold there (``t.on_invariants``), asked with every invariant
    asserted from its first check (:func:`~checker.conflicts.watched.invariants_first`)."""
    with invariants_first(search, getattr(t, "on_invariants", False)):
        status, model, reason = search.solve(enc, *domain, legal, *t.constraints, OR(*t.bounds), cards=cards)
    if status == "sat":
        reached = [(span, what) for w, span, what in t.cuts
                   if z3.is_true(model.eval(as_bool(w), model_completion=True))]
        span, what = reached[0] if reached else (t.cuts[0][1], t.cuts[0][2])
        return status, f"the effect is followed up to {what} ({span}); what runs after it is not searched", span
    if status == "unknown":
        return status, f"cannot tell whether the effect reaches what is not followed ({reason})", t.cuts[0][1]
    return status, "", None


def _found(search, enc, model, label, decl, move, card, t, inv) -> Finding:
    """The finding of a model where the move breaks ``inv``, with its witness replayed."""
    from checker.conflicts.effects import _answers, write_witness
    where = next((span for g, span, h in t.checks
                  if z3.is_true(model.eval(as_bool(AND(g, NOT(AND(*h[inv.name])))), model_completion=True))), None)
    procedure = move is not None and move[0] == "procedure"
    at = f"right after the {'procedure' if procedure else 'move'}" if where is None else f"at the decision {where}"
    what = "the procedure, run from its start," if procedure else "a legal move"
    finding = Finding("invariant-broken", f"{label}: from a state that meets every invariant, {what} breaks "
                                          f"the invariant {inv.name} ({at})",
                      (label, inv.name), (decl.span, inv.span), _cites(inv))
    write_witness(search, enc, model, finding, None if procedure else move, t)
    if procedure:
        call, shown = _call(enc, model, decl, move[2])
        finding.situation = [*finding.situation, f"call {label}({', '.join(shown)})"]
        if call is None:
            finding.replayed = "not replayed: a parameter of the procedure is not a single value"
            return finding
    if finding.witness is not None:
        from checker.conflicts.replay import replay_invariant
        finding.confirmed, finding.replayed = replay_invariant(
            search, finding.witness, None if procedure else finding.move,
            ("procedure", label, call) if procedure else None if move else (card.name, decl.name),
            _answers(enc, model, t), inv.name)
    return finding


def _call(enc, model, decl, args) -> tuple:
    """(the runtime values the model gives a procedure's arguments — None if one is a set or a record —, each
    said in the spec's terms)."""
    from checker.solver.witness import _value
    out, shown = [], []
    for prm, a in zip(decl.params, args):
        if isinstance(a, (list, tuple)):
            return None, [*shown, "…"]
        ty = enc.resolve(prm.type)
        value = a if isinstance(a, (int, bool)) else _value(model, a)
        out.append(enc.to_runtime(value, ty))
        shown.append(str(enc.show(value, ty)))
    return tuple(out), shown


def _cites(inv) -> tuple:
    return tuple((inv.name, c.quote) for c in inv.cites)
