"""A person at the terminal: the question in French, numbered options, help, and what the others did.

The options are those the engine offers, in its order; options that read the same and differ in nothing
the rules see (two copies of a card in the same place, with the same markers) are offered once, and the
first of them is taken.  ``?`` (or ``aide``) explains every option, ``? N`` one of them, ``v`` shows the
table again, ``q`` leaves the game; anything else that is not an option is asked again.
"""

from __future__ import annotations

from typing import Callable

from checker.front import ast

from checker.base import terminal
from checker.human.words import NOTHING_LABEL, Words
from checker.front.types import Coll, KindT, Opt

__all__ = ["HumanAgent", "HumanQuit", "Narrator", "QUIT", "HELP", "VIEW"]

QUIT = ("q", "quit", "quitter")
HELP = ("?", "aide", "h", "help")
VIEW = ("v", "vue", "voir")


class HumanQuit(Exception):
    """The person at the terminal left the game (end of input, Ctrl-C, or « q »)."""


def _card_ints(value, ty) -> list[int]:
    """The physical cards in a value of type ``ty``."""
    if isinstance(ty, Opt):
        ty = ty.inner
    if isinstance(ty, KindT) and isinstance(value, int) and value >= 0:
        return [value]
    if isinstance(ty, Coll) and isinstance(value, (tuple, list)):
        return [c for v in value for c in _card_ints(v, ty.elem)]
    return []


def sameness(words: Words, decision, option) -> tuple:
    """What tells ``option`` apart from another that reads the same: each physical card in it by its
    definition, where it lies, and the values the rules keep about it (markers, cards under it)."""
    engine = words.engine
    st = engine.st
    if isinstance(option, tuple) and option and option[0] == "action":
        cards = [c for v, t in zip(option[2], engine.param_types[option[1]]) for c in _card_ints(v, t)]
    elif isinstance(option, tuple) and option and option[0] == "power":
        cards = [option[2]] if isinstance(option[2], int) and option[2] >= 0 else []
    else:
        cards = _card_ints(option, words.chosen_type(decision))
    if not cards:
        return (repr(option),)
    plain = [repr(option)]
    for card in cards:
        plain = [p.replace(repr(card), repr(engine.defs[card])) for p in plain]
    about = []
    for card in cards:
        kind = engine.def_kind[engine.defs[card]]
        markers = tuple((name, repr(st.vars[name].get(card))) for name, decl in engine.program.vars.items()
                        if decl.index is not None and decl.index.name == kind and isinstance(st.vars.get(name), dict))
        under = tuple((name, tuple(engine.defs[c] for c in st.zones[name].get(card, ())))
                      for name, decl in engine.program.zones.items()
                      if decl.index is not None and decl.index.name == kind and isinstance(st.zones.get(name), dict))
        about.append((engine.defs[card], st.where.get(card), markers, under))
    return (*plain, *about)


