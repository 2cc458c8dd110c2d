"""`rulebook conflicts`: the 4th edition's clarifications settle every conflict the finder sees; taking
any one of them away brings its conflict back, with a witness the interpreter agrees with; a house
rule's conflicts with the base game are found; dead rules and dangling references are reported."""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from pathlib import Path

import pytest

from checker.front.check import check_paths
from checker.conflicts.questions import Search
from checker.conflicts.scope import Scope
from conftest import ROOT, bundled

TUTORIAL = "spec/maison/bâtisseuse.rules"


@functools.cache
def full_search():
    search = Search(bundled().typed)
    findings = (search.contradictions() + search.competing_values() + search.order_dependence()
                + search.dead_rules() + search.dangling())
    return search, findings


def test_the_fourth_edition_leaves_nothing_unresolved():
    search, findings = full_search()
    assert [f.message for f in findings if f.unresolved or f.kind in ("dead-rule", "dangling", "unknown")] == []
    assert search.unknowns == 0


def test_the_carrière_and_the_échevin_are_settled_by_the_rulebook():
    """« Quelques précisions sur les Merveilles », Carrière : « mais ne peut pas utiliser l'Échevin, le Diplomate ou
    le Capitaine pour acquérir des quartiers identiques. »"""
    _, findings = full_search()
    resolved = {f.rules: f for f in findings if f.kind == "resolved"}
    for rank8 in ("échevin_pas_de_doublon", "diplomate_pas_de_doublon", "capitaine_pas_de_doublon"):
        f = resolved[("carrière_doublons", rank8)]
        assert f.resolution == f"settled: {rank8} wins (precedence)"
        assert f.confirmed is True          # the interpreter, on the witness, sees both rules apply
        assert any("Carrière" in line for line in f.situation)
        assert ("carrière_doublons", "Le propriétaire de la Carrière peut bâtir autant de quartiers identiques "
                                     "qu'il le souhaite") in f.cites


def _resolutions():
    program = bundled().program
    out = []
    for i, prec in enumerate(program.precedences):
        out.append(("precedence", i, str(prec.winner), str(prec.loser)))
    for rule in program.rules.values():
        for name, _ in rule.overrides:
            out.append(("overrides", rule.name, rule.name, name))
    return out


@pytest.mark.parametrize("kind,key,winner,loser", _resolutions(), ids=lambda x: str(x))
def test_removing_a_resolution_brings_its_conflict_back(kind, key, winner, loser):
    """Each `precedence` and each `overrides` of the spec settles a conflict the finder would report."""
    typed = bundled().typed
    program = dataclasses.replace(typed.program)
    if kind == "precedence":
        program.precedences = [p for i, p in enumerate(program.precedences) if i != key]
    else:
        rule = program.rules[key]
        program.rules = {**program.rules, key: dataclasses.replace(
            rule, overrides=tuple(o for o in rule.overrides if o[0] != loser))}
    search = Search(dataclasses.replace(typed, program=program))
    pair = {(winner, loser), (loser, winner)}
    findings = (search.contradictions(only=pair) + search.competing_values(only=pair)
                + search.order_dependence(only=pair))
    unresolved = [f for f in findings if f.unresolved and set(f.rules) == {winner, loser}]
    assert unresolved, f"removing {kind} {winner} / {loser} brings no conflict back"
    assert unresolved[0].witness is not None
    assert all(f.confirmed is not False for f in unresolved)


# ---------------------------------------------------------------- a house rule: the tutorial

def run(capsys, *argv):
    from checker.cli import main
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory):
    """`rulebook conflicts` on the base game and the tutorial's house character, run once."""
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from checker.cli import main
    folder = tmp_path_factory.mktemp("witnesses")
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["conflicts", "spec/citadelles", TUTORIAL, "--json", "--witnesses", str(folder),
                     "--workers", "1"])   # the parallel path is tests/test_conflicts_parallel.py's
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, json.loads(out.getvalue())


