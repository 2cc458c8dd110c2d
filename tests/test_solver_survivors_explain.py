"""`legal`'s explanation of a `can act(...)` that is false names the forbidding rules that apply and are not lifted
(checker/solver/explain.py): one rule "forbids" it, two "forbid" it, and a forbidding rule that does not apply here
is not named.  Survivors of the blind mutation sample -e (explain.py:79 and → or, explain.py:81 == → !=): no test
executed these lines."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine
from checker.solver.encode import Encoder
from checker.solver.explain import explain

GAME = """\
game "Veto" { players: 2..2  flow: partie }

kind Jeton { valeur: Int in 1..2  start: réserve }
zone réserve: pile of Jeton public
var vus: Int = 0

action jouer(p: Player) "Jouer." { set vus = vus + 1 }
action passer(p: Player) "Passer." { set vus = vus + 2 }
action finir(p: Player) "Finir." { set vus = vus + 3 }
action garder(p: Player) "Garder." { set vus = vus + 4 }

card Jeton "Un" { valeur: 1 }

procedure partie() {
  for p in players { offer p { jouer(p)  passer(p)  finir(p)  garder(p)  finish "Fin" } }
}

rule au_départ { forbid jouer(p) when vus == 0 }
rule toujours_pas { forbid jouer(p) when p == p }
rule plus_tard { forbid jouer(p) when vus == 5 }
rule seul_au_départ { forbid passer(p) when vus == 0 }
rule pas_sans_jouer { forbid passer(p) when not can jouer(p) }
rule pas_au_début { forbid garder(p) when vus == 0 }
rule pas_sans_garder { forbid finir(p) when not can garder(p) }

configuration "Tout" { include Jeton: "Un" }
"""


@pytest.fixture(scope="module")
def veto(tmp_path_factory):
    path = tmp_path_factory.mktemp("veto") / "veto.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    e = Engine(result.typed)
    e.recording = False
    selection = select(result.program, result.program.configurations["Tout"], 2)
    e.start(selection.cards, 2, 1, [None, None])
    return result, Encoder(e, concrete=True)


def _explained(veto, rule_name: str) -> list:
    result, enc = veto
    rule = result.program.rules[rule_name]
    head = rule.heads[0]
    return explain(enc, head.when, enc.rule_env(rule, head, (0,)))


def test_a_can_forbidden_by_two_rules_names_both_and_not_the_one_that_does_not_apply(veto):
    shown = [text for _where, text in _explained(veto, "pas_sans_jouer") if isinstance(text, str)]
    assert shown == ["Joueur 1", "non (au_départ, toujours_pas forbid it)"]


def test_a_can_forbidden_by_one_rule_says_forbids(veto):
    shown = [text for _where, text in _explained(veto, "pas_sans_garder") if isinstance(text, str)]
    assert shown == ["Joueur 1", "non (pas_au_début forbids it)"]
