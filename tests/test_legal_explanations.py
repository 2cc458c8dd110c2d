"""`rulebook legal`'s explanations say what is true of the move: a legal move is explained by the
conditions it meets (never by the text of a condition it would fail), a permission is a reason only for
the prohibitions it lifts, an illegal move by the atoms of the forbidding condition with their values;
and `legal` and `conflicts` call the same permission/prohibition pairs unresolved (one definition,
:meth:`checker.solver.search.SymbolicSearch.claim`)."""

from __future__ import annotations

import copy
import json

from checker.conflicts.questions import Search
from checker.solver.legal import Legality
from checker.solver.statefile import load_state
from conftest import bundled
from test_solver import base_states, engine, offer_state, run, scopes


def _échevin_state(**vars_) -> dict:
    """A turn's offer: Joueur 1 plays the Roi, who carries the Échevin's signed warrant; Joueur 2 holds
    the Échevin and has a Carrière in his city."""
    state = copy.deepcopy(next(s for s in base_states() if s["decision"]["kind"] == "offer"))
    state["selection"]["Character"] = ["Assassin", "Échevin", "Magicienne", "Roi", "Évêque", "Marchande",
                                       "Architecte", "Condottiere"]
    if "Carrière" not in state["selection"]["District"]:
        state["selection"]["District"].append("Carrière")
    state["zones"] = {"cité": {"Joueur 2": ["Carrière", "Temple"]}, "main": {"Joueur 1": ["Temple#2", "Manoir"]},
                      "choisis": {"Joueur 2": ["Échevin"], "Joueur 1": ["Roi"]}}
    state["vars"] = {"trésor": {"Joueur 1": 5, "Joueur 2": 5}, "personnage_actif": "Roi",
                     "joueur_actif": "Joueur 1", "mandat": {"Roi": "signé"}, "construction_payée": True,
                     "constructions_payées": 1, **vars_}
    state["decision"] = {"kind": "offer", "at": "01-partie.rules:240:3", "player": "Joueur 1",
                         "names": {"p": "Joueur 1", "c": "Roi"}}
    state["spec"] = ["spec/citadelles"]
    return state


def _judge(state: dict, move: tuple):
    e = engine()
    loaded = load_state(e, state, scopes())
    return e, Legality(e, scopes()).check(loaded.point, move, None)


