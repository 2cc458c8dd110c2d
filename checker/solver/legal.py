"""legal: is this move legal at this decision point, and why?  Which moves are?  Decided by Z3.

A decision point (:class:`Point`) is a statement of the spec that asks a player to choose —
an `offer`, a `choose`, one pick of a `choose … subset` — or a power offered as a reaction
to a window, with the values of the local names in scope there.  Its question is encoded
from the typed AST (:mod:`checker.solver.encode`): the state is the engine's (read as
constants), the move is the unknown (an option's binders are Z3 variables over the
collections they are drawn from), and every condition that can make a move illegal is
*tracked*: a rule's
prohibition (lifted only by a permission that overrides it), the collection an option is
drawn from, a `where`, a power's limit and `requires`, a mandatory power still to use.  An
illegal move's explanation is the solver's minimised unsat core, mapped back to those
conditions and their spec lines.

Moves are plain tuples of interpreter values:
``("action", name, args)``, ``("power", card, power)``, ``("finish", label)``,
``("choose", value)``, ``("nothing",)`` and ``("react", yes)``.
"""

from __future__ import annotations

import dataclasses

import z3

from checker.front import ast
from checker.base.limits import MAX_MOVES
from checker.runtime.engine import Decision, Engine, Power
from checker.solver.encode import AND, EQ, NOT, OR, Encoder, Unsupported, as_bool, is_const
from checker.solver.explain import explain
from checker.solver.factory import DEFAULT, SolverSettings, make_solver, run
from checker.solver.points import Move, Point, interpreter_moves, point_of
from checker.solver.scopes import Scopes
from checker.front.types import Coll, element

__all__ = ["Point", "Reason", "Verdict", "Legality", "point_of", "interpreter_moves"]

@dataclasses.dataclass
class Reason:
    """One condition that decides a move: a rule, or a statement of the spec."""

    kind: str               # forbid | permit | offer | from | where | limit | requires | mandatory | player | optional
    name: str
    span: object
    text: str               # what it says about this move (for a condition: why the move fails it)
    cites: tuple = ()       # the rulebook sentences it encodes
    head: object = None     # for a rule: its head (the pattern binds the move's arguments)
    values: list = dataclasses.field(default_factory=list)   # (span or name, shown value): what decides it
    ok: str = ""            # for a condition: what it says when the move meets it
    cond: tuple | None = None   # (expression, environment) of a condition, to show what decides it
    term: object = None     # for a binder: its symbolic value, read from the model of a legal move

    def as_json(self, term=str) -> dict:
        """``term(span)``: the source text of a term the values name (its location, by default)."""
        return {"kind": self.kind, "name": self.name, "at": str(self.span) if self.span else None,
                "says": self.text, "cites": [c.quote for c in self.cites],
                "values": [({"name": at} if isinstance(at, str) else {"term": term(at), "at": str(at)})
                           | {"value": v} for at, v in self.values]}


@dataclasses.dataclass
class Verdict:
    status: str                     # legal | illegal | unknown
    move: Move
    reasons: list[Reason]           # illegal: the minimised core; legal: what permits it
    also: list[Reason] = dataclasses.field(default_factory=list)   # other prohibitions that apply
    unknown: str = ""
    offered: bool = True    # False: an action this decision point does not offer, judged by the rules alone
    overruled: list = dataclasses.field(default_factory=list)   # (permission, prohibition, Claim)

    @property
    def legal(self) -> bool:
        return self.status == "legal"