class HumanAgent:
    """A person at the terminal: shows the question and the numbered options, reads an answer.

    ``input`` and ``output`` are the functions used to talk (``input()`` and ``print()`` by default, so a test
    can script them); ``before``, if given, is called with the decision before it is shown (to print what
    happened since the last question and the table); ``words`` (a :class:`Words`) gives the French of the
    options, the prompt and the help — without it, the engine's own labels are shown.  An answer that is
    not an option's number (nor its exact label) is asked again; the end of input, Ctrl-C or « q » raise
    :class:`HumanQuit`.
    """

    def __init__(self, input=input, output=print, before=None, words: Words | None = None,
                 view: Callable[[], None] | None = None):
        self.input = input
        self.output = output
        self.before = before
        self.words = words
        self.view = view

    def menu(self, decision) -> tuple[str, list[tuple[str, list[int]]]]:
        """(the question, [(label, the option indices it stands for)]), identical options offered once."""
        words = self.words if decision.engine is not None else None
        if words is None:
            secret = " (en secret)" if decision.secret else ""
            return (f"Joueur {decision.player + 1}{secret} — {decision.prompt}",
                    [(label, [i]) for i, label in enumerate(decision.labels())])
        groups: dict[tuple, tuple[str, list[int]]] = {}
        for i, option in enumerate(decision.options):
            label = words.option(decision, option)
            key = (label, sameness(words, decision, option))
            groups.setdefault(key, (label, []))[1].append(i)
        entries = list(groups.values())
        if decision.optional:
            stop = "Arrêter là" if isinstance(decision.site, ast.ChooseSubset) else "Ne rien choisir"
            entries.append((stop, [len(decision.options)]))
        return words.prompt(decision), entries

    def choose(self, decision) -> int:
        if self.before is not None:
            self.before(decision)
        question, entries = self.menu(decision)
        labels = [label for label, _ in entries]
        self.output("\n" + terminal.paint(question, "bold"))
        for number, label in enumerate(labels, 1):
            self.output(f"  {terminal.paint(str(number), 'blue')}. {label}")
        while True:
            try:
                answer = self.input(f"Votre choix (1-{len(labels)}, ? aide, q quitter) : ")
            except (EOFError, KeyboardInterrupt):
                raise HumanQuit() from None
            answer = (answer or "").strip()
            word, _, rest = answer.partition(" ")
            if answer.lower() in QUIT:
                raise HumanQuit()
            if word.lower() in HELP or (word.startswith("?") and word[1:].isdecimal()):
                rest = rest or word[1:]
                self._help(decision, entries, rest.strip())
                continue
            if answer.lower() in VIEW and self.view is not None:
                self.view()
                continue
            if answer.isdecimal() and 1 <= int(answer) <= len(labels):
                return entries[int(answer) - 1][1][0]
            if answer in labels:
                return entries[labels.index(answer)][1][0]
            if answer in decision.labels():          # the engine's own label (as logs show it)
                return decision.labels().index(answer)
            said = f"« {answer} » n'est pas un choix : t" if answer else "T"
            self.output(f"{said}apez un nombre de 1 à {len(labels)} (? pour l'aide, q pour quitter).")

    def _help(self, decision, entries, which: str) -> None:
        words = self.words if decision.engine is not None else None
        numbers = range(1, len(entries) + 1)
        if which.isdecimal() and 1 <= int(which) <= len(entries):
            numbers = [int(which)]
        self.output("Tapez le numéro d'une option (ou son texte) ; ? N : ce que fait l'option N ; "
                    "v : la table ; q : quitter la partie.")
        for number in numbers:
            label, indices = entries[number - 1]
            first = indices[0]
            lines = words.help(decision, decision.options[first]) if words and first < len(decision.options) else []
            copies = f" ({len(indices)} options identiques)" if len(indices) > 1 else ""
            self.output(f"  {number}. {label}{copies}")
            for line in lines:
                self.output(f"       {line}")


class Narrator:
    """Wraps another player's agent to remember, for each of its answers, how the person at the terminal
    reads it: ``said[i]`` is the line for the game's event ``i`` (the decision's event).  With no one at
    the terminal (the words' seat is None, the plain log of `rulebook play`), secret choices are told too."""

    def __init__(self, agent, words: Words, said: dict[int, str]):
        self.agent = agent
        self.words = words
        self.said = said

    def choose(self, decision) -> int:
        index = self.agent.choose(decision)
        engine = decision.engine
        if engine is None or not engine.recording:
            return index
        who = self.words.player(decision.player, capital=True)
        if decision.secret and self.words.seat is not None and decision.player != self.words.seat:
            line = f"  {who} choisit en secret."
        else:
            if index < len(decision.options):
                chosen = self.words.option(decision, decision.options[index])
            else:
                chosen = NOTHING_LABEL
            if isinstance(decision.site, ast.Offer):
                if index < len(decision.options) and decision.options[index][0] == "power":
                    return index                 # the power's own event says it
                line = f"  {who} : {chosen}"
            elif hasattr(decision.site, "window") and tuple(decision.options) == (True, False):
                if decision.options[index] if index < len(decision.options) else False:
                    return index                 # a power's offer taken: the power's own event says it
                line = f"  {who} {self.words.declined(decision)}"
            elif isinstance(decision.site, ast.ChooseSubset) and (decision.env or {}).get(decision.site.var):
                line = f"  {who} choisit aussi : {chosen}"
            else:
                line = f"  {who} {self.words.prompt(decision, verb='choisit')} : {chosen}"
        self.said[len(engine.events)] = line
        return index

    def __getattr__(self, name):
        return getattr(self.agent, name)
