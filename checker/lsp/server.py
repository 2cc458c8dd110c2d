"""``rulebook lsp``: the language server, over stdin and stdout (pygls).

Diagnostics are those of ``rulebook check``, computed on the unsaved buffers a short
while after the last keystroke (:data:`DEBOUNCE_SECONDS`) and published for every file of
the spec that was checked.  Hover, definition, references, completion and the outline
read the name index of the latest check (:mod:`checker.lsp.index`); a request made
while a check is pending runs it first, so answers always match the text.  A failure
of ours never stops the server: it is logged, and the request gets no answer.
"""

from __future__ import annotations

import asyncio
import functools
import importlib.metadata
import logging
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from checker.base.diagnostics import Diagnostic, Severity
from checker.lsp.complete import Item, complete
from checker.lsp.index import Occurrence, Outline
from checker.lsp.positions import from_units, span_range, to_units
from checker.lsp.workspace import Analysis, Settings, Workspace

__all__ = ["make_server", "main", "DEBOUNCE_SECONDS"]

DEBOUNCE_SECONDS = 0.15
log = logging.getLogger(__name__)

_COMPLETION_KINDS = {
    "keyword": lsp.CompletionItemKind.Keyword, "action": lsp.CompletionItemKind.Method,
    "procedure": lsp.CompletionItemKind.Function, "window": lsp.CompletionItemKind.Event,
    "rule": lsp.CompletionItemKind.Interface, "decision": lsp.CompletionItemKind.Constant,
    "quantity": lsp.CompletionItemKind.Function, "table": lsp.CompletionItemKind.Struct,
    "var": lsp.CompletionItemKind.Variable, "zone": lsp.CompletionItemKind.Variable,
    "enum": lsp.CompletionItemKind.Enum, "member": lsp.CompletionItemKind.EnumMember,
    "kind": lsp.CompletionItemKind.Class, "type": lsp.CompletionItemKind.TypeParameter,
    "card": lsp.CompletionItemKind.Value, "attribute": lsp.CompletionItemKind.Field,
    "power": lsp.CompletionItemKind.Method, "local": lsp.CompletionItemKind.Variable,
    "builtin": lsp.CompletionItemKind.Function,
}
_SYMBOL_KINDS = {
    "card": lsp.SymbolKind.Class, "kind": lsp.SymbolKind.Class, "enum": lsp.SymbolKind.Enum,
    "member": lsp.SymbolKind.EnumMember, "attribute": lsp.SymbolKind.Field, "var": lsp.SymbolKind.Variable,
    "zone": lsp.SymbolKind.Array, "window": lsp.SymbolKind.Event, "action": lsp.SymbolKind.Method,
    "quantity": lsp.SymbolKind.Function, "table": lsp.SymbolKind.Struct, "rule": lsp.SymbolKind.Interface,
    "power": lsp.SymbolKind.Method, "procedure": lsp.SymbolKind.Function, "decision": lsp.SymbolKind.Constant,
    "constraint": lsp.SymbolKind.Boolean, "configuration": lsp.SymbolKind.Module, "source": lsp.SymbolKind.File,
    "game": lsp.SymbolKind.Namespace, "precedence": lsp.SymbolKind.Operator,
}


