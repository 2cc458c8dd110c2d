"""Vars with a lifetime, `var v[K]: T = d until w(a, b) [for b]` (docs/language.md, *Lasting effects*): the value
ends when a `signal w(…)` opens the window — at one index or everywhere — in play, in the log, in the Z3
encoding (the same statements), with diagnostics for misuse; and the house rule spec/maison/trêve.rules."""

from __future__ import annotations

from checker.front import ast
from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine
from checker.runtime.agents import ScriptedAgent
from conftest import ROOT
from test_language_constructs import GAME, checked, errors, started
from test_transition import compare

LASTING = GAME + """
window début(p: Player) "Le tour d'un joueur commence."
window fin() "La manche finit."
var bonus[Player]: Int = 0 public until début(q) for q "Un bonus qui dure jusqu'au prochain tour du joueur."
var manche: Int = 0 public until fin() "Une valeur de la manche."
action commencer(p: Player) "Commencer le tour de p." { signal début(p) }
action finir(p: Player) "Finir la manche." { signal fin() }
procedure partie() {
  for p in players { set bonus[p] = 2 }
  set manche = 5
}
"""


def test_a_value_ends_at_its_window_at_the_index_the_window_names(tmp_path):
    result = checked(tmp_path, LASTING)
    e, _ = started(result, [], [[], [], []])
    e.recording = True
    st_ = e.st
    e.call("partie", ())
    assert st_.vars["bonus"] == {0: 2, 1: 2, 2: 2} and st_.vars["manche"] == 5
    e.perform("commencer", (1,))
    assert st_.vars["bonus"] == {0: 2, 1: 0, 2: 2}, "only the player whose turn starts loses the bonus"
    assert [ev["text"] for ev in e.events if ev["kind"] == "log"] == ["Fin de bonus (Joueur 2) : début."]
    e.perform("commencer", (1,))
    assert len([ev for ev in e.events if ev["kind"] == "log"]) == 1, "a value already ended is not logged again"
    assert st_.vars["manche"] == 5
    e.perform("finir", (0,))
    assert st_.vars["manche"] == 0 and st_.vars["bonus"] == {0: 2, 1: 0, 2: 2}


def test_the_ending_is_ordinary_statements_before_each_signal(tmp_path):
    result = checked(tmp_path, LASTING)
    body = result.program.actions["commencer"].body
    assert [type(s).__name__ for s in body] == ["If", "Signal"]
    assert [type(s).__name__ for s in result.program.actions["finir"].body] == ["Reset", "Signal"]


def test_the_z3_encoding_of_an_ending_agrees_with_the_interpreter(tmp_path):
    result = checked(tmp_path, LASTING)
    e, _ = started(result, [], [[], [], []])
    e.call("partie", ())
    for symbolic in (False, True):
        for option in (("action", "commencer", (1,)), ("action", "finir", (0,))):
            assert compare(e, option, 0, 1, symbolic) == "same"


def test_lifetime_misuse_is_reported_where_it_is_written(tmp_path):
    result = checked(tmp_path, GAME + """
window début(p: Player) "Début."
window visée(p: Player, c: Carte) "Visée."
window jamais() "Jamais ouverte."
action viser(p: Player, c: Carte) "Viser."
before viser(p, c) signal visée(p, c)
var a[Player]: Int = 0 public until débuts(q) for q
var b[Player]: Int = 0 public until début(q, r) for q
var c[Player]: Int = 0 public until début(q) for r
var d: Int = 0 public until début(q) for q
var e[Carte]: Int = 0 public until début(q) for q
var f: Int = 0 public until visée(p, x)
var g: Int = 0 public until jamais()
procedure partie() { for p in players { signal début(p) } }
""")
    assert errors(result) == [
        "E0202: unknown window 'débuts'",
        "E0302: window 'début' takes 1 argument(s), `until` binds 2",
        "E0202: `for r` names none of the window's arguments (q)",
        "E0302: 'd' is not indexed: `for q` names the index that ends",
        "E0301: `for q`: the window's argument is a Player, 'e' is indexed by Carte",
        "E0303: 'f' lasts until window 'visée', which a `before` declaration opens: a lifetime ends at a window "
        "opened by `signal`",
    ]
    warnings = [f"{d.code}: {d.message}" for d in result.reporter.diagnostics if d.severity.value == "warning"]
    assert warnings == ["W0704: no `signal jamais` in the rule set: 'g' never ends"]
    first = next(d for d in result.reporter.errors)
    assert (first.span.line, first.span.column) == (GAME.count("\n") + 7, 31)
    assert first.hint and "début" in first.hint


# ---------------------------------------------------------------- the house rule

CITADELLES = ROOT / "spec" / "citadelles"
TRÊVE = ROOT / "spec" / "maison" / "trêve.rules"


def test_the_truce_protects_a_city_until_its_owner_s_next_turn():
    """spec/maison/trêve.rules: the Sanctuaire's owner is under the truce — no rank-8 power on their city —
    until their next character is revealed; the base's `tour` procedure is not copied, the ending is inserted."""
    result = check_paths([CITADELLES, TRÊVE])
    assert result.ok, errors(result)
    program = result.program
    tour = program.procedures["tour"].body
    signal = next(i for i, s in enumerate(tour) if isinstance(s, ast.Signal) and s.window == "révélation")
    assert isinstance(tour[signal - 1], ast.If) and tour[signal - 1].span.file.endswith("trêve.rules")
    cards = dict(select(program, program.configurations["Première partie"], 4).cards)
    cards["District"] = tuple(cards["District"]) + ("Sanctuaire",)
    agents = [ScriptedAgent([]) for _ in range(4)]
    e = Engine(result.typed)
    e.start(cards, 4, 0, agents)
    e.recording = True
    st_ = e.st
    owner, warlord = 0, 1
    sanctuaire = e.card("Sanctuaire")
    st_.put(sanctuaire, "cité", owner, "top")
    st_.put(e.card("Condottiere"), "choisis", warlord, "top")
    st_.put(e.card("Roi"), "choisis", owner, "top")
    st_.vars["trésor"][warlord] = 10
    st_.vars["personnage_actif"] = e.card("Condottiere")
    power = next(pw for pw in e.free_powers[e.def_ids["Sanctuaire"]])
    e.run_power(power, owner, sanctuaire, {"me": owner, "this": sanctuaire})
    assert st_.vars["trêve"] == {owner: True}
    legal, forbidding, _, _ = e.legal("détruire_par_le_condottiere", (warlord, owner, sanctuaire))
    assert not legal and "la_trêve_protège" in forbidding

    class Revealed(Exception):
        pass

    def observe(decision):
        raise Revealed()
    e.observer = observe
    try:
        e.call("tour", (owner, e.card("Roi")))
    except Revealed:
        pass
    assert st_.vars["trêve"] == {owner: False}, "the truce ended when the owner's character was revealed"
    assert "Fin de trêve (Joueur 1) : révélation." in [ev["text"] for ev in e.events if ev["kind"] == "log"]
    st_.vars["personnage_actif"] = e.card("Condottiere")
    e.invalidate()
    assert "la_trêve_protège" not in e.legal("détruire_par_le_condottiere", (warlord, owner, sanctuaire))[1]
