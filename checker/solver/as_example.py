"""A witness written as an `example` block: the situation of a state file (what `conflicts` and `diff` write
with ``--witnesses``) in the spec's own terms, and an expectation that pins what the rules do there.

An example's situation starts from the seeded setup of a configuration and says only what differs
(docs/examples.md), so the witness is compared with that setup: each var entry the witness gives that the
setup does not have becomes a `set` line, each card the witness places a `move` line (a copy ``Name#k``
is written by its name: the example places copies in order), the witness's `offer` an `at` line.  What the
witness leaves out comes from the setup, as in any example; its record of powers used (``uses``), its turn
and round are not written (an example cannot say them).

The expectation is what the rules given decide on the witness, judged as `rulebook legal` judges it: a designer
who chose the other behaviour flips it, and `rulebook test` then holds his rules to his choice.
"""

from __future__ import annotations

import json

from checker.front.configurations import select
from checker.front.examples import offer_locals, offer_of
from checker.front.types import BOOL, INT, PLAYER, TEXT, Coll, EnumT, GridT, KindT, Opt, RecordT, Ty
from checker.runtime.engine import Engine
from checker.solver.scopes import Scopes
from checker.solver.statefile import StateFileError, dump_state, load_move, load_state, site_label

__all__ = ["WitnessExample", "witness_example", "move_expectation", "render_blocks", "setup_state", "EXAMPLES_FILE",
           "conflict_examples", "diff_examples"]


class _First(Exception):
    def __init__(self, decision):
        self.decision = decision


def setup_state(result, engine: Engine, scopes: Scopes, players: int, configuration: str,
                added=()) -> dict | None:
    """The state file of the game ``configuration`` with ``players`` sets up (seeded), at its first decision; the
    cards ``added`` ((kind, name)) are in the game besides the configuration's, as `rulebook play --add` adds
    them.  None: the game asks no decision.  (An example's situation starts here: :mod:`checker.examples.run`.)"""
    program = result.program
    selection = select(program, program.configurations[configuration], players)
    cards = {kind: list(names) for kind, names in selection.cards.items()}
    for kind, name in added:
        if name not in cards.setdefault(kind, []):
            cards[kind].append(name)

    class First:
        def choose(self, decision):
            raise _First(decision)
    engine.start(cards, players, 0, [First()] * players)
    try:
        engine.call(engine.flow, ())
    except _First as stop:
        return dump_state(engine, stop.decision, scopes)
    return None


class WitnessExample:
    """One example block's text, and what its situation could not say (also in the text, as comments)."""

    def __init__(self, name: str, text: str, notes: list[str]):
        self.name, self.text, self.notes = name, text, notes


def witness_example(result, state: dict, name: str, expectations: list[str],
                    comments: list[str] = (), first: tuple = ()) -> WitnessExample:
    """The `example` block of the witness ``state`` on the checked rule set ``result``, named ``name``, ending with
    the ``expectations`` lines (written with :func:`move_expectation` or by the caller).  ``first``: the labels of
    the copies the expectations name (by their card's name, which an example reads as its first copy): they are
    placed before the other copies of their card."""
    writer = _Writer(result)
    lines, notes = writer.situation(state, first)
    body = [f"  # {' '.join(c.split())}" for c in comments] + [f"  # {n}" for n in notes]
    body += lines + [f"  {e}" for e in expectations]
    text = "\n".join([f"example {json.dumps(name, ensure_ascii=False)} {{", *body, "}"]) + "\n"
    return WitnessExample(name, text, notes)


