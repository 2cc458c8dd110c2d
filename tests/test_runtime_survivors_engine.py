"""The engine's decisions on tiny games (the survivors of the blind runtime sample in checker/runtime/engine.py):
a power limited to once per game is not offered again, an unrecorded game asks a scripted agent as a recorded
one does while a random agent is asked for its pick only, and the look-ahead of the first greedy builder gives
the score an action would leave."""

from __future__ import annotations

import pytest

from checker.base.limits import MAX_RANGE
from checker.front.check import check_paths
from checker.runtime import Engine
from checker.runtime.agents import RandomAgent, ScriptedAgent
from checker.runtime.state import SpecRuntimeError

GAME = """
game "Jeu" {
  edition: "test"
  players: 2..4
  flow: partie
  score: points
}
kind Carte {
  force: Int in 0..9
  controller: porteur
  start: pioche
}
counter banque unlimited
counter bourse[Player] public
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
quantity porteur(c: Carte): Player? = the(p in players where c in main[p])
quantity points(p: Player): Int = sum(c in main[p]: c.force)
action prendre(p: Player, c: Carte) "Prendre une carte." { move c to main[p] }
card Carte "Lanterne" { force: 3
  power briller "1 pièce" { limit once per game  transfer 1 from banque to bourse[me] } }
card Carte "Pierre" { force: 5
  power rouler "Rien" { limit unlimited  transfer 0 from banque to bourse[me] } }
card Carte "Plume" { force: 1 }
"""


