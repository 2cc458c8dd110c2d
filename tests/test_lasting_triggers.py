"""Lasting triggers (docs/language.md, *Lasting triggers*): `trigger t(p: Player) when w(…) until w2(…) { … }` and
`install t(e)` — what they become once collected, what they do in play (state, log, lifetime), their diagnostics,
their Z3 encoding held to the interpreter, their French, and the house rule that uses one (spec/maison/péage.rules)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from checker.front import ast
from checker.front.check import check_paths
from checker.prose import Ctx, Prose
from checker.runtime import Engine
from checker.runtime.agents import ScriptedAgent
from conftest import ROOT
from test_language_constructs import GAME, checked, errors
from test_transition import compare

RENTE = GAME + """
window début(p: Player) "Le tour de p commence."
window bâti(p: Player) "Le joueur p vient de bâtir."
window fin_de_manche() "La manche finit."
trigger rente(j: Player) "Une pièce à chaque construction d'un autre joueur, jusqu'au début de son prochain tour."
  when bâti(q)
  until début(x) for x
  requires q != j {
  transfer 1 from banque to bourse[j]
}
trigger alarme() "Une pièce pour chacun quand la manche finit."
  when fin_de_manche() {
  for p in players { transfer 1 from banque to bourse[p] }
}
action construire(p: Player) "Bâtir." { transfer 1 from bourse[p] to banque  signal bâti(p) }
card Carte "Rentier" { force: 1
  power placer "Placer une rente" { install rente(me) } }
card Carte "Sonneur" { force: 2
  power sonner "Sonner l'alarme" { install alarme() } }
procedure partie() {
  for r in 1..2 {
    for p in players {
      signal début(p)
      offer p { powers of main[p]  construire(p)  finish "Passer" }
    }
    signal fin_de_manche()
  }
}
"""


def _game(result, scripts, holders=(("Rentier", 0),)):
    assert result.ok, errors(result)
    e = Engine(result.typed)
    e.start({"Carte": ["Rentier", "Sonneur"]}, len(scripts), 0, [ScriptedAgent(s) for s in scripts])
    for name, seat in holders:
        e.st.put(e.card(name), "main", seat, "top")
    for seat in range(len(scripts)):
        e.st.vars["bourse"][seat] = 3
    return e


def test_a_trigger_is_a_var_and_a_procedure_and_no_backend_sees_install(tmp_path):
    result = checked(tmp_path, RENTE)
    program = result.program
    assert program.vars["rente"].index.name == "Player" and program.vars["rente"].until.window == "début"
    assert program.vars["alarme"].index is None and program.vars["alarme"].until is None
    assert [p.name for p in program.procedures["rente"].params] == ["j", "q"]
    bodies = [p.body for p in program.procedures.values()] + [a.body or () for a in program.actions.values()] + \
        [pw.body for c in program.cards.values() for pw in c.powers]
    assert not [n for b in bodies for n in ast.walk(b) if isinstance(n, ast.Install)]
    calls = [n.name for n in ast.walk(program.actions["construire"].body) if isinstance(n, ast.CallProc)]
    assert calls == ["rente"], "the installed triggers react before the window's signal"


def test_an_installed_trigger_reacts_until_its_lifetime_ends(tmp_path):
    """Joueur 1 places the rente in round 1; Joueur 2's construction pays him, his own does not; at the start of his
    next turn (round 2) it ends, before reacting, and Joueur 2's second construction pays nothing."""
    result = checked(tmp_path, RENTE)
    e = _game(result, [["placer (Rentier)", "construire(Joueur 1)", "Passer", "Passer"],
                       ["construire(Joueur 2)", "Passer", "construire(Joueur 2)", "Passer"]])
    e.call("partie", ())
    assert e.st.vars["rente"] == {0: False}
    assert e.st.vars["bourse"] == {0: 3 - 1 + 1, 1: 3 - 2}
    logs = [ev["text"] for ev in e.events if ev["kind"] == "log"]
    assert logs == ["rente (Joueur 1) : en place, jusqu'au moment où le tour de p commence.",
                    "rente (Joueur 1) réagit : le joueur p vient de bâtir.",
                    "Fin de rente (Joueur 1) : début."]


