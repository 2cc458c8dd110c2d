"""`rulebook lsp` end to end: a real LSP client (pytest-lsp) starts the server as a subprocess.

One server serves the whole module.  The house-rule file lives in a temporary directory
with a ``rulebook.toml`` naming the bundled spec as its base; buffers are never saved, so
the spec on disk is untouched.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from conftest import ROOT, SPEC

pytestmark = pytest.mark.asyncio(loop_scope="module")

# One line carries an emoji (two UTF-16 units) before the mistake, so a column counted in
# characters or in bytes would put the squiggle in the wrong place.
HOUSE = '''\
card Character "Bâtisseuse" {
  rank: 9
  origin: "maison"

  power fondation "Recevoir de l'or" {
    choose d in cité[me] where d.cost >= 1
    log "🏰 {0} {1}", d, trésorr[me]
    transfer d.cost from banque to trésor[me]
  }

  rule bâtisseuse_doublons {
    permit acquérir(p, d) when personnage_actif == this and trésor[p] >= coût_de_construction(p, d)
    overrides pas_de_doublon
  }
}

constraint avec_le_roi {
  require "Roi" in selected(Character) or not "Bâtisseuse" in selected(Character)
}
'''
TIMEOUT = 20.0


@pytest.fixture(scope="module")
def house(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("maison")
    (folder / "rulebook.toml").write_text(f'base = "{SPEC.as_posix()}"\nlexicon = "{(ROOT / "docs" / "lexique.toml").as_posix()}"\n',
                                          encoding="utf-8")
    path = folder / "bâtisseuse.rules"
    path.write_text(HOUSE, encoding="utf-8")
    return path


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=[sys.executable, "-m", "checker", "lsp"]))
async def client(lsp_client: LanguageClient):
    params = lsp.InitializeParams(capabilities=client_capabilities("visual-studio-code"),
                                  root_uri=from_fs_path(str(ROOT)), initialization_options={"debounceMs": 20})
    result = await lsp_client.initialize_session(params)
    lsp_client.server_capabilities = result.capabilities
    yield
    await lsp_client.shutdown_session()


def uri(path: Path) -> str:
    return from_fs_path(str(path.resolve()))


def position(text: str, needle: str, after: int = 0) -> lsp.Position:
    """The LSP position (UTF-16 columns) of the start of ``needle`` in ``text``, plus ``after`` characters."""
    offset = text.index(needle) + after
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return lsp.Position(line, len(text[start:offset].encode("utf-16-le")) // 2)


async def diagnostics(client: LanguageClient, target: str, check) -> list[lsp.Diagnostic]:
    """Wait until the diagnostics published for ``target`` satisfy ``check``; return them."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        found = client.diagnostics.get(target)
        if found is not None and check(found):
            return found
        await asyncio.sleep(0.02)
    raise AssertionError(f"no diagnostics satisfying the check for {target}; last: {client.diagnostics.get(target)}")


def change(client: LanguageClient, path: Path, text: str, version: int) -> None:
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version=version, uri=uri(path)),
        [lsp.TextDocumentContentChangeWholeDocument(text=text)]))


def errors_of(found: list[lsp.Diagnostic]) -> list[lsp.Diagnostic]:
    return [d for d in found if d.severity == lsp.DiagnosticSeverity.Error]


async def test_the_server_says_what_it_can_do(client: LanguageClient):
    caps = client.server_capabilities
    assert caps.hover_provider and caps.definition_provider and caps.references_provider
    assert caps.document_symbol_provider
    assert "." in caps.completion_provider.trigger_characters


async def test_a_mistake_is_reported_where_it_is_then_cleared_when_fixed(client: LanguageClient, house: Path):
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri=uri(house), language_id="rules", version=1, text=HOUSE)))
    found = await diagnostics(client, uri(house), lambda ds: bool(errors_of(ds)))
    [error] = errors_of(found)
    assert error.code == "E0202" and "unknown var, counter or zone 'trésorr'" in error.message
    assert "did you mean 'trésor'?" in error.message
    start = position(HOUSE, "trésorr")
    assert error.range == lsp.Range(start, lsp.Position(start.line, start.character + len("trésorr")))
    assert start.character == len('    log "🏰 {0} {1}", d, ') + 1     # the emoji counts twice in UTF-16

    # a keystroke, as editors send it: delete the second r (an incremental change in UTF-16 columns)
    extra_r = lsp.Range(lsp.Position(start.line, start.character + 6), lsp.Position(start.line, start.character + 7))
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version=2, uri=uri(house)),
        [lsp.TextDocumentContentChangePartial(range=extra_r, text="")]))
    await diagnostics(client, uri(house), lambda ds: len(ds) == 0)


async def hover(client: LanguageClient, house: Path, needle: str, after: int) -> lsp.Hover:
    text = HOUSE.replace("trésorr", "trésor")
    return await client.text_document_hover_async(lsp.HoverParams(
        lsp.TextDocumentIdentifier(uri(house)), position(text, needle, after)))


async def test_hover_on_a_card_gives_the_book_prose_and_the_sentences(client: LanguageClient, house: Path):
    found = await hover(client, house, '"Roi"', 2)
    value = found.contents.value
    assert 'card Character "Roi"' in value
    assert "Prendre la Couronne" in value                       # a power, in the book's words
    assert "Ce joueur devient le détenteur de la Couronne" in value    # its steps, in French prose
    assert "« Vous devez prendre la Couronne." in value         # the rulebook sentence it encodes
    assert found.range.start == position(HOUSE, '"Roi"')


