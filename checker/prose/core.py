"""French prose from the typed AST: rule heads, conditions, statements and powers as sentences.

The wording of the spec's own vocabulary (zones, counters, quantities, actions…) comes
from a :class:`Lexicon` (the book's ``lexique.toml``); what the lexicon does not give
falls back on the identifier, humanized.  Every node type is handled by a function
registered for it (:mod:`checker.prose.exprs`, :mod:`checker.prose.statements`); a node
with no handler raises :class:`UnsupportedNode`, located, rather than being skipped.

A bound name (a rule's pattern, a loop, a choice…) is not printed as its letter: it reads
as what it stands for, by its type — ``vous`` for the player a rule or a power speaks to,
« un quartier » the first time, « ce quartier » after; a name that two values of the same
type would share is told apart without its letter where it can be (:mod:`checker.prose.names`: the place
it was chosen in, its order, an attribute, what it counts) and gets it otherwise.  While a sentence
is being built each such mention is a marker; :meth:`Prose.finish` chooses the words once
the sentence is whole, in reading order.  The output is reST inline text: cards through
the ``card`` callback (a cross-reference in the book), with their article.

>>> from checker.base.source import Span
>>> at = Span("x.rules", 1, 1, 1, 2)
>>> prose = Prose(None)
>>> prose.expr(ast.Binary(">=", ast.IntLit(3, at), ast.IntLit(2, at), at), Ctx())
'3 est au moins 2'
"""

from __future__ import annotations

import dataclasses
import re
from typing import Callable

from checker.front import ast
from checker.prose.french import (_VOWEL, _choose, _dedupe, _twice,
                                  Lexicon, _strip_period, apposed, bare, capitalize, contract, demonstrative,
                                  feminine, humanize, indefinite, named, plural, rst_escape, split_article, yours)
from checker.prose.verbs import first_verb, inflect, is_verb, person_of
from checker.prose.names import (UNIT, counted_noun, is_player, names_players, number_noun, order, placed, told_apart,
                                 unit_noun, window_subject, worded)
from checker.prose.context import (_EXPR, _STMT, Binding, Ctx, Step, UnsupportedNode, _expr, _stmt, cites_of,
                                    flatten_steps, late, provide, provides)
from checker.base.source import Span
from checker.front.types import BOOL, INT, PLAYER, Coll, EnumT, GridT, KindT, Opt, RecordT, Ty

__all__ = ["Prose", "Ctx", "Step", "UnsupportedNode", "var", "flatten_steps", "cites_of"]


_ARITH = {"+": "plus", "-": "moins", "*": "fois", "/": "divisé par", "%": "modulo"}
_LIMITS = {"once_per_turn": "une fois par tour", "once_per_round": "une fois par tour de jeu",
           "once_per_game": "une fois par partie", "unlimited": "sans limite"}
MARK = re.compile("\ue000(\\d+)\ue001")
LABEL = re.compile("\ue002(\\d+)\ue003")      # where a name's letter goes, if it needs one
_PREPOSITIONS = {"à", "de", "d'", "par", "pour", "avec", "contre", "sur", "sous", "devant", "chez", "entre", "dans",
                 "parmi", "vers", "en", "au", "aux", "du", "des"}


def var(name: str) -> str:
    return f"*{humanize(name).replace(chr(39), '’')}*"