def move_expectation(result, state: dict, move: dict) -> tuple[str, bool | None, list[str]]:
    """(the `expect` line, legal?, the rules that forbid it) for the move file ``move`` at ``state`` by the rules
    of ``result``, judged by Z3 as `rulebook legal` judges it (None: undecided, the line says `can` and a note)."""
    from checker.solver.legal import Legality, SolverUnknown
    from checker.solver.encode import Unsupported
    writer = _Writer(result)
    engine, scopes = writer.engine, writer.scopes
    loaded = load_state(engine, state, scopes)
    (kind, action, args), _ = load_move(loaded, move)
    decl = result.program.actions[action]
    call = f"{action}({', '.join(writer.expr(v, scopes.resolve(p.type)) for v, p in zip(args, decl.params))})"
    try:
        verdict = Legality(engine, scopes).check(loaded.point, (kind, action, args))
    except (SolverUnknown, Unsupported):
        return f"expect can {call}", None, []
    if verdict.legal:
        return f"expect can {call}", True, []
    rules = [r.name for r in verdict.reasons if r.name in result.program.rules]
    return f"expect not can {call}" + (f" by {', '.join(rules)}" if rules else ""), False, rules


def render_blocks(blocks: list[WitnessExample], header: list[str]) -> str:
    return "\n".join([*(f"# {h}" if h else "#" for h in header), ""] + [b.text for b in blocks])


