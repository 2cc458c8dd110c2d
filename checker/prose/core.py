"""French prose from the typed AST: rule heads, conditions, statements and powers as sentences.

The wording of the spec's own vocabulary (zones, counters, quantities, actions…)
comes from a :class:`Lexicon` (the book's ``lexique.toml``); what the lexicon does
not give falls back on the identifier, humanized.  Every node type is handled by a
function registered for it; a node with no handler raises :class:`UnsupportedNode`,
located, rather than being skipped.  The output is reST inline text: variables in
italics, cards through the ``card`` callback (a cross-reference in the book).

>>> from checker.source import Span
>>> at = Span("x.rules", 1, 1, 1, 2)
>>> prose = Prose(None)
>>> prose.expr(ast.Binary(">=", ast.IntLit(3, at), ast.IntLit(2, at), at), Ctx())
'3 est au moins 2'
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from checker import ast
from checker.prose.french import (Lexicon, _strip_period, bare, capitalize, conj, contract, feminine, humanize, indefinite,
                                   negate, plural, rst_escape, split_article, yours)
from checker.registry import registrar
from checker.source import Span
from checker.types import BOOL, INT, PLAYER, Coll, EnumT, GridT, KindT, Opt, Prim, RecordT, Ty

__all__ = ["Prose", "Ctx", "Step", "UnsupportedNode", "var", "flatten_steps", "cites_of"]


class UnsupportedNode(Exception):
    """The prose generator has no rule for a node: says which, and where it is in the spec."""

    def __init__(self, node, what: str = ""):
        self.node = node
        self.span: Span | None = getattr(node, "span", None)
        where = f"{self.span}: " if self.span else ""
        super().__init__(f"{where}no French prose for {type(node).__name__}{' ' + what if what else ''}")

# ---------------------------------------------------------------- steps and context


@dataclasses.dataclass
class Step:
    """One sentence of a procedure or power, with the steps nested under it."""
    text: str
    children: list["Step"] = dataclasses.field(default_factory=list)
    cites: list[ast.Cite] = dataclasses.field(default_factory=list)
    decisions: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass(frozen=True)
class Ctx:
    locals: tuple[tuple[str, Ty | None], ...] = ()
    this: str | None = None       # how `this` reads: "ce personnage"
    me: bool = False              # inside a power: `me` is "vous"

    def bind(self, name: str, ty: Ty | None) -> "Ctx":
        return dataclasses.replace(self, locals=((name, ty),) + self.locals)

    def local(self, name: str) -> bool:
        return any(n == name for n, _ in self.locals)


def flatten_steps(steps: list[Step]) -> list[Step]:
    """Containers (an if with its else branches) put their branches at their own level."""
    out: list[Step] = []
    for step in steps:
        if not step.text:
            out.extend(flatten_steps(step.children))
        else:
            out.append(step)
    return out


def cites_of(items: list[Step]) -> list[ast.Cite]:
    """Every citation attached to the steps, in order, without repeats."""
    seen, out = set(), []

    def visit(step: Step) -> None:
        for cite in step.cites:
            if cite.quote not in seen:
                seen.add(cite.quote)
                out.append(cite)
        for child in step.children:
            visit(child)
    for step in items:
        visit(step)
    return out


_EXPR: dict[type, Callable] = {}
_STMT: dict[type, Callable] = {}


_expr = registrar(_EXPR)


_stmt = registrar(_STMT)


_COMPARE = {"==": "est", "!=": "n'est pas", "<": "est inférieur à", "<=": "est au plus", ">": "est supérieur à",
            ">=": "est au moins"}
_COMPARE_YOU = {"==": "êtes", "!=": "n'êtes pas"}
_FLIP = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", "<=": ">", ">": "<=", "in": "notin", "notin": "in",
         "is": "isnot", "isnot": "is", "isin": "isnotin", "isnotin": "isin"}
_ARITH = {"+": "plus", "-": "moins", "*": "fois", "/": "divisé par", "%": "modulo"}
_LIMITS = {"once_per_turn": "une fois par tour", "once_per_round": "une fois par tour de jeu",
           "once_per_game": "une fois par partie", "unlimited": "sans limite"}


def var(name: str) -> str:
    return f"*{name}*"


class Prose:
    """Turns declarations of one checked program into French sentences."""

    def __init__(self, typed, lexicon: Lexicon | None = None, card: Callable[[str], str] | None = None,
                 link: Callable[[str, str], str] | None = None):
        self.typed = typed
        self.program = typed.program if typed is not None else None
        self.types: dict[int, Ty] = typed.types if typed is not None else {}
        self.lex = lexicon or Lexicon()
        self.card_ref = card or (lambda name: f"« {name} »")
        self.link = link or (lambda role, name, title=None: name)

    # ---------------------------------------------------------------- nouns
    def type_noun(self, ty: Ty | None) -> str:
        """The noun phrase, with its article, for a value of type ``ty``."""
        if isinstance(ty, Opt):
            return self.type_noun(ty.inner)
        if isinstance(ty, Coll):
            return self.type_noun(ty.elem)
        if ty == PLAYER:
            return self.lex.types.get("Player", "le joueur")
        if ty == INT:
            return "le nombre"
        if ty == BOOL:
            return "la réponse"
        if isinstance(ty, (KindT, EnumT, GridT, RecordT)):
            return self.lex.types.get(ty.name, f"le {ty.name}")
        return "la valeur"

    def type_of(self, e) -> Ty | None:
        return self.types.get(id(e))

    def card_ctx(self, kind: str | None) -> Ctx:
        """The context of a card of ``kind``: ``this`` reads « ce personnage » (no card: no ``this``)."""
        if kind is None:
            return Ctx()
        noun = self.type_noun(KindT(kind)).split(" ", 1)[-1]
        return Ctx(this=("cet " if noun[:1] in "aeiouéèê" else "ce ") + noun)

    def element_noun(self, coll) -> str:
        """How one element of a collection expression is called: a zone's own word, else its type's."""
        if isinstance(coll, ast.Index) and isinstance(coll.obj, ast.Name):
            term = self.lex.terms.get(coll.obj.id)
            if term and term.element:
                return term.element
        if isinstance(coll, ast.Name):
            term = self.lex.terms.get(coll.id)
            if term and term.element:
                return term.element
        ty = self.type_of(coll)
        if isinstance(ty, Coll):
            return self.type_noun(ty.elem)
        if isinstance(coll, ast.Binary) and coll.op == "..":
            return "le nombre"
        return self.type_noun(ty)

    def term_text(self, name: str, args: list[str], ty: Ty | None) -> str:
        """A var, zone, counter, quantity or table applied to rendered arguments."""
        term = self.lex.terms.get(name)
        if term is not None and "{" in term.text:
            return yours(contract(term.text.format(*args, *[""] * 4)))
        noun = term.text if term is not None else None
        if noun is None:
            if ty == BOOL or (isinstance(ty, Prim) and ty == BOOL):
                return f"{humanize(name)}({', '.join(args)})" if args else humanize(name)
            words = humanize(name)
            noun = f"{'la' if feminine(words) else 'le'} {words}"
            noun = contract(noun)
        if not args:
            return noun
        return self.possess(noun, args[0]) + (f" ({', '.join(args[1:])})" if len(args) > 1 else "")

    def default_clause(self, q: ast.QuantityDecl, ctx: Ctx) -> str:
        """A quantity's default as a clause: « le revenu de *p* vaut 2 », « *x* est vrai lorsque … »."""
        term = self.term_text(q.name, [var(p.name) for p in q.params], self._resolve_type(q.type))
        value = self.expr(q.default, ctx)
        if isinstance(q.type, ast.TypeName) and q.type.name == "Bool":
            return contract(f"{term} lorsque {value}") if value not in ("vrai", "faux") else f"« {term} » est {value}"
        return f"{term} vaut {value}"

    @staticmethod
    def possess(noun: str, owner: str) -> str:
        """``le trésor`` of ``vous`` → ``votre trésor``; of ``*q*`` → ``le trésor de *q*``."""
        if owner == "vous":
            article, rest = split_article(noun)
            return f"{'vos' if article in ('les', 'des') else 'votre'} {rest}"
        return contract(f"{noun} de {owner}")

    # ---------------------------------------------------------------- expressions
    def expr(self, e, ctx: Ctx) -> str:
        handler = _EXPR.get(type(e))
        if handler is None:
            raise UnsupportedNode(e)
        return handler(self, e, ctx)

    def cond(self, e, ctx: Ctx) -> str:
        """A condition as a clause."""
        return self.expr(e, ctx)

    def negated(self, e, ctx: Ctx) -> str:
        """The negation of a condition, built on the AST (De Morgan, flipped comparisons)."""
        if isinstance(e, ast.Unary) and e.op == "not":
            return self.cond(e.operand, ctx)
        if isinstance(e, ast.Binary):
            if e.op in ("and", "or"):
                word = "ou" if e.op == "and" else "et"
                return f"{_group_neg(self, e.left, ctx, e.op)} {word} {_group_neg(self, e.right, ctx, e.op)}"
            if e.op in _FLIP and not (_is_none(e.left) or _is_none(e.right)) or e.op in ("in", "notin"):
                return self.expr(ast.Binary(_FLIP[e.op], e.left, e.right, e.span), ctx)
        if isinstance(e, ast.Aggregate) and e.kind == "any" and e.body is not None:
            text = self.expr(e, ctx)
            return text.replace("il existe un ", "il n'existe aucun ", 1).replace("il existe une ",
                                                                              "il n'existe aucune ", 1)
        if isinstance(e, ast.Name) and ctx.local(e.id):
            return f"{var(e.id)} est faux"
        text = self.cond(e, ctx)
        if " et " in text or " ou " in text:
            return f"il est faux que {text}"
        return negate(text)

    def args(self, es, ctx: Ctx) -> list[str]:
        return [self.expr(a, ctx) for a in es]

    # ---------------------------------------------------------------- statements
    def steps(self, body, ctx: Ctx) -> list[Step]:
        """The statements of a block as steps; a `cite` goes with the step that follows it."""
        out: list[Step] = []
        pending: list[ast.Cite] = []
        decisions: list[str] = []
        for s in body:
            if isinstance(s, ast.CiteStmt):
                pending.append(s.cite)
                continue
            if isinstance(s, ast.DecisionStmt):
                decisions.append(s.name)
                continue
            handler = _STMT.get(type(s))
            if handler is None:
                raise UnsupportedNode(s)
            result = handler(self, s, ctx)
            if isinstance(s, ast.Let):
                ctx = ctx.bind(s.name, self.type_of(s.value))
            elif isinstance(s, (ast.Choose, ast.ChooseSubset)):
                ctx = ctx.bind(s.var, self._choice_type(s))
            if result is None:
                continue
            result.cites[:0] = pending
            result.decisions[:0] = decisions
            pending, decisions = [], []
            out.append(result)
        if (pending or decisions) and out:
            out[-1].cites.extend(pending)
            out[-1].decisions.extend(decisions)
        elif pending or decisions:
            out.append(Step("", cites=pending, decisions=decisions))
        return out

    def _choice_type(self, s) -> Ty | None:
        ty = self.type_of(s.coll)
        if isinstance(s, ast.ChooseSubset):
            return ty
        return ty.elem if isinstance(ty, Coll) else ty

    # ---------------------------------------------------------------- rules
    def head(self, head: ast.RuleHead, ctx: Ctx) -> str:
        """One head of a rule as a sentence."""
        handler = _HEADS.get(head.kind)
        if handler is None:
            raise UnsupportedNode(head, f"of kind '{head.kind}'")
        ctx = self._bind_pattern(head.pattern, ctx)
        sentence = handler(self, head, ctx)
        return capitalize(contract(sentence)) + "."

    def _bind_pattern(self, pattern: ast.Pattern, ctx: Ctx) -> Ctx:
        params = self._params_of(pattern.name)
        for i, (binder, _) in enumerate(pattern.binders):
            ty = None
            if params is not None and i < len(params):
                ty = self._resolve_type(params[i].type)
            ctx = ctx.bind(binder, ty)
        return ctx

    def _params_of(self, name: str):
        if self.program is None:
            return None
        for table in (self.program.actions, self.program.quantities):
            if name in table:
                return self._all_params(table[name]) if table is self.program.actions else table[name].params
        return None

    def _all_params(self, action: ast.ActionDecl):
        return action.params

    def _resolve_type(self, t) -> Ty | None:
        if isinstance(t, ast.OptionalType):
            inner = self._resolve_type(t.inner)
            return Opt(inner) if inner else None
        if isinstance(t, ast.SetType):
            inner = self._resolve_type(t.inner)
            return Coll(inner) if inner else None
        name = t.name
        if name == "Player":
            return PLAYER
        if name in ("Int",):
            return INT
        if name == "Bool":
            return BOOL
        if self.program is not None and name in self.program.enums:
            return EnumT(name)
        if self.program is not None and name in self.program.grids:
            return GridT(name)
        if self.program is not None and name in self.program.records:
            return RecordT(name)
        return KindT(name)

    def legend(self, pattern: ast.Pattern, ctx: Ctx) -> str:
        """``p`` : un joueur, ``d`` : un quartier — what the pattern's letters stand for."""
        params = self._params_of(pattern.name) or ()
        parts = []
        for i, (binder, _) in enumerate(pattern.binders):
            if i < len(params):
                ty = self._resolve_type(params[i].type)
                noun = self.type_noun(ty)
                if isinstance(ty, Coll):
                    noun = plural(noun).replace("les ", "des ", 1)
                else:
                    noun = indefinite(noun)
                parts.append(f"{var(binder)} : {noun}")
        return ", ".join(parts)

    def action_phrase(self, name: str, args: list[str]) -> str:
        """An action as an infinitive phrase; ``args[0]`` (the actor) is left out unless the wording uses it."""
        template = self.lex.actions.get(name)
        if template is not None:
            return yours(contract(template.format(*args, *[""] * 6)))
        words = humanize(name)
        objects = args[1:]
        if not objects:
            return words
        return contract(f"{words} {objects[0] if len(objects) == 1 else '(' + ', '.join(objects) + ')'}")

    # ---------------------------------------------------------------- powers
    def power_facets(self, power: ast.PowerDecl, ctx: Ctx) -> list[str]:
        """When, how often and on what condition a power is used, as short phrases."""
        facets = ["obligatoire" if power.mandatory else "facultatif", _LIMITS.get(power.limit, power.limit)]
        if power.window is None:
            facets.append("à n'importe quel moment de votre tour")
        else:
            name, binders, _ = power.window
            wctx = ctx
            for binder, _ in binders:
                wctx = wctx.bind(binder, None)
            facets.append("quand " + self.window_clause(name, [var(b) for b, _ in binders]))
        return facets

    def power_ctx(self, power: ast.PowerDecl, ctx: Ctx) -> Ctx:
        ctx = dataclasses.replace(ctx, me=True)
        if power.window is not None:
            name, binders, _ = power.window
            params = self.program.windows[name].params if self.program and name in self.program.windows else ()
            for i, (binder, _) in enumerate(binders):
                ctx = ctx.bind(binder, self._resolve_type(params[i].type) if i < len(params) else None)
        return ctx

    def hook_sentence(self, hook: ast.BeforeDecl) -> str:
        """`before act(x…) signal w(args)` as a sentence: when the window opens, and what cancelling does."""
        decl = self.program.actions.get(hook.action) if self.program else None
        ctx = Ctx()
        for (name, _), param in zip(hook.binders, decl.params if decl else ()):
            ctx = ctx.bind(name, self._resolve_type(param.type))
        act = self.action_phrase(hook.action, [var(b) for b, _ in hook.binders])
        window = self.window_clause(hook.window, [self.expr(a, ctx) for a in hook.args])
        return capitalize(contract(f"avant qu'un joueur ({var(hook.binders[0][0]) if hook.binders else '…'}) "
                                   f"ne puisse {act}, ce moment s'ouvre : {window} ; si une réaction "
                                   f"l'annule, l'action n'a pas lieu")) + "."

    def kind_settings(self, kind: ast.KindDecl, noun: str) -> list[str]:
        """Sentences for a kind's `active` and `imitates` settings (``noun``: « ce quartier »)."""
        out = []
        if kind.active is not None:
            when = self.term_text(kind.active[0], [noun], BOOL)
            out.append(capitalize(contract(f"{noun} n'a de pouvoirs et ses règles ne s'appliquent que tant que "
                                           f"{when}")) + ".")
        if kind.imitates is not None:
            other = self.term_text(kind.imitates[0], [noun], None)
            out.append(capitalize(contract(f"{noun} a aussi les pouvoirs de la carte qu'il imite ({other}), et "
                                           f"celles de ses règles qui parlent de cette carte, comme s'il "
                                           f"était elle")) + ".")
        return out

    def window_clause(self, name: str, args: list[str]) -> str:
        template = self.lex.windows.get(name)
        if template is not None:
            return yours(contract(template.format(*args, *[""] * 4)))
        doc = self.program.windows[name].doc if self.program and name in self.program.windows else None
        text = _strip_period(doc) if doc else humanize(name)
        text = text[:1].lower() + text[1:]
        return f"{text} ({', '.join(args)})" if args else text


