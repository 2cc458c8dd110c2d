"""Pages the checker itself produces: the declared resolutions of conflicts, the traceability of the
rulebook to the rules that encode it, and the book's overview.

The conflict report lists what the spec *declares* (precedences, ``overrides``, decisions).  A solver
that *finds* conflicts can be plugged in: ``find_conflicts(check_result)`` from the module named by
``rulebook_conflict_finder`` (``checker.conflicts.questions`` by default); when it is not there the section is
left out.
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Callable, Iterable

from checker.front import ast
from checker.front.citations import normalize, source_path
from checker.prose import rst_escape
from checker.sphinxext import rst
from checker.sphinxext.book import Book, PowerRef
from checker.sphinxext.reference import decision_users
from checker.sphinxext.render import quotes
from checker.solver.statefile import player_range
from checker.front.trace import Sentence, trace

__all__ = ["render_conflicts", "render_trace", "render_overview", "traced", "load_finder", "cited_declarations",
           "Traceability"]


# ---------------------------------------------------------------- who cites what


def cited_declarations(program) -> Iterable[tuple[object, ast.Cite]]:
    """Every (declaration, citation) pair of a program; powers come as :class:`PowerRef`."""
    simple = (*program.kinds.values(), *program.vars.values(), *program.zones.values(),
              *program.quantities.values(), *program.tables.values(), *program.rules.values(),
              *program.precedences, *program.constraints.values(), *program.decisions.values(),
              *program.configurations.values(), *program.cards.values())
    for decl in simple:
        for cite in decl.cites:
            yield decl, cite
    for card in program.cards.values():
        for power in card.powers:
            ref = PowerRef(card.name, power)
            for cite in power.cites:
                yield ref, cite
            for s in ast.statements(power.body):
                if isinstance(s, ast.CiteStmt):
                    yield ref, s.cite
    for table in (program.procedures, program.actions):
        for decl in table.values():
            for s in ast.statements(decl.body or ()):
                if isinstance(s, ast.CiteStmt):
                    yield decl, s.cite


@dataclasses.dataclass
class Traceability:
    sentences: list[Sentence]
    encoders: dict[tuple[int, str], list]     # (line, sentence) → declarations citing it

    @property
    def share(self) -> tuple[int, int]:
        """(traced, total) over the rulebook's sentences (headings and table rows apart)."""
        body = [s for s in self.sentences if s.kind == "sentence"]
        return sum(s.traced for s in body), len(body)


def traced(book: Book) -> Traceability | None:
    """The rulebook's sentences, each with the declarations that cite it."""
    program = book.program
    source = book.rulebook_source
    if source is None or source not in program.source_dirs:
        return None
    path = source_path(program, source)[0]
    if path is None:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    sentences = trace(program, source, text)
    by_line: dict[int, list[tuple[object, str]]] = {}
    for decl, cite in cited_declarations(program):
        found = book.cite_line(cite)
        if found is not None and found[0] == source:
            by_line.setdefault(found[1], []).append((decl, normalize(cite.quote)))
    encoders: dict[tuple[int, str], list] = {}
    for s in sentences:
        body = s.text.lstrip("-* ").strip()
        decls = []
        for decl, quote in by_line.get(s.line, []):
            if (body in quote or quote in body) and decl not in decls:
                decls.append(decl)
        encoders[(s.line, s.text)] = decls
    return Traceability(sentences, encoders)


def _anchor(line: int) -> str:
    return f"livret-{line}"


