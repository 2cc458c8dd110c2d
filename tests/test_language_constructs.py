"""The language constructs the fan expansion needed, each on a tiny game of its own: what they do in
play, and the errors they give.  (The expansion itself is played in tests/test_fan.py.)"""

from __future__ import annotations

from pathlib import Path

from checker.front.check import check_paths
from checker.runtime import Engine
from checker.runtime.agents import ScriptedAgent

GAME = """
game "Jeu" {
  edition: "test"
  players: 2..4
  flow: partie
}
kind Carte {
  force: Int in 0..9
  controller: porteur
  start: pioche
}
counter banque unlimited
counter bourse[Player] public
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
quantity porteur(c: Carte): Player? = the(p in players where c in main[p])
"""


def checked(tmp_path: Path, *texts: str):
    paths = []
    for i, text in enumerate(texts):
        path = tmp_path / f"{i:02d}.rules"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return check_paths(paths)


def errors(result) -> list[str]:
    return [f"{d.code}: {d.message}" for d in result.reporter.errors]


def started(result, cards: list[str], scripts: list[list[str]]):
    assert result.ok, errors(result)
    e = Engine(result.typed)
    agents = [ScriptedAgent(s) for s in scripts]
    e.start({"Carte": cards}, len(scripts), 0, agents)
    return e, agents


# ---------------------------------------------------------------- powers of a card nobody holds

def test_powers_of_a_card_nobody_holds_are_its_own(tmp_path):
    """`powers of "Absente"` for a card not in the game offers that card's powers, not another's: a card
    named by a literal is its definition, and the offer must not read it as a physical card."""
    result = checked(tmp_path, GAME + """
card Carte "Absente" { force: 1
  power absente_paie "1 pièce" { transfer 1 from banque to bourse[me] } }
card Carte "Présente" { force: 2
  power présente_paie "5 pièces" { transfer 5 from banque to bourse[me] } }
procedure partie() {
  for p in players { offer p { powers of "Absente"  finish "Passer" } }
}
""")
    e, agents = started(result, ["Présente"], [["absente_paie (Absente)", "Passer"], ["Passer"]])
    e.call("partie", ())
    labels = [label for _prompt, labels, _answer in agents[0].seen for label in labels]
    assert "présente_paie (Présente)" not in labels
    assert e.st.vars["bourse"] == {0: 1}


# ---------------------------------------------------------------- extend

BASE_ENUM = GAME + """
enum Couleur { rouge, bleu }
card Carte "Rouge" { force: 3 }
procedure partie() { stop }
"""


def test_extend_adds_enum_members_and_widens_an_attribute(tmp_path):
    result = checked(tmp_path, BASE_ENUM, """overlay "Plus" on "Jeu"
extend enum Couleur { noir "la couleur des cartes maudites" }
extend kind Carte {
  force: Int in 0..10
  couleur: Couleur = noir
}
card Carte "Dix" { force: 10  couleur: rouge }
quantity noires(): Int = count(c in Couleur where c == noir)
""")
    assert result.ok, errors(result)
    p = result.program
    assert [m.name for m in p.enums["Couleur"].members] == ["rouge", "bleu", "noir"]
    assert {a.name: a.default for a in p.kinds["Carte"].attrs}["couleur"].id == "noir"
    e, _ = started(result, ["Rouge", "Dix"], [[], []])
    assert e.card_attrs[e.def_ids["Rouge"]]["couleur"] == "noir", "a new attribute's default reaches the base's cards"
    assert e.quantity("noires", ()) == 1


def test_extend_errors(tmp_path):
    result = checked(tmp_path, BASE_ENUM, """overlay "Plus" on "Jeu"
extend enum Coleur { noir }
extend kind Carte { force: Bool }
card Carte "Onze" { force: 11 }
""")
    assert errors(result) == [
        "E0501: `extend enum` names enum 'Coleur' that the base does not declare",
        "E0301: `extend` cannot change the type of attribute 'force' (Int → Bool)",
        "E0304: force 11 is out of range 0..9",
    ]
    result = checked(tmp_path, BASE_ENUM + 'extend enum Couleur { noir }\n')
    assert errors(result) == ["E0502: `remove`, `replace` and `extend` are only allowed in an overlay"]


# ---------------------------------------------------------------- the game's round