# ---------------------------------------------------------------- expression handlers


@_expr(ast.IntLit)
def _int(p: Prose, e: ast.IntLit, ctx: Ctx) -> str:
    return str(e.value)


@_expr(ast.BoolLit)
def _bool(p: Prose, e: ast.BoolLit, ctx: Ctx) -> str:
    return "vrai" if e.value else "faux"


@_expr(ast.NoneLit)
def _none(p: Prose, e: ast.NoneLit, ctx: Ctx) -> str:
    return "personne" if p.type_of(e) in (PLAYER, Opt(PLAYER)) else "aucun"


@_expr(ast.StrLit)
def _str(p: Prose, e: ast.StrLit, ctx: Ctx) -> str:
    if p.program is not None and e.value in p.program.cards:
        return p.card_ref(e.value)
    return f"« {rst_escape(e.value)} »"


@_expr(ast.Name)
def _name(p: Prose, e: ast.Name, ctx: Ctx) -> str:
    name = e.id
    if ctx.local(name):
        return var(name)
    if name == "me":
        return "vous" if ctx.me else "le joueur qui l'utilise"
    if name == "this":
        return ctx.this or "cette carte"
    if name == "players":
        return "les joueurs"
    if name == "player_count":
        return "le nombre de joueurs"
    program = p.program
    if program is not None:
        if name in program.enum_members:
            return f"**{rst_escape(humanize(name))}**"
        if name in program.enums or name in program.kinds:
            return plural(p.lex.types.get(name, f"le {name}"))
        for table in (program.vars, program.zones, program.quantities):
            if name in table:
                return p.term_text(name, [], p.type_of(e))
    return var(name)