def render_trace(book: Book) -> str:
    """A table from each section of the rulebook to the rules that encode it, then every sentence."""
    lines = rst.title("Traçabilité du livret")
    table = traced(book)
    if table is None:
        return "\n".join(lines + ["La spécification ne déclare aucun texte source lisible.", ""])
    done, total = table.share
    source = book.program.sources[book.rulebook_source]
    lines += [f"Chaque phrase du livret (*{rst_escape(source.title or source.name)}*) est *encodée* lorsqu'une "
              f"règle, un pouvoir ou une déclaration de la spécification la cite mot pour mot. Les titres et "
              f"les lignes de tableaux sont comptés à part.", "",
              f"**{done} phrases sur {total} sont encodées ({_percent(done, total)}).** La colonne « Règles » "
              f"compte les déclarations qui citent au moins une phrase de la section.", ""]
    sections: list[tuple[str, int, list[Sentence]]] = []
    for s in table.sentences:
        if s.kind == "heading":
            continue
        if not sections or sections[-1][0] != s.section:
            sections.append((s.section, s.line, []))
        sections[-1][2].append(s)
    rows = []
    for index, (name, first, items) in enumerate(sections, start=1):
        body = [s for s in items if s.kind == "sentence"]
        ok = sum(s.traced for s in body)
        decls = {id(d): d for s in items for d in table.encoders[(s.line, s.text)]}
        label = f":ref:`{rst_escape(name or 'Début')} <livret-section-{index}>` (l.\u00a0{first})"
        rows.append([label, f"{ok}\u00a0/\u00a0{len(body)}", _percent(ok, len(body)) if body else "—",
                     str(len(decls))])
    lines += rst.list_table(["Section du livret", "Phrases encodées", "Part", "Règles"], rows,
                            widths="52 18 15 15", css="rb-trace")
    lines += _errata(book)
    missing = [s for s in table.sentences if s.kind == "sentence" and not s.traced]
    lines += rst.title("Phrases qu'aucune règle n'encode encore", "-")
    lines += rst.bullets([f":ref:`l. {s.line} <{_anchor(s.line)}>` — « {rst_escape(s.text)} »" for s in missing])
    lines += rst.title("Le livret annoté", "-")
    seen_lines: set[int] = set()
    headings = [s for s in table.sentences if s.kind == "heading"]
    for index, (name, first, items) in enumerate(sections, start=1):
        lines += [f".. _livret-section-{index}:", ""]
        lines += rst.title(f"{name or 'Début'} (l. {first})", "~")
        while headings and headings[0].line < first:
            heading = headings.pop(0)
            if heading.line not in seen_lines:
                seen_lines.add(heading.line)
                lines += [f".. _{_anchor(heading.line)}:", "", f"| § **l. {heading.line}** « "
                          f"{rst_escape(heading.text)} » *(titre)*", ""]
        for s in items:
            if s.line not in seen_lines:
                seen_lines.add(s.line)
                lines += [f".. _{_anchor(s.line)}:", ""]
            decls = table.encoders[(s.line, s.text)]
            mark = "✓" if s.traced else ("·" if s.kind == "table" else "✗")
            refs = ", ".join(_ref(book, d) for d in decls) if decls else (
                "*encodée par plusieurs citations partielles*" if s.traced else "*non encodée*")
            lines += [f"| {mark} **l. {s.line}** « {rst_escape(s.text)} »", f"| → {refs}", ""]
    return "\n".join(lines)


def _errata(book: Book) -> list[str]:
    """The lexicon's errata of each source: the slips a quotation is shown corrected for (the spec cites
    the verbatim text, and the annotated rulebook below shows it)."""
    rows = [[rst_escape(book.program.sources[name].title or name) if name in book.program.sources else
             rst_escape(name), f"« {rst_escape(wrong)} »", f"« {rst_escape(right)} »"]
            for name, table in book.lexicon.errata.items() for wrong, right in table.items()]
    if not rows:
        return []
    return (rst.title("Coquilles corrigées à l'affichage", "-")
            + ["Les citations sont montrées avec ces coquilles du texte source corrigées (mot entier). La "
               "spécification cite le texte exact, que ``rulebook check`` vérifie ; le livret annoté "
               "ci-dessous le montre tel quel.", ""]
            + rst.list_table(["Source", "Texte", "Montré"], rows, widths="50 25 25", css="rb-errata"))


def _percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}\u202f%" if whole else "—"


def _ref(book: Book, decl) -> str:
    if isinstance(decl, ast.RuleDecl) and decl.card:
        return f"{book.ref(decl)} ({book.card_ref(decl.card)})"
    return book.ref(decl)


# ---------------------------------------------------------------- conflicts


def load_finder(spec: str | None) -> Callable | None:
    """``module:function`` (or ``module``, meaning its ``find_conflicts``), or None when it is absent."""
    if not spec:
        return None
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    return getattr(module, attr or "find_conflicts", None)


