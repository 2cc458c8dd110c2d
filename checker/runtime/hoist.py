"""Loop-invariant parts of an offer's legality tests, evaluated once per listing.

An offer lists its legal options by looping over the binders of each action (compile.py's
``_enumeration``) and testing every prohibition for every value.  Within one listing the state does
not change (legality tests and quantities are pure), so a part of a test that reads none of the loop's
names has one value for the whole listing.  :func:`memoize` rewrites a test's Python source so that each
such part (one worth caching: a call, or two subscripts and more) is computed where it was computed
before — the first time it is reached, in the same short-circuit position — and read back from a local
afterwards::

    (_h1 if _h1 is not MISSING else (_h1 := <the part>))

so nothing is evaluated that was not, nor earlier than it was: a part that fails, fails at the same
place.  The memo locals are reset to MISSING before each listing.
"""

from __future__ import annotations

import ast
from typing import Callable

__all__ = ["first_memo", "loop_lines", "memoize", "shared_key", "truth_lines"]

_NEVER = {"SPEND", "RANGE", "QNEW", "E"}     # work accounting, fresh versions, engine calls: evaluated as written
_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_BLOCKING = (ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom, ast.Starred)


def _facts(tree: ast.AST) -> dict[int, tuple[frozenset, bool, bool, int]]:
    """For every node of ``tree`` (by ``id``), what its subtree holds: the names it reads, whether it holds a
    node that must stay where it is (``_BLOCKING``), whether it holds a call, how many subscripts.  One pass
    from the leaves up, where testing every node with ``ast.walk`` walked each subtree again per ancestor."""
    order, todo = [], [tree]
    while todo:                     # parents before children; reversed, children before parents
        node = todo.pop()
        order.append(node)
        todo.extend(ast.iter_child_nodes(node))
    facts: dict[int, tuple[frozenset, bool, bool, int]] = {}
    for node in reversed(order):
        names: set[str] = {node.id} if isinstance(node, ast.Name) else set()
        blocked, call, subscripts = isinstance(node, _BLOCKING), isinstance(node, ast.Call), \
            int(isinstance(node, ast.Subscript))
        for child in ast.iter_child_nodes(node):
            c_names, c_blocked, c_call, c_subscripts = facts[id(child)]
            names |= c_names
            blocked, call, subscripts = blocked or c_blocked, call or c_call, subscripts + c_subscripts
        facts[id(node)] = (frozenset(names), blocked, call, subscripts)
    return facts


def shared_key(node: ast.AST | str, same: dict[str, str]) -> str:
    """The tree of ``node`` (:func:`ast.dump`) with each local of ``same`` replaced by the local it equals for
    the whole listing (an action's argument that is the offer's own player, say): two actions' tests with the
    same key have one value in one listing.  ``node`` is renamed where it is, dumped, and given its names back
    (a deep copy of each part cost more than the rest of the offer's compilation)."""
    tree = node if isinstance(node, ast.AST) else ast.parse(node, mode="eval")
    rename, bound = dict(same), 0
    undo: list[tuple[ast.AST, str, str]] = []       # (node, field, name it had)
    try:
        for n in ast.walk(tree):    # a comprehension's or lambda's own names: by position (fresh names differ)
            if isinstance(n, ast.comprehension):
                for t in ast.walk(n.target):
                    if isinstance(t, ast.Name):
                        rename[t.id], bound = f"_bound{bound}", bound + 1
            elif isinstance(n, ast.arguments):
                for a in n.args:
                    undo.append((a, "arg", a.arg))
                    rename[a.arg] = a.arg = f"_bound{bound}"
                    bound += 1
        for n in ast.walk(tree):
            if isinstance(n, ast.Name) and n.id in rename:
                undo.append((n, "id", n.id))
                n.id = rename[n.id]
        return ast.dump(tree)       # equal trees, equal keys: half the cost of unparsing them
    finally:
        for n, field, name in reversed(undo):
            setattr(n, field, name)


