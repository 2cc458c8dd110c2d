"""Hook points and `extend procedure`: house rules that add to a base procedure without copying it, and
combine with each other (docs/language.md, *Hooks*)."""

from __future__ import annotations

import json
from pathlib import Path

from checker.front import ast
from checker.front.check import check_paths
from conftest import ROOT, run_cli
from test_language_constructs import GAME, checked, errors

MARCHÉ = ROOT / "spec" / "maison" / "marché.rules"
DÎME = ROOT / "spec" / "maison" / "dîme.rules"
CITADELLES = ROOT / "spec" / "citadelles"


def _bodies(program):
    for proc in program.procedures.values():
        yield proc.body
    for action in program.actions.values():
        yield action.body or ()
    for card in program.cards.values():
        for power in card.powers:
            yield power.body


def test_no_hook_point_survives_collection():
    """Collect splices every hook: the interpreter, the Z3 encoding and the book read plain procedures."""
    for paths in ([CITADELLES], [CITADELLES, MARCHÉ, DÎME], [CITADELLES, ROOT / "spec" / "extension-fan"]):
        result = check_paths(paths)
        assert result.ok, errors(result)
        for body in _bodies(result.program):
            assert not [n for n in ast.walk(body) if isinstance(n, (ast.HookStmt, ast.OfferHook))]


def test_the_4th_edition_names_its_natural_points():
    program = check_paths([CITADELLES]).program
    points = {(p.procedure, p.name) for ps in program.hook_points.values() for p in ps}
    assert {("tour_de_jeu", "début_de_manche"), ("tour_de_jeu", "choix"), ("tour_de_jeu", "fin_de_manche"),
            ("choix_standard", "écarter"), ("choix_standard", "choisir"), ("tour", "début_du_tour"),
            ("tour", "ressources"), ("suite_du_tour", "actions"), ("suite_du_tour", "fin_du_tour"),
            ("partie", "fin_de_partie"), ("décompte", "scores")} <= points


def test_two_house_rules_extend_the_same_base_and_combine(capsys):
    """« Le marché » adds an option to every turn's offer and a step to the start of each turn; « La dîme »
    adds a step at the end of each round.  Used together, a game has both: cards bought at the market and
    tithes paid at the end of rounds; the base's own steps are all still there."""
    result = check_paths([CITADELLES, MARCHÉ, DÎME])
    assert result.ok, errors(result)
    program = result.program
    offer = next(s for s in program.procedures["suite_du_tour"].body if isinstance(s, ast.Offer))
    actions = [i.action for i in offer.items if isinstance(i, ast.OfferAction)]
    assert actions == ["bâtir", "bâtir_en_détruisant_le_chantier", "bâtir_la_nécropole", "bâtir_le_tripot",
                       "acheter_une_carte"]
    round_body = program.procedures["tour_de_jeu"].body
    assert isinstance(round_body[-2], ast.Signal) and round_body[-2].window == "fin_des_appels"
    assert isinstance(round_body[-1], ast.For) and round_body[-1].span.file.endswith("dîme.rules")
    assert isinstance(program.procedures["tour"].body[1], ast.SetVar)       # before début_du_tour
    bought = tithes = 0
    for seed in range(4):
        code, out, _ = run_cli(capsys, "play", str(CITADELLES), str(MARCHÉ), str(DÎME), "-c", "Violente", "-n", "4",
                               "-s", str(seed), "--json")
        assert code == 0
        events = json.loads(out)["events"]
        for e in events:
            if e["kind"] == "decision" and isinstance(e.get("chosen"), int):
                bought += str(e["options"][e["chosen"]]).startswith("acheter_une_carte")
            tithes += e["kind"] == "log" and "Dîme" in json.dumps(e, ensure_ascii=False)
    assert bought > 0 and tithes > 0


def test_conflicts_and_diff_read_the_combined_house_rules(capsys):
    code, out, err = run_cli(capsys, "conflicts", str(CITADELLES), str(MARCHÉ), str(DÎME))
    assert code == 0, out + err
    code, out, err = run_cli(capsys, "diff", str(CITADELLES), "--with", str(MARCHÉ), str(DÎME), "--first")
    # the round's procedure has a step more; the whole procedure cannot be encoded (it moves the round counter,
    # calls the turns, makes offers), but the steps before the new one are the same on both sides: from the first
    # step that differs, the tithe gives a coin to a player who has none, and both interpreters replay it.  The
    # market's new option is an action only B has; the turn's procedures it extends make offers: undecided, said so
    assert code == 1, out + err
    assert "action acheter_une_carte is only in B" in out
    assert "procedure suite_du_tour differs, and what it does cannot be compared" in out
    assert "procedure tour_de_jeu: from the same state and choices, A and B do different things" in out
    assert "compared from its first step that differs (spec/maison/dîme.rules:13:5)" in out
    assert "= 0 in A, 1 in B" in out and "the interpreter, on the witness: agrees" in out


