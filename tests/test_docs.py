"""Publishing: the Sphinx rulebook generated from the spec.

The pages are tested as reST text against golden files (``tests/fixtures/docs``;
``pytest --update-golden`` rewrites them), and the whole book is built once as HTML
with warnings as errors (tests/test_docs_book.py; the book with the fan expansion: tests/test_docs_fan_book.py).
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import io
import re
import tomllib
from pathlib import Path

import pytest
from pygments.token import Error, Keyword

from checker.front import ast
from checker.front.lexer import RulebookLexer
from checker.front.parse import keywords
from checker.prose import Ctx, Prose, UnsupportedNode
from checker.base.source import Span
from checker.sphinxext import Book, render, write_card_pages
from checker.sphinxext.diagram import MARGIN, MAX_WIDTH
from checker.sphinxext.reports import load_finder, render_conflicts, traced
from conftest import ROOT, SPEC
from sphinx_build import build

DOCS = ROOT / "docs"
GOLDEN = ROOT / "tests" / "fixtures" / "docs"
HOUSE = ROOT / "tests" / "fixtures" / "good" / "house_character.rules"
OVERLAY = ROOT / "tests" / "fixtures" / "good" / "overlay_partie_rapide.rules"
LEXICON = DOCS / "lexique.toml"


@pytest.fixture(scope="module")
def book() -> Book:
    return Book.load([SPEC], LEXICON)


@pytest.fixture(scope="module")
def house_book() -> Book:
    return Book.load([SPEC, HOUSE, OVERLAY], LEXICON)


# ---------------------------------------------------------------- the lexer


def test_the_lexer_is_registered_by_entry_point():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["entry-points"]["pygments.lexers"] == {"rulebook": "checker.front.lexer:RulebookLexer"}
    installed = {e.name: e.value for e in importlib.metadata.entry_points(group="pygments.lexers")}
    if "rulebook" in installed:                     # the package is installed (CI: pip install -e)
        from pygments.lexers import get_lexer_by_name
        assert isinstance(get_lexer_by_name("rulebook"), RulebookLexer)


@pytest.mark.parametrize("path", sorted(SPEC.glob("*.rules")), ids=lambda p: p.name)
def test_every_spec_file_lexes_without_error(path: Path):
    text = path.read_text(encoding="utf-8")
    tokens = list(RulebookLexer().get_tokens(text))
    assert [v for t, v in tokens if t in Error] == []
    assert "".join(v for _, v in tokens) == text if text.endswith("\n") else text + "\n"


def test_every_keyword_is_highlighted_as_one():
    lexer = RulebookLexer()
    for word in sorted(keywords()):
        token = next(t for t, v in lexer.get_tokens(f"{word} (") if v == word)
        assert token in Keyword or "Builtin" in str(token), word


# ---------------------------------------------------------------- the prose


def test_a_node_without_prose_is_a_located_error():
    @dataclasses.dataclass(frozen=True)
    class Strange:
        span: Span

    at = Span("spec/maison.rules", 7, 3, 7, 9)
    with pytest.raises(UnsupportedNode, match=r"spec/maison.rules:7:3: no French prose for Strange"):
        Prose(None).expr(Strange(at), Ctx())


def _everything(book: Book):
    """Every sentence the book writes from the spec's powers, rules, procedures, actions and quantities."""
    prose = book.prose
    program = book.program
    out = []

    def flat(steps):
        for s in steps:
            yield s.text
            yield from flat(s.children)
    for card in program.cards.values():
        ctx = book.card_ctx(card)
        for power in card.powers:
            pctx = prose.power_ctx(power, ctx)
            out += prose.power_facets(power, ctx) + list(flat(prose.steps(power.body, pctx)))
            if power.requires is not None:
                out.append(prose.cond(power.requires, pctx))
    for rule in program.rules.values():
        card = program.cards.get(rule.card) if rule.card else None
        out += [prose.head(h, book.card_ctx(card)) for h in rule.heads]
    for decl in [*program.procedures.values(), *program.actions.values()]:
        ctx = Ctx()
        for p in decl.params:
            ctx = ctx.bind(p.name, prose._resolve_type(p.type))
        out += list(flat(prose.steps(decl.body or (), ctx)))
    return [t for t in out if t]


