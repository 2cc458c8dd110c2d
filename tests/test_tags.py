"""Categories of actions (`tag`, `tagged`, `forbid any action tagged …`): the 4th edition's protections
against the rank-8 powers are written over a category, so a house character's action is covered by
tagging it, without the protections naming it (docs/language.md, *Categories*)."""

from __future__ import annotations

import functools
from pathlib import Path

from checker.front import ast
from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine
from checker.runtime.agents import ScriptedAgent
from checker.front.tags import rename
from conftest import ROOT
from test_language_constructs import GAME, checked, errors

CITADELLES = ROOT / "spec" / "citadelles"
DÉMOLISSEUSE = ROOT / "spec" / "maison" / "démolisseuse.rules"


@functools.cache
def _house():
    result = check_paths([CITADELLES, DÉMOLISSEUSE])
    assert result.ok, errors(result)
    return result


def _game(config: str, players: int, swap: dict[str, str], extra: tuple[str, ...] = ()):
    result = _house()
    program = result.program
    cards = {kind: tuple(swap.get(n, n) for n in names)
             for kind, names in select(program, program.configurations[config], players).cards.items()}
    cards["District"] = tuple(dict.fromkeys(cards["District"] + extra))
    e = Engine(result.typed)
    st = e.start(cards, players, 0, [ScriptedAgent([]) for _ in range(players)])
    return e, st


def _give(e, st, player: int, zone: str, name: str) -> int:
    card = next(c for c in e.instances[e.def_ids[name]] if st.where[c][0] == "pioche")
    st.put(card, zone, player, "top")
    return card


def test_the_rank_8_protections_are_one_head_per_tagged_action():
    program = check_paths([CITADELLES]).program
    heads = lambda rule: [(h.pattern.name, tuple(b for b, _ in h.pattern.binders))   # noqa: E731
                          for h in program.rules[rule].heads]
    assert heads("évêque_protège") == [("échanger", ("p", "d", "q", "_x")), ("prendre", ("p", "d", "q")),
                                       ("détruire_par_le_condottiere", ("p", "q", "d"))]
    # the exchange's second use (the district the Diplomate gives, from his own city) protects the Donjon
    # either way; for the Évêque it reads `p != p` and is left out
    assert heads("donjon_hors_d_atteinte_du_rang_8") == [
        ("échanger", ("p", "d", "q", "_x")), ("échanger", ("p", "_d", "_q", "d")), ("prendre", ("p", "d", "q")),
        ("détruire_par_le_condottiere", ("p", "q", "d"))]
    assert all(not h.tagged for r in program.rules.values() for h in r.heads)


def test_eveque_protects_against_a_house_rank_8_character_without_naming_it():
    """« Vos quartiers ne peuvent pas étre affectés par les pouvoirs des personnages de rang 8 » — the
    Démolisseuse (spec/maison/démolisseuse.rules) tags its action `rang_8`; neither the Évêque's rule nor the
    Donjon's names it, and both forbid it."""
    bishop, wrecker, other = 1, 2, 3
    e, st = _game("Première partie", 4, {"Condottiere": "Démolisseuse"}, ("Donjon",))
    st.put(e.card("Évêque"), "choisis", bishop, "top")
    st.put(e.card("Démolisseuse"), "choisis", wrecker, "top")
    temple = _give(e, st, bishop, "cité", "Temple")
    donjon = _give(e, st, other, "cité", "Donjon")
    church = _give(e, st, other, "cité", "Église")
    st.vars["trésor"][wrecker] = 5
    st.vars["personnage_actif"] = e.card("Démolisseuse")
    legal, forbidding, _, _ = e.legal("démolir", (wrecker, bishop, temple))
    assert not legal and forbidding == ["évêque_protège"]
    legal, forbidding, _, _ = e.legal("démolir", (wrecker, other, donjon))
    assert not legal and forbidding == ["donjon_hors_d_atteinte_du_rang_8"]
    assert e.legal("démolir", (wrecker, other, church))[0]
    st.vars["assassiné"][e.card("Évêque")] = True          # « vous n'êtes plus Évêque ; vous êtes mort »
    assert e.legal("démolir", (wrecker, bishop, temple))[0]


