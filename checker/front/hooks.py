"""Hook points of procedures, and the overlays' `extend procedure` spliced into them.

A procedure names its steps with `hook name { … }` (or an empty `hook name`) and the points of an offer
where options may be added with `hook name` among its items.  An overlay's `extend procedure p { before h
{…}  after h {…}  replace h {…}  only h when c  add to h {…} }` adds statements before or after a step,
replaces the step's own statements, runs them only when ``c`` holds, or adds options at an offer's point.

Once every file is collected, :func:`expand` splices the extensions into the procedures: a step becomes
its `before` statements, its own statements (or their replacement, inside an `if` for each `only`) and
its `after` statements, in the block it stands in; an offer's point becomes the options added there.
Every later pass (typecheck, interpreter, Z3 encoding, book) reads the spliced procedures, so the two
backends cannot read an extension differently, and no `HookStmt` or `OfferHook` survives collection.

Several extensions of one point apply in the order of the overlays (and of the items of one
`extend procedure`); a `precedence a over b` between two named extensions (`extend procedure p as a`)
puts ``a`` first.  Two extensions of the same point from different declarations that both write the
same var (`set`, `reset`), or both add the same action to an offer, or both replace the step, with no
precedence between them, are reported: their combined effect would depend on an order the designer did
not state (with a precedence, the first replacement stands).

``Program`` in the annotations is :class:`checker.front.program.Program`: its ``collect`` calls this module, which
therefore does not import it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from checker.front import ast
from checker.base.diagnostics import Note, Reporter
from checker.base.diagnostics import did_you_mean
from checker.base.source import Span

__all__ = ["HookPoint", "hook_points", "expand"]


@dataclass(frozen=True, slots=True)
class HookPoint:
    """A named point of a procedure: a `step` (`hook h { … }`) or an offer's `options` point."""
    procedure: str
    name: str
    what: str               # "step" | "options"
    span: Span


def hook_points(body: tuple, procedure: str) -> list[HookPoint]:
    """The hook points of a procedure's body, in the order they are written."""
    out = []
    for node in ast.walk(body):
        if isinstance(node, ast.HookStmt):
            out.append(HookPoint(procedure, node.name, "step", node.name_span))
        elif isinstance(node, ast.OfferHook):
            out.append(HookPoint(procedure, node.name, "options", node.span))
    return out


def expand(program: Program, reporter: Reporter) -> None:
    """Splice the program's procedure extensions into its procedures (see the module's docstring)."""
    names = _extension_names(program, reporter)
    order = _ordering(program, names, reporter)
    points: dict[str, dict[str, HookPoint]] = {}
    for name, proc in program.procedures.items():
        mine: dict[str, HookPoint] = {}
        for point in hook_points(proc.body, name):
            if point.name in mine:
                reporter.error("E0201", f"hook point '{point.name}' is defined twice in procedure '{name}'",
                               point.span, notes=[Note("first defined here", mine[point.name].span)])
            else:
                mine[point.name] = point
        points[name] = mine
    program.hook_points = {n: list(p.values()) for n, p in points.items() if p}
    # (procedure, point) -> [(extension, item)], in overlay order then by precedence
    added: dict[tuple[str, str], list[tuple[ast.ProcedureExtension, ast.Extension]]] = {}
    for ext in _sorted(program.extensions, order):
        if ext.procedure not in program.procedures:
            reporter.error("E0501", f"`extend procedure` names procedure '{ext.procedure}' that the rule set does "
                                    "not declare", ext.procedure_span, hint=did_you_mean(ext.procedure,
                                                                                          program.procedures))
            continue
        for item in ext.items:
            point = points[ext.procedure].get(item.point)
            if point is None:
                known = points[ext.procedure]
                hint = did_you_mean(item.point, known) or (
                    f"the points of '{ext.procedure}': {', '.join(known)}" if known else
                    f"'{ext.procedure}' has no hook point: its base must name one with `hook {item.point} {{ … }}`")
                reporter.error("E0501", f"procedure '{ext.procedure}' has no hook point '{item.point}'",
                               item.point_span, hint=hint)
                continue
            if (point.what == "options") != (item.where == "options"):
                want = "`add to`" if point.what == "options" else "`before` or `after`"
                reporter.error("E0301", f"'{item.point}' is {'an offer' if point.what == 'options' else 'a step'}"
                                        f" of '{ext.procedure}': extend it with {want}", item.point_span,
                               notes=[Note("the point is here", point.span)])
                continue
            added.setdefault((ext.procedure, item.point), []).append((ext, item))
    _clashes(added, order, reporter)
    for name, proc in list(program.procedures.items()):
        body = _splice(proc.body, name, added)
        if body is not proc.body:
            program.procedures[name] = dataclasses.replace(proc, body=body)
    _strip_elsewhere(program, reporter)


