"""A Sphinx extension that publishes a checked spec as a rulebook.

In ``conf.py``::

    extensions = ["checker.sphinxext"]
    rulebook_spec = ["../spec/citadelles", "maison.rules"]   # the base spec, then house rules
    rulebook_lexicon = "lexique.toml"                         # how the book words the vocabulary
    rulebook_simulations = ["simulations/base.json"]          # results of `rulebook simulate --json`

The spec is checked once per build with :func:`checker.front.check.check_paths`; its
diagnostics become Sphinx warnings located at ``file:line``.  Every card with
powers or rules gets a page (generated under ``cartes/`` when the build starts),
and ``.. rb:auto:: WHAT [NAME]`` renders a page's reST from the spec:

``card NAME``, ``kind KIND``, ``chapter setup|draft|turn|end``, ``configurations``,
``decisions``, ``glossary``, ``variants``, ``conflicts``, ``trace``, ``overview``, ``editions``,
``edition NAME`` (other editions and variants, compared with the spec: :mod:`checker.sphinxext.editions`),
``examples`` and ``house-rules FOLDER`` (the worked examples; a folder of house-rule files beside the base spec,
each with its examples: :mod:`checker.sphinxext.examples`) make the designer's reference (each rule with its source, its quotations, its decisions);
``player-chapter KEY [PROCEDURE]``, ``player-cards KIND``, ``player-roster KIND``, ``player-example NAME``
make the player's book
(:mod:`checker.sphinxext.player`), and ``diagram PROCEDURE [DEPTH]`` draws a procedure as SVG, once
per player count when it forks on the number of players (:mod:`checker.sphinxext.diagram`).  The card
pages of both are generated under ``cartes/`` and ``livre/cartes/`` when the build starts.

Each result of ``rulebook simulate --json`` named in ``rulebook_simulations`` gets a balance page
(generated under ``equilibre/``, see :mod:`checker.sphinxext.balance`).

The teaching pages of the player's book are written by hand, with every number, name and rulebook sentence
read from the spec by a role (``:rb:nombre:``, ``:rb:selon:``, ``:rb:composition:``, ``:rb:phrase:``…, see
:mod:`checker.sphinxext.values`).

Each ``rb:auto`` and each value role declares every spec file, source text and the lexicon as
dependencies of its page, so editing the spec rebuilds the book.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util import logging
from docutils.parsers.rst.states import Struct
from sphinx.util.docutils import SphinxDirective, SphinxRole
from sphinx.util.nodes import nested_parse_with_titles

from checker.prose import UnsupportedNode
from checker.sphinxext.balance import write_balance_pages
from checker.sphinxext.book import FLOW_PAGES, Book, slug
from checker.sphinxext import theme_fr
from checker.sphinxext.diagram import render_diagram
from checker.sphinxext.domain import RulebookDomain
from checker.sphinxext.player import PLAYER_DIR, render_player_cards, render_player_chapter, render_player_roster
from checker.sphinxext.editions import (CACHE_DIR, EDITION_DIR, OLDER_CODE, editions_of, refresh_wanted, render_edition,
                                        render_editions)
from checker.sphinxext.reference import (render_configurations, render_decisions, render_glossary,
                                         render_variants)
from checker.sphinxext.render import render_card, render_chapter, render_kind
from checker.sphinxext.essentials import render_player_essentials
from checker.sphinxext.examples import house_rule_files, render_examples, render_house_rules, render_player_example
from checker.sphinxext.kept import KEPT_CONFLICTS, kept_findings
from checker.sphinxext.reports import load_finder, render_conflicts, render_overview, render_trace
from checker.sphinxext.values import ROLES as VALUE_ROLES, UnknownValue, value_text

__all__ = ["setup", "Book", "RENDERERS", "render", "write_card_pages", "GENERATED"]

logger = logging.getLogger(__name__)

GENERATED = ".. Generated from the spec by checker.sphinxext: do not edit (rebuilt on every build)."
CARD_DIR = "cartes"
BOOKS: dict[str, Book] = {}     # the book of each build, by source directory (the environment is pickled)

RENDERERS: dict[str, Callable[[Book, str], str]] = {
    "card": lambda book, arg: render_card(book, arg),
    "kind": lambda book, arg: render_kind(book, arg),
    "chapter": lambda book, arg: render_chapter(book, arg),
    "configurations": lambda book, arg: render_configurations(book),
    "decisions": lambda book, arg: render_decisions(book),
    "glossary": lambda book, arg: render_glossary(book),
    "variants": lambda book, arg: render_variants(book),
    "conflicts": lambda book, arg: render_conflicts(book, _kept_finder(book)),
    "trace": lambda book, arg: render_trace(book),
    "overview": lambda book, arg: render_overview(book),
    "player-chapter": lambda book, arg: render_player_chapter(book, arg),
    "player-cards": lambda book, arg: render_player_cards(book, arg),
    "player-essentials": lambda book, arg: render_player_essentials(book, arg),
    "player-roster": lambda book, arg: render_player_roster(book, arg),
    "diagram": lambda book, arg: render_diagram(book, arg),
    "edition": lambda book, arg: render_edition(book, arg),
    "editions": lambda book, arg: render_editions(book),
    "examples": lambda book, arg: render_examples(book, arg),
    "player-example": lambda book, arg: render_player_example(book, arg),
    "house-rules": lambda book, arg: render_house_rules(book, arg),
}


def _kept_finder(book: Book) -> Callable | None:
    """The book's conflict finder, through the findings kept in ``_conflicts/`` beside the book's sources
    (:mod:`checker.sphinxext.kept`): a build runs the search only when the rules changed."""
    if book.finder is None or book.cache_dir is None:
        return book.finder
    name = "+".join(p.name for p in book.spec_paths) + ".json"

    def find(result) -> list:
        findings, book.comparisons["conflicts"] = kept_findings(book.finder, result, book.spec_paths,
                                                                book.cache_dir.parent / KEPT_CONFLICTS / name,
                                                                book.refresh_diffs)
        return findings
    return find


def render(book: Book, what: str, arg: str = "") -> str:
    """The reST text of one ``rb:auto`` page (what the directive parses; what golden tests compare)."""
    return RENDERERS[what](book, arg)


class AutoDirective(SphinxDirective):
    """``.. rb:auto:: WHAT [NAME]``: a page's content, generated from the spec."""

    required_arguments = 1
    optional_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        book = BOOKS.get(str(self.env.srcdir))
        if book is None:
            logger.warning("rb:auto: no spec was loaded (set rulebook_spec in conf.py)",
                           location=self.get_location(), type="rulebook", subtype="spec")
            return []
        for path in book.dependencies():
            self.env.note_dependency(str(path))
        what, _, arg = " ".join(self.arguments).partition(" ")
        if what == "edition":            # its own files, and its parent's
            from checker.front.check import spec_files
            from checker.base.diagnostics import Reporter
            for edition in book.editions:
                if edition.name in (arg.strip(), next((e.parent for e in book.editions if e.name == arg.strip()), None)):
                    for path in edition.paths:
                        for file in spec_files(path, Reporter()):
                            self.env.note_dependency(str(file))
        if what == "house-rules":        # the tutorial's files, which the book's spec does not list
            for file in house_rule_files(book, arg.strip()):
                self.env.note_dependency(str(file))
        if what not in RENDERERS:
            logger.warning("rb:auto: unknown page '%s' (expected one of %s)", what, ", ".join(RENDERERS),
                           location=self.get_location(), type="rulebook", subtype="directive")
            return []
        if not book.ok:
            logger.warning("rb:auto %s: the spec has errors, this page is left out", " ".join(self.arguments),
                           location=self.get_location(), type="rulebook", subtype="spec")
            return [nodes.paragraph(text="La spécification contient des erreurs : cette page n'a pas pu être "
                                         "produite.")]
        try:
            text = render(book, what, arg.strip())
        except UnsupportedNode as exc:
            logger.warning("%s", exc, location=f"{exc.span}" if exc.span else self.get_location(),
                           type="rulebook", subtype="prose")
            return []
        except KeyError as exc:
            logger.warning("rb:auto %s: the spec declares no %s", " ".join(self.arguments), exc,
                           location=self.get_location(), type="rulebook", subtype="directive")
            return []
        except ValueError as exc:        # an edition whose rule set has errors
            logger.warning("rb:auto %s: %s", " ".join(self.arguments), exc, location=self.get_location(),
                           type="rulebook", subtype="edition")
            return []
        while book.problems:             # what the page found wrong (an example that does not hold)
            message, span = book.problems.pop(0)
            logger.warning("%s", message, location=str(span) if span else self.get_location(), type="rulebook",
                           subtype="page")
        source = f"<rb:auto {' '.join(self.arguments)}>"
        lines = StringList(text.split("\n"), source=source)
        holder = nodes.section()
        holder.document = self.state.document
        nested_parse_with_titles(self.state, lines, holder)
        return holder.children


