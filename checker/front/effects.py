"""effects: what a power's body reads and writes, for the conflict finder's order-dependence search."""

from __future__ import annotations

from checker.front import ast

__all__ = ["Effects"]


class Effects:
    """What a power's body reads and writes (vars, counters, zones), following calls, actions and
    quantities.  Adding to a counter (`transfer`) commutes with adding to it again."""

    def __init__(self, program):
        self.p = program

    def reads_expr(self, e, seen=None) -> set:
        seen = set() if seen is None else seen
        out = set()
        for n in ast.walk(e):
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
            for n in ast.walk(s):
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
                elif isinstance(n, ast.Swap):
                    writes |= self._swapped(n)
                elif isinstance(n, ast.ChooseEach):
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

    def _swapped(self, s: ast.Swap) -> set:
        """The zones a `swap` changes: the two zones it names, or, for two cards, any zone (where they are)."""
        named = [e.id if isinstance(e, ast.Name) else getattr(e.obj, "id", None) if isinstance(e, ast.Index) else None
                 for e in (s.left, s.right)]
        if all(n in self.p.zones for n in named):
            return set(named)
        return set(self.p.zones)

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
