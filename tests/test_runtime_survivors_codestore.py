"""The size of the compiled code's store on disk (checker/runtime/codecache.py): it holds at most 20,000
functions; a save that would pass that keeps only what the saving process used.  The store is filled with
tiny sources through ``code_of`` itself (what the generated code's compiler calls), not with a patched limit:
tests/test_runtime_survivors_codecache.py checks the rule at a patched limit, this one the limit itself.
Written for the survivor codecache.py:23 of the blind runtime sample -o
(bench/results/mutation-2026-11-28-o-kills.txt)."""

from __future__ import annotations

import marshal
from pathlib import Path

import pytest

from checker.runtime import codecache, codegen


def _kept(store: Path) -> dict:
    (path,) = store.glob("code-*.marshal")
    with open(path, "rb") as handle:
        assert handle.read(len(b"rulebook-code/1")) == b"rulebook-code/1"
        return marshal.load(handle)


def _new_process(monkeypatch) -> None:
    codegen._compiled.cache_clear()
    monkeypatch.setattr(codecache, "_store", None)
    monkeypatch.setattr(codecache, "_used", set())


@pytest.mark.parametrize("before, kept", [(19_999, 20_000), (20_000, 2)])
def test_the_store_keeps_twenty_thousand_functions_and_past_that_only_the_last_process_s(store, monkeypatch,
                                                                                          before, kept):
    """A first process saves ``before`` functions; a second one reads one of them and compiles one new: a store
    of 20,000 is kept whole, one of 20,001 is cut to the second process's two."""
    sources = [f"x = {i}\n" for i in range(before)]
    for source in sources:
        codecache.code_of(source, "<rules:t>")
    codecache.flush()
    assert len(_kept(store)) == before
    _new_process(monkeypatch)
    codecache.code_of(sources[7], "<rules:t>")
    assert codecache._new == {}, "read back from the store, not compiled"
    codecache.code_of("y = 1\n", "<rules:t>")
    codecache.flush()
    assert len(_kept(store)) == kept