def test_the_whole_spec_reads_as_french(book: Book):
    sentences = _everything(book)
    assert len(sentences) > 500
    leftovers = [s for s in sentences if re.search(r"[{}]|\bNone\b|\bme\b|\bthis\b|\bde le\b|\bà le\b", s)]
    assert leftovers == []
    # identifiers (with an underscore) only inside markup: a variable in italics, or a cross-reference
    raw = [s for s in sentences if re.search(r"(?<![*`\w])\w+_\w+(?![*`\w])", re.sub(r":\w+:`[^`]*`|\*[^*]+\*|"
                                                                                      r"``[^`]*``", "", s))]
    assert raw == []


def test_the_engine_names_no_card_even_in_the_book():
    """The prose and the extension are general: every card name comes from the spec."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in [*(ROOT / "checker" / "prose").glob("*.py"),
                                                            *(ROOT / "checker" / "sphinxext").glob("*.py")])
    for name in ("Assassin", "Sorcière", "Forge", "Merveille", "Bailli", "Citadelles"):
        assert name not in text, name


# ---------------------------------------------------------------- pages as reST text, against golden files

PAGES = [
    ("card", "Assassin"), ("card", "Sorcière"), ("card", "Échevin"), ("card", "Forge"), ("card", "Nécropole"),
    ("kind", "Character"), ("chapter", "setup"), ("chapter", "draft"), ("chapter", "turn"), ("chapter", "end"),
    ("configurations", ""), ("decisions", ""), ("conflicts", ""), ("trace", ""), ("glossary", ""),
    ("player-chapter", "draft"), ("player-chapter", "turn"), ("player-chapter", "end"), ("player-cards", "Character"),
    ("examples", ""),
]


def _golden(name: str, text: str, update: bool) -> None:
    path = GOLDEN / name
    if update:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
    assert path.exists(), f"{path} is missing: run pytest --update-golden"
    assert text + "\n" == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("what, arg", PAGES, ids=lambda x: x or "-")
def test_page_rest_matches_golden(book: Book, what: str, arg: str, update_golden: bool):
    _golden(f"{what}{'-' + arg if arg else ''}.rst", render(book, what, arg), update_golden)


# ---------------------------------------------------------------- the player's book and its diagrams

DESIGNER_ONLY = (":rb:rule:", ":rb:decision:", "code-block", "rb-livret", ":rb:procedure:", ":rb:action:",
                 "Applique", "spec/")


@pytest.mark.parametrize("what, arg", [*(("player-chapter", k) for k in ("setup", "draft", "turn", "end")),
                                       ("player-cards", "Character"), ("player-cards", "District")])
def test_the_players_book_says_the_rules_without_the_designers_apparatus(book: Book, what: str, arg: str):
    text = render(book, what, arg)
    assert [w for w in DESIGNER_ONLY if w in text] == []
    if what == "player-chapter":
        designer = render(book, "chapter", arg)
        assert [w for w in DESIGNER_ONLY if w in designer] != []    # the same rules, with their apparatus


def test_the_players_book_headings_name_parameters_by_their_role_not_their_letter(book: Book):
    headings = []
    for key in ("setup", "draft", "turn", "end"):
        lines = render(book, "player-chapter", key).split("\n")
        headings += [a for a, b in zip(lines, lines[1:]) if b[:3] in ("~~~", "---", "===") and set(b) <= set("~-=")]
    assert "Le joueur joue le tour du personnage" in headings and "Le joueur choisit un personnage" in headings
    assert "Appeler les personnages de rang donné" in headings
    assert [h for h in headings if "*" in h or re.search(r"(?<![\w'’])[a-z](?![\w'’])", h)] == []


def test_the_players_book_leaves_out_bookkeeping(book: Book):
    designer, player = render(book, "chapter", "turn"), render(book, "player-chapter", "turn")
    assert "Remettre le nombre de quartiers bâtis ce tour-ci à 0" in designer
    assert "Remettre" not in player and "Vous ne pouvez pas bâtir un quartier si ce quartier est dans votre cité." \
        in player


def _svg(text: str):
    import xml.etree.ElementTree as ET
    raw = text[text.index("<svg"):text.index("</svg>") + len("</svg>")]
    svg = ET.fromstring("\n".join(line.strip() for line in raw.split("\n")))
    ns = "{http://www.w3.org/2000/svg}"
    return svg, ["".join(t.itertext()) for t in svg.iter(f"{ns}text")], list(svg.iter(f"{ns}polygon"))


def test_the_turn_diagram_is_drawn_from_the_spec(book: Book):
    _, texts, forks = _svg(render(book, "diagram", "tour"))
    words = " ".join(texts)
    assert "Le joueur choisit une ressource parmi" in words          # recevoir_des_ressources, opened
    assert "Utiliser un pouvoir du personnage." in words              # the offer of suite_du_tour
    assert "Le personnage est ensorcelé ?" in texts and len(forks) == 2 and texts.count("oui") == 2
    assert "Remettre" not in words and "(bâtir)" not in words
    _, shallow, _ = _svg(render(book, "diagram", "tour 0"))           # calls left closed
    assert "Le joueur choisit une ressource parmi" not in " ".join(shallow)


def test_a_house_rule_procedure_gets_its_own_diagram(tmp_path: Path):
    spec = tmp_path / "maison.rules"
    spec.write_text((HOUSE.read_text(encoding="utf-8")) + """