def _write(tmp_path, state: dict, move: dict) -> tuple[str, str]:
    (tmp_path / "state.json").write_text(json.dumps(state, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "move.json").write_text(json.dumps(move, ensure_ascii=False), encoding="utf-8")
    return str(tmp_path / "state.json"), str(tmp_path / "move.json")


# ---------------------------------------------------------------- (a) no false reason under a legal verdict

def test_every_legal_move_is_explained_by_the_conditions_it_meets():
    """For every move `moves` lists in sampled states, `legal` says legal, and every condition it shows is
    said as met (« d = Temple is drawn from this collection »), never as the failure it would be."""
    checked = 0
    for state in base_states()[:8]:
        e = engine()
        loaded = load_state(e, copy.deepcopy(state), scopes())
        legality = Legality(e, scopes())
        for move in legality.moves(loaded.point):
            verdict = legality.check(loaded.point, move, None)
            assert verdict.legal, move
            for r in verdict.reasons:
                if r.kind in ("permit", "forbid"):
                    continue
                assert r.ok and (r.text == r.ok or r.term is not None and r.text.split(" = ")[0] in r.ok), r.text
                for failure in ("is not drawn", "is not among", "is used up", "is false", "must be"):
                    assert failure not in r.text, (move, r.text)
            checked += 1
    assert checked >= 20


def test_a_legal_build_shows_the_district_drawn_from_the_hand(capsys, tmp_path):
    state, move = _write(tmp_path, _échevin_state(), {"player": "Joueur 1", "action": "bâtir",
                                                      "args": ["Joueur 1", "Manoir"]})
    code, out, _ = run(capsys, "legal", state, move)
    assert code == 0 and out.startswith("legal: bâtir(Joueur 1, Manoir)")
    assert "d = Manoir is drawn from this collection" in out
    assert "is not drawn" not in out and "(no rule forbids it)" in out


def test_a_permission_that_lifts_nothing_is_not_the_reason_a_move_is_legal(capsys, tmp_path):
    """The Carrière (« Le propriétaire de la Carrière peut bâtir autant de quartiers identiques qu'il le
    souhaite ») permits Joueur 2's confiscation of a Manoir, but the move is legal because nothing forbids
    it, not because of the Carrière."""
    state = _échevin_state()
    state["zones"]["main"] = {"Joueur 1": ["Temple#2"]}
    state_file, move = _write(tmp_path, state, {"player": "Joueur 1", "action": "confisquer",
                                                "args": ["Joueur 2", "Manoir"]})
    e, verdict = _judge(state, ("action", "confisquer", (1, e_card(state, "Manoir"))))
    assert verdict.legal and not verdict.offered
    permits = [r for r in verdict.reasons if r.kind == "permit"]
    assert [r.name for r in permits] == ["carrière_doublons"]
    assert permits[0].text == "rule carrière_doublons also permits it, but no prohibition it lifts applies here"
    code, out, _ = run(capsys, "legal", state_file, move)
    assert code == 0 and "(no rule forbids it)" in out


def e_card(state: dict, name: str) -> int:
    e = engine()
    load_state(e, copy.deepcopy(state), scopes())
    return e.card(name)


# ---------------------------------------------------------------- (c) the values that forbid

def test_an_assassinated_character_cannot_be_robbed_and_the_explanation_says_so(capsys, tmp_path):
    """Voleur : « Vous ne pouvez voler ni le personnage de rang 1 … ni le personnage assassiné ou ensorcelé. »
    The explanation shows the atom that forbids, with its value, and the value of c."""
    state = _échevin_state(assassiné={"Évêque": True})
    state_file, move = _write(tmp_path, state, {"player": "Joueur 1", "action": "voler",
                                                "args": ["Joueur 1", "Évêque"]})
    code, out, _ = run(capsys, "legal", state_file, move)
    assert code == 1 and "voleur_cibles" in out
    assert "where c = Évêque, assassiné[c] = oui" in out
    assert "c.rank" not in out.split("where")[-1], "the false disjuncts do not decide it"


def test_a_failed_where_shows_the_can_and_the_rule_behind_it(capsys, tmp_path):
    e, loaded = offer_state(**{"vars/assassiné": {"Évêque": True}})
    legality = Legality(e, scopes())
    verdict = legality.check(loaded.point, ("action", "voler", (0, e.card("Évêque"))), None)
    shown = dict((k, v) for k, v in verdict.reasons[0].values if isinstance(k, str))
    assert shown == {"c": "Évêque"}
    assert "oui" in [v for k, v in verdict.reasons[0].values if not isinstance(k, str)]


# ---------------------------------------------------------------- (b) one definition of "unresolved"

def test_a_permission_that_is_an_exception_to_other_rules_is_no_conflict_in_legal_either(capsys, tmp_path):
    """The Carrière overrides pas_de_doublon only (« Quelques précisions sur les Merveilles », Carrière).
    A confiscation of a district that was not paid is forbidden by the Échevin's rule; the Carrière, which
    applies, is an exception to other rules: `conflicts` finds no conflict between them, and `legal` does
    not call it one."""
    pair = ("carrière_doublons", "échevin_quartier_payé")
    search = Search(bundled().typed)
    assert [f for f in search.contradictions(only={pair}) if f.unresolved] == []
    program = bundled().program
    permit, forbid = program.rules[pair[0]], program.rules[pair[1]]
    assert search.claim(permit, permit.heads[0], forbid, forbid.heads[0]).status == "unrelated"

    state = _échevin_state(construction_payée=False)
    state_file, move = _write(tmp_path, state, {"player": "Joueur 1", "action": "confisquer",
                                                "args": ["Joueur 2", "Manoir"]})
    _, verdict = _judge(state, ("action", "confisquer", (1, e_card(state, "Manoir"))))
    assert verdict.status == "illegal"
    claims = {(p, f): c for p, f, c in verdict.overruled}
    assert claims[pair].status == "unrelated" and not claims[pair].unresolved
    code, out, _ = run(capsys, "legal", state_file, move)
    assert code == 1 and "unresolved conflict" not in out
    assert "carrière_doublons permits it only as an exception to pas_de_doublon" in out