def _side(book: Book, subject: ast.Subject) -> tuple[str, str]:
    program = book.program
    if subject.card:
        card = program.cards.get(subject.card)
        power = next((p for p in card.powers if p.name == subject.name), None) if card else None
        ref = f":rb:power:`{subject.card}.{subject.name}`" if power else f"``{subject}``"
        return ref, book.where(power.span) if power else ""
    rule = program.rules.get(subject.name)
    if rule is None:
        return f"``{subject.name}``", ""
    ref = book.link("rule", rule.name) + (f" ({book.card_ref(rule.card)})" if rule.card else "")
    return ref, book.where(rule.span)


def render_conflicts(book: Book, finder: Callable | None = None) -> str:
    program = book.program
    lines = rst.title("Conflits et résolutions")
    lines += ["Deux règles qui s'appliquent ensemble et se contredisent sont un *conflit*. La spécification ne "
              "le laisse jamais à l'ordre des fichiers : elle déclare qui l'emporte (``precedence``), une "
              "permission dit quelle interdiction elle lève (``overrides``), et une lecture ambiguë du livret "
              "devient une décision nommée. Voici toutes ces résolutions, avec les phrases qui les fondent.", ""]
    lines += rst.title("Préséances", "-")
    if not program.precedences:
        lines += ["Aucune préséance déclarée.", ""]
    for precedence in program.precedences:
        winner, wwhere = _side(book, precedence.winner)
        loser, lwhere = _side(book, precedence.loser)
        kind = ("les deux réagissent au même moment : la première prend effet d'abord"
                if precedence.winner.card else "les deux s'appliquent et se contredisent : la première l'emporte")
        content = [f"{winner} (``{wwhere}``) l'emporte sur {loser} (``{lwhere}``) — {kind}.", ""]
        if precedence.decision:
            content += [rst.sentence("Applique " + book.link("decision", precedence.decision[0])), ""]
        content += quotes(book, precedence.cites)
        options = {"where": book.where(precedence.span)}
        lines += rst.directive("rb:precedence", f"{precedence.winner} over {precedence.loser}", options, content)
    lines += rst.title("Permissions qui lèvent une interdiction", "-")
    rows = []
    for rule in program.rules.values():
        for name, _ in rule.overrides:
            other = program.rules.get(name)
            permit = book.link("rule", rule.name) + (f" ({book.card_ref(rule.card)})" if rule.card else "")
            forbid = book.link("rule", name) + (f" ({book.card_ref(other.card)})" if other and other.card else "")
            rows.append([f"{permit}\n    ``{book.where(rule.span)}``",
                         f"{forbid}\n    ``{book.where(other.span) if other else ''}``",
                         book.quote(rule.cites[0]) if rule.cites else "—"])
    if rows:
        lines += rst.list_table(["Permission", "lève l'interdiction", "Phrase du livret"], rows,
                                widths="30 30 40", css="rb-conflicts")
    else:
        lines += ["Aucune permission ne déclare lever une interdiction.", ""]
    lines += rst.title("Décisions", "-")
    users = decision_users(book)
    rows = []
    for decision in program.decisions.values():
        applied = ", ".join(_ref(book, u) if not isinstance(u, PowerRef) else book.ref(u)
                            for u in users[decision.name]) or "*aucune déclaration*"
        first = book.quote(decision.cites[0]) if decision.cites else "—"
        rows.append([f"{book.link('decision', decision.name)}\n    ``{book.where(decision.span)}``", applied, first])
    if rows:
        lines += rst.list_table(["Décision", "Appliquée par", "Phrase tranchée"], rows, widths="30 35 35",
                                css="rb-conflicts")
    if finder is not None:
        lines += rst.title("Ce que le solveur trouve", "-")
        findings = list(finder(book.result))
        open_ = [f for f in findings if getattr(f, "kind", None) != "resolved"]
        settled = [f for f in findings if getattr(f, "kind", None) == "resolved"]
        low, high = player_range(program)
        lines += [f"``rulebook conflicts`` cherche avec Z3, sur tous les états bornés de {low} à {high} joueurs, les "
                  "permissions et interdictions qui s'appliquent ensemble, les valeurs concurrentes, les pouvoirs "
                  "dont l'ordre compte, les règles mortes et les références pendantes. Chaque situation témoin "
                  "est rejouée par l'interpréteur.", ""]
        if not open_:
            lines += ["Il ne trouve aucun conflit que les résolutions de la spécification ne règlent pas.", ""]
        for finding in open_:
            lines += _finding(book, finding)
        if settled:
            lines += [f"Il trouve {len(settled)} conflits que la spécification règle :", ""]
            for finding in settled:
                lines += _finding(book, finding)
    return "\n".join(lines)