@dataclasses.dataclass
class Ref:
    """How one binding reads; ``labeled``: its letter goes beside its noun (two of the same noun)."""
    binding: Binding
    noun: str
    plural: bool
    labeled: bool = False
    rivals: set[int] = dataclasses.field(default_factory=set)     # the names of the same noun that labeled it
    ordinal: str | None = None      # « le premier quartier », « le second quartier »: told apart by their order


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
        self._refs: dict[int, Ref] = {}
        self._depth = 0
        self._cards: dict[str, str] = {}       # a card's text → its gender and number ("f", "fp", "m", "mp")
        self._powers: dict[tuple[int, int], Ctx] = {}     # the names a power binds, the same for all its text
        self._written: set[int] = set()        # the names some text has written with their letter

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

    def identity(self, ty: Ty | None, value, ctx: Ctx) -> bool:
        """Does ``x == value``, for ``x`` of type ``ty``, single out one value?  For cards (``==``
        compares names) only when ``value`` is a card of one copy, or every card of the kind is."""
        if isinstance(ty, Opt):
            return self.identity(ty.inner, value, ctx)
        if isinstance(ty, KindT):
            if self.program is None:
                return False
            name = value.value if isinstance(value, ast.StrLit) else \
                ctx.card if isinstance(value, ast.Name) and value.id == "this" else None
            if name in self.program.cards:
                return self.program.copies(self.program.cards[name]) == 1
            return all(self.program.copies(c) == 1 for c in self.program.cards_of(ty.name))
        return ty is not None and not isinstance(ty, Coll)

    def type_of(self, e) -> Ty | None:
        return self.types.get(id(e))

    def card_np(self, name: str) -> str:
        """A card's name with its article (« la Tour », « l’École »), as a cross-reference."""
        ref = self.card_ref(name)
        article = self.lex.card_article(name)
        if article == "l'":
            article = "l'" if ref[:1].isalpha() else "l’"
        text = article + ref
        fem = name in self.lex.feminine_cards
        self._cards[text] = ("f" if fem else "m") + ("p" if name in self.lex.plural_cards else "")
        return text

    def card_ctx(self, kind: str | None, name: str | None = None) -> Ctx:
        """The context of a card of ``kind``: ``this`` reads as its name with its article, or
        « ce personnage » when the card is not named (no card: no ``this``)."""
        if kind is None:
            return Ctx()
        if name is not None:
            return Ctx(this=self.card_np(name), card=name)
        return Ctx(this=demonstrative(self.type_noun(KindT(kind))))

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

    # ---------------------------------------------------------------- persons, genders, templates
    def ref_of(self, text: str) -> Ref | None:
        m = MARK.fullmatch(text)
        return self._refs.get(int(m.group(1))) if m else None

    def person(self, subject: str) -> str:
        """``2p`` for « vous », ``3p`` for a plural subject, ``3s`` otherwise."""
        ref = self.ref_of(subject)
        if ref is not None:
            return "2p" if ref.binding.mode == "you" else ("3p" if ref.plural else "3s")
        if subject == "vous":
            return "2p"
        if subject.startswith(("les ", "des ", "vos ", "ces ", "leurs ", "tous les ", "toutes les ")) or \
                self._cards.get(subject, "").endswith("p"):
            return "3p"
        return "3s"

    def is_feminine(self, subject: str) -> bool:
        ref = self.ref_of(subject)
        if ref is not None:
            return ref.binding.mode != "you" and feminine(ref.noun)
        if subject in self._cards:
            return self._cards[subject].startswith("f")
        return subject.startswith(("la ", "une ", "cette ", "l'une "))

    def fill(self, template: str, args: list[str], ctx: Ctx, negative: bool = False, word: str = "pas") -> str:
        """A lexicon template with its arguments, its verb agreeing with its subject (``{0} est…``:
        « vous êtes… »), in the context's mood, negated if asked; « son », « sa », « ses » say
        « votre », « vos » when ``{0}`` (the subject or the actor) is « vous »."""
        args = [*args, *[""] * 6]
        template = _choose(template, args)
        found = first_verb(template)
        you = bool(args[0]) and self.person(args[0]) == "2p"
        if found is not None:
            at, verb = found
            head = template[:at]
            subject = head.strip()
            m = re.fullmatch(r"\{(\d)\}", subject) or re.search(r"\b(?:que|qu'|où) ?\{(\d)\}$", subject)
            person = self.person(args[int(m.group(1))]) if m else person_of(verb)
            form = inflect(verb, person, ctx.mood)
            tail = template[at + len(verb):]
            tail = _agree(tail, person == "3p", m is not None and self.is_feminine(args[int(m.group(1))]), verb)
            if negative:
                pronoun = re.search(r"\b(se|s')\s?$", head)
                if pronoun:
                    head, form = head[:pronoun.start()], pronoun.group(0) + form
                    if person == "2p":
                        form = "vous " + form[len(pronoun.group(0)):]
                form = ("n'" if form[:1] in _VOWEL else "ne ") + form + " " + word
                if verb not in ("est", "devient"):      # « n'a pas annoncé de personnage »
                    tail = re.sub(r"^((?: [^\W\d_]+é\w*)?) (?:un|une|des) ", r"\1 de ", tail)
            elif person == "2p":
                head = re.sub(r"\b(se|s')\s?$", "vous ", head)
            template = head + form + tail
        elif negative:
            template = f"il est faux que {template}"
        if you:
            template = re.sub(r"\b[sS]on\b|\b[sS]a\b", "votre", template)
            template = re.sub(r"\b[sS]es\b", "vos", template)
        text = template
        for i, arg in enumerate(args[:10]):
            ref = self.ref_of(arg)
            if ref is not None and ref.noun == unit_noun(text, i):       # « tournée de ce nombre de quarts de tour »
                text = re.sub(r"\{%d\} %s" % (i, UNIT), "{%d}" % i, text, count=1)
        for i, arg in enumerate(args[:10]):
            if re.match(r"(?:(?:les?|la|des?|du|une?|votre|vos|ce|cette|ces) |l')", arg):
                # « le signe du nombre {0} » names a letter; a noun phrase goes without the noun: « le signe de l'écart »
                text = re.sub(r"\b(?:du|de la|de l'|des) (?!(?:" + "|".join(_PREPOSITIONS) + r") )[^\W\d_]+ \{" + str(i)
                              + r"\}", "de {" + str(i) + "}", text)
            text = text.replace("{" + str(i) + "}", arg)
        return text

    def clause(self, subject: str, verb: str, rest: str, ctx: Ctx, negative: bool = False) -> str:
        """``subject verb rest`` with the verb agreeing, in the context's mood, negated if asked."""
        form = inflect(verb, self.person(subject), ctx.mood)
        if negative:
            form = ("n'" if form[:1] in _VOWEL else "ne ") + form + " pas"
        return f"{subject} {form} {rest}".rstrip()

    def term_text(self, name: str, args: list[str], ty: Ty | None, ctx: Ctx | None = None,
                  negative: bool = False) -> str:
        """A var, zone, counter, quantity or table applied to rendered arguments."""
        ctx = ctx or Ctx()
        term = self.lex.terms.get(name)
        if term is not None and "{" in term.text:
            return self.fill(term.text, args, ctx if ty == BOOL or negative else ctx.ind(), negative)
        noun = term.text if term is not None else None
        if noun is None:
            words = humanize(name)
            if ty == BOOL:
                text = f"« {words} »" + (f" ({', '.join(args)})" if args else "")
                return self.clause(text, "est", "vrai", ctx, negative)
            if args and words.rsplit(" ", 1)[-1] in ("de", "à", "sur", "sous", "dans", "avec", "par", "pour"):
                # ``autour_de(b, v)``: « autour de b (v) », not « l'autour de de b »
                return contract(f"{words} {args[0]}") + (f" ({', '.join(args[1:])})" if len(args) > 1 else "")
            noun = contract(f"{'la' if feminine(words) else 'le'} {words}")
        elif ty == BOOL or (term is not None and first_verb(noun)):
            return self.fill(noun, args, ctx, negative)
        if not args:
            return noun
        return self.possess(noun, args[0]) + (f" ({', '.join(args[1:])})" if len(args) > 1 else "")

    def default_clause(self, q: ast.QuantityDecl, ctx: Ctx) -> str:
        """A quantity's default as a clause: « votre revenu vaut 2 », « un personnage est en jeu si … »."""
        ctx = self.bind_params(q.params, Ctx(this=ctx.this))
        ty = self._resolve_type(q.type)

        def text() -> str:
            args = [self._mention_name(param.name, ctx) for param in q.params]
            if ty == BOOL:
                if isinstance(q.default, ast.BoolLit):
                    return self.term_text(q.name, args, ty, ctx, negative=not q.default.value)
                return f"{self.term_text(q.name, args, ty, ctx)} si {self.cond(q.default, ctx)}"
            term, value = self.term_text(q.name, args, ty, ctx), self.expr(q.default, ctx)
            same = re.fullmatch(re.escape(term) + r" \(qui (.*)\)", value)
            if same is not None:        # named as its value reads: « … vaut … (qui doit exister) » says nothing
                return f"{term} {same.group(1)}"
            return self.clause(term, "vaut", value, ctx)
        return self._top(text, ctx)

    @staticmethod
    def possess(noun: str, owner: str) -> str:
        """``le trésor`` of ``vous`` → ``votre trésor``; of ``ce joueur`` → ``le trésor de ce joueur``."""
        if owner == "vous":
            article, rest = split_article(noun)
            return f"{'vos' if article in ('les', 'des') else 'votre'} {rest}"
        return contract(f"{noun} de {owner}")

    # ---------------------------------------------------------------- bound names
    def mention(self, binding: Binding, ctx: Ctx) -> str:
        """The marker of one mention of a bound name (its words are chosen by :meth:`finish`)."""
        ref = self._refs.get(binding.uid)
        if ref is None:
            ty = binding.ty
            noun = binding.noun or self.type_noun(ty)
            ref = Ref(binding, noun, isinstance(ty, Coll))
            self._refs[binding.uid] = ref
        if ref.binding.mode != "you":
            for other in ctx.locals:
                if other.uid == binding.uid or other.mode in ("you", "alias", "whatever") or \
                        other.mode == "rel" and binding.mode != "rel" or \
                        not worded(binding) and not worded(other) and told_apart(binding, other):
                    continue
                theirs = other.noun or self.type_noun(other.ty)
                if theirs == ref.noun and isinstance(other.ty, Coll) == ref.plural:
                    if worded(other) and not worded(binding):
                        continue        # « le personnage *visé* » has its word: this one reads « ce personnage »
                    ref.labeled = True
                    ref.rivals.add(other.uid)
                    # a relative's name (« dont … ») written with a letter does not letter the one it is told from
                    if other.uid in self._refs and not (worded(binding) and not worded(other)) and \
                            binding.mode != "rel":
                        self._refs[other.uid].labeled = True
                        self._refs[other.uid].rivals.add(binding.uid)
        return f"\ue000{binding.uid}\ue001"

    def label(self, binding: Binding) -> str:
        """A place for the letter of a name a sentence introduces (« pour chaque joueur *q* »): it is
        written only if two values of the same noun are around."""
        if binding.uid not in self._refs:
            self._refs[binding.uid] = Ref(binding, binding.noun or self.type_noun(binding.ty),
                                          isinstance(binding.ty, Coll))
        return f"\ue002{binding.uid}\ue003"

    def _label(self, uid: int) -> str:
        ref = self._refs.get(uid)
        return self._tag(ref) if ref is not None and self._lettered(ref) else ""

    @staticmethod
    def _tag(ref: Ref) -> str:
        """A name beside its noun: plain when it reads as an apposition (« les joueurs victimes »), else in
        italics (« le nombre *dé* »)."""
        name = ref.binding.name
        np = plural(ref.noun) if ref.plural else ref.noun
        return f" {humanize(name).replace(chr(39), '’')}" if apposed(np, name) else f" {var(name)}"

    def _forms(self, ref: Ref) -> tuple[str, str]:
        """(the first mention, the next ones)."""
        b = ref.binding
        if b.mode == "you":
            return "vous", "vous"
        noun = ref.noun
        if ref.ordinal is not None:
            return indefinite(noun), named(noun, ref.ordinal)
        if b.mode == "named" and not ref.plural and (adjective := named(noun, b.name)):
            return adjective, adjective          # « le premier joueur »: the adjective tells it apart
        named_ = b.mode == "named" and humanize(b.name) not in (bare(noun), bare(plural(noun)))
        label = self._tag(ref) if self._lettered(ref) or named_ else ""
        if ref.plural:
            definite = plural(noun)
            again = definite + label if label else "ces " + bare(definite)
            first = {"param": f"des {bare(definite)}{label}", "def": definite + label}.get(b.mode, again)
            if b.mode == "exists":
                first = contract(f"certains {bare(definite)}{label} de {b.source}")
            return first, again
        at_place = ref.labeled and placed(self, ref)
        if at_place:
            label = f" {contract('de ' + b.source)}"        # « le quartier de votre cité »
        again = noun + label if label else demonstrative(noun)
        if b.mode == "whatever":
            return f"n'importe {'quelle' if feminine(noun) else 'quel'} {bare(noun)}", again
        if b.mode == "param":
            return indefinite(noun) + label, again
        if b.mode in ("def", "named"):
            return noun + label, noun + label
        if b.mode == "exists":
            return self.member(noun, b.source or "", "" if at_place else label), again
        if b.mode == "each":
            return (b.source or f"chaque {bare(noun)}").replace(f" {bare(noun)}", f" {bare(noun)}{label}", 1), again
        return again, again

    def _lettered(self, ref: Ref) -> bool:
        """Is a name written with its letter: labeled, and neither told apart by the place it was chosen in
        nor the one left beside names that all are (« ce quartier », beside « le quartier de votre cité »)?"""
        if not ref.labeled or placed(self, ref):
            return False
        return not (ref.rivals and all(r is not None and placed(self, r) for r in map(self._refs.get, ref.rivals)))

    def member(self, noun: str, source: str, label: str = "") -> str:
        """« un quartier de votre cité », « l'un des joueurs »: one element of a collection."""
        one = indefinite(noun) + label
        if not source or source == plural(noun):
            return one
        if label:
            return contract(f"{one} {'parmi' if source.startswith(('les ', 'vos ', 'ces ')) else 'de'} {source}")
        if source.startswith(("les ", "vos ", "des ", "ces ", "ses ", "leurs ")) or MARK.match(source):
            return contract(f"{'l’une' if feminine(noun) else 'l’un'} de {source}").replace("’", "'")
        return contract(f"{one} de {source}")

    def finish(self, text: str, ctx: Ctx) -> str:
        """The words of every mention, in reading order, then the contractions and possessives."""
        for _ in range(10000):
            m = MARK.search(text)
            if m is None:
                break
            uid = int(m.group(1))
            ref = self._refs.get(uid)
            if ref is None:
                words = "?"
            else:
                if uid not in ctx.seen:
                    order(self, ref, ctx)
                first, again = self._forms(ref)
                words = again if uid in ctx.seen else first
                ctx.seen.add(uid)
                if self._lettered(ref):
                    self._written.add(uid)
            text = text[:m.start()] + words + text[m.end():]
        text = LABEL.sub(lambda m: self._label(int(m.group(1))), text)
        text = yours(contract(text))
        text = _twice(text)
        text = re.sub(r"\(n'importe (quel|quelle) [^()]*\)", lambda m: "(n'importe " +
                      ("lequel" if m.group(1) == "quel" else "laquelle") + ")", text)
        text = re.sub(r"\b(qui|qu'il|qu'elle) (\w+) à vous\b", r"\1 vous \2", text)

        text = re.sub(r"\b([sS])i il", r"\1'il", text)
        return _dedupe(contract(text))

    def _top(self, fn, ctx: Ctx):
        """Run ``fn``; the outermost call finishes the text (its markers become words)."""
        self._depth += 1
        try:
            out = fn()
        finally:
            self._depth -= 1
        if self._depth == 0:
            self._unlabel_lone(out, ctx)
            if isinstance(out, str):
                return self.finish(out, ctx)
            if isinstance(out, list) and out and isinstance(out[0], Step):
                self._finish_steps(out, ctx)
        return out

    def _unlabel_lone(self, out, ctx: Ctx) -> None:
        """A letter is written to tell two names apart: a name first written in what is being
        finished and never mentioned again there, whose rivals are all names of the sentence read
        without a letter (« d'un joueur *r* si vous êtes parmi les joueurs dont… »), goes without its
        letter. Beside a parameter, which a heading names by its letter, it keeps it."""
        texts = [out] if isinstance(out, str) else []
        pending = list(out) if isinstance(out, list) else []
        while pending:
            step = pending.pop()
            if isinstance(step, Step):
                texts.append(step.text or "")
                pending.extend(step.children)
        counts: dict[int, int] = {}
        for text in texts:
            for m in (*MARK.finditer(text), *LABEL.finditer(text)):
                counts[int(m.group(1))] = counts.get(int(m.group(1)), 0) + 1
        for uid, count in counts.items():
            ref = self._refs.get(uid)
            if ref is not None and ref.labeled and uid not in ctx.seen and ref.rivals and all(
                    (rival := self._refs.get(uid_)) is not None and not counts.get(uid_) and
                    (rival.binding.mode in ("intro", "rel") or uid_ not in self._written) for uid_ in ref.rivals):
                ref.labeled = False          # its rivals are names this text never writes, nor any with a letter
                continue
            if count == 1 and uid not in ctx.seen and ref is not None and ref.labeled and ref.binding.mode == "exists":
                ref.labeled = False          # « un quartier de votre cité », written once: no letter refers to it
                continue
            if count == 1 and uid not in ctx.seen and ref is not None and ref.labeled and all(
                    (rival := self._refs.get(uid_)) is not None and rival.binding.mode in ("intro", "rel")
                    and not (rival.labeled and counts.get(uid_)) for uid_ in ref.rivals):
                ref.labeled = False

    def _finish_steps(self, steps: list[Step], ctx: Ctx) -> None:
        for step in steps:
            step.text = capitalize(self.finish(step.text, ctx)) if step.text else step.text
            self._finish_steps(step.children, ctx)

    # ---------------------------------------------------------------- expressions
    def expr(self, e, ctx: Ctx) -> str:
        handler = _EXPR.get(type(e))
        if handler is None:
            raise UnsupportedNode(e)
        return self._top(lambda: handler(self, e, ctx), ctx)

    def cond(self, e, ctx: Ctx) -> str:
        """A condition as a clause."""
        return self.expr(e, ctx)

    def negated(self, e, ctx: Ctx) -> str:
        """The negation of a condition, built on the AST (De Morgan, flipped comparisons)."""
        negation = late("negation")
        return self._top(lambda: negation(self, e, ctx), ctx)

    def args(self, es, ctx: Ctx) -> list[str]:
        return [self.expr(a, ctx) for a in es]

    # ---------------------------------------------------------------- statements
    def steps(self, body, ctx: Ctx) -> list[Step]:
        """The statements of a block as steps; a `cite` goes with the step that follows it."""
        return self._top(lambda: self._steps(body, ctx), ctx)

    def _steps(self, body, ctx: Ctx) -> list[Step]:
        out: list[Step] = []
        pending: list[ast.Cite] = []
        decisions: list[str] = []
        for i, s in enumerate(body):
            if isinstance(s, ast.CiteStmt):
                pending.append(s.cite)
                continue
            if isinstance(s, ast.DecisionStmt):
                decisions.append(s.name)
                continue
            handler = _STMT.get(type(s))
            if handler is None:
                raise UnsupportedNode(s)
            if isinstance(s, (ast.Choose, ast.ChooseSubset)):
                ctx = ctx.bind(s.var, self._choice_type(s), "intro", noun=self._choice_noun(s, body[i + 1:]),
                               source=self._choice_place(s, ctx))
            result = handler(self, s, ctx)
            if isinstance(s, ast.Let):
                noun = self.let_noun(s, ctx)
                ctx = ctx.bind(s.name, self.type_of(s.value), "intro" if noun else "named", noun=noun)
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

    def _choice_place(self, s, ctx: Ctx) -> str | None:
        """Where one value is chosen, when that is a place (« votre cité », « la cité de ce joueur »): two
        choices of one noun are told apart by it, « le quartier de votre cité »."""
        if not isinstance(s, ast.Choose) or not isinstance(s.coll, (ast.Index, ast.Name)) or \
                isinstance(self.type_of(s.coll), Coll) is False:
            return None
        place = self.expr(s.coll, ctx.ind())
        return place if re.match(r"(?:votre|la|le|l')\s?", place) and " dont " not in place else None

    def let_noun(self, s: ast.Let, ctx: Ctx) -> str | None:
        """A number a `let` names by what it counts (« ce nombre de quartiers »), not by its letter; a name
        the spec writes as a word (``cartes``) keeps it."""
        return counted_noun(self.expr(s.value, ctx)) if self.type_of(s.value) == INT and not worded(
            Binding(s.name, None)) else None

    def _choice_noun(self, s, after=()) -> str | None:
        if isinstance(s.coll, ast.Binary) and s.coll.op == "..":
            return number_noun(self, s.var, after) or "le nombre"
        return self.element_noun(s.coll)

    # ---------------------------------------------------------------- rules
    def head(self, head: ast.RuleHead, ctx: Ctx) -> str:
        """One head of a rule as a sentence."""
        bind_pattern = late("bind_pattern")
        handler = late("HEADS").get(head.kind)
        if handler is None:
            raise UnsupportedNode(head, f"of kind '{head.kind}'")
        ctx = ctx.fresh()
        ctx, when = bind_pattern(self, head, ctx)
        sentence = self._top(lambda: handler(self, head, ctx, when), ctx)
        return capitalize(contract(sentence)) + "."

    def _params_of(self, name: str):
        if self.program is None:
            return None
        for table in (self.program.actions, self.program.quantities):
            if name in table:
                return table[name].params
        return None

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

    def bind_params(self, params, ctx: Ctx, you_first: bool = True, mode: str = "param") -> Ctx:
        """A declaration's parameters: the first player is « vous » (when ``you_first``), the others
        read « un quartier », then « ce quartier » (``mode``)."""
        you = not you_first
        for param in params:
            ty = self._resolve_type(param.type)
            if ty == PLAYER and not you and not ctx.me:
                ctx = ctx.bind(param.name, ty, "you")
                you = True
            else:
                ctx = ctx.bind(param.name, ty, mode)
        return ctx

    def legend(self, pattern: ast.Pattern, ctx: Ctx) -> str:
        """What a pattern's letters stand for: nothing, now that every name reads as its noun."""
        return ""

    def action_phrase(self, name: str, args: list[str], ctx: Ctx | None = None) -> str:
        """An action as an infinitive phrase; ``args[0]`` (the actor) is left out unless the wording uses it."""
        template = self.lex.actions.get(name)
        if template is not None:
            return self.fill(template, args, ctx or Ctx())
        words = humanize(name)
        objects = args[1:]
        if not objects:
            return words
        return contract(f"{words} {objects[0] if len(objects) == 1 else '(' + ', '.join(objects) + ')'}")

    def action_summary(self, action: ast.ActionDecl) -> str:
        """What an action does, as one sentence: « Bâtir un quartier. »"""
        ctx = self.bind_params(action.params, Ctx())
        args = [self.mention(b, ctx) for b in reversed(ctx.locals)]
        return capitalize(self.finish(self.action_phrase(action.name, args, ctx), ctx)) + "."

    # ---------------------------------------------------------------- powers
    def power_facets(self, power: ast.PowerDecl, ctx: Ctx) -> list[str]:
        """When, how often and on what condition a power is used, as short phrases."""
        facets = ["obligatoire" if power.mandatory else "facultatif", _LIMITS.get(power.limit, power.limit)]
        if power.window is None:
            facets.append("à n'importe quel moment de votre tour")
        else:
            pctx = self.power_ctx(power, ctx)
            name, binders, _ = power.window
            args, nouns = [], []
            bound = [pctx.lookup(b) for b, _ in binders]
            told = [self.type_noun(x.ty) for x in bound if x is not None and x.mode in ("def", "param")]
            for (b, _), binding in zip(binders, bound):
                # « quand un joueur attaque un autre joueur »: no letter tells them apart
                if binding is None or binding.mode not in ("def", "param"):
                    args.append(self._mention_name(b, pctx))
                    continue
                noun = self.type_noun(binding.ty)
                if binding.mode == "param" and told.count(noun) == 1:
                    args.append(self._mention_name(b, pctx))
                else:
                    self.mention(binding, pctx)
                    pctx.seen.add(binding.uid)
                    args.append(f"{'une' if feminine(noun) else 'un'} {'autre ' if noun in nouns else ''}{bare(noun)}")
                nouns.append(noun)
            facets.append(self.finish("quand " + self.window_clause(name, args, pctx), pctx))
        return facets

    def _mention_name(self, name: str, ctx: Ctx) -> str:
        binding = ctx.lookup(name)
        if binding is None:
            return var(name)
        return late("_local")(self, binding, ctx)

    def power_ctx(self, power: ast.PowerDecl, ctx: Ctx) -> Ctx:
        """The context of a power's condition and steps: `me` is « vous »; the window's names read
        « un joueur », then « ce joueur »; one the condition equates with the card reads as the card."""
        aliases = late("aliases")
        key = (id(power), id(ctx.seen))
        if key in self._powers:
            return self._powers[key]
        ctx = dataclasses.replace(ctx, me=True)
        if power.window is not None:
            name, binders, _ = power.window
            params = self.program.windows[name].params if self.program and name in self.program.windows else ()
            found = aliases(power.requires, {b for b, _ in binders})
            types = [self._resolve_type(params[i].type) if i < len(params) else None for i in range(len(binders))]
            found |= late("you_aliases")(power.requires, [b for i, ((b, _), ty) in enumerate(zip(binders, types))
                                                          if is_player(ty) and b not in found and
                                                          self._reads_you(name, i)])
            subjects = {i: window_subject(self, name, i, types, binders, found, ctx) for i in range(len(binders))
                        if binders[i][0] not in found and is_player(types[i]) and
                        (sum(map(is_player, types)) > 1 or names_players(self, power))}
            # two players the moment names « un joueur », « un autre joueur »: « le joueur », « l'autre joueur »
            others = [i for i, who in subjects.items() if who is None]
            for i, (binder, _) in enumerate(binders):
                if binder in found:
                    ctx = ctx.bind(binder, types[i], "alias", alias=found[binder])
                elif subjects.get(i):
                    ctx = ctx.bind(binder, types[i], "def", noun=subjects[i])
                elif len(others) == 2 and i in others and not any(subjects.values()):
                    noun = self.type_noun(types[i])
                    ctx = ctx.bind(binder, types[i], "def",
                                   noun=noun if i == others[0] else contract(f"l'autre {bare(noun)}"))
                else:
                    ctx = ctx.bind(binder, types[i], "param")
        self._powers[key] = ctx
        return ctx

    def _reads_you(self, window: str, i: int) -> bool:
        """Can a moment's ``{i}`` read « vous » (its subject, « vous révélez… », or after a preposition,
        « bâti par vous »), not as the object of its verb (« un joueur attaque vous »)?"""
        template = self.lex.windows.get(window)
        at = template.find("{%d}" % i) if template is not None else -1
        if at < 0:
            return template is None
        before = template[:at].split()
        return not before or before[-1] in _PREPOSITIONS

    def requirement(self, power: ast.PowerDecl, ctx: Ctx) -> str | None:
        """A power's condition, without what the window already says (« en jouant ce personnage-là »)."""
        without_aliases = late("without_aliases")
        if power.requires is None:
            return None
        rest = without_aliases(power.requires, ctx)
        return self.cond(rest, ctx) if rest is not None else None

    def hook_sentence(self, hook: ast.BeforeDecl) -> str:
        """`before act(x…) signal w(args)` as a sentence: when the window opens, and what cancelling does."""
        decl = self.program.actions.get(hook.action) if self.program else None
        ctx = Ctx()
        for (name, _), param in zip(hook.binders, decl.params if decl else ()):
            ctx = ctx.bind(name, self._resolve_type(param.type), "param")
        args = [self._mention_name(b, ctx) for b, _ in hook.binders]
        act = self.action_phrase(hook.action, args, ctx)
        actor = args[0] if args else "un joueur"

        def text():
            window = self.window_clause(hook.window, [self.expr(a, ctx) for a in hook.args], ctx)
            return (f"avant que {actor} ne puisse {act}, ce moment s'ouvre : {window} ; si une réaction l'annule, "
                    f"l'action n'a pas lieu")
        sentence = self._top(text, ctx)
        return capitalize(contract(sentence)) + "."

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

    def window_clause(self, name: str, args: list[str], ctx: Ctx | None = None) -> str:
        template = self.lex.windows.get(name)
        if template is not None:
            return yours(contract(self.fill(template, args, ctx or Ctx())))
        doc = self.program.windows[name].doc if self.program and name in self.program.windows else None
        text = _strip_period(doc) if doc else humanize(name)
        text = text[:1].lower() + text[1:]
        return f"{text} ({', '.join(args)})" if args else text

    def window_sentence(self, window: ast.WindowDecl) -> str:
        """A window as a sentence: « Un joueur révèle un personnage. »"""
        ctx = Ctx()
        for param in window.params:
            ctx = ctx.bind(param.name, self._resolve_type(param.type), "param")
        args = [self.mention(b, ctx) for b in reversed(ctx.locals)]
        return capitalize(self.finish(self.window_clause(window.name, args, ctx), ctx)) + "."


