"""behaviour: a changed action, procedure or power compared by what it does.

Both sides' statements are encoded as a transition (:mod:`checker.solver.transition`) from the same
symbolic state (the pair's shared cells), with the same arguments, the same holder and card for a
power, and the same choices: the choices of the two sides are matched in the order the statements
make them (the same kind of choice of the same name, at the same rank) and each pair is one unknown — a
subset with other bounds or among other pools too: one Bool per element of the union of the pools, each
side's bounds and pool its own condition on it.  A value written otherwise on the two sides (a `let`, a
`transfer`'s amount, a `set`'s value) is first proven equal where it can be, and B then reads A's term
(:mod:`checker.diff.cuts`).  Z3 is then asked for a state and choices where

- both sides accept the choices and reach different next states (a var, a counter, a card's zone or a
  power used up differs), or one fails (an effect failure) and the other does not, or one stops the
  turn, cancels or aborts and the other does not; or
- a value one side offers at a choice is not an option on the other side (where both ask; for a subset, a
  set of elements one side's bounds or pool allow and the other's do not).

``unsat`` proves that every state and every choice leads both sides to the same next state: the change
changes no game.  ``sat`` gives a witness (state files for each side, the move and the choices, the
values that differ after), which each side's interpreter replays (``confirmed``).  A statement the
encoding does not cover, or choices that cannot be matched, make the comparison *undecided*, with the
location and the reason — never equivalent.
"""

from __future__ import annotations

import dataclasses

import z3

from checker.base.documents import spoken
from checker.base.limits import MAX_ENCODING
from checker.front import ast
from checker.diff.compare import Shaper
from checker.diff.cuts import Cuts, cut_key
from checker.diff.narrow import narrowed
from checker.diff.pair import Pair, Side
from checker.diff.replay import replay
from checker.diff.semantic import Difference, _differ, _number, _true, _witness, witness_players
from checker.solver.encode import AND, NONE, NOT, OR, Encoder, Unsupported, as_bool, is_const
from checker.solver.statefile import _Values
from checker.solver.transition import Transition
from checker.front.types import KindT, Opt

__all__ = ["Move", "changed_moves", "compare_move"]


@dataclasses.dataclass(frozen=True)
class Move:
    """A changed action, procedure or power: ``decls`` are its declarations in A and B."""
    kind: str               # action | procedure | power
    name: str               # the action's or procedure's name; the power's name
    card: tuple | None      # a power's card, by its name in A and in B
    decls: tuple
    subject: str            # as the declaration's change names it: `power "Base name".name`, `action name` …


class _Side(Transition):
    """A side's transition that records the names of its unknowns.  Untagged, the two sides name the unknowns
    of the same choice alike (the same Z3 constant: the terms the two sides share are then the same terms, and
    what neither side changes folds away); tagged, they are named apart and a matched choice is an equality."""

    def __init__(self, enc: Encoder, tag: str, tagged: bool, cuts: Cuts | None = None):
        super().__init__(enc)
        self.tag, self.tagged = tag, tagged
        self.names: set[str] = set()
        self.cuts = cuts            # untagged: B's values take A's terms where proven equal (checker.diff.cuts)
        self.cutting = None         # (key, the expression, guard) of the statement being encoded, while it is
        if cuts is not None:
            setattr(cuts, tag, self)

    def fresh_name(self, hint: str) -> str:
        name = super().fresh_name(hint) + (f"⟨{self.tag.upper()}⟩" if self.tagged else "")
        self.names.add(name)
        return name

    def encoder_of(self, s):
        """A `let`, a `transfer` or a `set`: its value goes through the cut points (:mod:`checker.diff.cuts`)."""
        fn = super().encoder_of(s)
        key = cut_key(s) if self.cuts is not None and fn is not None else None
        if key is None:
            return fn

        def cut(t, s, env, guard):
            self.cutting = (key, s.amount if isinstance(s, ast.Transfer) else s.value, guard)
            try:
                return fn(t, s, env, guard)
            finally:
                self.cutting = None
        return cut

    def options_of(self, s, options, guard):
        """A `choose`'s options: B's are A's where proven the same (:meth:`checker.diff.cuts.Cuts.options`)."""
        return options if self.cuts is None else self.cuts.options(self, s, options, guard)

    def expr(self, e, env):
        value = super().expr(e, env)
        if self.cutting is not None and e is self.cutting[1]:
            key, _, guard = self.cutting
            self.cutting = None
            return self.cuts.bind(self, key, e, value, guard)
        return value