procedure rituel(p: Player) {
  if count(c in main[p]) > 2 {
    transfer 1 from banque to trésor[p]
  }
}
""", encoding="utf-8")
    house = Book.load([SPEC, spec], LEXICON)
    assert house.ok, [d.message for d in house.result.reporter.sorted()][:3]
    _, texts, forks = _svg(render(house, "diagram", "rituel"))
    assert len(forks) == 1 and any("main" in t for t in texts) and "Rien ne se passe." in texts


def _figures(text: str) -> list:
    """Every SVG of a page, parsed."""
    import xml.etree.ElementTree as ET
    return [ET.fromstring("\n".join(line.strip() for line in m.group(0).split("\n")))
            for m in re.finditer(r"<svg.*?</svg>", text, re.S)]


_NS = "{http://www.w3.org/2000/svg}"


def _boxes(svg) -> list[tuple[str, float, float, float, float]]:
    """(class, x1, y1, x2, y2) of every step, frame and fork."""
    out = []
    for rect in svg.iter(f"{_NS}rect"):
        x, y, w, h = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
        out.append((rect.get("class"), x, y, x + w, y + h))
    for poly in svg.iter(f"{_NS}polygon"):
        points = [tuple(map(float, p.split(","))) for p in poly.get("points").split()]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        out.append((poly.get("class"), min(xs), min(ys), max(xs), max(ys)))
    return out


def _overlaps(a, b) -> bool:
    return a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]


def _inside(a, b) -> bool:
    return b[1] <= a[1] and a[3] <= b[3] and b[2] <= a[2] and a[4] <= b[4]


def _assert_well_drawn(svg) -> None:
    """No two steps or forks overlap; a frame holds what it overlaps; each fork's branches meet again."""
    boxes = _boxes(svg)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if not _overlaps(a, b):
                continue
            assert "rb-frame" in (a[0], b[0]), f"{a} overlaps {b}"
            frame, other = (a, b) if a[0] == "rb-frame" else (b, a)
            assert _inside(other, frame), f"{other} sticks out of {frame}"
    joins = [tuple(float(line.get(k)) for k in ("x1", "y1", "x2", "y2")) for line in svg.iter(f"{_NS}line")
             if line.get("class") == "rb-join"]
    for fork in (b for b in boxes if b[0] == "rb-fork"):
        left, right = fork[1] + (fork[3] - fork[1] - 18) / 4, fork[3] - (fork[3] - fork[1] - 18) / 4
        bars = [j for j in joins if j[1] == j[3] and abs(j[0] - left) <= 1 and abs(j[2] - right) <= 1]
        if not bars:            # branches one under the other: they meet under the second, by the right margin
            left, right = (fork[1] + fork[3]) / 2, fork[3] - MARGIN / 2
            bars = sorted((j for j in joins if j[1] == j[3] and j[1] > fork[4] and abs(j[0] - left) <= 1
                           and abs(j[2] - right) <= 1), key=lambda j: j[1])[:1]
            left = fork[1] + MARGIN
            right = fork[3] - MARGIN
        assert len(bars) == 1, f"the branches of the fork at {fork} do not meet"
        below = [b for b in boxes if b[0] != "rb-frame" and left - 1 <= (b[1] + b[3]) / 2 <= right + 1
                 and fork[4] < b[2] < bars[0][1]]
        assert below, "a fork with no branch drawn"
        assert all(b[4] <= bars[0][1] for b in below), "a branch goes below the point where they meet"


