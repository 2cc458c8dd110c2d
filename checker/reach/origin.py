"""Where a search starts when it is not the seeded set-up: a state file's decision point (``reach --from``).

:class:`FromState` puts an engine in the file's state (every search and the replay of a path found load it
again), unrolls the flow from the file's frames (:func:`checker.solver.unroll_resume.resume`) and, for the
replay, runs the interpreter on from them (:meth:`checker.solver.framefile.Resume.go_on`).
"""

from __future__ import annotations

__all__ = ["FromState"]


class FromState:
    def __init__(self, path: str, data: dict, scopes):
        self.path, self.data, self.scopes = path, data, scopes
        self.loaded = None

    def start(self, engine, agents: list) -> None:
        """``engine`` in the file's state, its random source and decision count the file's."""
        from checker.solver.statefile import load_state
        self.loaded = load_state(engine, self.data, self.scopes)
        self.loaded.resume.prepare(engine, agents)

    def unroll(self, t) -> None:
        from checker.solver.unroll_resume import resume
        resume(t, self.loaded.resume.frames, self.scopes)

    def run(self, engine) -> None:
        self.loaded.resume.go_on(engine)
