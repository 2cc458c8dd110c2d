"""The language server of the rules language (``rulebook lsp``), for editors: it takes the files an editor has
open (saved or not) and gives diagnostics, hovers, definitions, references, completions and outlines.

:mod:`~checker.lsp.workspace` decides which spec a file belongs to and checks it with
the editor's unsaved text; :mod:`~checker.lsp.index` indexes every name of a checked
spec; :mod:`~checker.lsp.hover` and :mod:`~checker.lsp.complete` answer from it;
:mod:`~checker.lsp.server` speaks the protocol (pygls, the ``lsp`` extra).
"""

__all__ = ["workspace", "index", "hover", "complete", "positions", "server"]