def test_a_trigger_for_nobody_lasts_the_whole_game(tmp_path):
    result = checked(tmp_path, RENTE)
    e = _game(result, [["sonner (Sonneur)", "Passer", "Passer"], ["Passer", "Passer"]], holders=(("Sonneur", 0),))
    e.call("partie", ())
    assert e.st.vars["alarme"] is True
    assert e.st.vars["bourse"] == {0: 5, 1: 5}, "the alarm rang at the end of both rounds"


def test_trigger_misuse_is_reported_where_it_is_written(tmp_path):
    result = checked(tmp_path, GAME + """
window w(p: Player) "W."
action act(p: Player) "A." { }
before act(p) signal w(p)
var pris: Bool = false
trigger a(j: Player) when w(q) { stop }
trigger b(j: Int) when v(q) { stop }
trigger c(j: Int) when fin() { stop }
trigger d(j: Player) when fin(x) { stop }
trigger pris() when fin() { stop }
trigger e(q: Player) when deux(q, r) { stop }
window fin() "F."
window deux(a: Player, b: Player) "D."
procedure partie() { install rentre(1)  install e()  signal fin() }
""")
    assert errors(result) == [
        "E0303: trigger 'a' reacts to window 'w', which a `before` declaration opens: a lasting trigger reacts to a "
        "window opened by `signal`",
        "E0202: unknown window 'v'",
        "E0301: trigger 'c' is installed for one player (`trigger c(p: Player)`) or for nobody in particular "
        "(`trigger c()`)",
        "E0302: window 'fin' takes 0 argument(s), `when` binds 1",
        "E0201: trigger 'pris' is also a var: the name holds whether it is installed",
        "E0201: 'q' names two things in trigger 'e' (its parameter and the window's arguments each need a name of "
        "their own)",
        "E0202: unknown trigger 'rentre'",
        "E0302: trigger 'e' is installed for 1 player(s), this names 0",
    ]


# ---------------------------------------------------------------- the encoding agrees with the interpreter

@pytest.mark.parametrize("symbolic", [False, True], ids=["constants", "pinned"])
@pytest.mark.parametrize("installed", [(), (0,), (1,), (0, 1, 2)])
def test_trigger_encodings_agree_with_the_interpreter(tmp_path, installed, symbolic):
    """Each player's construction (the window's reactions: the installed triggers, each for its player) and the
    power that installs one: the interpreter and the Z3 encoding reach the same state, the trigger's var included,
    from the state read as constants or as Z3 constants pinned to it."""
    result = checked(tmp_path, RENTE)
    e = _game(result, [[], [], []])
    for seat in installed:
        e.st.vars["rente"][seat] = True
    card = e.card("Rentier")
    for p in range(3):
        assert compare(e, ("action", "construire", (p,)), p, 11, symbolic) == "same"
    power = next(pw for pw in e.powers_of[e.def_of[card]])
    assert compare(e, ("power", power, card, {"me": 0, "this": card}), 0, 11, symbolic) == "same"


def test_the_book_says_what_a_trigger_does(tmp_path):
    result = checked(tmp_path, RENTE)
    prose = Prose(result.typed)

    def said(body, **kw) -> str:
        def texts(steps):
            return [x for s in steps for x in (s.text, *texts(s.children))]
        return " ".join(texts(prose.steps(body, Ctx(**kw))))
    program = result.program
    assert said(program.cards["Rentier"].powers[0].body, me=True) == (
        "Mettre en place l'effet durable « rente » pour vous (une pièce à chaque construction d'un autre joueur, "
        "jusqu'au début de son prochain tour), jusqu'au moment où le tour de p commence, pour ce joueur.")
    assert "L'effet durable « rente » réagit, pour chaque joueur qui l'a en place" in \
        said(program.actions["construire"].body)
    text = said(program.procedures["partie"].body)
    assert "L'effet durable « rente » de ce joueur, s'il est en place, prend fin." in text
    assert "Si l'effet durable « alarme » est en place, il réagit." in text


