"""lower: Lark parse trees → the surface AST of :mod:`checker.front.ast`.

One method per grammar rule (or alias).  Optional parts of a rule come back as
small tagged tuples so that a method can tell them apart without relying on
their position.
"""

from __future__ import annotations

import dataclasses
import typing

import lark
from lark import v_args

from lark.exceptions import VisitError

from checker.front import ast
from checker.front import example_ast as ex
from checker.front.lower_statements import StatementsLowering
from checker.base.diagnostics import Reporter
from checker.base.source import Span

MAX_DEPTH = 120     # AST levels one declaration may have; far beyond any real spec
MAX_DIGITS = 18

__all__ = ["lower_trees", "KIND_SETTINGS"]

# `name: q` items of a kind that are settings of the kind itself, not attributes of its cards.
KIND_SETTINGS = ("controller", "start", "active", "imitates")


def _unquote(token: str) -> str:
    body = token[1:-1]
    if "\\" not in body:
        return body
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


class _Tagged(tuple):
    """A tagged optional part: ``_Tagged(("doc", "text"))``."""


def _tag(name: str, *values) -> _Tagged:
    return _Tagged((name, *values))


def _pick(children, tag: str, default=None):
    for child in children:
        if isinstance(child, _Tagged) and child[0] == tag:
            return child[1] if len(child) == 2 else child[1:]
    return default


def _decisions(children) -> tuple:
    return tuple(t[1] for t in children if isinstance(t, _Tagged) and t[0] == "decision")


def _all(children, cls):
    return tuple(c for c in children if isinstance(c, cls))