class ValueRole(SphinxRole):
    """``:rb:nombre:`cité_complète_à@4```…: a value read from the spec (:mod:`checker.sphinxext.values`),
    parsed as reST inline text."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        book = BOOKS.get(str(self.env.srcdir))
        role = self.name.split(":")[-1]
        if book is None or not book.ok:
            logger.warning("rb:%s: no checked spec to read %s from", role, self.text, location=self.get_location(),
                           type="rulebook", subtype="spec")
            return [nodes.literal(self.rawtext, self.text)], []
        for path in book.dependencies():
            self.env.note_dependency(str(path))
        try:
            text = value_text(book, role, self.text)
        except UnknownValue as exc:
            logger.warning("rb:%s: %s", role, exc, location=self.get_location(), type="rulebook", subtype="value")
            return [nodes.literal(self.rawtext, self.text)], []
        memo = Struct(document=self.inliner.document, reporter=self.inliner.reporter,
                      language=self.inliner.language)
        return self.inliner.parse(text, self.lineno, memo, self.inliner.parent)


def _spec_paths(app: Sphinx) -> list[Path]:
    paths = app.config.rulebook_spec
    if isinstance(paths, (str, Path)):
        paths = [paths]
    return [(Path(app.confdir) / p).resolve() for p in paths]


def _report(book: Book) -> None:
    """The spec's diagnostics, as Sphinx warnings at file:line."""
    for d in book.result.reporter.sorted():
        where = f"{d.span.file}:{d.span.line}" if d.span is not None else None
        text = f"{d.severity.value}[{d.code}]: {d.message}" + (f" ({d.hint})" if d.hint else "")
        logger.warning(text, location=where, type="rulebook", subtype="spec")