class RulebookServer(LanguageServer):
    """A pygls server holding the :class:`Workspace` and the pending (debounced) check."""

    def __init__(self) -> None:
        super().__init__("rulebook", _version())
        self.specs = Workspace()
        self.debounce = DEBOUNCE_SECONDS
        self._changed: set[Path] = set()
        self._timer: asyncio.TimerHandle | None = None

    # ---------------------------------------------------------------- positions
    @property
    def encoding(self) -> str:
        try:
            return str(self.workspace.position_encoding or "utf-16")
        except RuntimeError:          # before initialize
            return "utf-16"

    def range(self, analysis: Analysis, span) -> lsp.Range:
        return span_range(span, analysis.lines(span.file) if span is not None else [], self.encoding)

    def location(self, analysis: Analysis, span) -> lsp.Location:
        return lsp.Location(from_fs_path(str(analysis.path_of(span.file).resolve())), self.range(analysis, span))

    # ---------------------------------------------------------------- checks and diagnostics
    def schedule(self, path: Path) -> None:
        """Check again once the typing pauses."""
        self._changed.add(path.resolve())
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(self.debounce, self.flush)

    def flush(self) -> None:
        """Check every spec the changed files touch, and publish their diagnostics."""
        changed, self._changed, self._timer = self._changed, set(), None
        candidates = [*sorted(changed), *sorted(self.specs.texts)]
        for context in self._guard(lambda: self.specs.affected(changed), []):
            subject = self._guard(lambda: next((p for p in candidates
                                                if self.specs.context(p).key == context.key), None), None)
            try:
                self.publish(self.specs.check(context), subject)
            except Exception as exc:           # a bug of ours: say so on the file, keep serving
                log.exception("check failed")
                if subject is not None:
                    self._internal_error(subject, exc)

    @staticmethod
    def _guard(compute, default):
        try:
            return compute()
        except Exception:
            log.exception("deciding what to check failed")
            return default

    def publish(self, analysis: Analysis, subject: Path | None) -> None:
        for path, diagnostics in self.specs.diagnostics(analysis, subject).items():
            name = analysis.file_name(path)
            lines = analysis.lines(name) if name else []
            items = [self._diagnostic(analysis, d, name, lines) for d in diagnostics]
            if path == subject:
                items += [lsp.Diagnostic(lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)), note,
                                         severity=lsp.DiagnosticSeverity.Information, source="rulebook")
                          for note in analysis.context.notes]
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=from_fs_path(str(path)), diagnostics=items))

    def _diagnostic(self, analysis: Analysis, d: Diagnostic, name: str | None, lines: list[str]) -> lsp.Diagnostic:
        """A diagnostic on file ``name``; one located elsewhere (an unreadable path) is put at its start."""
        related = [lsp.DiagnosticRelatedInformation(self.location(analysis, n.span), n.message)
                   for n in d.notes if n.span is not None and analysis.result.sources.get(n.span.file)]
        notes = [n.message for n in d.notes if n.span is None]
        here = d.span is not None and d.span.file == name
        where = f"{d.span}: " if d.span is not None and not here else ""
        message = "\n".join([where + d.message, *(f"note: {n}" for n in notes),
                             *([f"hint: {d.hint}"] if d.hint else [])])
        severity = lsp.DiagnosticSeverity.Error if d.severity is Severity.ERROR else lsp.DiagnosticSeverity.Warning
        return lsp.Diagnostic(span_range(d.span if here else None, lines, self.encoding), message,
                              severity=severity, code=d.code, source="rulebook", related_information=related or None)

    def _internal_error(self, path: Path, exc: Exception) -> None:
        message = (f"rulebook: internal error ({type(exc).__name__}: {exc}); please report it with the file "
                   f"that caused it")
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=from_fs_path(str(path)), diagnostics=[lsp.Diagnostic(
                lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)), message, severity=lsp.DiagnosticSeverity.Error,
                source="rulebook")]))

    # ---------------------------------------------------------------- requests
    def at(self, uri: str, position: lsp.Position) -> tuple[Analysis, str, int, int] | None:
        """The check of a document, its file name in spans, and a 1-based position in it."""
        path = Path(to_fs_path(uri))
        analysis = self.specs.analysis(path)
        name = analysis.file_name(path)
        if name is None:
            return None
        line, column = from_units(analysis.lines(name), position.line, position.character, self.encoding)
        return analysis, name, line, column

    def symbol_at(self, params: lsp.TextDocumentPositionParams) -> tuple[Analysis, Occurrence] | None:
        found = self.at(params.text_document.uri, params.position)
        if found is None:
            return None
        analysis, name, line, column = found
        occurrence = analysis.index().at(name, line, column)
        return (analysis, occurrence) if occurrence is not None else None


def _version() -> str:
    try:
        return importlib.metadata.version("rulebook")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _guarded(handler):
    """A handler that logs its own failure and answers nothing, instead of failing the request."""
    @functools.wraps(handler)
    def run(ls: RulebookServer, params):
        try:
            return handler(ls, params)
        except Exception:
            log.exception("%s failed", handler.__name__)
            return None
    return run


def _on_symbol(handler):
    """A request about the name at a position: the handler gets the check and the name's occurrence."""
    @functools.wraps(handler)
    def run(ls: RulebookServer, params):
        found = ls.symbol_at(params)
        return handler(ls, params, *found) if found is not None else None
    return _guarded(run)