def test_only_the_round_procedure_counts_rounds_and_tells_the_round_observer(tmp_path):
    """`round:` names the procedure each call of which is a round: st.round, the `round` events and the
    round observer (`rulebook simulate` samples there) count its calls, not those of the flow or of another
    procedure, whether called by the engine or by the rules; `turn:` likewise counts st.turn."""
    result = checked(tmp_path, GAME.replace("flow: partie", "flow: partie\n  round: manche\n  turn: autre") + """
counter manches public
counter autres public
card Carte "Un" { force: 1 }
procedure manche() { transfer 1 from banque to manches }
procedure autre() { transfer 1 from banque to autres }
procedure partie() {
  call manche()
  call autre()
  call manche()
}
""")
    e, _ = started(result, ["Un"], [[], []])
    seen = []
    e.round_observer = lambda: seen.append(e.st.round)
    e.recording = True
    e.call("partie", ())
    assert (e.st.vars["manches"], e.st.vars["autres"]) == (2, 1)
    assert e.st.round == 2 and seen == [0, 1], "observed as each round starts, before it counts"
    e.call("manche", ())
    assert e.st.round == 3 and seen == [0, 1, 2]
    assert e.st.turn == 1
    e.call("autre", ())
    assert (e.st.turn, e.st.round) == (2, 3)
    assert [ev["number"] for ev in e.events if ev["kind"] == "round"] == [1, 2, 3]


# ---------------------------------------------------------------- active and imitates

CARDS = GAME + """
var retournée[Carte]: Bool = false public
var modèle[Carte]: Carte? = none public
counter jeton[Carte] public
quantity marche(c: Carte): Bool = not retournée[c]
quantity copie(c: Carte): Carte? = modèle[c]
quantity prix(p: Player): Int = 5
action acheter(p: Player) "Acheter." { transfer prix(p) from bourse[p] to banque }
window fin(p: Player) "La fin."
card Carte "Écu" { force: 1
  power gain "1 pièce" { transfer 1 from banque to bourse[me] }
  power marque "Marquer à la fin" { when fin(p)  mandatory  transfer 1 from banque to jeton[this] }
  rule écu_remise { adjust prix(p) by -2 when this in main[p] }
  rule écu_interdit { forbid acheter(p) when this in main[p] and bourse[p] > 9 } }
card Carte "Miroir" { force: 0 }
card Carte "Pierre" { force: 0 }
procedure partie() { for p in players { offer p { powers of main[p]  finish "Passer" } } }
"""


def test_a_card_that_is_not_active_has_no_powers_and_its_rules_do_not_apply(tmp_path):
    result = checked(tmp_path, CARDS, """overlay "États" on "Jeu"
extend kind Carte { active: marche }
""")
    e, agents = started(result, ["Écu", "Miroir", "Pierre"], [["gain (Écu)", "Passer"], []])
    st, écu = e.st, e.card("Écu")
    st.put(écu, "main", 0, "top")
    st.vars["bourse"].update({0: 10, 1: 0})
    assert e.quantity("prix", (0,)) == 3 and not e.allowed("acheter", (0,))
    st.vars["retournée"][écu] = True
    e.invalidate()
    assert e.quantity("prix", (0,)) == 5, "its rules no longer apply"
    assert e.allowed("acheter", (0,))
    assert e.offered_powers(écu) == []
    e.signal("fin", (0,))
    assert st.vars["jeton"].get(écu, 0) == 0, "it does not react"
    st.vars["retournée"][écu] = False
    e.call("partie", ())
    assert st.vars["bourse"][0] == 11


def test_a_rule_without_when_of_a_card_that_is_not_active_does_not_apply(tmp_path):
    """A card rule with no `when` of its own still holds only while its card is active: the card's
    condition is the whole of the rule's `when` then."""
    result = checked(tmp_path, CARDS.replace('card Carte "Pierre" { force: 0 }', """card Carte "Pierre" { force: 0
  rule pierre_interdit { forbid acheter(p) } }"""), """overlay "États" on "Jeu"
extend kind Carte { active: marche }
""")
    e, _ = started(result, ["Écu", "Miroir", "Pierre"], [[], []])
    st, pierre = e.st, e.card("Pierre")
    st.vars["bourse"].update({0: 5, 1: 0})
    legal, forbidding, _, _ = e.legal("acheter", (0,))
    assert not legal and forbidding == ["pierre_interdit"]
    st.vars["retournée"][pierre] = True
    e.invalidate()
    assert e.allowed("acheter", (0,)), "the rule of a card turned over no longer forbids"
    assert e.legal("acheter", (0,)) == (True, [], [], []), "nor is it named among the rules that apply"