def changed_moves(pair: Pair, shaper_a, shaper_b) -> list[Move]:
    """The actions (their own block), procedures and powers both sides have, with other statements."""
    pa, pb = pair.a.program, pair.b.program
    out = []
    for name in sorted(set(pa.actions) & set(pb.actions)):
        da, db = pa.actions[name], pb.actions[name]
        if (da.body is not None or db.body is not None) and \
                shaper_a.shape(da.body or ()) != shaper_b.shape(db.body or ()) and \
                shaper_a.shape(da.params) == shaper_b.shape(db.params):
            out.append(Move("action", name, None, (da, db), f"action {name}"))
    for name in sorted(set(pa.procedures) & set(pb.procedures)):
        da, db = pa.procedures[name], pb.procedures[name]
        if shaper_a.shape(da) != shaper_b.shape(db) and shaper_a.shape(da.params) == shaper_b.shape(db.params):
            out.append(Move("procedure", name, None, (da, db), f"procedure {name}"))
    cards_b = {pair.b.base(c.name): c for c in pb.cards.values()}
    for card in pa.cards.values():
        other = cards_b.get(pair.a.base(card.name))
        if other is None:
            continue
        powers_b = {pw.name: pw for pw in other.powers}
        for pw in card.powers:
            theirs = powers_b.get(pw.name)
            if theirs is not None and shaper_a.shape(pw) != shaper_b.shape(theirs):
                out.append(Move("power", pw.name, (card.name, other.name), (pw, theirs),
                                f'power "{pair.a.base(card.name)}".{pw.name}'))
    return out


# ---------------------------------------------------------------- one side's move

def _start(pair: Pair, side: Side, enc: Encoder, move: Move, shared: dict, tagged: bool) -> tuple:
    """Encode ``move`` on ``side``: (transition, domain constraints, the action's arguments).  ``shared`` holds
    the unknowns both sides use (arguments, window arguments), made by side A."""
    decl = move.decls[0 if side.tag == "a" else 1]
    domain: list = []
    if move.kind == "action":
        if "args" not in shared:
            shared["args"], shared["domain"] = pair.a.search.action_args(enc, move.name)
            domain = shared["domain"]
        t = _Side(enc, side.tag, tagged, shared.get("cuts"))
        t.action(move.name, shared["args"])
        return t, domain, shared["args"]
    if move.kind == "procedure":
        if "args" not in shared:
            shared["args"], shared["domain"] = pair.a.search.params_args(enc, move.name, decl.params)
            domain = shared["domain"]
        t = _Side(enc, side.tag, tagged, shared.get("cuts"))
        if "tail" in shared:        # the steps from the first that differs (see _tail)
            t.body(shared["tail"][0 if side.tag == "a" else 1],
                   {prm.name: a for prm, a in zip(decl.params, shared["args"])})
        else:
            t.procedure(move.name, shared["args"], True, decl.span)
        return t, domain, ()
    E = side.engine
    key = E.def_ids[move.card[0 if side.tag == "a" else 1]]
    inst = E.instances[key][0]
    if shared.setdefault("card", inst) != inst:
        raise Unsupported("the card is not the same physical card on both sides", decl.span)
    controller = E.controllers.get(E.def_kind[key])
    holder = enc.quantity(controller, (inst,)) if controller else NONE
    wargs = {}
    if decl.window is not None:
        if "window" not in shared:
            params = side.program.windows[decl.window[0]].params
            shared["window"], shared["domain"] = pair.a.search.params_args(enc, decl.window[0], params)
            domain = shared["domain"]
        wargs = {n: v for (n, _), v in zip(decl.window[1], shared["window"])}
    runtime = next(x for x in E.powers_of[key] if x.name == decl.name)
    usable = AND(NOT(holder == NONE) if not is_const(holder) else holder != NONE, enc.active(inst))
    if runtime.limit != "unlimited":
        used = enc.select(holder, tuple(enc.seats), lambda k: enc.cells.used_up(k, inst, runtime)) \
            if not is_const(holder) else (enc.cells.used_up(holder, inst, runtime) if holder != NONE else True)
        usable = AND(usable, NOT(used))
    if decl.requires is not None:
        usable = AND(usable, enc.expr(decl.requires, {"me": holder, "this": inst, **wargs}))
    t = _Side(enc, side.tag, tagged, shared.get("cuts"))
    t.power(decl, holder, inst, wargs, usable)
    shared.setdefault("usable", {})[side.tag] = usable
    shared.setdefault("holder", {})[side.tag] = holder
    return t, domain, ()