# ---------------------------------------------------------------- names and order

def _extension_names(program: Program, reporter: Reporter) -> dict[str, ast.ProcedureExtension]:
    names: dict[str, ast.ProcedureExtension] = {}
    for ext in program.extensions:
        if ext.name is None:
            continue
        if ext.name in names:
            reporter.error("E0201", f"extension '{ext.name}' is defined twice", ext.span,
                           notes=[Note("first defined here", names[ext.name].span)])
        elif ext.name in program.rules:
            reporter.error("E0201", f"extension '{ext.name}' has the name of a rule", ext.span,
                           notes=[Note("the rule is here", program.rules[ext.name].span)],
                           hint="a precedence names one or the other: rename the extension")
        else:
            names[ext.name] = ext
    return names


def _ordering(program: Program, names: dict, reporter: Reporter) -> set[tuple[str, str]]:
    """The (first, second) pairs of extension names the precedences state, transitively closed; the
    precedences between extensions leave ``program.precedences`` (they order no rule) for
    ``program.extension_precedences``."""
    pairs, kept = set(), []
    for prec in program.precedences:
        w, l = prec.winner, prec.loser
        if w.card is None and l.card is None and w.name in names and l.name in names:
            pairs.add((w.name, l.name))
            program.extension_precedences.append(prec)
        elif w.card is None and l.card is None and (w.name in names) != (l.name in names):
            other = l if w.name in names else w
            reporter.error("E0301", f"a precedence orders two extensions, or two rules; '{other.name}' is not an "
                                    "extension", other.span, hint=did_you_mean(other.name, names))
        else:
            kept.append(prec)
    program.precedences[:] = kept
    closed = set(pairs)
    changed = True
    while changed:
        changed = False
        for a, b in list(closed):
            for c, d in list(closed):
                if b == c and (a, d) not in closed:
                    closed.add((a, d))
                    changed = True
    for a, b in sorted(closed):
        if a == b:
            prec = next(p for p in program.extension_precedences if p.winner.name == a)
            reporter.error("E0303", f"the precedences between extensions make a cycle through '{a}'", prec.span)
    return closed


def _sorted(extensions: list[ast.ProcedureExtension], order: set) -> list[ast.ProcedureExtension]:
    """Overlay order, moved only where a precedence asks: an extension comes after every extension that
    has precedence over it (a stable topological sort; a cycle, reported, keeps the overlay order)."""
    left, out = list(extensions), []
    while left:
        pick = next((e for e in left if not any((o.name, e.name) in order for o in left if o is not e)), left[0])
        left.remove(pick)
        out.append(pick)
    return out


def _ordered(a: ast.ProcedureExtension, b: ast.ProcedureExtension, order: set) -> bool:
    return (a.name, b.name) in order or (b.name, a.name) in order


# ---------------------------------------------------------------- extensions that cannot both hold

def _writes(item: ast.Extension) -> dict[str, Span]:
    out: dict[str, Span] = {}
    for node in ast.walk(item.body):
        if isinstance(node, ast.SetVar):
            out.setdefault(node.target.name, node.span)
        elif isinstance(node, ast.Reset):
            out.setdefault(node.name, node.span)
    return out