@_expr(ast.Call)
def _call(p: Prose, e: ast.Call, ctx: Ctx) -> str:
    builtin = _BUILTIN_CALLS.get(e.func)
    if builtin is not None:
        return builtin(p, e, ctx)
    if p.program is not None and e.func in p.program.records:
        from checker.prose.shapes import record_value
        return record_value(p, e, ctx)
    args = p.args(e.args, ctx)
    return p.term_text(e.func, args, p.type_of(e))


def _selected(p: Prose, e: ast.Call, ctx: Ctx) -> str:
    kind = e.args[0].id if e.args and isinstance(e.args[0], ast.Name) else "?"
    return contract(f"{plural(p.lex.types.get(kind, f'le {kind}'))} de la partie")


_BUILTIN_CALLS: dict[str, Callable] = {
    "left": lambda p, e, ctx: contract(f"le voisin de gauche de {p.expr(e.args[0], ctx)}"),
    "right": lambda p, e, ctx: contract(f"le voisin de droite de {p.expr(e.args[0], ctx)}"),
    "seats_from": lambda p, e, ctx: contract(f"les joueurs, dans le sens des aiguilles d'une montre à partir de "
                                             f"{p.expr(e.args[0], ctx)}"),
    "seats_counterclockwise_from": lambda p, e, ctx: contract(
        f"les joueurs, dans le sens inverse des aiguilles d'une montre à partir de {p.expr(e.args[0], ctx)}"),
    "selected": _selected,
    "least": lambda p, e, ctx: contract(f"le plus petit entre {_arith(p, e.args[0], ctx)} et "
                                        f"{_arith(p, e.args[1], ctx)}"),
    "greatest": lambda p, e, ctx: contract(f"le plus grand entre {_arith(p, e.args[0], ctx)} et "
                                           f"{_arith(p, e.args[1], ctx)}"),
    "half": lambda p, e, ctx: contract(f"la moitié de {p.expr(e.args[0], ctx)}, arrondie à l'inférieur"),
}


