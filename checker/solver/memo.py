"""memo: the encoder's memos of quantities, legality and zones, each with the state it read.

A memo is a term built from the state: a quantity's value, an action's legality, a zone at a symbolic
index, and (in the effects' encoders) whether a rule applies, kept by the arguments its condition reads — a
`can` asked of every district of every city builds each prohibition that reads only the player once.  The statements of an effect (:class:`~checker.solver.transition.Transition`) write cells as they
run; a memo that read a cell written since it was built no longer describes the state.  Each memo notes
what it read while it is built, by name — ``("var", name)`` and ``("in", zone)``, whichever index or card:
:meth:`Encoder.var <checker.solver.encode.Encoder.var>` and :meth:`Encoder.zone
<checker.solver.encode.Encoder.zone>` are the encoding's only reads of the state, and each notes its name
(:meth:`Memos.note`); a memo used while another is built adds what it read to the other's.  A write notes the
same name (the store's ``dirty``), and :meth:`Memos.forget` drops the memos that read a name written since
the last call, and those made over another state (``cells``): never is a memo reused that read a cell
written since.  The others are kept, and a memo is only ever a term equal to the one building it again would
make (Z3 shares equal terms).

Building a term does more than make it: each `only(…)`/`the(…)` met is noted (:attr:`Encoder.partial`, where
the effect asks whether it fails; :attr:`Encoder.defined`), and the elements ranged over are counted
(:meth:`Encoder.spend`, the limit of one encoding).  Before the memos were kept past a forget, a memo used after
one was built again, and did all that again (and the memos it used, unless used since the forget).  A memo
keeps what it did, in order, with the memos it used in their places (``parts``), and a memo used for the first
time since a forget does it again, the same way (:meth:`_Entry.replay`); a rule's, built each time before, does it
again wherever it is used (``always``).  An effect's failures, constraints and limits are those of the encoding
that kept no memo past a forget and none of a rule — it builds fewer terms.
"""

from __future__ import annotations

from checker.front import ast

__all__ = ["Memos", "MISS", "Written"]

MISS = object()


class _Entry:
    """A memo: its term (``value``), the names it read, whose it is (``cells``: a store, or None for any state),
    the last forget it was used after (``generation``), and ``parts``: in order, what it did itself (a tuple of
    the notes it added to ``partial``, those to ``defined``, and the (elements, span) it spent) and the memos it
    used (an entry)."""
    __slots__ = ("value", "reads", "cells", "generation", "parts", "keep", "always")

    def __init__(self, value, reads, cells, generation, parts, keep, always):
        self.value, self.reads, self.cells, self.generation = value, reads, cells, generation
        self.parts, self.keep, self.always = parts, keep, always    # ``always``: done again wherever it is used

    def replay(self, memos: "Memos") -> None:
        """Used for the first time since the last forget: what building it again would do, done."""
        self.generation = memos.generation
        enc = memos.enc
        for part in self.parts:
            if isinstance(part, _Entry):
                if part.always or part.generation != memos.generation:     # (one used since: its memo was found)
                    part.replay(memos)
                continue
            partial, defined, spends = part
            enc.partial.extend(partial)
            enc.defined.extend(defined)
            for n, span in spends:
                enc.spend(n, span)


class _Frame:
    """A memo being built: the names it read, and its parts so far (see :class:`_Entry`); ``partial`` and
    ``defined`` are where the encoder's lists stood at the end of the last part, ``spends`` its own since."""
    __slots__ = ("reads", "parts", "partial", "defined", "spends")

    def __init__(self, partial: int, defined: int):
        self.reads: set = set()
        self.parts: list = []
        self.partial, self.defined = partial, defined
        self.spends: list = []

    def close(self, enc, partial: int, defined: int) -> None:
        """Its own part up to where the encoder's lists stand at ``partial`` and ``defined``."""
        own = (tuple(enc.partial[self.partial:partial]), tuple(enc.defined[self.defined:defined]), tuple(self.spends))
        if any(own):
            self.parts.append(own)
        self.spends = []

    def used(self, enc, entry: "_Entry", partial: int, defined: int) -> None:
        """``entry`` was used, and added the encoder's lists from ``partial`` and ``defined`` to where they stand."""
        self.close(enc, partial, defined)
        self.parts.append(entry)
        self.partial, self.defined = len(enc.partial), len(enc.defined)


class Written(dict):
    """A store's written cells (key -> term): each key written also notes its name in ``dirty``."""

    def __init__(self, dirty: set):
        super().__init__()
        self.dirty = dirty

    def __setitem__(self, key, value):
        self.dirty.add(key[:2])
        super().__setitem__(key, value)