def engine(tmp_path, flow: str) -> Engine:
    path = tmp_path / "jeu.rules"
    path.write_text(GAME + flow, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    return Engine(result.typed)


def test_a_power_limited_to_once_per_game_is_not_offered_again_after_its_use(tmp_path):
    e = engine(tmp_path, """
procedure partie() {
  for p in players { for c in pioche { move c to main[p] } }
  for p in players { offer p { powers of main[p]  finish "Passer" } }
}
""")
    agents = [ScriptedAgent(["briller (Lanterne)", "Passer"]), ScriptedAgent([])]
    e.start({"Carte": ["Lanterne", "Pierre"]}, 2, 0, agents)
    e.call("partie", ())
    (_, first, _), (_, second, _) = agents[0].seen
    assert sorted(first) == ["Passer", "briller (Lanterne)", "rouler (Pierre)"]
    assert sorted(second) == ["Passer", "rouler (Pierre)"]
    assert e.st.vars["bourse"] == {0: 1}


OFFER = """
procedure partie() {
  for p in players { offer p { prendre(p, c) for c in pioche  finish "Passer" } }
}
"""


@pytest.mark.parametrize("recording", [True, False])
def test_a_scripted_agent_is_asked_whether_the_game_is_recorded_or_not(tmp_path, recording):
    """Without a log (the conflict search's replays, the fuzzer) the engine still asks an agent that is not the
    plain random one for its choice: its script is followed."""
    e = engine(tmp_path, OFFER)
    agents = [ScriptedAgent(["prendre(Joueur 1, Pierre)", "Passer"]),
              ScriptedAgent(["prendre(Joueur 2, Plume)", "Passer"])]
    e.recording = recording
    e.start({"Carte": ["Lanterne", "Pierre", "Plume"]}, 2, 0, agents)
    e.call("partie", ())
    assert [e.quantity("points", (p,)) for p in (0, 1)] == [5, 1]
    assert [answer for a in agents for _, _, answer in a.seen] == ["prendre(Joueur 1, Pierre)", "Passer",
                                                                   "prendre(Joueur 2, Plume)", "Passer"]


def test_an_unrecorded_random_agent_is_asked_for_its_pick_only_and_picks_as_when_recorded(tmp_path, monkeypatch):
    """Unrecorded and unobserved, the plain random agent reads nothing but the count of options: the engine
    asks its ``pick`` and makes no Decision; its choices are those it makes in a recorded game."""
    e = engine(tmp_path, OFFER)
    recorded = []
    for seed in range(4):
        e.start({"Carte": ["Lanterne", "Pierre", "Plume"]}, 2, seed, [RandomAgent(seed), RandomAgent(seed + 10)])
        e.call("partie", ())
        recorded.append(list(e.choices))

    def refused(self, decision):
        raise AssertionError("a Decision was made for the plain random agent of an unrecorded game")
    monkeypatch.setattr(RandomAgent, "choose", refused)
    e.recording = False
    for seed in range(4):
        e.start({"Carte": ["Lanterne", "Pierre", "Plume"]}, 2, seed, [RandomAgent(seed), RandomAgent(seed + 10)])
        e.call("partie", ())
        assert list(e.choices) == recorded[seed]
    assert len({tuple(c) for c in recorded}) > 1, "the seeds make different games"


class _Stop(Exception):
    pass


def test_the_look_ahead_gives_the_score_an_offered_action_would_leave_and_changes_nothing(tmp_path):
    e = engine(tmp_path, OFFER)
    seen = {}

    class Probe:
        def choose(self, decision):
            seen["decision"] = decision
            raise _Stop()

    e.start({"Carte": ["Lanterne", "Pierre", "Plume"]}, 2, 0, [Probe(), Probe()])
    with pytest.raises(_Stop):
        e.call("partie", ())
    decision = seen["decision"]
    worth = {label: e.lookahead(0, option) for label, option in zip(decision.labels(), decision.options)}
    assert worth == {"prendre(Joueur 1, Lanterne)": 3, "prendre(Joueur 1, Pierre)": 5,
                     "prendre(Joueur 1, Plume)": 1, "Passer": None}
    assert e.quantity("points", (0,)) == 0 and sorted(e.st.zones["pioche"]) == sorted(e.st.where)


REACTIONS = """
game "Jeu" {
  edition: "test"
  players: 2..4
  flow: partie
  score: points
}
kind Carte {
  force: Int in 0..9
  controller: porteur
  start: pioche
}
counter banque unlimited
counter bourse[Player] public
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
window fin(p: Player) "La fin."
quantity porteur(c: Carte): Player? = the(p in players where c in main[p])
quantity points(p: Player): Int = count(c in main[p])
card Carte "Alpha" { force: 1
  power secours "1 pièce à qui n'en a pas" { when fin(p)  mandatory  requires bourse[me] == 0
    transfer 1 from banque to bourse[me] } }
card Carte "Beta" { force: 2
  power don "2 pièces" { when fin(p)  mandatory  transfer 2 from banque to bourse[me] } }
procedure partie() {
  for p in players { for c in pioche { move c to main[p] } }
  for p in players { if count(c in main[p]) > 0 { signal fin(p) } }
}
"""


@pytest.mark.parametrize("precedence, purse", [("", 3), ('precedence "Beta".don over "Alpha".secours { }', 2)])
def test_a_precedence_between_powers_puts_the_winner_first_in_the_window(tmp_path, precedence, purse):
    """Alpha's power is declared first and reacts first (1 coin, then Beta's 2: 3); with Beta's power declared
    to go first, Alpha's owner holds 2 coins when its turn comes and its `requires` no longer holds: 2."""
    path = tmp_path / "jeu.rules"
    path.write_text(REACTIONS + precedence + "\n", encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    e = Engine(result.typed)
    e.start({"Carte": ["Alpha", "Beta"]}, 2, 0, [RandomAgent(0), RandomAgent(1)])
    e.call("partie", ())
    assert e.st.vars["bourse"] == {0: purse}


@pytest.mark.parametrize("low, high", [(0, 3), (2, 3), (1, 1)])
def test_a_subset_chosen_at_random_has_its_least_size(tmp_path, low, high):
    """`choose … subset of … at random` takes exactly the least size (docs/language.md), never more."""
    e = engine(tmp_path, f"""
procedure partie() {{
  choose xs subset of pioche size {low}..{high} at random
  for p in players {{ for c in xs {{ if c in pioche {{ move c to main[p] }} }} }}
}}
""")
    for seed in range(5):
        e.start({"Carte": ["Lanterne", "Pierre", "Plume"]}, 2, seed, [RandomAgent(0), RandomAgent(1)])
        e.call("partie", ())
        assert len(e.st.zones["main"].get(0, [])) == low


def test_a_range_is_refused_by_its_length_not_by_where_it_lies(tmp_path):
    """`a..b` holds at most MAX_RANGE integers: a short range far from 0 is fine, a long one is refused."""
    e = engine(tmp_path, "procedure partie() { stop }")
    e.start({"Carte": ["Plume"]}, 2, 0, [RandomAgent(0), RandomAgent(1)])
    assert e.range_of(MAX_RANGE - 10, MAX_RANGE + 5) == tuple(range(MAX_RANGE - 10, MAX_RANGE + 6))
    assert len(e.range_of(0, MAX_RANGE - 1)) == MAX_RANGE
    with pytest.raises(SpecRuntimeError, match=f"the range 0..{MAX_RANGE} holds more than"):
        e.range_of(0, MAX_RANGE)


# ---------------------------------------------------------------- sample -k (bench/results/mutation-2026-11-28-k.txt)

RULES = """
rule doublé { value points(p) = 2 * sum(c in main[p]: c.force) when any(c in main[p] where c.force >= 5) }
rule prime { adjust points(p) by 3 when count(c in main[p]) >= 1 }
"""


def test_the_score_is_explained_by_its_value_rule_or_its_base_and_each_adjustment(tmp_path):
    """`rulebook score` explains each player's total from ``Engine.quantities`` (the value rules, then the
    adjustments, apart): Joueur 1 holds the Pierre (force 5: the value rule doubles it), Joueur 2 the Plume (its
    base value); both get the prime."""
    from checker.scenario.command import _score_parts
    e = engine(tmp_path, OFFER + RULES)
    agents = [ScriptedAgent(["prendre(Joueur 1, Pierre)", "Passer"]),
              ScriptedAgent(["prendre(Joueur 2, Plume)", "Passer"])]
    e.start({"Carte": ["Lanterne", "Pierre", "Plume"]}, 2, 0, agents)
    e.call("partie", ())
    assert [e.quantity("points", (p,)) for p in (0, 1)] == [13, 4]
    assert _score_parts(e, 0) == [("doublé", 10), ("prime", 3)]
    assert _score_parts(e, 1) == [("sa valeur de base", 1), ("prime", 3)]


def test_a_decision_made_without_saying_so_cannot_be_declined(tmp_path):
    """A Decision made by a tool rather than the engine's `choose` (the next player asked at an `each … chooses`
    point, `rulebook apply`'s next decision) is not optional: its labels are its options' alone, with no
    « (rien) », and an agent picks among them only."""
    from checker.runtime.engine import Decision
    d = Decision(1, "n", (4, 6), str)
    assert d.labels() == ["4", "6"]
    assert RandomAgent(3).choose(d) in (0, 1)
    assert Decision(1, "n", (4, 6), str, optional=True).labels() == ["4", "6", "(rien)"]


# ---------------------------------------------------------------- sample -n (bench/results/mutation-2026-11-28-n.txt)

def test_a_range_whose_bounds_are_computed_counts_its_integers_against_the_work_limit(tmp_path):
    """`0..x` with a bound known only at run time is made by Engine.range_of, which counts its integers in
    E.work as spend() does (a range of literals is counted by the generated code instead): `count(i in 0..n)`
    costs n + 1, and a range that would take the work past MAX_WORK stops the spec, with spend()'s message."""
    from checker.base.limits import MAX_WORK
    e = engine(tmp_path, """
quantity jusqu_a(p: Player): Int = count(i in 0..count(c in main[p]) * 100)
procedure partie() { stop }""")
    e.start({"Carte": ["Plume", "Lanterne", "Pierre"]}, 2, 0, [RandomAgent(0), RandomAgent(1)])
    for c in list(e.st.zones["pioche"])[:2]:
        e.st.put(c, "main", 1, "top")
    e.work = 0
    assert e.quantity("jusqu_a", (0,)) == 1 and e.work == 1          # 0..0
    assert e.quantity("jusqu_a", (1,)) == 201 and e.work == 202      # 0..200: two cards in hand
    assert e.range_of(3, 7) == (3, 4, 5, 6, 7) and e.work == 207
    e.work = MAX_WORK - 10
    assert len(e.range_of(0, 9)) == 10 and e.work == MAX_WORK
    e.work = MAX_WORK - 10
    with pytest.raises(SpecRuntimeError, match="more than 2,000,000 loop iterations and aggregate elements"):
        e.range_of(0, 10)
    assert e.work == 0