@_expr(ast.Attr)
def _attr(p: Prose, e: ast.Attr, ctx: Ctx) -> str:
    obj = p.expr(e.obj, ctx)
    noun = p.lex.attributes.get(e.name)
    if noun is None:
        noun = f"le {humanize(e.name)}"
    return p.possess(noun, obj)


@_expr(ast.Index)
def _index(p: Prose, e: ast.Index, ctx: Ctx) -> str:
    if isinstance(e.obj, ast.Name) and not ctx.local(e.obj.id):
        return p.term_text(e.obj.id, [p.expr(e.index, ctx)], p.type_of(e))
    return f"{p.expr(e.obj, ctx)}[{p.expr(e.index, ctx)}]"


@_expr(ast.Unary)
def _unary(p: Prose, e: ast.Unary, ctx: Ctx) -> str:
    if e.op == "not":
        return p.negated(e.operand, ctx)
    return f"moins {p.expr(e.operand, ctx)}"


def _top_op(e, negated: bool = False) -> str | None:
    """The connective (and, or) a condition reads with at its top, once negations are pushed in."""
    if isinstance(e, ast.Unary) and e.op == "not":
        return _top_op(e.operand, not negated)
    if isinstance(e, ast.Binary) and e.op in ("and", "or"):
        return {"and": "or", "or": "and"}[e.op] if negated else e.op
    return None


