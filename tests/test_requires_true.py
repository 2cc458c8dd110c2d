"""`requires true` on a procedure that replaces none (docs/language.md, *Procedures*): it says nothing, so
`check` warns (W0507, the twin of W0506 on a replacement that drops nothing) and the books print no
« Seulement si vrai » before its steps; a real precondition is still printed."""

from __future__ import annotations

from checker.sphinxext import Book
from checker.sphinxext.player import _procedure
from checker.sphinxext.render import procedure_block
from conftest import ROOT
from test_language_constructs import checked, errors
from test_procedure_preconditions import BASE, OVERLAY

TRUE = BASE.replace("procedure partie() {", "procedure partie() requires true {")
LINE = next(i for i, line in enumerate(TRUE.split("\n"), 1) if "partie() requires true" in line)


def test_requires_true_on_a_procedure_that_replaces_none_is_a_warning(tmp_path):
    result = checked(tmp_path, TRUE)
    assert result.ok, errors(result)
    [warning] = [d for d in result.reporter.diagnostics if d.code.startswith("W05")]
    assert warning.code == "W0507" and "procedure partie replaces none" in warning.message
    assert (warning.span.line, warning.span.column) == (LINE, TRUE.split("\n")[LINE - 1].index("true") + 1)
    # an overlay's new procedure too; a replacement's `requires true` is W0506's, or says what it drops
    added = checked(tmp_path, BASE, OVERLAY + "procedure encore() requires true {\n  call partie()\n}\n")
    assert [(d.code, d.span.line) for d in added.reporter.diagnostics if d.code.startswith("W05")] == [("W0507", 2)]
    assert not [d for d in checked(tmp_path, BASE).reporter.diagnostics if d.code.startswith("W05")]


def test_the_books_print_no_precondition_for_requires_true(tmp_path):
    path = tmp_path / "00.rules"
    path.write_text(TRUE, encoding="utf-8")
    book = Book.load([path], ROOT / "docs" / "lexique.toml")
    said = "\n".join(_procedure(book, "partie") + procedure_block(book, book.program.procedures["partie"]))
    assert "Seulement si" not in said and "vrai" not in said, said
    assert "#. Pour chaque joueur, donner (ce joueur)." in said
    # a real precondition is still said, in both books
    said = "\n".join(_procedure(book, "donner") + procedure_block(book, book.program.procedures["donner"]))
    assert said.count("Seulement si") == 2, said


def test_the_hover_says_no_precondition_for_requires_true(tmp_path):
    from checker.lsp.hover import Describer
    from checker.lsp.index import Symbol, build_index
    from checker.prose import Lexicon
    result = checked(tmp_path, TRUE)
    lexicon = Lexicon.load(ROOT / "docs" / "lexique.toml")
    describe = Describer(result, build_index(result), lexicon).describe
    hover = describe(Symbol("procedure", "partie"))
    assert "Seulement si" not in hover and "vrai" not in hover, hover
    assert "Seulement si" in describe(Symbol("procedure", "donner"))