def _power_header(move: Move) -> str | None:
    """Why two versions of a power cannot be compared by their statements alone, if they cannot."""
    a, b = move.decls
    if (a.window is None) != (b.window is None) or (a.window and a.window[0] != b.window[0]):
        return "it reacts to another window"
    if a.window and [n for n, _ in a.window[1]] != [n for n, _ in b.window[1]]:
        return "it names its window's arguments otherwise"
    if a.mandatory != b.mandatory:
        return "it is mandatory on one side only"
    return None


def _unfollowed(shaper, decl) -> list:
    """The parts of a declaration's statements the transition does not follow: what is revealed, a pile
    shuffled, where in a pile a card goes, who makes a choice and whether secretly."""
    out = []
    for node in ast.walk(decl.body or ()):
        if isinstance(node, (ast.Reveal, ast.Shuffle)):
            out.append(shaper.shape(node))
        elif isinstance(node, ast.Place):
            out.append(("position", node.position))
        elif isinstance(node, ast.ChooseOptions):
            out.append(("chooser", shaper.shape(node.by), node.secretly))
    return out


# ---------------------------------------------------------------- matching the choices

class _Unmatched(Exception):
    pass


def _signature(c) -> tuple:
    # a choice made at random on one side and by a player on the other is matched (the same values, the same
    # unknown): that chance decides on one side only is a difference of its own (:func:`_chance_or_player`)
    return (c.kind, c.var, str(c.type), c.random if c.kind != "one" else None, c.optional is None,
            c.value is None)


def _match(ta: _Side, tb: _Side) -> tuple[list, list]:
    """(the constraints that make each pair of matched choices one unknown, the pairs); raises _Unmatched.
    Untagged, a pair must already be the same constants, and no other unknown may have a name of the other
    side's (else _Misnamed: the caller encodes again, tagged)."""
    ca, cb = ta.choices, tb.choices
    if [_signature(c) for c in ca] != [_signature(c) for c in cb]:
        raise _Unmatched(f"the choices cannot be matched: A chooses {_listed(ca)}; B chooses {_listed(cb)}")
    paired = [_paired(x, y) for x, y in zip(ca, cb)]
    if not ta.tagged:
        names: set = set()
        for pairs, _own_a, _own_b in paired:
            for p, q in pairs:
                if not z3.eq(p, q):
                    raise _Misnamed()
                names.add(p.decl().name())
        if (ta.names & tb.names) - names:
            raise _Misnamed()
    same, matched = [], []
    for (x, y), (pairs, own_a, own_b) in zip(zip(ca, cb), paired):
        if ta.tagged:
            same += [_eq(p, q) for p, q in pairs]
        if x.kind == "one":
            matched.append((x, y))
        elif own_a is None:         # the same pool and bounds: the choice's constraints bind both sides alike
            matched.append((dataclasses.replace(x, inside=None, bound=()),
                            dataclasses.replace(y, inside=None, bound=())))
        else:
            matched.append(_one_choice(x, y, pairs, own_a, own_b))
    return same, matched


def _paired(x, y) -> tuple[list, list | None, list | None]:
    """(the pairs of unknowns that are the same unknown, the subset's elements A only has, B only has).  A subset
    over the same pool with the same bounds pairs its Bools by position, and has no element of its own (None);
    otherwise its elements are matched by identity — the same card, the same value — over the union of the two
    pools (each side's bounds, and its pool, its own constraint on the one choice).  Raises _Unmatched."""
    pairs = [(x.optional, y.optional)] if x.optional is not None else []
    if x.kind == "one":
        return pairs + ([(x.value, y.value)] if x.value is not None else []), None, None
    if len(x.value) == len(y.value) and all(_same_term(p, q) for (_, p), (_, q) in zip(x.value, y.value)) \
            and all(_same_term(g, h) for (g, _), (h, _) in zip(x.options, y.options)) \
            and _same_term(x.low, y.low) and _same_term(x.high, y.high):
        return pairs + [(p, q) for (p, _), (q, _) in zip(x.value, y.value)], None, None
    if x.kind == "draw":
        # which cards are on top of a pile is not a player's choice: two draws of other counts take nested sets
        raise _Unmatched(f"the choices cannot be matched: the draw from {x.var} takes another number of cards or "
                         f"from another pile")
    own_b = list(y.value)
    own_a = []
    for b, e in x.value:
        k = next((k for k, (_, f) in enumerate(own_b) if _same_term(e, f, simplify=False)), None)
        if k is None:
            if not is_const(e):     # a term: no identity to match it by
                raise _Unmatched(f"the choices cannot be matched: the subset {x.var} is made among other elements "
                                 f"that are not known cards or values")
            own_a.append((b, e))
        else:
            pairs.append((b, own_b.pop(k)[0]))
    if any(not is_const(e) for _, e in own_b):
        raise _Unmatched(f"the choices cannot be matched: the subset {x.var} is made among other elements that are "
                         f"not known cards or values")
    return pairs, own_a, own_b


