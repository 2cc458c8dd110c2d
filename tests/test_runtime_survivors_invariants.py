"""The invariants tested through their own functions (checker/runtime/invariants.py's ``_calling``: what
``InvariantWatch.bind`` makes when a tool has wrapped the entries, as tests/test_invariants_incremental.py's
counters do): an invariant with no `when` is tested, one whose `when` does not hold is not, and the first
broken one is named before the next decision."""

from __future__ import annotations

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
var prudence: Bool = false public
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
card Carte "A" { force: 1 }
card Carte "B" { force: 2 }
card Carte "C" { force: 3 }
invariant mains_prudentes {
  require all(p in players: count(c in main[p]) <= 1)
  when prudence
  message "Une carte en main au plus, par prudence."
}
invariant petites_mains {
  require all(p in players: count(c in main[p]) <= 2)
  message "Deux cartes en main au plus."
}
procedure partie() {
  for p in players { for c in pioche { move c to main[p] } }
  for p in players { offer p { finish "Oui"  finish "Non" } }
}
"""


def wrapped_engine(tmp_path) -> tuple[Engine, list[int]]:
    path = tmp_path / "jeu.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    e = Engine(result.typed)
    asked = []

    def counted(name, require):
        def run(env):
            asked.append(name)
            return require(env)
        return run
    e.invariants[:] = [(inv, when, counted(inv.name, req)) for inv, when, req in e.invariants]
    e.watch.bind(e.invariants)          # no engine: the entries' own (wrapped) functions are called
    return e, asked


@pytest.mark.parametrize("cards, broken", [(["A", "B", "C"], "petites_mains"), (["A", "B"], None)])
def test_wrapped_invariants_are_tested_unless_their_when_does_not_hold(tmp_path, cards, broken):
    e, asked = wrapped_engine(tmp_path)
    if broken:
        with pytest.raises(SpecRuntimeError, match=f"the game broke the invariant {broken} "
                                                   r"\(Deux cartes en main au plus.\)"):
            e.play({"Carte": cards}, 2, 0, [RandomAgent(1), RandomAgent(2)])
    else:
        e.play({"Carte": cards}, 2, 0, [RandomAgent(1), RandomAgent(2)])
    # `mains_prudentes` is never tested (its `when` is false), `petites_mains` at the first decision at least
    assert "mains_prudentes" not in asked and asked[0] == "petites_mains"


def test_a_wrapped_invariant_whose_when_holds_is_tested_first(tmp_path):
    e, asked = wrapped_engine(tmp_path)
    e.start({"Carte": ["A", "B"]}, 2, 0, [RandomAgent(1), RandomAgent(2)])
    e.st.vars["prudence"] = True
    e.st.dirty = True
    with pytest.raises(SpecRuntimeError, match="the game broke the invariant mains_prudentes"):
        e.call("partie", ())
    assert asked == ["mains_prudentes"]


def test_the_generated_check_of_the_invariants_makes_no_environment_it_does_not_read(tmp_path):
    """The invariants' one generated function (invariants.py's ``_checker``) is run before decisions: it binds
    `env` only when a test reads it — none of these does."""
    path = tmp_path / "jeu.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    e = Engine(result.typed)
    (source,) = [src for _, src, origin in e.compiler.gen.sources
                 if origin == "the invariants, tested before a decision" and "mains_prudentes" in src]
    assert "if not " in source and "env" not in source, source


# ---------------------------------------------------------------- sample -n (bench/results/mutation-2026-11-28-n.txt)

@pytest.mark.parametrize("cards, broken", [(["A", "B", "C"], "petites_mains"), (["A", "B"], None)])
def test_the_generated_check_breaks_an_every_loop_invariant_only_when_it_fails(tmp_path, cards, broken):
    """The engine's own check (one generated function, invariants.py's ``_checker``): `petites_mains` is a
    `require all(…)` that is not a count per key, tested as a loop over the players; Joueur 1 takes the whole
    pile: two cards keep it, three break it.  (Before, only the wrapped entries of ``_calling`` were played here.)"""
    path = tmp_path / "jeu.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    e = Engine(result.typed)
    e.recording = False
    if broken:
        with pytest.raises(SpecRuntimeError, match=f"the game broke the invariant {broken} "):
            e.play({"Carte": cards}, 2, 0, [RandomAgent(1), RandomAgent(2)])
    else:
        e.play({"Carte": cards}, 2, 0, [RandomAgent(1), RandomAgent(2)])
        assert len(e.st.zones["main"][0]) == 2
