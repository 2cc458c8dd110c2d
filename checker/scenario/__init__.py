"""Scenarios without whole games: ``rulebook eval``, ``score`` and ``apply`` on a state file.  It takes a state
loaded into the interpreter and, for ``apply``, the legality of :mod:`checker.solver.legal`; it gives values,
scores and the state after a move.
"""
