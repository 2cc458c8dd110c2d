"""What a card's state does to its powers and rules, and the windows opened before an action.

A kind may say when its cards work (``active: q``) and whose powers and rules a card also has
(``imitates: q``):

- a card that is not active has no powers (nothing is offered, nothing reacts) and its rules do not
  apply;
- a card A that imitates a card B also has B's powers, used with ``this`` being A, and B's rules that
  mention ``this``, read with ``this`` being A (a rule that does not mention ``this`` says the same
  thing whoever reads it).  A's copies of B's reactions take effect after every card's own reactions.

``before act(x…) signal w(args)`` opens ``w`` when a legal ``act`` (or a refinement of it) is about
to take effect; a reaction that runs ``cancel`` closes the window, and the action does not happen:
its ``do`` stops as an illegal one would.  A hook does not open its window again for an action done
inside the effect of the action it opened it for (a refinement whose effect does its parent).
"""

from __future__ import annotations

from checker.front import ast
from checker.runtime.codegen import Scope, names_in
from checker.runtime.state import Abort, StopProc

__all__ = ["CardState", "Cancel", "Retarget", "Redirected"]


class Cancel(Exception):
    """`cancel`: raised in a reaction, caught where the window was opened."""


class Retarget(Cancel):
    """`retarget`: a cancel that also gives the actor's power back (see :class:`Redirected`)."""


class Redirected(Abort):
    """The action a reaction retargeted: its `do` stops as a cancelled one does, and the power that did it
    catches this to give its use back (:meth:`checker.runtime.engine.Engine.run_power`)."""


