"""The engine: a compiled spec that plays games.

Legality follows the language's exceptions: an action is forbidden when a prohibition
about it (or about an action it refines) applies and no applicable permission that
*overrides* it (directly, or by a `precedence`) lifts it.  A permission and a
prohibition that apply together with no order between them are recorded as
*unordered* — the conflict finder reports them; play goes by the declared exceptions.
Two `value` rules that apply together with no order are an error: no value is right.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Callable, Sequence

from checker.front import ast
from checker.runtime.agents import RandomAgent
from checker.runtime.cards import Cancel, CardState, Redirected
from checker.runtime import codecache
from checker.runtime.codegen import Scope, names_in
from checker.runtime.quantities import quantity_functions
from checker.runtime.compile import _NOTHING, Compiler
from checker.runtime import statements  # noqa: F401  (registers the code of retarget, swap, each … chooses)
from checker.runtime.invariants import InvariantWatch
from checker.runtime.layout import card_values, layout_of
from checker.runtime.state import Abort, SpecRuntimeError, State, StopProc, places
from checker.runtime import outlook, shapes
from checker.runtime.fusion import fill_holders, selected_index
from checker.runtime.hoist import loop_lines
from checker.runtime.showing import Showing
from checker.runtime.spending import Spending
from checker.base.grids import grids_of
from checker.base.diagnostics import Reporter
from checker.front.configurations import game_player_counts
from checker.base.limits import MAX_PLAYERS, MAX_INT, MAX_LOG, MAX_OPTIONS, MAX_STEPS, MAX_WORK
from checker.front.typecheck import Checker, Typed

__all__ = ["Engine", "Decision", "Power", "GameResult", "MAX_STEPS"]
SLOTS = tuple(f"${i}" for i in range(64))   # the positional slots a rule's binders are read from


# One engine is built at a time in a process.  Building parses and compiles Python (ast.parse, compile), and
# CPython 3.11's AST constructor keeps its recursion depth in per-interpreter state, so two threads building at once
# can fail with "SystemError: AST constructor recursion depth mismatch" (seen on a Dask worker with two threads,
# `simulate --cluster`).  The code cache (checker.runtime.codecache) is shared by the builds too.
_BUILDING = threading.RLock()


@dataclasses.dataclass
class Power:
    name: str
    card: int                 # definition id
    window: str | None
    names: tuple[str, ...]
    limit: str
    mandatory: bool
    requires: Callable | None
    body: Callable
    span: object


@dataclasses.dataclass
class Decision:
    """One decision point: ``player`` picks one of ``options`` (values); ``labels()`` says them in French."""

    player: int
    prompt: str
    options: Sequence
    label: Callable
    optional: bool = False
    secret: bool = False
    engine: "Engine | None" = None
    site: object = None       # the statement asking (Choose, ChooseSubset, Offer) or the reacting Power
    env: dict | None = None   # its local names, as they are when it asks (live: copy to keep)
    chosen: Sequence = ()     # `each … chooses`: (player, value) of the players asked before, in secret, in order
    state: str | None = None  # the state's digest as the engine logs it (recording), for a replay to compare
    shown: list | None = None  # labels(), once said

    @property
    def view(self) -> dict:
        """What ``player`` may see of the game now (see :meth:`Engine.view`)."""
        return self.engine.view(self.player) if self.engine else {}

    def labels(self) -> list[str]:
        if self.shown is None:
            self.shown = [self.label(o) for o in self.options] + (["(rien)"] if self.optional else [])
        return self.shown


def _yes_no(value) -> str:
    return "oui" if value else "non"


@dataclasses.dataclass
class GameResult:
    scores: dict[int, int]
    winners: list[int]
    decisions: int          # every decision point, forced ones included
    moves: int              # the decisions an agent was asked to make (two or more options)
    rounds: int
    events: list[dict]


class Engine(Showing, Spending):
    def __init__(self, typed: Typed):
        with _BUILDING:
            self._build(typed)

    def _build(self, typed: Typed) -> None:
        self.typed = typed
        self.program = p = typed.program
        self.st: State | None = None
        self.agents: list = []
        self.events: list[dict] = []
        self.recording = True
        self.digests = True             # recording: each decision's event keeps a digest of the state
        self.observer: Callable[[Decision], None] | None = None
        self.round_observer: Callable[[], None] | None = None   # called as each round starts, before it counts
        self.decisions = 0
        self.moves = 0
        self.choices: list[int] = []    # every answer an agent gave in this game, in order (forced ones are not)
        self.setup: tuple = ()          # (selection, players, seed) of this game
        self.work = 0           # loop iterations and aggregate elements since the last decision (MAX_WORK)
        self.logged = 0         # entries of the log, a decision counting its options too (MAX_LOG)
        self._qfilled: list[dict] = []  # the quantity caches filled since the state's version _qversion
        self._qcaches: dict[str, dict] = {}     # quantity -> its cache (the quantities cached per version)
        self._scaches: list[dict] = []  # the caches of static quantities (see codegen.is_static), for one game
        self._qversion = -1
        self.defs: list[int] = []       # card instance -> definition; refilled by each game, never replaced
        self.present: set[int] = set()  # the definitions with a physical card in this game; likewise
        self.free_cards: frozenset = frozenset()    # this game's card values with powers outside windows (Layout.free)
        self.grids = grids_of(p)
        self.resolve_type = Checker(p, Reporter()).resolve_type
        self._index_definitions()
        self.max_players = max(game_player_counts(p) or [MAX_PLAYERS])
        self.seats: tuple[int, ...] = ()
        self.holder_tables: dict[str, tuple[dict, dict]] = {}     # zone -> fusion.holder_tables, for each game
        self.instances: dict[int, list[int]] = {}
        self.selected: dict[str, tuple[int, ...]] = {}
        self._layouts: dict[tuple, object] = {}     # selection -> its runtime.layout.Layout
        self._sel_specs: list[tuple[str, dict | None]] = []     # (kind, attribute table or None): selection_index
        self.sel_index: list[dict] = []     # each game's selected cards by definition or attribute (runtime.fusion)
        self._names: dict[tuple[str, str], str] = {}     # (what, name) -> its generated function's name
        self._attr_tables: dict[str, dict] = {}
        self._card_attr_tables: dict[str, dict] = {}    # attr -> card value -> value: card_attr_table
        self._reactions: dict[str, list] = {}
        self.listening: frozenset[str] = frozenset()     # the windows a card of this game reacts to (start)
        self.var_defaults = {n: self._constant(v.default) if v.default is not None else None
                             for n, v in p.vars.items()}
        self.tables = {n: {tuple(self._constant(k) for k in row.keys): self._constant(row.value) for row in t.rows}
                       for n, t in p.tables.items()}
        self.compiler = c = Compiler(self)
        c.gen.ns.update({"MAX_STEPS": MAX_STEPS, "MAX_OPTIONS": MAX_OPTIONS, "MAX_INT": MAX_INT,
                         "MAX_WORK": MAX_WORK, "SPEND": self.spend, "RANGE": self.range_of})
        self.cards = CardState(self)
        self.procedures, self.actions = {}, {}
        for n, a in p.actions.items():
            self.actions[n] = ([x.name for x in a.params], a.parent[0] if a.parent else None, None)
        self._compile_rules()         # before the bodies: an offer inlines the legality tests
        self.watch = InvariantWatch(self, p.invariants())     # before the bodies: their writes raise State.dirty
        game = {f.name: f.values[0] for f in p.game.fields} if p.game else {}
        self.flow = game["flow"].id if "flow" in game else None
        self.turn_proc = game["turn"].id if "turn" in game else None
        self.round_proc = game["round"].id if "round" in game else None
        self.preconditions = {}         # procedure -> (its `requires` over its arguments by position, its source)
        for n, proc in p.procedures.items():     # each its own entry (counters, `stop`): see Compiler.entry_lines
            c.context, c.bound = n, frozenset(x.name for x in proc.params)
            params = [x.name for x in proc.params]
            if proc.requires is not None:
                self.preconditions[n] = c.precondition(n, proc)
            self.procedures[n] = (params, c.body(proc.body, params, (self.procedure_name(n), c.entry_lines(n))))
        for n, a in p.actions.items():
            c.context = n
            self.actions[n] = ([x.name for x in a.params], a.parent[0] if a.parent else None,
                               c.body(a.body, [x.name for x in a.params]) if a.body is not None else None)
        self._compile_powers()
        self.cards.compile_hooks()
        resolver = Checker(p, Reporter())
        self.param_types = {n: [resolver.resolve_type(x.type) for x in a.params] for n, a in p.actions.items()}
        self._compile_entries()
        self.score = game["score"].id if "score" in game else None
        self.tiebreak = game["tiebreak"].id if "tiebreak" in game else None
        self.controllers = {k.name: k.controller[0] for k in p.kinds.values() if k.controller}
        self.starts = {k.name: k.start[0] for k in p.kinds.values() if k.start}
        self.invariants = [(inv, c.gen.env_function(inv.when, Scope({})) if inv.when is not None else None,
                            c.gen.env_function(inv.require, Scope({})))
                           for inv in p.invariants()]
        self.watch.bind(self.invariants, self)
        codecache.flush()               # what was compiled anew, for the next process (checker.runtime.codecache)

    # ---------------------------------------------------------------- compile time
    def _index_definitions(self) -> None:
        p = self.program
        self.def_ids: dict[str, int] = {}
        self.def_names: dict[int, str] = {}
        self.def_kind: dict[int, str] = {}
        self.card_attrs: dict[int, dict] = {}
        for i, card in enumerate(p.cards.values()):
            key = -(i + 1)
            self.def_ids[card.name] = key
            self.def_names[key] = card.name
            self.def_kind[key] = card.kind
        # any card value -> its definition: a physical card (refilled by each game), a definition, none
        self._def_base = {None: None, **{key: key for key in self.def_names}}
        self.def_of: dict = dict(self._def_base)
        for card in p.cards.values():
            attrs = {"name": card.name}
            for a in p.kinds[card.kind].attrs:
                attrs[a.name] = self._constant(a.default) if a.default is not None else None
            for v in card.attrs:
                attrs[v.name] = self._constant(v.value)
            self.card_attrs[self.def_ids[card.name]] = attrs

    def _constant(self, e: ast.Expr):
        if isinstance(e, (ast.IntLit, ast.BoolLit)):
            return e.value
        if isinstance(e, ast.NoneLit):
            return None
        if isinstance(e, ast.StrLit):
            return self.def_ids.get(e.value, e.value)
        if isinstance(e, ast.Name) and e.id in self.program.enum_members:
            return e.id
        if isinstance(e, ast.Unary) and e.op == "-":
            return -self._constant(e.operand)
        try:
            return shapes.constant(self, e)
        except KeyError:
            raise SpecRuntimeError("a default, attribute or table entry must be a constant", e.span) from None

    def _ancestors(self, action: str) -> list[str]:
        chain = []
        while action and action not in chain:
            chain.append(action)
            action = self.actions[action][1]
        return chain

    def _compile_rules(self) -> None:
        p, c = self.program, self.compiler
        self.defeats: set[tuple[str, str]] = p.defeats()
        self.power_order = [(str(prec.winner), str(prec.loser)) for prec in p.precedences
                            if prec.winner.card is not None]
        heads: dict[str, list] = {}
        self._heads: dict[str, list] = {}        # pattern name -> (rule, head) in declaration order
        for rule in p.rules.values():            # all of them before any code is generated: the generator
            for h in rule.heads:                 # inlines a quantity only if no rule gives it a value
                self._heads.setdefault(h.pattern.name, []).append((rule, h))
        for rule in p.rules.values():
            this = {"this": self.def_ids[rule.card]} if rule.card else {}
            for h in rule.heads:
                binders = tuple(b for b, _ in h.pattern.binders)
                entry = (rule.name, h.kind, binders,
                         self._slot_function(h.expr, binders, rule) if h.expr is not None else None,
                         self._slot_when(h, binders, rule), this)
                heads.setdefault(h.pattern.name, []).append(entry)
        self.rules_for = {a: [h for anc in self._ancestors(a) for h in heads.get(anc, ())] for a in self.actions}
        self.quantities = {}
        for name, q in p.quantities.items():
            own = heads.get(name, [])
            params = [x.name for x in q.params]
            default = c.gen.env_function(q.default, Scope({x: f"env[{x!r}]" for x in params}))
            self.quantities[name] = (params, default,
                                     [h for h in own if h[1] == "value"], [h for h in own if h[1] == "adjust"])
        self.allowed_fns = {a: self._allowed_function(a) for a in self.actions}
        self.quantity_fns = {}
        self._quantity_computes = {}
        for name in p.quantities:
            self._quantity_computes[name], self.quantity_fns[name] = quantity_functions(self, name)

    # Generated code calls quantities, legality tests and tables by these global names.
    def quantity_name(self, name: str) -> str:
        return self._names.setdefault(("q", name), self.compiler.gen.fresh("Q" + name))

    def allowed_name(self, name: str) -> str:
        return self._names.setdefault(("a", name), self.compiler.gen.fresh("A" + name))

    def _rule_scope(self, binders, rule, arg=lambda i: f"a{i}") -> Scope:
        fixed = {b: arg(i) for i, b in enumerate(binders)}
        if rule.card:
            fixed["this"] = repr(self.def_ids[rule.card])
        return Scope(fixed)

    def _slot_function(self, e: ast.Expr, binders, rule) -> Callable:
        """``env -> value`` of a rule's value, its binders read from the positional slots."""
        return self.compiler.gen.env_function(e, self._rule_scope(binders, rule, lambda i: f"env[{SLOTS[i]!r}]"))

    def _slot_when(self, head: ast.RuleHead, binders, rule) -> Callable | None:
        """``env -> bool``: does the head apply (see :meth:`CardState.when_source`)?  None: always."""
        if head.when is None and not any(self.cards.wrapping(rule)):
            return None
        g = self.compiler.gen
        src = self.cards.when_source(rule, head, self._rule_scope(binders, rule, lambda i: f"env[{SLOTS[i]!r}]"))
        name = g.fresh("w")
        return g.define(name, f"def {name}(env):\n    st = E.st\n    return {src}\n",
                        f"when rule {rule.name} applies ({head.span})")

    def legality_tests(self, action: str) -> list[tuple]:
        """The prohibitions about ``action`` in the order they are tested (its own first), each as
        (rule, head, [(rule, head) of every permission that lifts it])."""
        heads = [(rule, h) for anc in self._ancestors(action) for rule, h in self._heads.get(anc, ())]
        return [(rule, h, [(lr, lh) for lr, lh in heads if lh.kind == "permit" and (lr.name, rule.name) in self.defeats])
                for rule, h in heads if h.kind == "forbid"]

    def blocking_source(self, test: tuple, args: Sequence[str]) -> tuple[str, set[int]]:
        """Python source, true when the prohibition applies and no permission lifts it, its binders read
        from the Python names ``args``; and the positions of the arguments it reads."""
        parts, used = [], set()
        for rule, h in (test[:2], *test[2]):
            binders = tuple(b for b, _ in h.pattern.binders)
            parts.append(self.cards.when_source(rule, h, self._rule_scope(binders, rule, args.__getitem__)))
            if h.when is not None:
                used |= {i for read in (names_in(h.when),) for i, b in enumerate(binders) if b in read}
        if len(parts) == 1:
            return parts[0], used
        return f"({parts[0]}) and not ({' or '.join(parts[1:])})", used

    def _allowed_function(self, action: str) -> Callable:
        """One generated function per action: each prohibition in order, stopping at the first that blocks."""
        args = [f"a{i}" for i in range(len(self.actions[action][0]))]
        lines = [f"def {self.allowed_name(action)}({', '.join(args)}):", "    st = E.st"]
        for test in self.legality_tests(action):
            source = self.blocking_source(test, args)[0]
            loops = loop_lines("blocks", source)        # its any/all as loops: no generator resumed per element
            lines += [f"    {line}" for line in loops or ()]
            lines += [f"    if {'blocks' if loops else source}:  # {test[0].name}", "        return False"]
        lines.append("    return True")
        return self.compiler.gen.define(self.allowed_name(action), "\n".join(lines) + "\n",
                                        f"whether action {action} is allowed")

    def _compile_powers(self) -> None:
        p, c = self.program, self.compiler
        self.powers_of: dict[int, list[Power]] = {}
        self.window_powers: dict[str, list[Power]] = {}
        self.window_powers_of: dict[tuple[str, int], list[Power]] = {}    # (window, definition) -> powers
        for card in p.cards.values():
            key = self.def_ids[card.name]
            for pw in card.powers:
                window, names = (pw.window[0], tuple(n for n, _ in pw.window[1])) if pw.window else (None, ())
                c.context = f"{pw.name} ({card.name})"
                c.bound = frozenset(("me", "this", *names))
                requires = c.env_function(pw.requires) if pw.requires is not None else None
                power = Power(pw.name, key, window, names, pw.limit, pw.mandatory,
                              requires, c.body(pw.body, ("me", "this", *names)), pw.span)
                self.powers_of.setdefault(key, []).append(power)
                if window:
                    self.window_powers.setdefault(window, []).append(power)
                    self.window_powers_of.setdefault((window, key), []).append(power)
        c.context = ""
        self.free_powers = {key: free for key, powers in self.powers_of.items()         # a definition with none is absent
                            if (free := [pw for pw in powers if pw.window is None])}
        for powers in self.window_powers.values():
            self._order_powers(powers)

    def _compile_entries(self) -> None:
        """The functions generated code calls for `do act(…)`: the same as :meth:`do`, without looking anything
        up (a procedure's function, for `call proc(…)`, is its body: :meth:`Compiler.body` with an entry)."""
        g = self.compiler.gen
        for name in self.actions:
            args = [f"a{i}" for i in range(len(self.actions[name][0]))]
            lines = [f"def {self.do_name(name)}({', '.join(args)}):",
                     f"    if not {self.allowed_name(name)}({', '.join(args)}):", "        raise Abort()"]
            for ancestor in self._ancestors(name):
                params, _parent, body = self.actions[ancestor]
                if body is not None:
                    env = "{" + ", ".join(f"{x!r}: {a}" for x, a in zip(params, args)) + "}"
                    if self.cards.hooks.get(name):
                        lines += [f"    E.cards.perform({name!r}, ({''.join(a + ', ' for a in args)}), "
                                  f"lambda: {g.const(body, 'body')}({env}))"]
                    else:
                        lines += ["    try:", f"        {g.const(body, 'body')}({env})", "    except StopProc:",
                                  "        pass"]
                    break
            else:
                if self.cards.hooks.get(name):
                    lines += [f"    E.cards.perform({name!r}, ({''.join(a + ', ' for a in args)}), lambda: None)"]
            g.define(self.do_name(name), "\n".join(lines) + "\n", f"doing action {name}")

    def procedure_name(self, name: str) -> str:
        return self._names.setdefault(("p", name), self.compiler.gen.fresh("P" + name))

    def do_name(self, name: str) -> str:
        return self._names.setdefault(("d", name), self.compiler.gen.fresh("D" + name))

    def _order_powers(self, powers: list[Power]) -> None:
        """Apply `precedence "A".x over "B".y`: x moves before y (stable otherwise)."""
        def key(power: Power) -> str:
            return f'"{self.def_names[power.card]}".{power.name}'
        for _ in range(len(powers)):
            moved = False
            for winner, loser in self.power_order:
                names = [key(x) for x in powers]
                if winner in names and loser in names and names.index(winner) > names.index(loser):
                    powers.insert(names.index(loser), powers.pop(names.index(winner)))
                    moved = True
            if not moved:
                return

    # ---------------------------------------------------------------- rules at run time
    def allowed(self, action: str, args: tuple) -> bool:
        """Is the action legal?  Stops at the first prohibition nothing lifts (see ``legal``)."""
        return self.allowed_fns[action](*args)

    def new_version(self) -> None:
        """The state changed since the quantities were cached: forget them (generated code calls this)."""
        for cache in self._qfilled:
            cache.clear()
        self._qfilled.clear()
        self._qversion = self.st.version

    def invalidate(self) -> None:
        """Forget cached quantities: for tools and tests that change the state directly (State.plain_places)."""
        self._qversion = -1
        self.cards.forget()
        if self.st is not None:
            self.st.dirty = True
            self.st.plain_places()

    def legal(self, action: str, args: tuple) -> tuple[bool, list[str], list[str], list[tuple[str, str]]]:
        """(legal?, the prohibitions that forbid it, the permissions that apply, unordered pairs).
        An entry point for tools: the state may have been edited directly, so nothing cached is trusted."""
        self.invalidate()
        forbids, permits = [], []
        env = dict(zip(SLOTS, args))
        for rule, kind, binders, _value, when, this in self.rules_for[action]:
            env.update(this)
            if when is None or when(env):
                (forbids if kind == "forbid" else permits).append(rule)
        blocking, unordered = [], []
        for f in forbids:
            if any((q, f) in self.defeats for q in permits):
                continue
            blocking.append(f)
            unordered.extend((q, f) for q in permits if (f, q) not in self.defeats)
        return not blocking, blocking, permits, unordered

    def quantity(self, name: str, args: tuple):
        """The value of a quantity, computed from the state (cached until the state next changes)."""
        return self.quantity_fns[name](*args)

    def _quantity(self, name: str, args: tuple):
        """The value of a quantity, computed now (not cached)."""
        return self._quantity_computes[name](*args)

    def table(self, name: str, key: tuple, span=None):
        try:
            return self.tables[name][key]
        except KeyError:
            raise SpecRuntimeError(f"table {name} has no row for {key}", span) from None

    def seats_from(self, p: int, step: int = 1) -> tuple[int, ...]:
        """Every seat from ``p``: clockwise (to the left), or counter-clockwise with ``step`` -1."""
        n = self.st.n
        p, seats = p % n, self.seats            # the seats by slices (no generator): seats is range(n) as a tuple
        return seats[p:] + seats[:p] if step == 1 else seats[p::-1] + seats[:p:-1] if step == -1 \
            else tuple((p + step * i) % n for i in range(n))

    def selection_index(self, kind: str, table: dict | None) -> int:
        """The position in ``sel_index`` of the selected ``kind`` cards by definition (``table`` None) or by
        their value in ``table``; made for the game on, if one is, and for every game from now on."""
        for i, (k, t) in enumerate(self._sel_specs):
            if k == kind and t is table:
                return i
        self._sel_specs.append((kind, table))
        self.sel_index.append(selected_index(self.selected.get(kind, ()), table, self.def_of))
        return len(self._sel_specs) - 1

    def attr_table(self, attr: str) -> dict:
        """definition -> the value of its attribute ``attr`` (for the definitions that have it)."""
        table = self._attr_tables.get(attr)
        if table is None:
            table = self._attr_tables[attr] = {key: attrs[attr] for key, attrs in self.card_attrs.items()
                                               if attr in attrs}
        return table

    def card_attr_table(self, attr: str) -> dict:
        """Any card value of the game on (a physical card, a definition) -> its definition's ``attr`` (for those
        that have it): ``attr_table(attr)[def_of[card]]`` in one lookup, refilled by each game's start."""
        table = self._card_attr_tables.get(attr)
        if table is None:
            table = self._card_attr_tables[attr] = card_values(self.attr_table(attr), self.def_of)
        return table

    def attr_reader(self, attr: str, span) -> Callable:
        """card -> its attribute ``attr``; reading an attribute of none is a located error."""
        table, def_of = self.attr_table(attr), self.def_of

        def read(card):
            if card is None:
                raise SpecRuntimeError(f"reading .{attr} of none", span)
            return table[def_of[card]]
        return read

    # ---------------------------------------------------------------- doing things
    def do(self, action: str, args: tuple) -> None:
        if not self.allowed(action, args):
            raise Abort()
        self.perform(action, args)

    def perform(self, action: str, args: tuple) -> None:
        """Run the effect of ``action`` (its own, or the nearest ancestor's), after the windows opened
        `before` it (a reaction may cancel it: then Abort)."""
        effect = None
        for name in self._ancestors(action):
            params, _parent, body = self.actions[name]
            if body is not None:
                effect = body, dict(zip(params, args))
                break
        if not self.cards.hooks.get(action):
            if effect is not None:
                try:
                    effect[0](effect[1])
                except StopProc:
                    pass
            return
        self.cards.perform(action, args, (lambda: effect[0](effect[1])) if effect else (lambda: None))

    def entering(self, name: str, args: tuple | None = None) -> None:
        """Procedure ``name`` is called (with ``args``: a game where its `requires` does not hold there stops): the
        turn and round counters (and the round's event) move on."""
        if args is not None and name in self.preconditions and not self.preconditions[name][0](*args):
            self.unmet(name)
        if name == self.turn_proc:
            self.st.turn += 1
        elif name == self.round_proc:
            if self.round_observer is not None:
                self.round_observer()
            self.st.round += 1
            self.event("round", self.program.procedures[name].span, number=self.st.round)

    def unmet(self, name: str):         # procedure ``name`` is called where its `requires` does not hold
        raise SpecRuntimeError(f"procedure {name} is called where its precondition (requires) does not hold",
                               self.program.procedures[name].requires.span)

    def call(self, name: str, args: tuple) -> None:
        self.procedures[name][1](*args)        # it counts the turn or round itself, and ends at `stop`

    def controller(self, card: int):
        q = self.controllers.get(self.def_kind[self.def_of[card]])
        return self.quantity_fns[q](card) if q else None

    def usable(self, power: Power, player: int, card: int, env: dict) -> bool:
        last = self.st.uses.get((player, card, power.name))
        if last is not None:
            limit = power.limit
            if limit == "once_per_game":
                return False
            if limit == "once_per_turn" and last[0] == self.st.turn:
                return False
            if limit == "once_per_round" and last[1] == self.st.round:
                return False
        return power.requires is None or bool(power.requires(env))

    def run_power(self, power: Power, player: int, card: int, env: dict) -> None:
        key = (player, card, power.name)
        before = self.st.uses.get(key)
        self.st.uses[key] = (self.st.turn, self.st.round)
        if self.recording:              # nobody reads the log: not even the card's name is shown
            self.event("power", power.span, player=player, card=self.show_card(card), power=power.name)
        try:
            power.body(env)
        except Redirected:              # `retarget`: the power is given back, its actor chooses again
            if before is None:
                del self.st.uses[key]
            else:
                self.st.uses[key] = before
        except (Abort, StopProc):
            pass

    def signal(self, window: str, args: tuple):
        """Open ``window``: every card with a controller (and active) reacts, in order, then every card
        imitating one that reacts.  The Cancel (truthy; a Retarget for `retarget`) when a reaction cancelled
        (the rest of the window is skipped), else False."""
        reactions = self._reactions.get(window, ())
        cards = self.cards
        active = cards.active
        if cards.imitators:
            reactions = [*reactions, *cards.reactions(window)]
        st = self.st
        uses = st.uses
        try:
            for power, card, controller in reactions:
                player = controller(card)
                if player is None:
                    continue
                if active and not cards.is_active(card):
                    continue
                env = {"me": player, "this": card}
                if power.names:
                    env.update(zip(power.names, args))
                if (player, card, power.name) in uses:       # used before: its limit may stop it
                    if not self.usable(power, player, card, env):
                        continue
                elif power.requires is not None and not power.requires(env):     # as usable() would say
                    continue
                if not power.mandatory:
                    yes = self.decide(player, f"utiliser {power.name} ({self.show_card(card)}) ?", (True, False),
                                      label=_yes_no, site=power, env=env)
                    if not yes:
                        continue
                self.run_power(power, player, card, env)
        except Cancel as closed:
            return closed           # truthy: a Retarget says the actor chooses again
        return False

    def offered_powers(self, card) -> list[Power]:
        """The powers `powers of card` offers: those without a window (see :class:`CardState`).  ``card``
        may be a physical card or, for a card named by a literal, its definition (a card nobody holds
        still has its own powers)."""
        if self.cards.active or self.cards.imitators:
            return self.cards.offered(card)
        return self.free_powers.get(self.def_of[card], ())

    def broken_invariants(self) -> list[ast.ConstraintDecl]:
        """The spec's invariants that do not hold in the current state."""
        return [inv for inv, when, require in self.invariants if (when is None or when({})) and not require({})]

    def decide(self, player: int, prompt: str, options: Sequence, optional: bool = False, secret: bool = False,
               label: Callable | None = None, site=None, env: dict | None = None, chosen: Sequence = ()):
        """Ask ``player``'s agent; a single forced option is taken without asking.  The generated code passes
        its arguments by position (a call with keywords costs more).
        ``observer``, when set, sees every decision point first, forced ones included.
        The spec's invariants are checked first: the spec breaking one is a located error."""
        self.work = 0
        self.decisions = decisions = self.decisions + 1
        if decisions > MAX_STEPS:
            raise SpecRuntimeError(f"the game took more than {MAX_STEPS:,} decisions (the limit of one game)",
                                   getattr(site, "span", None))
        if self.invariants:
            st = self.st                # every invariant when a var or zone one reads changed (st.dirty), else
            if st.dirty:                # those whose reads are not known (InvariantWatch.always), if any
                st.dirty = False
                broken = self.watch.check_every()
                if broken >= 0:
                    self._broken(self.watch.every[broken][0])
            elif self.watch.always:
                broken = self.watch.check_always()
                if broken >= 0:
                    self._broken(self.watch.always[broken][0])
        n = len(options)
        if self.observer is not None:
            decision = Decision(player, prompt, options, label or self.show, optional, secret, self, site, env, chosen)
            self.observer(decision)
        else:
            decision = None
            if n == 1 and not optional:
                return options[0]
            agent = self.agents[player]
            if agent.__class__ is RandomAgent and not self.recording:
                self.moves += 1             # it reads nothing but the count: no Decision made, and its pick is
                count = n + 1 if optional else n    # in range: nothing else to do; RandomAgent.pick inline
                if agent._inline and count:
                    bits, k = agent._bits, count.bit_length()
                    index = bits(k)
                    while index >= count:
                        index = bits(k)
                else:
                    index = agent.pick(count)
                self.choices.append(index)
                return options[index] if index < n else _NOTHING
        if n == 1 and not optional:
            return options[0]
        self.moves += 1
        agent = self.agents[player]
        if decision is None:
            decision = Decision(player, prompt, options, label or self.show, optional, secret, self, site, env, chosen)
        if self.recording and self.digests:     # before the agent looks
            from checker.runtime.replay import state_digest     # not imported by a start-up that records none
            decision.state = state_digest(self.st)
        index = agent.choose(decision)
        if not 0 <= index < n + (1 if optional else 0):
            raise SpecRuntimeError(f"agent of player {player + 1} chose option {index} of {n}")
        self.choices.append(index)
        if self.recording:
            if decision.state is None:
                self.event("decision", getattr(site, "span", None), player=player, prompt=prompt, options=decision.labels(), chosen=index,
                           secret=secret)
            else:
                self.event("decision", getattr(site, "span", None), player=player, prompt=prompt, options=decision.labels(), chosen=index,
                           secret=secret, state=decision.state)
        return options[index] if index < n else _NOTHING

    def _broken(self, inv: ast.ConstraintDecl):
        message = f" ({inv.message})" if inv.message else ""
        raise SpecRuntimeError(f"the game broke the invariant {inv.name}{message}", inv.span)

    def choose_subset(self, pool: list, low: int, high: int, who, at_random: bool, prompt: str, secret: bool,
                      label: Callable, site, env: dict, var: str) -> tuple:
        """`choose xs subset of …`: one element at a time, until ``high`` or until the chooser stops
        (allowed once ``low`` are chosen).  What is chosen so far is ``var`` in the decision's env."""
        high = min(high, len(pool))
        if low > len(pool):
            raise Abort()
        chosen: list = []
        while len(chosen) < high:
            if at_random:
                if len(chosen) >= low:
                    break
                pick = self.st.rng.choice(pool)
            else:
                env[var] = tuple(chosen)       # what is chosen so far: part of the decision point
                pick = self.decide(who, f"{prompt} ({len(chosen)}/{low}..{high})", pool,
                                   optional=len(chosen) >= low, secret=secret, label=label, site=site, env=env)
                if pick is _NOTHING:
                    break
            chosen.append(pick)
            pool.remove(pick)
        return tuple(chosen)

    # ---------------------------------------------------------------- a game
    def play(self, selection: dict[str, Sequence[str]], players: int, seed: int, agents: list) -> GameResult:
        """Play a whole game: set it up, run the game's flow, score it."""
        self.start(selection, players, seed, agents)
        try:
            self.call(self.flow, ())
        except RecursionError:      # the checker refuses recursion; a cycle stopped by power limits may still be deep
            raise SpecRuntimeError("procedures, actions and powers call each other too deeply (Python's "
                                   "recursion limit)") from None
        return self.result()

    def start(self, selection: dict[str, Sequence[str]], players: int, seed: int, agents: list) -> State:
        """Set a game up (cards in their start zones, vars at their defaults) without playing it."""
        p = self.program
        self.defs.clear()
        self.st = st = State(players, seed, self.defs)
        st.watched = self.watch.zones
        self.invalidate()
        for cache in self._scaches:
            cache.clear()
        self.seats = tuple(range(players))
        for zone, tables in self.holder_tables.items():     # the places of this game's seats (fusion.holder_tables)
            fill_holders(zone, self.seats, *tables)
        self.agents = agents
        self.events = []
        self.decisions = 0
        self.moves = 0
        self.choices = []
        self.setup = (selection, players, seed)
        self.work = 0
        self.logged = 0
        layout = layout_of(self, selection)
        self.defs[:] = layout.defs
        self.present.clear()
        self.present.update(layout.instances)
        self.instances, self.selected, self.free_cards = layout.instances, layout.selected, layout.free
        self.def_of.clear()
        self.def_of.update(layout.def_of)
        for attr, table in self._card_attr_tables.items():
            table.clear()
            table.update(layout.card_attrs(self, attr))
        self.sel_index = layout.index(self)
        self._reactions = layout.reactions
        self.cards.start()
        # the windows some card of this game may react to: a `signal` of another is skipped (no call)
        self.listening = frozenset(self.window_powers) if self.cards.imitators else layout.listening
        for name, var in p.vars.items():
            st.vars[name] = {} if var.index is not None else self.var_defaults[name]
        for name, zone in p.zones.items():
            st.zones[name] = places() if zone.index is not None else []
        layout.place(st)
        return st

    def result(self) -> GameResult:
        self.invalidate()
        st = self.st
        scores = {q: self.quantity(self.score, (q,)) for q in self.seats} if self.score else {}
        best = max(scores.values(), default=0)
        winners = [q for q, s in scores.items() if s == best]
        if self.tiebreak and len(winners) > 1:
            ties = {q: self.quantity(self.tiebreak, (q,)) for q in winners}
            winners = [q for q in winners if ties[q] == max(ties.values())]
        return GameResult(scores, winners, self.decisions, self.moves, st.round, self.events)

    # ---------------------------------------------------------------- showing values
    def event(self, kind: str, span=None, **data) -> None:
        """Log an entry; ``span``, where the spec writes it, locates the error if the log grows past its limit."""
        if self.recording:
            self.logged += 1 + len(data.get("options") or ())
            if self.logged > MAX_LOG:
                raise SpecRuntimeError(f"the game's log grew past {MAX_LOG:,} entries and options (the limit of one "
                                       f"game's log) at the entry written here: does the game come to its end?", span)
            self.events.append({"kind": kind, **data})

    def lookahead(self, player: int, option) -> int | None:
        """``player``'s score if the offered action ``option`` were taken now (see :func:`outlook.lookahead`)."""
        return outlook.lookahead(self, player, option)