# ---------------------------------------------------------------- the house rule

PÉAGE = ROOT / "spec" / "maison" / "péage.rules"


@functools.cache
def _house():
    result = check_paths([ROOT / "spec" / "citadelles", PÉAGE])
    assert result.ok, errors(result)
    return result


def test_the_house_toll_is_spliced_into_the_base_without_copying_it():
    program = _house().program
    poser = program.procedures["poser"]
    assert any(isinstance(n, ast.CallProc) and n.name == "péage" for n in ast.walk(poser.body))
    assert any(isinstance(n, ast.Reset) and n.name == "péage" for p in program.procedures.values()
               for n in ast.walk(p.body))
    assert "péage" in program.vars and program.vars["péage"].visibility == "public"


def test_an_overlay_replaces_or_removes_a_trigger(tmp_path):
    replaced = checked(tmp_path, RENTE, 'overlay "Plus" on "Jeu"\nreplace trigger rente(j: Player)\n'
                                        '  when bâti(q) {\n  transfer 2 from banque to bourse[j]\n}\n')
    assert replaced.ok, errors(replaced)
    assert replaced.program.vars["rente"].until is None
    removed = checked(tmp_path, RENTE, 'overlay "Moins" on "Jeu"\nremove trigger rente\n')
    assert errors(removed) == ["E0202: unknown trigger 'rente'"], "the Rentier's power still installs it"
    assert "rente" not in removed.program.vars


def test_the_editor_knows_a_trigger_as_the_procedure_of_its_reaction():
    from checker.lsp.hover import Describer
    from checker.lsp.index import Symbol, build_index
    result = _house()
    index = build_index(result)
    where = [(o.span.line, o.definition) for o in index.references(Symbol("procedure", "péage"))
             if o.span.file.endswith("péage.rules")]
    text = PÉAGE.read_text(encoding="utf-8").split("\n")
    declared = next(i for i, line in enumerate(text, 1) if line.startswith("trigger péage("))
    installed = next(i for i, line in enumerate(text, 1) if line.strip() == "install péage(me)")
    assert (declared, True) in where and (installed, False) in where
    hover = Describer(result, index).describe(Symbol("procedure", "péage"))
    assert "procedure péage(j: Player, p: Player, d: District)" in hover
    assert "transférer 1 de la banque vers le trésor du joueur *j*" in hover, hover


# ---------------------------------------------------------------- lifetimes instead of hand resets

MARKED = GAME + """
window rangé() "Les marques sont rangées."
card Carte "Marqueur" { force: 1
  power marquer "Marquer" { set marque[me] = true } }
procedure ranger() { HERE }
procedure partie() { for p in players { offer p { powers of main[p]  finish "Passer" } }  call ranger() }
"""


