"""French words for a person playing at the terminal: prompts, options and help, from the spec and its lexicon.

Nothing here knows a card or a game: a card is shown by its kind's template in the lexicon's ``[affichage]``
section (``District = "{name} — {cost:pièce d'or}, {type}"``), or else by its name and the attributes that
differ from its kind's defaults; an action by its infinitive in ``[actions]`` and what it costs (the amounts
its body transfers out of the acting player's counters, evaluated now); a power by its summary; a choice by
the noun of what is chosen (``Choisissez un personnage``).  The engine's own labels (in logs and replays)
are not changed: these words are for the screen only.
"""

from __future__ import annotations

import string
from typing import Callable

from checker.front import ast
from checker.prose import Lexicon, Prose, capitalize, contract, humanize, indefinite, plural
from checker.prose.french import bare, yours
from checker.runtime.codegen import Scope
from checker.front.types import BOOL, INT, PLAYER, TEXT, Coll, EnumT, GridT, KindT, Opt, RecordT, Ty

__all__ = ["Words", "NOTHING_LABEL"]

NOTHING_LABEL = "(rien)"        # the engine's label of "choose nothing", the last option of an optional decision


def count_of(n: int, noun: str) -> str:
    """``5 pièces d'or``, ``1 pièce d'or``, ``0 pièce d'or`` (French: 0 and 1 take the singular)."""
    return f"{n} {noun if abs(n) <= 1 else plural(noun)}"


class _CardFormatter(string.Formatter):
    """``{cost:pièce d'or}`` counts the noun; ``{type}`` shows an enum member by its name."""

    def format_field(self, value, spec: str) -> str:
        if spec and isinstance(value, int) and not isinstance(value, bool):
            return count_of(value, spec)
        if isinstance(value, bool):
            return "oui" if value else "non"
        if value is None:
            return "aucun"
        if isinstance(value, str):
            return humanize(value)
        return format(value, spec)


def _statements(body) -> list:
    """Every statement of a body, nested ones included, in order."""
    out, stack = [], list(reversed(body or ()))
    while stack:
        s = stack.pop()
        out.append(s)
        for field in ("then", "else_", "body"):
            inner = getattr(s, field, None)
            if isinstance(inner, tuple):
                stack.extend(reversed(inner))
    return out


def _cites(body, own=()) -> list[str]:
    """The rulebook sentences a declaration cites, its own first."""
    quotes = [c.quote for c in own]
    quotes += [s.cite.quote for s in _statements(body) if isinstance(s, ast.CiteStmt)]
    return list(dict.fromkeys(quotes))