def test_the_branches_of_a_fork_meet_again_and_no_boxes_overlap(book: Book):
    for name in ("tour", "choix_des_personnages 2", "partie 2"):
        for svg in _figures(render(book, "diagram", name)):
            _assert_well_drawn(svg)
    svg, = _figures(render(book, "diagram", "tour"))
    assert [line for line in svg.iter(f"{_NS}line") if line.get("class") == "rb-join"]


def test_every_diagram_of_the_players_book_fits_the_content_column(book: Book):
    """A fork whose branches do not fit side by side draws them one under the other: no figure is wider
    than the page's content column (the turn, with the bewitched branch, was 1122 px wide)."""
    drawn = [render(book, "player-chapter", "turn tour"), render(book, "player-chapter", "draft choix_des_personnages 2"),
             *(render(book, "diagram", name) for name in ("tour", "tour 0", "partie 2"))]
    widths = [float(svg.get("width")) for text in drawn for svg in _figures(text)]
    assert len(widths) >= 7 and max(widths) <= MAX_WIDTH + 4, widths
    svg, = _figures(render(book, "diagram", "tour"))
    _assert_well_drawn(svg)
    texts = ["".join(t.itertext()) for t in svg.iter(f"{_NS}text")]
    assert texts.count("oui") == 2 and texts.count("non") == 2, "both branches are still drawn and labelled"


def test_the_draft_is_drawn_once_per_player_count_the_spec_distinguishes(book: Book):
    text = render(book, "player-chapter", "draft choix_des_personnages 2")
    assert re.findall(r"\.\. rubric:: (.*)", text) == ["2 joueurs", "3 joueurs", "4 à 8 joueurs"]
    two, three, more = [" ".join("".join(t.itertext()) for t in svg.iter(f"{_NS}text")) for svg in _figures(text)]
    assert "Le second joueur" in two and "nombre de joueurs" not in two          # the fork is gone: 2 players
    assert "Tirer au hasard" in three and "second joueur" not in three
    assert "Remplacer le personnage de rang 4" in more and "Tirer au hasard" not in more
    # a procedure that does not fork on the number of players keeps one figure, with no heading
    assert "rubric" not in render(book, "diagram", "tour") and len(_figures(render(book, "diagram", "tour"))) == 1


def test_the_theme_speaks_french():
    from checker.sphinxext.theme_fr import frenchify
    page = ('<span>Back to top</span><a class="skip-to-content" href="#c">Skip to content</a>'
            '<div>\n  On this page\n</div><span>Next</span>')
    assert frenchify(page) == ('<span>Haut de page</span><a class="skip-to-content" href="#c">Aller au contenu</a>'
                               '<div>\n  Sur cette page\n</div><span>Suivant</span>')


def test_a_house_rule_file_gets_its_pages(house_book: Book, tmp_path: Path, update_golden: bool):
    assert house_book.ok
    pages = write_card_pages(house_book, tmp_path)
    assert tmp_path / "cartes" / "personnages" / "percepteur.rst" in pages
    _golden("card-Percepteur.rst", render(house_book, "card", "Percepteur"), update_golden)
    variants = render(house_book, "variants")
    _golden("variants-house.rst", variants, update_golden)
    assert ":rb:character:`Percepteur`" in variants and "rule ``bonus_cinq_types``" in variants
    assert "bonus_cinq_types" not in render(house_book, "chapter", "end")     # the overlay removed it


def test_stale_generated_pages_are_removed(book: Book, tmp_path: Path):
    stale = tmp_path / "cartes" / "personnages" / "ancien.rst"
    stale.parent.mkdir(parents=True)
    stale.write_text(".. Generated from the spec by checker.sphinxext: do not edit (rebuilt on every build).\n")
    mine = tmp_path / "cartes" / "notes.rst"
    mine.write_text("Mes notes\n")
    write_card_pages(book, tmp_path)
    assert not stale.exists() and mine.exists()


def test_the_conflict_report_takes_a_solver_when_there_is_one(book: Book):
    assert load_finder("checker.no_such_module:find_conflicts") is None

    @dataclasses.dataclass
    class Finding:
        message: str
        rules: tuple[str, ...]
        span: Span | None = None
    found = render_conflicts(book, lambda result: [Finding("permission et interdiction sans préséance",
                                                           ("pas_de_doublon", "carrière_doublons"))])
    assert "Ce que le solveur trouve" in found
    assert "permission et interdiction sans préséance — :rb:rule:`pas_de_doublon`" in found
    assert "Ce que le solveur trouve" not in render_conflicts(book, None)