def _group(p: Prose, e, ctx: Ctx, parent: str) -> str:
    text = p.expr(e, ctx)
    top = _top_op(e)
    return f"({text})" if top is not None and top != parent else text


def _group_neg(p: Prose, e, ctx: Ctx, parent: str) -> str:
    text = p.negated(e, ctx)
    top = _top_op(e, True)
    flipped = {"and": "or", "or": "and"}[parent]
    return f"({text})" if top is not None and top != flipped else text


def _is_none(e) -> bool:
    return isinstance(e, ast.NoneLit)


def _some(p: Prose, e, ctx: Ctx) -> str | None:
    """The clause that says an optional value is set, when the lexicon has one."""
    name, args = None, []
    if isinstance(e, ast.Index) and isinstance(e.obj, ast.Name):
        name, args = e.obj.id, [p.expr(e.index, ctx)]
    elif isinstance(e, ast.Name):
        name = e.id
    term = p.lex.terms.get(name) if name else None
    if term is not None and term.some:
        return contract(term.some.format(*args, *[""] * 4))
    return None


@_expr(ast.Binary)
def _binary(p: Prose, e: ast.Binary, ctx: Ctx) -> str:
    op = e.op
    if op in ("and", "or"):
        word = "et" if op == "and" else "ou"
        return f"{_group(p, e.left, ctx, op)} {word} {_group(p, e.right, ctx, op)}"
    if op == "..":
        return contract(f"de {p.expr(e.left, ctx)} à {p.expr(e.right, ctx)}")
    if op in ("==", "!=") and (_is_none(e.right) or _is_none(e.left)):
        subject = e.left if _is_none(e.right) else e.right
        some = _some(p, subject, ctx)
        if some is not None:
            return some if op == "!=" else negate(some)
        text = p.expr(subject, ctx)
        return contract(f"{text} {'existe' if op == '!=' else 'n’existe pas'}").replace("n’", "n'")
    left = p.expr(e.left, ctx)
    right = p.expr(e.right, ctx)
    if op in ("==", "!=") and isinstance(e.left, ast.Binary) and e.left.op == "%" and _is_int(e.left.right, 2) \
            and isinstance(e.right, ast.IntLit) and e.right.value in (0, 1):
        odd = (e.right.value == 1) == (op == "==")
        return contract(f"{_arith(p, e.left.left, ctx)} {conj('être', left)} {'impair' if odd else 'pair'}")
    if op in ("==", "!=") and isinstance(e.right, ast.BoolLit):
        return left if e.right.value == (op == "==") else negate(left)
    if op == "!=" and p.type_of(e.left) == BOOL and p.type_of(e.right) == BOOL:
        return contract(f"ou bien {left}, ou bien {right}, mais pas les deux")
    if op in _COMPARE:
        verb = _COMPARE_YOU.get(op) if left == "vous" and op in _COMPARE_YOU else _COMPARE[op]
        if left == "vous" and op not in _COMPARE_YOU:
            verb = verb.replace("est", "êtes", 1)
        return contract(f"{left} {verb} {right}")
    if op in ("is", "isnot"):      # physical cards: this very copy
        same = "le même exemplaire" if op == "is" else "deux exemplaires différents"
        return contract(f"{left} et {right} sont {same}")
    if op in ("isin", "isnotin"):
        clause = f"{left} (cet exemplaire-là) {conj('être', left)} dans {right}"
        return contract(clause) if op == "isin" else negate(clause)
    if op in ("in", "notin"):
        be = conj("être", left)
        where = "parmi" if isinstance(e.right, (ast.Aggregate, ast.SetLit, ast.Call)) else "dans"
        if isinstance(e.right, ast.SetLit):
            return contract(f"{left} {be if op == 'in' else negate(be).strip()} l'un de : {right}")
        clause = f"{left} {be} {where} {right}"
        return negate(clause) if op == "notin" else contract(clause)
    if op in _ARITH:
        left = _arith(p, e.left, ctx)
        comma = "," if " et " in left else ""
        return contract(f"{left}{comma} {_ARITH[op]} {_arith(p, e.right, ctx)}")
    raise UnsupportedNode(e, f"operator '{op}'")