RULES = GAME + """
tag vise(p: Player, q: Player) "vise q"
action voler(p: Player, q: Player) tagged vise(p, q) "Voler." { transfer up to 1 from bourse[q] to bourse[p] }
action espionner(p: Player, q: Player, n: Int) tagged vise(p, q) "Espionner."
action donner(p: Player, q: Player) "Donner."
var paix: Player? = none public
procedure partie() { }
"""


def test_a_rule_about_every_targeting_action_is_one_rule(tmp_path):
    result = checked(tmp_path, RULES + "rule trêve { forbid any action tagged vise(a, b) when b == paix }")
    assert result.ok, errors(result)
    rule = result.program.rules["trêve"]
    assert [(h.pattern.name, [b for b, _ in h.pattern.binders]) for h in rule.heads] == [
        ("voler", ["a", "b"]), ("espionner", ["a", "b", "_n"])]
    # an overlay's new action is covered by tagging it
    result = checked(tmp_path, RULES + "rule trêve { forbid any action tagged vise(a, b) when b == paix }",
                     'overlay "V" on "Jeu"\naction piller(p: Player, x: Int, q: Player) tagged vise(p, q) "Piller."')
    assert result.ok, errors(result)
    assert [h.pattern.name for h in result.program.rules["trêve"].heads] == ["voler", "espionner", "piller"]
    e = Engine(result.typed)
    e.start({"Carte": ()}, 2, 0, [ScriptedAgent([]), ScriptedAgent([])])
    e.st.vars["paix"] = 1
    assert e.legal("piller", (0, 3, 1))[:2] == (False, ["trêve"])
    assert e.legal("piller", (1, 3, 0))[0] and e.legal("donner", (0, 1))[0]


def test_tag_mistakes_are_located(tmp_path):
    result = checked(tmp_path, RULES + 'action lancer(p: Player, c: Carte) tagged vize(p, p), vise(p), vise(p, c) "x"\n'
                     "rule r { forbid any action tagged vise(a) }\nrule s { forbid any action tagged viser(a, b) }")
    assert errors(result) == [
        "E0202: unknown tag 'vize'",
        "E0302: tag 'vise' has 2 parameter(s), this use gives 1",
        "E0301: 'c' is a Carte; tag 'vise' takes a Player here",
        "E0302: tag 'vise' has 2 parameter(s), the rule binds 1",
        "E0202: unknown tag 'viser'",
    ]
    assert result.reporter.errors[0].hint == "did you mean 'vise'?"
    result = checked(tmp_path, GAME + 'tag t(p: Player) "t"\nprocedure partie() { }\n'
                     "rule r { forbid any action tagged t(a) }")
    assert [d.code for d in result.reporter.diagnostics if d.severity.value == "warning"] == ["W0703"]


def test_renaming_leaves_a_name_an_aggregate_binds():
    span = ast.Span("x", 1, 1, 1, 1)
    q = ast.Name("q", span)
    inner = ast.Aggregate("any", "q", ast.Name("players", span), ast.Binary("==", q, ast.Name("p", span), span),
                          True, span, span)
    expr = ast.Binary("and", ast.Binary("==", q, ast.Name("p", span), span), inner, span)
    out = rename(expr, {"q": "p"})
    assert out.left.left.id == "p"
    assert out.right.body.left.id == "q"        # the aggregate's own q


def test_the_fan_expansion_keeps_its_replaced_attacks_in_their_category():
    """A `replace action` has the categories its replacement declares: the fan's attacks say them again."""
    from checker.front.tags import tagged_actions
    program = check_paths([CITADELLES, ROOT / "spec" / "extension-fan"]).program
    names = {a.name for a, _ in tagged_actions(program, "vise_un_personnage")}
    assert {"assassiner", "voler", "ensorceler", "menacer", "mandater"} <= names