def test_a_procedure_whose_steps_from_the_first_that_differs_reach_an_offer_stays_undecided(tmp_path):
    """Compared from its first step that differs, a procedure's rest must still be encoded: here an offer
    follows the new step (a decision point, not part of one transition), so it is undecided, never the same."""
    from checker.diff.pair import Side
    from checker.diff.run import diff_results
    paths = []
    for i, text in enumerate((BASE, overlay('extend procedure partie { after milieu { set total = 5 } }'))):
        paths.append(tmp_path / f"{i:02d}.rules")
        paths[-1].write_text(text, encoding="utf-8")
    a, b = check_paths(paths[:1]), check_paths(paths)
    assert a.ok and b.ok, errors(a) + errors(b)
    result = diff_results(Side("a", a, paths[:1]), paths[:1], b, paths)
    assert result.status == "undecided"
    [undecided] = result.undecided
    assert "the effect of `Offer` is not encoded" in undecided.message


BASE = GAME + """
var total: Int = 0 public
procedure partie() {
  hook début
  hook milieu { set total = total + 1 }
  let p = only(q in players where true)
  offer p {
    hook options
    finish "fin"
  }
}
action gagner(p: Player) { transfer 1 from banque to bourse[p] }
"""


def overlay(body: str) -> str:
    return 'overlay "V" on "Jeu"\n' + body


def test_extensions_apply_in_overlay_order_around_the_step(tmp_path):
    result = checked(tmp_path, BASE,
                     overlay('extend procedure partie { before milieu { log "a-avant" } after milieu { log "a-après" } }'),
                     overlay('extend procedure partie { before milieu { log "b-avant" } after milieu { log "b-après" } }'))
    assert result.ok, errors(result)
    body = result.program.procedures["partie"].body
    texts = [s.template if isinstance(s, ast.Log) else type(s).__name__ for s in body]
    assert texts == ["a-avant", "b-avant", "SetVar", "a-après", "b-après", "Let", "Offer"]


def test_a_precedence_between_named_extensions_orders_them(tmp_path):
    result = checked(tmp_path, BASE,
                     overlay('extend procedure partie as a { after milieu { log "a" } }'),
                     overlay('extend procedure partie as b { after milieu { log "b" } }\nprecedence b over a { }'))
    assert result.ok, errors(result)
    body = result.program.procedures["partie"].body
    assert [s.template for s in body if isinstance(s, ast.Log)] == ["b", "a"]
    assert not result.program.precedences           # ordering extensions is not a precedence between rules


def test_two_extensions_that_change_the_same_var_at_one_point_are_reported(tmp_path):
    a = overlay('extend procedure partie as a { after milieu { set total = 0 } }')
    b = overlay('extend procedure partie as b { after milieu { set total = 5 } }')
    result = checked(tmp_path, BASE, a, b)
    assert errors(result) == ["E0504: two extensions of 'partie' at 'milieu' both change 'total': the result "
                              "depends on their order, which no precedence states"]
    result = checked(tmp_path, BASE, a, b + "\nprecedence a over b { }")
    assert result.ok, errors(result)


def test_two_extensions_that_add_the_same_option_are_reported(tmp_path):
    a = overlay('extend procedure partie { add to options { gagner(p) } }')
    result = checked(tmp_path, BASE, a, a)
    assert [e.split(":")[0] for e in errors(result)] == ["E0504"]
    result = checked(tmp_path, BASE, a)
    assert result.ok, errors(result)
    offer = result.program.procedures["partie"].body[-1]
    assert [type(i).__name__ for i in offer.items] == ["OfferAction", "OfferFinish"]