def test_the_solvers_findings_are_said_in_french(book: Book):
    from checker.conflicts.questions import Finding
    settled = Finding("resolved", "…", ("carrière_doublons", "échevin_pas_de_doublon"), resolution="settled",
                      winner="échevin_pas_de_doublon", how="precedence", confirmed=True,
                      situation=["player_count = 4", "confisquer(Joueur 2, Temple)"])
    order = Finding("order", "…", ('"Hospice".hospice_recevoir', '"Alchimiste".or_rendu'))
    found = render_conflicts(book, lambda result: [settled, order])
    assert "- **Ordre des effets** — :rb:power:`Hospice.hospice_recevoir` / :rb:power:`Alchimiste.or_rendu`" in found
    assert "Réglé par une préséance déclarée : :rb:rule:`échevin_pas_de_doublon` l'emporte." in found
    assert "Situation témoin : player_count = 4; confisquer(Joueur 2, Temple)" in found
    assert "L'interpréteur, sur ce témoin : les deux règles s'appliquent." in found


def test_traceability_counts_the_rulebook_sentences(book: Book):
    table = traced(book)
    done, total = table.share
    assert total > 300 and done / total > 0.7
    assert f"**{done} phrases sur {total} sont encodées" in render(book, "trace")


def test_every_card_with_powers_or_rules_has_a_page(book: Book):
    program = book.program
    with_pages = [c.name for c in program.cards.values() if book.has_page(c)]
    assert len([c for c in program.cards_of("Character")]) == 27
    assert {c.name for c in program.cards_of("Character")} <= set(with_pages)
    wonders = [c.name for c in program.cards_of("District") if book.attr(c, "type") == "Merveille"]
    assert len(wonders) == 30 and set(wonders) <= set(with_pages)


def test_every_power_step_and_rule_is_cited_somewhere_on_its_page(book: Book):
    for card in book.program.cards.values():
        if not book.has_page(card):
            continue
        page = render(book, "card", card.name)
        for power in card.powers:
            for s in ast.statements(power.body):
                if isinstance(s, ast.CiteStmt):
                    assert s.cite.quote.replace("*", "\\*") in page, (card.name, s.cite.quote)


# ---------------------------------------------------------------- small builds
# (the whole book: tests/test_docs_book.py; the book with the fan expansion: tests/test_docs_fan_book.py)


def test_a_broken_spec_is_reported_as_located_warnings(tmp_path: Path):
    src = tmp_path / "docs"
    src.mkdir()
    (src / "conf.py").write_text('extensions = ["checker.sphinxext"]\nrulebook_spec = []\nrulebook_lexicon = ""\n')
    (src / "index.rst").write_text("Livre\n=====\n\n.. rb:auto:: overview\n")
    bad = ROOT / "tests" / "fixtures" / "bad" / "types.rules"
    warnings = io.StringIO()
    app = build(src, tmp_path / "html", {"rulebook_spec": [str(bad)]}, warnings, strict=False)
    text = warnings.getvalue()
    assert "Traceback" not in text
    assert re.search(r"types\.rules:\d+: WARNING: error\[E\d{4}\]: ", text), text
    assert "the spec has errors, this page is left out" in text


def test_an_example_that_does_not_hold_is_shown_and_warned(tmp_path: Path):
    """The examples page runs them: one the rules do not satisfy is marked on the page and becomes a build warning."""
    house = tmp_path / "exemple-faux.rules"
    house.write_text('overlay "Faux" on "Citadelles"\n'
                     'example "Le Roi commence riche" {\n  players 4\n  configuration "Première partie"\n'
                     '  expect trésor[Joueur 1] == 9\n}\n', encoding="utf-8")
    book = Book.load([ROOT / "spec" / "citadelles", house], DOCS / "lexique.toml")
    assert book.ok
    text = render(book, "examples", "")
    assert "**24 sur 25** tiennent" in text
    assert text.count("ne tient pas") == 1 and "Le Roi commence riche" in text
    assert [m for m, _ in book.problems] == [m for m, _ in book.problems if "Le Roi commence riche" in m] != []
    assert str(book.problems[0][1]).startswith(str(house))