@v_args(meta=True)
class _Lower(StatementsLowering):
    def __init__(self, file: str):
        super().__init__(visit_tokens=False)
        self.file = file
        self.problems: list[tuple[str, str, Span]] = []

    # -- spans
    def span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.file, 1, 1, 1, 1)
        return Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column)

    def tspan(self, tok: lark.Token) -> Span:
        return Span(self.file, tok.line, tok.column, tok.end_line or tok.line,
                    tok.end_column or tok.column + len(tok))

    # ---------------------------------------------------------------- file
    def start(self, meta, children):
        return list(children)

    def overlay_header(self, meta, c):
        return ast.OverlayHeader(_unquote(c[0]), _unquote(c[1]), self.span(meta))

    # ---------------------------------------------------------------- metadata
    def game_decl(self, meta, c):
        return ast.GameDecl(_unquote(c[0]), _all(c, ast.Field), self.span(meta))

    def source_decl(self, meta, c):
        title = _unquote(c[2]) if len(c) > 2 else None
        return ast.SourceDecl(str(c[0]), _unquote(c[1]), title, self.span(meta))

    def field(self, meta, c):
        value = c[1]
        values = value[1] if isinstance(value, _Tagged) else (value,)
        return ast.Field(str(c[0]), tuple(values), self.span(meta))

    def value_list(self, meta, c):
        return _tag("list", tuple(c))

    # ---------------------------------------------------------------- vocabulary
    def enum_decl(self, meta, c):
        return ast.EnumDecl(str(c[0]), _all(c, ast.EnumMember), self.span(meta))

    def enum_member(self, meta, c):
        return ast.EnumMember(str(c[0]), _unquote(c[1]) if len(c) > 1 else None, self.span(meta))

    def grid_decl(self, meta, c):
        name, width, height, directions = c[0], c[1], c[2], c[3]
        return ast.GridDecl(str(name), int(width), int(height), (str(directions), self.tspan(directions)),
                            _pick(c, "doc"), self.span(meta))

    def record_decl(self, meta, c):
        return ast.RecordDecl(str(c[0]), _all(c, ast.Param), _pick(c, "doc"), self.span(meta))

    def record_field(self, meta, c):
        return ast.Param(str(c[0]), c[1], self.span(meta))

    def kind_decl(self, meta, c):
        attrs, named = [], {}
        for a in _all(c, ast.AttrDecl):
            if a.name in KIND_SETTINGS and isinstance(a.type, ast.TypeName) and a.default is None \
                    and a.domain is None:
                named[a.name] = (a.type.name, a.type.span)
            else:
                attrs.append(a)
        return ast.KindDecl(str(c[0]), tuple(attrs), named.get("controller"), named.get("start"), _decisions(c),
                            _all(c, ast.Cite), self.span(meta), named.get("active"), named.get("imitates"))

    def extend_enum(self, meta, c):
        return ast.ExtendDecl(self.enum_decl(meta, c), self.span(meta))

    def extend_kind(self, meta, c):
        return ast.ExtendDecl(self.kind_decl(meta, c), self.span(meta))

    def extend_card(self, meta, c):
        name = c[0]
        rules = tuple(dataclasses.replace(r, card=_unquote(name)) for r in _all(c, ast.RuleDecl))
        card = ast.CardDecl("", _unquote(name), _all(c, ast.AttrValue), _all(c, ast.PowerDecl), rules,
                            _all(c, ast.Cite), self.span(meta), self.tspan(name), self.tspan(name))
        return ast.ExtendDecl(card, self.span(meta))

    def extend_procedure(self, meta, c):
        name = c[1] if len(c) > 1 and isinstance(c[1], lark.Token) else None
        items = _all(c, ast.Extension)
        return ast.ExtendDecl(ast.ProcedureExtension(str(c[0]), str(name) if name is not None else None, items,
                                                     self.span(meta), self.tspan(c[0])), self.span(meta))

    def ext_before(self, meta, c):
        return ast.Extension("before", str(c[0]), c[1][1], self.span(meta), self.tspan(c[0]))

    def ext_after(self, meta, c):
        return ast.Extension("after", str(c[0]), c[1][1], self.span(meta), self.tspan(c[0]))

    def ext_replace(self, meta, c):
        return ast.Extension("replace", str(c[0]), c[1][1], self.span(meta), self.tspan(c[0]))

    def ext_only(self, meta, c):
        return ast.Extension("only", str(c[0]), (), self.span(meta), self.tspan(c[0]), c[1])

    def ext_options(self, meta, c):
        return ast.Extension("options", str(c[0]), tuple(c[1:]), self.span(meta), self.tspan(c[0]))

    def before_decl(self, meta, c):
        tokens = [x for x in c if isinstance(x, lark.Token)]
        return ast.BeforeDecl(str(tokens[0]), _pick(c, "names", ()), str(tokens[1]), _pick(c, "args", ()),
                              self.span(meta), self.tspan(tokens[0]), self.tspan(tokens[1]))

    def attr_decl(self, meta, c):
        domain = _pick(c, "domain")
        default = c[-1] if len(c) > 2 and not isinstance(c[-1], _Tagged) else None
        return ast.AttrDecl(str(c[0]), c[1], domain, default, self.span(meta))

    def domain(self, meta, c):
        return _tag("domain", ast.Binary("..", c[0], c[1], self.span(meta)))

    def var_decl(self, meta, c):
        index = _pick(c, "index")
        rest = [x for x in c[1:] if not isinstance(x, (_Tagged, ast.Cite, ast.Lifetime))]
        type_ = rest[0]
        default = rest[1] if len(rest) > 1 else None
        return ast.VarDecl(str(c[0]), index, type_, default, _pick(c, "vis", "public"), _pick(c, "doc"),
                           False, False, _all(c, ast.Cite), self.span(meta), next(iter(_all(c, ast.Lifetime)), None))

    def counter_decl(self, meta, c):
        int_type = ast.TypeName("Int", self.span(meta))
        return ast.VarDecl(str(c[0]), _pick(c, "index"), int_type, ast.IntLit(0, self.span(meta)),
                           _pick(c, "vis", "public"), _pick(c, "doc"), True,
                           _pick(c, "unlimited", False), _all(c, ast.Cite), self.span(meta))

    def unlimited(self, meta, c):
        return _tag("unlimited", True)

    def index(self, meta, c):
        return _tag("index", ast.TypeName(str(c[0]), self.tspan(c[0])))

    def zone_decl(self, meta, c):
        shape = _pick(c, "shape")
        kind_tok = [x for x in c[1:] if isinstance(x, lark.Token)][0]
        return ast.ZoneDecl(str(c[0]), _pick(c, "index"), shape == "pile",
                            ast.TypeName(str(kind_tok), self.tspan(kind_tok)),
                            _pick(c, "vis", "public"), _pick(c, "doc"), _all(c, ast.Cite), self.span(meta))

    def shape_pile(self, meta, c):
        return _tag("shape", "pile")

    def shape_set(self, meta, c):
        return _tag("shape", "set")

    def vis_public(self, meta, c):
        return _tag("vis", "public")

    def vis_hidden(self, meta, c):
        return _tag("vis", "hidden")

    def vis_secret(self, meta, c):
        return _tag("vis", "secret")

    def visibility(self, meta, c):
        return c[0]

    def doc(self, meta, c):
        return _tag("doc", _unquote(c[0]))

    def type_atom(self, meta, c):
        return ast.TypeName(str(c[0]), self.span(meta))

    def optional_type(self, meta, c):
        return ast.OptionalType(c[0], self.span(meta))

    def set_type(self, meta, c):
        return ast.SetType(c[0], self.span(meta))

    def window_decl(self, meta, c):
        return ast.WindowDecl(str(c[0]), _pick(c, "params", ()), _pick(c, "doc"), self.span(meta))

    def action_decl(self, meta, c):
        parent = None
        tokens = [x for x in c[1:] if isinstance(x, lark.Token)]
        if tokens:
            parent = (str(tokens[0]), self.tspan(tokens[0]))
        return ast.ActionDecl(str(c[0]), _pick(c, "params", ()), parent, _pick(c, "doc"),
                              _pick(c, "block"), self.span(meta), _pick(c, "tagged", ()))

    def params(self, meta, c):
        return _tag("params", tuple(c))

    def param(self, meta, c):
        return ast.Param(str(c[0]), c[1], self.span(meta))

    def quantity_decl(self, meta, c):
        rest = [x for x in c[1:] if not isinstance(x, (_Tagged, ast.Cite))]
        return ast.QuantityDecl(str(c[0]), _pick(c, "params", ()), rest[0], rest[1], _all(c, ast.Cite),
                                self.span(meta))

    def table_decl(self, meta, c):
        rest = [x for x in c[1:] if not isinstance(x, (_Tagged, ast.Cite, ast.TableRow))]
        return ast.TableDecl(str(c[0]), _pick(c, "params", ()), rest[0], _all(c, ast.TableRow),
                             _all(c, ast.Cite), self.span(meta))

    def table_row(self, meta, c):
        return ast.TableRow(tuple(c[:-1]), c[-1], self.span(meta))

    # ---------------------------------------------------------------- cards
    def card_decl(self, meta, c):
        kind, name = c[0], c[1]
        rules = tuple(dataclasses.replace(r, card=_unquote(name)) for r in _all(c, ast.RuleDecl))
        return ast.CardDecl(str(kind), _unquote(name), _all(c, ast.AttrValue), _all(c, ast.PowerDecl),
                            rules, _all(c, ast.Cite),
                            self.span(meta), self.tspan(kind), self.tspan(name))

    def attr_value(self, meta, c):
        return ast.AttrValue(str(c[0]), c[1], self.span(meta))

    def power_decl(self, meta, c):
        name = str(c[0])
        summary = _unquote(c[1]) if len(c) > 1 and isinstance(c[1], lark.Token) else None
        body = tuple(x for x in c if _is_stmt(x))
        cites = tuple(s.cite for s in body if isinstance(s, ast.CiteStmt))
        decisions = tuple((s.name, s.span) for s in body if isinstance(s, ast.DecisionStmt))
        return ast.PowerDecl(name, summary, _pick(c, "timing"), _pick(c, "limit", "once_per_turn"),
                             _pick(c, "mandatory", False), _pick(c, "requires"), body, cites,
                             decisions, self.span(meta))

    def timing(self, meta, c):
        names = _pick(c, "names", ())
        return _tag("timing", (str(c[0]), names, self.span(meta)))

    def names(self, meta, c):
        return _tag("names", tuple((str(t), self.tspan(t)) for t in c))

    def limit(self, meta, c):
        return _tag("limit", c[0])

    def once_per_turn(self, meta, c):
        return "once_per_turn"

    def once_per_game(self, meta, c):
        return "once_per_game"

    def once_per_round(self, meta, c):
        return "once_per_round"

    def unlimited_uses(self, meta, c):
        return "unlimited"

    def mandatory(self, meta, c):
        return _tag("mandatory", True)

    def requires(self, meta, c):
        return _tag("requires", c[0])

    # ---------------------------------------------------------------- rules
    def rule_decl(self, meta, c):
        overrides = tuple(x for t in c if isinstance(t, _Tagged) and t[0] == "overrides" for x in t[1])
        return ast.RuleDecl(str(c[0]), _all(c, ast.RuleHead), _all(c, ast.Cite), overrides, _decisions(c),
                            None, self.span(meta))

    def overrides(self, meta, c):
        return _tag("overrides", tuple((str(t), self.tspan(t)) for t in c))

    def decision_ref(self, meta, c):
        return _tag("decision", (str(c[0]), self.tspan(c[0])))

    def _head(self, kind, meta, c):
        pattern = c[0]
        expr = c[1] if kind in ("value", "adjust") else None
        return ast.RuleHead(kind, pattern, expr, _pick(c, "when"), self.span(meta))

    def permit(self, meta, c):
        return self._head("permit", meta, c)

    def forbid(self, meta, c):
        return self._head("forbid", meta, c)

    def permit_tagged(self, meta, c):
        return dataclasses.replace(self._head("permit", meta, c), tagged=True)

    def forbid_tagged(self, meta, c):
        return dataclasses.replace(self._head("forbid", meta, c), tagged=True)

    def tag_decl(self, meta, c):
        return ast.TagDecl(str(c[0]), _pick(c, "params", ()), _pick(c, "doc"), self.span(meta))

    def tagged(self, meta, c):
        return _tag("tagged", tuple(c))

    def tag_use(self, meta, c):
        return ast.TagUse(str(c[0]), tuple(_pick(c, "names", ())), self.span(meta))

    def value_rule(self, meta, c):
        return self._head("value", meta, c)

    def adjust_rule(self, meta, c):
        return self._head("adjust", meta, c)

    def pattern(self, meta, c):
        return ast.Pattern(str(c[0]), _pick(c, "names", ()), self.span(meta))

    def when(self, meta, c):
        return _tag("when", c[0])

    def precedence_decl(self, meta, c):
        return ast.PrecedenceDecl(c[0], c[1], _all(c, ast.Cite), _pick(c, "decision"), self.span(meta))

    def rule_subject(self, meta, c):
        return ast.Subject(str(c[0]), None, self.span(meta))

    def power_subject(self, meta, c):
        return ast.Subject(str(c[1]), _unquote(c[0]), self.span(meta))

    def constraint_decl(self, meta, c, invariant: bool = False):
        require = [x for x in c[1:] if not isinstance(x, (_Tagged, ast.Cite))][0]
        return ast.ConstraintDecl(str(c[0]), _all(c, ast.Cite), _decisions(c), require, _pick(c, "when"),
                                  _pick(c, "message"), self.span(meta), invariant)

    def invariant_decl(self, meta, c):
        return self.constraint_decl(meta, c, invariant=True)

    def message(self, meta, c):
        return _tag("message", _unquote(c[0]))

    def decision_decl(self, meta, c):
        return ast.DecisionDecl(str(c[0]), _unquote(c[1]), _all(c, ast.Cite), self.span(meta))

    def cite(self, meta, c):
        source = str(c[0]) if len(c) == 2 else None
        return ast.Cite(source, _unquote(c[-1]), self.span(meta))

    # ---------------------------------------------------------------- worked examples
    def example_decl(self, meta, c):
        items = c[1:]
        players = next((x[1] for x in items if isinstance(x, _Tagged) and x[0] == "players"), None)
        configuration = _pick(items, "configuration")
        at = _pick(items, "at")
        situation = tuple(x for x in items if isinstance(x, (ex.ExampleSet, ex.ExampleMove)))
        steps = tuple(x for x in items if isinstance(x, (ex.ExampleCall, ex.ExampleAnswer, ex.ExampleExpect)))
        return ex.ExampleDecl(_unquote(c[0]), _all(items, ast.Cite), players, configuration, at, situation, steps,
                               self.span(meta))

    def ex_players(self, meta, c):
        if str(c[0]) != "players":
            self.problems.append(("E0101", f"unexpected '{c[0]}' in an example: `players N` gives its player count; "
                                           f"a situation is written with `set`, `move` and `at`", self.tspan(c[0])))
        return _tag("players", int(c[1]))

    def ex_configuration(self, meta, c):
        return _tag("configuration", (_unquote(c[0]), self.span(meta)))

    def ex_at(self, meta, c):
        return _tag("at", ast.Call(str(c[0]), _pick(c, "args", ()), self.span(meta), self.tspan(c[0])))

    def ex_set(self, meta, c):
        return ex.ExampleSet(c[0], c[1], self.span(meta))

    def ex_move(self, meta, c):
        return ex.ExampleMove(c[0], c[1], self.span(meta))

    def ex_call(self, meta, c):
        return ex.ExampleCall(str(c[0]), _pick(c, "args", ()), self.span(meta))

    def ex_do(self, meta, c):
        return ex.ExampleAnswer("action", str(c[0]), None, _pick(c, "args", ()), self.span(meta))

    def ex_power(self, meta, c):
        return ex.ExampleAnswer("power", str(c[1]), _unquote(c[0]), (), self.span(meta))

    def ex_choose(self, meta, c):
        return ex.ExampleAnswer("choose", None, None, (c[0],), self.span(meta))

    def ex_random(self, meta, c):
        return ex.ExampleAnswer("random", None, None, (c[0],), self.span(meta))

    def ex_finish(self, meta, c):
        return ex.ExampleAnswer("finish", _unquote(c[0]), None, (), self.span(meta))

    def ex_expect(self, meta, c):
        return ex.ExampleExpect(c[0], _pick(c, "names", ()), self.span(meta))

    def player_lit(self, meta, c):
        # `Joueur 2`: a name no declaration can have (it has a space), bound in an example's expressions
        return ast.Name(f"Joueur {int(c[0])}", self.span(meta))

    # ---------------------------------------------------------------- procedures, configurations
    def procedure_decl(self, meta, c):
        return ast.ProcedureDecl(str(c[0]), _pick(c, "params", ()), _pick(c, "block", ()), self.span(meta),
                                 _pick(c, "requires"))

    def proc_requires(self, meta, c):
        return _tag("requires", c[0])

    def config_decl(self, meta, c):
        return ast.ConfigDecl(_unquote(c[0]), _all(c, ast.Cite), _decisions(c), _all(c, ast.Field),
                              _all(c, ast.ConfigInclude),
                              _all(c, ast.ConfigReplace), self.span(meta))

    def config_include(self, meta, c):
        names = tuple((_unquote(t), self.tspan(t)) for t in c[1:] if isinstance(t, lark.Token))
        return ast.ConfigInclude(str(c[0]), names, _pick(c, "when"), self.span(meta))

    def config_replace(self, meta, c):
        toks = [t for t in c if isinstance(t, lark.Token)]
        return ast.ConfigReplace((_unquote(toks[0]), self.tspan(toks[0])),
                                 tuple((_unquote(t), self.tspan(t)) for t in toks[1:]),
                                 _pick(c, "when"), self.span(meta))

    def remove_decl(self, meta, c):
        tok = c[1]
        name = _unquote(tok) if tok.type == "STRING" else str(tok)
        return ast.RemoveDecl(c[0], name, self.span(meta))

    def remove_precedence_text(self, meta, c):
        return ast.RemoveDecl("precedence", _unquote(c[0]), self.span(meta))

    def remove_precedence(self, meta, c):
        return ast.RemoveDecl("precedence", f"{c[0]} over {c[1]}", self.span(meta))

    def replace_decl(self, meta, c):
        return ast.ReplaceDecl(c[0], self.span(meta))

    def rename_decl(self, meta, c):
        return ast.RenameDecl((_unquote(c[0]), self.tspan(c[0])), (_unquote(c[1]), self.tspan(c[1])), self.span(meta))

    # ---------------------------------------------------------------- statements
    def block(self, meta, c):
        return _tag("block", tuple(c))

    def let_stmt(self, meta, c):
        return ast.Let(str(c[0]), c[1], self.span(meta))

    def set_stmt(self, meta, c):
        return ast.SetVar(c[0], c[1], self.span(meta))

    def reset_stmt(self, meta, c):
        return ast.Reset(str(c[0]), self.span(meta))

    def _options(self, opts) -> ast.ChooseOptions:
        values = {}
        for o in opts:
            if isinstance(o, _Tagged):
                values[o[0]] = o[1]
        return ast.ChooseOptions(values.get("where"), values.get("by"), values.get("secretly", False),
                                 values.get("optional", False), values.get("random", False))

    def choose_stmt(self, meta, c):
        return ast.Choose(str(c[0]), c[1], self._options(c[2:]), self.span(meta))

    def choose_subset(self, meta, c):
        return ast.ChooseSubset(str(c[0]), c[1], c[2], c[3], self._options(c[4:]), self.span(meta))

    def choose_by(self, meta, c):
        return _tag("by", c[0])

    def choose_secretly(self, meta, c):
        return _tag("secretly", True)

    def choose_optional(self, meta, c):
        return _tag("optional", True)

    def choose_where(self, meta, c):
        return _tag("where", c[0])

    def choose_random(self, meta, c):
        return _tag("random", True)

    def if_stmt(self, meta, c):
        then = c[1][1]
        else_: tuple = ()
        if len(c) > 2:
            other = c[2]
            else_ = other[1] if isinstance(other, _Tagged) else (other,)
        return ast.If(c[0], then, else_, self.span(meta))

    if_only = if_stmt

    def for_stmt(self, meta, c):
        return ast.For(str(c[0]), c[1], c[2][1], self.span(meta))

    def repeat_stmt(self, meta, c):
        return ast.Repeat(c[0][1], c[1], self.span(meta))

    def upto(self, meta, c):
        return _tag("upto", True)

    def transfer_stmt(self, meta, c):
        up_to = _pick(c, "upto", False)
        rest = [x for x in c if not isinstance(x, _Tagged)]
        return ast.Transfer(rest[0], rest[1], rest[2], up_to, self.span(meta))

    def _place(self, p) -> ast.Place:
        if isinstance(p, ast.Place):
            return p
        return ast.Place(p, "any", p.span)

    def move_stmt(self, meta, c):
        return ast.Move(c[0], self._place(c[1]), self.span(meta))

    def draw_stmt(self, meta, c):
        return ast.Draw(c[0], c[1], self._place(c[2]), self.span(meta))

    def shuffle_stmt(self, meta, c):
        return ast.Shuffle(c[0], self.span(meta))

    def reveal_stmt(self, meta, c):
        return ast.Reveal(c[0], c[1] if len(c) > 1 else None, self.span(meta))

    def do_stmt(self, meta, c):
        return ast.Do(str(c[0]), _pick(c, "args", ()), self.span(meta))

    def call_stmt(self, meta, c):
        return ast.CallProc(str(c[0]), _pick(c, "args", ()), self.span(meta))

    def signal_stmt(self, meta, c):
        return ast.Signal(str(c[0]), _pick(c, "args", ()), self.span(meta))

    def offer_stmt(self, meta, c):
        return ast.Offer(c[0], tuple(c[1:]), self.span(meta))

    def offer_action(self, meta, c):
        args = _pick(c, "args", ())
        rest = [x for x in c[1:] if not isinstance(x, _Tagged)]
        binders = tuple((str(rest[i]), rest[i + 1]) for i in range(0, len(rest), 2))
        return ast.OfferAction(str(c[0]), args, binders, self.span(meta))

    def offer_powers(self, meta, c):
        return ast.OfferPowers(c[0], self.span(meta))

    def offer_finish(self, meta, c):
        return ast.OfferFinish(_unquote(c[0]), _pick(c, "when"), self.span(meta))

    def end_turn_stmt(self, meta, c):
        return ast.EndTurn(self.span(meta))

    def stop_stmt(self, meta, c):
        return ast.Stop(self.span(meta))

    def cancel_stmt(self, meta, c):
        return ast.Cancel(self.span(meta))

    def hook_stmt(self, meta, c):
        return ast.HookStmt(str(c[0]), _pick(c, "block", ()), self.span(meta), self.tspan(c[0]))

    def offer_hook(self, meta, c):
        return ast.OfferHook(str(c[0]), self.span(meta))

    def log_stmt(self, meta, c):
        return ast.Log(_unquote(c[0]), tuple(c[1:]), self.span(meta))

    def cite_stmt(self, meta, c):
        return ast.CiteStmt(c[0], self.span(meta))

    def decision_stmt(self, meta, c):
        name, span = c[0][1]
        return ast.DecisionStmt(name, span)

    def place_top(self, meta, c):
        return ast.Place(c[0], "top", self.span(meta))

    def place_bottom(self, meta, c):
        return ast.Place(c[0], "bottom", self.span(meta))

    def lv_name(self, meta, c):
        return ast.LValue(str(c[0]), None, self.span(meta))

    def lv_index(self, meta, c):
        return ast.LValue(str(c[0]), c[1], self.span(meta))

    # ---------------------------------------------------------------- expressions
    def if_expr(self, meta, c):
        return ast.IfExpr(c[0], c[1], c[2], self.span(meta))

    def _bin(op):  # noqa: N805 - a factory used in the class body
        def method(self, meta, c):
            return ast.Binary(op, c[0], c[1], self.span(meta))
        return method

    or_ = _bin("or")
    and_ = _bin("and")
    eq = _bin("==")
    ne = _bin("!=")
    lt = _bin("<")
    le = _bin("<=")
    gt = _bin(">")
    ge = _bin(">=")
    member = _bin("in")
    not_member = _bin("notin")
    same = _bin("is")
    not_same = _bin("isnot")
    within = _bin("isin")
    not_within = _bin("isnotin")
    range_ = _bin("..")
    add = _bin("+")
    sub = _bin("-")
    mul = _bin("*")
    div = _bin("/")
    mod = _bin("%")
    del _bin

    def not_(self, meta, c):
        return ast.Unary("not", c[0], self.span(meta))

    def neg(self, meta, c):
        return ast.Unary("-", c[0], self.span(meta))

    def attr(self, meta, c):
        return ast.Attr(c[0], str(c[1]), self.span(meta))

    def index_(self, meta, c):
        return ast.Index(c[0], c[1], self.span(meta))

    def int_lit(self, meta, c):
        if len(c[0]) > MAX_DIGITS:
            self.problems.append(("E0304", f"a number of {len(c[0])} digits is too large (at most {MAX_DIGITS})",
                                  self.span(meta)))
            return ast.IntLit(0, self.span(meta))
        return ast.IntLit(int(c[0]), self.span(meta))

    def str_lit(self, meta, c):
        return ast.StrLit(_unquote(c[0]), self.span(meta))

    def true_lit(self, meta, c):
        return ast.BoolLit(True, self.span(meta))

    def false_lit(self, meta, c):
        return ast.BoolLit(False, self.span(meta))

    def none_lit(self, meta, c):
        return ast.NoneLit(self.span(meta))

    def name(self, meta, c):
        return ast.Name(str(c[0]), self.span(meta))

    def call(self, meta, c):
        return ast.Call(str(c[0]), _pick(c, "args", ()), self.span(meta), self.tspan(c[0]))

    def args(self, meta, c):
        return _tag("args", tuple(c))

    def can(self, meta, c):
        return ast.Can(str(c[0]), _pick(c, "args", ()), self.span(meta))

    def aggregate(self, meta, c):
        kind, var, coll = c[0], c[1], c[2]
        tail = c[3] if len(c) > 3 else None
        body = tail[1] if tail else None
        is_where = tail[0] == "where" if tail else False
        return ast.Aggregate(kind, str(var), coll, body, is_where, self.span(meta), self.tspan(var))

    def connected(self, meta, c):
        return ast.Connected(str(c[0]), c[1], c[2], self.span(meta), self.tspan(c[0]))

    def path(self, meta, c):
        return ast.Path(str(c[0]), c[1], c[2], c[3], self.span(meta), self.tspan(c[0]))

    def agg_where(self, meta, c):
        return _tag("where", c[0])

    def agg_of(self, meta, c):
        return _tag("of", c[0])

    def empty_set(self, meta, c):
        return ast.SetLit((), self.span(meta))

    def set_lit(self, meta, c):
        return ast.SetLit(tuple(c), self.span(meta))


