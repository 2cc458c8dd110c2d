"""`rulebook conflicts` with a house-rule file: only the questions that involve the file are searched (what
the base game settles by itself is not reported again), `--all-rules` searches them all, and every witness
has as few players, cards and changed vars as the rules allow."""

from __future__ import annotations

import json
from pathlib import Path

import z3

from checker.front.check import check_paths
from checker.conflicts.questions import Search
from checker.conflicts.scope import Scope
from checker.solver.minimise import count_true, smallest
from conftest import ROOT

GAME = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"
FREE = 'rule lot_gratuit { permit acheter(p, l) when l == "Cannelle" }\n'


def _conflicts(capsys, *argv) -> tuple[int, dict]:
    from checker.cli import main
    code = main(["conflicts", *map(str, argv), "--all", "--json"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, json.loads(out)


def _pairs(report: dict, kind: str | None = None) -> set:
    return {tuple(f["rules"]) for f in report["findings"] if kind is None or f["kind"] == kind}


def test_a_house_rule_that_brings_a_conflict_is_reported_and_the_bases_settled_pair_is_not(tmp_path, capsys):
    house = tmp_path / "maison.rules"
    house.write_text(FREE, encoding="utf-8")
    code, scoped = _conflicts(capsys, GAME, house)
    assert code == 1
    assert _pairs(scoped, "contradiction") == {("lot_gratuit", "payer"), ("lot_gratuit", "un_lot_par_épice")}
    assert all("lot_gratuit" in f["rules"] for f in scoped["findings"])
    assert scoped["searched"] < scoped["questions"] and scoped["involving"] == [str(house)]
    # the base's own exception, settled by `overrides`, is there only when every question is searched
    code, everything = _conflicts(capsys, GAME, house, "--all-rules")
    assert code == 1 and everything["searched"] == everything["questions"] == scoped["questions"]
    assert ("marchand_de_safran", "un_lot_par_épice") in _pairs(everything, "resolved")
    assert ("marchand_de_safran", "un_lot_par_épice") not in _pairs(scoped)
    # scoping drops no finding that names the file's rule
    assert {p for p in _pairs(everything) if "lot_gratuit" in p} == _pairs(scoped)


def test_a_replaced_quantity_brings_the_base_rules_that_read_it_into_scope(tmp_path):
    """The file changes no rule, but `payer` reads the quantity it replaces: the questions about `payer` are
    the file's business, those about rules that read nothing it changes are not."""
    house = tmp_path / "prix.rules"
    house.write_text('overlay "Prix doublés" on "Marché aux épices"\n'
                     'replace quantity prix_payé(p: Player, l: Lot): Int = 2 * l.prix\n', encoding="utf-8")
    result = check_paths([GAME, house])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    scope = Scope(result, [house])
    rules, act = result.program.rules, "acheter"
    assert scope.contradiction(rules["marchand_de_safran"], rules["payer"], act)
    assert not scope.contradiction(rules["marchand_de_safran"], rules["un_lot_par_épice"], act)
    assert scope.dead(rules["remise"], rules["remise"].heads[0]) is False


def test_an_added_card_brings_in_the_rules_that_read_an_attribute_value_it_is_the_first_to_have(tmp_path):
    """A lot at a price no lot had may make `payer` apply where it could not; a lot like the others may not."""
    for price, involved in ((4, True), (5, False)):
        house = tmp_path / f"lot{price}.rules"
        house.write_text(f'card Lot "Vanille" {{ épice: safran  prix: {price} }}\n', encoding="utf-8")
        result = check_paths([GAME, house])
        assert result.ok, [d.message for d in result.reporter.diagnostics]
        scope, rules = Scope(result, [house]), result.program.rules
        assert scope.contradiction(rules["marchand_de_safran"], rules["payer"], "acheter") is involved
        assert not scope.contradiction(rules["marchand_de_safran"], rules["un_lot_par_épice"], "acheter")


def test_the_bâtisseuse_is_checked_without_the_fourth_editions_own_pairs():
    """The Carrière's pairs are the 4th edition's own business: not searched with the tutorial's file."""
    paths = [ROOT / "spec" / "citadelles", ROOT / "spec" / "maison" / "bâtisseuse.rules"]
    result = check_paths(paths)
    assert result.ok
    scope = Scope(result, [paths[1]])
    pair = {("carrière_doublons", "échevin_pas_de_doublon")}
    assert Search(result.typed, scope=scope).contradictions(only=pair) == []
    found = Search(result.typed).contradictions(only=pair)
    assert [f.kind for f in found] == ["resolved"]
    mine = Search(result.typed, scope=scope).contradictions(only={("bâtisseuse_doublons", "capitaine_pas_de_doublon")})
    assert [f.kind for f in mine] == ["contradiction"]


def _size(finding) -> tuple[int, int, int]:
    """(players, cards placed, vars away from their start) of a witness state file."""
    state = finding.witness
    cards = [c for zone in state["zones"].values()
             for c in (zone if isinstance(zone, list) else [c for cs in zone.values() for c in cs])]
    assert len(cards) == len(set(cards)), "a card in two places"
    changed = sum(1 for v in state["vars"].values() for x in (v.values() if isinstance(v, dict) else [v])
                  if x not in (0, False, None))
    return state["players"], len(cards), changed


def test_a_witness_has_the_fewest_players_and_cards_the_conflict_needs():
    """The Capitaine's duplicate needs three players (the Bâtisseuse is of rank 9, not for two:
    pas_de_rang_9_à_2_joueurs) and two copies of one district (the one taken, the one already in the city);
    left to Z3's model, the witness is much larger."""
    result = check_paths([ROOT / "spec" / "citadelles", ROOT / "spec" / "maison" / "bâtisseuse.rules"])
    pair = {("bâtisseuse_doublons", "capitaine_pas_de_doublon")}
    loose = Search(result.typed)
    loose.minimal = False
    small, = Search(result.typed).contradictions(only=pair)
    big, = loose.contradictions(only=pair)
    assert small.confirmed is True and big.confirmed is True
    players, cards, changed = _size(small)
    assert (players, cards) == (3, 2)
    assert _size(big)[:2] > (players, cards)
    assert changed <= _size(big)[2]


def test_smallest_tightens_each_objective_in_turn():
    x, y = z3.Ints("x y")
    flags = [z3.Bool(f"b{i}") for i in range(6)]
    s = z3.Solver()
    s.add(x + y >= 7, x >= 0, y >= 0, x <= 50, y <= 50, z3.Implies(x < 3, z3.And(flags[:4])))
    assert s.check() == z3.sat
    found = smallest(s, s.model(), [(x, 0), (count_true(flags), 0), (y, 0)])
    assert found.values == [0, 4, 7] and found.undecided == 0
    assert s.check() == z3.sat      # the bounds found are kept: what is left is the smallest model


def test_smallest_from_the_floor_finds_the_same_values_in_fewer_checks():
    """Bounds tried up from the least value first (the conflict search's witnesses): the same smallest values as the
    binary search from a large first model, far and near the floor, in fewer checks when it is near."""
    x, y = z3.Ints("x y")
    flags = [z3.Bool(f"b{i}") for i in range(40)]

    def solver(least_x: int):
        s = z3.Solver()
        s.add(x >= least_x, x <= 100, y >= 0, y <= 100, x + y >= 60, z3.Implies(x < 30, z3.AtLeast(*flags[:3], 3)))
        s.add(z3.And(flags[30:]))           # the first model has 10 flags at least
        s.push()
        s.add(x == 100, y == 100)
        assert s.check() == z3.sat
        model = s.model()
        s.pop()
        return s, model
    for least_x, expected in ((0, [0, 13, 60]), (37, [37, 10, 23])):
        found = {}
        for from_floor in (False, True):
            s, model = solver(least_x)
            found[from_floor] = smallest(s, model, [(x, 0), (count_true(flags), 0), (y, 0)], checks=12,
                                         from_floor=from_floor)
            assert found[from_floor].values == expected and found[from_floor].undecided == 0
            assert s.check() == z3.sat
            assert [found[from_floor].model.eval(t, model_completion=True).as_long() for t in (x, y)] == \
                [expected[0], expected[2]]
    # a smallest witness near the floor, from a large first model: found from below in fewer checks
    checks = {}
    for from_floor in (False, True):
        s = z3.Solver()
        s.add(x >= 1, x <= 100, z3.AtLeast(*flags[:2], 2))
        s.push()
        s.add(x == 100, z3.And(flags))
        assert s.check() == z3.sat
        model = s.model()
        s.pop()
        found = smallest(s, model, [(x, 0), (count_true(flags), 0)], checks=12, from_floor=from_floor)
        assert found.values == [1, 2] and found.undecided == 0
        checks[from_floor] = found.checks
    assert checks[True] < checks[False]
