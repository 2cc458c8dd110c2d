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
from typing import Callable, Sequence

from checker import ast
from checker.runtime.compile import _NOTHING, Compiler
from checker.runtime.state import Abort, EndTurn, SpecRuntimeError, State, StopProc
from checker.runtime.replay import state_digest
from checker.diagnostics import Reporter
from checker.typecheck import Checker, Typed
from checker.types import BOOL, INT, PLAYER, TEXT, Coll, EnumT, KindT, Opt, Ty

__all__ = ["Engine", "Decision", "Power", "GameResult", "MAX_STEPS"]

MAX_STEPS = 200_000     # decisions in one game: a game that runs longer is reported, not left running
SLOTS = tuple(f"${i}" for i in range(64))   # the positional slots a rule's binders are read from


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

    @property
    def view(self) -> dict:
        """What ``player`` may see of the game now (see :meth:`Engine.view`)."""
        return self.engine.view(self.player) if self.engine else {}

    def labels(self) -> list[str]:
        shown = [self.label(o) for o in self.options]
        return shown + (["(rien)"] if self.optional else [])


_MISSING = object()


class _FirstOption:
    """The agent used inside a look-ahead: always the first option."""

    def choose(self, decision) -> int:
        return 0


@dataclasses.dataclass
class GameResult:
    scores: dict[int, int]
    winners: list[int]
    decisions: int          # every decision point, forced ones included
    moves: int              # the decisions an agent was asked to make (two or more options)
    rounds: int
    events: list[dict]