def memoize(source: str, varying: set[str], fresh: Callable[[], str], memos: list[str],
            shared: dict[str, str] | None = None, same: dict[str, str] | None = None) -> str:
    """``source`` (a Python expression) with its parts that read none of ``varying`` memoized; the memo
    locals made are appended to ``memos`` (to be set to MISSING before the listing).  With ``shared`` (the
    offer's memos by :func:`shared_key`, ``same`` its renaming), a part an earlier action of the offer
    memoized reads that action's memo (set to MISSING before the earlier action's listing, so before this
    one's, and computed by whichever reaches it first)."""
    tree = ast.parse(source, mode="eval")
    changed = False
    facts, outside = _facts(tree.body), varying | _NEVER

    def hoisted(node: ast.expr) -> bool:
        """Does the part read none of ``varying``, stay put, and cost more than reading a local back (a
        call, or two subscripts)?"""
        names, blocked, call, subscripts = facts[id(node)]
        if blocked or names & outside or isinstance(node, (ast.Name, ast.Constant)):
            return False
        return call or subscripts >= 2

    def visit(node: ast.AST) -> ast.AST:
        nonlocal changed
        if isinstance(node, ast.expr) and hoisted(node):
            changed = True
            key = None if shared is None else "part " + shared_key(node, same or {})
            memo = shared.get(key) if key is not None else None
            if memo is None:
                memo = fresh()
                memos.append(memo)
                if key is not None:
                    shared[key] = memo
            return ast.IfExp(
                test=ast.Compare(ast.Name(memo, ast.Load()), [ast.IsNot()], [ast.Name("MISSING", ast.Load())]),
                body=ast.Name(memo, ast.Load()),
                orelse=ast.NamedExpr(ast.Name(memo, ast.Store()), node))
        if isinstance(node, _SCOPES):       # a comprehension's own names: left as it is
            return node
        for field, value in ast.iter_fields(node):
            if isinstance(value, list):
                setattr(node, field, [visit(v) if isinstance(v, ast.AST) else v for v in value])
            elif isinstance(value, ast.AST):
                setattr(node, field, visit(value))
        return node

    tree.body = visit(tree.body)
    if not changed:
        return source
    return ast.unparse(tree)        # unparsing reads no locations: the new nodes need none


def first_memo(source: str) -> tuple[str, str, str] | None:
    """When the first thing ``source`` (a test :func:`memoize` rewrote) evaluates is one of its memos:
    (the memo, the part it holds, ``source`` reading the memo plainly).  A loop whose body starts with that
    test computes the part just before its first element (once, as its first element would) and reads the
    local in every element: nothing is evaluated earlier than it was."""
    tree = ast.parse(source, mode="eval")
    parent, field, node = tree, "body", tree.body
    while True:
        if isinstance(node, ast.IfExp) and isinstance(node.orelse, ast.NamedExpr) \
                and isinstance(node.body, ast.Name) and isinstance(node.test, ast.Compare) \
                and isinstance(node.test.left, ast.Name) and node.test.left.id == node.body.id \
                and node.orelse.target.id == node.body.id:
            break
        step = {ast.Compare: "left", ast.BinOp: "left", ast.UnaryOp: "operand", ast.IfExp: "test",
                ast.Subscript: "value", ast.Attribute: "value", ast.Call: "func"}.get(type(node))
        if isinstance(node, ast.BoolOp):
            parent, field, node = node.values, 0, node.values[0]
            continue
        if step is None:
            return None
        parent, field, node = node, step, getattr(node, step)
    memo, part = node.body.id, ast.unparse(node.orelse.value)
    if isinstance(parent, list):
        parent[field] = ast.Name(memo, ast.Load())
    else:
        setattr(parent, field, ast.Name(memo, ast.Load()))
    return memo, part, ast.unparse(tree)


def truth_lines(target: str, source: str) -> list[str]:
    """Statements setting ``target`` to ``bool(source)`` (one line each).  When ``source`` is ``any(…)`` or
    ``all(…)`` of one generator (one ``for``, its ``if``\\ s, nothing nested), a loop instead: the same elements tested in the same order, the
    same stop at the first that decides, each test's truth taken as ``any``/``all`` take it; no generator made
    and resumed per element.  The loop's name is a fresh generated one (the comprehension's own scope is
    not needed)."""
    tree = ast.parse(source, mode="eval").body
    if isinstance(tree, ast.IfExp):     # bool(a if c else b): bool(a) if c else bool(b)
        return [f"if {ast.unparse(tree.test)}:", *("    " + line for line in truth_lines(target, ast.unparse(tree.body))),
                "else:", *("    " + line for line in truth_lines(target, ast.unparse(tree.orelse)))]
    if not (isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in ("any", "all")
            and len(tree.args) == 1 and not tree.keywords and isinstance(tree.args[0], ast.GeneratorExp)):
        return [f"{target} = bool({source})"]
    gen = tree.args[0]
    if len(gen.generators) != 1 or gen.generators[0].is_async \
            or any(isinstance(n, _BLOCKING + _SCOPES) for n in ast.walk(gen) if n is not gen):
        return [f"{target} = bool({source})"]
    loop, found = gen.generators[0], tree.func.id == "any"
    test = ast.unparse(gen.elt) if found else f"not ({ast.unparse(gen.elt)})"
    lines = [f"{target} = {not found}", f"for {ast.unparse(loop.target)} in {ast.unparse(loop.iter)}:"]
    for cond in loop.ifs:
        lines += [f"    if not ({ast.unparse(cond)}):", "        continue"]
    return lines + [f"    if {test}:", f"        {target} = {found}", "        break"]