def test_a_card_imitating_another_has_its_powers_and_its_rules_about_this(tmp_path):
    result = checked(tmp_path, CARDS, """overlay "Copies" on "Jeu"
extend kind Carte { imitates: copie }
""")
    e, agents = started(result, ["Écu", "Miroir", "Pierre"], [["gain (Miroir)", "Passer"], []])
    st, miroir = e.st, e.card("Miroir")
    st.put(miroir, "main", 0, "top")
    st.vars["bourse"].update({0: 10, 1: 0})
    assert e.quantity("prix", (0,)) == 5 and e.allowed("acheter", (0,))
    st.vars["modèle"][miroir] = e.def_ids["Écu"]            # the Écu is in nobody's hand
    e.invalidate()
    assert e.quantity("prix", (0,)) == 3, "écu_remise read with this = the Miroir"
    assert not e.allowed("acheter", (0,))
    legal, forbidding, _, _ = e.legal("acheter", (0,))
    assert not legal and forbidding == ["écu_interdit"]
    e.signal("fin", (0,))
    assert st.vars["jeton"][miroir] == 1, "the Miroir reacts as the Écu would, with this = the Miroir"
    e.call("partie", ())
    assert st.vars["bourse"][0] == 11
    assert [x for x in agents[0].seen[0][1]] == ["gain (Miroir)", "Passer"]


def test_active_and_imitates_name_quantities_of_the_right_type(tmp_path):
    result = checked(tmp_path, CARDS, """overlay "Erreurs" on "Jeu"
extend kind Carte { active: copie  imitates: mrache }
""")
    assert errors(result) == [
        "E0301: `active` of Carte must name a quantity (Carte) -> Bool",
        "E0202: unknown quantity 'mrache' for `imitates` of Carte",
    ]


# ---------------------------------------------------------------- before an action, cancel

HOOKS = GAME + """
window attaque(a: Player, v: Player) "Un joueur en attaque un autre."
action voler(p: Player, q: Player) "Prendre 1 pièce." { transfer 1 from bourse[q] to bourse[p] }
action voler_deux(p: Player, q: Player) refines voler "Prendre 2 pièces." {
  transfer 1 from bourse[q] to bourse[p]
  do voler(p, q)
}
before voler(p, q) signal attaque(p, q)
counter bouclier[Player] public
card Carte "Bouclier" { force: 1
  power parade "Contrer" { when attaque(a, v)  requires v == me
    transfer 1 from bourse[me] to bourse[a]
    cancel } }
card Carte "Cible" { force: 1
  power compte "Compter les attaques" { when attaque(a, v)  limit unlimited  mandatory
    transfer 1 from banque to bouclier[v] } }
procedure partie() { for p in players { offer p { voler_deux(p, q) for q in players  finish "Passer" } } }
"""


def test_a_reaction_before_an_action_can_cancel_it(tmp_path):
    result = checked(tmp_path, HOOKS)
    e, agents = started(result, ["Bouclier", "Cible"], [["voler_deux(Joueur 1, Joueur 2)", "Passer"],
                                                         ["oui", "Passer"]])
    st = e.st
    st.put(e.card("Bouclier"), "main", 1, "top")
    st.vars["bourse"].update({0: 0, 1: 5})
    e.call("partie", ())
    assert st.vars["bourse"] == {0: 1, 1: 4}, "the theft did not happen; the defender paid 1 to the attacker"
    assert st.vars["bouclier"] == {}, "the window closed at the cancel: later reactions did not run"
    assert any(ev["kind"] == "cancel" and ev["action"] == "voler_deux" for ev in e.events)


def test_a_hook_opens_its_window_once_for_an_action_and_those_it_runs(tmp_path):
    result = checked(tmp_path, HOOKS)
    e, agents = started(result, ["Bouclier", "Cible"], [["voler_deux(Joueur 1, Joueur 2)", "Passer"],
                                                         ["Passer"]])
    st = e.st
    st.put(e.card("Cible"), "main", 1, "top")
    st.vars["bourse"].update({0: 0, 1: 5})
    e.call("partie", ())
    assert st.vars["bourse"] == {0: 2, 1: 3}
    assert st.vars["bouclier"] == {1: 1}, "voler inside voler_deux's effect does not open attaque again"