def _one_choice(x, y, pairs: list, own_a: list, own_b: list) -> tuple:
    """A subset made with other bounds or among other pools, as one choice of both sides: one Bool per element
    of the union of the pools (A's where both have it); each side lets be chosen what its bounds and its pool
    allow, and no element of the other side only.  What both sides allow alike (an element in both pools under
    the same condition) stays a constraint of both: the sides then differ only where their bounds or pools do
    (a smaller question).  ``bound`` of each: its constraints that are now its own condition of validity."""
    # a subset's constraints: one « chosen → in the pool » per element, in order, then its size when it has one
    member_a = {id(b): (g, f) for (b, _), (g, _), f in zip(x.value, x.options, x.bound)}
    member_b = {id(b): (g, f) for (b, _), (g, _), f in zip(y.value, y.options, y.bound)}
    valid_a, valid_b = [x.size], [y.size]
    bound_a, bound_b = list(x.bound[len(x.value):]), list(y.bound[len(y.value):])
    for p, q in pairs:
        if id(p) in member_a and not _same_term(member_a[id(p)][0], member_b[id(q)][0]):
            valid_a.append(member_a[id(p)][1])
            valid_b.append(member_b[id(q)][1])
            bound_a.append(member_a[id(p)][1])
            bound_b.append(member_b[id(q)][1])
    for b, _ in own_a:
        valid_a.append(member_a[id(b)][1])
        bound_a.append(member_a[id(b)][1])
        valid_b.append(NOT(b))
    for b, _ in own_b:
        valid_b.append(member_b[id(b)][1])
        bound_b.append(member_b[id(b)][1])
        valid_a.append(NOT(b))
    union = list(x.value) + own_b
    return (dataclasses.replace(x, value=union, inside=AND(*valid_a), bound=tuple(bound_a)),
            dataclasses.replace(y, value=union, inside=AND(*valid_b), bound=tuple(bound_b)))


def _listed(choices) -> str:
    names = [c.var + (" at random" if c.random else "") for c in choices]
    if len(names) > 6:
        return ", ".join(names[:6]) + f", … ({len(names)} choices)"
    return ", ".join(names) or "nothing"


class _Misnamed(Exception):
    pass


def _eq(x, y):
    if isinstance(x, bool) or isinstance(y, bool):
        return as_bool(x) == as_bool(y)
    return x == y


def _same_term(x, y, simplify: bool = True) -> bool:
    if is_const(x) or is_const(y):
        return is_const(x) and is_const(y) and x == y
    return z3.eq(x, y) or simplify and z3.eq(z3.simplify(x), z3.simplify(y))


# ---------------------------------------------------------------- the next states

def _cells_after(pair: Pair, ta: Transition, tb: Transition) -> list[tuple[tuple, object, object]]:
    """(key, value after in A, in B) of every cell either side writes."""
    out = []
    for key in sorted(set(ta.store.writes) | set(tb.store.writes), key=str):
        if key[0] == "var" and pair.own_types.get(key[1], True):
            raise _Unmatched(f"{key[1]} is not the same var on both sides")
        if key[0] == "in" and pair.own_zones.get(key[1], True):
            raise _Unmatched(f"{key[1]} is not the same zone on both sides")
        va, vb = ta.store.read(key), tb.store.read(key)
        if not _same_term(va, vb, simplify=False):      # the same term on both sides cannot differ
            out.append((key, va, vb))
    return out