def test_an_unknown_point_or_procedure_is_located_with_a_suggestion(tmp_path):
    result = checked(tmp_path, BASE, overlay('extend procedure partie { after milieux { log "x" } }'))
    assert errors(result) == ["E0501: procedure 'partie' has no hook point 'milieux'"]
    assert result.reporter.errors[0].hint == "did you mean 'milieu'?"
    assert result.reporter.errors[0].span.file.endswith("01.rules")
    result = checked(tmp_path, BASE, overlay('extend procedure partiee { after milieu { log "x" } }'))
    assert errors(result) == ["E0501: `extend procedure` names procedure 'partiee' that the rule set does not declare"]
    result = checked(tmp_path, BASE, overlay('extend procedure partie { add to milieu { gagner(p) } }'))
    assert errors(result) == ["E0301: 'milieu' is a step of 'partie': extend it with `before` or `after`"]


def test_extend_procedure_is_only_for_overlays_and_hooks_only_in_procedures(tmp_path):
    result = checked(tmp_path, BASE + 'extend procedure partie { after milieu { log "x" } }')
    assert errors(result) == ["E0502: `remove`, `replace` and `extend` are only allowed in an overlay"]
    result = checked(tmp_path, BASE.replace("{ transfer 1", "{ hook h\n transfer 1"))
    assert errors(result) == ["E0301: hook point 'h' is not in a procedure: only procedures have hook points"]


def test_an_extension_runs_with_the_procedure_s_names(tmp_path):
    """An extension's statements are the procedure's: they see its parameters and locals, and run in play."""
    from checker.runtime import Engine
    from checker.runtime.agents import ScriptedAgent
    base = GAME + """
procedure partie() { for q in players { call payer(q, 2) } }
procedure payer(q: Player, n: Int) {
  let double = n * 2
  hook paie { transfer n from banque to bourse[q] }
}
"""
    result = checked(tmp_path, base, overlay(
        'extend procedure payer { after paie { transfer double from banque to bourse[q] } }'))
    assert result.ok, errors(result)
    e = Engine(result.typed)
    e.start({"Carte": ()}, 1, 0, [ScriptedAgent([])])
    e.call("partie", ())
    assert e.st.vars["bourse"] == {0: 6}


def test_the_editor_index_reads_extensions_and_hook_points():
    """An extension's names are indexed: the procedure it extends, and its uses of that procedure's parameters."""
    from checker.lsp.index import build_index
    result = check_paths([CITADELLES, MARCHÉ, DÎME])
    index = build_index(result)
    seen = {(o.symbol.kind, o.symbol.name) for occurrences in index.occurrences.values() for o in occurrences
            if o.span.file.endswith("marché.rules")}
    assert {("procedure", "suite_du_tour"), ("procedure", "tour"), ("local", "p"), ("action", "acheter_une_carte"),
            ("var", "marché_fait")} <= seen


def test_replace_and_only_change_a_step_and_two_replacements_need_a_precedence(tmp_path):
    result = checked(tmp_path, BASE, overlay('extend procedure partie { replace milieu { set total = 7 } '
                                             'only milieu when player_count > 2 after milieu { log "x" } }'))
    assert result.ok, errors(result)
    body = result.program.procedures["partie"].body
    assert isinstance(body[0], ast.If) and isinstance(body[0].then[0], ast.SetVar)
    assert body[0].then[0].value.value == 7 and isinstance(body[1], ast.Log)
    a = overlay('extend procedure partie as a { replace milieu { log "a" } }')
    b = overlay('extend procedure partie as b { replace milieu { log "b" } }')
    result = checked(tmp_path, BASE, a, b)
    assert errors(result) == ["E0504: two extensions of 'partie' both replace the step 'milieu': only one can "
                              "stand, and no precedence says which"]
    result = checked(tmp_path, BASE, a, b + "\nprecedence b over a { }")
    assert result.ok, errors(result)
    assert [s.template for s in result.program.procedures["partie"].body if isinstance(s, ast.Log)] == ["b"]


def test_extensions_apply_to_the_procedure_as_the_rule_set_finally_has_it(tmp_path):
    """A later `replace procedure` that keeps the point keeps the extension; one that drops it is reported at
    the extension."""
    ext = overlay('extend procedure partie { after milieu { log "x" } }')
    keeps = overlay('replace procedure partie() { hook milieu { set total = 2 } }')
    result = checked(tmp_path, BASE, ext, keeps)
    assert result.ok, errors(result)
    assert [type(s).__name__ for s in result.program.procedures["partie"].body] == ["SetVar", "Log"]
    drops = overlay('replace procedure partie() { set total = 2 }')
    result = checked(tmp_path, BASE, ext, drops)
    assert errors(result) == ["E0501: procedure 'partie' has no hook point 'milieu'"]
    assert result.reporter.errors[0].span.file.endswith("01.rules")
