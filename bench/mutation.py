"""Mutation testing: would the tests notice a wrong rule, or a wrong line of the interpreter or the solver?

    python bench/mutation.py                         # every mutant (hours: run it overnight)
    python bench/mutation.py --sample 20 --seed 1    # 20 mutants per package, drawn with the seed
    python bench/mutation.py --only spec             # only the spec's mutants (spec, runtime, solver)
    python bench/mutation.py --list                  # the mutants, without running anything

Three packages of mutants:

* ``spec``: the .rules files of spec/citadelles, mutated as text: a number changed (n → n+1, n → n-1), a
  comparison flipped (< ↔ <=, > ↔ >=, == ↔ !=), a condition dropped (the part of a `when` after its first
  `and`), a precedence removed.  Numbers inside `cite` sentences and comments are not touched.
* ``runtime`` and ``solver``: checker/runtime and checker/solver, mutated through Python's AST (a comparison
  flipped, + ↔ -, and ↔ or, a `not` removed, an integer changed, True ↔ False); the mutated module is
  written back with ``ast.unparse`` (comments lost, behaviour otherwise the same).

Each mutant is applied to a fresh copy of the tracked files (the work tree is never touched) and the
tests that exercise its package run there with ``pytest -x``; golden tests (tests/test_golden.py, the
book's pages) are left out on purpose: a mutant must be killed by a test of behaviour.  A mutant whose
spec no longer checks, or whose module no longer compiles, is *invalid* (not counted).  A mutant that
runs past ``--timeout`` counts as killed and is listed apart.  The score is killed / (killed + survived).
Not run in CI: each mutant costs one test run.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCENARIOS = ["tests/test_scenarios.py", "tests/test_scenarios_powers.py", "tests/test_scenarios_completion.py",
             "tests/test_scenarios_decompte.py", "tests/test_scenarios_preseances.py", "tests/test_scenarios_draft.py",
             "tests/test_scenario.py"]
TESTS = {
    "spec": SCENARIOS + ["tests/test_spec.py"],
    "runtime": SCENARIOS + ["tests/test_runtime.py", "tests/test_replay.py"],
    "solver": ["tests/test_solver.py", "tests/test_solver_boundaries.py", "tests/test_legal_explanations.py",
               "tests/test_solver_searches.py", "tests/test_conflicts.py"],
}
SOURCES = {"spec": "spec/citadelles", "runtime": "checker/runtime", "solver": "checker/solver"}


@dataclasses.dataclass
class Mutant:
    package: str
    path: str           # relative to the repository
    line: int
    what: str
    apply: object       # str -> str, the file's text mutated

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


# ---------------------------------------------------------------- the spec's mutants (text)

_CODE_LINE = re.compile(r"^\s*(forbid|permit|value|adjust|quantity|require|requires|choose|if|let|set|"
                        r"rule|when|move|give|take|for)\b|\bwhen\b")
_FLIPS = {"<=": "<", "<": "<=", ">=": ">", ">": ">=", "==": "!=", "!=": "=="}


def _code_part(line: str) -> str:
    """The line without its comment and without quoted text (cited sentences, labels)."""
    line = line.split("#", 1)[0]
    return re.sub(r'"[^"]*"', lambda m: " " * len(m.group()), line)


def _replace_at(text: str, offset: int, old: str, new: str) -> str:
    assert text[offset:offset + len(old)] == old
    return text[:offset] + new + text[offset + len(old):]


def spec_mutants(root: Path) -> list[Mutant]:
    out = []
    for path in sorted((root / SOURCES["spec"]).glob("*.rules")):
        rel = str(path.relative_to(root))
        text = path.read_text(encoding="utf-8")
        offset = 0
        lines = text.splitlines(keepends=True)
        for number, line in enumerate(lines, 1):
            code = _code_part(line)
            if not line.lstrip().startswith("cite") and _CODE_LINE.search(code):
                for m in re.finditer(r"(?<![\w.])(\d+)(?![\w.])", code):
                    n = int(m.group())
                    for new in {n + 1, n - 1} - {-1}:
                        out.append(Mutant("spec", rel, number, f"{n} → {new}: {line.strip()}",
                                          lambda t, o=offset + m.start(), a=m.group(), b=str(new): _replace_at(t, o, a, b)))
                for m in re.finditer(r"<=|>=|==|!=|(?<![-<>=])<(?![=-])|(?<![-<>=])>(?!=)", code):
                    new = _FLIPS[m.group()]
                    out.append(Mutant("spec", rel, number, f"{m.group()} → {new}: {line.strip()}",
                                      lambda t, o=offset + m.start(), a=m.group(), b=new: _replace_at(t, o, a, b)))
                when = re.search(r"\bwhen\b(.*?)\band\b", code)
                if when and re.match(r"\s*(forbid|permit|value|adjust)\b", code):
                    start, rest = offset + when.start(1), code[when.end(1):].rstrip("\n")
                    end_cond = offset + when.end(1) + len(rest)
                    kept = code[when.start(1):when.end(1)].rstrip()
                    if kept.count("(") == kept.count(")") and rest.count("(") == rest.count(")"):
                        out.append(Mutant("spec", rel, number, f"drop `{rest.strip()}`: {line.strip()}",
                                          lambda t, s=start, e=end_cond, k=kept: t[:s] + " " + k.strip() + t[e:]))
            if line.startswith("precedence "):
                end = text.index("\n}\n", offset) + 3
                out.append(Mutant("spec", rel, number, f"remove {line.strip().rstrip('{').strip()}",
                                  lambda t, s=offset, e=end: t[:s] + t[e:]))
            offset += len(line)
    return out


# ---------------------------------------------------------------- Python mutants (AST)

_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
        ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add}


def _sites(tree: ast.AST) -> list[tuple[int, int, str]]:
    """(index of the node in ast.walk order, line, what) for every mutable node, skipping docstrings."""
    out = []
    for i, node in enumerate(ast.walk(tree)):
        if isinstance(node, ast.Compare):
            for j, op in enumerate(node.ops):
                if type(op) in _CMP:
                    out.append((i, node.lineno, f"{type(op).__name__} → {_CMP[type(op)].__name__}#{j}"))
        elif isinstance(node, ast.BinOp) and type(node.op) in _BIN:
            out.append((i, node.lineno, f"{type(node.op).__name__} → {_BIN[type(node.op)].__name__}"))
        elif isinstance(node, ast.BoolOp):
            out.append((i, node.lineno, "and → or" if isinstance(node.op, ast.And) else "or → and"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            out.append((i, node.lineno, "not removed"))
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            out.append((i, node.lineno, f"{node.value} → {not node.value}"))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            out.append((i, node.lineno, f"{node.value} → {node.value + 1}"))
    return out


def _mutate_python(text: str, index: int, what: str) -> str:
    tree = ast.parse(text)
    for i, node in enumerate(ast.walk(tree)):
        if i != index:
            continue
        if isinstance(node, ast.Compare):
            j = int(what.rsplit("#", 1)[1])
            node.ops[j] = _CMP[type(node.ops[j])]()
        elif isinstance(node, ast.BinOp):
            node.op = _BIN[type(node.op)]()
        elif isinstance(node, ast.BoolOp):
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif isinstance(node, ast.UnaryOp):
            return _replace_node(tree, node, node.operand)
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            node.value = not node.value
        elif isinstance(node, ast.Constant):
            node.value += 1
        return ast.unparse(tree)
    raise LookupError(index)


def _replace_node(tree, old, new) -> str:
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return ast.unparse(tree)
            if isinstance(value, list) and any(v is old for v in value):
                value[[id(v) for v in value].index(id(old))] = new
                return ast.unparse(tree)
    raise LookupError(old)


def python_mutants(root: Path, package: str) -> list[Mutant]:
    out = []
    for path in sorted((root / SOURCES[package]).glob("*.py")):
        rel = str(path.relative_to(root))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
                      and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        nodes = list(ast.walk(tree))
        for index, line, what in _sites(tree):
            if id(nodes[index]) in docstrings:
                continue
            out.append(Mutant(package, rel, line, what, lambda t, i=index, w=what: _mutate_python(t, i, w)))
    return out


# ---------------------------------------------------------------- running

def copy_tree(root: Path) -> Path:
    """The tracked and untracked-but-not-ignored files of the repository, in a fresh directory."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=root, check=True,
                           capture_output=True, text=True).stdout.split("\0")
    target = Path(tempfile.mkdtemp(prefix="mutant-"))
    for name in filter(None, files):
        src = root / name
        if src.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target / name)
    return target