class Memos:
    """The memos of one encoder: ``quantities`` and ``legal`` (key -> entry; the zones' are the encoder's
    ``_zones``, which a batch of questions shares), and ``built``, how many terms of each were built (a
    deterministic count: tests/budgets.py).  With ``keep`` False, a forget drops them all (as before they were
    kept: the tests compare both)."""

    def __init__(self, enc):
        self.enc = enc
        self.quantities: dict = {}
        self.legal: dict = {}
        self.rules: dict | None = None  # with a dict: whether each rule's head applies, by the arguments it reads
        self._read: dict = {}           # id(head) -> the positions of the arguments its condition reads
        self.keep = True
        self.frames: list[_Frame] = []
        self.replaying = 0              # a memo's spends done again are its own, not the builder's
        self.generation = 0
        self.built = {"quantities": 0, "legal": 0, "zones": 0, "rules": 0}

    def owner(self):
        """Whose the memos made now are: the store the encoder reads (its own), or None (any state's)."""
        cells = self.enc.cells
        return cells if cells.own_memos else None

    def note(self, name: tuple) -> None:
        """The state's cells named ``name`` are read."""
        if self.frames:
            self.frames[-1].reads.add(name)

    def spent(self, n: int, span) -> None:
        if self.frames and not self.replaying:
            self.frames[-1].spends.append((n, span))

    def memo(self, table: dict, name: str, key, make, keep=None):
        """The memo of ``key`` in ``table``, built by ``make()`` when there is none over the state now."""
        hit = self.get(table, key)
        return self.build(table, name, key, make, keep) if hit is MISS else hit

    def applies(self, rule, head, args: tuple, make):
        """Does ``head`` of ``rule`` apply to ``args`` — ``make()``, kept by the arguments its condition reads (the
        same for every other argument), when ``rules`` is on (the effects' encoders: checker/conflicts/effects.py).
        What building it does is done again wherever it is used, as it was built each time before: the same
        `only(…)` notes, and the same elements spent (the limit of one encoding is met where it was)."""
        if self.rules is None or not self.keep:
            return make()
        read = self._read.get(id(head))
        if read is None:
            names = {n.id for n in ast.walk(head.when) if isinstance(n, ast.Name)} if head.when is not None else ()
            read = self._read[id(head)] = tuple(i for i, (b, _) in enumerate(head.pattern.binders) if b in names)
        used = tuple(args[i] for i in read if i < len(args))
        key = (id(rule), id(head), tuple(self.enc.key(a) for a in used))
        return self.memo(self.rules, "rules", key, make, (rule, head, used))

    def get(self, table: dict, key):
        """The memo of ``key`` in ``table`` over the encoder's state now, or :data:`MISS`."""
        entry = table.get(key)
        if entry is None or entry.cells is not self.owner():
            return MISS
        enc = self.enc
        p, d = len(enc.partial), len(enc.defined)
        if entry.always or entry.generation != self.generation:
            self.replaying += 1
            try:
                entry.replay(self)
            finally:
                self.replaying -= 1
        if self.frames:
            self.frames[-1].reads |= entry.reads
            self.frames[-1].used(enc, entry, p, d)
        return entry.value

    def build(self, table: dict, name: str, key, make, keep=None):
        """``make()``, kept as the memo of ``key`` in ``table`` with what it read (``keep``: terms its key
        names by id, kept alive so that their ids stay theirs)."""
        enc = self.enc
        p, d = len(enc.partial), len(enc.defined)
        frame = _Frame(p, d)
        self.frames.append(frame)
        try:
            value = make()
        except BaseException:
            self.frames.pop()
            if self.frames:             # what it read and spent, its builder did (if it goes on)
                self.frames[-1].reads |= frame.reads
                self.frames[-1].spends += frame.spends + [s for part in frame.parts for s in _spends(part)]
            raise
        self.frames.pop()
        self.built[name] += 1
        frame.close(enc, len(enc.partial), len(enc.defined))
        entry = table[key] = _Entry(value, frozenset(frame.reads), self.owner(), self.generation, tuple(frame.parts),
                                    keep, table is self.rules)
        if self.frames:
            self.frames[-1].reads |= frame.reads
            self.frames[-1].used(enc, entry, p, d)
        return value

    def forget(self, written: set | None) -> None:
        """The state changed: the memos that read a name of ``written`` go (all of them, with None), and those
        made over another state than the encoder's now."""
        self.generation += 1
        tables = (self.quantities, self.legal, self.rules or {}, self.enc._zones)
        if written is None or not self.keep:
            for table in tables:
                table.clear()
            return
        owner = self.owner()
        for table in tables:
            gone = [k for k, e in table.items() if e.cells is not owner or not e.reads.isdisjoint(written)]
            for k in gone:
                del table[k]

    def adopt(self, old, new) -> None:
        """The memos made over state ``old`` are over ``new`` too (a store that has written nothing over it)."""
        for table in (self.quantities, self.legal, self.rules or {}, self.enc._zones):
            for e in table.values():
                if e.cells is old:
                    e.cells = new


def _spends(part) -> list:
    """The elements a part of a memo spent (and those of the memos it used)."""
    if isinstance(part, _Entry):
        return [s for sub in part.parts for s in _spends(sub)]
    return list(part[2])
