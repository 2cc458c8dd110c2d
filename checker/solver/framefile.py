"""The ``resume`` section of a state file (``rulebook-state/2``): what a game needs to go on from its decision
point — the frames of the calls and loops above it (:mod:`checker.runtime.frames`), the random source and the
number of decisions asked so far.

Written by ``play``/``replay --state-at`` (:func:`resume_section`), read by :func:`read_resume` into runtime
:class:`~checker.runtime.frames.Frame`; the values are written as every value of a state file is
(the state file's own reader and writer), with the types of the procedure's locals (:func:`local_types`).
A state file without the section (``rulebook-state/1``, or one a person wrote) loads as before for `eval`,
`legal`, `moves` and `apply`; only going on from it (`play --from`, `reach --from`) needs it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from checker.base.documents import MAX_PROBLEMS
from checker.front import ast
from checker.front.types import Coll, Ty, element
from checker.runtime.frames import Frame, Step, resumable, statement_at

__all__ = ["FORMAT_RESUME", "Resume", "local_types", "resume_section", "read_resume"]

FORMAT_RESUME = "rulebook-state/2"

_KINDS = ("for", "repeat", "if", "call")


def site_label(span) -> str:
    """``file:line:col`` of a statement, as a state file names its decision point."""
    return f"{Path(span.file).name}:{span.line}:{span.column}"


def local_types(scopes, proc: str) -> dict[str, Ty]:
    """Every local name of a procedure's body with its type (parameters, `let`, `choose`, `for`)."""
    decl = scopes.typed.program.procedures[proc]
    types = scopes.typed.types
    names: dict[str, Ty] = {x.name: scopes.resolve(x.type) for x in decl.params}

    def walk(stmts) -> None:
        for s in stmts:
            if isinstance(s, ast.Let):
                names.setdefault(s.name, types.get(id(s.value)))
            elif isinstance(s, ast.Choose):
                names.setdefault(s.var, element(types.get(id(s.coll))))
            elif isinstance(s, ast.ChooseSubset):
                names.setdefault(s.var, Coll(element(types.get(id(s.coll)))))
            elif isinstance(s, ast.For):
                names.setdefault(s.var, element(types.get(id(s.coll))))
                walk(s.body)
            elif isinstance(s, ast.Repeat):
                walk(s.body)
            elif isinstance(s, ast.If):
                walk(s.then)
                walk(s.else_)
    walk(decl.body)
    return names


def resume_section(engine, scopes, frames: list[Frame], decisions: int, vals, rng: tuple) -> dict:
    """The ``resume`` object of a state file written at a decision point with these frames, ``decisions``
    asked before it and ``rng`` the random source's state there."""
    p = engine.program
    out_frames = []
    for f in frames:
        types = local_types(scopes, f.procedure)
        body = p.procedures[f.procedure].body
        path = []
        for k, step in enumerate(f.path):
            s = statement_at(body, f.path[:k + 1])
            entry: dict = {"index": step.index, "at": site_label(s.span)}
            if step.kind == "for":
                entry["for"] = step.iteration
                entry["over"] = [vals.write(x, element(scopes.typed.types.get(id(s.coll)))) for x in step.over]
            elif step.kind == "repeat":
                entry["repeat"] = step.iteration
            elif step.kind == "if":
                entry["if"] = step.branch
            elif step.kind == "call":
                entry["call"] = s.name
            path.append(entry)
        names = {n: vals.write(v, types[n]) for n, v in f.names.items() if types.get(n) is not None}
        out_frames.append({"procedure": f.procedure, "names": names, "path": path})
    version, words, gauss = rng
    return {"random": list(words), "decisions": decisions, "frames": out_frames}


@dataclasses.dataclass
class Resume:
    """A state file's ``resume`` section, read: the frames (outermost first), the random source's state, the
    number of decisions asked before this one."""
    frames: list
    random: tuple
    decisions: int

    def apply(self, engine) -> None:
        """Set ``engine``'s random source and decision count as they were at the decision point."""
        engine.st.rng.setstate(self.random)
        engine.decisions = self.decisions

    def prepare(self, engine, agents: list) -> None:
        """Make ``engine`` (its state loaded from the file) ready to go on: its agents, an empty log."""
        engine.agents = list(agents)
        engine.events, engine.choices, engine.moves, engine.work, engine.logged = [], [], 0, 0, 0
        self.apply(engine)
        engine.invalidate()

    def go_on(self, engine) -> None:
        """Run the rest of the game from the frames (after :meth:`prepare`)."""
        from checker.runtime.frames import go_on
        from checker.runtime.state import SpecRuntimeError
        try:
            go_on(engine, self.frames)
        except RecursionError:
            raise SpecRuntimeError("procedures, actions and powers call each other too deeply") from None


def read_resume(engine, scopes, data: dict, vals, site, problems: list) -> Resume | None:
    """A state file's ``resume`` section, checked against the spec (every problem with its JSON path); None
    when there are problems."""
    p = engine.program
    frames: list[Frame] = []
    for k, fd in enumerate(data.get("frames", [])):
        if len(problems) > MAX_PROBLEMS:        # a state made of junk: the first ones say enough
            return None
        where = f"resume/frames/{k}"
        proc = fd.get("procedure")
        if proc not in p.procedures:
            problems.append((f"{where}/procedure", f"no procedure {proc}"))
            return None
        types = local_types(scopes, proc)
        body = p.procedures[proc].body
        names = {}
        for n, raw in fd.get("names", {}).items():
            if len(problems) > MAX_PROBLEMS:
                return None
            if types.get(n) is None:
                problems.append((f"{where}/names/{n}", f"{proc} has no local name {n}"))
                continue
            names[n] = vals.read(raw, types[n], f"{where}/names/{n}", problems)
        path: list[Step] = []
        for i, sd in enumerate(fd.get("path", [])):
            step = Step(sd.get("index", -1))
            kinds = [x for x in _KINDS if x in sd]
            step.kind = kinds[0] if kinds else "at"
            path.append(step)
            s = statement_at(body, path)
            if s is None or site_label(s.span) != sd.get("at"):
                problems.append((f"{where}/path/{i}", f"statement {step.index} of this block of {proc} is not the "
                                                      f"one at {sd.get('at')}"))
                return None
            if step.kind == "for":
                step.iteration = sd["for"]
                elem = element(scopes.typed.types.get(id(s.coll)))
                over = []
                for j, x in enumerate(sd.get("over", [])):
                    if len(problems) > MAX_PROBLEMS:    # 1.6 million bad names took 2 GB of problems
                        return None
                    over.append(vals.read(x, elem, f"{where}/path/{i}/over/{j}", problems))
                step.over = tuple(over)
                if not 0 <= step.iteration < len(step.over):
                    problems.append((f"{where}/path/{i}/for", f"iteration {step.iteration} of {len(step.over)}"))
            elif step.kind == "repeat":
                step.iteration = sd["repeat"]
            elif step.kind == "if":
                step.branch = bool(sd["if"])
        frames.append(Frame(proc, names, path))
    if problems:
        return None
    why = resumable(p, frames, site)
    if why is not None:
        problems.append(("resume/frames", why))
        return None
    words = data.get("random")
    if not isinstance(words, list) or len(words) != 625:
        problems.append(("resume/random", "expected the random source's 625 numbers"))
        return None
    try:
        state = (3, tuple(words), None)
        import random
        random.Random().setstate(state)
    except (TypeError, ValueError, OverflowError):
        problems.append(("resume/random", "not a state of the random source"))
        return None
    return Resume(frames, state, data["decisions"])