_KINDS = {"contradiction": "Contradiction", "competing-values": "Valeurs concurrentes",
          "order": "Ordre des effets", "dead-rule": "Règle morte", "dangling": "Référence pendante",
          "escape": "Action hors de la règle de sa catégorie",
          "resolved": "Réglé", "unknown": "Indécis"}


def _subject(book: Book, name: str) -> str:
    """A rule, or a power written ``"Card".power``, as a link."""
    if name.startswith('"') and '".' in name:
        card, power = name[1:].split('".', 1)
        return f":rb:power:`{card}.{power}`" if card in book.program.cards else f"``{name}``"
    return book.link("rule", name)


def _finding(book: Book, finding) -> list[str]:
    """One finding of a solver: its own reST if it has some, else its kind, its rules, what settles it and
    its witness (the solver's finding objects), else its message and location."""
    if hasattr(finding, "to_rst"):
        return [*str(finding.to_rst()).split("\n"), ""]
    if getattr(finding, "kind", None) in _KINDS and getattr(finding, "rules", None):
        rules = " / ".join(_subject(book, r) for r in finding.rules)
        text = f"- **{_KINDS[finding.kind]}** — {rules}"
        if finding.spans:
            text += " (" + ", ".join(f"``{book.where(s)}``" for s in finding.spans if s is not None) + ")"
        out = [text]
        if getattr(finding, "winner", None):
            how = {"overrides": "sa clause ``overrides``", "precedence": "une préséance déclarée",
                   "order": "l'ordre déclaré des pouvoirs"}.get(finding.how, finding.how)
            verb = "prend effet d'abord" if finding.how == "order" else "l'emporte"
            out += ["", f"  Réglé par {how} : {_subject(book, finding.winner)} {verb}."]
        if finding.situation:
            out += ["", "  Situation témoin : " + rst_escape("; ".join(finding.situation[:8]))
                    + (" …" if len(finding.situation) > 8 else "")]
        if getattr(finding, "illegal", False):
            out += ["", "  Aucune partie que permettent les contraintes de la spécification (``constraint``) ne "
                        "réunit les cartes de ce témoin, à aucun nombre de joueurs : ce conflit ne peut pas "
                        "survenir dans une partie légale."]
        if finding.confirmed is not None:
            out += ["", "  L'interpréteur, sur ce témoin : " + ("les deux règles s'appliquent."
                                                               if finding.confirmed else "**il n'est pas d'accord**.")]
        return out + [""]
    message = getattr(finding, "message", None) or str(finding)
    span = getattr(finding, "span", None)
    rules = getattr(finding, "rules", ()) or ()
    text = f"- {rst_escape(message)}"
    if rules:
        text += " — " + ", ".join(book.link("rule", r) for r in rules)
    if span is not None:
        text += f" (``{book.where(span)}``)"
    return [text, ""]


# ---------------------------------------------------------------- overview


def render_overview(book: Book) -> str:
    """The numbers of the spec the book is made from."""
    program = book.program
    counts = program.counts()
    errors = len(book.result.reporter.errors)
    kinds = ", ".join(f"{n} {book.kind_plural(k).lower()}" for k, n in counts["cards"].items())
    table = traced(book)
    lines = [f"Ce livre est produit à partir de {len(program.files)} fichiers de spécification "
             f"({'vérifiés sans erreur' if errors == 0 else f'{errors} erreur(s) de vérification'}) : "
             f"{kinds} ; {counts['powers']} pouvoirs, {counts['rules']} règles, {counts['decisions']} décisions, "
             f"{counts['configurations']} configurations.", ""]
    if table is not None:
        done, total = table.share
        lines += [f"{done} des {total} phrases du livret ({_percent(done, total)}) sont encodées par une règle : "
                  f"voir :doc:`/tracabilite`.", ""]
    return "\n".join(lines)
