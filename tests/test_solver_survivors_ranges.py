"""A range whose bounds the state decides (`choose k in 0..n`, with `n` read from the state): the encoding ranges
over the bounds the checker proved for it, each value guarded by the state's bounds (checker/solver/encode.py,
the range of a `choose`).  The Abbé's income — as many coins or cards as religious districts, split as he
chooses — encoded with the state as Z3 constants pinned to the game's, when he has two religious districts or
more: for every split the interpreter draws, the next state is the interpreter's.  No test of the solver set ran
that code before (sample -l's survivors in it)."""

from __future__ import annotations

from checker.front.configurations import select
from checker.runtime.agents import RandomAgent
from checker.runtime.engine import Engine
from test_transition import bundled, compare

CHOICES = 6         # the interpreter's split drawn anew each time (a seed each)


class _Found(Exception):
    pass


def _abbé_incomes(seeds, symbolic: bool) -> list[tuple[int, str]]:
    program = bundled().program
    results: list[tuple[int, str]] = []
    for seed in seeds:
        e = Engine(bundled().typed)
        e.recording = False
        selection = select(program, program.configurations["Bluff"], 3)

        def observe(decision, e=e):
            if decision.prompt != "que faire ?":
                return
            n = e.quantity("revenus", (decision.player, "Religieux"))
            for option in decision.options:
                if "revenus_religieux" in repr(option) and n >= 2:
                    for choice in range(CHOICES):
                        results.append((n, compare(e, option, decision.player, choice, symbolic)))
                    raise _Found()
        e.observer = observe
        try:
            e.play(selection.cards, 3, seed, [RandomAgent(seed * 100 + k) for k in range(3)])
        except _Found:
            pass
        if results:
            break
    return results


def test_the_abbés_split_over_a_count_read_from_the_state_is_the_interpreters():
    results = _abbé_incomes(range(1, 40), symbolic=True)
    assert results and all(r == "same" for _, r in results), results