def _constant(value: str):
    return v_args(meta=True)(lambda self, meta, c: value)


for _kind in ("count", "sum", "any", "all", "the", "only", "max", "min", "argmax", "argmin", "filter", "union",
              "collect"):
    setattr(_Lower, f"agg_{_kind}", _constant(_kind))
for _kind in ("rule", "card", "constraint", "invariant", "configuration", "procedure", "quantity", "table", "action",
              "decision", "var", "window", "trigger"):
    setattr(_Lower, f"rk_{_kind}", _constant(_kind))

_STMT_TYPES = typing.get_args(ast.Stmt)


def _is_stmt(x) -> bool:
    return isinstance(x, _STMT_TYPES)


def _depth(node) -> int:
    """The depth of an AST node, measured without recursion."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        current, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(current, tuple):
            stack.extend((child, depth) for child in current)
        elif hasattr(current, "__dataclass_fields__"):
            stack.extend((getattr(current, f), depth + 1) for f in current.__dataclass_fields__ if f != "span")
    return deepest


def lower_trees(file: str, trees: list[lark.Tree], reporter: Reporter) -> tuple[ast.OverlayHeader | None, list[ast.Decl]]:
    """Lower the trees of one file; returns its overlay header (if any) and its declarations.

    Items are lowered one at a time: an item nested deeper than the later passes can walk
    (a chain of hundreds of `not` or `+`, say) is reported and left out, not the file.
    """
    lowering = _Lower(file)
    header = None
    decls: list[ast.Decl] = []
    for tree in trees:
        for item_tree in tree.children:
            meta = item_tree.meta if isinstance(item_tree, lark.Tree) else None
            where = Span(file, meta.line, meta.column, meta.line, meta.column + 1) if meta and not meta.empty \
                else Span(file, 1, 1, 1, 1)
            try:
                item = lowering.transform(item_tree) if isinstance(item_tree, lark.Tree) else None
            except (RecursionError, VisitError):
                item = None
            if item is None or _depth(item) > MAX_DEPTH:
                reporter.error("E0104", f"this declaration is nested more than {MAX_DEPTH} levels deep", where,
                               hint="split it with `let` or a quantity")
                continue
            if isinstance(item, ast.OverlayHeader):
                header = item
            else:
                decls.append(item)
    for code, message, span in lowering.problems:
        reporter.error(code, message, span)
    return header, decls