class Legality:
    """The legality questions of one engine state (an engine stopped at, or loaded to, a decision point)."""

    def __init__(self, engine: Engine, scopes: Scopes | None = None, settings: SolverSettings = DEFAULT):
        self.E = engine
        self.scopes = scopes or Scopes(engine.typed)
        self.settings = settings
        self.program = engine.program
        self._claims = None

    # ------------------------------------------------------------ set up
    def _encoder(self) -> Encoder:
        return Encoder(self.E, concrete=True)

    def _env(self, enc: Encoder, point: Point) -> dict:
        if isinstance(point.site, Power):
            card = self.program.cards[self.E.def_names[point.site.card]]
            pw = next(x for x in card.powers if x.name == point.site.name)
            types = self.scopes.power_names(card, pw)
        else:
            types = self.scopes.at.get(id(point.site), {})
        return {k: enc.from_runtime(v, types[k]) if k in types and types[k] is not None else v
                for k, v in point.env.items()}

    # ------------------------------------------------------------ the options of a point, as tracked conditions
    def _options(self, enc: Encoder, point: Point):
        """Yield (kind, payload, conditions) for each way to make a move here; a condition is a
        (Reason, formula) pair; ``payload`` is what identifies the move."""
        site, env = point.site, self._env(enc, point)
        if isinstance(site, Power):
            for yes in (True, False):
                yield ("react", yes, [])
            return
        if isinstance(site, ast.Offer):
            yield from self._offer_options(enc, site, env, point.player)
            return
        span = site.span
        cites = self.scopes.cites.get(id(site), ())
        coll = enc.coll(site.coll, env)
        ty = enc.type_of(site.coll)
        elem_ty = element(ty) if isinstance(ty, Coll) else ty
        if isinstance(site, ast.ChooseSubset):
            chosen = env.get(site.var, [])
            picked = [x for _, x in chosen]
            pool = [(g, x) for g, x in coll if not any(is_const(x) and x == y for y in picked)]
            lo = enc.expr(site.low, env)
            yield ("choose", (pool, elem_ty, None, None), [(Reason(
                "from", f"{site.var} ⊆ …", span, "the element must be one not yet chosen, from this collection", cites,
                ok="the element is one not yet chosen, from this collection"), None)])
            yield ("nothing", None, [(Reason(
                "optional", "size", span, f"at least {self._show_int(lo)} element(s) must be chosen", cites,
                ok=f"{len(picked)} element(s) are chosen, at least {self._show_int(lo)} must be"),
                (len(picked) >= lo) if is_const(lo) else (lo <= len(picked)))])
            return
        if isinstance(site, ast.ChooseEach):    # this player's pick: the others', made or to come, change no state
            where = None if site.where is None else (Reason(
                "where", f"each … chooses {site.var} … where", site.where.span,
                "the `where` condition of this choice is false", cites, ok="the `where` condition of this choice is true"),
                site.where)
            yield ("choose", (coll, elem_ty, site.var, where), [(Reason(
                "from", f"each … chooses {site.var} in …", site.coll.span,
                "the value must be an element of this collection", cites,
                ok="the value is an element of this collection"), None)])
            return
        o = site.options
        where = None
        if o.where is not None:
            where = (Reason("where", f"choose {site.var} … where", o.where.span,
                            "the `where` condition of this choice is false", cites,
                            ok="the `where` condition of this choice is true"), o.where)
        yield ("choose", (coll, elem_ty, site.var, where), [(Reason(
            "from", f"choose {site.var} in …", site.coll.span, "the value must be an element of this collection",
            cites, ok="the value is an element of this collection"), None)])
        if o.optional:
            yield ("nothing", None, [])

    @staticmethod
    def _show_int(v) -> str:
        return str(v) if is_const(v) else "some"

    def _offer_options(self, enc: Encoder, site: ast.Offer, env: dict, player: int):
        E = self.E
        cites = self.scopes.cites.get(id(site), ())
        pending = []
        for item in site.items:
            if isinstance(item, ast.OfferAction):
                yield ("action", (item, env), [])
            elif isinstance(item, ast.OfferPowers):
                src = enc.expr(item.source, env)
                cards = src if isinstance(src, list) else [(True, src)]
                for g, card in cards:
                    if not is_const(card):
                        raise Unsupported("powers of a card not known in advance", item.span)
                    for power in E.offered_powers(card):
                        conds = self._power_conditions(enc, item, g, card, power, player, cites)
                        if power.mandatory:
                            pending.append((power, card, AND(*(f for _, f in conds))))
                        yield ("power", (card, power.name), conds)
        for item in site.items:
            if isinstance(item, ast.OfferFinish):
                conds = []
                for power, card, usable in pending:
                    conds.append((Reason("mandatory", power.name, power.span,
                                         f"the mandatory power {power.name} ({E.show_card(card)}) must be used first",
                                         self._power_cites(power),
                                         ok=f"the mandatory power {power.name} ({E.show_card(card)}) is not usable "
                                            f"now"), NOT(usable)))
                if item.when is not None:
                    conds.append((Reason("where", "finish … when", item.when.span,
                                         "the condition to finish is false", cites,
                                         ok="the condition to finish is true", cond=(item.when, env)),
                                  enc.expr(item.when, env)))
                yield ("finish", item.label, conds)

    def _power_cites(self, power: Power) -> tuple:
        card = self.program.cards[self.E.def_names[power.card]]
        pw = next(x for x in card.powers if x.name == power.name)
        return pw.cites

    def _power_conditions(self, enc, item, g, card, power, player, cites):
        E = self.E
        shown, limit = E.show_card(card), power.limit.replace('_', ' ')
        conds = [(Reason("offer", f"powers of {shown}", item.span,
                         f"{shown} is not among the cards whose powers are offered here", cites,
                         ok=f"{shown} is among the cards whose powers are offered here"), g)]
        conds.append((Reason("limit", power.name, power.span, f"{power.name} ({shown}) is used up ({limit})",
                             self._power_cites(power), ok=f"{power.name} ({shown}) can still be used ({limit})"),
                      NOT(enc.cells.used_up(player, card, power))))
        decl = self._power_decl(power)
        if decl.requires is not None:
            env = {"me": player, "this": card}
            conds.append((Reason("requires", power.name, decl.requires.span,
                                 f"the condition `requires` of {power.name} is false", self._power_cites(power),
                                 ok=f"the condition `requires` of {power.name} is true", cond=(decl.requires, env)),
                          enc.expr(decl.requires, env)))
        return conds

    def _power_decl(self, power: Power) -> ast.PowerDecl:
        card = self.program.cards[self.E.def_names[power.card]]
        return next(x for x in card.powers if x.name == power.name)

    # ------------------------------------------------------------ an action item: binders, args, rules
    def _action_terms(self, enc: Encoder, item: ast.OfferAction, env: dict):
        """Symbolic binders over their collections; returns (args, domain conditions)."""
        local = dict(env)
        conds = []
        for i, (var, coll_e) in enumerate(item.binders):
            coll = enc.coll(coll_e, local)
            ty = element(enc.type_of(coll_e))
            v, inside = enc.fresh(f"{var}", ty, coll)
            local[var] = v
            conds.append((Reason("from", f"for {var} in …", coll_e.span, f"{var} is not drawn from this collection",
                                 (), ok=f"{var} is drawn from this collection", term=(v, ty)), inside))
        args = tuple(enc.expr(a, local) for a in item.args)
        return args, conds

    def _outside(self, pin, dom: list) -> bool:
        """The move's values (``pin``) are outside the offer's collections (``dom``)."""
        formulas = [f for _, f in dom if not (is_const(f) and f)]
        if any(is_const(f) and not f for f in formulas):
            return True
        s = make_solver(self.settings)
        if not is_const(pin):
            s.add(pin)
        s.add(*[as_bool(f) for f in formulas])
        return run(s).status == "unsat"

    def _rule_conditions(self, enc: Encoder, action: str, args: tuple):
        legal, parts, permits = enc.legality(action, args)
        conds = []
        for rule, head, applies, lifted, lifters in parts:
            text = f"rule {rule.name} forbids {action}"
            if lifters:
                text += " (" + ", ".join(r.name for r, _ in lifters) + " would lift it, but does not apply)"
            conds.append((Reason("forbid", rule.name, head.span, text, rule.cites, (rule, head)),
                          OR(NOT(applies), lifted)))
        return conds, parts, permits

    # ------------------------------------------------------------ questions
    def moves(self, point: Point) -> list[Move]:
        """Every legal move at ``point``, enumerated with Z3."""
        enc = self._encoder()
        s = make_solver(self.settings)
        out: list[Move] = []
        for kind, payload, conds in self._options(enc, point):
            if kind == "action":
                item, env = payload
                args, dom = self._action_terms(enc, item, env)
                rules, _, _ = self._rule_conditions(enc, item.action, args)
                s.push()
                s.add(*[f for _, f in dom + rules if not (is_const(f) and f)])
                if any(is_const(f) and not f for _, f in dom + rules):
                    s.pop()
                    continue
                types = enc.param_types[item.action]
                for values in self._all(s, args):
                    out.append(("action", item.action, tuple(enc.to_runtime(v, t) for v, t in zip(values, types))))
                s.pop()
            elif kind == "choose":
                pool, elem_ty, var, where = payload
                v, inside = enc.fresh("x", elem_ty, pool)
                extra = [inside]
                if where is not None:
                    local = self._env(enc, point)
                    local[var] = v
                    extra.append(enc.expr(where[1], local))
                s.push()
                s.add(*[f for f in extra if not is_const(f)])
                if not any(is_const(f) and not f for f in extra):
                    for (value,) in self._all(s, (v,)):
                        out.append(("choose", enc.to_runtime(value, elem_ty)))
                s.pop()
            else:
                formula = AND(*(f for _, f in conds))
                if self._possible(s, formula):
                    out.append((kind,) if payload is None else (kind, *payload) if kind == "power" else (kind, payload))
        return out

    def _possible(self, s, formula) -> bool:
        if is_const(formula):
            return bool(formula)
        outcome = run(s, formula) if z3.is_const(formula) else None
        if outcome is None:
            s.push()
            s.add(formula)
            outcome = run(s)
            s.pop()
        if outcome.status == "unknown":
            raise SolverUnknown(outcome.reason)
        return outcome.status == "sat"

    def _all(self, s, terms):
        """All the values of ``terms`` in the models of ``s`` (blocking each one found)."""
        found = []
        s.push()
        leaves = [x for t in terms for x in _leaves(t)]
        symbolic = [t for t in leaves if not is_const(t)]
        for _ in range(MAX_MOVES + 1):
            outcome = run(s)
            if outcome.status == "unknown":
                s.pop()
                raise SolverUnknown(outcome.reason)
            if outcome.status == "unsat":
                break
            if len(found) == MAX_MOVES:
                s.pop()
                raise SolverUnknown(f"this decision point has more than {MAX_MOVES:,} legal moves (the limit of "
                                    f"`rulebook moves`); judge a move with `rulebook legal` instead")
            m = outcome.model
            values = tuple(_evaluate(m, t) for t in terms)
            found.append(values)
            if not symbolic:
                break
            s.add(OR(*(t != _lift(v) for t, v in zip(leaves, (_evaluate(m, x) for x in leaves)) if not is_const(t))))
        s.pop()
        return found

    def check(self, point: Point, move: Move, player: int | None = None) -> Verdict:
        """Is ``move`` (made by ``player``, by default the one who decides) legal at ``point``?
        Illegal: the minimised core of the conditions that forbid it."""
        if player is not None and player != point.player:
            site = point.site
            return Verdict("illegal", move, [Reason(
                "player", "not this player's decision", getattr(site, "span", None),
                f"it is Joueur {point.player + 1} who decides here, not Joueur {player + 1}",
                self.scopes.cites.get(id(site), ()))])
        enc = self._encoder()
        candidates = []
        outside = []        # action candidates: (index, action, domain, pin, types)
        for kind, payload, conds in self._options(enc, point):
            if kind != move[0]:
                continue
            if kind == "action":
                item, env = payload
                if item.action != move[1]:
                    continue
                args, dom = self._action_terms(enc, item, env)
                rules, parts, permits = self._rule_conditions(enc, item.action, args)
                types = enc.param_types[item.action]
                if len(move[2]) != len(types):
                    continue
                pin = AND(*(EQ(a, enc.from_runtime(v, t)) for a, v, t in zip(args, move[2], types)))
                if is_const(pin) and not pin:
                    continue        # this option is offered with other values than the move's (a fixed argument)
                candidates.append((dom + rules, pin, (parts, permits, args, move[2], types)))
                outside.append((len(candidates) - 1, item.action, dom, pin, types))
            elif kind == "power":
                if payload != (move[1], move[2]):
                    continue
                candidates.append((conds, True, None))
            elif kind == "finish":
                if payload != move[1]:
                    continue
                candidates.append((conds, True, None))
            elif kind == "choose":
                pool, elem_ty, var, where = payload
                value = enc.from_runtime(move[1], elem_ty)
                inside = OR(*(AND(g, EQ(x, value)) for g, x in pool))
                c = [(conds[0][0], inside)]
                if where is not None:
                    local = self._env(enc, point)
                    local[var] = value
                    c.append((dataclasses.replace(where[0], cond=(where[1], local)), enc.expr(where[1], local)))
                candidates.append((c, True, None))
            elif kind in ("nothing", "react"):
                if kind == "react" and payload != move[1]:
                    continue
                candidates.append((conds, True, None))
        if not candidates and move[0] == "action" and move[1] in enc.param_types:
            # not an option here (an action done inside a power, say): what do the rules alone say?
            types = enc.param_types[move[1]]
            args = tuple(enc.from_runtime(v, t) for v, t in zip(move[2], types))
            rules, parts, permits = self._rule_conditions(enc, move[1], args)
            verdict = self._decide(enc, move, rules, True, (parts, permits, args, move[2], types))
            self._explain(enc, verdict)
            verdict.offered = False
            return verdict
        if not candidates:
            return Verdict("illegal", move, [self._not_offered(point, move)])
        best = None
        concrete = {i: rest for i, *rest in outside}
        for i, (conds, pin, extra) in enumerate(candidates):
            verdict = self._decide(enc, move, conds, pin, extra)
            if verdict.status == "illegal" and i in concrete and self._outside(pin, concrete[i][1]):
                # the move's values are not among those the offer draws from: the symbolic arguments cannot take
                # them, so the rules are read on the move's own values (the rule that forbids a tile on an
                # occupied cell, not one whose condition merely mentions the cell)
                action, dom, _, types = concrete[i]
                args = tuple(enc.from_runtime(v, t) for v, t in zip(move[2], types))
                rules, parts, permits = self._rule_conditions(enc, action, args)
                verdict = self._decide(enc, move, dom + rules, pin, (parts, permits, args, move[2], types))
            self._explain(enc, verdict)
            if verdict.status == "legal":
                return verdict
            if best is None or verdict.status == "unknown" or len(verdict.reasons) < len(best.reasons):
                best = verdict
        return best

    def _decide(self, enc: Encoder, move: Move, conds: list, pin, extra) -> Verdict:
        s = make_solver(self.settings)
        if not is_const(pin):
            s.add(pin)
        elif not pin:
            return Verdict("illegal", move, [])
        tracks, by_track = [], {}
        for i, (reason, formula) in enumerate(conds):
            if formula is None or (is_const(formula) and formula):
                continue
            t = z3.Bool(f"t{i}")
            s.add(z3.Implies(t, as_bool(formula)))
            tracks.append(t)
            by_track[t.get_id()] = (reason, formula)
        # the rules first: when they forbid the move, they are the explanation, even if it is not offered either
        ruled = [t for t in tracks if by_track[t.get_id()][0].kind == "forbid"]
        outcome = run(s, *ruled)
        if outcome.status == "sat":
            outcome = run(s, *tracks)
        if outcome.status == "unknown":
            return Verdict("unknown", move, [], unknown=outcome.reason)
        if outcome.status == "unsat":
            core = [by_track[t.get_id()][0] for t in outcome.core if t.get_id() in by_track]
            named = {id(r) for r in core}
            also = [r for t in tracks for r, f in [by_track[t.get_id()]]
                    if id(r) not in named and self._violated(s, f)]
            verdict = Verdict("illegal", move, core, also)
            if extra is not None:
                verdict.overruled = self._overruled(enc, s, extra[1], core + also)
            return verdict
        reasons = []
        if extra is not None:
            parts, permits, *_ = extra
            m = outcome.model
            lifting: dict[str, list[str]] = {}
            for rule, head, applies, lifted, lifters in parts:
                if _true(m, applies):
                    by = [r.name for r, a in lifters if _true(m, a)]
                    for name in by:
                        lifting.setdefault(name, []).append(rule.name)
                    reasons.append(Reason("forbid", rule.name, head.span,
                                          f"rule {rule.name} forbids it, but {', '.join(by)} lifts it", rule.cites,
                                          (rule, head)))
            # a permission is a reason only for the prohibitions it lifts here; one that lifts nothing is said so
            for rule, head, applies in permits:
                if _true(m, applies):
                    lifts = lifting.get(rule.name)
                    text = (f"rule {rule.name} permits it, lifting {', '.join(lifts)}" if lifts else
                            f"rule {rule.name} also permits it, but no prohibition it lifts applies here")
                    reasons.insert(0, Reason("permit", rule.name, head.span, text, rule.cites, (rule, head)))
        for r, f in conds:          # the conditions the move meets, said as met
            if r.ok:
                text = r.ok
                if r.term is not None:
                    v, ty = r.term
                    text = text.replace(" is ", f" = {enc.show(_evaluate(outcome.model, v), ty)} is ", 1)
                reasons.append(dataclasses.replace(r, text=text))
        return Verdict("legal", move, reasons)

    def _explain(self, enc: Encoder, verdict: Verdict) -> None:
        """Fill each reason's values: what decides its condition, on this state with this move's values
        (:mod:`checker.solver.explain`)."""
        move = verdict.move
        for r in verdict.reasons + verdict.also:
            if r.head is not None and r.head[1].when is not None and move[0] == "action":
                rule, head = r.head
                types = enc.param_types.get(head.pattern.name, [])
                args = tuple(enc.from_runtime(a, t) for a, t in zip(move[2], types))
                r.values = explain(enc, head.when, enc.rule_env(rule, head, args))
            elif r.cond is not None:
                r.values = explain(enc, *r.cond)

    def _overruled(self, enc: Encoder, s, permits, forbidding: list) -> list[tuple]:
        """The permissions that apply to the move but do not lift a prohibition that forbids it, each as
        (permission, prohibition, :class:`~checker.solver.search.Claim`): the claim says whether a precedence
        makes the prohibition win (settled), whether the pair is a conflict `rulebook conflicts` reports
        (unresolved), or whether the permission is an exception to other rules only (unrelated) — the
        same definition, computed by the same code, as the conflict finder's."""
        out = []
        for rule, head, applies in permits:
            if not self._holds(s, applies):
                continue
            for r in forbidding:
                if r.kind != "forbid" or r.head is None:
                    continue
                claim = self._search().claim(rule, head, *r.head)
                if claim.status == "settled" and claim.winner == rule.name:
                    continue            # it would have lifted the prohibition: it does not apply to this move
                out.append((rule.name, r.name, claim))
        return out

    def _search(self):
        """The symbolic search of the conflict finder, for :meth:`_overruled` (made once, when needed)."""
        if self._claims is None:
            from checker.solver.search import SymbolicSearch
            self._claims = SymbolicSearch(self.E.typed, settings=self.settings)
        return self._claims

    @staticmethod
    def _holds(s, formula) -> bool:
        """Can the move meet ``formula``?"""
        if is_const(formula):
            return bool(formula)
        s.push()
        s.add(formula)
        answer = run(s).status == "sat"
        s.pop()
        return answer

    @staticmethod
    def _violated(s, formula) -> bool:
        """Can no way of making the move satisfy ``formula``?"""
        if is_const(formula):
            return not formula
        s.push()
        s.add(formula)
        answer = run(s).status == "unsat"
        s.pop()
        return answer

    def _not_offered(self, point: Point, move: Move) -> Reason:
        site = point.site
        span = getattr(site, "span", None)
        return Reason("offer", "not offered", span, f"no option of this kind is offered here ({point.kind})",
                      self.scopes.cites.get(id(site), ()))