def test_the_tutorial_character_has_two_conflicts_and_one_resolution(tutorial):
    code, report = tutorial
    assert code == 1 and report["unresolved"] == 2 and report["unknowns"] == 0
    findings = [f for f in report["findings"] if "bâtisseuse_doublons" in f["rules"]]
    unresolved = sorted(f["rules"][1] for f in findings if f["kind"] == "contradiction")
    assert unresolved == ["capitaine_pas_de_doublon", "diplomate_pas_de_doublon"]
    resolved = {f["rules"][1]: f["resolution"] for f in findings if f["kind"] == "resolved"}
    assert resolved == {"échevin_pas_de_doublon": "settled: échevin_pas_de_doublon wins (precedence)",
                        "pas_de_doublon": "settled: bâtisseuse_doublons wins (overrides)"}
    for f in findings:
        if f["kind"] == "contradiction":
            assert "special case of pas_de_doublon" in f["message"]
            assert f["confirmed"] is True


def test_a_witness_is_a_state_file_legal_reads(capsys, tutorial):
    _, report = tutorial
    finding = next(f for f in report["findings"] if f["rules"] == ["bâtisseuse_doublons", "diplomate_pas_de_doublon"])
    state, move = finding["files"]
    assert json.loads(Path(state).read_text(encoding="utf-8"))["spec"] == ["spec/citadelles", TUTORIAL]
    code, out, _ = run(capsys, "legal", state, move)
    assert code == 1 and "diplomate_pas_de_doublon" in out and "not an option of this decision point" in out


def test_the_witnesses_are_written_as_examples_that_pin_the_behaviour(capsys, tutorial, tmp_path):
    """`--witnesses` also writes examples.rules: a block per conflict, which passes pasted into the house-rule file
    and fails with its expectation flipped."""
    _, report = tutorial
    finding = next(f for f in report["findings"] if f["rules"] == ["bâtisseuse_doublons", "capitaine_pas_de_doublon"])
    examples = Path(finding["files"][0]).parent / "examples.rules"
    text = examples.read_text(encoding="utf-8")
    name = "contradiction bâtisseuse_doublons / capitaine_pas_de_doublon"
    assert f'example "{name}" {{' in text and "by capitaine_pas_de_doublon" in text
    pasted = tmp_path / "bâtisseuse.rules"
    pasted.write_text(Path(TUTORIAL).read_text(encoding="utf-8") + "\n" + text, encoding="utf-8")
    code, out, _ = run(capsys, "test", "spec/citadelles", str(pasted), "-k", name)
    assert code == 0 and out.startswith("ok   "), out
    flipped = re.sub(r"expect not can (prendre\(.*\)) by capitaine_pas_de_doublon", r"expect can \1",
                     pasted.read_text(encoding="utf-8"))
    pasted.write_text(flipped, encoding="utf-8")
    code, out, _ = run(capsys, "test", "spec/citadelles", str(pasted), "-k", name)
    assert code == 1 and "it is forbidden by capitaine_pas_de_doublon" in out


def test_dead_rules_and_dangling_references_are_reported(tmp_path):
    house = tmp_path / "maison.rules"
    house.write_text('action rêver(p: Player) "Rien."\n'
                     'rule jamais { forbid bâtir(p, d) when trésor[p] < 0 }\n'
                     'rule personne { forbid rêver(p) when p == p }\n', encoding="utf-8")
    result = check_paths([ROOT / "spec" / "citadelles", house])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    search = Search(result.typed, players=4, scope=Scope(result, [house]))    # the house file's questions
    dead = {f.rules[0] for f in search.dead_rules()}
    dangling = {f.rules[0] for f in search.dangling()}
    assert "jamais" in dead and "personne" not in dead
    assert dangling == {"personne"}


# ---------------------------------------------------------------- undecided questions are reported, never a "no"

@functools.cache
def tutorial_typed():
    result = check_paths([ROOT / "spec" / "citadelles", ROOT / TUTORIAL])
    assert result.ok
    return result.typed


