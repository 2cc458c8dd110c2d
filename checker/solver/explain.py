"""explain: the values that decide a condition, for `rulebook legal`'s explanations.

A condition (a rule's `when`, a choice's `where`, a power's `requires`, a `finish … when`) is split
at `and`, `or` and `not` into atoms; each is evaluated on the concrete state with the move's values
(:class:`~checker.solver.encode.Encoder` folds it to a constant).  The *decisive* atoms are those that
make the condition what it is: the true operands of a true `or`, the false ones of a false `and`,
every operand otherwise.  Each is shown with its value (``assassiné[c] = oui``); a comparison by the
values of its two sides (``trésor[p] = 2``, ``coût_de_construction(p, d) = 5``); a false `can` with
the prohibitions that forbid the action; and the names it reads with their values (``c = …``).
"""

from __future__ import annotations

from checker.front import ast
from checker.solver.encode import Encoder, Unsupported, is_const
from checker.front.types import BOOL

__all__ = ["explain"]

_COMPARED = ("<", "<=", ">", ">=", "==", "!=")
_LITERALS = (ast.IntLit, ast.BoolLit, ast.NoneLit, ast.StrLit)


def _value(enc: Encoder, e, env):
    """The constant ``e`` folds to, or None (a symbolic term, or a term that cannot be read here)."""
    try:
        v = enc.expr(e, env)
    except (Unsupported, KeyError, IndexError, TypeError):
        return None
    return None if not is_const(v) or isinstance(v, list) else v


def decisive(enc: Encoder, e, env) -> list[tuple[object, object]]:
    """The atoms of ``e`` that make it true or false, each with its value."""
    if isinstance(e, ast.Unary) and e.op == "not":
        return decisive(enc, e.operand, env)
    if isinstance(e, ast.Binary) and e.op in ("and", "or"):
        whole = _value(enc, e, env)
        sides = [(side, _value(enc, side, env)) for side in (e.left, e.right)]
        if whole is None:
            return []
        out = []
        for side, v in sides:
            # a true `or` is decided by its true operands, a false `and` by its false ones
            if v is None or (e.op == "or" and whole and not v) or (e.op == "and" and not whole and v):
                continue
            out += decisive(enc, side, env)
        return out
    v = _value(enc, e, env)
    return [] if v is None else [(e, v)]


def explain(enc: Encoder, e, env: dict) -> list[tuple[object, str]]:
    """(span or name, shown value) pairs: the names the decisive atoms read, then the atoms (or, for a
    comparison, its two sides)."""
    names: list[tuple[str, str]] = []
    shown: list[tuple[object, str]] = []
    seen: set = set()
    for atom, value in decisive(enc, e, env):
        for node in ast.walk(atom):
            if isinstance(node, ast.Name) and node.id in env and node.id not in seen and is_const(env[node.id]) \
                    and not isinstance(env[node.id], list) and enc.type_of(node) is not None:
                seen.add(node.id)
                names.append((node.id, enc.show(env[node.id], enc.type_of(node))))
        if isinstance(atom, ast.Binary) and atom.op in _COMPARED:
            for side in (atom.left, atom.right):
                if isinstance(side, _LITERALS) or isinstance(side, ast.Name) and side.id in env:
                    continue
                v = _value(enc, side, env)
                if v is not None and (side.span, v) not in seen:
                    seen.add((side.span, v))
                    shown.append((side.span, enc.show(v, enc.type_of(side))))
            continue
        text = enc.show(value, BOOL)
        if isinstance(atom, ast.Can) and not value:
            args = tuple(enc.expr(a, env) for a in atom.args)
            _, parts, _ = enc.legality(atom.action, args)
            blocking = [r.name for r, _h, applies, lifted, _l in parts
                        if is_const(applies) and applies and is_const(lifted) and not lifted]
            if blocking:
                text += f" ({', '.join(blocking)} {'forbids' if len(blocking) == 1 else 'forbid'} it)"
        shown.append((atom.span, text))
    return names + shown