def _is_int(e, value: int) -> bool:
    return isinstance(e, ast.IntLit) and e.value == value


def _arith(p: Prose, e, ctx: Ctx) -> str:
    text = p.expr(e, ctx)
    if isinstance(e, ast.Binary) and e.op in _ARITH:
        return f"({text})"
    return text


@_expr(ast.IfExpr)
def _ifexpr(p: Prose, e: ast.IfExpr, ctx: Ctx) -> str:
    return contract(f"{p.expr(e.then, ctx)} si {p.cond(e.cond, ctx)}, sinon {p.expr(e.else_, ctx)}")


@_expr(ast.SetLit)
def _setlit(p: Prose, e: ast.SetLit, ctx: Ctx) -> str:
    items = p.args(e.items, ctx)
    if not items:
        return "rien"
    return ", ".join(items[:-1]) + (" ou " if len(items) > 1 else "") + items[-1]


@_expr(ast.Can)
def _can(p: Prose, e: ast.Can, ctx: Ctx) -> str:
    args = p.args(e.args, ctx)
    subject = args[0] if args else "on"
    return contract(f"{subject} {conj('pouvoir', subject)} {p.action_phrase(e.action, args)}")


@_expr(ast.Aggregate)
def _aggregate(p: Prose, e: ast.Aggregate, ctx: Ctx) -> str:
    handler = _AGGREGATES.get(e.kind)
    if handler is None:
        raise UnsupportedNode(e, f"aggregate '{e.kind}'")
    coll_ty = p.type_of(e.coll)
    elem_ty = coll_ty.elem if isinstance(coll_ty, Coll) else coll_ty
    inner = ctx.bind(e.var, elem_ty)
    coll = p.expr(e.coll, ctx)
    noun = p.element_noun(e.coll)
    body = p.expr(e.body, inner) if e.body is not None and not (
        isinstance(e.body, ast.BoolLit) and e.body.value) else None
    return contract(handler(noun, var(e.var), coll, body, _uses(e.body, e.var)))


