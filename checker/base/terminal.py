"""What every command does the same way at the terminal: colour, progress bars and the ``--json`` channel.

- **Colour** only on a terminal: ``--color auto`` (the default) colours when the stream is a terminal and the
  ``NO_COLOR`` environment variable is not set; ``always`` and ``never`` force it.  :func:`colored` answers
  for a stream, :func:`paint` wraps text in an ANSI style when it should.
- **Progress** of long work (``conflicts``, ``simulate``) is drawn on the standard error, only when it is a
  terminal: never in a pipe, a file or CI logs (:func:`progress`).
- **Completion**: :func:`completes` marks an argument as naming a file or a directory, for the scripts
  ``rulebook completion`` prints.
- **``--json``** makes the standard output one JSON document and nothing else: while a command runs with it,
  ``sys.stdout`` is the standard error (so every human line goes there) and the command writes its document
  with :func:`emit_json`.  A command that fails before writing one (a bad file, a bad option) gets
  ``{"ok": false, "exit_code": N, "error": "…"}`` written for it by the CLI (:func:`json_failure`).

See docs/cli.md for the conventions every command follows.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Callable

__all__ = ["COLOR_CHOICES", "completes", "spec_arguments", "set_color", "colored", "paint", "progress", "emit_json", "json_channel",
           "json_emitted", "json_failure", "JsonChannel"]

COLOR_CHOICES = ("auto", "always", "never")
_color = "auto"


def set_color(choice: str | None) -> None:
    """The ``--color`` choice of the command being run (``auto`` when the command has none)."""
    global _color
    _color = choice if choice in COLOR_CHOICES else "auto"


def colored(stream=None) -> bool:
    """Should text written to ``stream`` (the standard output by default) be coloured?"""
    if _color != "auto":
        return _color == "always"
    if "NO_COLOR" in os.environ:
        return False
    stream = sys.stdout if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


_STYLES = {"bold": "1", "red": "1;31", "green": "1;32", "yellow": "1;33", "blue": "1;34", "dim": "2"}


def paint(text: str, style: str, stream=None) -> str:
    """``text`` in ``style`` (bold, red, green, yellow, blue, dim) when ``stream`` is coloured."""
    return f"\x1b[{_STYLES[style]}m{text}\x1b[0m" if colored(stream) else text


def progress(total: int, unit: str, description: str | None = None) -> tuple[Callable[[int], None], Callable[[], None]]:
    """(advance by n, close) of a progress bar on the standard error when it is a terminal; else two no-ops."""
    if total <= 0 or not _is_terminal(sys.stderr):
        return (lambda n=1: None), (lambda: None)
    try:
        from tqdm import tqdm
    except ImportError:
        return (lambda n=1: None), (lambda: None)
    bar = tqdm(total=total, unit=unit, desc=description, file=sys.stderr, leave=False, dynamic_ncols=True)
    return bar.update, bar.close


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def completes(action, what: str):
    """Mark an argparse argument as naming a ``file`` or a ``dir`` for shell completion (``rulebook
    completion``); harmless without shtab.  The action, so that it wraps ``add_argument``."""
    action.complete = {"file": {"bash": "_shtab_compgen_files", "zsh": "_files"},
                       "dir": {"bash": "_shtab_compgen_dirs", "zsh": "_files -/"}}[what]
    return action


def spec_arguments(command) -> None:
    """A command's SPEC and MORE…: the spec directory (or one file) and the overlays checked with it."""
    from pathlib import Path
    completes(command.add_argument("spec", type=Path, help="the spec directory (or one .rules file)"), "file")
    completes(command.add_argument("more", type=Path, nargs="*", help="overlay or house-rule files checked with it"),
              "file")


# ---------------------------------------------------------------- the --json channel

class JsonChannel:
    """Where :func:`emit_json` writes (the real standard output) and what the command said on the standard
    error meanwhile (for :func:`json_failure`)."""

    def __init__(self, stream):
        self.stream = stream
        self.emitted = False
        self.said: list[str] = []


_channel: JsonChannel | None = None


class _Recorder:
    """The standard error, remembering what is written to it (the messages of a failing command)."""

    def __init__(self, stream, channel: JsonChannel):
        self._stream = stream
        self._channel = channel

    def write(self, text: str) -> int:
        self._channel.said.append(text)
        return self._stream.write(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


class json_channel:
    """``with json_channel(): …`` runs a command whose standard output is reserved for its JSON document."""

    def __enter__(self) -> JsonChannel:
        global _channel
        self.saved = (sys.stdout, sys.stderr, _channel)
        _channel = JsonChannel(sys.stdout)
        sys.stderr = _Recorder(sys.stderr, _channel)
        sys.stdout = sys.stderr
        return _channel

    def __exit__(self, *exc) -> None:
        global _channel
        sys.stdout, sys.stderr, _channel = self.saved


def emit_json(document) -> None:
    """Write the command's JSON document: on the JSON channel when there is one, else on the standard output."""
    stream = _channel.stream if _channel is not None else sys.stdout
    utf8 = (getattr(stream, "encoding", None) or "utf-8").lower().replace("-", "") == "utf8"
    text = json.dumps(document, ensure_ascii=not utf8, indent=2) + "\n"     # \u escapes for a non-UTF-8 output
    if _channel is not None:
        _channel.stream.write(text)
        _channel.emitted = True
    else:
        sys.stdout.write(text)


def json_emitted() -> bool:
    return _channel is not None and _channel.emitted


def json_failure(command: str | None, code: int) -> dict:
    """The document written for a command that ended with ``code`` without writing its own: what it said on
    the standard error is the ``error``."""
    said = "".join(_channel.said).strip() if _channel is not None else ""
    return {"command": command, "ok": False, "exit_code": code, "error": said or _DEFAULT_ERRORS.get(code, "failed")}


_DEFAULT_ERRORS = {2: "bad input or command line", 3: "internal error", 130: "interrupted"}
