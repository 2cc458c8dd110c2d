"""conflicts: where the rules disagree, searched with Z3 over bounded symbolic states.

Every card of the spec is in the universe; the state is symbolic (one Z3 constant per cell a
rule reads, :class:`~checker.solver.encode.Cells`), bounded by well-formedness (a card is in one
place at most, counters and integers are natural numbers up to :data:`BOUND`, a var holds a value
of its type, at most one character of each rank is chosen).  The findings:

- **contradiction** — a permission and a prohibition of the same action can apply together, and
  neither overrides the other nor is ordered by a `precedence`;
- **competing values** — two `value` rules of one quantity can apply together with no precedence
  (the interpreter cannot pick a value, even an equal one);
- **order dependence** — two powers react to the same window, can both be active, and one writes
  what the other reads or writes (other than adding to the same counter), with no declared order;
- **dead rule** — a rule whose condition no well-formed state satisfies;
- **dangling** — a precedence or `overrides` naming a power or rule that does not exist, or a rule
  about an action nothing ever does.

Each finding with a witness comes with a state file (and a move file) that `rulebook legal` and the
interpreter accept; the interpreter re-judges the witness (``confirmed``).  Declared resolutions
(`overrides`, `precedence`) are listed as resolved, with the sentences they cite.
"""

from __future__ import annotations

import dataclasses
import itertools
import time

import z3

from checker import ast
from checker.runtime.engine import Engine
from checker.solver.encode import NONE, Encoder, Unsupported, is_const
from checker.solver.factory import SolverSettings, make_solver, run
from checker.solver.statefile import player_range
from checker.types import BOOL, INT, PLAYER, EnumT, KindT, Opt

__all__ = ["Finding", "Search", "find_conflicts", "BOUND"]

BOUND = 100          # integers of a symbolic state are 0..BOUND


@dataclasses.dataclass
class Finding:
    kind: str                       # contradiction | competing-values | order | dead-rule | dangling | resolved
    message: str
    rules: tuple[str, ...]          # the rules (or "Card".power) involved
    spans: tuple = ()
    cites: tuple = ()               # (rule, quote) pairs: the sentences each side encodes
    witness: dict | None = None     # a state file
    move: dict | None = None        # a move file (for a contradiction)
    situation: list[str] = dataclasses.field(default_factory=list)   # the witness, in the spec's terms
    confirmed: bool | None = None   # does the interpreter, on the witness, see both rules apply?
    resolution: str | None = None   # for a resolved pair: what settles it
    winner: str | None = None       # … the rule (or power) that wins, or goes first
    how: str | None = None          # … by "overrides", "precedence" or "order"
    unknown: str = ""

    @property
    def span(self):
        return self.spans[0] if self.spans else None

    @property
    def unresolved(self) -> bool:
        return self.kind in ("contradiction", "competing-values", "order")

    def as_json(self) -> dict:
        return {"kind": self.kind, "message": self.message, "rules": list(self.rules),
                "at": [str(s) for s in self.spans], "cites": [{"rule": r, "quote": q} for r, q in self.cites],
                "situation": self.situation, "witness": self.witness, "move": self.move,
                "confirmed": self.confirmed, "resolution": self.resolution, "unknown": self.unknown or None}