def load(app: Sphinx) -> None:
    """builder-inited: check the spec, report its problems, write the card pages."""
    paths = _spec_paths(app)
    lexicon = Path(app.confdir) / app.config.rulebook_lexicon if app.config.rulebook_lexicon else None
    try:
        book = Book.load(paths, lexicon)
    except (OSError, ValueError) as exc:     # a broken lexicon: a warning, not a traceback
        logger.warning("rulebook: %s", exc, location=str(lexicon), type="rulebook", subtype="lexicon")
        book = Book.load(paths, None)
    book.finder = load_finder(app.config.rulebook_conflict_finder)
    book.editions = editions_of(app.config.rulebook_editions, Path(app.confdir), paths[:1])
    book.cache_dir = Path(app.srcdir) / CACHE_DIR
    book.refresh_diffs = refresh_wanted(app.config.rulebook_diff_refresh)
    BOOKS[str(app.srcdir)] = book
    _report(book)
    write_card_pages(book, Path(app.srcdir))
    write_balance_pages(Path(app.srcdir), Path(app.confdir), list(app.config.rulebook_simulations),
                        lambda message, where: logger.warning(message, location=where, type="rulebook",
                                                              subtype="simulation"), book.lexicon)
    write_edition_pages(book, Path(app.srcdir))