def test_cancel_outside_a_window_opened_before_an_action_is_an_error(tmp_path):
    result = checked(tmp_path, GAME + """
window fin() "La fin."
window avant(p: Player) "Avant."
action passer(p: Player) "Passer."
before bouger(p) signal avant(p)
before passer(p, q) signal avant(p, p)
card Carte "X" { force: 1  power p { when fin()  cancel } }
procedure partie() { stop }
""")
    assert errors(result) == [
        "E0202: unknown action 'bouger'",
        "E0302: 'passer' has 1 parameter(s), `before` binds 2",
        "E0302: window 'avant' takes 1 argument(s), 2 given",
        "E0303: `cancel` is only meaningful in a power reacting to a window opened `before` an action",
    ]


# ---------------------------------------------------------------- set on a let, seats counter-clockwise

def test_a_let_can_be_changed_with_set_and_seats_go_both_ways(tmp_path):
    result = checked(tmp_path, GAME + """
var second: Player? = none
var trouvés: Int = 0
procedure partie() {
  let n = 0
  let vus = 0
  repeat {
    set n = n + 1
    set vus = vus * 10 + n
  } until n >= 3
  set trouvés = vus
}
procedure tourner(départ: Player) {
  let k = 0
  for p in seats_counterclockwise_from(départ) {
    set k = k + 1
    if k == 2 { set second = p }
  }
}
""")
    e, _ = started(result, [], [[], [], []])
    e.call("partie", ())
    e.call("tourner", (0,))
    assert e.st.vars["trouvés"] == 123
    assert e.st.vars["second"] == 2, "counter-clockwise from seat 0 (Joueur 1), the next is Joueur 3"


def test_set_changes_only_a_let(tmp_path):
    result = checked(tmp_path, GAME + """
procedure partie() {
  for p in players { set p = p }
}
""")
    assert errors(result) == ["E0303: 'p' is not a `let`: only a name bound by `let` can be changed with `set`"]


# ---------------------------------------------------------------- replace action

def test_an_overlay_replaces_an_action(tmp_path):
    result = checked(tmp_path, HOOKS, """overlay "Vol doux" on "Jeu"
replace action voler(p: Player, q: Player) "Prendre 1 pièce à la banque." { transfer 1 from banque to bourse[p] }
remove action voler_deux
replace procedure partie() { for p in players { offer p { voler(p, q) for q in players  finish "Passer" } } }
""")
    e, agents = started(result, ["Bouclier", "Cible"], [["voler(Joueur 1, Joueur 2)", "Passer"], ["Passer"]])
    e.st.vars["bourse"].update({0: 0, 1: 5})
    e.call("partie", ())
    assert e.st.vars["bourse"] == {0: 1, 1: 5}


def test_z3_reads_active_and_imitated_rules_as_the_interpreter_does(tmp_path):
    """The encoding of `active` and `imitates` (a rule read with each `this` it applies with) agrees with the
    interpreter on the same states."""
    from checker.solver.encode import Encoder
    result = checked(tmp_path, CARDS, """overlay "Les deux" on "Jeu"
extend kind Carte { active: marche  imitates: copie }
""")
    e, _ = started(result, ["Écu", "Miroir", "Pierre"], [[], []])
    st, écu, miroir = e.st, e.card("Écu"), e.card("Miroir")
    st.vars["bourse"].update({0: 10, 1: 0})
    situations = [
        lambda: st.put(miroir, "main", 0, "top"),
        lambda: st.vars["modèle"].__setitem__(miroir, e.def_ids["Écu"]),
        lambda: st.vars["retournée"].__setitem__(miroir, True),
        lambda: st.put(écu, "main", 0, "top"),
        lambda: st.vars["retournée"].__setitem__(miroir, False),
        lambda: st.vars["retournée"].__setitem__(écu, True),
    ]
    seen = set()
    for change in situations:
        change()
        st.version += 1
        e.invalidate()
        enc = Encoder(e, concrete=True)
        ours = (e.quantity("prix", (0,)), e.allowed("acheter", (0,)))
        assert (enc.quantity("prix", (0,)), enc.legality("acheter", (0,))[0]) == ours
        seen.add(ours)
    assert len(seen) >= 2, "the situations differ"


