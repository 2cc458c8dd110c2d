"""What the engine accepts from an agent: an option's index within the options offered (one more when the
choice may be declined, meaning « nothing »), and nothing else: an index one past the end is a located error,
not a silent « nothing » (a mutant of the bound, ``<`` → ``<=``, survived every game test)."""

from __future__ import annotations

import pytest

from checker.runtime.compile import _NOTHING
from checker.runtime.state import SpecRuntimeError
from test_scenarios import setup


class Fixed:
    """An agent that always answers the same index."""

    def __init__(self, index: int):
        self.index = index

    def choose(self, decision) -> int:
        return self.index


@pytest.fixture(scope="module")
def game():
    e, st, _ = setup("Première partie", 4, [[], [], [], []])
    return e


@pytest.mark.parametrize("index, optional, answer", [
    (0, False, "a"), (2, False, "c"), (2, True, "c"), (3, True, _NOTHING)])
def test_an_index_within_the_options_is_taken(game, index, optional, answer):
    game.agents[0] = Fixed(index)
    assert game.decide(0, "laquelle ?", ["a", "b", "c"], optional=optional) is answer


@pytest.mark.parametrize("index, optional", [(3, False), (4, True), (-1, False), (-1, True)])
def test_an_index_past_the_options_is_an_error(game, index, optional):
    game.agents[0] = Fixed(index)
    with pytest.raises(SpecRuntimeError, match=f"agent of player 1 chose option {index} of 3"):
        game.decide(0, "laquelle ?", ["a", "b", "c"], optional=optional)
