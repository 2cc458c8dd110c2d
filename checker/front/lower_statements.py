"""Lowering of the statements of :mod:`checker.front.ast_statements` (`retarget`, `swap`, `each … chooses`):
a mixin of :mod:`checker.front.lower`'s transformer."""

from __future__ import annotations

from lark import Token, Transformer, v_args

from checker.front import ast

__all__ = ["StatementsLowering"]


@v_args(meta=True)
class StatementsLowering(Transformer):
    def retarget_stmt(self, meta, c):
        return ast.Retarget(self.span(meta))

    def swap_stmt(self, meta, c):
        return ast.Swap(c[0], c[1], self.span(meta))

    def choose_each(self, meta, c):
        where = c[4] if len(c) == 6 else None
        return ast.ChooseEach(str(c[0]), c[1], str(c[2]), c[3], where, c[-1], self.span(meta))

    def install_stmt(self, meta, c):
        args = next((x[1] for x in c[1:] if isinstance(x, tuple) and x and x[0] == "args"), ())
        return ast.Install(str(c[0]), tuple(args), self.span(meta))

    def trigger_decl(self, meta, c):
        tagged = {x[0]: x[1] for x in c[1:] if isinstance(x, tuple) and x and isinstance(x[0], str)
                  and x[0] in ("params", "timing", "requires")}
        summary = next((x[1:-1] for x in c[1:] if isinstance(x, Token) and x.type == "STRING"), None)
        until = next((x for x in c if isinstance(x, ast.Lifetime)), None)
        body = tuple(x for x in c[1:] if type(x).__module__ in ("checker.front.ast", "checker.front.ast_statements")
                     and not isinstance(x, (ast.Lifetime, ast.Param)))
        return ast.TriggerDecl(str(c[0]), tuple(tagged.get("params", ())), summary, tagged.get("timing"), until,
                               tagged.get("requires"), body, self.span(meta))

    def lifetime(self, meta, c):
        binders = next((x[1] for x in c if isinstance(x, tuple) and x and x[0] == "names"), ())
        index = str(c[-1]) if len(c) > 1 and not isinstance(c[-1], tuple) else None
        return ast.Lifetime(str(c[0]), binders, index, self.span(meta))