class _Writer:
    def __init__(self, result):
        self.result, self.program = result, result.program
        self.engine = Engine(result.typed)
        self.engine.recording = False
        self.scopes = Scopes(result.typed)

    # ---------------------------------------------------------------- values as expressions
    def expr(self, value, ty: Ty) -> str:
        E = self.engine
        if value is None:
            return "none"
        if isinstance(ty, Opt):
            return self.expr(value, ty.inner)
        if ty == PLAYER:
            return f"Joueur {value + 1}"
        if ty == BOOL:
            return "true" if value else "false"
        if ty in (INT, TEXT):
            return json.dumps(value, ensure_ascii=False) if ty == TEXT else str(value)
        if isinstance(ty, KindT):
            definition = value if value < 0 else E.def_of[value]
            return json.dumps(E.def_names[definition], ensure_ascii=False)
        if isinstance(ty, EnumT):
            return str(value)
        if isinstance(ty, Coll):
            return "{" + ", ".join(self.expr(v, ty.elem) for v in value) + "}"
        if isinstance(ty, GridT):
            return self.cell(ty, *E.grids[ty.name].coordinates(value))
        if isinstance(ty, RecordT):
            fields = self.program.records[ty.name].fields
            return f"{ty.name}(" + ", ".join(self.expr(v, self.scopes.resolve(f.type))
                                             for v, f in zip(value, fields)) + ")"
        return json.dumps(value, ensure_ascii=False)

    def cell(self, ty: GridT, row: int, column: int) -> str:
        """A cell as `step`s from the centre (the grid's directions, clockwise, the first going up a row)."""
        members = [m.name for m in self.program.enums[self.program.grids[ty.name].directions[0]].members]
        up, right, down, left = members[:4]
        text = f"center({ty.name})"
        for count, direction in ((column, right if column > 0 else left), (row, down if row > 0 else up)):
            for _ in range(abs(count)):
                text = f"step({text}, {direction})"
        return text

    # ---------------------------------------------------------------- the situation
    def configuration(self, players: int) -> str | None:
        return next((name for name in self.program.configurations
                     if players in self.result.configurations.get(name, [])), None)

    def situation(self, state: dict, first: tuple = ()) -> tuple[list[str], list[str]]:
        program, resolve = self.program, self.scopes.resolve
        players = state["players"]
        configuration = self.configuration(players)
        lines = [f"  players {players}"]
        notes: list[str] = []
        if configuration is None:
            return lines, [f"no configuration is for {players} players: the situation cannot be written"]
        lines.append(f"  configuration {json.dumps(configuration, ensure_ascii=False)}")
        added = [(kind, name) for kind, names in state.get("selection", {}).items() for name in names
                 if name in program.cards]
        base = setup_state(self.result, Engine(self.result.typed), self.scopes, players, configuration, added) or {}
        # a card the witness selects beyond the configuration is in the example's game only where its situation names
        # it (checker.examples.run's named_cards): each zone holding one is written, even as the setup leaves it
        chosen = select(program, program.configurations[configuration], players).cards
        extra = {name for kind, name in added if name not in chosen.get(kind, ())}
        try:
            loaded = load_state(self.engine, state, self.scopes)
        except StateFileError as exc:
            return lines, [f"the witness does not load: {exc}"]
        vals = loaded.values
        problems: list = []
        # cards first: a `move` takes a card from wherever the setup put it; the copies named in ``first`` are placed
        # first (an example places a card's copies in order, and names the first by the card's name)
        moves: list[tuple[bool, str]] = []
        for zone_name, content in state.get("zones", {}).items():
            zone = program.zones.get(zone_name)
            if zone is None:
                continue
            entries = content.items() if isinstance(content, dict) else [(None, content)]
            before = base.get("zones", {}).get(zone_name)
            for key, cards in entries:
                same = before.get(key) if isinstance(before, dict) else before if key is None else None
                named = [c for c in cards if c.split("#")[0] in extra]
                if not cards or cards == same and not named:
                    continue
                if not zone.ordered:           # the cards the setup put there already stay
                    cards = [c for c in cards if c not in (same or ()) or c in named]
                    if not cards:
                        continue
                if not zone.ordered:
                    cards = sorted(cards, key=lambda c: c not in first)
                names = [self.expr(vals.by_label[c], KindT("")) if c in vals.by_label else json.dumps(c.split("#")[0])
                         for c in cards]
                where = zone_name
                if key is not None:
                    index = vals.read_key(key, resolve(zone.index), f"zones/{zone_name}", problems)
                    where = f"{zone_name}[{self.expr(index, resolve(zone.index))}]"
                shown = names[0] if len(names) == 1 else "{" + ", ".join(names) + "}"
                moves.append((not any(c in first for c in cards), f"  move {shown} to {where}"))
        lines += [line for _, line in sorted(moves, key=lambda m: m[0])]
        for var_name, value in state.get("vars", {}).items():
            var = program.vars.get(var_name)
            if var is None:
                continue
            ty = resolve(var.type)
            before = base.get("vars", {}).get(var_name)
            if var.index is None:
                if value != before:
                    lines.append(f"  set {var_name} = {self.expr(vals.read(value, ty, var_name, problems), ty)}")
                continue
            index_ty = resolve(var.index)
            default = vals.write(0 if var.counter else self.engine.var_defaults[var_name], ty)
            before = before if isinstance(before, dict) else {}       # the setup's state leaves defaults out
            for key, entry in value.items():
                if before.get(key, default) == entry:
                    continue
                index = vals.read_key(key, index_ty, f"vars/{var_name}", problems)
                lines.append(f"  set {var_name}[{self.expr(index, index_ty)}] = "
                             f"{self.expr(vals.read(entry, ty, var_name, problems), ty)}")
        at = self.at(state.get("decision") or {}, vals, problems, notes)
        if at is None and (state.get("decision") or {}).get("kind") not in (None, "offer"):
            notes.append(f"the witness stops at a {state['decision']['kind']} ({state['decision'].get('at')}), where "
                         f"an example's situation cannot: it starts at the setup's first decision")
        elif at is not None:
            lines.append(f"  {at}")
        if any("#" in c for zone in state.get("zones", {}).values()
               for cards in (zone.values() if isinstance(zone, dict) else [zone]) for c in cards):
            notes.append("a card's copies are placed in order: `move \"Name\"` twice places two copies")
        return lines, notes

    def at(self, decision: dict, vals, problems: list, notes: list) -> str | None:
        if decision.get("kind") != "offer":
            return None
        for name, procedure in self.program.procedures.items():
            site = offer_of(procedure)
            if site is None or site_label(site.span) != decision.get("at"):
                continue
            if offer_locals(procedure):         # `check` refuses an `at` there (docs/examples.md)
                notes.append(f"the witness stops at the offer of {name} ({decision.get('at')}), which reads "
                             f"{', '.join(offer_locals(procedure))}, bound by {name} itself: an example's `at` "
                             f"cannot stop there; it starts at the setup's first decision")
                return None
            names = decision.get("names", {})
            if any(p.name not in names for p in procedure.params):
                return None
            args = []
            for p in procedure.params:
                ty = self.scopes.resolve(p.type)
                args.append(self.expr(vals.read(names[p.name], ty, p.name, problems), ty))
            return f"at {name}({', '.join(args)})"
        return None


