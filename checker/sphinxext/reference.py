"""reST text for the reference pages: configurations, decisions, vocabulary, house variants."""

from __future__ import annotations

from pathlib import Path

from checker.front import ast
from checker.front.configurations import select
from checker.base.diagnostics import Reporter
from checker.front.lower import lower_trees
from checker.front.parse import parse_file
from checker.prose import Ctx, capitalize, humanize, rst_escape
from checker.base.source import SourceError, read_source
from checker.sphinxext import rst
from checker.sphinxext.book import Book, PowerRef
from checker.sphinxext.render import describe, quotes

__all__ = ["render_configurations", "render_decisions", "render_glossary", "render_variants", "decision_users"]


# ---------------------------------------------------------------- configurations


def _ranges(numbers: list[int]) -> str:
    """``[2, 4, 5, 6]`` → ``2, 4 à 6``."""
    parts, start = [], None
    for i, n in enumerate(numbers):
        if start is None:
            start = n
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            parts.append(str(start) if start == n else f"{start} et {n}" if n == start + 1 else f"{start} à {n}")
            start = None
    return ", ".join(parts)


def render_configurations(book: Book) -> str:
    program = book.program
    lines = rst.title("Configurations")
    lines += ["Chaque configuration est une sélection de cartes. Le vérificateur la confronte, pour chaque "
              "nombre de joueurs qu'elle annonce, à toutes les contraintes ci-dessous.", ""]
    for config in program.configurations.values():
        counts = book.result.configurations.get(config.name, [])
        content = [f"**Joueurs** : {_ranges(counts) or 'aucun nombre valide'}.", ""]
        groups: dict[tuple, list[int]] = {}
        for n in counts:
            selection = select(program, config, n)
            groups.setdefault(tuple(sorted((k, v) for k, v in selection.cards.items())), []).append(n)
        for cards, players in groups.items():
            if len(groups) > 1:
                content += [f"*À {_ranges(players)} joueurs* :", ""]
            for kind, names in cards:
                with_page = [n for n in names if book.has_page(program.cards[n])]
                others = len(names) - len(with_page)
                text = ", ".join(book.card_ref(n) for n in with_page)
                if others:
                    text += f"{', ' if text else ''}et {others} autres cartes" if with_page else f"{others} cartes"
                content += [f"- **{book.kind_plural(kind)}** : {text}", ""]
        if config.decisions:
            content += [rst.sentence("Applique " + ", ".join(book.link("decision", n) for n, _ in config.decisions)),
                        ""]
        content += quotes(book, config.cites)
        lines += rst.directive("rb:configuration", config.name, {"where": book.where(config.span)}, content)
    for title, chosen in (("Contraintes", program.selection_constraints()), ("Invariants", program.invariants())):
        if chosen:
            lines += rst.title(title, "-")
            if chosen[0].invariant:
                lines += [rst.sentence("Ces conditions valent à chaque décision de toute partie : un état qui en "
                                       "viole une ne peut pas être atteint"), ""]
            for constraint in chosen:
                lines += constraint_block(book, constraint)
    return "\n".join(lines)


def constraint_block(book: Book, constraint: ast.ConstraintDecl) -> list[str]:
    prose = book.prose
    text = prose.cond(constraint.require, Ctx(mood="ind" if constraint.when is not None else "subj"))
    if constraint.when is not None:
        text = f"lorsque {prose.cond(constraint.when, Ctx())}, {text}"
    content = [rst.sentence(f"Il faut que {text}" if constraint.when is None else capitalize(text)), ""]
    if constraint.message:
        content += [f"*Message* : « {rst_escape(constraint.message)} »", ""]
    content += quotes(book, constraint.cites)
    return rst.directive("rb:constraint", constraint.name, {"where": book.where(constraint.span)}, content)


# ---------------------------------------------------------------- decisions