def _agree(tail: str, plural_subject: bool, feminine_subject: bool, verb: str) -> str:
    """The participle or adjective after « être » (« est interrompu ») agrees with its subject."""
    if verb not in ("est", "a") or not (plural_subject or feminine_subject):
        return tail
    skip = re.match(r"(\s+(?:pas|plus|jamais|encore|déjà))(?=\s)", tail)
    if skip is not None:
        return skip.group(1) + _agree(tail[skip.end():], plural_subject, feminine_subject, verb)
    m = re.match(r"(\s+(?:été\s+)?)([^\W\d_]+)(?=\W|$)", tail)
    if m is None or (verb == "a" and "été" not in m.group(1)):
        return tail
    word = m.group(2)
    if word in _PREPOSITIONS or word in {"le", "la", "les", "un", "une", "pas", "plus", "en", "ce", "cette", "sa",
                                         "son", "ses", "encore", "déjà", "au", "moins", "parmi", "dans"} \
            or not re.search(r"(é|i|u|t|s|e|f|l|r)$", word) or is_verb(word):
        return tail
    if feminine_subject and not word.endswith("e"):
        word += "e"
    if plural_subject and not word.endswith(("s", "x")):
        word += "s"
    return tail[:m.start(2)] + word + tail[m.end(2):]
