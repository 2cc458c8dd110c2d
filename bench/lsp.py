"""The language server's latency, printed as tables.  Run: python bench/lsp.py [--repeat N]

- over the protocol: a real client starts `rulebook lsp`, opens a file of the bundled spec and
  types one character at a time; the time from the didChange to the publishDiagnostics of that
  file (debounce 0, then the default debounce);
- in process, per step: the check after a keystroke (one file parsed again, every pass over the
  whole spec), the name index the first hover builds, a hover, a completion.

Timings are medians (and p95): the machine is noisy, so nothing here is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lsprotocol import types as lsp  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

from checker.lsp.complete import complete  # noqa: E402
from checker.lsp.index import Symbol  # noqa: E402
from checker.lsp.server import DEBOUNCE_SECONDS  # noqa: E402
from checker.lsp.workspace import Workspace  # noqa: E402

SPEC = ROOT / "spec" / "citadelles"
FILES = ("00-jeu.rules", "20-quartiers.rules", "11-personnages-5-9.rules")


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def _row(name: str, values: list[float]) -> str:
    return f"| {name:<56} | {statistics.median(values) * 1000:>8.1f} | {_p95(values) * 1000:>8.1f} | {len(values):>4} |"


def _header(title: str) -> list[str]:
    return [title, "", f"| {'measure':<56} | {'median':>8} | {'p95':>8} | {'runs':>4} |",
            f"|{'-' * 58}|{'-' * 10}|{'-' * 10}|{'-' * 6}|"]


def _keystrokes(text: str, count: int, broken: bool = False):
    """The text after each of ``count`` characters typed at the end of its middle line, in a comment
    (or, ``broken``, as a statement that does not parse yet)."""
    lines = text.split("\n")
    middle = len(lines) // 2
    typed = "  do (" if broken else "  # "
    for i in range(count):
        typed += "abcdefghij"[i % 10]
        yield "\n".join([*lines[:middle], lines[middle] + typed, *lines[middle + 1:]])


async def _protocol(file: Path, repeat: int, debounce_ms: float) -> list[float]:
    client = LanguageClient("bench", "1")
    arrived: dict[str, asyncio.Event] = {}
    target = from_fs_path(str(file.resolve()))

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        if params.uri in arrived:
            arrived[params.uri].set()

    await client.start_io(sys.executable, "-m", "checker", "lsp")
    await client.initialize_async(lsp.InitializeParams(
        capabilities=lsp.ClientCapabilities(), root_uri=from_fs_path(str(ROOT)),
        initialization_options={"debounceMs": debounce_ms}))
    client.initialized(lsp.InitializedParams())
    text = file.read_text(encoding="utf-8")
    arrived[target] = asyncio.Event()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(target, "rules", 1, text)))
    await asyncio.wait_for(arrived[target].wait(), 60)
    times = []
    for version, typed in enumerate(_keystrokes(text, repeat), start=2):
        arrived[target] = asyncio.Event()
        start = time.perf_counter()
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=version, uri=target),
            [lsp.TextDocumentContentChangeWholeDocument(text=typed)]))
        await asyncio.wait_for(arrived[target].wait(), 60)
        times.append(time.perf_counter() - start)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times


def protocol_table(repeat: int) -> list[str]:
    lines = _header("`rulebook lsp` over stdio: keystroke (didChange) → diagnostics of the file published")
    for debounce in (0.0, DEBOUNCE_SECONDS * 1000):
        for name in FILES:
            path = SPEC / name
            times = asyncio.run(_protocol(path, repeat, debounce))
            size = len(path.read_text(encoding="utf-8").split("\n"))
            lines.append(_row(f"{name} ({size} lines), debounce {debounce:.0f} ms", times))
    return lines


def in_process_table(repeat: int) -> list[str]:
    lines = _header("in process, per step (the bundled spec, 7 files)")
    workspace = Workspace()
    path = SPEC / "10-personnages-1-4.rules"
    text = path.read_text(encoding="utf-8")
    start = time.perf_counter()
    workspace.set_text(path, text)
    workspace.analysis(path)
    lines.append(_row("first check (nothing cached)", [time.perf_counter() - start]))
    checks, indexes, hovers, completions = [], [], [], []
    for typed in _keystrokes(text, repeat):
        workspace.set_text(path, typed)
        start = time.perf_counter()
        analysis = workspace.analysis(path)
        checks.append(time.perf_counter() - start)
        start = time.perf_counter()
        analysis.index()
        indexes.append(time.perf_counter() - start)
        start = time.perf_counter()
        analysis.describer().describe(Symbol("card", "Roi"))
        hovers.append(time.perf_counter() - start)
        name = analysis.file_name(path)
        start = time.perf_counter()
        complete(analysis, None, name, "    do ", 40, 8)
        completions.append(time.perf_counter() - start)
    lines.append(_row("check after a keystroke (one item parsed again)", checks))
    broken = []
    for typed in _keystrokes(text, repeat, broken=True):
        workspace.set_text(path, typed)
        start = time.perf_counter()
        workspace.analysis(path)
        broken.append(time.perf_counter() - start)
    lines.append(_row("check after a keystroke, the line not parsing yet", broken))
    lines.append(_row("name index (built by the first request after a change)", indexes))
    lines.append(_row('hover on "Roi" (prose of its powers and rules)', hovers))
    lines.append(_row("completion after `do `", completions))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=20, help="keystrokes per measure")
    args = parser.parse_args()
    print("\n".join(in_process_table(args.repeat)))
    print()
    print("\n".join(protocol_table(args.repeat)))


if __name__ == "__main__":
    main()