class Search:
    """One search over a checked spec, for ``players`` players."""

    def __init__(self, typed, players: int | None = None,
                 settings: SolverSettings = SolverSettings(timeout_ms=20_000), engine: Engine | None = None):
        """``players``: one player count, or None for every count the game allows at once.  ``engine``: an
        engine whose game is already started (its selection is the universe); by default every card."""
        self.typed = typed
        self.p = p = typed.program
        self.low, self.high = player_range(p)
        self.players = players
        self.settings = settings
        if engine is None:
            engine = Engine(typed)
            engine.recording = False
            everything = {k: [c.name for c in p.cards_of(k)] for k in p.kinds}
            engine.start(everything, players or self.high, 0, [])
        self.engine = engine
        self.queries = 0
        self.unknowns = 0
        self.seconds = 0.0
        self._chains: dict | None = None        # action -> itself and its ancestors
        self._judge: tuple | None = None        # the interpreter that re-judges witnesses, and its scopes

    # ------------------------------------------------------------ a symbolic state
    def encoder(self) -> Encoder:
        return Encoder(self.engine, concrete=False,
                       player_count=None if self.players else z3.Int("player_count"))

    def symbolic(self, enc: Encoder, name: str, ty) -> tuple:
        """A symbolic value of type ``ty`` and the constraint that it is one."""
        if ty == BOOL:
            return z3.Bool(name), True
        v = z3.Int(name)
        return v, self._domain(enc, v, ty)

    def _domain(self, enc: Encoder, v, ty):
        optional = isinstance(ty, Opt)
        if optional:
            ty = ty.inner
        if ty == PLAYER:
            d = z3.And(v >= 0, v < enc.n)
        elif isinstance(ty, KindT):
            insts = enc.kind_instances[ty.name]
            enc.domains[v.get_id()] = tuple(insts) + ((NONE,) if optional else ())
            d = z3.Or([v == i for i in insts])
        elif isinstance(ty, EnumT):
            d = z3.And(v >= 0, v < len(enc.enum_names[ty.name]))
        elif ty == INT:
            d = z3.And(v >= 0, v <= BOUND)
        else:
            return True
        return z3.Or(d, v == NONE) if optional else d

    def well_formed(self, enc: Encoder) -> list:
        """The bounds of a state, for the cells the query made."""
        out = []
        places: dict[int, list] = {}
        chosen_by_rank: dict[int, list] = {}
        E = self.engine
        for key, cell in list(enc.cells.made.items()):
            if key[0] == "var":
                _, name, index = key
                ty = enc.var_types[name]
                d = self._domain(enc, cell, ty) if ty != BOOL else True
                if not (is_const(d) and d):
                    out.append(d)
            elif key[0] == "in":
                _, zone, index, inst = key
                places.setdefault(inst, []).append(cell)
                if zone == "choisis" or enc.zone_kind[zone] == "Character":
                    rank = E.card_attrs[E.defs[inst]].get("rank")
                    if rank is not None and zone == "choisis":
                        chosen_by_rank.setdefault(rank, []).append(cell)
        for cells in places.values():
            if len(cells) > 1:
                out.append(z3.AtMost(*cells, 1))
        if not is_const(enc.n):
            out.append(z3.And(enc.n >= self.low, enc.n <= self.high))
            for key, cell in enc.cells.made.items():       # no card is with a player who is not in the game
                if key[0] == "in" and isinstance(key[2], int) and enc.zone_index_types[key[1]] == PLAYER \
                        and key[2] >= 2:
                    out.append(z3.Implies(cell, enc.n > key[2]))
        for cells in chosen_by_rank.values():
            if len(cells) > 1:
                out.append(z3.AtMost(*cells, 1))
        return out

    def solve(self, enc: Encoder, *formulas):
        s = make_solver(self.settings)
        todo = [f for f in formulas if not (is_const(f) and f)]
        if any(is_const(f) and not f for f in todo):
            return "unsat", None, ""
        s.add(*todo)
        s.add(*enc.defined)
        s.add(*self.well_formed(enc))
        t = time.perf_counter()
        outcome = run(s)
        self.seconds += time.perf_counter() - t
        self.queries += 1
        if outcome.status == "unknown":
            self.unknowns += 1
        return outcome.status, outcome.model, outcome.reason

    # ------------------------------------------------------------ the searches
    def action_args(self, enc: Encoder, action: str) -> tuple[tuple, list]:
        decl = self.p.actions[action]
        args, domain = [], []
        for prm in decl.params:
            v, d = self.symbolic(enc, f"{action}.{prm.name}", enc.resolve(prm.type))
            args.append(v)
            domain.append(d)
        return tuple(args), domain

    def contradictions(self, only: set | None = None) -> list[Finding]:
        enc0 = self.encoder()
        out = []
        done = set()
        for action in self.p.actions:
            about = enc0.rules_about(action)
            for (pr, ph), (fr, fh) in itertools.product(about, about):
                if ph.kind != "permit" or fh.kind != "forbid" or (pr.name, fr.name) in done:
                    continue
                if only is not None and (pr.name, fr.name) not in only:
                    continue
                if not self._most_specific(action, ph.pattern.name, fh.pattern.name):
                    continue
                done.add((pr.name, fr.name))
                resolution = self._resolution(enc0, pr, fr)
                enc = self.encoder()
                args, domain = self.action_args(enc, action)
                try:
                    both = [enc.applies(pr, ph, args[:len(ph.pattern.binders)]),
                            enc.applies(fr, fh, args[:len(fh.pattern.binders)])]
                    focus = set(enc.cells.made)
                    kind_of = None if resolution else self._special_case(enc, pr, fr, fh, action, args, domain)
                except Unsupported as exc:
                    out.append(Finding("unknown", f"cannot encode {pr.name} / {fr.name}: {exc.message}",
                                       (pr.name, fr.name), (ph.span, fh.span), unknown=exc.message))
                    continue
                if kind_of is False:
                    continue        # an exception to other prohibitions, and this one is not of their kind
                others = []
                for r, h in enc.rules_about(action):     # a witness where every rule of the action can be judged
                    a = enc.applies(r, h, args[:len(h.pattern.binders)])
                    if h.kind == "forbid" and r.name != fr.name:
                        others.append(a)
                # the clearest witness has no other prohibition in the way; any will do if there is none such
                clean = [z3.Not(a) if not is_const(a) else not a for a in others]
                status, model, reason = self.solve(enc, *domain, *both, *clean)
                if status != "sat":
                    status, model, reason = self.solve(enc, *domain, *both)
                if status == "unsat":
                    continue
                why = (f"{fr.name} is a special case of {kind_of}, which {pr.name} overrides" if kind_of
                       else f"{pr.name} is a general permission")
                finding = Finding(
                    "resolved" if resolution else "contradiction",
                    f"{pr.name} permits {action} and {fr.name} forbids it in the same situation"
                    + (f"; {resolution}" if resolution else f" ({why}), and no precedence says which wins"),
                    (pr.name, fr.name), (ph.span, fh.span), _cites(pr) + _cites(fr), resolution=resolution)
                finding.winner, finding.how = self._settled(enc0, pr, fr)
                if status == "unknown":
                    finding.unknown = reason
                else:
                    self._witness(enc, model, finding, action, args, focus)
                    finding.confirmed = self._confirm_contradiction(finding, action, pr.name, fr.name)
                out.append(finding)
        return out

    def _special_case(self, enc: Encoder, permit, forbid, fhead, action: str, args: tuple, domain: list):
        """Does ``permit`` claim to lift ``forbid``?  A permission with no `overrides` is general: it claims
        every prohibition of its action (None).  One that overrides rules is an exception to them: it
        claims ``forbid`` when ``forbid`` is a special case of one of them (the name of that rule), i.e.
        Z3 proves that whenever ``forbid`` applies, so would it; otherwise False."""
        if not permit.overrides:
            return None
        for name, _ in permit.overrides:
            other = self.p.rules.get(name)
            if other is None:
                continue
            for head in other.heads:
                if head.kind != "forbid":
                    continue
                shared = self._shared_params(head.pattern.name, action)
                if len(head.pattern.binders) > shared:
                    continue
                wider = enc.applies(other, head, args[:len(head.pattern.binders)])
                narrow = enc.applies(forbid, fhead, args[:len(fhead.pattern.binders)])
                status, _, _ = self.solve(enc, *domain, narrow, z3.Not(wider) if not is_const(wider) else not wider)
                if status == "unsat":
                    return name
        return False

    def _shared_params(self, a: str, b: str) -> int:
        """How many leading parameters two actions share: those of their nearest common ancestor."""
        enc = self.encoder()
        chain_b = enc.ancestors(b)
        for x in enc.ancestors(a):
            if x in chain_b:
                return len(self.p.actions[x].params)
        return 0

    def _most_specific(self, action: str, permit_on: str, forbid_on: str) -> bool:
        """Judge the pair on the most general action both rules are about (it is the same for its
        refinements)."""
        if self._chains is None:
            enc = self.encoder()
            self._chains = {a: enc.ancestors(a) for a in self.p.actions}
        chain = self._chains[action]
        if permit_on not in chain or forbid_on not in chain:
            return False
        deeper = permit_on if chain.index(permit_on) < chain.index(forbid_on) else forbid_on
        return deeper == action

    def _resolution(self, enc: Encoder, permit, forbid) -> str | None:
        winner, how = self._settled(enc, permit, forbid)
        return f"settled: {winner} wins ({how})" if winner else None

    @staticmethod
    def _settled(enc: Encoder, permit, forbid) -> tuple[str | None, str | None]:
        if (permit.name, forbid.name) in enc.defeats:
            return permit.name, ("overrides" if any(o == forbid.name for o, _ in permit.overrides) else "precedence")
        if (forbid.name, permit.name) in enc.defeats:
            return forbid.name, "precedence"
        return None, None

    def competing_values(self, only: set | None = None) -> list[Finding]:
        out = []
        enc0 = self.encoder()
        for name, decl in self.p.quantities.items():
            heads = [(r, h) for r, h in enc0.heads.get(name, []) if h.kind == "value"]
            for (r1, h1), (r2, h2) in itertools.combinations(heads, 2):
                if only is not None and (r1.name, r2.name) not in only and (r2.name, r1.name) not in only:
                    continue
                resolution = self._resolution(enc0, r1, r2)
                enc = self.encoder()
                args, domain = [], []
                for prm in decl.params:
                    v, d = self.symbolic(enc, f"{name}.{prm.name}", enc.resolve(prm.type))
                    args.append(v)
                    domain.append(d)
                e1, e2 = enc.rule_env(r1, h1, tuple(args)), enc.rule_env(r2, h2, tuple(args))
                try:
                    w1 = True if h1.when is None else enc.expr(h1.when, e1)
                    w2 = True if h2.when is None else enc.expr(h2.when, e2)
                except Unsupported as exc:
                    out.append(Finding("unknown", f"cannot encode {r1.name} / {r2.name}: {exc.message}",
                                       (r1.name, r2.name), (h1.span, h2.span), unknown=exc.message))
                    continue
                # two values that apply together need an order even when they agree: the interpreter stops
                status, model, reason = self.solve(enc, *domain, w1, w2)
                if status == "unsat":
                    continue
                finding = Finding("resolved" if resolution else "competing-values",
                                  f"{r1.name} and {r2.name} both give {name} a value in the same situation"
                                  + (f"; {resolution}" if resolution else ", and no precedence says which wins"),
                                  (r1.name, r2.name), (h1.span, h2.span), _cites(r1) + _cites(r2),
                                  resolution=resolution)
                finding.winner, finding.how = self._settled(enc0, r1, r2)
                if status == "unknown":
                    finding.unknown = reason
                else:
                    self._witness(enc, model, finding, None, ())
                out.append(finding)
        return out

    def order_dependence(self, only: set | None = None) -> list[Finding]:
        E, out = self.engine, []
        effects = Effects(self.p)
        ordered = {(w, l) for w, l in E.power_order} | {(l, w) for w, l in E.power_order}
        for window, powers in E.window_powers.items():
            for a, b in itertools.combinations(powers, 2):
                if a.card == b.card:
                    continue
                ka, kb = f'"{E.def_names[a.card]}".{a.name}', f'"{E.def_names[b.card]}".{b.name}'
                if only is not None and (ka, kb) not in only and (kb, ka) not in only:
                    continue
                touched = effects.interfere(self._power_decl(a), self._power_decl(b))
                if not touched:
                    continue
                resolution = f"settled: declared order ({ka if (ka, kb) in E.power_order else kb} first)" \
                    if (ka, kb) in ordered else None
                enc = self.encoder()
                both = []
                params = self.p.windows[window].params
                wargs = [self.symbolic(enc, f"{window}.{x.name}", enc.resolve(x.type)) for x in params]
                for power in (a, b):
                    inst = E.instances[power.card][0]
                    controller = E.controllers.get(E.def_kind[power.card])
                    holder = enc.quantity(controller, (inst,)) if controller else NONE
                    both.append(holder != NONE if not is_const(holder) else holder != NONE)
                    decl = self._power_decl(power)
                    if decl.requires is not None:
                        env = {"me": holder, "this": inst, **{n: v for (n, _), (v, _) in
                                                               zip(decl.window[1], wargs)}}
                        try:
                            both.append(enc.expr(decl.requires, env))
                        except Unsupported:
                            pass
                status, model, reason = self.solve(enc, *[d for _, d in wargs], *both)
                if status == "unsat":
                    continue
                finding = Finding("resolved" if resolution else "order",
                                  f"{ka} and {kb} both react to {window} and both touch {', '.join(sorted(touched))}: "
                                  f"the result may depend on which takes effect first"
                                  + (f"; {resolution}" if resolution else ", and no precedence orders them"),
                                  (ka, kb), (a.span, b.span),
                                  _power_cites(self._power_decl(a), ka) + _power_cites(self._power_decl(b), kb),
                                  resolution=resolution)
                if resolution:
                    finding.winner, finding.how = (ka if (ka, kb) in E.power_order else kb), "order"
                if status == "sat":
                    self._witness(enc, model, finding, None, ())
                else:
                    finding.unknown = reason
                out.append(finding)
        return out

    def _power_decl(self, power) -> ast.PowerDecl:
        card = self.p.cards[self.engine.def_names[power.card]]
        return next(x for x in card.powers if x.name == power.name)

    def dead_rules(self) -> list[Finding]:
        out = []
        for rule in self.p.rules.values():
            for head in rule.heads:
                if head.when is None:
                    continue
                enc = self.encoder()
                name = head.pattern.name
                if name in self.p.actions:
                    params = self.p.actions[name].params
                else:
                    params = self.p.quantities[name].params
                args, domain = [], []
                for prm, _ in zip(params, head.pattern.binders):
                    v, d = self.symbolic(enc, f"{name}.{prm.name}", enc.resolve(prm.type))
                    args.append(v)
                    domain.append(d)
                try:
                    cond = enc.applies(rule, head, tuple(args))
                except Unsupported:
                    continue
                status, _, reason = self.solve(enc, *domain, cond)
                if status == "unsat":
                    at = f" with {self.players} players" if self.players else ""
                    out.append(Finding("dead-rule", f"{rule.name} can never apply{at}: no well-formed state meets "
                                                    f"its condition", (rule.name,), (head.span,), _cites(rule)))
        return out

    def dangling(self) -> list[Finding]:
        p, out = self.p, []
        done = set()
        for proc in [*p.procedures.values(), *p.actions.values()]:
            _collect_done(proc.body or (), done)
        for card in p.cards.values():
            for pw in card.powers:
                _collect_done(pw.body, done)
                if pw.requires is not None:
                    _collect_can(pw.requires, done)
        for rule in p.rules.values():
            for h in rule.heads:
                if h.when is not None:
                    _collect_can(h.when, done)
        for q in p.quantities.values():
            _collect_can(q.default, done)
        used = {a for a in p.actions if any(x in done for x in _descendants(p, a))}
        for rule in p.rules.values():
            for h in rule.heads:
                if h.kind in ("permit", "forbid") and h.pattern.name not in used:
                    out.append(Finding("dangling", f"{rule.name} is about {h.pattern.name}, which nothing does "
                                                   f"(no do, offer or can)", (rule.name,), (h.span,), _cites(rule)))
        for prec in p.precedences:
            for side in (prec.winner, prec.loser):
                if side.card is not None:
                    card = p.cards.get(side.card)
                    if card is None or not any(x.name == side.name for x in card.powers):
                        out.append(Finding("dangling", f"precedence names {side}, a power \"{side.card}\" does not "
                                                       f"have", (str(side),), (side.span,)))
        return out

    # ------------------------------------------------------------ witnesses
    def _witness(self, enc: Encoder, model, finding: Finding, action: str | None, args: tuple,
                 focus: set | None = None) -> None:
        from checker.solver.witness import witness_files
        state, move, situation = witness_files(self, enc, model, action, args, focus)
        finding.witness, finding.move, finding.situation = state, move, situation

    def _confirm_contradiction(self, finding: Finding, action: str, permit: str, forbid: str) -> bool | None:
        """Load the witness into a fresh interpreter: do both rules apply there?"""
        from checker.solver.scopes import Scopes
        from checker.solver.witness import interpreter_rules
        if self._judge is None:         # one interpreter re-judges every witness
            self._judge = Engine(self.typed), Scopes(self.typed)
            self._judge[0].recording = False
        got = interpreter_rules(*self._judge, finding.witness, finding.move)
        if got is None:
            return None
        forbids, permits = got
        return forbid in forbids and permit in permits


