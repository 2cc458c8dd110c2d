"""The foundation every stage stands on: source files and spans, diagnostics and their rendering, the
node-type registry, the language's limits, bounded graph searches, grids, JSON documents read against their
schemas, guarded outputs, the terminal (colour, progress, ``--json``) and worker processes.

It takes nothing from the rest of :mod:`checker` and knows nothing of any game: every other package may import
it, it imports none of them.
"""