def loop_lines(target: str, source: str) -> list[str] | None:
    """Statements setting ``target`` to ``bool(source)``, each ``any(…)``/``all(…)`` of one generator that only
    the truth of ``source`` reads (the whole, an operand of ``and``/``or``/``not``, a branch of ``… if … else …``,
    the element of another such) a loop instead: the same elements tested in the same order, the same
    short-circuits, no generator made and resumed per element (nested ones included, where :func:`truth_lines`
    takes one).  None when ``source`` holds none (its plain test costs less).  ``source`` is generated code (one
    line): its parts are copied from it, and a part holds a scope when its text has one's mark (``for``,
    ``lambda``, ``:=``: a false mark only keeps a generator as it is)."""
    if "any(" not in source and "all(" not in source:      # most tests: not parsed (building an engine costs less)
        return None
    tree = _Source(source)
    if not tree.scoped(tree.root) or not tree.convertible(tree.root):
        return None
    return tree.assign(target, tree.root, [0])


class _Source:
    _MARKS = (" for ", "lambda", ":=")

    def __init__(self, source: str):
        self.bytes = source.encode()
        self.root = ast.parse(source, mode="eval").body

    def text(self, node: ast.AST) -> str:
        return self.bytes[node.col_offset:node.end_col_offset].decode()

    def scoped(self, node: ast.AST) -> bool:
        text = self.text(node)
        return any(mark in text for mark in self._MARKS)

    def generator(self, node: ast.AST) -> ast.GeneratorExp | None:
        """The generator of ``any(g)``/``all(g)`` with one plain ``for``; None for anything else."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("any", "all") \
                and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.GeneratorExp):
            gen = node.args[0]
            if len(gen.generators) == 1 and not gen.generators[0].is_async:
                loop = gen.generators[0]
                if not any(self.scoped(n) for n in (loop.target, loop.iter, *loop.ifs)):
                    return gen
        return None

    def convertible(self, node: ast.AST) -> bool:
        if not self.scoped(node):
            return True
        if isinstance(node, ast.IfExp):
            return not self.scoped(node.test) and self.convertible(node.body) and self.convertible(node.orelse)
        if isinstance(node, ast.BoolOp):
            return all(self.convertible(v) for v in node.values)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self.convertible(node.operand)
        gen = self.generator(node)
        return gen is not None and self.convertible(gen.elt)

    def condition(self, node: ast.AST, target: str, count: list[int]) -> tuple[list[str], str]:
        """(lines to run first, an expression as true as ``node``): ``node`` itself when it holds no generator."""
        if not self.scoped(node):
            return [], f"({self.text(node)})"
        count[0] += 1
        inner = f"{target}_{count[0]}"
        return self.assign(inner, node, count), inner

    def assign(self, target: str, node: ast.AST, count: list[int]) -> list[str]:
        if isinstance(node, ast.Constant):
            return [f"{target} = {bool(node.value)}"]
        if not self.scoped(node):
            return [f"{target} = True if ({self.text(node)}) else False"]
        if isinstance(node, ast.IfExp):
            return [f"if {self.text(node.test)}:", *_indented(self.assign(target, node.body, count)),
                    "else:", *_indented(self.assign(target, node.orelse, count))]
        if isinstance(node, ast.UnaryOp):
            return self.assign(target, node.operand, count) + [f"{target} = not {target}"]
        if isinstance(node, ast.BoolOp):       # each operand only when the ones before it did not decide
            conjunction = isinstance(node.op, ast.And)
            lines, body = [f"{target} = {not conjunction}"], []
            for value in reversed(_operands(node)):
                first, test = self.condition(value, target, count)
                body = first + [f"if {test}:" if conjunction else f"if not {test}:",
                                *_indented(body or [f"{target} = {conjunction}"])]
            return lines + body
        gen = self.generator(node)
        loop, found = gen.generators[0], node.func.id == "any"
        first, test = self.condition(gen.elt, target, count)
        lines = [f"{target} = {not found}", f"for {self.text(loop.target)} in {self.text(loop.iter)}:"]
        for cond in loop.ifs:
            lines += [f"    if not ({self.text(cond)}):", "        continue"]
        return lines + _indented(first) + [f"    if {test if found else f'not {test}'}:", f"        {target} = {found}",
                                           "        break"]


def _indented(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def _operands(node: ast.BoolOp) -> list[ast.AST]:
    """The operands of ``node``, those of an operand with the same operator in its place (``(a and b) and c``)."""
    return [x for v in node.values
            for x in (_operands(v) if isinstance(v, ast.BoolOp) and type(v.op) is type(node.op) else [v])]
