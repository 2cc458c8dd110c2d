"""A finding of the conflict finder: what kind, the rules and their spec lines, the sentences they cite, and
the witness (a state file and a move file) with what the interpreter saw on it.  The questions
(:mod:`~checker.conflicts.questions`, :mod:`~checker.conflicts.effects`) make them; the command and the book
print them."""

from __future__ import annotations

import dataclasses

from checker.solver.search import ILLEGAL

__all__ = ["Finding"]


@dataclasses.dataclass
class Finding:
    kind: str                       # contradiction | competing-values | order | effect-failure | lifted |
    #                                 invariant-broken | dead-rule | dangling | escape | resolved
    message: str
    rules: tuple[str, ...]          # the rules (or "Card".power) involved
    spans: tuple = ()
    cites: tuple = ()               # (rule, quote) pairs: the sentences each side encodes
    witness: dict | None = None     # a state file
    move: dict | None = None        # a move file (for a contradiction)
    situation: list[str] = dataclasses.field(default_factory=list)   # the witness, in the spec's terms
    confirmed: bool | None = None   # does the interpreter, on the witness, see both rules apply?
    resolution: str | None = None   # for a resolved pair: what settles it
    winner: str | None = None       # … the rule (or power) that wins, or goes first
    how: str | None = None          # … by "overrides", "precedence" or "order"
    unknown: str = ""
    configuration: str = ""         # why no legal game may be set up with the witness's cards ("" when one can)
    replayed: str = ""              # what the interpreter did when it replayed the witness (an effect failure,
    #                                 an invariant broken)

    @property
    def span(self):
        return self.spans[0] if self.spans else None

    @property
    def unresolved(self) -> bool:
        return self.kind in ("contradiction", "competing-values", "order", "effect-failure", "lifted",
                             "invariant-broken")

    @property
    def illegal(self) -> bool:
        """No game the spec's constraints allow can be set up with the cards the finding needs."""
        return self.configuration.startswith(ILLEGAL)

    def as_json(self) -> dict:
        return {"kind": self.kind, "message": self.message, "rules": list(self.rules),
                "at": [str(s) for s in self.spans], "cites": [{"rule": r, "quote": q} for r, q in self.cites],
                "situation": self.situation, "witness": self.witness, "move": self.move,
                "confirmed": self.confirmed, "resolution": self.resolution, "unknown": self.unknown or None,
                "configuration": self.configuration or None, "replayed": self.replayed or None}
