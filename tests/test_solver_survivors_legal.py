"""`legal` on an action whose argument is drawn from an empty collection (checker/solver/legal.py `_outside`):
the move's value cannot come from the offer's collection, so the rules are read on the move's own values: the
verdict names the rule that forbids that value, and where no rule does, that the value is not drawn from the
collection.  Survivor of the blind
mutation sample -e (legal.py:236, an empty collection not taken as outside): no test of the solver set ran it."""

from __future__ import annotations

import json

from conftest import run_cli

GAME = """\
game "Reprise" { players: 2..2  flow: partie }

kind Carte { valeur: Int in 1..4  start: pioche }
zone pioche: pile of Carte public
zone défausse: pile of Carte public
zone main[Player]: set of Carte public

action reprendre(p: Player, c: Carte) "Reprendre une carte défaussée." { move c to main[p] }
action piocher(p: Player) "Piocher." { draw 1 from pioche to main[p] }

rule pas_les_fortes { forbid reprendre(p, c) when c.valeur >= 3 }

card Carte "Un" { valeur: 1 }
card Carte "Quatre" { valeur: 4 }

procedure partie() {
  for p in players { offer p { reprendre(p, c) for c in défausse  piocher(p)  finish "Passer" } }
}

configuration "Tout" { include Carte: "Un", "Quatre" }
"""


def _verdict(capsys, tmp_path, card: str, game: str = GAME) -> dict:
    spec = tmp_path / "reprise.rules"
    spec.write_text(game, encoding="utf-8")
    state = tmp_path / "etat.json"
    code, _, err = run_cli(capsys, "play", str(spec), "-n", "2", "-s", "1", "-q", "--state-at", "1", str(state))
    assert code == 0, err
    move = tmp_path / "coup.json"
    move.write_text(json.dumps({"player": "Joueur 1", "action": "reprendre", "args": ["Joueur 1", card]},
                               ensure_ascii=False), encoding="utf-8")
    code, out, _ = run_cli(capsys, "legal", str(state), str(move), "--json")
    verdict = json.loads(out)
    assert code == 1 and verdict["status"] == "illegal"
    return verdict


def test_a_card_not_in_the_empty_discard_is_refused_for_where_it_is_not_and_by_the_rule_on_its_value(capsys,
                                                                                                    tmp_path):
    reasons = _verdict(capsys, tmp_path, "Quatre")["reasons"]
    assert [(r["kind"], r["name"], r["says"]) for r in reasons] == [
        ("forbid", "pas_les_fortes", "rule pas_les_fortes forbids reprendre")], reasons


def test_a_card_no_rule_forbids_is_refused_only_for_where_it_is_not(capsys, tmp_path):
    reasons = _verdict(capsys, tmp_path, "Un")["reasons"]
    assert [(r["kind"], r["name"], r["says"]) for r in reasons] == [
        ("from", "for c in …", "c is not drawn from this collection")], reasons


PRICES = """\
game "Soldes" { players: 2..2  flow: partie }

kind Carte { valeur: Int in 1..4  start: pioche }
zone pioche: pile of Carte public
zone main[Player]: set of Carte public

quantity prix(c: Carte): Int = c.valeur
rule cher { value prix(c) = 9 when c.valeur <= 4 }
rule soldé { value prix(c) = 0 when c.valeur == 1 overrides cher }
rule trop_cher { forbid prendre(p, c) when prix(c) > 3 }

action prendre(p: Player, c: Carte) "Prendre une carte." { move c to main[p] }

card Carte "Un" { valeur: 1 }
card Carte "Deux" { valeur: 2 }

procedure partie() {
  for p in players { offer p { prendre(p, c) for c in pioche  finish "Passer" } }
}

configuration "Tout" { include Carte: "Un", "Deux" }
"""


def test_a_value_rule_that_overrides_another_gives_the_value_z3_reads(capsys, tmp_path):
    """Both value rules apply to « Un »; `soldé` overrides `cher` (the encoder orders the winners first,
    encode.py's ``ordered``), so its price is 0 and taking it is legal, as the interpreter offers it;
    « Deux » costs 9 and is forbidden by `trop_cher`."""
    spec = tmp_path / "soldes.rules"
    spec.write_text(PRICES, encoding="utf-8")
    state = tmp_path / "etat.json"
    code, _, err = run_cli(capsys, "play", str(spec), "-n", "2", "-s", "1", "-q", "--state-at", "1", str(state))
    assert code == 0, err
    verdicts = {}
    for card in ("Un", "Deux"):
        move = tmp_path / f"{card}.json"
        move.write_text(json.dumps({"player": "Joueur 1", "action": "prendre", "args": ["Joueur 1", card]},
                                   ensure_ascii=False), encoding="utf-8")
        code, out, _ = run_cli(capsys, "legal", str(state), str(move), "--json")
        verdicts[card] = (code, json.loads(out)["status"])
    assert verdicts == {"Un": (0, "legal"), "Deux": (1, "illegal")}, verdicts