def test_an_undecided_special_case_is_reported_with_z3s_reason_not_dropped(monkeypatch):
    """Whether capitaine_paie is a special case of pas_de_doublon (which the Bâtisseuse overrides) decides
    whether the pair is a conflict (it is not one: unrelated); when Z3 cannot decide it, the pair is listed as
    undecided with Z3's reason and both rules — it does not vanish.  diplomate_pas_de_doublon is a special case
    by its terms alone (`d in cité[p]` is pas_de_doublon's condition), with no query: at any limit the pair is
    reported, a contradiction or undecided whether both rules can apply together."""
    pair = ("bâtisseuse_doublons", "capitaine_paie")
    assert Search(tutorial_typed()).contradictions(only={pair}) == []
    special = ("bâtisseuse_doublons", "diplomate_pas_de_doublon")
    decided = Search(tutorial_typed()).contradictions(only={special})
    assert [f.kind for f in decided] == ["contradiction"]
    monkeypatch.setenv("RULEBOOK_Z3_RLIMIT", "1")
    undecided = Search(tutorial_typed()).contradictions(only={pair})
    assert [(f.kind, f.rules) for f in undecided] == [("unknown", pair)]
    assert "resource" in undecided[0].unknown and "special case of pas_de_doublon" in undecided[0].message
    undecided = Search(tutorial_typed()).contradictions(only={special})
    assert [(f.kind, f.rules) for f in undecided] == [("unknown", special)]
    assert "resource" in undecided[0].unknown and "can apply in the same situation" in undecided[0].message


def test_conflicts_exits_4_when_z3_cannot_decide(capsys, monkeypatch):
    """Exit 4 (documented in `rulebook conflicts --help` and docs/conflicts.md), never 0, when something is
    undecided and nothing is proven unresolved."""
    fixture = "tests/fixtures/good/minimal_game.rules"
    code, out, _ = run(capsys, "conflicts", fixture)
    assert code == 0 and "undecided" not in out
    monkeypatch.setenv("RULEBOOK_Z3_RLIMIT", "1")
    code, out, _ = run(capsys, "conflicts", fixture)
    assert code == 4
    assert "undecided (" in out and "Z3 could not decide: max. resource limit exceeded" in out
    assert "marchand_de_safran" in out and "payer" in out
    monkeypatch.setenv("RULEBOOK_Z3_RLIMIT", "lots")
    code, _, err = run(capsys, "conflicts", fixture)
    assert code == 2 and "RULEBOOK_Z3_RLIMIT must be a positive whole number" in err


def test_legal_and_conflicts_call_the_same_pairs_unresolved(capsys, tutorial):
    """On every witness `conflicts` writes for the tutorial, `legal` (judging the witness move) calls the
    pair unresolved exactly when `conflicts` does, and settled when `conflicts` says it is settled."""
    _, report = tutorial
    judged = 0
    for f in report["findings"]:
        if f["kind"] not in ("contradiction", "resolved") or not f.get("files") or len(f["files"]) < 2:
            continue
        code, out, _ = run(capsys, "legal", *f["files"], "--json")
        verdict = json.loads(out)
        claims = {(o["permit"], o["forbid"]): o["status"] for o in verdict["overruled"]}
        permit, forbid = f["rules"]
        if f["kind"] == "contradiction":
            assert claims.get((permit, forbid)) in ("general", "exception"), (f["rules"], verdict)
        elif (permit, forbid) in claims:          # settled for the prohibition: legal says who wins
            assert claims[(permit, forbid)] == "settled" and f["resolution"].startswith(f"settled: {forbid}")
        else:                                     # settled for the permission: it lifts the prohibition
            assert verdict["status"] != "illegal" or forbid not in [r["name"] for r in verdict["reasons"]]
        judged += 1
    assert judged >= 4


def _first_undecided(monkeypatch):
    """Make Z3's first answer of each query 'unknown' (as a timeout would), the retry answer truly."""
    import checker.solver.search as search
    from checker.solver.factory import Outcome, run
    calls = []

    def flaky(solver, *assumptions):
        calls.append(len(solver.assertions()))
        return Outcome("unknown", reason="timeout") if len(calls) % 2 else run(solver, *assumptions)
    monkeypatch.setattr(search, "run", flaky)
    return calls


