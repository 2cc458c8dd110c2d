"""Playing games at the command line: ``rulebook play`` (one seeded game with built-in agents, or a person at a
seat) and ``rulebook replay`` (a logged game played again and checked).  It takes a checked spec and the
interpreter (:mod:`checker.runtime`), and writes logs and state files (:mod:`checker.solver.statefile`).
"""
