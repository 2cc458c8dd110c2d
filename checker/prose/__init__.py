"""French prose from the typed AST: rule heads, conditions, statements and powers as sentences.

:mod:`checker.prose.french` knows French (articles, contractions, plurals) and reads the lexicon;
:mod:`checker.prose.verbs` conjugates; :mod:`checker.prose.core` holds the generator and how bound
names read; :mod:`checker.prose.exprs` turns expressions into clauses, :mod:`checker.prose.heads`
rule heads into sentences, :mod:`checker.prose.statements` statements into steps;
:mod:`checker.prose.style` checks the result.  Every node type has a registered handler; a node
without one raises :class:`UnsupportedNode`, located.
"""

from checker.prose.core import Ctx, Prose, Step, UnsupportedNode, cites_of, flatten_steps
from checker.prose.french import (Lexicon, Term, capitalize, contract, humanize, indefinite, plural, rst_escape)
from checker.prose import exprs  # noqa: F401,E402  (registers the expression handlers)
from checker.prose import statements  # noqa: F401,E402  (registers the statement handlers)
from checker.prose import shapes  # noqa: F401,E402  (registers grids, records and searches)

__all__ = ["Prose", "Ctx", "Step", "Lexicon", "Term", "UnsupportedNode", "contract", "capitalize", "plural",
           "indefinite", "humanize", "rst_escape", "flatten_steps", "cites_of"]