def test_extend_card_adds_powers_and_rules_to_a_base_card(tmp_path):
    result = checked(tmp_path, CARDS, """overlay "Écu doré" on "Jeu"
extend card "Écu" {
  force: 4
  power double_gain "2 pièces" { transfer 2 from banque to bourse[me] }
  rule écu_plus_cher { adjust prix(p) by 1 when this in main[p] }
}
extend card "Pierre" { power gain "déjà pris ?" { stop } }
""")
    assert errors(result) == []
    e, agents = started(result, ["Écu", "Miroir", "Pierre"], [["double_gain (Écu)", "Passer"], []])
    écu = e.card("Écu")
    e.st.put(écu, "main", 0, "top")
    e.st.vars["bourse"].update({0: 0, 1: 0})
    assert e.card_attrs[e.def_ids["Écu"]]["force"] == 4
    assert e.quantity("prix", (0,)) == 5 - 2 + 1
    e.call("partie", ())
    assert e.st.vars["bourse"][0] == 2
    assert [p.name for p in result.program.cards["Écu"].powers] == ["gain", "marque", "double_gain"]
    bad = checked(tmp_path, CARDS, """overlay "Écu doré" on "Jeu"
extend card "Ecu" { force: 4 }
extend card "Écu" { power gain "encore" { stop } }
""")
    assert errors(bad) == ["E0501: `extend card` names card 'Ecu' that the base does not declare",
                           "E0201: power 'gain' is defined twice"]


# ---------------------------------------------------------------- choose … optionally

def test_choosing_nothing_skips_the_rest_of_the_block_and_choosing_runs_all_of_it(tmp_path):
    """`choose c in … optionally`: choosing nothing skips the rest of its block (docs/language.md), choosing
    runs every statement after the choice, the last one included; the statements after the block run
    either way."""
    result = checked(tmp_path, GAME + """
card Carte "A" { force: 1 }
card Carte "B" { force: 2 }
var après: Int = 0
var ensuite: Int = 0
procedure partie() { }
procedure prendre(p: Player) {
  for q in players {
    choose c in pioche by q optionally
    move c to main[q]
  }
  set ensuite = 1
}
procedure compter(p: Player) {
  for q in players {
    choose c in pioche by q optionally
    move c to main[q]
    set après = après + c.force
  }
}
""")
    e, _ = started(result, ["A", "B"], [["A", "(rien)"], ["(rien)", "B"]])
    e.call("prendre", (0,))
    assert [e.show_card(c) for c in e.st.zone("main", 0)] == ["A"] and e.st.zone("main", 1) == []
    assert e.st.vars["ensuite"] == 1
    e.call("compter", (0,))
    assert [e.show_card(c) for c in e.st.zone("main", 1)] == ["B"]
    assert e.st.vars["après"] == 2, "only Joueur 2 chose, and the statement after the move ran"


# ---------------------------------------------------------------- the winners

def test_equal_scores_without_a_tiebreak_all_win_and_a_tiebreak_decides_among_them(tmp_path):
    """The game's `score` names the winners: every player with the best score when the game names no
    `tiebreak`; with one, only the best of them by it (a single winner needs no tiebreak)."""
    flow = """
var premier: Player? = none
var dernier: Player? = none
procedure partie() {
  for p in players {
    if premier == none { set premier = p }
    set dernier = p
  }
  for p in players { if p == dernier { transfer 1 from banque to bourse[p] } }
}
quantity points(p: Player): Int = if p == premier then 1 else 2
quantity départage(p: Player): Int = bourse[p]
"""
    game = GAME.replace("flow: partie", "flow: partie\n  score: points")
    for text, players, winners in [(game, 3, [1, 2]), (game, 2, [1]),
                                   (game.replace("score: points", "score: points\n  tiebreak: départage"), 3, [2])]:
        result = checked(tmp_path, text + flow)
        assert result.ok, errors(result)
        played = Engine(result.typed).play({"Carte": []}, players, 0, [ScriptedAgent([]) for _ in range(players)])
        assert played.winners == winners and played.scores == {0: 1, **{q: 2 for q in range(1, players)}}


# ---------------------------------------------------------------- what a player sees

def test_a_player_sees_his_own_cell_of_a_hidden_var_and_nothing_of_another_hidden_var(tmp_path):
    """A `hidden` var indexed by Player is seen only at the player's own index; a hidden var not indexed
    by Player is not seen at all; a public one is seen whole."""
    result = checked(tmp_path, GAME + """
var réserve_cachée[Player]: Int = 0 hidden
var caché: Int = 0 hidden
var connu[Player]: Int = 0
procedure partie() { }
""")
    e, _ = started(result, [], [[], []])
    e.st.vars["réserve_cachée"].update({0: 4, 1: 7})
    e.st.vars["connu"].update({0: 1, 1: 2})
    view = e.view(1)
    assert "caché" not in view["vars"]
    assert list(view["vars"]["réserve_cachée"].values()) == [7] and len(view["vars"]["connu"]) == 2