def _options(item: ast.Extension) -> dict[str, Span]:
    return {o.action: o.span for o in item.body if isinstance(o, ast.OfferAction)} if item.where == "options" else {}


def _clashes(added: dict, order: set, reporter: Reporter) -> None:
    for (proc, point), items in added.items():
        for i, (ext_a, a) in enumerate(items):
            for ext_b, b in items[i + 1:]:
                if ext_a is ext_b or _ordered(ext_a, ext_b, order):
                    continue
                hint = ("name both extensions (`extend procedure p as name`) and declare which comes first: "
                        "`precedence first over second { }`")
                if a.where == b.where == "replace":
                    reporter.error("E0504", f"two extensions of '{proc}' both replace the step '{point}': only one "
                                            "can stand, and no precedence says which", b.span,
                                   notes=[Note("the other replacement is here", a.span)],
                                   hint="declare which stands: `precedence kept over dropped { }` (extensions named "
                                        "with `as`)")
                    continue
                for var, span in _writes(b).items():
                    if var in _writes(a):
                        reporter.error("E0504", f"two extensions of '{proc}' at '{point}' both change '{var}': the "
                                                "result depends on their order, which no precedence states", span,
                                       notes=[Note("the other extension changes it here", _writes(a)[var])], hint=hint)
                for action, span in _options(b).items():
                    if action in _options(a):
                        reporter.error("E0504", f"two extensions of '{proc}' both add '{action}' to the offer at "
                                                f"'{point}': it would be offered twice", span,
                                       notes=[Note("the other extension adds it here", _options(a)[action])],
                                       hint="keep one of them (`remove` the other overlay's, or write one option)")


# ---------------------------------------------------------------- splicing

def _splice(body: tuple, proc: str, added: dict) -> tuple:
    out, changed = [], False
    for s in body:
        if isinstance(s, ast.HookStmt):
            items = added.get((proc, s.name), [])
            out += [x for _, i in items if i.where == "before" for x in _splice(i.body, proc, added)]
            own = next((i.body for _, i in items if i.where == "replace"), s.body)
            own = _splice(own, proc, added)
            for _, guard in reversed([(e, i) for e, i in items if i.where == "only"]):
                own = (ast.If(guard.cond, own, (), guard.span),) if own else own
            out += own
            out += [x for _, i in items if i.where == "after" for x in _splice(i.body, proc, added)]
            changed = True
            continue
        new = _inner(s, proc, added)
        changed |= new is not s
        out.append(new)
    return tuple(out) if changed else body


def _inner(s, proc: str, added: dict):
    if isinstance(s, ast.If):
        then, else_ = _splice(s.then, proc, added), _splice(s.else_, proc, added)
        return s if then is s.then and else_ is s.else_ else dataclasses.replace(s, then=then, else_=else_)
    if isinstance(s, (ast.For, ast.Repeat)):
        body = _splice(s.body, proc, added)
        return s if body is s.body else dataclasses.replace(s, body=body)
    if isinstance(s, ast.Offer) and any(isinstance(i, ast.OfferHook) for i in s.items):
        items = []
        for item in s.items:
            if isinstance(item, ast.OfferHook):
                items += [o for _, x in added.get((proc, item.name), []) for o in x.body]
            else:
                items.append(item)
        return dataclasses.replace(s, items=tuple(items))
    return s


def _strip_elsewhere(program: Program, reporter: Reporter) -> None:
    """A hook point outside a procedure (an action's effect, a power) is an error; it is spliced out, so no
    later pass meets one."""
    def strip(body):
        hooks = [node for node in ast.walk(body) if isinstance(node, (ast.HookStmt, ast.OfferHook))]
        for node in hooks:
            reporter.error("E0301", f"hook point '{node.name}' is not in a procedure: only procedures have "
                                    "hook points", node.span, hint="move the step into a procedure it calls")
        return _splice(body, "", {}) if hooks else body
    program.rewrite_bodies(strip, procedures=False)
