"""Invariants are evaluated before a decision only when a var or zone they read changed since they last
held (checker/runtime/invariants.py): a break is still caught at the next decision, whatever wrote it."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.front.check import check_paths
from checker.runtime import Engine, RandomAgent
from checker.runtime.state import SpecRuntimeError

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
counter banque unlimited
counter jetons[Player] public
var plafond: Int = 2 public
var bruit: Int = 0 public
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
zone défausse: pile of Carte public
card Carte "A" { force: 1 }
card Carte "B" { force: 2 }
card Carte "C" { force: 3 }
card Carte "D" { force: 4 }
quantity limite(): Int = plafond
invariant petites_mains {
  require all(p in players: count(c in main[p]) <= 2)
  message "Deux cartes en main au plus."
}
invariant peu_de_jetons {
  require all(p in players: jetons[p] <= limite())
}
"""


def engine(tmp_path: Path, flow: str) -> Engine:
    path = tmp_path / "jeu.rules"
    path.write_text(GAME + flow, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    return Engine(result.typed)


def play(e: Engine):
    return e.play({"Carte": ["A", "B", "C", "D"]}, 2, 0, [RandomAgent(1), RandomAgent(2)])


def counting(e: Engine) -> list[int]:
    """Count the evaluations of each invariant's test (wrapping the compiled functions)."""
    counts = [0] * len(e.invariants)

    def wrapped(i, require):
        def run(env):
            counts[i] += 1
            return require(env)
        return run
    e.invariants[:] = [(inv, when, wrapped(i, req)) for i, (inv, when, req) in enumerate(e.invariants)]
    e.watch.bind(e.invariants)
    return counts


def test_the_reads_of_each_invariant_are_known_through_the_quantities_it_calls(tmp_path):
    e = engine(tmp_path, "procedure partie() { stop }")
    assert e.watch.zones == {"main"} and e.watch.vars == {"jetons", "plafond"} and not e.watch.unknown


@pytest.mark.parametrize("breaking, name", [
    ("draw 3 from pioche to main[p]", "petites_mains"),                      # a card enters a zone it reads
    ("transfer 3 from banque to jetons[p]", "peu_de_jetons"),                # a counter it reads
    ("set plafond = -1", "peu_de_jetons"),                                   # a var read through a quantity
])
def test_a_break_is_caught_at_the_next_decision_whatever_wrote_it(tmp_path, breaking, name):
    e = engine(tmp_path, f"""procedure partie() {{
  for p in players {{
    choose c in pioche by p
    {breaking}
    choose d in pioche by p
  }}
}}""")
    with pytest.raises(SpecRuntimeError, match=f"broke the invariant {name}"):
        play(e)


def test_a_card_leaving_a_zone_it_reads_counts_as_a_change(tmp_path):
    """A card drawn into `main` and one moved out of it both make the invariants due again."""
    e = engine(tmp_path, """procedure partie() {
  for p in players {
    draw 2 from pioche to main[p]
    choose c in main[p] by p
    move c to défausse
    choose d in défausse by p
  }
}""")
    counts = counting(e)
    play(e)
    # before the first decision (all new), then after each move into or out of main: 4 of the 4 decisions
    assert counts == [4, 4]


def test_an_invariant_is_not_evaluated_again_while_nothing_it_reads_changes(tmp_path):
    e = engine(tmp_path, """procedure partie() {
  for p in players {
    set bruit = bruit + 1
    choose c in pioche by p
    move c to défausse
    choose d in défausse by p
  }
}""")
    counts = counting(e)
    result = play(e)
    assert result.decisions == 4
    assert counts == [1, 1], "bruit and défausse are read by no invariant: only the first decision evaluates them"


def test_an_invariant_asking_can_is_evaluated_before_every_decision(tmp_path):
    e = engine(tmp_path, """action jouer(c: Carte) { move c to défausse }
invariant toujours { require can jouer("A") or true }
procedure partie() {
  for p in players {
    choose c in pioche by p
    choose d in pioche by p
  }
}""")
    assert e.watch.unknown == {"toujours"}
    counts = counting(e)
    play(e)
    assert counts == [1, 1, 4]


def test_a_state_put_back_by_a_look_ahead_is_checked_again(tmp_path):
    e = engine(tmp_path, "procedure partie() { stop }")
    e.start({"Carte": ["A", "B"]}, 2, 0, [RandomAgent(1), RandomAgent(2)])
    e.st.dirty = False
    e.st.restore(e.st.snapshot())
    assert e.st.dirty
    e.st.dirty = False
    e.invalidate()
    assert e.st.dirty, "tools that change the state directly call invalidate: the invariants are due again"


# ---------------------------------------------------------------- counted per key in one pass (runtime/fusion.py)

RANKS = "all(f in 1..4: sum(p in players: count(c in main[p] where c.force == f)) <= 1)"


def test_a_count_per_key_is_one_pass_and_agrees_with_the_nested_loops(tmp_path, monkeypatch):
    """Every decision of a few random games: the fused form and the nested loops give the same value."""
    from checker.runtime import fusion
    from checker.runtime.codegen import Scope
    flow = """procedure partie() {
  for p in players {
    choose c in pioche by p
    move c to main[p]
    choose d in pioche by p optionally
    move d to main[left(p)]
  }
}"""
    expressions = [f"{q}(f in 1..4: {inner}(p in players: count(c in main[p] where {key})) {op} {k})"
                   for q, inner, key, op, k in (("all", "sum", "c.force == f", "<=", 1),
                                                ("any", "sum", "f == c.force", ">=", 2),
                                                ("all", "max", "c.force == f", "<", 2))]
    expressions.append("all(p in players: all(f in 1..4: count(c in main[p] where c.force == f) != 1))")
    path = tmp_path / "jeu.rules"
    path.write_text(GAME + flow + '\ncard Carte "A2" { force: 1 }' + "".join(f"\nquantity q{i}(): Bool = {x}" for i, x in enumerate(expressions)),
                    encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    e = Engine(result.typed)
    fused = [e.compiler.gen.expr(result.program.quantities[f"q{i}"].default, Scope({}))
             for i in range(len(expressions))]
    assert ["COUNT_PER_KEY" in src for src in fused] == [True, True, False, True], "max is not a count per key"
    monkeypatch.setattr(fusion, "per_key_count", lambda *args: None)
    nested = [e.compiler.gen.env_function(result.program.quantities[f"q{i}"].default, Scope({}))
              for i in range(len(expressions))]
    monkeypatch.undo()
    fused = [e.compiler.gen.env_function(result.program.quantities[f"q{i}"].default, Scope({}))
             for i in range(len(expressions))]
    seen = set()

    def compare(_decision):
        values = [f({}) for f in fused]
        assert values == [f({}) for f in nested]
        seen.add(tuple(values))
    e.observer = compare
    for seed in range(30):
        e.play({"Carte": ["A", "B", "C", "D", "A2"]}, 2, seed, [RandomAgent(seed), RandomAgent(seed + 1)])
    assert len(seen) > 2, "the games reach states where the expressions differ"


def test_the_rank_invariant_is_caught_in_one_pass(tmp_path):
    e = engine(tmp_path, f"""invariant forces_distinctes {{ require {RANKS} }}
procedure partie() {{
  for p in players {{
    choose c in pioche by p
    move c to main[p]
    choose d in pioche by p
  }}
}}""")
    e.play({"Carte": ["A", "B", "C", "D"]}, 2, 0, [RandomAgent(1), RandomAgent(2)])     # four forces: it holds
    path = tmp_path / "jeu.rules"
    path.write_text(path.read_text(encoding="utf-8") + '\ncard Carte "A2" { force: 1 }\n', encoding="utf-8")
    result = check_paths([path])
    e = Engine(result.typed)
    with pytest.raises(SpecRuntimeError, match="broke the invariant forces_distinctes"):
        e.play({"Carte": ["A", "A2", "B", "C"]}, 2, 0, [RandomAgent(1), RandomAgent(2)])