def _uses(node, name: str) -> bool:
    """Does ``node`` mention the name ``name``?"""
    if node is None:
        return False
    if isinstance(node, ast.Name):
        return node.id == name
    if dataclasses.is_dataclass(node):
        return any(_uses(getattr(node, f.name), name) for f in dataclasses.fields(node)
                   if f.name not in ("span", "func_span", "var_span"))
    if isinstance(node, tuple):
        return any(_uses(x, name) for x in node)
    return False


def _source(coll: str) -> str:
    return f"parmi {coll}" if coll.startswith(("les ", "des ", "*")) else f"de {coll}"


def _members(noun: str, x: str, coll: str, body: str | None, used: bool) -> str:
    """``les quartiers *d* de la cité de *p* tels que …``"""
    words = plural(noun)
    tel = "telles" if feminine(noun) else "tels"
    head = bare(plural(noun)).split(" ")[0]
    if coll.startswith("les ") and head in coll.split(" ")[1:3]:
        words_of_coll = coll.split(" ")
        at = words_of_coll.index(head) + 1
        base = " ".join(words_of_coll[:at] + [x] + words_of_coll[at:]) if used else coll
    else:
        base = f"{words} {x} {_source(coll)}" if used else f"{words} {_source(coll)}"
    return f"{base} {tel} que {body}" if body is not None else base


_AGGREGATES: dict[str, Callable] = {
    "count": lambda n, x, c, b, u: _count(n, x, c, b, u),
    "filter": lambda n, x, c, b, u: _members(n, x, c, b, u),
    "sum": lambda n, x, c, b, u: f"la somme, pour chaque {bare(n)} {x} {_source(c)}, de {b}",
    "max": lambda n, x, c, b, u: f"la plus grande valeur de {b} pour les {bare(plural(n))} {x} {_source(c)} "
                                 f"(0 s'il n'y en a aucun)",
    "min": lambda n, x, c, b, u: f"la plus petite valeur de {b} pour les {bare(plural(n))} {x} {_source(c)} "
                                 f"(0 s'il n'y en a aucun)",
    "argmax": lambda n, x, c, b, u: f"{_members(n, x, c, None, True)} pour lesquels {b} est le plus grand",
    "argmin": lambda n, x, c, b, u: f"{_members(n, x, c, None, True)} pour lesquels {b} est le plus petit",
    "any": lambda n, x, c, b, u: f"il existe {indefinite(n)} {x} {_source(c)} tel que {b}"
                                 if b is not None else f"il existe {indefinite(n)} {_source(c)}",
    "all": lambda n, x, c, b, u: f"pour chaque {bare(n)} {x} {_source(c)}, {b}",
    "the": lambda n, x, c, b, u: f"{_the(n, x, c, b)} (ou personne s'il n'y en a pas)",
    "only": lambda n, x, c, b, u: f"le seul {_the(n, x, c, b)[3:] if not feminine(n) else _the(n, x, c, b)}",
}