def _rules(tmp_path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.mkdir()
    (path / "jeu.rules").write_text(text, encoding="utf-8")
    return path


def test_a_hand_reset_and_a_lifetime_ending_at_the_same_place_are_equivalent_for_diff(tmp_path):
    """The lifetime alone changes no game: where the value ends is statements in the procedures, compared by what
    they do — the same place is equivalent, another place is a behavioural difference of that procedure."""
    from checker.diff.run import diff_paths
    by_hand = _rules(tmp_path, "a", MARKED.replace("HERE", "reset marque") + "var marque[Player]: Bool = false\n")
    lasting = _rules(tmp_path, "b", MARKED.replace("HERE", "signal rangé()")
                     + "var marque[Player]: Bool = false until rangé()\n")
    result = diff_paths([by_hand], [lasting])
    assert result.status == "equivalent", [d.message for d in result.behavioural]
    assert "var marque lasts otherwise (where it ends is compared in the procedures, actions and powers that open " \
           "the windows)" in [d.message for d in result.neutral]
    elsewhere = _rules(tmp_path, "c", MARKED.replace("HERE", "stop") + "var marque[Player]: Bool = false\n")
    result = diff_paths([elsewhere], [lasting])
    assert [d.subject for d in result.behavioural] == ["procedure ranger"]


def test_the_4th_edition_markers_of_a_round_last_until_the_characters_are_put_away():
    """The 4th edition's markers a round's characters carry (set by their powers, and révélé by the call) end by
    their lifetime, not by resets written in `ranger_les_personnages`: the procedure opens `personnages_rangés`, and
    the ends are spliced before it, in the place and order the hand-written resets had."""
    source = (ROOT / "spec" / "citadelles" / "01-partie.rules")
    text = source.read_text(encoding="utf-8")
    body = text[text.index("procedure ranger_les_personnages()"):]
    assert "reset " not in body[:body.index("\n}")] and "signal personnages_rangés()" in body
    program = check_paths([ROOT / "spec" / "citadelles"]).program
    markers = ["assassiné", "volé_par", "ensorcelé_par", "menace", "mandat", "révélé", "interrompu"]
    assert [v for v in markers if program.vars[v].until.window == "personnages_rangés"] == markers
    steps = program.procedures["ranger_les_personnages"].body
    assert [s.name for s in steps if isinstance(s, ast.Reset)] == markers
    assert isinstance(steps[-1], ast.Signal) and steps[-1].window == "personnages_rangés"


def test_a_body_may_begin_with_a_for_after_a_lifetime(tmp_path):
    """The clauses come before the body's braces, so a lifetime's `for x` and a body's `for` statement cannot be
    confused (the grammar is LALR(1) in strict mode: tests/test_packaging.py)."""
    result = checked(tmp_path, RENTE, 'overlay "Cloche" on "Jeu"\ntrigger cloche()\n  when bâti(q)\n'
                                      '  until fin_de_manche() {\n  for p in players { transfer 1 from banque to '
                                      'bourse[p] }\n}\n')
    assert result.ok, errors(result)
    assert result.program.vars["cloche"].until is not None


FAN_MARKERS = ["assassiné_par", "emprisonné_par", "arnaqué_par", "endormi_par", "protégé", "doublé", "imite",
               "imitation_en_cours", "mime_après", "rejoue", "apparue"]


def test_the_fan_expansion_markers_of_a_round_last_until_the_characters_are_put_away():
    """The fan expansion's markers (set by its characters' powers and by the calls) end by their lifetime when the
    round's characters are put away, as the 4th edition's do, not by resets written in its own step after the
    round's `début_de_manche`: the start of a round (`ranger_les_personnages`, then `ranger_l_extension`) leaves them
    at their defaults as the hand resets did, and still counts the round; the step alone no longer resets them."""
    from test_fan import NP2, checked as fan, setup
    program = fan().program
    assert [v for v in FAN_MARKERS if program.vars[v].until.window == "personnages_rangés"] == FAN_MARKERS
    assert not [s for s in program.procedures["ranger_l_extension"].body if isinstance(s, ast.Reset)]
    e, st, _ = setup(NP2, [[], [], []])
    mime, ashura = e.card("Mime"), e.card("Ashura")
    marked = {"assassiné_par": 1, "emprisonné_par": 2, "arnaqué_par": 0, "endormi_par": 1, "protégé": True,
              "doublé": True, "imite": ashura, "imitation_en_cours": True, "mime_après": ashura, "rejoue": True,
              "apparue": True}

    def mark():
        for name, value in marked.items():
            st.vars[name][mime] = value
    mark()
    e.call("ranger_l_extension", ())
    assert [v for v in FAN_MARKERS if st.vars[v][mime] == marked[v]] == FAN_MARKERS
    mark()
    rounds = st.vars["tour_en_cours"]
    e.call("ranger_les_personnages", ())
    e.call("ranger_l_extension", ())
    assert [v for v in FAN_MARKERS if st.vars[v].get(mime, e.var_defaults[v]) != e.var_defaults[v]] == []
    assert st.vars["tour_en_cours"] == rounds + 1