def decision_users(book: Book) -> dict[str, list]:
    """For each decision, the declarations that apply it."""
    program = book.program
    users: dict[str, list] = {name: [] for name in program.decisions}

    def add(name: str, decl) -> None:
        if name in users and decl not in users[name]:
            users[name].append(decl)
    for rule in program.rules.values():
        for name, _ in rule.decisions:
            add(name, rule)
    for card in program.cards.values():
        for power in card.powers:
            for name, _ in power.decisions:
                add(name, PowerRef(card.name, power))
            for s in ast.statements(power.body):
                if isinstance(s, ast.DecisionStmt):
                    add(s.name, PowerRef(card.name, power))
    for table in (program.constraints, program.configurations, program.kinds):
        for decl in table.values():
            for name, _ in decl.decisions:
                add(name, decl)
    for precedence in program.precedences:
        if precedence.decision:
            add(precedence.decision[0], precedence)
    for proc in program.procedures.values():
        for s in ast.statements(proc.body):
            if isinstance(s, ast.DecisionStmt):
                add(s.name, proc)
    for action in program.actions.values():
        for s in ast.statements(action.body or ()):
            if isinstance(s, ast.DecisionStmt):
                add(s.name, action)
    return users


def render_decisions(book: Book) -> str:
    lines = rst.title("Précisions et décisions")
    lines += ["Là où le livret est ambigu, la spécification ne choisit pas en silence : chaque lecture retenue "
              "est une décision nommée, avec la phrase qu'elle tranche et les règles qui l'appliquent.", ""]
    users = decision_users(book)
    for decision in book.program.decisions.values():
        content = [rst_escape(decision.text), ""]
        if users[decision.name]:
            content += ["**Appliquée par** : " + ", ".join(_user(book, u) for u in users[decision.name]) + ".", ""]
        content += quotes(book, decision.cites, "Phrases tranchées")
        lines += rst.directive("rb:decision", decision.name, {"where": book.where(decision.span)}, content)
    return "\n".join(lines)


def _user(book: Book, decl) -> str:
    ref = book.ref(decl)
    if isinstance(decl, ast.RuleDecl) and decl.card:
        return f"{ref} ({book.card_ref(decl.card)})"
    if isinstance(decl, PowerRef):
        return f"{ref} ({book.card_ref(decl.card)})"
    return ref


# ---------------------------------------------------------------- vocabulary


def render_glossary(book: Book) -> str:
    """The vocabulary of the spec, and every general declaration no chapter describes."""
    program = book.program
    prose = book.prose
    lines = rst.title("Vocabulaire et règles générales")
    lines += rst.title("Types", "-")
    for kind in program.kinds.values():
        attrs = ", ".join(f"``{a.name}``" for a in kind.attrs)
        content = [f"{capitalize(book.kind_noun(kind.name))} ; attributs : {attrs}.", ""]
        content += [line for text in prose.kind_settings(kind, _demonstrative(book.kind_noun(kind.name)))
                    for line in (rst_escape(text), "")]
        content += quotes(book, kind.cites)
        lines += rst.directive("rb:type", kind.name, {"where": book.where(kind.span)}, content)
    for enum in program.enums.values():
        members = "; ".join(f"**{rst_escape(humanize(m.name))}**" + (f" ({rst_escape(m.doc)})" if m.doc else "")
                            for m in enum.members)
        lines += rst.directive("rb:type", enum.name, {"where": book.where(enum.span)},
                               [f"{capitalize(book.kind_noun(enum.name))} : {members}.", ""])
    lines += rst.title("État du jeu", "-")
    for decl in [*program.zones.values(), *program.vars.values()]:
        what = "zone" if isinstance(decl, ast.ZoneDecl) else ("compteur" if decl.counter else "variable")
        term = prose.term_text(decl.name, ["*x*"] if decl.index else [], None)
        content = [f"*{what}* — {rst_escape(decl.doc) if decl.doc else capitalize(term)}", ""]
        content += quotes(book, decl.cites)
        lines += rst.directive("rb:term", decl.name, {"where": book.where(decl.span)}, content)
    lines += rst.title("Moments", "-")
    for window in program.windows.values():
        content = [prose.window_sentence(window), ""]
        for hook in program.hooks:
            if hook.window == window.name:
                content += [prose.hook_sentence(hook), ""]
        lines += rst.directive("rb:window", window.name, {"where": book.where(window.span)}, content)
    lines += rst.title("Actions", "-")
    for action in program.actions.values():
        lines += action_block(book, action)
    lines += _categories(book)
    lines += _hook_points(book)
    for role, heading in (("procedure", "Autres procédures"), ("quantity", "Autres grandeurs"),
                          ("table", "Autres tables"), ("rule", "Autres règles générales")):
        names = book.unplaced(role)
        if names:
            lines += rst.title(heading, "-")
            for name in names:
                lines += describe(book, role, name)
    return "\n".join(lines)