async def test_hover_on_a_rule_gives_its_sentence_and_its_cite(client: LanguageClient, house: Path):
    value = (await hover(client, house, "pas_de_doublon", 3)).contents.value
    assert "rule pas_de_doublon" in value
    assert "ne peut pas" in value and "identique" in value
    assert "**Dans le livret**" in value and "> « " in value


async def test_definition_of_a_quantity_and_of_a_card_name(client: LanguageClient, house: Path):
    text = HOUSE.replace("trésorr", "trésor")
    [quantity] = await client.text_document_definition_async(lsp.DefinitionParams(
        lsp.TextDocumentIdentifier(uri(house)), position(text, "coût_de_construction")))
    base = (SPEC / "00-jeu.rules").read_text(encoding="utf-8")
    assert quantity.uri == uri(SPEC / "00-jeu.rules")
    assert quantity.range.start == position(base, "quantity coût_de_construction", len("quantity "))

    [card] = await client.text_document_definition_async(lsp.DefinitionParams(
        lsp.TextDocumentIdentifier(uri(house)), position(text, '"Roi"', 1)))
    characters = (SPEC / "10-personnages-1-4.rules").read_text(encoding="utf-8")
    assert card.uri == uri(SPEC / "10-personnages-1-4.rules")
    assert card.range.start == position(characters, 'card Character "Roi"', len("card Character "))


async def test_references_and_outline(client: LanguageClient, house: Path):
    text = HOUSE.replace("trésorr", "trésor")
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=lsp.TextDocumentIdentifier(uri(house)), position=position(text, "pas_de_doublon"),
        context=lsp.ReferenceContext(include_declaration=True)))
    files = {r.uri for r in refs}
    assert uri(SPEC / "01-partie.rules") in files and uri(house) in files       # declared there, used here
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        lsp.TextDocumentIdentifier(uri(house))))
    [card, constraint] = symbols
    assert (card.name, constraint.name) == ("Bâtisseuse", "avec_le_roi")
    assert [c.name for c in card.children] == ["fondation", "bâtisseuse_doublons"]


async def _complete(client: LanguageClient, house: Path, text: str, at: lsp.Position, version: int) -> set[str]:
    change(client, house, text, version)
    result = await client.text_document_completion_async(lsp.CompletionParams(
        lsp.TextDocumentIdentifier(uri(house)), at))
    return {item.label for item in result.items}


async def test_completion_after_do_and_after_a_dot_while_the_line_does_not_parse(client: LanguageClient,
                                                                                house: Path):
    clean = HOUSE.replace("trésorr", "trésor")
    change(client, house, clean, 3)
    await diagnostics(client, uri(house), lambda ds: len(ds) == 0)      # a clean check: the file's locals are known

    typing_do = clean.replace("    transfer d.cost", "    do \n    transfer d.cost")
    labels = await _complete(client, house, typing_do, position(typing_do, "do \n", 3), 4)
    assert {"bâtir", "assassiner", "acquérir"} <= labels
    assert "trésor" not in labels and "let" not in labels            # actions only

    typing_dot = clean.replace("where d.cost >= 1", "where d.")
    labels = await _complete(client, house, typing_dot, position(typing_dot, "where d.", len("where d.")), 5)
    assert {"cost", "type", "name"} <= labels
    assert "bâtir" not in labels

    in_string = clean.replace('"Roi" in', '"Ro in')
    labels = await _complete(client, house, in_string, position(in_string, '"Ro in', 3), 6)
    assert {"Roi", "Assassin", "Forge"} <= labels


async def test_a_change_to_the_base_is_reported_in_the_open_house_file(client: LanguageClient, house: Path):
    clean = HOUSE.replace("trésorr", "trésor")
    change(client, house, clean, 7)
    await diagnostics(client, uri(house), lambda ds: len(ds) == 0)
    base = SPEC / "00-jeu.rules"
    original = base.read_text(encoding="utf-8")
    renamed = original.replace("quantity coût_de_construction(", "quantity coût_de_bâtir(")
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri=uri(base), language_id="rules", version=1, text=renamed)))
    found = await diagnostics(client, uri(house), lambda ds: bool(errors_of(ds)))
    assert any("unknown quantity 'coût_de_construction'" in d.message for d in found)
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri(base))))
    await diagnostics(client, uri(house), lambda ds: len(ds) == 0)


async def test_a_house_rule_file_without_a_base_says_it_is_checked_alone(client: LanguageClient, tmp_path: Path):
    if any((folder / "rulebook.toml").is_file() for folder in (tmp_path, *tmp_path.parents)):
        pytest.skip("a rulebook.toml above the temporary directory names a base")
    lone = tmp_path / "seul.rules"
    text = "rule r {\n  forbid bâtir(p, d)\n}\n"
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(
        lsp.TextDocumentItem(uri=uri(lone), language_id="rules", version=1, text=text)))
    found = await diagnostics(client, uri(lone), lambda ds: len(ds) > 0)
    info = [d for d in found if d.severity == lsp.DiagnosticSeverity.Information]
    assert len(info) == 1 and "checked alone" in info[0].message and "rulebook.toml" in info[0].message
    assert any("unknown action 'bâtir'" in d.message for d in errors_of(found)), found
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri(lone))))
