"""conflicts: where the rules disagree, searched with Z3 over the bounded symbolic states of
:mod:`checker.solver.search`.  The findings:

- **contradiction** — a permission and a prohibition of the same action can apply together, and
  neither overrides the other nor is ordered by a `precedence`;
- **competing values** — two `value` rules of one quantity can apply together with no precedence
  (the interpreter cannot pick a value, even an equal one);
- **order dependence** — two powers react to the same window, can both be active, and one writes
  what the other reads or writes (other than adding to the same counter), with no declared order;
- **dead rule** — a rule whose condition no well-formed state satisfies, or only states whose cards no
  selection the spec's `constraint`s allow has;
- **dangling** — a precedence or `overrides` naming a power or rule that does not exist, or a rule
  about an action nothing ever does.

Each finding with a witness comes with a state file (and a move file) that `rulebook legal` and the
interpreter accept; the interpreter re-judges the witness (``confirmed``).  Declared resolutions
(`overrides`, `precedence`) are listed as resolved, with the sentences they cite.
"""

from __future__ import annotations

import itertools

import z3

from checker.front import ast
from checker.front.effects import Effects
from checker.solver.encode import NONE, Unsupported, is_const
from checker.conflicts.batches import applies_with_one_copy, live_rules, not_special_cases, undecided_about, upcoming
from checker.conflicts.escapes import escapes
from checker.conflicts.findings import Finding
from checker.solver.narrowed import narrowed
from checker.solver.search import BOUND, ILLEGAL, Claim, SymbolicSearch
from checker.solver.searches import TooLarge

__all__ = ["Finding", "Claim", "Search", "find_conflicts", "KIND_METHODS", "BOUND"]