def make_server() -> RulebookServer:
    server = RulebookServer()

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: RulebookServer, params: lsp.InitializeParams) -> None:
        options = params.initialization_options if isinstance(params.initialization_options, dict) else {}
        root = Path(to_fs_path(params.root_uri)) if params.root_uri else Path.cwd()

        def path(key: str) -> Path | None:
            value = options.get(key)
            return (root / value) if isinstance(value, str) and value else None
        ls.specs.editor = Settings(base=path("baseSpec"), lexicon=path("lexicon"))
        if isinstance(options.get("debounceMs"), (int, float)):
            ls.debounce = max(0.0, min(float(options["debounceMs"]), 5000.0)) / 1000

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    @_guarded
    def did_open(ls: RulebookServer, params: lsp.DidOpenTextDocumentParams) -> None:
        path = Path(to_fs_path(params.text_document.uri))
        ls.specs.set_text(path, params.text_document.text)
        ls.schedule(path)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    @_guarded
    def did_change(ls: RulebookServer, params: lsp.DidChangeTextDocumentParams) -> None:
        document = ls.workspace.get_text_document(params.text_document.uri)
        path = Path(to_fs_path(params.text_document.uri))
        ls.specs.set_text(path, document.source)
        ls.schedule(path)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    @_guarded
    def did_close(ls: RulebookServer, params: lsp.DidCloseTextDocumentParams) -> None:
        path = Path(to_fs_path(params.text_document.uri))
        ls.specs.close(path)
        ls.schedule(path)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    @_guarded
    def did_save(ls: RulebookServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.specs.touched()
        ls.schedule(Path(to_fs_path(params.text_document.uri)))

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @_guarded
    def watched(ls: RulebookServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        ls.specs.touched()
        for change in params.changes:
            ls.schedule(Path(to_fs_path(change.uri)))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    @_on_symbol
    def hover(ls: RulebookServer, params: lsp.HoverParams, analysis: Analysis,
              occurrence: Occurrence) -> lsp.Hover | None:
        text = analysis.describer().describe(occurrence.symbol)
        if text is None:
            return None
        return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text), ls.range(analysis, occurrence.span))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    @_on_symbol
    def definition(ls: RulebookServer, params: lsp.DefinitionParams, analysis: Analysis,
                   occurrence: Occurrence) -> list[lsp.Location] | None:
        spans = analysis.index().definitions.get(occurrence.symbol, [])
        return [ls.location(analysis, span) for span in spans] or None

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    @_on_symbol
    def references(ls: RulebookServer, params: lsp.ReferenceParams, analysis: Analysis,
                   occurrence: Occurrence) -> list[lsp.Location]:
        include = params.context.include_declaration
        return [ls.location(analysis, o.span) for o in analysis.index().references(occurrence.symbol)
                if include or not o.definition]

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @_guarded
    def outline(ls: RulebookServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol] | None:
        path = Path(to_fs_path(params.text_document.uri))
        analysis = ls.specs.analysis(path)
        name = analysis.file_name(path)
        if name is None:
            return None

        def convert(entry: Outline) -> lsp.DocumentSymbol:
            return lsp.DocumentSymbol(entry.name, _SYMBOL_KINDS.get(entry.kind, lsp.SymbolKind.Object),
                                      ls.range(analysis, entry.span), ls.range(analysis, entry.selection),
                                      detail=entry.kind, children=[convert(c) for c in entry.children] or None)
        return [convert(entry) for entry in analysis.index().outlines.get(name, [])]

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[".", '"']))
    @_guarded
    def completion(ls: RulebookServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        found = ls.at(params.text_document.uri, params.position)
        if found is None:
            return None
        analysis, name, line, column = found
        path = Path(to_fs_path(params.text_document.uri)).resolve()
        lines = analysis.lines(name)
        text = lines[line - 1] if line <= len(lines) else ""
        items = complete(analysis, ls.specs.last_clean.get(path), name, text, line, column)
        return lsp.CompletionList(False, [_completion_item(ls, lines, line, column, item) for item in items])

    return server


def _completion_item(ls: RulebookServer, lines: list[str], line: int, column: int, item: Item) -> lsp.CompletionItem:
    edit = None
    if item.replace_from is not None:
        start = lsp.Position(line - 1, to_units(lines, line, item.replace_from, ls.encoding))
        end = lsp.Position(line - 1, to_units(lines, line, column, ls.encoding))
        edit = lsp.TextEdit(lsp.Range(start, end), item.label)
    return lsp.CompletionItem(item.label, kind=_COMPLETION_KINDS.get(item.kind), detail=item.detail, text_edit=edit,
                              filter_text=item.label if edit else None)


def main() -> int:
    """Serve one editor over stdin and stdout until it disconnects."""
    logging.basicConfig(level=logging.WARNING, format="rulebook lsp: %(levelname)s: %(message)s")
    make_server().start_io()
    return 0