class SolverUnknown(Exception):
    """Z3 answered unknown; the reason is Z3's."""


def _true(model, formula) -> bool:
    if is_const(formula):
        return bool(formula)
    return z3.is_true(model.eval(formula, model_completion=True))


def _leaves(t) -> list:
    """A term, or each field of a record (a tuple of terms)."""
    return [x for f in t for x in _leaves(f)] if isinstance(t, tuple) else [t]


def _evaluate(model, t):
    if isinstance(t, tuple):
        return tuple(_evaluate(model, x) for x in t)
    return t if is_const(t) else _value(model.eval(t, model_completion=True))


def _value(v):
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    return v.as_long()


def _lift(v):
    if isinstance(v, bool):
        return z3.BoolVal(v)
    return z3.IntVal(v)


class _Captured(Exception):
    def __init__(self, decision: Decision):
        self.decision = decision


def interpreter_options(engine: Engine, point: Point, compiled: dict | None = None) -> list[Move]:
    """The interpreter's own options at ``point``: the statement is run by the interpreter's compiled
    code on a copy of the names in scope, and stopped at its first decision (for a subset pick, after
    re-picking what is chosen so far).  The state is left as it was."""
    site = point.site
    if isinstance(site, Power):
        return [("react", True), ("react", False)]
    compiled = compiled if compiled is not None else {}
    env = dict(point.env)
    # a subset pick re-picks what is chosen so far; an `each … chooses` replays the earlier players' choices
    already = list(env.pop(site.var, ())) if isinstance(site, ast.ChooseSubset) else [v for _, v in point.chosen]
    key = (id(site), tuple(env))
    run_it = compiled.get(key)
    if run_it is None:      # the statement alone, as a body whose parameters are the names in scope
        run_it = compiled[key] = engine.compiler.body((site,), tuple(env))
    snap = engine.st.snapshot()
    saved = (engine.observer, engine.agents, engine.recording, engine.decisions, engine.moves)
    picks = iter(already)

    def observe(decision: Decision) -> None:
        nxt = next(picks, _END)
        if nxt is _END:
            raise _Captured(decision)
        decision.options = list(decision.options)
        engine.agents = [_Pick(decision.options.index(nxt))] * engine.st.n

    engine.observer, engine.recording = observe, False
    engine.agents = [_Pick(0)] * engine.st.n
    try:
        run_it(env)
    except _Captured as got:
        return interpreter_moves(got.decision)
    finally:
        engine.st.restore(snap)
        engine.observer, engine.agents, engine.recording, engine.decisions, engine.moves = saved
        engine.invalidate()
    return []          # the statement made no decision (nothing to choose from)


_END = object()


class _Pick:
    def __init__(self, index: int):
        self.index = index

    def choose(self, decision) -> int:
        return self.index