def _cites(rule: ast.RuleDecl) -> tuple:
    return tuple((rule.name, c.quote) for c in rule.cites)


def _power_cites(pw: ast.PowerDecl, name: str) -> tuple:
    return tuple((name, c.quote) for c in pw.cites)


def _descendants(p, action: str) -> list[str]:
    out = [action]
    for name, decl in p.actions.items():
        if decl.parent and decl.parent[0] == action:
            out += _descendants(p, name)
    return out


def _walk(node):
    """Every AST node below ``node`` (expressions and statements)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if hasattr(n, "__dataclass_fields__"):
            for f in n.__dataclass_fields__:
                if f == "span":
                    continue
                v = getattr(n, f)
                if hasattr(v, "__dataclass_fields__"):
                    stack.append(v)
                elif isinstance(v, tuple):
                    for x in v:
                        if hasattr(x, "__dataclass_fields__"):
                            stack.append(x)
                        elif isinstance(x, tuple):
                            stack.extend(y for y in x if hasattr(y, "__dataclass_fields__"))


def _collect_done(stmts, done: set) -> None:
    for s in stmts:
        for n in _walk(s):
            if isinstance(n, ast.Do):
                done.add(n.action)
            elif isinstance(n, ast.OfferAction):
                done.add(n.action)
            elif isinstance(n, ast.Can):
                done.add(n.action)


def _collect_can(e, done: set) -> None:
    for n in _walk(e):
        if isinstance(n, ast.Can):
            done.add(n.action)


class Effects:
    """What a power's body reads and writes (vars, counters, zones), following calls, actions and
    quantities.  Adding to a counter (`transfer`) commutes with adding to it again."""

    def __init__(self, program):
        self.p = program

    def reads_expr(self, e, seen=None) -> set:
        seen = set() if seen is None else seen
        out = set()
        for n in _walk(e):
            if isinstance(n, ast.Name) and (n.id in self.p.vars or n.id in self.p.zones):
                out.add(n.id)
            elif isinstance(n, ast.Index) and isinstance(n.obj, ast.Name):
                out.add(n.obj.id)
            elif isinstance(n, ast.Call) and n.func in self.p.quantities and n.func not in seen:
                seen.add(n.func)
                out |= self.reads_expr(self.p.quantities[n.func].default, seen)
                for rule in self.p.rules.values():
                    for h in rule.heads:
                        if h.pattern.name == n.func:
                            out |= self.reads_expr(h.when, seen) if h.when is not None else set()
                            out |= self.reads_expr(h.expr, seen) if h.expr is not None else set()
            elif isinstance(n, ast.Can) and ("can", n.action) not in seen:
                seen.add(("can", n.action))
                for rule in self.p.rules.values():
                    for h in rule.heads:
                        if h.pattern.name == n.action and h.when is not None:
                            out |= self.reads_expr(h.when, seen)
        return out

    def effects(self, stmts, seen=None) -> tuple[set, set, set]:
        """(reads, writes, added-to counters) of statements."""
        seen = set() if seen is None else seen
        reads, writes, adds = set(), set(), set()
        for s in stmts:
            for n in _walk(s):
                if isinstance(n, (ast.SetVar,)):
                    writes.add(n.target.name)
                elif isinstance(n, ast.Reset):
                    writes.add(n.name)
                elif isinstance(n, ast.Transfer):
                    adds.add(n.target.name)
                    adds.add(n.source.name)
                elif isinstance(n, (ast.Move, ast.Draw)):
                    writes.add(n.dest.target.name)
                    if isinstance(n, ast.Draw):
                        writes.add(n.source.name)
                    else:
                        reads |= self.reads_expr(n.what)
                elif isinstance(n, ast.Shuffle):
                    writes.add(n.target.name)
                elif isinstance(n, (ast.Do, ast.CallProc)):
                    name = n.action if isinstance(n, ast.Do) else n.name
                    if name in seen:
                        continue
                    seen.add(name)
                    body = self._body(name, isinstance(n, ast.Do))
                    r, w, a = self.effects(body, seen)
                    reads, writes, adds = reads | r, writes | w, adds | a
                elif isinstance(n, (ast.Name, ast.Index, ast.Call, ast.Can)):
                    reads |= self.reads_expr(n)
        return reads, writes, adds

    def _body(self, name: str, action: bool):
        if not action:
            return self.p.procedures[name].body
        chain, out = name, ()
        while chain:
            decl = self.p.actions[chain]
            if decl.body is not None:
                return decl.body
            chain = decl.parent[0] if decl.parent else None
        return out

    def interfere(self, a: ast.PowerDecl, b: ast.PowerDecl) -> set:
        """What one power writes and the other reads or writes; adding to a counter the other only adds to
        does not count (additions commute)."""
        ra, wa, aa = self.effects(a.body)
        rb, wb, ab = self.effects(b.body)
        if a.requires is not None:
            ra |= self.reads_expr(a.requires)
        if b.requires is not None:
            rb |= self.reads_expr(b.requires)
        return (wa & (rb | wb | ab)) | (wb & (ra | aa)) | (aa & rb) | (ab & ra)


def find_conflicts(check_result, players: int | None = None, kinds=("contradiction", "competing-values", "order",
                                                          "dead-rule", "dangling")) -> list[Finding]:
    """Every finding of the spec, resolved ones included (the docs' conflict page calls this)."""
    search = Search(check_result.typed, players)
    out: list[Finding] = []
    if "contradiction" in kinds:
        out += search.contradictions()
    if "competing-values" in kinds:
        out += search.competing_values()
    if "order" in kinds:
        out += search.order_dependence()
    if "dead-rule" in kinds:
        out += search.dead_rules()
    if "dangling" in kinds:
        out += search.dangling()
    return out


# ---------------------------------------------------------------- the command

_TITLES = {"contradiction": "contradiction", "competing-values": "competing values", "order": "order dependence",
           "dead-rule": "dead rule", "dangling": "dangling reference", "resolved": "resolved",
           "unknown": "undecided"}


def conflicts_command(args) -> int:
    """`rulebook conflicts SPEC [MORE…]`: exit 0 when nothing is unresolved, 1 when something is, 2 on bad
    input (a spec with errors, a bad option)."""
    import json
    import sys
    from pathlib import Path

    from checker.check import check_paths
    from checker.diagnostics import render_human
    result = check_paths([args.spec, *args.more])
    if not result.ok:
        sys.stdout.write(render_human(result.reporter.sorted(), result.sources) + "\n")
        print(f"rulebook conflicts: the spec has {len(result.reporter.errors)} error(s): fix them first",
              file=sys.stderr)
        return 2
    low, high = player_range(result.program)
    if args.players is not None and not low <= args.players <= high:
        print(f"rulebook conflicts: --players must be from {low} to {high}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    search = Search(result.typed, args.players)
    findings = (search.contradictions() + search.competing_values() + search.order_dependence()
                + search.dead_rules() + search.dangling())
    elapsed = time.perf_counter() - start
    for f in findings:
        if f.witness is not None:
            f.witness = {**f.witness, "spec": [str(args.spec), *map(str, args.more)]}
    if args.witnesses:
        folder = Path(args.witnesses)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for i, f in enumerate(findings, 1):
                if f.witness is not None:
                    stem = f"{i:02d}-{'-'.join(f.rules)}"[:80].replace('"', "").replace("/", "_")
                    (folder / f"{stem}.state.json").write_text(json.dumps(f.witness, ensure_ascii=False, indent=1)
                                                               + "\n", encoding="utf-8")
                    f.files = [str(folder / f"{stem}.state.json")]
                    if f.move is not None:
                        (folder / f"{stem}.move.json").write_text(json.dumps(f.move, ensure_ascii=False, indent=1)
                                                                  + "\n", encoding="utf-8")
                        f.files.append(str(folder / f"{stem}.move.json"))
        except OSError as exc:
            print(f"rulebook conflicts: cannot write witnesses to {folder}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    unresolved = [f for f in findings if f.unresolved]
    if args.json:
        print(json.dumps({"unresolved": len(unresolved), "queries": search.queries, "unknowns": search.unknowns,
                          "seconds": round(elapsed, 2), "players": args.players,
                          "findings": [dict(f.as_json(), files=getattr(f, "files", None)) for f in findings]},
                         ensure_ascii=False, indent=2))
    else:
        order = ["contradiction", "competing-values", "order", "unknown", "dead-rule", "dangling", "resolved"]
        for kind in order:
            group = [f for f in findings if f.kind == kind]
            if not group or (kind == "resolved" and not args.all):
                continue
            print(f"\n{_TITLES[kind]} ({len(group)})")
            for f in group:
                print(_describe(result, f))
        resolved = sum(f.kind == "resolved" for f in findings)
        print(f"\n{len(unresolved)} unresolved conflict(s); {resolved} resolved by the spec's precedences and "
              f"overrides{'' if args.all else ' (--all lists them)'}; "
              f"{sum(f.kind == 'dead-rule' for f in findings)} dead rule(s), "
              f"{sum(f.kind == 'dangling' for f in findings)} dangling reference(s). "
              f"{search.queries} Z3 queries, {search.unknowns} unknown, {elapsed:.1f} s, "
              f"{f'{args.players} players' if args.players else f'{low} to {high} players'}.")
    return 1 if unresolved else 0


def _describe(result, f: Finding) -> str:
    lines = [f"  {f.message}"]
    for name, span in zip(f.rules, f.spans):
        source = result.sources.line(span.file, span.line) if span else None
        lines.append(f"    {name}  ({span})")
        if source:
            lines.append(f"      | {source.strip()}")
        for rule, quote in f.cites:
            if rule == name:
                lines.append(f"      « {quote} »")
    if f.situation:
        shown = f.situation[:14]
        lines.append("    witness: " + "; ".join(x.strip() for x in shown) + (" …" if len(f.situation) > 14 else ""))
    if f.confirmed is not None:
        lines.append(f"    the interpreter, on the witness: {'both rules apply' if f.confirmed else 'DOES NOT AGREE'}")
    for path in getattr(f, "files", None) or ():
        lines.append(f"    written: {path}")
    if f.unknown:
        lines.append(f"    Z3 could not decide: {f.unknown}")
    return "\n".join(lines)

