"""Agents: who decides at each decision point.  An agent sees a :class:`Decision`
(its options, in order) and returns the index of its choice.  The built-in players by the names commands
take are in :mod:`checker.runtime.players`; a person at the terminal is :mod:`checker.human.agent`."""

from __future__ import annotations

import random

__all__ = ["RandomAgent", "GreedyAgent", "ScriptedAgent", "ScriptError", "option_values"]


class ScriptError(AssertionError):
    """A scripted agent was asked something its script does not answer."""


class RandomAgent:
    """Chooses uniformly among the legal options (its own random source, seeded)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        # ``randrange(n)`` for n ≥ 1 is ``_randbelow(n)`` (CPython's random.py): the same draws, two calls fewer;
        # for random.Random that is _randbelow_with_getrandbits, which pick repeats inline
        self._below = self.rng._randbelow
        self._bits = self.rng.getrandbits
        self._inline = type(self.rng)._randbelow is random.Random._randbelow_with_getrandbits

    def choose(self, decision) -> int:
        return self.pick(len(decision.options) + (1 if decision.optional else 0))

    def pick(self, count: int) -> int:
        """Its choice among ``count`` options (all it looks at: the engine asks this directly, see decide)."""
        if count <= 0:
            return self.rng.randrange(count)        # no option: randrange's error
        if not self._inline:
            return self._below(count)
        bits = self._bits                            # random.Random._randbelow_with_getrandbits, inline
        k = count.bit_length()
        r = bits(k)
        while r >= count:
            r = bits(k)
        return r


class GreedyAgent:
    """A greedy player, for any game with a `score`: it values each option by where it leads — the scores
    the game would give if it ended right after it (:func:`checker.runtime.outlook.outlook_after`: the
    spec's own ending run on a copy of the state) — and takes the option that leaves it furthest ahead of
    the best other player, ties drawn at random.  Options it cannot value (a card to choose, « finish »,
    nothing) are worth the position as it is; an offered action or power that aborts is never taken
    while another option is left.

    ``ending=False`` is the first greedy builder, kept for comparisons: the action that raises its own
    score the most right away (no ending run), otherwise a random option.

    ``aim``: the name of one of the game's endings (:mod:`checker.runtime.aim`: the constant the flow's end var
    is set to, or that var when it is set to ``true``) that the player plays towards: each
    option's lead is added ``weight`` times the aim's progress after it (:func:`checker.runtime.aim.progress`:
    the aimed ending nearer, the others further away), measured right after the option."""

    def __init__(self, seed: int, ending: bool = True, aim: str | None = None, weight: int = 1):
        self.rng = random.Random(seed)
        self.ending = ending
        self.aim, self.weight = aim, weight

    def choose(self, decision) -> int:
        engine = decision.engine
        count = len(decision.options) + (1 if decision.optional else 0)
        if not self.ending:
            return self._builder(decision, engine, count)
        if engine is None or engine.score is None or count == 1:
            return self.rng.randrange(count)
        values = option_values(decision, self.aim, self.weight)
        best = max((v for v in values if v is not None), default=None)
        if best is None:
            return self.rng.randrange(count)
        return self.rng.choice([i for i, v in enumerate(values) if v == best])

    def _builder(self, decision, engine, count: int) -> int:
        if engine is not None:
            now = engine.quantity(engine.score, (decision.player,)) if engine.score else 0
            best, best_gain = None, 0
            for i, option in enumerate(decision.options):
                if isinstance(option, tuple) and option and option[0] == "action":
                    after = engine.lookahead(decision.player, option)
                    if after is not None and after - now > best_gain:
                        best, best_gain = i, after - now
            if best is not None:
                return best
        return self.rng.randrange(count)


def option_values(decision, aim: str | None = None, weight: int = 1) -> list[int | None]:
    """What each option of ``decision`` is worth to its player, by the greedy player's measure: its lead
    over the best other player if the game ended right after the option (None: the option aborts).
    Options that are not an offered action or power, and the optional « nothing », are worth the
    position as it is.  With ``aim`` (an ending's name), ``weight`` times the aim's progress right after the
    option is added (:func:`checker.runtime.aim.progress`)."""
    from checker.runtime.outlook import margin, outlook_after
    engine, player = decision.engine, decision.player
    if aim is not None:
        return _aimed_values(decision, aim, weight)
    valued = [isinstance(o, tuple) and bool(o) and o[0] in ("action", "power") for o in decision.options]
    base = 0
    if decision.optional or not all(valued):        # the position as it is: only when some option is worth it
        here = outlook_after(engine, player)
        base = margin(here, player) if here is not None else 0
    values: list[int | None] = []
    for option, value in zip(decision.options, valued):
        if value:
            after = outlook_after(engine, player, option)
            values.append(None if after is None else margin(after, player))
        else:
            values.append(base)
    return values + [base] * (1 if decision.optional else 0)


def _aimed_values(decision, aim: str, weight: int) -> list[int | None]:
    """:func:`option_values` with the aim's progress added (measured after the option, before the ending)."""
    from checker.runtime.aim import cap, progress
    from checker.runtime.outlook import margin, outlook_after
    engine, player = decision.engine, decision.player
    measured: list[int] = []
    limit = cap(engine, aim)

    def probe(e) -> None:
        measured.append(progress(e, aim, limit, player))

    def value(option) -> int | None:
        del measured[:]
        after = outlook_after(engine, player, option, probe)
        if after is None:
            return None
        return margin(after, player) + weight * (measured[0] if measured else 0)

    valued = [isinstance(o, tuple) and bool(o) and o[0] in ("action", "power") for o in decision.options]
    base = value(None) if decision.optional or not all(valued) else 0
    base = 0 if base is None else base
    values = [value(option) if v else base for option, v in zip(decision.options, valued)]
    return values + [base] * (1 if decision.optional else 0)


class ScriptedAgent:
    """Answers from a script: each answer is the label of the option to take, in order.

    Every decision it sees is kept in ``seen`` as (prompt, labels, answer), so a test can
    also check what was *not* offered.
    """

    def __init__(self, answers: list[str]):
        self.answers = list(answers)
        self.seen: list[tuple[str, list[str], str]] = []

    def choose(self, decision) -> int:
        labels = decision.labels()
        if not self.answers:
            raise ScriptError(f"unscripted decision: {decision.prompt} {labels}")
        answer = self.answers.pop(0)
        if answer not in labels:
            raise ScriptError(f"{answer!r} is not offered at {decision.prompt!r}: {labels}")
        self.seen.append((decision.prompt, labels, answer))
        return labels.index(answer)