class Search(SymbolicSearch):
    """The conflict finder's questions, asked over the symbolic states of :class:`SymbolicSearch`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.inductive: dict = {}       # invariant -> status -> moves (see checker.conflicts.inductive)
        self.batches = True             # dead-rule and special-case questions shown satisfiable in batches first
        self.batched = 0                # the Z3 queries of those batches (counted in ``queries`` too)
        self.undecided: set = set()     # the keys of the questions a batch could not decide
        self.too_large: set = set()     # the ids of the rule heads a batch found too large to encode (TooLarge)

    def _pairs(self, enc0, only: set | None) -> list[tuple]:
        """(action, permission, its head, prohibition, its head) of each contradiction question, in order."""
        out, done = [], set()
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
                out.append((action, pr, ph, fr, fh))
        return out

    def contradictions(self, only: set | None = None) -> list[Finding]:
        enc0 = self.plain()
        out = []
        pairs = self._pairs(enc0, only)
        # the special-case questions this search's claims will ask, answered in batches where they are "no"
        cases = {}
        for action, pr, ph, fr, fh in upcoming(self, pairs, lambda q: lambda scope: scope.contradiction(
                q[1], q[3], q[0])):
            if self._settled(enc0, pr, fr)[0] or not pr.overrides or (id(ph), id(fh)) in self._claims:
                continue
            on = self.judged_on(enc0, ph, fh)
            for _, other, head, key in (self.special_cases(pr, fh, on) if on is not None else ()):
                if key not in self._cases:
                    cases.setdefault(key, (key, other, head, fr, fh, on))
        self.no_special_case |= not_special_cases(self, list(cases.values()) if self.batches else [])
        for action, pr, ph, fr, fh in pairs:
            if not self._mine(out, lambda scope: scope.contradiction(pr, fr, action)):
                continue
            self._one_copy_cases(enc0, pr, ph, fr, fh)
            claim = self.claim(pr, ph, fr, fh)
            if claim.status == "unrelated":
                continue        # an exception to other prohibitions, and this one is not of their kind
            if claim.status == "unknown":
                out.append(Finding("unknown", claim.says(pr.name, fr.name), (pr.name, fr.name),
                                   (ph.span, fh.span), _cites(pr) + _cites(fr), unknown=claim.reason))
                continue
            resolution = f"settled: {claim.winner} wins ({claim.how})" if claim.status == "settled" else None
            enc = self.encoder()
            about = enc.rules_about(action)
            # one about rules a batch could not decide is asked on the states with one copy of each card first: its
            # witness is one found there, as after two undecided checks, and its rules' conditions are translated
            hard = undecided_about(self, [ph, fh, *(h for _, h in about)])
            params = self.p.actions[action].params

            def applies(r, h):
                if hard:
                    n = len(h.pattern.binders)
                    return self.conditions.applies(enc, r, h, action, params[:n], args[:n])[2]
                return enc.applies(r, h, args[:len(h.pattern.binders)])
            try:
                args, domain = self.action_args(enc, action)
                both = [applies(pr, ph), applies(fr, fh)]
                focus = set(enc.cells.made)
                others = []
                for r, h in about:     # a witness where every rule of the action can be judged
                    a = applies(r, h)
                    if h.kind == "forbid" and r.name != fr.name:
                        others.append(a)
            except Unsupported as exc:
                out.append(Finding("unknown", f"cannot encode {pr.name} / {fr.name}: {exc.located()}",
                                   (pr.name, fr.name), (ph.span, fh.span), unknown=exc.located()))
                continue
            # the clearest witness has no other prohibition in the way; any will do if there is none such
            clean = [z3.Not(a) if not is_const(a) else not a for a in others]
            cards = tuple(r.card for r in (pr, fr) if r.card)
            status, model, reason = self.solve(enc, *domain, *both, *clean, minimal=True, cards=cards,
                                               one_copy_first=hard)
            if status != "sat" or self.legality:
                status, model, reason = self.solve(enc, *domain, *both, minimal=True, cards=cards)
            if status == "unsat":
                continue
            message = f"{pr.name} permits {action} and {fr.name} forbids it in the same situation"
            if resolution:
                kind, message = "resolved", f"{message}; {resolution}"
            elif status == "unknown":
                kind, message = "unknown", (f"cannot tell whether {pr.name} (which permits {action}) and "
                                            f"{fr.name} (which forbids it) can apply in the same situation")
            else:
                kind, message = "contradiction", f"{message} ({claim.why(pr.name, fr.name)}), and no precedence " \
                                                 f"says which wins"
            finding = Finding(kind, message, (pr.name, fr.name), (ph.span, fh.span), _cites(pr) + _cites(fr),
                              resolution=resolution)
            finding.winner, finding.how = claim.winner, claim.how
            if status == "unknown":
                finding.unknown = reason
            else:
                self._witness(enc, model, finding, action, args, focus)
                if finding.witness is not None:
                    finding.confirmed = self._confirm_contradiction(finding, action, pr.name, fr.name)
            out.append(finding)
        return out

    def _one_copy_cases(self, enc0, pr, ph, fr, fh) -> None:
        """The special-case questions :meth:`claim` will ask that a batch could not decide, asked first on the
        states with one copy of each card in each place: a "yes" there is the question's own (the prohibition
        applies where the rule the permission overrides does not), kept as its answer, so that it is not taken
        twice to Z3's step limit before being asked so (:func:`~checker.conflicts.batches.applies_with_one_copy`)."""
        if not self.undecided or (id(ph), id(fh)) in self._claims or self._settled(enc0, pr, fr)[0] \
                or not pr.overrides:
            return
        action = self.judged_on(enc0, ph, fh)
        for _, other, head, key in (self.special_cases(pr, fh, action) if action is not None else ()):
            if key not in self.undecided or key in self._cases or key in self.no_special_case:
                continue

            def encode(enc, other=other, head=head, params=self.p.actions[action].params):
                args, domain = self.action_args(enc, action)
                wider = self.conditions.applies(enc, other, head, action, params[:len(head.pattern.binders)],
                                                args[:len(head.pattern.binders)])[2]
                narrow = self.conditions.applies(enc, fr, fh, action, params[:len(fh.pattern.binders)],
                                                 args[:len(fh.pattern.binders)])[2]
                return [*domain, narrow, z3.Not(wider) if not is_const(wider) else not wider]
            if applies_with_one_copy(self, encode, (), legal=False):
                self._cases[key] = ("sat", "")

    def competing_values(self, only: set | None = None) -> list[Finding]:
        out = []
        enc0 = self.encoder()
        for name, decl in self.p.quantities.items():
            heads = [(r, h) for r, h in enc0.heads.get(name, []) if h.kind == "value"]
            for (r1, h1), (r2, h2) in itertools.combinations(heads, 2):
                if only is not None and (r1.name, r2.name) not in only and (r2.name, r1.name) not in only:
                    continue
                if not self._mine(out, lambda scope: scope.competing(r1, r2, name)):
                    continue
                resolution = self._resolution(enc0, r1, r2)
                enc = self.encoder()
                try:
                    args, domain = self.params_args(enc, name, decl.params)
                    w1, w2 = enc.applies(r1, h1, args), enc.applies(r2, h2, args)
                except Unsupported as exc:
                    out.append(Finding("unknown", f"cannot encode {r1.name} / {r2.name}: {exc.located()}",
                                       (r1.name, r2.name), (h1.span, h2.span), unknown=exc.located()))
                    continue
                # two values that apply together need an order even when they agree: the interpreter stops
                status, model, reason = self.solve(enc, *domain, w1, w2, minimal=True,
                                                   cards=tuple(r.card for r in (r1, r2) if r.card))
                if status == "unsat":
                    continue
                kind = "resolved" if resolution else "unknown" if status == "unknown" else "competing-values"
                finding = Finding(kind,
                                  f"{r1.name} and {r2.name} both give {name} a value in the same situation"
                                  + (f"; {resolution}" if resolution else
                                     " (Z3 could not decide whether they can)" if status == "unknown" else
                                     ", and no precedence says which wins"),
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
                cards = (E.def_names[a.card], E.def_names[b.card])
                if not touched or not self._mine(out, lambda scope: scope.order(
                        ka, kb, window, cards, (self._power_decl(a), self._power_decl(b)))):
                    continue
                resolution = f"settled: declared order ({ka if (ka, kb) in E.power_order else kb} first)" \
                    if (ka, kb) in ordered else None
                enc = self.encoder()
                both = []
                params = self.p.windows[window].params
                try:
                    wargs = list(zip(*self.params_args(enc, window, params)))
                except Unsupported:     # a window's argument the search cannot make: judge without it
                    wargs = []
                for power in (a, b):
                    inst = E.instances[power.card][0]
                    controller = E.controllers.get(E.def_kind[power.card])
                    holder = enc.quantity(controller, (inst,)) if controller else NONE
                    both.append(holder != NONE if not is_const(holder) else holder != NONE)
                    both.append(enc.active(inst))
                    decl = self._power_decl(power)
                    if decl.requires is not None:
                        env = {"me": holder, "this": inst, **{n: v for (n, _), (v, _) in
                                                               zip(decl.window[1], wargs)}}
                        try:
                            both.append(enc.expr(decl.requires, env))
                        except Unsupported:
                            pass
                status, model, reason = self.solve(enc, *[d for _, d in wargs], *both, minimal=True, cards=cards)
                if status == "unsat":
                    continue
                kind = "resolved" if resolution else "unknown" if status == "unknown" else "order"
                finding = Finding(kind,
                                  f"{ka} and {kb} both react to {window} and both touch {', '.join(sorted(touched))}: "
                                  f"the result may depend on which takes effect first"
                                  + (f"; {resolution}" if resolution else
                                     " (Z3 could not decide whether both can be active)" if status == "unknown" else
                                     ", and no precedence orders them"),
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

    def effect_failures(self, only: set | None = None) -> list[Finding]:
        """Legal moves whose effect cannot complete (:mod:`checker.conflicts.effects`); with ``only``, of the
        moves it names (an action, or a power as ``"Card".name``)."""
        from checker.conflicts.effects import effect_failures
        return effect_failures(self, only)

    def broken_invariants(self, only: set | None = None) -> list[Finding]:
        """Legal moves that break an invariant (:mod:`checker.conflicts.inductive`); ``self.inductive``
        tallies, per invariant, the moves that keep it (unchanged, proven), break it or are undecided."""
        from checker.conflicts.inductive import broken_invariants
        return broken_invariants(self, only)

    def lifted_prohibitions(self, only: set | None = None) -> list[Finding]:
        """A card's prohibition lifted by its state (:mod:`checker.conflicts.lifted`)."""
        from checker.conflicts.lifted import lifted_prohibitions
        return lifted_prohibitions(self, only)

    def _power_decl(self, power) -> ast.PowerDecl:
        card = self.p.cards[self.engine.def_names[power.card]]
        return next(x for x in card.powers if x.name == power.name)

    def dead_rules(self) -> list[Finding]:
        out = []
        heads = [(rule, head) for rule in self.p.rules.values() for head in rule.heads if head.when is not None]
        # most rules apply somewhere: shown so in batches (checker.conflicts.batches), the rest asked one by one
        live = live_rules(self, upcoming(self, heads, lambda q: lambda scope: scope.dead(*q)) if self.batches else [])
        for rule, head in heads:
            if not self._mine(out, lambda scope: scope.dead(rule, head)) or id(head) in live:
                continue
            enc = self.encoder()
            name = head.pattern.name
            if name in self.p.actions:
                params = self.p.actions[name].params
            else:
                params = self.p.quantities[name].params

            def encode(enc, params=params[:len(head.pattern.binders)], rule=rule, head=head, name=name):
                args, domain, cond = self.conditions.applies(enc, rule, head, name, params)
                return [*domain, cond], args
            cards = (rule.card,) if rule.card else ()
            # one a batch could not decide is asked first on the states with one copy of each card (a "yes" there
            # is its answer: it can apply), rather than twice to Z3's step limit on all of them first
            if id(head) in self.undecided and applies_with_one_copy(self, lambda e: encode(e)[0], cards):
                continue
            narrower = None
            if id(head) in self.too_large:          # too large in its batch, so alone: asked narrowed at once
                found, narrower = narrowed(self, encode, rule.name, name if name in self.p.actions else None, cards)
                if found:
                    continue
            try:
                (*domain, cond), args = encode(enc)
            except Unsupported as exc:
                why = exc.located()
                if isinstance(exc, TooLarge):       # asked again with the search narrowed: a state found settles it
                    if narrower is None:
                        found, narrower = narrowed(self, encode, rule.name, name if name in self.p.actions else None,
                                                  cards)
                        if found:
                            continue
                    why = f"{why}; {narrower}"
                out.append(Finding("unknown", f"cannot tell whether {rule.name} can ever apply: cannot encode "
                                              f"it ({why})", (rule.name,), (head.span,), _cites(rule), unknown=why))
                continue
            # a state where it applies, whose cards (the rule's own, and those out of their start zone) some
            # selection the constraints allow has at the state's player count
            status, _, reason = self.solve(enc, *domain, cond, legal=True, cards=cards)
            at = f" with {self.players} players" if self.players else ""
            if status == "unknown":
                out.append(Finding("unknown", f"cannot tell whether {rule.name} can ever apply", (rule.name,),
                                   (head.span,), _cites(rule), unknown=reason))
            elif status == "unsat":
                out.append(Finding("dead-rule", f"{rule.name} can never apply{at}: no well-formed state meets "
                                                f"its condition", (rule.name,), (head.span,), _cites(rule)))
            elif self.legality.startswith(ILLEGAL):
                forbid = self.forbidden
                out.append(Finding("dead-rule", f"{rule.name} can never apply{at}: it applies only in games the "
                                                f"configuration constraints forbid: "
                                                f"{', '.join(c.name for c in forbid) or 'all of them together'}",
                                   (rule.name, *(c.name for c in forbid)), (head.span, *(c.span for c in forbid)),
                                   _cites(rule) + tuple(q for c in forbid for q in _cites(c))))
            elif self.legality:
                out.append(Finding("unknown", f"cannot tell whether {rule.name} can apply in a game the "
                                              f"configuration constraints allow", (rule.name,), (head.span,),
                                   _cites(rule), unknown=self.legality))
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
                if h.kind in ("permit", "forbid") and h.pattern.name not in used and (self.scope is None or (
                        self.scope.dangling_rule(rule, h.pattern.name, _descendants(p, h.pattern.name)))):
                    out.append(Finding("dangling", f"{rule.name} is about {h.pattern.name}, which nothing does "
                                                   f"(no do, offer or can)", (rule.name,), (h.span,), _cites(rule)))
        for prec in p.precedences:
            for side in (prec.winner, prec.loser):
                if side.card is not None:
                    card = p.cards.get(side.card)
                    if (card is None or not any(x.name == side.name for x in card.powers)) and (
                            self.scope is None or self.scope.dangling_power(side, prec)):
                        out.append(Finding("dangling", f"precedence names {side}, a power \"{side.card}\" does not "
                                                       f"have", (str(side),), (side.span,)))
        return out + escapes(p, lambda name: _descendants(p, name), self.scope)

def _cites(rule: ast.RuleDecl | ast.ConstraintDecl) -> tuple:
    return tuple((rule.name, c.quote) for c in rule.cites)


def _power_cites(pw: ast.PowerDecl, name: str) -> tuple:
    return tuple((name, c.quote) for c in pw.cites)


def _descendants(p, action: str) -> list[str]:
    out = [action]
    for name, decl in p.actions.items():
        if decl.parent and decl.parent[0] == action:
            out += _descendants(p, name)
    return out


def _collect_done(stmts, done: set) -> None:
    for s in stmts:
        for n in ast.walk(s):
            if isinstance(n, ast.Do):
                done.add(n.action)
            elif isinstance(n, ast.OfferAction):
                done.add(n.action)
            elif isinstance(n, ast.Can):
                done.add(n.action)


def _collect_can(e, done: set) -> None:
    for n in ast.walk(e):
        if isinstance(n, ast.Can):
            done.add(n.action)


# each kind of finding `find_conflicts` can be asked for, and the search's method that finds it, in its order
KIND_METHODS = {"contradiction": "contradictions", "competing-values": "competing_values",
                "order": "order_dependence", "dead-rule": "dead_rules", "dangling": "dangling"}


def find_conflicts(check_result, players: int | None = None, kinds=tuple(KIND_METHODS)) -> list[Finding]:
    """Every finding of the spec, resolved ones included (the docs' conflict page calls this)."""
    search = Search(check_result.typed, players)
    out: list[Finding] = []
    for kind, method in KIND_METHODS.items():
        if kind in kinds:
            out += getattr(search, method)()
    return out
