"""A file cannot cost memory in proportion to junk: what a state, move or log file holds is counted in its text
before it is parsed (at most MAX_VALUES values, MAX_CONTAINERS lists and objects), and a move's members of
another kind of move are refused, not read and dropped (issue 24, h128).  Before: a move file of a million
``{"a":1}`` in a power's ``args`` (8 MB) took 470 MB and exit 0; 3.9 million ``{}`` (11.7 MB), 1.1 GB."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from checker.base.documents import MAX_CONTAINERS, MAX_VALUES, DocumentError, parse_document

ROOT = "(the file)"
pytestmark = pytest.mark.usefixtures("specs_checked_once")


def _refused(text: str) -> str:
    with pytest.raises(DocumentError) as info:
        parse_document(text)
    ((path, message),) = info.value.problems
    assert path == ROOT
    return message


def test_lists_and_objects_past_the_limit_are_refused_at_the_limit_exactly():
    inner = MAX_CONTAINERS - 1                          # with the outer list: MAX_CONTAINERS in all
    assert len(parse_document("[" + ",".join(["{}"] * inner) + "]")) == inner
    message = _refused("[" + ",".join(["[]"] * (inner + 1)) + "]")
    assert message == (f"holds {MAX_CONTAINERS + 1:,} lists and objects, more than the {MAX_CONTAINERS:,} a file "
                       "may hold (not parsed)")


def test_values_and_keys_past_the_limit_are_refused():
    assert len(parse_document(json.dumps({"a": [0] * (MAX_VALUES - 3)}))) == 1     # the object, its key, its list
    message = _refused(json.dumps({"a": [0] * (MAX_VALUES + 5)}))
    assert message.startswith(f"holds about {MAX_VALUES + 8:,} values and keys, more than the {MAX_VALUES:,}")
    # an object of a million members (310 MB as a move's args before): a key costs as much as a value
    assert _refused(json.dumps({f"x{i}": 0 for i in range(MAX_VALUES // 2)})).startswith(
        f"holds about {MAX_VALUES + 1:,} values and keys")
    assert len(parse_document(json.dumps({f"x{i}": 0 for i in range(MAX_VALUES // 2 - 1)}))) == MAX_VALUES // 2 - 1


@pytest.mark.parametrize("inside", ["{" * (MAX_CONTAINERS + 10), "," * (MAX_VALUES + 10),
                                    '\\"' + "[" * (MAX_CONTAINERS + 10), "\\\\" + "{," * MAX_CONTAINERS])
def test_what_is_inside_a_string_is_not_counted(inside):
    """Brackets and commas in a string (after an escaped quote or backslash too) are text, not values."""
    text = json.dumps({"note": json.loads(f'"{inside}"'), "n": [1, 2]})
    assert parse_document(text)["n"] == [1, 2]


def test_a_file_of_millions_of_empty_objects_is_refused_in_little_memory():
    text = "[" + ",".join(["{}"] * 3_900_000) + "]"         # 11.7 MB, under the 16 MB a file may have
    tracemalloc.start()
    try:
        message = _refused(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert message.startswith("holds 3,900,001 lists and objects")
    assert peak < 3 * len(text), f"{peak / 2**20:.0f} MB"           # a copy without its strings, no more


def test_a_real_log_as_large_as_a_file_may_be_is_under_both_limits():
    """The limits leave room for real files: a game log's events repeated up to 15 MB parse."""
    from fuzzing import real_documents
    log = real_documents()["log"][0]
    size = len(json.dumps(log, ensure_ascii=False).encode())
    copies = 15 * 2**20 // size
    big = {**log, "events": log["events"] * copies}
    assert len(parse_document(json.dumps(big, ensure_ascii=False))["events"]) == len(log["events"]) * copies


@pytest.fixture(scope="module")
def offer(tmp_path_factory):
    from fuzzing import real_documents
    folder = tmp_path_factory.mktemp("offer")
    state, move = real_documents()["offer"]
    (folder / "state.json").write_text(json.dumps(state, ensure_ascii=False), encoding="utf-8")
    return folder, move


def _legal(capsys, folder, move: dict):
    from conftest import run_cli
    path = folder / "move.json"
    path.write_text(json.dumps(move, ensure_ascii=False), encoding="utf-8")
    return run_cli(capsys, "legal", str(folder / "state.json"), str(path))


def test_a_power_move_with_arguments_is_refused(capsys, offer):
    folder, move = offer
    assert "power" in move
    code, _, err = _legal(capsys, folder, move)
    assert code in (0, 1), err
    for args in ([], ["Joueur 1"]):
        code, _, err = _legal(capsys, folder, {**move, "args": args})
        assert code == 2
        assert err.strip().endswith("is not a valid move file: args: a move with `power` takes `power` and `card` "
                                    "only, not `args`; a power has no parameters"), err


def test_a_member_of_another_kind_of_move_is_refused(capsys, offer):
    folder, move = offer
    code, _, err = _legal(capsys, folder, {"player": move["player"], "finish": "Terminer son tour",
                                           "card": move["card"]})
    assert code == 2 and "card: a move with `finish` takes `finish` only, not `card`" in err, err
    code, _, err = _legal(capsys, folder, {**move, "action": "bâtir"})        # an action without args: a power
    assert code == 2 and "action: a move with `power` takes `power` and `card` only, not `action`" in err, err


def test_a_million_small_objects_in_a_power_s_args_are_refused_as_the_command_in_little_memory(offer, tmp_path):
    """The case the fuzz found (exit 0, 460 MB), as the command in a process of its own: exit 2 naming the file
    and the limit, under 250 MB (the command alone, with its spec checked, is about 100 MB)."""
    import os
    import sys
    from bench import fuzz as bench
    if not os.access(bench.TIME, os.X_OK):
        pytest.skip(f"no GNU time at {bench.TIME}")
    folder, move = offer
    case = tmp_path / "move.json"
    case.write_text(json.dumps({**move, "args": [{"a": 1}] * 1_000_000}, separators=(",", ":")), encoding="utf-8")
    argv = [sys.executable, "-m", "checker", "legal", str(folder / "state.json"), str(case)]
    code, err, peak = bench.own_process(argv, 120)
    assert code == 2, err[-500:]
    assert err.strip() == (f"rulebook legal: {case} is not a valid move file: (the file): holds 1,000,002 lists "
                           f"and objects, more than the {MAX_CONTAINERS:,} a file may hold (not parsed)")
    assert peak < 250 * 1024, f"{peak} KiB"