def test_an_undecided_question_is_asked_again_with_one_copy_of_each_card(tmp_path, monkeypatch):
    """When Z3 cannot decide, the question is asked on the states with one copy of each card in each place:
    a state found there settles it (`un_temple` can apply: one Temple in a city is enough), none found does
    not (`deux_temples` needs two of the three Temples in one city: still undecided, never dead)."""
    house = tmp_path / "maison.rules"
    house.write_text('rule un_temple { forbid bâtir(p, d) when count(c in cité[p] where c == "Temple") >= 1 }\n'
                     'rule deux_temples { forbid bâtir(p, d) when count(c in cité[p] where c == "Temple") >= 2 }\n',
                     encoding="utf-8")
    result = check_paths([ROOT / "spec" / "citadelles", house])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    search = Search(result.typed, players=4)
    search.batches = False          # the questions asked one at a time (a batch would show both can apply)
    search.p.rules = {name: search.p.rules[name] for name in ("un_temple", "deux_temples")}
    assert {f.rules[0]: f.kind for f in search.dead_rules()} == {}       # both can apply: decided directly
    calls = _first_undecided(monkeypatch)
    # the question with the selection at once (which answers both directly) is not asked: its retry is the one here
    monkeypatch.setattr(search, "_with_selection", lambda *args: None)
    findings = {f.rules[0]: f for f in search.dead_rules()}
    assert len(calls) == 4 and calls[1] > calls[0]          # asked again, with the later copies set to false
    assert list(findings) == ["deux_temples"] and findings["deux_temples"].kind == "unknown"
    assert findings["deux_temples"].unknown == \
        "timeout (nor found on the states with one copy of each card in each place)"


# ---------------------------------------------------------------- witnesses a legal game can be set up for

def _tutorial_with(tmp_path, constraint: str):
    """The tutorial's Bâtisseuse/Diplomate contradiction, searched with one more `constraint`."""
    house = tmp_path / "contrainte.rules"
    house.write_text(constraint, encoding="utf-8")
    result = check_paths([ROOT / "spec" / "citadelles", ROOT / TUTORIAL, house])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    findings = Search(result.typed).contradictions(only={("bâtisseuse_doublons", "diplomate_pas_de_doublon")})
    assert [f.kind for f in findings] == ["contradiction"]
    return findings[0]


def test_a_witness_has_a_player_count_the_constraints_allow_its_cards(tmp_path):
    """Without the constraint the witness has 3 players (a rank 9 is not for 2: pas_de_rang_9_à_2_joueurs);
    with it, the Bâtisseuse's witness has the 6 players it asks for."""
    finding = _tutorial_with(tmp_path, 'constraint bâtisseuse_à_six {\n'
                                       '  require player_count >= 6 when "Bâtisseuse" in selected(Character)\n}\n')
    assert finding.witness["players"] == 6 and finding.configuration == "" and not finding.illegal
    assert finding.confirmed is True


def test_a_conflict_no_legal_game_can_set_up_is_reported_as_such(tmp_path):
    """A constraint no player count of the game (2 to 8) meets: the contradiction is still reported, with its
    witness, and says it cannot arise in a legal game."""
    finding = _tutorial_with(tmp_path, 'constraint bâtisseuse_à_neuf {\n'
                                       '  require player_count == 9 when "Bâtisseuse" in selected(Character)\n}\n')
    assert finding.illegal and finding.configuration.startswith("cannot arise in a legal game")
    assert '"Bâtisseuse"' in finding.configuration and finding.witness is not None


def test_the_empereurs_witness_in_the_fan_expansion_is_not_for_two_players():
    """« L'Empereur ne doit pas étre utilisé dans les parties à 2 joueurs » (empereur_pas_à_deux_joueurs):
    the order of the Roi's and the Empereur's reactions to an assassination is shown with 3 players."""
    result = check_paths([ROOT / "spec" / "citadelles", ROOT / "spec" / "extension-fan"])
    pair = ('"Roi".héritier_du_roi', '"Empereur".conseiller_de_l_empereur')
    findings = Search(result.typed).order_dependence(only={pair})
    assert [f.rules for f in findings] == [pair]
    assert findings[0].witness["players"] >= 3 and findings[0].configuration == ""
    assert "player_count = 3" in findings[0].situation


