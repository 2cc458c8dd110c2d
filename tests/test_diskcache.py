"""The checked rule set kept on disk (checker/front/diskcache.py): read back, it plays, judges and prints like a
fresh check; any change to what the check read — a rules file, a cited text — checks again; a broken entry
or directory is never an error.  (The rest of the suite runs with the cache off: see conftest.py.)"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from checker.front import diskcache
from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def cache(tmp_path: Path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULEBOOK_CACHE", "1")
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    copy = tmp_path / "citadelles"
    shutil.copytree(ROOT / "spec" / "citadelles", copy)
    return copy


def _game(result, seed: int = 5) -> list:
    program = result.program
    selection = select(program, program.configurations["Bluff"], 4)
    engine = Engine(result.typed)
    engine.recording = True
    return engine.play(selection.cards, 4, seed, [RandomAgent(seed * 10 + i) for i in range(4)]).events


def test_a_kept_check_plays_the_same_game_as_a_fresh_one(cache: Path, spec: Path):
    fresh = check_paths([spec])
    assert "cache" not in fresh.timings and len(list(cache.glob("*.pickle"))) == 1
    kept = check_paths([spec])
    assert kept.timings == {"cache": 0.0}, "the second check is read from the disk"
    assert kept is not fresh and kept.ok
    assert [str(d) for d in kept.reporter.diagnostics] == [str(d) for d in fresh.reporter.diagnostics]
    assert len(kept.typed.types) == len(fresh.typed.types) and len(kept.citations) == len(fresh.citations)
    assert len(kept.typed.ranges) == len(fresh.typed.ranges)
    assert _game(kept) == _game(fresh)


def test_the_type_tables_point_at_the_loaded_nodes(cache: Path, spec: Path):
    from checker.front import ast
    fresh = check_paths([spec])
    kept = check_paths([spec])
    assert kept.timings == {"cache": 0.0}

    def typed_nodes(result) -> list:
        """The types of the rules' nodes, in walk order, read by each node's id."""
        return [str(result.typed.types.get(id(n))) for decl in result.program.rules.values() for n in ast.walk(decl)]
    assert typed_nodes(kept) == typed_nodes(fresh)
    assert sum(t != "None" for t in typed_nodes(kept)) > 500


def test_a_changed_rules_file_or_cited_text_is_checked_again(cache: Path, spec: Path):
    check_paths([spec])
    assert check_paths([spec]).timings == {"cache": 0.0}
    rules = sorted(spec.glob("*.rules"))[-1]
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    assert "cache" not in check_paths([spec]).timings
    assert check_paths([spec]).timings == {"cache": 0.0}
    cited = next(p for p in spec.rglob("*") if p.is_file() and p.suffix != ".rules")
    cited.write_bytes(cited.read_bytes() + b"\n")
    assert "cache" not in check_paths([spec]).timings, "a cited text changed: the quotes are looked up again"


def test_a_broken_entry_or_an_unwritable_directory_is_never_an_error(cache: Path, spec: Path, monkeypatch):
    check_paths([spec])
    for entry in cache.glob("*.pickle"):
        entry.write_bytes(entry.read_bytes()[:1000])
    assert check_paths([spec]).ok
    assert check_paths([spec]).timings == {"cache": 0.0}, "the broken entry was rewritten"
    blocker = cache.parent / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("RULEBOOK_CACHE_DIR", str(blocker / "cache"))
    assert check_paths([spec]).ok


def test_the_cache_can_be_turned_off(cache: Path, spec: Path, monkeypatch):
    monkeypatch.setenv("RULEBOOK_CACHE", "0")
    check_paths([spec])
    assert not cache.exists()
    assert not diskcache.enabled()


def test_a_simulate_worker_keeps_nothing_of_its_own_copy_of_the_spec(cache: Path, spec: Path, tmp_path: Path, capsys):
    from checker.cli import main
    code = main(["simulate", str(spec), "-n", "2", "-p", "3", "--agent", "random", "-j", "1",
                 "--json", str(tmp_path / "games.json")])
    assert code == 0, capsys.readouterr().err
    assert len(list(cache.glob("*.pickle"))) == 1, "only the user's own spec is kept, not the worker's copy"


def test_a_kept_check_is_read_back_without_the_parser_or_the_solver(cache: Path, spec: Path):
    """What a second `rulebook check` imports: the nodes' modules, not Lark's grammar machinery, Z3, the interpreter
    or the package metadata — each of those cost a tenth of a second or more of a command that should take a
    quarter of one (issue 21).  A count of modules, not a time: it fails on an import put back at a module's top."""
    import os
    import subprocess
    import sys
    env = {**os.environ, "RULEBOOK_CACHE": "1", "RULEBOOK_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    probe = ("import sys\nfrom checker.cli import main\ncode = main(['check', sys.argv[1]])\n"
             "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('lark', 'z3', 'hypothesis', 'interegular')"
             " or m in ('importlib.metadata', 'checker.front.parse', 'checker.runtime', 'checker.solver.encode',"
             " 'checker.front.ast', 'checker.front.program', 'multiprocessing'))\n"
             "print(code, heavy)\n")
    first = subprocess.run([sys.executable, "-c", probe, str(spec)], env=env, capture_output=True, text=True)
    *printed, modules = first.stdout.splitlines()
    assert modules.startswith("0 [") and "'checker.front.parse'" in modules and "'interegular'" in modules, first.stdout
    again = subprocess.run([sys.executable, "-c", probe, str(spec)], env=env, capture_output=True, text=True)
    # what `check` prints is kept beside the result and read without loading the program (its AST classes)
    assert again.stdout.splitlines() == [*printed, "0 []"], again.stdout + again.stderr


def test_the_editor_first_check_of_unedited_files_reads_the_kept_check(cache, spec, monkeypatch):
    """The language server's first check of a spec whose open buffers read as the files on disk is the one
    `rulebook check` kept (no file is parsed); an edited buffer, or any later check, is checked from the buffers."""
    import checker.front.check as front_check
    from checker.lsp.workspace import Workspace
    assert check_paths([spec]).ok                       # kept on disk, as `rulebook check` keeps it
    opened = spec / "01-partie.rules"
    text = opened.read_text(encoding="utf-8")
    real, calls = front_check._check_paths, []

    def counted(*args, **kwargs):
        calls.append(kwargs.get("texts") is not None)
        return real(*args, **kwargs)
    monkeypatch.setattr(front_check, "_check_paths", counted)
    workspace = Workspace()
    workspace.set_text(opened, text)
    first = workspace.analysis(opened)
    assert first.result.ok and calls == []              # read back: nothing parsed
    workspace.set_text(opened, text + "\n")
    assert workspace.analysis(opened).result.ok and calls == [True]
    edited = Workspace()                                # a buffer that differs from the disk: checked from it
    edited.set_text(opened, text + "\n")
    assert edited.analysis(opened).result.ok and calls == [True, True]