def _differs(pair: Pair, ta: Transition, tb: Transition, cells) -> list:
    """The ways the two sides' next states can differ, one formula each, their disjunction the whole question:
    one fails and the other does not; one stops otherwise; a var differs; a power's use; the cards of a zone.
    Each is a smaller question than their disjunction (Z3 answers a part it would not answer in the whole)."""
    ids_a = {f.when.get_id() for f in ta.failures if not is_const(f.when)}
    ids_b = {f.when.get_id() for f in tb.failures if not is_const(f.when)}
    shared = ids_a & ids_b          # the same condition of failure on both sides: they fail alike there
    common = OR(*(f.when for f in ta.failures if not is_const(f.when) and f.when.get_id() in shared))
    own_a = OR(*(f.when for f in ta.failures if is_const(f.when) or f.when.get_id() not in shared))
    own_b = OR(*(f.when for f in tb.failures if is_const(f.when) or f.when.get_id() not in shared))
    fails = AND(NOT(common), _differ(own_a, own_b))
    done = AND(NOT(common), NOT(own_a), NOT(own_b))
    raised = [_differ(as_bool(ta.raised.get(k, False)) if not is_const(ta.raised.get(k, False)) else
                      ta.raised.get(k, False),
                      as_bool(tb.raised.get(k, False)) if not is_const(tb.raised.get(k, False)) else
                      tb.raised.get(k, False))
              for k in sorted(set(ta.raised) | set(tb.raised))]
    groups: dict[str, list] = {}
    for key, va, vb in cells:
        group = "var" if key[0] == "var" else "used" if key[0] == "used" else f"in {key[1]}"
        groups.setdefault(group, []).append(_differ(va, vb))
    parts = [fails, AND(done, OR(*raised))] + [AND(done, OR(*differ)) for _, differ in sorted(groups.items(),
                                                                                          key=_group_order)]
    zones = [x for name, differ in groups.items() if name.startswith("in ") for x in differ]
    if len(zones) > max((len(differ) for name, differ in groups.items() if name.startswith("in ")), default=0):
        parts.append(AND(done, OR(*zones)))     # all the zones at once: Z3 sometimes finds one there sooner
    return [x for x in parts if not (is_const(x) and not x)]


def _group_order(item) -> tuple:
    name = item[0]
    return (0 if name == "var" else 1 if name == "used" else 2, len(item[1]), name)


# ---------------------------------------------------------------- the comparison

def _undecided(subject: str, message: str, reason: str, too_large: bool = False) -> Difference:
    """``too_large``: the question is past the limit of one encoding, or Z3 ran out of resources on it (then it is
    asked again on small states)."""
    out = Difference("undecided", subject, message, unknown=reason)
    if too_large:
        out.sides["too large"] = True
    return out


def _encode(pair: Pair, move: Move, tail) -> tuple:
    """Both sides' transitions (``tail``: a procedure's steps from the first that differs), their choices
    matched: named alike first, apart if that cannot match them."""
    for tagged in (False, True):
        enc_a, enc_b = pair.encoders()
        shared: dict = {"tail": tail} if tail is not None else {}
        if not tagged:
            shared["cuts"] = Cuts(pair, shared)
        try:
            ta, domain, args = _start(pair, pair.a, enc_a, move, shared, tagged)
            tb, _, _ = _start(pair, pair.b, enc_b, move, shared, tagged)
        except Unsupported as exc:      # past the limit of one encoding: a question too large (not a form)
            exc.too_large = any(enc.spent > MAX_ENCODING for enc in (enc_a, enc_b))
            raise
        try:
            same, matched = _match(ta, tb)
            return ta, tb, domain, args, shared, enc_a, enc_b, same, matched
        except _Misnamed:
            continue
    raise AssertionError("tagged choices are never misnamed")


def _tail(pair: Pair, move: Move):
    """(A's steps, B's steps, where they start) of a procedure from its first top-level step that differs, when
    the steps before are the same and bind no name the rest reads: from the same state there, the procedure does
    the same on both sides exactly when these steps do (what comes before runs alike).  None otherwise."""
    from checker.runtime.compile import bound_names
    da, db = move.decls
    shaper_a, shaper_b = Shaper(pair.a.program), Shaper(pair.b.program)
    body_a = [x for x in da.body if not isinstance(x, (ast.CiteStmt, ast.DecisionStmt))]
    body_b = [x for x in db.body if not isinstance(x, (ast.CiteStmt, ast.DecisionStmt))]
    i = 0
    while i < min(len(body_a), len(body_b)) and shaper_a.shape(body_a[i]) == shaper_b.shape(body_b[i]):
        i += 1
    if i == 0:
        return None
    bound = set(bound_names(body_a[:i]))
    reads = {n.id for n in ast.walk(tuple(body_a[i:]) + tuple(body_b[i:])) if isinstance(n, ast.Name)}
    if bound & reads:
        return None
    where = (body_a[i:] or body_b[i:])[0].span
    return tuple(body_a[i:]), tuple(body_b[i:]), where