_WHERE = {"before": "avant", "after": "après", "replace": "remplace", "only": "seulement si", "options": "ajoute à"}


def _categories(book: Book) -> list[str]:
    """The categories of actions (`tag`): their parameters and the actions in each."""
    program = book.program
    if not program.tags:
        return []
    lines = rst.title("Catégories d'actions", "-")
    lines += ["Une règle sur une catégorie (``forbid any action tagged …``) porte sur chacune de ses actions, "
              "y compris celles qu'une variante y ajoute.", ""]
    items = []
    for tag in program.tags.values():
        members = [f"{_decl_ref(book, a)} ({', '.join(n for n, _ in u.args)})"
                   for a in program.actions.values() for u in a.tags if u.name == tag.name]
        params = ", ".join(p.name for p in tag.params)
        items.append(f"``{tag.name}({params})``" + (f" — {rst_escape(tag.doc.rstrip('.'))}" if tag.doc else "")
                     + (" : " + ", ".join(members) if members else " : aucune action") + ".")
    return lines + rst.bullets(items)


def _hook_points(book: Book) -> list[str]:
    """Every hook point of every procedure: where a house rule extends the game without copying it."""
    program = book.program
    if not program.hook_points:
        return []
    lines = rst.title("Points d'extension", "-")
    lines += ["Une variante étend une procédure à ces points (``extend procedure``) sans la recopier : "
              "une étape, avant ou après laquelle elle ajoute des instructions, ou l'endroit d'une offre où "
              "elle ajoute des possibilités.", ""]
    items = []
    for name, points in program.hook_points.items():
        described = ", ".join(f"``{p.name}`` ({'offre' if p.what == 'options' else 'étape'})" for p in points)
        items.append(f"{_decl_ref(book, program.procedures[name])} : {described}.")
    return lines + rst.bullets(items)


def _extension_ref(book: Book, ext: ast.ProcedureExtension) -> str:
    items = ", ".join(f"{_WHERE[i.where]} ``{i.point}``" for i in ext.items)
    return f"{_decl_ref(book, book.program.procedures.get(ext.procedure))} ({items})"


def _demonstrative(noun: str) -> str:
    """« le quartier » → « ce quartier », « la carte » → « cette carte »."""
    article, _, rest = noun.partition(" ")
    if article == "la":
        return f"cette {rest}"
    if article == "l'" or noun.startswith("l'"):
        return f"cet {noun[2:]}"
    return f"ce {rest}" if rest else noun


