"""`rulebook lsp`: the language server an editor starts (:mod:`checker.lsp.server`)."""

from __future__ import annotations

import sys

__all__ = ["add_parsers", "lsp_command"]


def add_parsers(new_command) -> dict:
    """`lsp`, made by the CLI's ``new_command``."""
    lsp = new_command("lsp", plain=True, help="run the language server an editor talks to (over stdin and stdout)",
                         description="Serve the Language Server Protocol over stdin and stdout: diagnostics as you "
                                     "type, hover (the book's French prose and the rulebook's sentences), go to "
                                     "definition, references, completion and the outline of .rules files.  An editor "
                                     "starts it; see docs/editor.md.  Needs the lsp extra: pip install 'rulebook[lsp]'.")
    lsp.add_argument("--stdio", action="store_true", help="use stdin and stdout (the default and only transport)")
    return {"lsp": lsp_command}


def lsp_command(args) -> int:
    try:
        from checker.lsp.server import main as serve
    except ImportError as exc:
        print(f"rulebook lsp: the language server needs pygls ({exc.name} is missing); install it with "
              f"pip install 'rulebook[lsp]'", file=sys.stderr)
        return 2
    return serve()