def compare_move(pair: Pair, move: Move) -> Difference:
    """A move's two versions compared by what they do: a change that changes no game (proven), a difference
    with a witness, or undecided.  Undecided because the question is too large (its encoding, or for Z3), it is
    asked again on small states (:mod:`checker.diff.narrow`), where only a witness both interpreters replay
    counts."""
    found = _compare(pair, move)
    if found.kind != "undecided" or not found.sides.pop("too large", False):
        return found
    small = narrowed(pair, move)
    if small is None:
        return found
    try:
        witness = _compare(small, move)
    finally:
        pair.queries += small.queries
        pair.unknowns += small.unknowns
        pair.seconds += small.seconds
    cards = sum(len(x) for x in small.universe.values())
    if witness.kind == "effect" and witness.behavioural and witness.confirmed is True:
        witness.message += f" (found on the states of {cards} cards and at most {small.high} players, after: " \
                           f"{found.unknown})"
        return witness
    found.message += f"; nor found on the states of {cards} cards and at most {small.high} players"
    return found


def _compare(pair: Pair, move: Move) -> Difference:
    subject = move.subject
    if move.kind == "power":
        why = _power_header(move)
        if why:
            return _undecided(subject, f"{subject}: {why}: not compared by its statements", why)
    tail = None
    try:
        try:
            ta, tb, domain, args, shared, enc_a, enc_b, same, matched = _encode(pair, move, None)
        except Unsupported:
            tail = _tail(pair, move) if move.kind == "procedure" else None
            if tail is None:
                raise
            ta, tb, domain, args, shared, enc_a, enc_b, same, matched = _encode(pair, move, tail)
            shared["tail"] = tail
        cells = _cells_after(pair, ta, tb)
    except Unsupported as exc:
        return _undecided(subject, f"{subject} differs, and what it does cannot be compared: {exc.located()}",
                          exc.located(), too_large=getattr(exc, "too_large", False))
    except _Unmatched as exc:
        return _undecided(subject, f"{subject} differs, and what it does cannot be compared: {exc}", str(exc))
    for t in (ta, tb):
        t.enc.cells = t.store.base          # the witness is the state before
        t.forget()
    bound = {id(f) for x, y in matched for f in (*x.bound, *y.bound)}
    hard = [f for t in (ta, tb) for f in t.constraints if id(f) not in bound]
    valid = []
    for x, y in matched:
        if x.inside is None:
            valid.append((True, True, False))
            continue
        va = z3.Implies(as_bool(x.chosen), as_bool(x.inside))
        vb = z3.Implies(as_bool(y.chosen), as_bool(y.inside))
        offered = AND(x.chosen, y.chosen, _differ(as_bool(x.inside), as_bool(y.inside)))
        valid.append((va, vb, offered))
    every = AND(*(AND(va, vb) for va, vb, _ in valid))
    other_options = [AND(*(AND(va, vb) for j, (va, vb, _) in enumerate(valid) if j != i), offered)
                     for i, (_, _, offered) in enumerate(valid)]
    chance = _chance_or_player(matched)
    # the cheapest first: who chooses, an option of one side only, then the next states
    parts = [AND(every, x) for _, x in chance] + other_options + [AND(every, x) for x in _differs(pair, ta, tb, cells)]
    status, model, reason = _solve_parts(pair, enc_a, enc_b, [*domain, *hard, *same], parts)
    if status == "unsat" and _unfollowed(Shaper(pair.a.program), move.decls[0]) != \
            _unfollowed(Shaper(pair.b.program), move.decls[1]):
        return _undecided(subject, f"{subject} differs: both sides reach the same next state, but the change touches "
                                   f"what the encoding does not follow (what is revealed, a shuffle, where in a pile "
                                   f"a card goes, who chooses)", "what the encoding does not follow")
    steps = f" (its steps from the first that differs, {tail[2]}, the same before it)" if tail else ""
    if status == "unsat":
        return Difference("effect", subject, f"{subject} differs — from every state and with every choice, both "
                                             f"sides reach the same next state (proven){steps}", behavioural=False,
                          sides={"proven": True})
    if status == "unknown":
        return _undecided(subject, f"Z3 could not decide whether what {subject} does differs{steps}: {reason}",
                          reason, too_large=True)
    diff = _witnessed(pair, move, enc_a, enc_b, model, ta, tb, matched, cells, args, shared, valid, chance)
    if tail:
        diff.message += f"; compared from its first step that differs ({tail[2]}): the witness is the state there"
    return diff


def _chance_or_player(matched: list) -> list:
    """(the pair's index, when it matters) for each matched choice made at random on one side and by a player on
    the other: both sides reach it with two options or more — chance decides there on one side, a player on
    the other, whatever the next states."""
    out = []
    for i, (x, y) in enumerate(matched):
        if x.kind == "one" and x.random != y.random and x.value is not None and y.value is not None:
            out.append((i, AND(x.reached, y.reached, _count(x.options) >= 2, _count(y.options) >= 2)))
    return out


