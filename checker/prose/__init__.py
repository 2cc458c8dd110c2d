"""French prose from the typed AST: rule heads, conditions, statements and powers as sentences.

:mod:`checker.prose.french` knows French (articles, contractions, plurals) and reads the lexicon;
:mod:`checker.prose.verbs` conjugates; :mod:`checker.prose.context` holds the steps and how bound names are kept;
:mod:`checker.prose.core` holds the generator and how bound names read; :mod:`checker.prose.exprs` turns expressions
into clauses (:mod:`checker.prose.aggregates` those over a collection), :mod:`checker.prose.heads` rule heads into
sentences, :mod:`checker.prose.statements` statements into steps; :mod:`checker.prose.style` checks the result. They
are layers (french, verbs < core < exprs < aggregates < heads, statements, shapes), with context below core: where a
lower one needs a higher one's function, the higher one provides it by name (:func:`checker.prose.context.provides`)
when this package imports it. Every node type has a registered handler; a node without one raises
:class:`UnsupportedNode`, located.
"""

from checker.prose.core import Ctx, Prose, Step, UnsupportedNode, cites_of, flatten_steps
from checker.prose.context import precondition
from checker.prose.french import (Lexicon, Term, capitalize, contract, humanize, indefinite, plural, rst_escape)
from checker.prose import exprs  # noqa: F401,E402  (registers the expression handlers)
from checker.prose import aggregates  # noqa: F401,E402  (registers count, filter, sum… and provides quantifiers)
from checker.prose import statements  # noqa: F401,E402  (registers the statement handlers)
from checker.prose import simultaneous  # noqa: F401,E402  (retarget, swap, each … chooses)
from checker.prose import triggers  # noqa: F401,E402  (wraps set, for, if and reset: lasting triggers)
from checker.prose import shapes  # noqa: F401,E402  (registers grids, records and searches)
from checker.prose import heads  # noqa: F401,E402  (provides the rule heads' table)

__all__ = ["Prose", "Ctx", "Step", "Lexicon", "Term", "UnsupportedNode", "contract", "capitalize", "plural",
           "indefinite", "humanize", "rst_escape", "flatten_steps", "cites_of", "precondition"]
