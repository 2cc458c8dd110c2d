"""The generated code's compiled functions kept on disk (checker/runtime/codecache.py), on the minimal game: an
engine's construction writes what it compiled to the store, one entry per function compiled, and the next
process's engine reads them all back and compiles nothing (the count of `compile` calls is the deterministic
counter of that cache); an engine that compiled nothing new writes nothing; a store past MAX_CODES keeps only what
the process used; the disk cache off, nothing is written.  tests/test_codecache.py plays Citadelles with
the store; this file is the quick one of the mutation runs' runtime set."""

from __future__ import annotations

import marshal
from pathlib import Path

import pytest

from checker.front.check import check_paths
from checker.runtime import Engine, codecache, codegen
from tests.test_codecache import _compiles

ROOT = Path(__file__).resolve().parent.parent
MINIMAL = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"


def _kept(store: Path) -> dict:
    (path,) = store.glob("code-*.marshal")
    with open(path, "rb") as handle:
        assert handle.read(len(b"rulebook-code/1")) == b"rulebook-code/1"
        return marshal.load(handle)


def test_an_engine_keeps_what_it_compiled_and_the_next_process_compiles_nothing(store, monkeypatch):
    result = check_paths([MINIMAL])
    assert result.ok
    made = _compiles(monkeypatch)
    Engine(result.typed)
    assert made and all(name.startswith("<rules:") for name in made)
    assert len(_kept(store)) == len(made), "one entry per function compiled, written when the engine is made"
    assert codecache._new == {}
    # a new process: nothing compiled in memory, the store not read yet
    codegen._compiled.cache_clear()
    monkeypatch.setattr(codecache, "_store", None)
    first = len(made)
    Engine(result.typed)
    assert len(made) == first, f"compiled again: {made[first:first + 3]}"


def test_off_the_store_is_neither_read_nor_written(store, monkeypatch):
    monkeypatch.setenv("RULEBOOK_CACHE", "0")
    result = check_paths([MINIMAL])
    made = _compiles(monkeypatch)
    Engine(result.typed)
    assert made and codecache._new == {}
    assert not list(store.glob("code-*.marshal"))


def _new_process(monkeypatch) -> None:
    codegen._compiled.cache_clear()
    monkeypatch.setattr(codecache, "_store", None)
    monkeypatch.setattr(codecache, "_used", set())


def test_an_engine_that_compiled_nothing_new_does_not_write_the_store(store, monkeypatch):
    result = check_paths([MINIMAL])
    Engine(result.typed)
    _new_process(monkeypatch)
    writes: list = []
    monkeypatch.setattr(codecache.diskcache, "write_atomically", lambda path, write: writes.append(path))
    Engine(result.typed)
    assert writes == []


@pytest.mark.parametrize("over", [0, 1])
def test_a_store_past_its_limit_keeps_only_what_this_process_used(store, monkeypatch, tmp_path, over):
    """The second engine is of another spec (the minimal game and one more quantity): some of the first's
    functions are not its own.  A store of exactly MAX_CODES functions keeps them all; one more, and only the
    functions the second process read or wrote are kept."""
    other = tmp_path / "autre.rules"
    other.write_text(MINIMAL.read_text(encoding="utf-8") + "\nquantity riche(p: Player): Bool = bourse[p] > 3\n",
                     encoding="utf-8")
    first, second = check_paths([MINIMAL]), check_paths([other])
    assert first.ok and second.ok
    Engine(first.typed)
    one = set(_kept(store))
    _new_process(monkeypatch)
    Engine(second.typed)
    both, used = set(_kept(store)), set(codecache._used)
    assert one < both and not one <= used, "the second spec compiles functions of its own and leaves some"
    # the same two processes again, from an empty store, with MAX_CODES at the size of both or one below
    for found in store.glob("code-*.marshal"):
        found.unlink()
    monkeypatch.setattr(codecache, "MAX_CODES", len(both) - over)
    _new_process(monkeypatch)
    Engine(first.typed)
    _new_process(monkeypatch)
    Engine(second.typed)
    assert set(_kept(store)) == (used if over else both)


def test_a_process_keeps_the_16384_functions_it_used_last_compiled(monkeypatch):
    """codegen.py's ``_compiled`` holds the code objects of at most 16,384 generated sources in memory (an
    engine made again for a spec reuses them; many specs in one process, as the editor's, do not grow it without
    end): the 16,385th new source drops the least recently used, which is then compiled again, and a source used
    since is kept.  The counter is the calls to the compiler (codecache.code_of)."""
    made: list[str] = []

    def counting(source, filename):
        made.append(source)
        return compile(source, filename, "exec")
    monkeypatch.setattr(codecache, "code_of", counting)
    codegen._compiled.cache_clear()
    try:
        sources = [f"x = {i}\n" for i in range(16_385)]
        for source in sources[:16_384]:
            codegen._compiled(source, "<rules:t>")
        codegen._compiled(sources[0], "<rules:t>")          # used again: now the most recent
        assert len(made) == 16_384
        codegen._compiled(sources[16_384], "<rules:t>")     # one more: sources[1] goes
        codegen._compiled(sources[0], "<rules:t>")
        assert len(made) == 16_385
        codegen._compiled(sources[1], "<rules:t>")
        assert made[-1] == sources[1] and len(made) == 16_386
    finally:
        codegen._compiled.cache_clear()