# ---------------------------------------------------------------- dead rules: only in games the constraints forbid

SPICES = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"
# a house Muscade: two of its rules apply only in games its own constraints forbid
MUSCADE = ('card Lot "Muscade" {\n  épice: cannelle\n  prix: 3\n'
           '  rule muscade_à_quatre { forbid acheter(p, l) when player_count == 4 }\n'
           '  rule muscade_à_trois { forbid acheter(p, l) when player_count == 3 }\n}\n'
           'constraint pas_de_muscade_à_quatre {\n'
           '  require "Muscade" not in selected(Lot) when player_count == 4\n}\n'
           'constraint muscade_avec_safran {\n'
           '  require "Safran d\'Iran" in selected(Lot) when "Muscade" in selected(Lot)\n}\n'
           'rule muscade_poivre_cannelle {\n  forbid acheter(p, l) when "Muscade" in panier[p] '
           'and "Poivre noir" in panier[p] and "Cannelle" in panier[p]\n}\n')


def test_a_rule_that_applies_only_in_games_the_constraints_forbid_is_dead_and_names_them(tmp_path):
    """A Muscade is added, and no configuration selects it.  Its own rule `muscade_à_quatre` applies at 4
    players, where `pas_de_muscade_à_quatre` forbids it; `muscade_poivre_cannelle` needs it with the Poivre
    noir and the Cannelle, and so (`muscade_avec_safran`) four lots where `trois_lots` wants three;
    `muscade_à_trois` can apply."""
    house = tmp_path / "maison.rules"
    house.write_text(MUSCADE, encoding="utf-8")
    result = check_paths([SPICES, house])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    dead = {f.rules[0]: f for f in Search(result.typed).dead_rules()}
    assert set(dead) == {"muscade_à_quatre", "muscade_poivre_cannelle"}
    assert dead["muscade_à_quatre"].message == (
        "muscade_à_quatre can never apply: it applies only in games the configuration constraints forbid: "
        "pas_de_muscade_à_quatre")
    assert dead["muscade_à_quatre"].rules == ("muscade_à_quatre", "pas_de_muscade_à_quatre")
    assert dead["muscade_à_quatre"].spans[1].line == 7
    assert dead["muscade_poivre_cannelle"].message.endswith("forbid: trois_lots, muscade_avec_safran")
    # with the player count given, the same answer
    assert {f.rules[0] for f in Search(result.typed, players=4).dead_rules()} >= {"muscade_à_quatre"}
    # a file that only adds a constraint brings the base's dead-rule questions into scope
    only = tmp_path / "contrainte.rules"
    only.write_text('constraint pas_de_poivre {\n  require "Poivre noir" not in selected(Lot)\n}\n', encoding="utf-8")
    scoped = check_paths([SPICES, only])
    rule = scoped.program.rules["un_lot_par_épice"]
    assert Scope(scoped, [only]).dead(rule, rule.heads[0])


def test_at_two_players_the_rules_of_characters_not_used_there_are_dead():
    """« Règles pour 2 joueurs » : « Choisissez 8 personnages numérotés de 1 à 8. L'Empereur ne doit pas étre
    utilisé dans une partie à 2 joueurs. »  The Artiste (rank 9) and the Empereur are never in a 2-player
    game, so their rules are dead there, and the Bailli's rule « à 2 ou 3 joueurs » applies only at 3.  At
    every player count at once nothing is dead (test_the_fourth_edition_leaves_nothing_unresolved)."""
    found = {f.rules: f.kind for f in Search(bundled().typed, players=2).dead_rules()}
    rank9 = "pas_de_rang_9_à_2_joueurs"
    assert found == {("empereur_bénéficiaire", "empereur_pas_à_deux_joueurs"): "dead-rule",
                     ("artiste_sa_cité", rank9): "dead-rule", ("artiste_paie", rank9): "dead-rule",
                     ("artiste_une_seule_fois", rank9): "dead-rule", ("bailli_autre_personnage", rank9): "dead-rule"}