def _report_comparisons(app: Sphinx, exception) -> None:
    """build-finished: name the kept results (comparisons, conflicts) an older checker computed (their rules are
    unchanged)."""
    book = BOOKS.get(str(app.srcdir))
    older = sorted(n for n, how in (book.comparisons if book else {}).items() if how == OLDER_CODE)
    if older and exception is None:
        logger.info("rulebook: %d result(s) kept from an older version of the checker (same rules): %s; "
                    "RULEBOOK_DIFF_REFRESH=1 recomputes them", len(older), ", ".join(older))


def write_edition_pages(book: Book, srcdir: Path) -> list[Path]:
    """One page per edition or variant of ``rulebook_editions``; stale generated pages go."""
    root = srcdir / EDITION_DIR
    wanted = {root / f"{e.name}.rst": f"{GENERATED}\n\n.. rb:auto:: edition {e.name}\n" for e in book.editions}
    return _sync_pages(root, wanted)


def write_card_pages(book: Book, srcdir: Path) -> list[Path]:
    """One page per card with powers or rules, one index page per kind, one player's page per kind players
    handle (:meth:`Book.played_kinds`);
    stale generated pages go."""
    root, player = srcdir / CARD_DIR, srcdir / PLAYER_DIR / CARD_DIR
    wanted: dict[Path, str] = {}
    played: dict[Path, str] = {}
    if book.ok:
        for kind in book.program.kinds:
            kind_slug = book.kind_slug(kind)
            wanted[root / f"{kind_slug}.rst"] = f"{GENERATED}\n\n.. rb:auto:: kind {kind}\n"
            for card in book.program.cards_of(kind):
                if book.has_page(card):
                    wanted[root / kind_slug / f"{slug(card.name)}.rst"] = (
                        f"{GENERATED}\n\n.. rb:auto:: card {card.name}\n")
            if kind in book.played_kinds():
                played[player / f"{kind_slug}.rst"] = f"{GENERATED}\n\n.. rb:auto:: player-cards {kind}\n"
    return sorted(_sync_pages(root, wanted) + _sync_pages(player, played))


def _sync_pages(root: Path, wanted: dict[Path, str]) -> list[Path]:
    """Write the generated pages that changed, and remove the generated pages below ``root`` that are
    no longer wanted."""
    for path, text in wanted.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
    if root.is_dir():
        for path in sorted(root.rglob("*.rst")):
            if path not in wanted and path.read_text(encoding="utf-8").startswith(GENERATED):
                path.unlink()
    return sorted(wanted)


def _lexer(app: Sphinx) -> None:
    """The lexer comes from its entry point once the package is installed; a checkout registers it here."""
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound
    try:
        get_lexer_by_name("rulebook")
    except ClassNotFound:
        from checker.front.lexer import RulebookLexer
        app.add_lexer("rulebook", RulebookLexer)


def setup(app: Sphinx) -> dict:
    app.add_config_value("rulebook_spec", ["../spec/citadelles"], "env", [list, str])
    app.add_config_value("rulebook_lexicon", "lexique.toml", "env", [str])
    app.add_config_value("rulebook_simulations", [], "env", [list])
    app.add_config_value("rulebook_conflict_finder", "checker.conflicts.questions:find_conflicts", "env", [str])
    app.add_config_value("rulebook_editions", {}, "env", [dict])
    RulebookDomain.directives = {**RulebookDomain.directives, "auto": AutoDirective}
    RulebookDomain.roles = {**RulebookDomain.roles, **{role: ValueRole() for role in VALUE_ROLES}}
    app.add_domain(RulebookDomain)
    _lexer(app)
    app.add_config_value("rulebook_diff_refresh", False, "env", [bool])
    app.connect("builder-inited", load)
    app.connect("build-finished", _report_comparisons)
    app.connect("builder-inited", theme_fr.install)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}


__all__ += ["FLOW_PAGES"]
