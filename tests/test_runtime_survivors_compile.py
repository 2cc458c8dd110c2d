"""The compiled statements' choices (checker/runtime/compile.py), on tiny games: a `choose … subset of` a zone
that is not public is a secret decision (as `choose … secretly` is), and an offer's prohibitions that read only
its outer binder are tested once per outer value, together, before the innermost loop."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.runtime import Engine
from checker.runtime.agents import ScriptedAgent

GAME = """
game "Jeu" {
  edition: "test"
  players: 2..4
  flow: partie
}
kind Carte {
  force: Int in 0..9
  start: pioche
}
zone pioche: pile of Carte public
zone main[Player]: set of Carte hidden
zone vue[Player]: set of Carte public
card Carte "A" { force: 1 }
card Carte "B" { force: 2 }
card Carte "C" { force: 6 }
"""


def engine(tmp_path, text: str) -> Engine:
    path = tmp_path / "jeu.rules"
    path.write_text(GAME + text, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    return Engine(result.typed)


@pytest.mark.parametrize("zone, how, secret", [("main", "", True), ("vue", "", False), ("vue", " secretly", True)])
def test_choosing_a_subset_of_a_hidden_zone_is_secret(tmp_path, zone, how, secret):
    e = engine(tmp_path, f"""
procedure partie() {{
  for p in players {{ for c in pioche {{ move c to {zone}[p] }} }}
  for p in players {{ choose xs subset of {zone}[p] size 1..1 by p{how} }}
}}
""")
    agents = [ScriptedAgent(["A"]), ScriptedAgent([])]
    e.start({"Carte": ["A", "B"]}, 2, 0, agents)
    e.call("partie", ())
    decisions = [x for x in e.events if x["kind"] == "decision"]
    assert [(d["player"], d["options"], d["secret"]) for d in decisions] == [(0, ["A", "B"], secret)]