class Words:
    """French text for the game ``engine`` plays, as the person at ``seat`` reads it."""

    def __init__(self, engine, lexicon: Lexicon | None = None, seat: int | None = None):
        self.engine = engine
        self.program = p = engine.program
        self.lex = lexicon or Lexicon()
        self.seat = seat
        self.prose = Prose(engine.typed, self.lex, card=lambda name: f"« {name} »")
        self.types = engine.typed.types
        self._formatter = _CardFormatter()
        self.owner: dict[int, tuple] = {}       # id(statement) -> ("procedure"|"action", name) or ("power", card, decl)
        for name, proc in p.procedures.items():
            self._own(proc.body, ("procedure", name))
        for name, act in p.actions.items():
            self._own(act.body, ("action", name))
        self.powers: dict[tuple[str, str], ast.PowerDecl] = {}
        for card in p.cards.values():
            for power in card.powers:
                self.powers[(card.name, power.name)] = power
                self._own(power.body, ("power", card.name, power))
        self._costs: dict[str, list] = {}

    def _own(self, body, owner: tuple) -> None:
        for s in _statements(body):
            self.owner[id(s)] = owner

    # ---------------------------------------------------------------- values
    def player(self, p: int | None, capital: bool = False) -> str:
        """``vous`` for the person reading, ``Joueur 3`` for the others."""
        if p is None:
            return "personne"
        if p == self.seat:
            return "Vous" if capital else "vous"
        return f"Joueur {p + 1}"

    def card_name(self, card) -> str:
        return self.engine.show_card(card)

    def definition(self, card) -> int:
        return self.engine.definition(card)

    def card(self, card, rich: bool = True) -> str:
        """A card by its kind's template in the lexicon (``rich``), or its name and distinctive attributes."""
        key = self.definition(card)
        name = self.engine.def_names[key]
        if not rich:
            return name
        kind = self.engine.def_kind[key]
        attrs = self.engine.card_attrs[key]
        template = self.lex.display.get(kind)
        if template:
            try:
                return self._formatter.format(template, **attrs)
            except (KeyError, IndexError, ValueError):
                pass
        shown = [self._attribute(a, attrs.get(a.name)) for a in self.program.kinds[kind].attrs
                 if self._distinctive(kind, a, attrs.get(a.name))]
        shown = [s for s in shown if s]
        return f"{name} ({', '.join(shown)})" if shown else name

    def _distinctive(self, kind: str, attr: ast.AttrDecl, value) -> bool:
        if attr.name == "copies" or value is None or isinstance(value, tuple):
            return False
        ty = self.engine.resolve_type(attr.type)
        if ty == TEXT or isinstance(ty, (KindT, GridT, RecordT, Coll)):
            return False
        default = self.engine._constant(attr.default) if attr.default is not None else None
        return value != default

    def _attribute(self, attr: ast.AttrDecl, value) -> str:
        noun = bare(self.lex.attribute_noun(attr.name))
        if isinstance(value, bool):
            return noun if value else ""
        if isinstance(value, str):
            return humanize(value)
        return f"{noun} {value}"

    def enum_member(self, enum: str, member: str, rich: bool = True) -> str:
        decl = self.program.enums.get(enum)
        doc = next((m.doc for m in decl.members if m.name == member), None) if decl else None
        name = capitalize(humanize(member))
        return f"{name} ({doc})" if rich and doc else name

    def value(self, value, ty: Ty | None, rich: bool = False) -> str:
        """A value of type ``ty`` in French (``rich``: a card with its attributes, an enum member with its doc)."""
        if isinstance(ty, Opt):
            ty = ty.inner
        if value is None:
            return "aucun"
        if ty == PLAYER:
            return self.player(value)
        if isinstance(ty, KindT):
            return self.card(value, rich) if rich else f"« {self.card_name(value)} »"
        if isinstance(ty, EnumT):
            return self.enum_member(ty.name, value, rich)
        if isinstance(ty, Coll):
            return ", ".join(self.value(v, ty.elem, rich) for v in value) or "rien"
        if ty == BOOL:
            return "oui" if value else "non"
        if isinstance(ty, RecordT) and isinstance(value, tuple):
            decl = self.program.records[ty.name]
            return ", ".join(self.value(v, self.engine.resolve_type(f.type)) for f, v in zip(decl.fields, value))
        if ty in (INT, TEXT) or ty is None:
            return self.engine.show(value)
        return self.engine.show_typed(value, ty)

    # ---------------------------------------------------------------- what an action costs
    def costs(self, action: str, args: tuple) -> list[str]:
        """What taking ``action`` moves out of (``−``) or into (``+``) the acting player's counters, as far
        as its body's own `transfer` statements (not those nested in a condition) say, evaluated now."""
        transfers = self._costs.get(action)
        if transfers is None:
            transfers = self._costs[action] = self._transfers(action)
        actor = args[0] if args else None
        out = []
        env = dict(zip(self.engine.actions[action][0], args))
        for amount, source, source_index, target, target_index in transfers:
            try:
                n = amount(env)
                paid = source_index is not None and source_index(env) == actor
                got = target_index is not None and target_index(env) == actor
            except Exception:           # the amount reads something that is not there yet: say nothing
                continue
            if not isinstance(n, int) or isinstance(n, bool) or paid == got:
                continue
            out.append(self.amount(n if paid else -n, source if paid else target))
        return out

    def _transfers(self, action: str) -> list:
        p, engine = self.program, self.engine
        name = action
        while name is not None and p.actions[name].body is None:
            name = p.actions[name].parent[0] if p.actions[name].parent else None
        if name is None:
            return []
        params = [x.name for x in p.actions[name].params]
        scope = Scope({x: f"env[{x!r}]" for x in params})
        gen = engine.compiler.gen
        found = []
        for s in p.actions[name].body:
            if not isinstance(s, ast.Transfer):
                continue
            try:
                found.append((gen.env_function(s.amount, scope), s.source.name,
                              self._player_index(s.source, scope), s.target.name, self._player_index(s.target, scope)))
            except Exception:
                continue
        return found

    def _player_index(self, lv: ast.LValue, scope: Scope) -> Callable | None:
        decl = self.program.vars.get(lv.name)
        if lv.index is None or decl is None or decl.index is None or decl.index.name != "Player":
            return None
        return self.engine.compiler.gen.env_function(lv.index, scope)

    def amount(self, n: int, counter: str) -> str:
        """``5 pièces d'or`` (paid: ``n`` > 0), ``+2 pièces d'or`` (received), or, with no unit, the counter's
        own word."""
        unit = self.lex.unit
        sign = "+" if n < 0 else ""
        if unit:
            return sign + count_of(abs(n), unit)
        term = self.lex.terms.get(counter)
        word = bare(term.text) if term is not None and "{" not in term.text else humanize(counter)
        return f"{'+' if n < 0 else '−'}{abs(n)} {word}"

    # ---------------------------------------------------------------- options
    def option(self, decision, option) -> str:
        """One option of ``decision`` as the person reads it."""
        site = decision.site
        if isinstance(option, tuple) and option and option[0] in ("action", "power", "finish") and \
                isinstance(site, ast.Offer):
            return self.offered(option)
        ty = self.chosen_type(decision)
        if ty is None:
            return decision.label(option)
        return capitalize(self.value(option, ty, rich=True))

    def offered(self, option) -> str:
        """An option of an `offer`: an action with its cost, a power by its summary, or the finishing line."""
        if option[0] == "finish":
            return option[1]
        if option[0] == "power":
            power, card = option[1], option[2]
            decl = self.powers.get((self.card_name(card), power.name))
            summary = decl.summary if decl is not None and decl.summary else capitalize(humanize(power.name))
            return f"{summary} ({self.card_name(card)})"
        name, args = option[1], option[2]
        types = self.engine.param_types[name]
        shown = [self.value(v, t) for v, t in zip(args, types)]
        phrase = capitalize(self.prose.action_phrase(name, shown))
        costs = self.costs(name, args)
        return f"{phrase} ({', '.join(costs)})" if costs else phrase

    def action_in_general(self, action: str) -> str:
        """An action with no particular arguments: its infinitive over the nouns of its parameters' types
        (« détruire un quartier dans la cité d'un joueur »)."""
        decl = self.program.actions.get(action)
        if decl is None:
            return humanize(action)
        nouns = [indefinite(self.prose.type_noun(self.engine.resolve_type(prm.type))) for prm in decl.params]
        return contract(self.prose.action_phrase(action, nouns))

    def chosen_type(self, decision) -> Ty | None:
        """The type of what ``decision`` chooses (None: not known here)."""
        site = decision.site
        if isinstance(site, (ast.Choose, ast.ChooseSubset)):
            ty = self.types.get(id(site.coll))
            return ty.elem if isinstance(ty, Coll) else ty
        if site is not None and hasattr(site, "mandatory") and hasattr(site, "window"):   # a reacting power
            return BOOL
        return None

    # ---------------------------------------------------------------- prompts
    def prompt(self, decision, verb: str = "Choisissez") -> str:
        """What the decision asks, in French: ``Choisissez un personnage parmi …`` (``verb``: ``choisit``
        to tell what another player chose)."""
        site = decision.site
        secret = " (en secret)" if decision.secret else ""
        if isinstance(site, ast.Offer):
            return "Que voulez-vous faire ?"
        if secret and verb != "Choisissez":          # telling what another chose: « choisit en secret … »
            verb, secret = f"{verb} en secret", ""
        if isinstance(site, (ast.Choose, ast.ChooseSubset)):
            core = (f"{verb} {self._what(site, decision)}" if isinstance(site, ast.Choose)
                    else self._subset(site, decision, verb)) + secret
            context = self._context(site)
            if not context:
                return core
            return f"{core} ({context})" if verb != "Choisissez" else f"{context} : {core}"
        if site is not None and hasattr(site, "window") and decision.engine is not None:
            return self._reaction(site, decision)
        return capitalize(decision.prompt) + secret

    def _context(self, site) -> str:
        """What a choice is part of: a power (its card and summary) or an action (its description)."""
        owner = self.owner.get(id(site))
        if owner is None:
            return ""
        if owner[0] == "power":
            power = owner[2]
            return f"{owner[1]} — {power.summary or capitalize(humanize(power.name))}"
        if owner[0] == "action":
            doc = self.program.actions[owner[1]].doc
            return doc.rstrip('.') if doc else ""
        return ""

    def _noun(self, coll) -> str:
        noun = self.prose.element_noun(coll)
        return noun if noun and noun != "la valeur" else "l'option"

    def _among(self, coll, decision) -> str:
        """`` parmi les cartes piochées`` for a zone the lexicon names; nothing for another collection."""
        name, index = None, None
        if isinstance(coll, ast.Name):
            name = coll.id
        elif isinstance(coll, ast.Index) and isinstance(coll.obj, ast.Name):
            name, index = coll.obj.id, coll.index
        term = self.lex.terms.get(name) if name in self.program.zones else None
        if term is None:
            return ""
        args = []
        if index is not None:
            if not isinstance(index, ast.Name) or index.id not in (decision.env or {}):
                return ""
            zone = self.program.zones[name]
            args = [self.value(decision.env[index.id], self.engine.resolve_type(zone.index))]
        text = term.text.format(*args, *[""] * 3) if "{" in term.text else (
            self.prose.possess(term.text, args[0]) if args else term.text)
        text = yours(contract(text))
        plural_text = text.startswith(("les ", "des ", "vos ", "ses ", "leurs "))
        return contract(f" parmi {text}" if plural_text else f" dans {text}")

    def _what(self, site: ast.Choose, decision) -> str:
        ty = self.chosen_type(decision)
        if isinstance(site.coll, ast.Name) and site.coll.id in self.program.enums or isinstance(ty, EnumT):
            return indefinite(self.prose.type_noun(ty))
        return indefinite(self._noun(site.coll)) + self._among(site.coll, decision)

    def _subset(self, site: ast.ChooseSubset, decision, verb: str) -> str:
        env = decision.env or {}
        chosen = env.get(site.var, ()) or ()
        noun = bare(self._noun(site.coll))
        low = high = None
        label = decision.prompt.rsplit("(", 1)[-1].rstrip(")")        # "k/low..high", as the engine asks
        try:
            low, high = (int(x) for x in label.split("/", 1)[1].split(".."))
        except (IndexError, ValueError):
            pass
        among = self._among(site.coll, decision)
        if low is not None and low == high:
            what = f"{verb} {count_of(high, noun)}{among}"
        elif low is not None:
            what = f"{verb} de {low} à {count_of(high, noun)}{among}"
        else:
            what = f"{verb} des {plural(noun)}{among}"
        if chosen:
            elem = self.chosen_type(decision)
            what += f" — déjà choisi : {', '.join(self.value(v, elem) for v in chosen)}"
        return what

    def declined(self, decision) -> str:
        """A yes/no offer of a power answered no, as the log tells it: « n'utilise pas « … » (card) »."""
        card, summary = self._power_named(decision.site, decision)
        return f"n'utilise pas « {summary} » ({card})"

    def _power_named(self, power, decision) -> tuple[str, str]:
        card = self.card_name(decision.env.get("this")) if decision.env and "this" in decision.env else "?"
        decl = self.powers.get((card, power.name))
        return card, decl.summary if decl is not None and decl.summary else humanize(power.name)

    def _reaction(self, power, decision) -> str:
        card, summary = self._power_named(power, decision)
        when = ""
        if power.window and decision.env is not None:
            window = self.program.windows.get(power.window)
            if window is not None:
                args = [self.value(decision.env.get(n), self.engine.resolve_type(prm.type))
                        for n, prm in zip(power.names, window.params)]
                when = f" — {capitalize(self.prose.window_clause(power.window, args))}"
        return f"Utiliser « {summary} » ({card}) ?{when}"

    # ---------------------------------------------------------------- help
    def help(self, decision, option) -> list[str]:
        """What taking ``option`` does: the action's description and cost, the power's summary and the
        rulebook's sentences, a card's attributes and powers, an enum member's description."""
        if isinstance(decision.site, ast.Offer) and isinstance(option, tuple):
            if option[0] == "finish":
                return ["Ne rien faire de plus ici."]
            if option[0] == "power":
                card = self.card_name(option[2])
                return self._power_help(card, self.powers.get((card, option[1].name)))
            decl = self.program.actions.get(option[1])
            lines = [decl.doc] if decl is not None and decl.doc else []
            costs = self.costs(option[1], option[2])
            if costs:
                lines.append("Coût : " + ", ".join(costs) + ".")
            return lines or ["(pas de description dans la spec)"]
        ty = self.chosen_type(decision)
        if isinstance(ty, Opt):
            ty = ty.inner
        if isinstance(ty, KindT) and isinstance(option, int):
            return self._card_help(option)
        if isinstance(ty, EnumT):
            decl = self.program.enums.get(ty.name)
            doc = next((m.doc for m in decl.members if m.name == option), None) if decl else None
            noun = capitalize(self.prose.type_noun(ty))
            return [f"{noun} « {self.enum_member(ty.name, option, rich=False)} »" + (f" : {doc}." if doc else ".")]
        if ty == BOOL and hasattr(decision.site, "window"):
            card = self.card_name(decision.env["this"]) if decision.env and "this" in decision.env else "?"
            return self._power_help(card, self.powers.get((card, decision.site.name)))
        return []

    def _card_help(self, card) -> list[str]:
        name = self.card_name(card)
        decl = self.program.cards.get(name)
        lines = []
        if decl is None:
            return lines
        for power in decl.powers:
            lines += [f"  · {line}" for line in self._power_help(name, power)[:2]]
        return lines

    def _power_help(self, card: str, power: ast.PowerDecl | None) -> list[str]:
        if power is None:
            return []
        facets = self.prose.power_facets(power, self.prose.card_ctx(None))[:2]
        if power.window is None:
            facets.append("à n'importe quel moment de votre tour")
        else:
            window = self.program.windows.get(power.window[0])
            nouns = [indefinite(self.prose.type_noun(self.engine.resolve_type(prm.type)))
                     for prm in (window.params if window else ())]
            facets.append("quand " + self.prose.window_clause(power.window[0], nouns))
        lines = [f"{power.summary or capitalize(humanize(power.name))} ({card}) — {', '.join(facets)}"]
        cites = _cites(power.body, power.cites)
        if cites:
            lines.append("Le livret : « " + " ".join(cites) + " »")
        return lines