class CardState:
    """The per-kind ``active`` and ``imitates`` settings of one engine, and its ``before`` hooks."""

    def __init__(self, engine):
        self.E = E = engine
        p = E.program
        self.active = {k.name: k.active[0] for k in p.kinds.values() if k.active}
        self.imitates = {k.name: k.imitates[0] for k in p.kinds.values() if k.imitates}
        self.hooks: dict[str, list] = {}      # action -> [(hook, window-args function)], ancestors' included
        self.firing: set[int] = set()         # the hooks whose action is taking effect now
        self.imitators: tuple[int, ...] = ()  # this game's physical cards of a kind that `imitates`
        self._imitating: tuple = ()             # (imitator, the quantity naming what it imitates), see start()
        self._copied: tuple = (-1, {})          # (state version, imitated definition -> its imitators)

    # ---------------------------------------------------------------- compile time
    def compile_hooks(self) -> None:
        E, g = self.E, self.E.compiler.gen
        own: dict[str, list] = {}
        for hook in E.program.hooks:
            binders = [b for b, _ in hook.binders]
            scope = Scope({b: f"args[{i}]" for i, b in enumerate(binders)})
            name = g.fresh("hook" + hook.window)
            source = f"def {name}(args):\n    st = E.st\n    return ({''.join(g.expr(a, scope) + ', ' for a in hook.args)})\n"
            own.setdefault(hook.action, []).append(
                (hook, g.define(name, source, f"the arguments of window {hook.window} for action {hook.action}")))
        self.hooks = {a: [h for anc in E._ancestors(a) for h in own.get(anc, ())] for a in E.actions}

    def wrapping(self, rule: ast.RuleDecl) -> tuple[bool, bool]:
        """(does the rule depend on its card being active?, is it copied to the cards imitating its card?)"""
        card = self.E.program.cards.get(rule.card) if rule.card else None
        if card is None:
            return False, False
        copies = card.kind in self.imitates and any(
            "this" in names_in(x) for h in rule.heads for x in (h.when, h.expr) if x is not None)
        return card.kind in self.active, copies

    def when_source(self, rule: ast.RuleDecl, head: ast.RuleHead, scope: Scope) -> str:
        """Python source, true when the head applies: its condition with ``this`` the rule's card — only
        while that card is active — or any card imitating it (see the module's docstring)."""
        g = self.E.compiler.gen
        active, copies = self.wrapping(rule)
        if not (active or copies):
            return "True" if head.when is None else g.expr(head.when, scope)
        t = g.fresh("t")
        inner = "True" if head.when is None else g.expr(head.when, scope.with_fixed("this", t))
        return f"any({inner} for {t} in E.cards.thises({self.E.def_ids[rule.card]}, {copies}))"

    # ---------------------------------------------------------------- a game
    def start(self) -> None:
        E = self.E
        self.firing = set()
        self.imitators = tuple(c for kind in self.imitates for c in E.selected.get(kind, ()))
        # (card, the quantity saying what it imitates) of each imitator: what imitated() looks up, once a game
        self._imitating = tuple((c, E.quantity_fns[self.imitates[E.def_kind[E.def_of[c]]]]) for c in self.imitators)
        self.forget()

    def is_active(self, card) -> bool:
        """Does the card work now?  A card named by its definition works while one of its copies does
        (or, when it is not in the game, when its definition does)."""
        E = self.E
        key = E.def_of[card]
        q = self.active.get(E.def_kind[key])
        if q is None:
            return True
        fn = E.quantity_fns[q]
        if card is not None and card < 0:
            copies = E.instances.get(card)
            if copies:
                return any(fn(c) for c in copies)
        return bool(fn(card))

    def imitated(self, card):
        """The definition of the card ``card`` imitates now, or None."""
        E = self.E
        q = self.imitates.get(E.def_kind[E.def_of[card]])
        return None if q is None else E.def_of[E.quantity_fns[q](card)]

    def forget(self) -> None:
        """Forget what was computed from the state (it was changed directly)."""
        self._copied = (-1, {})

    def copied(self) -> dict:
        """imitated definition -> the cards imitating it now (computed once per state of the game)."""
        version = self.E.st.version
        if self._copied[0] != version:
            out: dict = {}
            def_of = self.E.def_of
            for card, imitates in self._imitating:     # imitated(card), inline
                other = def_of[imitates(card)]
                if other is not None:
                    out.setdefault(other, []).append(card)
            self._copied = (version, out)
        return self._copied[1]

    def thises(self, key: int, copies: bool) -> list:
        """The values of ``this`` a rule of card ``key`` is read with now."""
        out = [key] if self.is_active(key) else []
        if copies:
            out += [a for a in self.copied().get(key, ()) if self.is_active(a)]
        return out

    def offered(self, card) -> list:
        """The powers without a window of ``card``: its own and those of the card it imitates."""
        E = self.E
        if not self.is_active(card):
            return []
        powers = E.free_powers.get(E.def_of[card], [])
        if card in self.imitators:
            other = self.imitated(card)
            if other is not None and other != E.def_of[card]:
                powers = [*powers, *E.free_powers.get(other, ())]
        return powers

    def reactions(self, window: str) -> list:
        """(power, card, controller function) of every card imitating one whose powers react to ``window``."""
        E, out = self.E, []
        for other, cards in self.copied().items():
            for power in E.window_powers_of.get((window, other), ()):
                out += [(power, card, E.controller) for card in cards if E.def_of[card] != other]
        return out

    # ---------------------------------------------------------------- before an action
    def before(self, action: str, args: tuple):
        """Open the windows of ``action``'s hooks; the hooks fired (to pass to :meth:`after`), or None when a
        reaction cancelled the action (Redirected when it retargeted it)."""
        fired = []
        for hook, window_args in self.hooks.get(action, ()):
            if id(hook) in self.firing:
                continue
            closed = self.E.signal(hook.window, window_args(args))
            if closed:
                self.after(fired)
                retarget = isinstance(closed, Retarget)
                self.E.event("retarget" if retarget else "cancel", action=action, window=hook.window)
                if retarget:
                    raise Redirected()
                return None
            fired.append(id(hook))
            self.firing.add(id(hook))
        return fired

    def after(self, fired) -> None:
        self.firing.difference_update(fired)

    def perform(self, action: str, args: tuple, effect) -> None:
        """Run ``effect`` (the action's effect) unless a hook's window cancels it (then Abort)."""
        fired = self.before(action, args) if self.hooks.get(action) else ()
        if fired is None:
            raise Abort()
        try:
            effect()
        except StopProc:
            pass
        finally:
            self.after(fired)
