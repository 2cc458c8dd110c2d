"""The front end: from ``.rules`` files to a checked, typed program.

``parse`` (Lark, :mod:`~checker.front.parse`) → ``lower`` (parse trees to the frozen AST of
:mod:`~checker.front.ast`) → ``collect`` (one :class:`~checker.front.program.Program` from a spec and its
overlays) → ``typecheck`` → ``bounds`` → ``citations`` → ``configurations``; :func:`checker.front.check.check_paths`
runs them in that order and returns every diagnostic with the typed program.  It also holds the static analyses
the back ends share (:mod:`~checker.front.effects`, :mod:`~checker.front.trace`), the Pygments lexer, and the
``check`` and ``configs`` commands.  It imports only :mod:`checker.base`: the interpreter, the solver and every
feature are built on what it gives, never the other way.
"""