def _count(options) -> object:
    return z3.Sum([z3.If(as_bool(g), 1, 0) if not is_const(g) else z3.IntVal(int(bool(g))) for g, _ in options]) \
        if options else z3.IntVal(0)


FULL_PARTS = 4      # parts asked again with all the resources, one by one (the last of them: those left, at once)


def _solve_parts(pair: Pair, enc_a, enc_b, common: list, parts: list) -> tuple:
    """(status, model, reason) of « some part holds », asked part by part: sat at the first part with a model
    (minimised), unsat when every part is, else unknown.  For every player count at once, each part first with
    an eighth of the resources, then the parts left with all of them (at most FULL_PARTS queries): a move's
    statements are large terms, and the query per player count (the legality's fallback) takes minutes where
    these cannot."""
    parts = [x for x in parts if not (is_const(x) and not x)]
    bounds = pair.bounds(enc_a, enc_b)
    left = []
    for part in parts:
        status, model, reason = pair.solve(enc_a, enc_b, *common, part, fallback=False, bounds=bounds)
        if status == "sat":
            return status, model, reason
        if status == "unknown":
            left.append(part)
    reasons = []
    if len(left) > FULL_PARTS:          # the rest asked at once: each full query takes up to half a minute
        left = left[:FULL_PARTS - 1] + [OR(*left[FULL_PARTS - 1:])]
    for part in left:
        status, model, reason = pair.solve(enc_a, enc_b, *common, part, full=True, fallback=False, bounds=bounds)
        if status == "sat":
            return status, model, reason
        if status == "unknown":
            reasons.append(reason)
    if reasons:
        return "unknown", None, f"{reasons[0]} ({len(reasons)} of the {len(left)} questions asked with all the " \
                                f"resources undecided)"
    return "unsat", None, ""


