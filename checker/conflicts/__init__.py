"""The conflict finder: ``rulebook conflicts``.  It takes a checked program and asks Z3, over the bounded
symbolic states of :mod:`checker.solver.search`, the questions of :mod:`~checker.conflicts.questions`
(contradictions, competing values, order-dependent reactions, dead rules, dangling references), scoped to the
files a designer changed (:mod:`~checker.conflicts.scope`) and spread over worker processes
(:mod:`~checker.conflicts.parallel`); it gives findings, each with its rules' spec lines, cited sentences and a
witness the interpreter replays.
"""
