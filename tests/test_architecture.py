"""The house's shape (docs/architecture.md): layers kept by import-linter, no import circles, no module over
800 lines, every package saying what it takes and gives, no card named in checker/."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKER = ROOT / "checker"
MAX_LINES = 800


def _lint_imports(root: Path) -> subprocess.CompletedProcess:
    """`lint-imports` on the ``checker`` package found under ``root``, with ``root``'s pyproject.toml contract."""
    env = {"PYTHONPATH": str(root), "PATH": str(Path(sys.executable).parent)}
    program = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    return subprocess.run([sys.executable, "-c", program, "--config", str(root / "pyproject.toml"), "--no-cache"],
                          cwd=root, capture_output=True, text=True, env=env, timeout=300)


def test_the_layers_are_kept():
    pytest.importorskip("importlinter")
    done = _lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_an_import_from_a_lower_layer_to_a_higher_one_breaks_the_contract(tmp_path):
    """The contract can fail: the front end importing the conflict finder is refused, and the message names both."""
    pytest.importorskip("importlinter")
    shutil.copytree(CHECKER, tmp_path / "checker", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    bad = tmp_path / "checker" / "front" / "bounds.py"
    bad.write_text(bad.read_text(encoding="utf-8") + "\nfrom checker.conflicts.questions import Search  # noqa\n",
                   encoding="utf-8")
    done = _lint_imports(tmp_path)
    assert done.returncode != 0
    assert "BROKEN" in done.stdout and "checker.front.bounds -> checker.conflicts.questions" in done.stdout


def test_features_of_one_layer_do_not_know_each_other(tmp_path):
    pytest.importorskip("importlinter")
    shutil.copytree(CHECKER, tmp_path / "checker", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    bad = tmp_path / "checker" / "diff" / "run.py"
    bad.write_text(bad.read_text(encoding="utf-8") + "\nfrom checker.simulate import stats  # noqa\n", encoding="utf-8")
    done = _lint_imports(tmp_path)
    assert done.returncode != 0 and "checker.diff.run -> checker.simulate" in done.stdout


def test_every_package_of_checker_is_in_a_layer():
    """The contract is exhaustive, and its layers are exactly the packages (a new package must be placed)."""
    contract = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    layers = contract["contracts"][0]["layers"]
    named = {part.strip() for layer in layers for part in layer.split("|")}
    packages = {p.parent.name for p in CHECKER.glob("*/__init__.py")} | {p.stem for p in CHECKER.glob("*.py")}
    assert named == packages - {"__init__", "__main__"}


def _imports(path: Path, known: set[str]) -> set[str]:
    here = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    package = here.rsplit(".", 1)[0] if path.name != "__init__.py" else here.removesuffix(".__init__")
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names = [module] + [f"{module}.{a.name}" for a in node.names]
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name:
                out.add(name)
    return out


def _circles() -> list[list[str]]:
    """Strongly connected groups of modules (imports anywhere in a module count, those in functions too; a
    package's ``__init__`` imported by its own modules does not)."""
    files = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
             for p in CHECKER.rglob("*.py")}
    graph = {m: {d for d in _imports(p, set(files)) - {m}
                 if not (files[d].name == "__init__.py" and m.startswith(d + "."))} for m, p in files.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_circles():
    assert _circles() == []


def test_the_circle_finder_finds_a_circle(monkeypatch, tmp_path):
    """The check above can fail: two modules that import each other are one circle."""
    (tmp_path / "checker").mkdir()
    (tmp_path / "checker" / "__init__.py").write_text("")
    (tmp_path / "checker" / "a.py").write_text("def f():\n    from checker import b\n")
    (tmp_path / "checker" / "b.py").write_text("from checker.a import f\n")
    (tmp_path / "checker" / "c.py").write_text("from checker import a\n")
    monkeypatch.setattr(sys.modules[__name__], "CHECKER", tmp_path / "checker")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert _circles() == [["checker.a", "checker.b"]]


def test_no_module_is_over_800_lines():
    long = {str(p.relative_to(ROOT)): n for p in CHECKER.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_every_package_says_what_it_takes_and_gives():
    for init in CHECKER.rglob("__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc) > 80, f"{init.relative_to(ROOT)} has no docstring saying what the package does"
