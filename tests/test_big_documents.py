"""Bad files stay cheap: a state file whose zone lists a huge number of non-names, or of names, is refused (exit 2)
in bounded memory — jsonschema kept every error of an anyOf branch (a million numbers: 3.5 GB, a minute), the
reader spelt a JSON path for every list item, and the state loader reported each repeated card."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from checker.base.documents import parse_document, schema_problems
from conftest import run_cli

pytestmark = pytest.mark.usefixtures("specs_checked_once")


@pytest.fixture(scope="module")
def state(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("state")
    from checker.cli import main
    main(["play", "spec/citadelles", "-n", "4", "-c", "Première partie", "-s", "1", "-q",
          "--state-at", "5", str(folder / "s.json")])
    return json.loads((folder / "s.json").read_text(encoding="utf-8"))


def _with_zone(state: dict, cards: list) -> dict:
    return {**state, "zones": {**state["zones"], "pioche": cards}}


def test_a_zone_of_numbers_is_reported_once_in_little_memory(state):
    text = json.dumps(_with_zone(state, [0] * 200_000))
    tracemalloc.start()
    try:
        data = parse_document(text)
        problems = schema_problems(data, "state")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert problems[0] == ("zones/pioche/0", "0 is not of type 'string'") and len(problems) <= 21
    # the parsed list itself is some 2 MB; every error kept was some 3 kB each (600 MB here)
    assert peak < 40 * 2**20, f"{peak / 2**20:.0f} MB"


def test_a_zone_listing_more_cards_than_the_game_has_is_one_problem(capsys, tmp_path, state):
    path = tmp_path / "big.json"
    path.write_text(json.dumps(_with_zone(state, ["Temple"] * 100_000)), encoding="utf-8")
    code, _, err = run_cli(capsys, "moves", str(path), "--spec", "spec/citadelles")
    assert code == 2
    assert err.strip() == f"rulebook moves: {path} is not a valid state file: zones/pioche: lists 100,000 cards; " \
                          "the game has 76"


def test_a_list_of_huge_integers_is_reported_in_little_memory(state):
    """bench/fuzz.py's costliest state (452 MB for `moves`): a card of a hand made a list of 800,000 integers past
    the exact range.  Each was kept as an object with its own message, and each went on the reader's walk."""
    zones = {**state["zones"], "pioche": [[2**63] * 200_000]}
    text = json.dumps({**state, "zones": zones})
    tracemalloc.start()
    try:
        with pytest.raises(Exception) as caught:
            parse_document(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    problems = caught.value.problems
    assert problems[0] == ("zones/pioche/0/0", f"{2**63} is an integer too large (at most {2**53 - 1} in absolute "
                                               "value)")
    assert len(problems) == 21 and problems[-1] == ("…", "and 1 more problem(s)")
    # 24 MB now (the numbers kept as their text); the old reader's objects and its walk's stack took 87 MB
    assert peak < 50 * 2**20, f"{peak / 2**20:.0f} MB"


def test_a_list_where_a_number_belongs_is_reported_in_little_memory(state):
    """bench/fuzz.py's costliest `apply` (309 MB): a frame's index made a list of 430,000 strings.  jsonschema spells
    the whole value in a type error's message before the reader cuts it to an excerpt."""
    data = parse_document(json.dumps({**state, "players": ["Joueur 1" * 3] * 200_000}))
    tracemalloc.start()
    try:
        problems = schema_problems(data, "state")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert problems == [("players", '["Joueur 1Joueur 1Joueur 1", "Joueur 1Joueur 1Joueur 1", "Jo… is not of '
                                    "type 'integer'")]
    # jsonschema's message was the list's repr: 12 MB at its peak here (180 MB for the fuzzed file)
    assert peak < 2**20, f"{peak / 2**20:.1f} MB"