def run_mutant(clean: Path, mutant: Mutant, timeout: float) -> tuple[str, str]:
    """('killed' | 'survived' | 'invalid' | 'timeout', the first failing test or the reason)."""
    work = Path(tempfile.mkdtemp(prefix="mutant-run-"))
    try:
        shutil.copytree(clean, work, dirs_exist_ok=True)
        target = work / mutant.path
        try:
            target.write_text(mutant.apply(target.read_text(encoding="utf-8")), encoding="utf-8")
            if target.suffix == ".py":
                compile(target.read_text(encoding="utf-8"), str(target), "exec")
        except (SyntaxError, AssertionError, ValueError, LookupError) as exc:
            return "invalid", f"not applied: {exc}"
        env = dict(os.environ, PYTHONPATH=str(work), PYTHONDONTWRITEBYTECODE="1")
        if mutant.package == "spec":
            check = subprocess.run([sys.executable, "-m", "checker", "check", SOURCES["spec"]], cwd=work, env=env,
                                   capture_output=True, text=True)
            if check.returncode != 0:
                first = (check.stdout + check.stderr).strip().splitlines()
                return "invalid", f"the spec no longer checks: {first[0] if first else check.returncode}"
        try:
            done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                                   *TESTS[mutant.package]], cwd=work, env=env, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout", f"past {timeout:.0f} s"
        failed = re.findall(r"^FAILED (\S+)|^ERROR (\S+)", done.stdout, re.M)
        if done.returncode == 0:
            return "survived", ""
        return "killed", next((a or b for a, b in failed), f"pytest exit {done.returncode}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", choices=sorted(SOURCES), action="append", help="a package (repeatable)")
    ap.add_argument("--sample", type=int, default=0, help="run N mutants per package, drawn with --seed")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=900, help="seconds for one mutant's tests")
    ap.add_argument("--grep", default="", help="only the mutants whose description contains this text")
    ap.add_argument("--list", action="store_true", help="list the mutants and stop")
    args = ap.parse_args(argv)
    packages = args.only or ["spec", "runtime", "solver"]
    chosen: dict[str, list[Mutant]] = {}
    for package in packages:
        mutants = spec_mutants(ROOT) if package == "spec" else python_mutants(ROOT, package)
        mutants = [m for m in mutants if args.grep in str(m)]
        total = len(mutants)
        if args.sample and args.sample < total:
            mutants = random.Random(args.seed).sample(mutants, args.sample)
        chosen[package] = mutants
        print(f"{package}: {total} mutants{f', a sample of {len(mutants)} (seed {args.seed})' if len(mutants) < total else ''}")
    if args.list:
        for mutants in chosen.values():
            for m in mutants:
                print(f"  {m}")
        return 0
    clean = copy_tree(ROOT)
    try:
        results: dict[str, list[tuple[Mutant, str, str]]] = {}
        for package, mutants in chosen.items():
            for k, m in enumerate(mutants, 1):
                start = time.perf_counter()
                outcome, why = run_mutant(clean, m, args.timeout)
                results.setdefault(package, []).append((m, outcome, why))
                print(f"[{package} {k}/{len(mutants)}] {outcome:8} {time.perf_counter() - start:6.0f} s  {m}"
                      f"{'  — ' + why if why else ''}", flush=True)
    finally:
        shutil.rmtree(clean, ignore_errors=True)
    print()
    print(f"{'package':10} {'killed':>7} {'timeout':>8} {'survived':>9} {'invalid':>8} {'score':>7}")
    for package, rows in results.items():
        count = {o: sum(1 for _, x, _ in rows if x == o) for o in ("killed", "timeout", "survived", "invalid")}
        valid = count["killed"] + count["timeout"] + count["survived"]
        score = f"{100 * (count['killed'] + count['timeout']) / valid:.0f}%" if valid else "-"
        print(f"{package:10} {count['killed']:7} {count['timeout']:8} {count['survived']:9} {count['invalid']:8} {score:>7}")
    survivors = [(p, m) for p, rows in results.items() for m, x, _ in rows if x == "survived"]
    if survivors:
        print("\nsurviving mutants:")
        for package, m in survivors:
            print(f"  [{package}] {m}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