class Engine:
    def __init__(self, typed: Typed):
        self.typed = typed
        self.program = p = typed.program
        self.st: State | None = None
        self.agents: list = []
        self.events: list[dict] = []
        self.recording = True
        self.observer: Callable[[Decision], None] | None = None
        self.decisions = 0
        self.moves = 0
        self._qcache: dict = {}
        self._qversion = -1
        self.defs: list[int] = []       # card instance -> definition; refilled by each game, never replaced
        self._index_definitions()
        self.compiler = c = Compiler(self)
        self.var_defaults = {n: self._constant(v.default) if v.default is not None else None
                             for n, v in p.vars.items()}
        self.tables = {n: {tuple(self._constant(k) for k in row.keys): self._constant(row.value) for row in t.rows}
                       for n, t in p.tables.items()}
        self.procedures, self.actions = {}, {}
        for n, proc in p.procedures.items():
            c.context = n
            self.procedures[n] = ([x.name for x in proc.params], c.block(proc.body))
        for n, a in p.actions.items():
            c.context = n
            self.actions[n] = ([x.name for x in a.params], a.parent[0] if a.parent else None,
                               c.block(a.body) if a.body is not None else None)
        self._compile_rules()
        self._compile_powers()
        resolver = Checker(p, Reporter())
        self.param_types = {n: [resolver.resolve_type(x.type) for x in a.params] for n, a in p.actions.items()}
        game = {f.name: f.values[0] for f in p.game.fields} if p.game else {}
        self.flow = game["flow"].id if "flow" in game else None
        self.turn_proc = game["turn"].id if "turn" in game else None
        self.round_proc = game["round"].id if "round" in game else None
        self.score = game["score"].id if "score" in game else None
        self.tiebreak = game["tiebreak"].id if "tiebreak" in game else None
        self.controllers = {k.name: k.controller[0] for k in p.kinds.values() if k.controller}
        self.starts = {k.name: k.start[0] for k in p.kinds.values() if k.start}

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
        raise SpecRuntimeError("a default, attribute or table entry must be a constant", e.span)

    def _ancestors(self, action: str) -> list[str]:
        chain = []
        while action and action not in chain:
            chain.append(action)
            action = self.actions[action][1]
        return chain

    def _compile_rules(self) -> None:
        p, c = self.program, self.compiler
        self.defeats: set[tuple[str, str]] = set()
        for rule in p.rules.values():
            for name, _ in rule.overrides:
                self.defeats.add((rule.name, name))
        self.power_order: list[tuple[str, str]] = []
        for prec in p.precedences:
            if prec.winner.card is None:
                self.defeats.add((prec.winner.name, prec.loser.name))
            else:
                self.power_order.append((str(prec.winner), str(prec.loser)))
        heads: dict[str, list] = {}
        for rule in p.rules.values():
            this = {"this": self.def_ids[rule.card]} if rule.card else {}
            for h in rule.heads:
                binders = tuple(b for b, _ in h.pattern.binders)
                c.slots = {b: SLOTS[i] for i, b in enumerate(binders)}   # conditions read positional slots
                entry = (rule.name, h.kind, binders,
                         c.expr(h.expr) if h.expr is not None else None,
                         c.expr(h.when) if h.when is not None else None, this)
                c.slots = {}
                heads.setdefault(h.pattern.name, []).append(entry)
        self.rules_for = {a: [h for anc in self._ancestors(a) for h in heads.get(anc, ())] for a in self.actions}
        # for the fast test: each action's prohibitions (its own first), and the permissions that lift each
        self.forbids_for = {a: [h for h in hs if h[1] == "forbid"] for a, hs in self.rules_for.items()}
        self.lifters = {(a, f[0]): [(q[0], q[2], q[4], q[5]) for q in hs if q[1] == "permit" and (q[0], f[0]) in self.defeats]
                        for a, hs in self.rules_for.items() for f in hs if f[1] == "forbid"}
        self.quantities = {}
        for name, q in p.quantities.items():
            own = heads.get(name, [])
            self.quantities[name] = ([x.name for x in q.params], c.expr(q.default),
                                     [h for h in own if h[1] == "value"], [h for h in own if h[1] == "adjust"])

    def _compile_powers(self) -> None:
        p, c = self.program, self.compiler
        self.powers_of: dict[int, list[Power]] = {}
        self.window_powers: dict[str, list[Power]] = {}
        for card in p.cards.values():
            key = self.def_ids[card.name]
            for pw in card.powers:
                window, names = (pw.window[0], tuple(n for n, _ in pw.window[1])) if pw.window else (None, ())
                c.context = f"{pw.name} ({card.name})"
                power = Power(pw.name, key, window, names, pw.limit, pw.mandatory,
                              c.expr(pw.requires) if pw.requires is not None else None, c.block(pw.body), pw.span)
                self.powers_of.setdefault(key, []).append(power)
                if window:
                    self.window_powers.setdefault(window, []).append(power)
        c.context = ""
        for powers in self.window_powers.values():
            self._order_powers(powers)

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
        env = dict(zip(SLOTS, args))         # one environment for every rule: binders are positional slots
        for rule, kind, binders, _value, when, this in self.forbids_for[action]:
            if this:
                env["this"] = this["this"]
            if when is None or when(env):
                for lifter, lbinders, lwhen, lthis in self.lifters.get((action, rule), ()):
                    if lthis:
                        env["this"] = lthis["this"]
                    if lwhen is None or lwhen(env):
                        break
                else:
                    return False
        return True

    def invalidate(self) -> None:
        """Forget cached quantities: for tools and tests that change the state directly."""
        self._qversion = -1

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
        st = self.st
        if st.version != self._qversion:
            self._qcache.clear()
            self._qversion = st.version
        key = (name, args)
        cached = self._qcache.get(key, _MISSING)
        if cached is not _MISSING:
            return cached
        value = self._quantity(name, args)
        if st.version == self._qversion:      # computing it changed nothing (quantities are pure)
            self._qcache[key] = value
        return value

    def _quantity(self, name: str, args: tuple):
        params, default, values, adjusts = self.quantities[name]
        env = dict(zip(params, args))
        chosen = None
        slots = dict(zip(SLOTS, args))
        for rule, _kind, binders, value, when, this in values:
            local = dict(slots, **this) if this else slots
            if when is None or when(local):
                if chosen is not None:
                    if (chosen[0], rule) in self.defeats:
                        continue
                    if (rule, chosen[0]) not in self.defeats:
                        raise SpecRuntimeError(f"rules '{chosen[0]}' and '{rule}' give {name} two values, "
                                               f"and no precedence says which wins")
                chosen = (rule, value, local)
        result = chosen[1](chosen[2]) if chosen else default(env)
        for rule, _kind, binders, amount, when, this in adjusts:
            local = dict(slots, **this) if this else slots
            if when is None or when(local):
                result += amount(local)
        return result

    # ---------------------------------------------------------------- doing things
    def do(self, action: str, args: tuple) -> None:
        if not self.allowed(action, args):
            raise Abort()
        self.perform(action, args)

    def perform(self, action: str, args: tuple) -> None:
        """Run the effect of ``action`` (its own, or the nearest ancestor's)."""
        for name in self._ancestors(action):
            params, _parent, body = self.actions[name]
            if body is not None:
                try:
                    body(dict(zip(params, args)))
                except StopProc:
                    pass
                return

    def call(self, name: str, args: tuple) -> None:
        params, body = self.procedures[name]
        if name == self.turn_proc:
            self.st.turn += 1
        elif name == self.round_proc:
            self.st.round += 1
            self.event("round", number=self.st.round)
        try:
            body(dict(zip(params, args)))
        except (StopProc, Abort):
            pass

    def controller(self, card: int):
        kind = self.def_kind[self.defs[card]]
        q = self.controllers.get(kind)
        return self.quantity(q, (card,)) if q else None

    def usable(self, power: Power, player: int, card: int, env: dict) -> bool:
        last = self.st.uses.get((player, card, power.name))
        if last is not None:
            if power.limit == "once_per_game":
                return False
            if power.limit == "once_per_turn" and last[0] == self.st.turn:
                return False
            if power.limit == "once_per_round" and last[1] == self.st.round:
                return False
        return power.requires is None or bool(power.requires(env))

    def run_power(self, power: Power, player: int, card: int, env: dict) -> None:
        self.st.uses[(player, card, power.name)] = (self.st.turn, self.st.round)
        self.event("power", player=player, card=self.show_card(card), power=power.name)
        try:
            power.body(env)
        except (Abort, StopProc):
            pass

    def signal(self, window: str, args: tuple) -> None:
        for power in self.window_powers.get(window, ()):
            for card in self.instances.get(power.card, ()):
                player = self.controller(card)
                if player is None:
                    continue
                env = {"me": player, "this": card, **dict(zip(power.names, args))}
                if not self.usable(power, player, card, env):
                    continue
                if not power.mandatory:
                    yes = self.decide(player, f"utiliser {power.name} ({self.show_card(card)}) ?", (True, False),
                                      label=lambda v: "oui" if v else "non", site=power, env=env)
                    if not yes:
                        continue
                self.run_power(power, player, card, env)

    def offer(self, player: int, items: list, env: dict, site=None) -> None:
        for _ in range(MAX_STEPS):
            options, pending = [], False
            for item in items:
                if item[0] == "action":
                    _, name, args, binders = item
                    self._offer_actions(name, args, binders, env, 0, options)
                elif item[0] == "powers":
                    _, source, many = item
                    cards = tuple(source(env)) if many else (source(env),)
                    for card in cards:
                        for power in self.powers_of.get(self.defs[card], ()):
                            if power.window is None:
                                penv = {"me": player, "this": card}
                                if self.usable(power, player, card, penv):
                                    options.append(("power", power, card, penv))
                                    pending = pending or power.mandatory
            for item in items:
                if item[0] == "finish" and not pending and (item[2] is None or item[2](env)):
                    options.append(("finish", item[1]))
            if not options:
                return
            pick = self.decide(player, "que faire ?", options, label=self.show_option, site=site, env=env)
            if pick[0] == "finish":
                return
            try:
                if pick[0] == "action":
                    self.perform(pick[1], pick[2])
                else:
                    self.run_power(pick[1], player, pick[2], pick[3])
            except Abort:
                pass
            except EndTurn:
                return
        raise SpecRuntimeError("an offer went on for too long")

    def _offer_actions(self, name, args, binders, env, depth, options) -> None:
        if depth == len(binders):
            values = tuple(a(env) for a in args)
            if self.allowed(name, values):
                options.append(("action", name, values))
            return
        var, coll = binders[depth]
        for x in tuple(coll(env)):
            env[var] = x
            self._offer_actions(name, args, binders, env, depth + 1, options)

    def decide(self, player: int, prompt: str, options: Sequence, *, optional: bool = False, secret: bool = False,
               label: Callable | None = None, site=None, env: dict | None = None):
        """Ask ``player``'s agent; a single forced option is taken without asking.
        ``observer``, when set, sees every decision point first, forced ones included."""
        self.decisions += 1
        if self.decisions > MAX_STEPS:
            raise SpecRuntimeError(f"the game took more than {MAX_STEPS} decisions")
        decision = None
        if self.observer is not None:
            decision = Decision(player, prompt, options, label or self.show, optional, secret, self, site, env)
            self.observer(decision)
        if len(options) == 1 and not optional:
            return options[0]
        self.moves += 1
        if decision is None:
            decision = Decision(player, prompt, options, label or self.show, optional, secret, self, site, env)
        state = state_digest(self.st) if self.recording else None     # before the agent looks
        index = self.agents[player].choose(decision)
        if not 0 <= index < len(options) + (1 if optional else 0):
            raise SpecRuntimeError(f"agent of player {player + 1} chose option {index} of {len(options)}")
        if self.recording:
            self.event("decision", player=player, prompt=prompt, options=decision.labels(), chosen=index,
                       secret=secret, state=state)
        return options[index] if index < len(options) else _NOTHING

    # ---------------------------------------------------------------- a game
    def play(self, selection: dict[str, Sequence[str]], players: int, seed: int, agents: list) -> GameResult:
        """Play a whole game: set it up, run the game's flow, score it."""
        self.start(selection, players, seed, agents)
        self.call(self.flow, ())
        return self.result()

    def start(self, selection: dict[str, Sequence[str]], players: int, seed: int, agents: list) -> State:
        """Set a game up (cards in their start zones, vars at their defaults) without playing it."""
        p = self.program
        self.defs.clear()
        self.st = st = State(players, seed, self.defs)
        self.seats = tuple(range(players))
        self.agents = agents
        self.events = []
        self.decisions = 0
        self.moves = 0
        self.instances: dict[int, list[int]] = {}
        self.selected: dict[str, tuple[int, ...]] = {}
        for kind in p.kinds:
            chosen = []
            for name in selection.get(kind, ()):
                key = self.def_ids[name]
                for _ in range(self.card_attrs[key].get("copies") or 1):
                    self.defs.append(key)
                    chosen.append(len(self.defs) - 1)
                    self.instances.setdefault(key, []).append(len(self.defs) - 1)
            self.selected[kind] = tuple(chosen)
        for name, var in p.vars.items():
            st.vars[name] = {} if var.index is not None else self.var_defaults[name]
        for name, zone in p.zones.items():
            st.zones[name] = {} if zone.index is not None else []
        for kind, zone in self.starts.items():
            for card in self.selected.get(kind, ()):
                st.put(card, zone, None, "top")
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
    def event(self, kind: str, **data) -> None:
        if self.recording:
            self.events.append({"kind": kind, **data})

    def lookahead(self, player: int, option) -> int | None:
        """``player``'s score if the offered action ``option`` were taken now (None: not an action).
        The state, the log and the agents are put back as they were; nested choices take the first option."""
        if option[0] != "action" or self.score is None:
            return None
        snap, saved = self.st.snapshot(), (self.recording, self.agents, self.decisions, self.moves, len(self.events))
        self.recording, self.agents = False, [_FirstOption()] * self.st.n
        try:
            self.perform(option[1], option[2])
            return self.quantity(self.score, (player,))
        except (Abort, StopProc, EndTurn):
            return None
        finally:
            self.st.restore(snap)
            self.recording, self.agents, self.decisions, self.moves = saved[:4]
            del self.events[saved[4]:]

    def view(self, player: int) -> dict:
        """The state as ``player`` may see it: public things whole; hidden things only where they are
        the player's own (indexed by that player); secret things only as a number of cards."""
        st, p = self.st, self.program
        seen: dict = {"player": player, "vars": {}, "zones": {}}
        for name, var in p.vars.items():
            value = st.vars[name]
            if var.visibility == "public" or (var.visibility == "hidden" and var.index is not None
                                              and var.index.name == "Player"):
                if isinstance(value, dict):
                    if var.visibility == "hidden":
                        value = {k: v for k, v in value.items() if k == player}
                    value = {self._view_key(var.index.name, k): v for k, v in value.items()}
                seen["vars"][name] = value
        for name, zone in p.zones.items():
            value = st.zones[name]
            own = zone.index is not None and zone.index.name == "Player"
            if isinstance(value, dict):
                seen["zones"][name] = {
                    self._view_key(zone.index.name, k): (
                        [self.show_card(c) for c in cards]
                        if zone.visibility == "public" or (zone.visibility == "hidden" and own and k == player)
                        else len(cards))
                    for k, cards in value.items()}
            else:
                seen["zones"][name] = [self.show_card(c) for c in value] if zone.visibility == "public" \
                    else len(value)
        return seen

    def _view_key(self, index_type: str, key):
        if index_type == "Player" or not isinstance(key, int):
            return key
        return self.show_card(key)

    def physical(self, card):
        """A card as an index: a physical card stays itself; a definition becomes its single copy in this
        game (a definition not in the game stays as it is, so it reads the default and matches nothing)."""
        if card is None or card >= 0:
            return card
        copies = self.instances.get(card)
        if not copies:
            return card
        if len(copies) > 1:
            raise SpecRuntimeError(f"\"{self.def_names[card]}\" has {len(copies)} copies in this game: "
                                   f"index by a physical card, not by its name")
        return copies[0]

    def card(self, name: str) -> int:
        """The first physical card of this game named ``name`` (for scenarios and tools)."""
        return self.instances[self.def_ids[name]][0]

    def show_card(self, card) -> str:
        return self.def_names[card if card < 0 else self.defs[card]]

    def show(self, value) -> str:
        """French text for a value whose type is not known here (logs pass typed values)."""
        if value is None:
            return "aucun"
        if isinstance(value, bool):
            return "oui" if value else "non"
        if isinstance(value, (tuple, list)):
            return ", ".join(self.show(v) for v in value) or "rien"
        if isinstance(value, int) and value < 0:
            return self.def_names.get(value, str(value))
        return str(value)

    def show_option(self, option) -> str:
        if option[0] == "finish":
            return option[1]
        if option[0] == "power":
            return f"{option[1].name} ({self.show_card(option[2])})"
        shown = [self.show_typed(v, t) for v, t in zip(option[2], self.param_types[option[1]])]
        return f"{option[1]}({', '.join(shown)})"

    def show_typed(self, value, ty: Ty) -> str:
        if value is None:
            return "aucun"
        if isinstance(ty, Opt):
            ty = ty.inner
        if ty == PLAYER:
            return f"Joueur {value + 1}"
        if isinstance(ty, KindT):
            return self.show_card(value)
        if isinstance(ty, Coll):
            return ", ".join(self.show_typed(v, ty.elem) for v in value) or "rien"
        if ty == BOOL:
            return "oui" if value else "non"
        if ty in (INT, TEXT) or isinstance(ty, EnumT):
            return str(value)
        return self.show(value)
