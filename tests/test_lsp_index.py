"""The language server's parts, in process: which spec a file is checked with, the name index,
hovers, completion, positions, and the parse cache behind diagnostics as you type."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from checker.front.check import ParseCache, check_paths
from checker.base.diagnostics import Reporter, render_human
from checker.lsp.complete import complete
from checker.lsp.hover import Describer
from checker.lsp.index import Symbol, build_index
from checker.lsp.positions import from_units, to_units
from checker.lsp.workspace import Settings, Workspace, read_settings
from checker.prose import Lexicon
from conftest import ROOT, SPEC

HOUSE = ROOT / "spec" / "maison" / "bâtisseuse.rules"
FIXTURES = ROOT / "tests" / "fixtures"


@pytest.fixture(scope="module")
def checked():
    result = check_paths([SPEC, HOUSE])
    return result, build_index(result)


# ---------------------------------------------------------------- which spec a file is checked with


def test_a_file_of_a_spec_directory_is_checked_with_its_directory():
    assert Workspace().context(SPEC / "20-quartiers.rules").paths == (SPEC,)


def test_a_house_rule_file_is_checked_after_the_base_named_in_rulebook_toml():
    context = Workspace().context(HOUSE)            # the repository's rulebook.toml names spec/citadelles
    assert [p.resolve() for p in context.paths] == [SPEC.resolve(), HOUSE.resolve()]
    assert context.lexicon.resolve() == (ROOT / "docs" / "lexique.toml").resolve() and not context.notes


def test_without_a_base_a_house_rule_file_is_checked_alone_and_says_so(tmp_path: Path):
    house = tmp_path / "maison.rules"
    house.write_text('card Character "X" { rank: 9 }\n', encoding="utf-8")
    context = Workspace().context(house)
    assert context.paths == (house,)
    assert "no base spec is named" in context.notes[0] and "rulebook.toml" in context.notes[0]
    editor = Workspace(Settings(base=SPEC))                   # the editor's setting, when no rulebook.toml
    assert editor.context(house).paths == (SPEC, house)


def test_a_folder_of_examples_checks_each_game_alone(tmp_path: Path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.rules").write_text(f'game "{name}" {{ players: 2 }}\n', encoding="utf-8")
    (tmp_path / "rulebook.toml").write_text(f'base = "{SPEC.as_posix()}"\n', encoding="utf-8")
    (tmp_path / "house.rules").write_text("rule r { forbid bâtir(p, d) }\n", encoding="utf-8")
    workspace = Workspace()
    assert workspace.context(tmp_path / "a.rules").paths == (tmp_path / "a.rules",)
    assert workspace.context(tmp_path / "house.rules").paths == (SPEC, tmp_path / "house.rules")


def test_a_file_below_the_base_is_checked_with_the_base(tmp_path: Path):
    spec = tmp_path / "spec"
    (spec / "cartes").mkdir(parents=True)
    (spec / "jeu.rules").write_text('game "G" { players: 2 }\n', encoding="utf-8")
    (spec / "cartes" / "x.rules").write_text("", encoding="utf-8")
    (tmp_path / "rulebook.toml").write_text('base = "spec"\n', encoding="utf-8")
    assert Workspace().context(spec / "cartes" / "x.rules").paths == (tmp_path / "spec",)


def test_a_broken_rulebook_toml_is_reported_not_fatal(tmp_path: Path):
    config = tmp_path / "rulebook.toml"
    config.write_text('base = "nowhere"\ncolour = 3\n', encoding="utf-8")
    assert "does not exist" in read_settings(config).problem
    config.write_text("base = [", encoding="utf-8")
    assert "cannot be read" in read_settings(config).problem
    (tmp_path / "h.rules").write_text("", encoding="utf-8")
    assert "cannot be read" in Workspace().context(tmp_path / "h.rules").notes[0]


def test_the_unsaved_buffer_is_checked_not_the_file_on_disk():
    workspace = Workspace()
    path = SPEC / "00-jeu.rules"
    workspace.set_text(path, path.read_text(encoding="utf-8").replace("counter trésor[", "counter trésorr["))
    analysis = workspace.analysis(path)
    assert any("trésor" in d.message for d in analysis.result.reporter.errors)
    by_file = workspace.diagnostics(analysis, path.resolve())
    assert (SPEC / "01-partie.rules").resolve() in by_file and by_file[(SPEC / "01-partie.rules").resolve()]


def test_a_new_file_not_saved_yet_is_checked_with_its_spec():
    workspace = Workspace()
    new = SPEC / "99-nouveau.rules"
    assert not new.exists()
    workspace.set_text(new, "rule nouvelle { forbid bâtir(p, d) when trésorr[p] > 3 }\n")
    analysis = workspace.analysis(new)
    assert analysis.context.paths == (SPEC, new) and analysis.file_name(new) is not None
    [error] = analysis.result.reporter.errors
    assert "trésorr" in error.message and error.span.file == analysis.file_name(new)


# ---------------------------------------------------------------- the parse cache


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*/*.rules")), ids=lambda p: p.stem)
def test_the_parse_cache_changes_no_diagnostic(path: Path):
    relative = path.relative_to(ROOT)
    plain = check_paths([relative])
    cache = ParseCache()
    for _ in range(2):                        # the first run fills the cache, the second reads it
        cached = check_paths([relative], cache=cache)
        assert render_human(cached.reporter.sorted(), cached.sources) == \
            render_human(plain.reporter.sorted(), plain.sources)
        assert cached.reporter.unparsed == plain.reporter.unparsed


# ---------------------------------------------------------------- the index


def test_every_occurrence_is_its_name_in_the_text(checked):
    result, index = checked
    count = 0
    for file, occurrences in index.occurrences.items():
        lines = result.sources.get(file).lines()
        for occ in occurrences:
            s = occ.span
            quoted = occ.symbol.kind in ("card", "game", "configuration")
            written = lines[s.line - 1][s.column - 1:s.end_column - 1]
            assert (s.line, written) == (s.end_line, f'"{occ.symbol.name}"' if quoted else occ.symbol.name), occ
            count += 1
    assert count > 3000


def test_every_name_used_is_declared_and_described(checked):
    result, index = checked
    describer = Describer(result, index, Lexicon.load(ROOT / "docs" / "lexique.toml"))
    used = {occ.symbol for occs in index.occurrences.values() for occ in occs}
    assert [s for s in used if s.kind not in ("builtin", "type") and s not in index.definitions] == []
    assert [s for s in used if describer.describe(s) is None] == []
    assert {s.kind for s in used} >= {"card", "rule", "quantity", "action", "var", "zone", "window", "procedure",
                                      "decision", "enum", "member", "kind", "attribute", "local", "power", "table"}


def test_a_local_name_refers_to_its_binder(checked):
    result, index = checked
    text = (SPEC / "10-personnages-1-4.rules").read_text(encoding="utf-8").split("\n")
    line = next(i for i, t in enumerate(text, 1) if "choose c in selected(Character) where can assassiner(me, c)" in t)
    do_line = next(i for i in range(line, line + 3) if "do assassiner(me, c)" in text[i - 1])
    use = index.at("spec/citadelles/10-personnages-1-4.rules", do_line, text[do_line - 1].index("c)") + 1)
    assert use.symbol.kind == "local" and use.symbol.site.line == line
    binding = index.locals[use.symbol]
    assert (binding.what, str(binding.type), binding.owner) == ("choose", "Character", '"Assassin".assassinat')
    assert [occ.span.line for occ in index.references(use.symbol)] == [line, line, do_line, do_line + 1]   # the log line names it too


def test_the_house_file_outline_and_references(checked):
    result, index = checked
    name = "spec/maison/bâtisseuse.rules"
    [card, precedence] = index.outlines[name]
    assert (card.kind, card.name, [c.name for c in card.children]) == ("card", "Bâtisseuse", ["bâtisseuse_doublons"])
    assert (precedence.kind, precedence.name) == ("precedence", "échevin_pas_de_doublon over bâtisseuse_doublons")
    uses = index.references(Symbol("rule", "pas_de_doublon"))
    assert {o.span.file for o in uses} >= {name, "spec/citadelles/01-partie.rules"}


# ---------------------------------------------------------------- completion


def _labels(analysis, line_text: str, line: int = 1, column: int | None = None, stale=None) -> set[str]:
    column = len(line_text) + 1 if column is None else column
    name = analysis.result.program.files[-1]
    return {i.label for i in complete(analysis, stale, name, line_text, line, column)}


def test_completion_reads_what_comes_before_the_cursor():
    workspace = Workspace()
    analysis = workspace.analysis(HOUSE)
    assert _labels(analysis, "  # do ") == set()                              # a comment
    assert _labels(analysis, '  cite "Annon') == set()                        # a quotation, not a card
    characters = _labels(analysis, '  include Character: "Ro')
    assert "Roi" in characters and "Forge" not in characters                  # only the kind included
    assert "Forge" in _labels(analysis, '    let x = "Fo')
    assert {"bâtir", "assassiner"} <= _labels(analysis, "    do ba")
    assert "tour" in _labels(analysis, "    call ")
    assert "pas_de_doublon" in _labels(analysis, "    overrides carrière_doublons, ")
    assert {"Int", "Player", "District"} <= _labels(analysis, "action a(p: Pl")
    assert {"rank", "name", "assassinat"} <= _labels(analysis, '  precedence "Assassin".')
    general = _labels(analysis, "    let x = ")
    assert {"trésor", "cité", "coût_de_construction", "me", "count", "let"} <= general


def test_completion_of_this_and_of_a_local_in_a_card():
    workspace = Workspace()
    analysis = workspace.analysis(HOUSE)
    lines = HOUSE.read_text(encoding="utf-8").split("\n")
    number = next(i for i, t in enumerate(lines, 1) if "permit acquérir(p, d)" in t)
    assert {"rank", "origin"} <= _labels(analysis, "    permit acquérir(p, d) when this.", number)
    assert {"cost", "type"} <= _labels(analysis, "    permit acquérir(p, d) when d.", number)


# ---------------------------------------------------------------- robustness and positions


def test_broken_buffers_never_break_the_index_hover_or_completion():
    """Cut, duplicated or garbled text, as while typing: every answer is computed, none raises."""
    rnd = random.Random(15)
    path = SPEC / "10-personnages-1-4.rules"
    original = path.read_text(encoding="utf-8")
    workspace = Workspace()
    for _ in range(8):
        a = rnd.randrange(len(original))
        b = min(len(original), a + rnd.randrange(1, 300))
        text = rnd.choice([original[:a], original[:a] + original[b:], original[:a] + original[a:b] * 2,
                           original[:a] + rnd.choice(['"', "{", "(", "do ", "d.", "é🏰", "#"]) + original[a:]])
        workspace.set_text(path, text)
        analysis = workspace.analysis(path)
        name = analysis.file_name(path)
        for occ in analysis.index().occurrences.get(name, [])[::11]:
            analysis.describer().describe(occ.symbol)
        lines = text.split("\n")
        for _ in range(10):
            number = rnd.randrange(len(lines))
            column = rnd.randrange(len(lines[number]) + 1) + 1
            complete(analysis, workspace.last_clean.get(path.resolve()), name, lines[number], number + 1, column)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from("aé€🏰\t b"), max_size=12), st.data())
def test_columns_survive_the_round_trip_through_every_encoding(line: str, data):
    column = data.draw(st.integers(1, len(line) + 1))
    for encoding in ("utf-8", "utf-16", "utf-32"):
        assert from_units([line], 0, to_units([line], 1, column, encoding), encoding) == (1, column)


def test_without_pygls_the_command_says_what_to_install(monkeypatch, capsys):
    import sys

    from checker.cli import main
    for name in [n for n in sys.modules if n == "pygls" or n.startswith("pygls.")] + ["pygls"]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "checker.lsp.server", raising=False)
    assert main(["lsp"]) == 2
    assert "pip install 'rulebook[lsp]'" in capsys.readouterr().err


@pytest.mark.parametrize("path", sorted(SPEC.glob("*.rules")), ids=lambda p: p.name)
def test_a_file_parsed_item_by_item_is_the_file_parsed_whole(path: Path):
    from checker.base.source import read_source
    source = read_source(path.relative_to(ROOT))
    by_items = ParseCache()._by_items(source)
    assert by_items is not None and by_items == ParseCache._whole(source)      # the same AST, spans included


def test_typing_in_a_file_parses_again_only_the_item_typed_in(monkeypatch):
    import checker.front.parse
    from checker.base.source import source_from_text
    path = SPEC / "11-personnages-5-9.rules"
    text = path.read_text(encoding="utf-8")
    cache = ParseCache()
    cache.lowered(source_from_text(path, text), Reporter())
    parsed = []
    real = checker.front.parse.parse_item
    monkeypatch.setattr(checker.front.parse, "parse_item", lambda t, b, e: parsed.append(t[b:e]) or real(t, b, e))
    at = text.index('card Character "Marchande"')
    typed = text[:at] + text[at:].replace("rank: 6", "rank: 6 ", 1)
    header, decls = cache.lowered(source_from_text(path, typed), Reporter())
    assert len(parsed) == 1 and parsed[0].lstrip().startswith('card Character "Marchande"')
    broken = text[:at] + text[at:].replace("rank: 6", "rank: ", 1)          # broken: only that card is dropped
    reporter = Reporter()
    header, decls = cache.lowered(source_from_text(path, broken), reporter)
    assert [d.code for d in reporter.diagnostics] == ["E0101"] and "Marchande" in reporter.unparsed
    assert not any(getattr(d, "name", None) == "Marchande" for d in decls) and len(decls) > 10