def _witnessed(pair: Pair, move: Move, enc_a, enc_b, model, ta, tb, matched, cells, args, shared,
               valid, chance=()) -> Difference:
    subject = move.subject
    # a var indexed by « none » (written by a statement whose card is none) is no cell a state file holds
    for enc in (enc_a, enc_b):
        for key in [k for k in enc.cells.made if k[0] == "var" and k[2] is not None and _is_none(k[2])]:
            del enc.cells.made[key]
    states = _witness(pair, enc_a, enc_b, model, move.name if move.kind == "action" else None, args)
    diff = Difference("effect", subject, "")
    diff.witness = {"a": states["a"][0], "b": states["b"][0]}
    if move.kind == "action":
        diff.move = {"a": states["a"][1], "b": states["b"][1]}
    diff.players = witness_players(states)
    diff.situation = list(states["a"][2])
    vals = _Values(pair.a.engine)
    # the choices each side makes (the same values: a side that does not reach a choice does not make it)
    # (a draw is no choice the interpreter asks: its cards are put on top of the pile in the witness instead)
    diff.sides["choices"] = choices = {"a": [], "b": []}
    drawn: dict = {"a": [], "b": []}
    vals_b = _Values(pair.b.engine)
    for x, y in matched:
        made = {}
        for tag, c, enc, written in (("a", x, enc_a, vals), ("b", y, enc_b, vals_b)):
            made[tag] = _choice(enc, written, model, c)
            if made[tag] is not None:
                (drawn if c.kind == "draw" else choices)[tag].append(made[tag])
        shown = made["a"] if made["a"] is not None else made["b"]
        if shown is not None and shown[1] is not None:
            diff.situation.append(f"choix {x.var} : {_shown(shown[1])}")
    for tag in ("a", "b"):
        if diff.witness[tag] is not None:
            _on_top(pair.a.program if tag == "a" else pair.b.program, diff.witness[tag], drawn[tag])
    if move.kind == "power" and "window" in shared:
        window = pair.a.program.windows[move.decls[0].window[0]]
        diff.sides["window"] = [vals.write(enc_a.to_runtime(_number(model, v), enc_a.resolve(prm.type)),
                                           enc_a.resolve(prm.type)) for v, prm in zip(shared["window"], window.params)]
        for v, prm in zip(shared["window"], window.params):      # a card the window names is in the game
            ty = enc_a.resolve(prm.type)
            inner = ty.inner if isinstance(ty, Opt) else ty
            inst = _number(model, v)
            if isinstance(inner, KindT) and isinstance(inst, int) and inst >= 0:
                for tag, side in (("a", pair.a), ("b", pair.b)):
                    name = side.engine.def_names[side.engine.defs[inst]]
                    chosen = diff.witness[tag]["selection"].setdefault(inner.name, [])
                    if name not in chosen:
                        chosen.append(name)
        names = [n for n, _ in move.decls[0].window[1]]
        shown = ", ".join(f"{n} = {_shown(v)}" for n, v in zip(names, diff.sides["window"]))
        diff.situation.append(f"{window.name}({shown})")
    what = []
    diff.sides["after"] = after = []
    chosen_by = next((i for i, when in chance if _true(model, when)), None)
    if chosen_by is not None:
        x, y = matched[chosen_by]
        at_random = "a" if x.random else "b"
        diff.sides["chance"] = at_random
        what.append(f"at « choose {x.var} » ({x.span}), chance decides in {at_random.upper()}, a player in "
                    f"{'B' if at_random == 'a' else 'A'}")
    for i, (va, vb, offered) in enumerate(valid if chosen_by is None else ()):
        if _true(model, offered):
            x = matched[i][0]
            side = "a" if _true(model, x.inside) else "b"
            diff.sides["offered"] = side
            shown = _choice(enc_a, vals, model, x)
            what.append(f"at « choose {x.var} » ({x.span}), {_shown(shown[1]) if shown else 'the value'} is an "
                        f"option in {side.upper()} only")
            break
    else:
        for key, va, vb in cells:
            xa, xb = _number(model, va), _number(model, vb)
            if xa != xb:
                label = pair.label(pair.a, key, str(key))
                after.append({"key": list(key), "label": label, "a": _cell_text(enc_a, key, xa),
                              "b": _cell_text(enc_a, key, xb)})
                what.append(f"after it, {label} = {after[-1]['a']} in A, {after[-1]['b']} in B")
        for tag, t in (("A", ta), ("B", tb)):
            for f in t.failures:
                if _true(model, f.when):
                    what.append(f"{tag} fails: {f.reason} ({f.span})")
                    diff.sides.setdefault("fails", []).append(tag.lower())
                    break
            for kind, when in t.raised.items():
                if _true(model, when):
                    what.append(f"{tag} ends with « {kind} »")
    diff.details = what
    done = f"{move.name}({', '.join(str(x) for x in diff.move['a']['args'])})" if diff.move else subject
    diff.message = f"{done}: from the same state and choices, A and B do different things ({diff.players} players)"
    diff.rules = [subject]
    diff.confirmed = replay(pair, move, diff, matched, choices, shared.get("tail"))
    return diff


def _on_top(program, state: dict, drawn: list) -> None:
    """Put each draw's cards on top of its pile in the state file, the first draw's topmost, so that the
    interpreter draws them (a card that is not in the pile before the move stays where it is: the replay
    then shows whether the interpreter draws it)."""
    zones = state.get("zones", {})
    for zone, cards in reversed(drawn):
        piles = zones.get(zone)
        ordered = program.zones[zone].ordered       # a state file lists a pile from the top down, a set upwards
        for pile in (piles.values() if isinstance(piles, dict) else [piles] if piles is not None else []):
            for card in reversed(cards):
                if card in pile:
                    pile.remove(card)
                    pile.insert(0, card) if ordered else pile.append(card)


def _is_none(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value == NONE


def _choice(enc: Encoder, vals: _Values, model, c):
    """(name, the value chosen written as a state file writes it) of a choice the model reaches, else None."""
    if not _true(model, c.reached):
        return None
    if c.optional is not None and not _true(model, c.optional):
        return (c.var, None)
    if c.kind != "one":
        picked = [x for b, x in c.value if _true(model, b)]
        if c.kind == "draw":
            return (c.var, [vals.write(x, KindT(enc.E.def_kind[enc.E.defs[x]])) for x in picked])
        written = [vals.write(enc.to_runtime(_number(model, x), c.type), c.type) for x in picked]
        # the interpreter asks for one more (« nothing ») unless as many as it allows are chosen
        return (c.var, written + ([None] if len(written) < _number(model, c.high) else []))
    if c.value is None:
        return None
    return (c.var, vals.write(enc.to_runtime(_number(model, c.value), c.type), c.type))


def _shown(value) -> str:
    return spoken(value, nothing="rien")


def _cell_text(enc: Encoder, key: tuple, value) -> str:
    if key[0] == "var":
        return enc.show(value, enc.var_types[key[1]])
    return "oui" if value else "non"
