"""Packaging: the grammar builds, and the wheel carries it and runs without the checkout.

The grammar is ``grammar/rules.lark`` at the top of the repository; pyproject.toml force-includes it
in the wheel as ``checker/_grammar/rules.lark``, which ``checker.front.parse._grammar_path()`` prefers.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import lark
import pytest

import checker.front.parse
from conftest import ROOT, SPEC

GRAMMAR = ROOT / "grammar" / "rules.lark"
BUILD_TIMEOUT = 300  # seconds; a build from the local index takes a few


# ---------------------------------------------------------------- fast: the grammar in the checkout


def test_grammar_builds_in_strict_lalr_mode():
    import interegular  # noqa: F401  - a dependency (lark[interegular]); strict mode needs it to find collisions

    text = GRAMMAR.read_text(encoding="utf-8")
    lark.Lark(text, parser="lalr", strict=True)  # no shift/reduce conflict, no colliding terminals
    assert checker.front.parse.grammar_text() == text
    assert isinstance(checker.front.parse.parser(), lark.Lark)


def test_checkout_uses_the_grammar_at_the_top():
    # (in a checkout there is no checker/_grammar/; the wheel adds it)
    assert not (ROOT / "checker" / "_grammar").exists()
    assert checker.front.parse._grammar_path() == GRAMMAR


# ---------------------------------------------------------------- slow: a wheel, built once


_NO_HATCHLING = re.compile(r"(could not find a version that satisfies the requirement|no matching distribution "
                           r"found for|could not fetch|failed to establish a new connection|network is unreachable"
                           r"|temporary failure in name resolution).*", re.IGNORECASE)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # hatchling importable: build with it, offline; otherwise pip fetches it into an isolated environment
    isolation = ["--no-build-isolation"] if importlib.util.find_spec("hatchling") else []
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "-w", str(out), str(ROOT)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=BUILD_TIMEOUT, cwd=out,
                              env={**os.environ, "PIP_NO_INPUT": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
                                   # offline, fail fast (the environment reaches pip's build-dependency subprocess)
                                   "PIP_RETRIES": "1", "PIP_TIMEOUT": "30", "PIP_DEFAULT_TIMEOUT": "30"})
    except subprocess.TimeoutExpired:
        pytest.fail(f"building the wheel took more than {BUILD_TIMEOUT} s")
    if proc.returncode != 0:
        output = proc.stdout + proc.stderr
        if not isolation and "hatchling" in output.lower() and _NO_HATCHLING.search(output):
            pytest.skip("cannot fetch hatchling to build the wheel (no network?)")
        pytest.fail(f"pip wheel failed:\n{output[-3000:]}")
    wheels = list(out.glob("rulebook-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


@pytest.fixture(scope="module")
def unzipped(wheel, tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as z:
        z.extractall(target)
    return target


def test_wheel_contents(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        assert "checker/cli.py" in names
        assert "checker/__main__.py" in names
        assert "checker/_grammar/rules.lark" in names
        assert z.read("checker/_grammar/rules.lark") == GRAMMAR.read_bytes()
        [entry_points] = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
        text = z.read(entry_points).decode("utf-8")
    assert re.search(r"^\[console_scripts\]$", text, re.MULTILINE)
    assert re.search(r"^rulebook\s*=\s*checker\.cli:main\s*$", text, re.MULTILINE), text
    assert not any(n.startswith(("tests/", "spec/", "grammar/")) for n in names), sorted(names)


def _run_outside_checkout(unzipped: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """Run Python in an empty directory with only the unzipped wheel on the path (not the checkout)."""
    empty = tmp_path / "empty"
    empty.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(unzipped)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run([sys.executable, *args], cwd=empty, env=env, capture_output=True, text=True, timeout=120)


def test_unzipped_wheel_uses_its_own_grammar(unzipped, tmp_path):
    proc = _run_outside_checkout(unzipped, tmp_path, "-c",
                                 "import checker, checker.front.parse as p; print(checker.__file__); print(p._grammar_path())")
    assert proc.returncode == 0, proc.stderr
    module, grammar = map(Path, proc.stdout.splitlines())
    assert module.resolve().is_relative_to(unzipped.resolve()), module   # not the checkout
    assert grammar.resolve().is_relative_to(unzipped.resolve()), grammar
    assert grammar.resolve() == (unzipped / "checker" / "_grammar" / "rules.lark").resolve()


def test_unzipped_wheel_checks_the_bundled_spec(unzipped, tmp_path):
    proc = _run_outside_checkout(unzipped, tmp_path, "-m", "checker", "check", str(SPEC))
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    assert proc.stdout.strip().splitlines()[-1].startswith("ok")