# ---------------------------------------------------------------- the files `conflicts` and `diff` write

EXAMPLES_FILE = "examples.rules"


def conflict_examples(result, findings) -> str:
    """The ``examples.rules`` of `rulebook conflicts --witnesses`: an example per finding whose witness is a move
    (an unresolved conflict, or one the spec settles), expecting what the rules given decide there."""
    blocks, left = [], []
    for f in findings:
        if f.witness is None:
            continue
        if f.move is None:
            left.append(f"{' / '.join(f.rules)} ({f.kind}): its witness is not a move an example can expect")
            continue
        try:
            line, legal, _ = move_expectation(result, f.witness, f.move)
        except (StateFileError, ValueError, KeyError) as exc:
            left.append(f"{' / '.join(f.rules)}: the witness does not load ({exc})")
            continue
        decided = {True: "the rules given allow the move here", False: "the rules given forbid the move here",
                   None: "Z3 could not decide the move here: the expectation is a guess"}[legal]
        name = f"{f.kind} {' / '.join(f.rules)}"
        blocks.append(witness_example(result, f.witness, name, [line], [
            f"rulebook conflicts: {f.message}"[:300], f"{decided}; if you chose the other behaviour, flip it "
            f"(`expect can …` / `expect not can … by rule`) and settle the conflict in your rules"],
            first=_labels(f.move)))
    return _file(blocks, left, "rulebook conflicts")


def diff_examples(result_b, differences) -> str:
    """The ``examples.rules`` of `rulebook diff --witnesses`: an example per legality or value difference, on rule
    set B (the one given with --with, or after --), expecting what B does."""
    blocks, left = [], []
    for d in differences:
        if d.witness is None:
            continue
        state = d.witness["b"]
        if d.kind == "legality" and d.move:
            try:
                line, _, _ = move_expectation(result_b, state, d.move["b"])
            except (StateFileError, ValueError, KeyError) as exc:
                left.append(f"{d.subject}: the witness does not load on B ({exc})")
                continue
        elif d.kind == "value" and d.call and _literal(d.sides.get("b")) is not None:
            line = f"expect {d.call} == {_literal(d.sides['b'])}"
        else:
            left.append(f"{d.subject} ({d.kind}): its witness is not a move or a value an example can expect")
            continue
        blocks.append(witness_example(result_b, state, f"diff {d.subject}", [line], [
            f"rulebook diff: {d.message}"[:300], "what B does here; A does otherwise"]))
    return _file(blocks, left, "rulebook diff")


def _labels(move: dict | None) -> tuple:
    """The card labels (``Name#k``, ``Name``) among a move file's arguments."""
    return tuple(a for a in (move or {}).get("args", ()) if isinstance(a, str))


def _literal(shown) -> str | None:
    """A value as `diff` shows it (a number, oui/non), as the language writes it; None for any other."""
    if isinstance(shown, str) and shown.lstrip("-").isdigit():
        return shown
    return {"oui": "true", "non": "false"}.get(shown) if isinstance(shown, str) else None


def _file(blocks: list[WitnessExample], left: list[str], tool: str) -> str:
    if not blocks and not left:
        return ""
    header = [f"Witnesses of `{tool}` written as examples: paste one into your house-rule file to pin the",
              "behaviour you chose, and `rulebook test SPEC YOUR-FILE` holds your rules to it (docs/examples.md).",
              *(f"not written: {x}" for x in left)]
    return render_blocks(blocks, header)
