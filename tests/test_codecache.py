"""The generated code's compiled functions kept on disk (checker/runtime/codecache.py): a new process builds its
engine from the kept code objects without compiling, and plays the same games; a broken store is compiled
again and rewritten, never an error.  (The rest of the suite runs with the disk cache off: see conftest.py.)"""

from __future__ import annotations

from pathlib import Path

from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent, codecache, codegen

ROOT = Path(__file__).resolve().parent.parent


def _new_process(monkeypatch) -> None:
    """What a new process starts with: nothing compiled, the store not read."""
    codegen._compiled.cache_clear()
    monkeypatch.setattr(codecache, "_store", None)


def _compiles(monkeypatch) -> list[str]:
    made: list[str] = []

    def counting(source, filename, mode):
        made.append(filename)
        return compile(source, filename, mode)
    monkeypatch.setattr(codecache, "compile", counting, raising=False)
    return made


def _games(typed, program) -> list:
    engine = Engine(typed)
    engine.recording = False
    selection = select(program, program.configurations["Violente"], 4)
    games = []
    for seed in range(3):
        r = engine.play(selection.cards, 4, seed, [RandomAgent(seed * 10 + i) for i in range(4)])
        games.append((r.scores, r.winners, r.decisions, tuple(engine.choices)))
    return games


def test_a_second_process_compiles_nothing_and_plays_the_same(store, monkeypatch):
    result = check_paths([ROOT / "spec" / "citadelles"])
    made = _compiles(monkeypatch)
    first = _games(result.typed, result.program)
    assert made, "the first engine compiles its generated code"
    assert list(store.glob("code-*.marshal")), "and keeps it on disk"
    _new_process(monkeypatch)
    made.clear()
    again = _games(result.typed, result.program)
    assert made == [], f"compiled again: {made[:3]}"
    assert again == first


def test_a_broken_store_is_compiled_again_and_rewritten(store, monkeypatch):
    result = check_paths([ROOT / "spec" / "citadelles"])
    made = _compiles(monkeypatch)
    first = _games(result.typed, result.program)
    (kept,) = store.glob("code-*.marshal")
    kept.write_bytes(kept.read_bytes()[:100])
    _new_process(monkeypatch)
    made.clear()
    assert _games(result.typed, result.program) == first
    assert made, "the broken store was not read"
    _new_process(monkeypatch)
    made.clear()
    assert _games(result.typed, result.program) == first
    assert made == [], "the store was rewritten"


def test_off_with_the_disk_cache(store, monkeypatch):
    monkeypatch.setenv("RULEBOOK_CACHE", "0")
    result = check_paths([ROOT / "spec" / "citadelles"])
    _games(result.typed, result.program)
    assert not store.exists() or not list(store.glob("code-*.marshal"))