def action_block(book: Book, action: ast.ActionDecl) -> list[str]:
    prose = book.prose
    params = action.params
    ctx = Ctx()
    for param in params:
        ctx = ctx.bind(param.name, prose._resolve_type(param.type))
    args = [f"*{p.name}*" for p in params]
    content = []
    if action.doc:
        content += [rst_escape(action.doc), ""]
    if args:
        content += [prose.action_summary(action), ""]
    if action.parent is not None:
        content += [f"Cas particulier de {book.link('action', action.parent[0])} : les règles sur "
                    f"{book.link('action', action.parent[0])} s'y appliquent aussi.", ""]
    if action.body:
        steps = prose.steps(action.body, ctx)
        from checker.sphinxext.rst import cites_of, steps as steps_rst
        content += ["**Effet** :", ""] + steps_rst(steps, lambda d: book.link("decision", d))
        content += quotes(book, cites_of(steps))
    else:
        content += ["Sans effet propre : celui qui la fait écrit lui-même ce qui se passe ; seules les règles "
                    "disent si elle est permise.", ""]
    rules = [r for r in book.program.rules.values() if any(h.pattern.name == action.name for h in r.heads)]
    if rules:
        refs = [book.link("rule", r.name) + (f" ({book.card_ref(r.card)})" if r.card else "") for r in rules]
        content += ["**Règles** : " + ", ".join(refs) + ".", ""]
    options = {"where": book.where(action.span), "signature": f"{action.name}({', '.join(p.name for p in params)})"}
    return rst.directive("rb:action", action.name, options, content)


# ---------------------------------------------------------------- house rules and variants


def extra_files(book: Book) -> list[Path]:
    """The files given after the base spec: house rules and overlays."""
    from checker.front.check import spec_files
    files: list[Path] = []
    for path in book.spec_paths[1:]:
        files.extend(spec_files(path, Reporter()))
    return files


def render_variants(book: Book) -> str:
    """One section per house-rule file or overlay: what it adds, replaces and removes."""
    lines = rst.title("Variantes et règles maison")
    files = extra_files(book)
    if not files:
        lines += ["Ce livre ne contient que les règles de base : aucun fichier de règles maison n'a été donné "
                  "(``rulebook_spec`` dans ``conf.py``).", ""]
        return "\n".join(lines)
    for path in files:
        try:
            source = read_source(path)
        except SourceError as exc:
            lines += [f"``{path.name}`` : {rst_escape(exc.message)}", ""]
            continue
        reporter = Reporter()
        header, decls = lower_trees(source.name, parse_file(source, reporter), reporter)
        name = header.name if header is not None else path.stem
        lines += rst.title(name, "-")
        lines += [f"Fichier ``{source.name}``" + (f", variante de « {rst_escape(header.base)} »" if header else "")
                  + ".", ""]
        added, replaced, removed, extended = [], [], [], []
        for decl in decls:
            if isinstance(decl, ast.RemoveDecl):
                removed.append(f"{decl.kind} ``{decl.name}``")
            elif isinstance(decl, ast.ReplaceDecl):
                replaced.append(_decl_ref(book, decl.decl))
            elif isinstance(decl, ast.ExtendDecl) and isinstance(decl.decl, ast.ProcedureExtension):
                extended.append(_extension_ref(book, decl.decl))
            elif isinstance(decl, ast.ExtendDecl):
                extended.append(_decl_ref(book, decl.decl))
            elif isinstance(decl, ast.BeforeDecl):
                added.append(book.prose.hook_sentence(decl))
            else:
                added.append(_decl_ref(book, decl))
        for label, items in (("Ajoute", added), ("Remplace", replaced), ("Étend", extended), ("Retire", removed)):
            if items:
                lines += [f"**{label}** :", ""] + rst.bullets(items)
    return "\n".join(lines)


def _decl_ref(book: Book, decl) -> str:
    name = getattr(decl, "name", None)
    program = book.program
    if isinstance(decl, ast.CardDecl) and name in program.cards:
        return book.card_ref(name) if book.has_page(program.cards[name]) else f"« {rst_escape(name)} »"
    for role, table in (("rule", program.rules), ("procedure", program.procedures),
                        ("quantity", program.quantities), ("table", program.tables), ("action", program.actions),
                        ("constraint", program.constraints), ("decision", program.decisions)):
        if name in table and isinstance(decl, type(table[name])):
            return book.link(role, name)
    if isinstance(decl, ast.ConfigDecl) and name in program.configurations:
        return f":rb:configuration:`{name}`"
    return f"``{name or type(decl).__name__}``"
