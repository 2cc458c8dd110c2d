"""Tests written for a survivor of the second blind runtime sample of h158 (seed 1129,
bench/results/mutation-2026-11-29-h158.txt) in checker/runtime/codegen.py: `the(…)` of no element is none, of one
element that element, of two a located error; `only(…)` of no element is an error too."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.runtime.engine import Engine
from checker.runtime.state import SpecRuntimeError

GAME = """
game "Seul" {
  edition: "test"
  players: 3..3
  flow: partie
}
var seuil: Int = 0
var n: Int = 0
var marque[Player]: Int = 0
var élu: Player? = none
procedure partie() {
  for p in players {
    set n = n + 1
    set marque[p] = n
  }
  set élu = EXPR
}
configuration "Standard" { players: 3..3 }
"""


def _play(tmp_path, expr: str, seuil: int):
    path = tmp_path / "seul.rules"
    path.write_text(GAME.replace("EXPR", expr).replace("seuil: Int = 0", f"seuil: Int = {seuil}"), encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    engine = Engine(result.typed)
    engine.recording = False
    engine.play({}, 3, 1, [])
    return engine.st.vars["élu"]


@pytest.mark.parametrize("kind", ["the", "only"])
def test_the_of_one_element_is_it_and_of_none_is_none(tmp_path, kind):
    assert _play(tmp_path, f"{kind}(p in players where marque[p] == seuil)", 2) == 1
    if kind == "the":
        assert _play(tmp_path, "the(p in players where marque[p] == seuil)", 9) is None
    else:
        with pytest.raises(SpecRuntimeError, match=r"only\(…\) found 0 elements, not one"):
            _play(tmp_path, "only(p in players where marque[p] == seuil)", 9)
    with pytest.raises(SpecRuntimeError, match=rf"{kind}\(…\) found 3 elements, not one"):
        _play(tmp_path, f"{kind}(p in players where marque[p] > seuil)", 0)


CHEAP = """
game "Comptes" {
  edition: "test"
  players: 2..2
  flow: partie
}
kind Jeton { valeur: Int in 1..3  start: sac }
card Jeton "Un" { valeur: 1 }
card Jeton "Deux" { valeur: 2 }
zone sac: set of Jeton public
quantity taille(): Int = count(j in sac)
quantity gros(): Int = count(j in sac where j.valeur >= 2)
quantity taille_encore(): Int = taille() + 1
procedure partie() { }
configuration "Standard" { players: 2..2  include Jeton: "Un", "Deux" }
"""


def test_a_plain_count_is_cheap_and_a_count_with_a_condition_is_not(tmp_path):
    """(a survivor of the second sample, seed 1129: codegen.py:382 `is None` → `is not None`) `count(j in sac)` is
    the length of the zone: cheap, and so is a quantity that calls only it; a count under a condition iterates."""
    from checker.runtime.codegen import is_cheap
    path = tmp_path / "comptes.rules"
    path.write_text(CHEAP, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    engine = Engine(result.typed)
    assert is_cheap(engine, "taille") and is_cheap(engine, "taille_encore")
    assert not is_cheap(engine, "gros")
