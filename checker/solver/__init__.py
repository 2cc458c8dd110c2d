"""The Z3 backend: it takes the same typed program the interpreter runs and gives answers about states.

:mod:`~checker.solver.encode` (with :mod:`~checker.solver.formulas`, :mod:`~checker.solver.shapes` and
:mod:`~checker.solver.searches`) translates expressions, quantities and legality into Z3 terms, node type by node
type, over a concrete state (an interpreter's, at a decision point: :mod:`~checker.solver.legal` judges a move and
names the rules that forbid it, from an unsat core) or a symbolic one (:mod:`~checker.solver.search`: the bounded
states that the conflict finder and `diff` search, with witnesses a legal game can be set up for and that the
interpreter replays, :mod:`~checker.solver.witness`).  Every solver is made by :mod:`~checker.solver.factory`
(seeded, with a resource limit); state and move files are :mod:`~checker.solver.statefile`.  The `legal` and
`moves` commands are :mod:`~checker.solver.command`.
"""
