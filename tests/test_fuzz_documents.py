"""Fuzzing the state, move and log loaders through `rulebook moves`, `legal`, `replay`, `eval` and `apply`, and
`eval`'s expressions: whatever the file or the expression, the answer is an exit code the commands document
(never 3, an internal error), no traceback, and a message that quotes at most excerpts of the input.  Cases:
schema-valid documents (hypothesis-jsonschema), mutations of real files, spliced bytes; edited and random
expressions (see ``tests/fuzzing.py``; ``bench/fuzz.py`` runs many more, and huge ones)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from fuzzing import cases, checked_once, real_documents, run_case

# Derandomized: the same cases every run, so the suite's cost does not depend on a draw (one random run of these
# took 48 s, another 13 s); bench/fuzz.py runs as many random ones as asked.
EXAMPLES = {"state": 35, "move": 35, "log": 25, "eval": 12, "apply": 12, "apply-move": 12, "expression": 30}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    real_documents()            # played once, before the examples (not in Hypothesis' time)
    return tmp_path_factory.mktemp("fuzz")


@pytest.mark.parametrize("target", list(EXAMPLES))
def test_no_file_makes_an_internal_error(target, folder):
    @settings(max_examples=EXAMPLES[target], deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
    @given(case=cases(target))
    def check(case):
        sort, data = case
        code, err = run_case(target, data, folder)
        assert code in (0, 1, 2, 4), f"{sort} case: exit {code}: {err[-2000:]}"
        assert "Traceback" not in err
        assert len(err) < 4000, f"{sort} case: {len(err)} characters of messages"
    with checked_once():
        check()


def test_a_million_numbers_in_the_random_source_are_checked_in_bounded_time(folder):
    """Found by bench/fuzz.py (`apply`, a huge case that ran past 60 s): a state whose `resume/random` lists a
    million numbers took some 20 s of CPU before its exit 2, jsonschema checking each number (``minimum``) one by
    one, twice; 500,000 small choices in `decision/chosen`, 24 s.  Items whose schema is one type with bounds, or
    an object of such properties, are now checked in a loop (CPU before: about 10 s a check), with the same
    messages for the items that fail."""
    import copy
    import json
    import time
    from checker.base.documents import schema_problems
    state = copy.deepcopy(real_documents()["offer"][0])
    assert "random" in state["resume"]
    state["resume"]["random"] = [0] * 1_000_000
    start = time.process_time()
    assert schema_problems(state, "state") == []            # valid numbers: the loader says how many it needs
    state["resume"]["random"][-1] = -1
    assert schema_problems(state, "state") == [("resume/random/999999", "-1: minimum is 0")]
    state["resume"]["random"][3] = "x"
    assert [p for p, _ in schema_problems(state, "state")] == ["resume/random/3", "resume/random/999999"]
    assert time.process_time() - start < 5
    code, err = run_case("state", json.dumps(state).encode(), folder)
    assert code == 2 and "resume/random" in err, err
    del state["resume"]
    state["decision"]["chosen"] = [{"player": "", "value": 0}] * 500_000
    start = time.process_time()
    assert schema_problems(state, "state") == []
    state["decision"]["chosen"][5] = {"player": 1}
    state["decision"]["chosen"][7] = {"player": "", "value": [], "x": 1}
    assert [p for p, _ in schema_problems(state, "state")] == ["decision/chosen/5", "decision/chosen/5/player",
                                                               "decision/chosen/7"]
    assert time.process_time() - start < 5


def test_a_state_naming_its_spec_a_million_times_is_refused_at_once(folder):
    """Found by bench/fuzz.py (`moves`, a huge case: 1.2 GB): a state whose `spec` lists "" (the current
    directory) a million times had each checked as a spec — 20,000 of them took 150 s of CPU and 580 MB.
    A spec named twice is refused, and past 20 problems the rest are not looked at."""
    import copy
    import json
    import time
    state = copy.deepcopy(real_documents()["offer"][0])
    for entry in ("", "spec", "x"):
        state["spec"] = ["spec/citadelles"] + [entry] * 1_000_000
        start = time.process_time()
        code, err = run_case("state", json.dumps(state).encode(), folder)
        assert code == 2 and "spec/1" in err and len(err) < 4000, err[-500:]
        assert time.process_time() - start < 10


def test_a_million_zones_or_vars_are_refused_in_bounded_time(folder):
    """Found by bench/fuzz.py's new huge cases (an object of a million members): a state whose `zones` named a
    million empty zones ran past 120 s (jsonschema checking each member's anyOf, then a "did you mean" for each
    unknown zone); 600,000 bad players as a zone's indices, 27 s and 850 MB.  Members the schema's fast path can
    test are tested in a loop, and the state loader stops past 20 problems; since h128 more than 250,000 lists
    and objects, or 2,000,000 values and keys, are refused before the file is parsed."""
    import copy
    import json
    import time
    from checker.base.documents import schema_problems
    offer = real_documents()["offer"][0]
    state = copy.deepcopy(offer)
    state["zones"] = {f"z{i}": [] for i in range(1_000_000)}
    start = time.process_time()
    assert schema_problems(state, "state") == []
    state["zones"]["z7"] = 3
    state["zones"]["z9"] = {"Joueur 1": [1]}
    assert [p for p, _ in schema_problems(state, "state")] == ["zones/z7", "zones/z9/Joueur 1/0"]
    assert time.process_time() - start < 10
    zone = next(k for k, v in offer["zones"].items() if isinstance(v, dict))
    # a million empty zones or vars are now refused before they are parsed (more than 250,000 lists, more than
    # 2,000,000 values and keys): the members the schema and the loader look at are those of a file under that
    for field, value, said in (("zones", {f"z{i}": [] for i in range(200_000)}, "zones/"),
                               ("vars", {f"v{i}": 0 for i in range(600_000)}, "vars/"),
                               ("zones", {zone: {f"J{i}": [] for i in range(200_000)}}, "zones/"),
                               ("zones", {f"z{i}": [] for i in range(1_000_000)}, "lists and objects, more than"),
                               ("vars", {f"v{i}": 0 for i in range(1_000_000)}, "values and keys, more than")):
        state = {**offer, field: value}
        start = time.process_time()
        code, err = run_case("state", json.dumps(state).encode(), folder)
        assert code == 2 and said in err and len(err) < 4000, err[-500:]
        assert time.process_time() - start < 30


@pytest.mark.parametrize("target", ["apply", "log"])
def test_an_output_that_is_not_a_file_is_refused_and_left_as_it_was(target, folder):
    """Every kind of output the fuzz draws (a device node, a FIFO, a socket, a directory, the input or a link to
    it, a path under a file or in no directory), given to `apply -o` or `replay --state-at` with --force: exit 2,
    the target as it was (run_case adds an "output" line otherwise); a file, new or not, is written (exit 0)."""
    import json
    from fuzzing import OUTPUTS, WRITABLE
    doc = real_documents()["offer"][0] if target == "apply" else real_documents()["log"][0]
    for kind in OUTPUTS:
        with checked_once():
            code, err = run_case(target, json.dumps(doc).encode(), folder, sort=f"output:{kind}")
        if code == "skipped":        # no device node can be made here
            continue
        assert "\noutput " not in err and "Traceback" not in err, f"{kind}: {err[-500:]}"
        assert code == (0 if kind in WRITABLE else 2), f"{kind}: exit {code}: {err[-500:]}"
