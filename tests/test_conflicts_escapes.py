"""`rulebook conflicts` reports a rule that lists a category's actions one by one and leaves one out — the
weakness issue 23 names: a protection written as a list of the base game's rank-8 actions is silently escaped by
a house character's rank-8 action.  Written over the category (`forbid any action tagged …`), the rule covers
the new action and nothing is reported (checker/conflicts/escapes.py)."""

from __future__ import annotations

from pathlib import Path

from checker.cli import main
from checker.conflicts.questions import Search
from checker.conflicts.scope import Scope
from checker.front.check import check_paths
from conftest import ROOT
from test_language_constructs import GAME, checked, errors

CITADELLES = ROOT / "spec" / "citadelles"
FAN = ROOT / "spec" / "extension-fan"
SABOTEUR = ('overlay "Le Saboteur" on "Citadelles"\n'
            'action saboter(p: Player, q: Player, d: District) refines détruire tagged rang_8(p, q, d) '
            '"Détruire le quartier d de la cité de q."\n')

RULES = GAME + """
tag vise(p: Player, q: Player) "vise q"
action voler(p: Player, q: Player) tagged vise(p, q) "Voler." { transfer up to 1 from bourse[q] to bourse[p] }
action espionner(p: Player, q: Player, n: Int) tagged vise(p, q) "Espionner."
action troquer(p: Player, q: Player) tagged vise(p, q) "Troquer."
action donner(p: Player, q: Player) "Donner."
var paix: Player? = none public
procedure partie() { }
"""
PILLER = 'overlay "P" on "Jeu"\naction piller(p: Player, x: Int, q: Player) tagged vise(p, q) "Piller."\n'


def _escapes(result, scope_files=None) -> list:
    assert result.ok, errors(result)
    scope = Scope(result, scope_files) if scope_files else None
    return [f for f in Search(result.typed, scope=scope).dangling() if f.kind == "escape"]


def _fan_with_saboteur(tmp: Path):
    house = tmp / "saboteur.rules"
    house.write_text(SABOTEUR, encoding="utf-8")
    return check_paths([CITADELLES, FAN, house]), house


def test_a_house_rank_8_action_escapes_a_protection_that_lists_the_base_actions(tmp_path):
    """« Si l'Evêque n'est pas en jeu, on peut lui offrir la protection contre les personnages "rouges" » — the
    fan expansion's Abbé forbids the three rank-8 actions by name; a house rank-8 action is not among them."""
    result, house = _fan_with_saboteur(tmp_path)
    found = _escapes(result)
    assert [f.rules for f in found] == [("abbé_protégé_des_rouges", "saboter")]
    f = found[0]
    assert f.message.startswith("abbé_protégé_des_rouges forbids échanger, prendre, détruire_par_le_condottiere "
                                "(3 of the 4 actions tagged rang_8) but not saboter, which escapes it")
    assert "forbid any action tagged rang_8(…)" in f.message and not f.unresolved
    assert [Path(s.file).name for s in f.spans] == ["11-nouveaux-personnages-ii.rules", "saboteur.rules"]
    assert _escapes(result, [house]) == found, "the house file's own question"
    # the 4th edition writes its rank-8 protections over the category: the house action is covered, not reported
    assert _escapes(check_paths([CITADELLES, house])) == []


def test_the_bundled_rule_sets_have_no_action_escaping_a_listing():
    assert _escapes(check_paths([CITADELLES])) == []
    assert _escapes(check_paths([CITADELLES, FAN])) == []


def test_a_listing_is_reported_only_when_it_names_most_of_its_category(tmp_path):
    listing = "rule trêve { forbid voler(a, b) when b == paix\n forbid espionner(a, b, n) when b == paix }\n"
    assert [f.rules for f in _escapes(checked(tmp_path, RULES + listing))] == [("trêve", "troquer")]
    # two of four: the rule is about something else than the category
    assert _escapes(checked(tmp_path, RULES + listing, PILLER)) == []
    three = listing.replace("}\n", " forbid troquer(a, b) when b == paix }\n")
    assert [f.rules for f in _escapes(checked(tmp_path, RULES + three, PILLER))] == [("trêve", "piller")]
    # written over the category, the overlay's action is covered
    over = "rule trêve { forbid any action tagged vise(a, b) when b == paix }\n"
    assert _escapes(checked(tmp_path, RULES + over, PILLER)) == []
    # one action named: not a listing
    assert _escapes(checked(tmp_path, RULES + "rule r { forbid voler(a, b) when b == paix }\n")) == []


def test_conflicts_prints_it_without_changing_the_exit_code(tmp_path, capsys):
    listing = ("rule trêve { forbid voler(a, b) when b == paix\n forbid espionner(a, b, n) when b == paix\n"
               " forbid troquer(a, b) when b == paix }\n")
    base, overlay = tmp_path / "jeu.rules", tmp_path / "piller.rules"
    base.write_text(RULES + listing, encoding="utf-8")
    overlay.write_text(PILLER, encoding="utf-8")
    code = main(["conflicts", str(base), str(overlay)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "action escaping a rule about their category (1)" not in out
    assert "action escaping a rule about its category (1)" in out
    assert "trêve forbids voler, espionner, troquer (3 of the 4 actions tagged vise) but not piller" in out
    assert "1 action(s) escaping a rule about their category" in out
