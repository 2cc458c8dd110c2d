"""The compiled statements' choices (checker/runtime/compile.py), on tiny games: a `choose … subset of` a zone
that is not public is a secret decision (as `choose … secretly` is), and an offer's prohibitions that read only
its outer binder are tested once per outer value, together, before the innermost loop; a local name is read as the
global of that name until it is bound."""

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
card Carte "D" { force: 3 }
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


OFFER = """
action échanger(p: Player, a: Carte, b: Carte) "Échanger a contre b." { move a to pioche }
rule trop_forte { forbid échanger(p, a, b) when a.force > 5 }
rule pas_la_deux { forbid échanger(p, a, b) when a.force == 2 }
rule pioche_trop_forte { forbid échanger(p, a, b) when b.force > 5 }
procedure partie() {
  for p in players { for c in filter(d in pioche where d.force < 3) { move c to main[p] } }
  for p in players { offer p { échanger(p, a, b) for a in main[p] for b in pioche  finish "Passer" } }
}
"""


def test_the_prohibitions_of_the_outer_binder_are_tested_together_before_the_inner_loop(tmp_path):
    e = engine(tmp_path, OFFER)
    (source,) = [src for name, src, _ in e.compiler.gen.sources if name.startswith("_offer")]
    # each test's line names the prohibitions it tests: the outer binder's two together, then the inner one's
    tested = [line.rsplit("  # ", 1)[1] for line in source.splitlines()
              if "  # " in line and ("trop_forte" in line or "pas_la_deux" in line)]
    assert tested == ["trop_forte, pas_la_deux", "pioche_trop_forte"], source
    # the listing: A (force 1) against each card of the pile but C (force 6); B (force 2) never
    agents = [ScriptedAgent(["Passer"]), ScriptedAgent([])]
    e.start({"Carte": ["A", "B", "C", "D"]}, 2, 0, agents)
    e.call("partie", ())
    ((_, labels, _),) = agents[0].seen
    assert labels == ["échanger(Joueur 1, A, D)", "Passer"]


def test_a_name_read_before_a_local_of_that_name_is_bound_is_the_global(tmp_path):
    """A body's local names (`let`, `for`, `choose`) are read as the global of that name while they are unset
    (compile.py's ``Compiler.bind``): before the `let`; once bound, the local.  (After an `if` whose branch bound
    it, or a `for` over it, the name is no longer read: `check` refuses that read, tests/test_let_scope.py.)"""
    e = engine(tmp_path, """
var niveau: Int = 7
var lus: Int = 0
procedure partie() {
  set lus = niveau
  for x in 1..2 { set lus = lus * 10 + niveau }
  let niveau = 3
  set lus = lus * 10 + niveau
  for y in 4..5 { set lus = lus * 10 + y + niveau - 3 }
}
""")
    e.recording = False
    e.play({"Carte": ["A", "B"]}, 2, 0, [None, None])
    assert e.st.vars["lus"] == 777345 and e.st.vars["niveau"] == 7


# ---------------------------------------------------------------- sample -k (bench/results/mutation-2026-11-28-k.txt)

def test_a_loop_over_a_filter_ranges_over_its_new_tuple_and_a_loop_over_a_zone_over_a_copy(tmp_path):
    """A `for` copies what it ranges over (its body may move those cards), except a collection that is already
    a new tuple, such as a `filter(…)` (compile.py's ``_fresh_tuple``): copied again, each iteration of the outer
    loop would make a second tuple of the same cards.  The game moves the strong cards of the pile to Joueur 1's
    view through the filter and the rest to Joueur 1's hand through the pile itself."""
    e = engine(tmp_path, """
procedure partie() {
  for p in players { for c in filter(x in pioche where x.force > 1) { move c to vue[p] } }
  for p in players { for c in pioche { move c to main[p] } }
}
""")
    e.start({"Carte": ["A", "B", "C", "D"]}, 2, 0, [ScriptedAgent([]), ScriptedAgent([])])
    e.call("partie", ())
    assert e.st.zones["pioche"] == [] and len(e.st.zones["vue"][0]) == 3 and len(e.st.zones["main"][0]) == 1
    (source,) = [s for _, s, origin in e.compiler.gen.sources if origin == "procedure partie"]
    loops = [line.split(" = ", 1)[1] for line in source.splitlines() if line.strip().startswith("_items")]
    assert len(loops) == 4, source
    assert loops[1].startswith("tuple([") and not loops[1].startswith("tuple(tuple("), source
    assert loops[3] == "tuple(st.zones['pioche'])", source


# ---------------------------------------------------------------- sample -n (bench/results/mutation-2026-11-28-n.txt)

def test_a_choice_that_may_be_declined_can_end_its_block(tmp_path):
    """`choose … optionally` as the last statement of a loop's body: nothing follows it to skip (its block is
    `pass`), so each player is asked, and the loop and the statement after it go on whatever the answer."""
    e = engine(tmp_path, """
var vus: Int = 0
var fini: Int = 0
procedure partie() {
  for p in players {
    set vus = vus + 1
    choose c in pioche by p optionally
  }
  set fini = 1
}
""")
    agents = [ScriptedAgent(["A"]), ScriptedAgent(["(rien)"])]
    e.start({"Carte": ["A", "B"]}, 2, 0, agents)
    e.call("partie", ())
    decisions = [x for x in e.events if x["kind"] == "decision"]
    assert [(d["player"], d["options"]) for d in decisions] == [(0, ["A", "B", "(rien)"]), (1, ["A", "B", "(rien)"])]
    assert e.st.vars["vus"] == 2 and e.st.vars["fini"] == 1


# a prohibition that reads no binder of the offer first, then the three of OFFER, the one on B next
CLOSED = OFFER.replace("rule trop_forte {", """var fermeture: Int = 0
rule fermée { forbid échanger(p, a, b) when fermeture == 1 }
rule pas_la_deux { forbid échanger(p, a, b) when a.force == 2 }
rule trop_forte {""", 1).replace("rule pas_la_deux { forbid échanger(p, a, b) when a.force == 2 }\nrule pioche",
                                  "rule pioche", 1)


@pytest.mark.parametrize("closed", [0, 1])
def test_a_prohibition_that_reads_no_binder_is_tested_before_the_loops_and_the_next_one_still_inside(tmp_path,
                                                                                                    closed):
    """`fermée` reads none of the offer's binders: it is tested once, before the loops (compile.py's `before`);
    `pas_la_deux`, the next prohibition, reads `a` and is still tested for each card: B (force 2) is never
    offered.  Closed, nothing is (and a finish alone is not asked)."""
    e = engine(tmp_path, CLOSED)
    (source,) = [src for name, src, _ in e.compiler.gen.sources if name.startswith("_offer")]
    assert [line.rsplit("  # ", 1)[1] for line in source.splitlines() if "  # " in line and "if " in line] == \
        ["fermée", "pas_la_deux, trop_forte", "pioche_trop_forte"], source
    agents = [ScriptedAgent(["Passer"]), ScriptedAgent([])]
    e.start({"Carte": ["A", "B", "C", "D"]}, 2, 0, agents)
    e.st.vars["fermeture"] = closed
    e.call("partie", ())
    offered = [labels for _, labels, _ in agents[0].seen]
    assert offered == ([] if closed else [["échanger(Joueur 1, A, D)", "Passer"]])     # « Passer » alone: not asked