def _count(noun: str, x: str, coll: str, body: str | None, used: bool) -> str:
    """``le nombre de cartes dans votre main``, ``le nombre de quartiers *d* de … tels que …``"""
    if body is None:
        if coll.startswith("les "):
            return f"le nombre de {coll[4:]}"
        if coll.startswith("vos "):
            return f"le nombre de {coll}"
        return f"le nombre de {bare(plural(noun))} dans {coll}"
    return "le nombre de " + split_article(_members(noun, x, coll, body, used))[1]


def _the(noun: str, x: str, coll: str, body: str | None) -> str:
    tel = "telle" if feminine(noun) else "tel"
    base = f"{noun} {x} {_source(coll)}"
    return f"{base} {tel} que {body}" if body is not None else base


# ---------------------------------------------------------------- rule heads


def _when(p: Prose, head: ast.RuleHead, ctx: Ctx) -> str:
    return f" lorsque {p.cond(head.when, ctx)}" if head.when is not None else ""


def _pattern_args(head: ast.RuleHead) -> list[str]:
    return [var(b) for b, _ in head.pattern.binders]


def _subject(p: Prose, head: ast.RuleHead, args: list[str]) -> str:
    params = p._params_of(head.pattern.name) or ()
    if params and args and p._resolve_type(params[0].type) == PLAYER:
        return args[0]
    return "on"


def _permit_forbid(p: Prose, head: ast.RuleHead, ctx: Ctx, allowed: bool) -> str:
    args = _pattern_args(head)
    subject = _subject(p, head, args)
    verb = conj("pouvoir", subject)
    phrase = p.action_phrase(head.pattern.name, args)
    modal = verb if allowed else f"ne {verb} pas"
    return contract(f"{subject} {modal} {phrase}{_when(p, head, ctx)}")


def _quantity_head(p: Prose, head: ast.RuleHead, ctx: Ctx) -> tuple[str, Ty | None]:
    q = p.program.quantities.get(head.pattern.name) if p.program else None
    ty = p._resolve_type(q.type) if q is not None else None
    return p.term_text(head.pattern.name, _pattern_args(head), ty), ty


def _lead(p: Prose, head: ast.RuleHead, ctx: Ctx, clause: str) -> str:
    """``Lorsque …, clause``: a value or an adjustment reads best with its condition first."""
    if head.when is None:
        return clause
    return f"lorsque {p.cond(head.when, ctx)}, {clause}"


def _value(p: Prose, head: ast.RuleHead, ctx: Ctx) -> str:
    subject, ty = _quantity_head(p, head, ctx)
    if ty == BOOL:
        if isinstance(head.expr, ast.BoolLit):
            return _lead(p, head, ctx, subject if head.expr.value else negate(subject))
        return _lead(p, head, ctx, f"{subject} si et seulement si {p.cond(head.expr, ctx)}")
    return _lead(p, head, ctx, f"{subject} vaut {p.expr(head.expr, ctx)}")


def _adjust(p: Prose, head: ast.RuleHead, ctx: Ctx) -> str:
    subject, _ = _quantity_head(p, head, ctx)
    if isinstance(head.expr, ast.Unary) and head.expr.op == "-":
        return _lead(p, head, ctx, f"{subject} diminue de {p.expr(head.expr.operand, ctx)}")
    return _lead(p, head, ctx, f"{subject} augmente de {p.expr(head.expr, ctx)}")


_HEADS: dict[str, Callable] = {
    "permit": lambda p, h, ctx: _permit_forbid(p, h, ctx, True),
    "forbid": lambda p, h, ctx: _permit_forbid(p, h, ctx, False),
    "value": _value,
    "adjust": _adjust,
}
