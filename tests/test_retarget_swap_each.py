"""`retarget`, `swap` and `each … chooses` (docs/language.md, *Statements*): what they do in play, their
diagnostics, their Z3 encoding held to the interpreter,
and the house rules that use them (spec/maison/miroir.rules, spec/maison/enchères.rules)."""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from checker.front.check import check_paths
from checker.front.configurations import select
from checker.prose import Ctx, Prose
from checker.runtime import Engine, RandomAgent
from checker.runtime.agents import ScriptedAgent
from checker.solver.encode import Encoder, Unsupported
from checker.solver.transition import NOT_ENCODED, STATEMENT_FORMS, Transition
from conftest import ROOT
from test_language_constructs import GAME, checked, errors, started
from test_transition import compare, run_interpreter

CITADELLES = ROOT / "spec" / "citadelles"
MIROIR = ROOT / "spec" / "maison" / "miroir.rules"
ENCHÈRES = ROOT / "spec" / "maison" / "enchères.rules"

# ---------------------------------------------------------------- retarget

REACTIONS = GAME + """
window attaque(a: Player, v: Player) "Un joueur en attaque un autre."
action voler(p: Player, q: Player) "Prendre 1 pièce." { transfer 1 from bourse[q] to bourse[p] }
before voler(p, q) signal attaque(p, q)
card Carte "Voleur" { force: 1
  power vol "Voler 1 pièce" { choose q in players where q != me  do voler(me, q) } }
card Carte "Miroir" { force: 2
  power renvoi "Renvoyer" { when attaque(a, v)  requires v == me  mandatory
    retarget } }
card Carte "Bouclier" { force: 3
  power parade "Contrer" { when attaque(a, v)  requires v == me  mandatory
    cancel } }
procedure partie() { for p in players { offer p { powers of main[p]  finish "Passer" } } }
"""


def _three(result, defender: str, script: list[str]):
    e, agents = started(result, ["Voleur", "Miroir", "Bouclier"], [script, [], []])
    st_ = e.st
    st_.put(e.card("Voleur"), "main", 0, "top")
    st_.put(e.card(defender), "main", 1, "top")
    st_.vars["bourse"].update({0: 0, 1: 5, 2: 5})
    return e, agents[0]


def test_retarget_sends_the_actor_back_to_the_choice_with_the_power_unused(tmp_path):
    """The Miroir's reaction retargets the theft: nothing is taken, the Voleur's power is given back and offered
    again at once; the second try on the same player goes through (the Miroir's power is once per turn)."""
    result = checked(tmp_path, REACTIONS)
    e, agent = _three(result, "Miroir", ["vol (Voleur)", "Joueur 2", "vol (Voleur)", "Joueur 3", "Passer"])
    e.call("partie", ())
    assert e.st.vars["bourse"] == {0: 1, 1: 5, 2: 4}, "the retargeted theft did not happen; the second one did"
    offers = [labels for prompt, labels, _ in agent.seen if prompt == "que faire ?"]
    assert offers[1] == ["vol (Voleur)", "Passer"], "the power is offered again after the retarget"
    assert [ev["kind"] for ev in e.events if ev["kind"] in ("retarget", "cancel")] == ["retarget"]


def test_cancel_spends_the_power_where_retarget_gives_it_back(tmp_path):
    result = checked(tmp_path, REACTIONS)
    e, agent = _three(result, "Bouclier", ["vol (Voleur)", "Joueur 2"])
    e.call("partie", ())
    assert e.st.vars["bourse"] == {0: 0, 1: 5, 2: 5}
    offers = [labels for prompt, labels, _ in agent.seen if prompt == "que faire ?"]
    assert offers == [["vol (Voleur)", "Passer"]], "a cancelled power is used up: « Passer » alone is not asked"
    assert (0, e.card("Voleur"), "vol") in e.st.uses


def test_retarget_outside_a_reaction_before_an_action_is_an_error(tmp_path):
    result = checked(tmp_path, GAME + """
window fin() "La fin."
card Carte "X" { force: 1  power p { when fin()  retarget } }
procedure partie() { retarget }
""")
    assert errors(result) == [
        "E0303: `retarget` is only meaningful in a power reacting to a window opened `before` an action"] * 2
    spans = sorted((d.span.line, d.span.column) for d in result.reporter.errors)
    assert spans[-1] == (GAME.count("\n") + 4, 22), spans


REDIRECTS = REACTIONS + """
action relayer(p: Player, q: Player) "Faire voler." { do voler(p, q) }
procedure voler_ou_rien(p: Player, q: Player) { do voler(p, q) }
card Carte "Relais" { force: 4
  power relais "Voler par une action" {
    choose q in players where q != me  do relayer(me, q)  transfer 1 from banque to bourse[me] } }
card Carte "Détour" { force: 5
  power détour "Voler par une procédure" {
    choose q in players where q != me  call voler_ou_rien(me, q)  transfer 1 from banque to bourse[me] } }
"""


@pytest.mark.parametrize("symbolic", [False, True], ids=["constants", "pinned"])
@pytest.mark.parametrize("defender,spent", [("Miroir", False), ("Miroir", True), ("Bouclier", False)])
@pytest.mark.parametrize("actor", ["Voleur", "Relais", "Détour"])
def test_retarget_encoding_agrees_with_the_interpreter(tmp_path, actor, defender, spent, symbolic):
    """The actor's power steals from the defender's holder, directly (Voleur), inside an action's body (Relais:
    the retargeted abort goes through it) or inside a procedure (Détour: the procedure catches it, so the power
    is used and goes on).  The interpreter and the encoding reach the same state — the power's use cells
    included — from the state read as constants or as Z3 constants pinned to it; and what they reach is what
    docs/language.md says (the test of the interpreter's side, so that it can fail)."""
    result = checked(tmp_path, REDIRECTS)
    assert "Retarget" in STATEMENT_FORMS and "Retarget" not in NOT_ENCODED
    e, _ = started(result, [actor, "Miroir", "Bouclier"], [[], []])
    card, mirror = e.card(actor), e.card("Miroir")
    e.st.put(card, "main", 0, "top")
    e.st.put(e.card(defender), "main", 1, "top")
    e.st.vars["bourse"].update({0: 0, 1: 5})
    if spent:                       # the Miroir's reaction is once per turn: used, the theft goes through
        e.st.uses[(1, mirror, "renvoi")] = (e.st.turn, e.st.round)
    power = next(pw for pw in e.powers_of[e.def_of[card]])
    option = ("power", power, card, {"me": 0, "this": card})
    after, _log, outcome = run_interpreter(e, option, 0, seed=7)
    redirected = defender == "Miroir" and not spent
    stolen = defender == "Miroir" and spent
    given_back = redirected and actor != "Détour"
    assert outcome == "done"
    assert ((0, card, power.name) not in after[2]) == given_back
    assert after[1]["bourse"][0] == int(stolen) + int(actor != "Voleur" and not given_back and
                                                      (actor == "Détour" or stolen)), after[1]["bourse"]
    assert compare(e, option, 0, 7, symbolic) == "same"


# ---------------------------------------------------------------- swap

SWAPS = GAME + """
zone défausse: pile of Carte public
card Carte "A" { force: 1 }
card Carte "B" { force: 2 }
card Carte "C" { force: 3 }
card Carte "D" { force: 4 }
action échanger_mains(p: Player, q: Player) "Échanger les mains." { swap main[p] with main[q] }
action échanger_avec_la_pioche(p: Player, c: Carte, d: Carte) "Échanger deux cartes." { swap c with d }
procedure partie() { stop }
"""


def test_swap_exchanges_two_cards_places_and_two_zones_contents(tmp_path):
    result = checked(tmp_path, SWAPS)
    e, _ = started(result, ["A", "B", "C", "D"], [[], []])
    st_ = e.st
    a, b, c, d = (e.card(x) for x in "ABCD")
    st_.put(a, "main", 0, "top")
    st_.put(b, "main", 0, "top")
    assert st_.zone("pioche") == [c, d]
    e.perform("échanger_mains", (0, 1))
    assert st_.zone("main", 0) == [] and st_.zone("main", 1) == [a, b], "the contents move, in their order"
    e.perform("échanger_mains", (1, 1))
    assert st_.zone("main", 1) == [a, b], "a zone swapped with itself does not change"
    e.perform("échanger_avec_la_pioche", (0, a, c))
    assert st_.zone("pioche") == [a, d] and st_.zone("main", 1) == [c, b], "in a pile, each takes the other's place"
    assert st_.holds("pioche", None, e.def_ids["A"]) and not st_.holds("main", 1, e.def_ids["A"])
    assert st_.holds("main", 1, e.def_ids["C"]) and not st_.holds("pioche", None, e.def_ids["C"])
    e.perform("échanger_avec_la_pioche", (0, d, a))
    assert st_.zone("pioche") == [d, a], "two cards of one pile exchange their positions"


def test_swap_misuse_is_reported_where_it_is_written(tmp_path):
    result = checked(tmp_path, GAME + """
kind Jeton { valeur: Int in 0..3  start: sac }
zone sac: set of Jeton public
card Jeton "J" { valeur: 1 }
card Carte "A" { force: 1 }
var favori: Carte? = none public
procedure partie() {
  choose c in pioche at random
  choose j in sac at random
  swap c with main[c.force]
  swap favori with c
  swap c with j
  swap pioche with sac
  swap c with 3
}
""")
    assert errors(result) == [
        "E0301: swap exchanges two cards, or the contents of two zones, not a card and a zone",
        "E0301: swap needs a card here, but this may be none (Carte?)",
        "E0301: swap exchanges two cards of one kind; these are a Carte and a Jeton",
        "E0301: swap exchanges the contents of two zones of the same kind of cards; these hold Carte and Jeton",
        "E0301: swap exchanges two cards, or the contents of two zones; this is Int",
    ]


# ---------------------------------------------------------------- each … chooses

BIDS = GAME + """
var mise[Player]: Int = 0 public
procedure partie() {
  each p in players chooses m in 0..3 where m <= bourse[p] into mise[p]
}
"""


def test_each_player_chooses_in_secret_and_the_choices_are_written_together(tmp_path):
    result = checked(tmp_path, BIDS)
    e, agents = started(result, [], [["2"], ["0"], ["1"]])
    e.recording = True
    st_ = e.st
    st_.vars["bourse"].update({0: 3, 1: 0, 2: 1})
    seen = []
    e.observer = lambda decision: seen.append((decision.player, decision.secret, dict(st_.vars["mise"])))
    e.call("partie", ())
    assert [(p, secret) for p, secret, _ in seen] == [(0, True), (1, True), (2, True)]
    assert all(m == {} for _, _, m in seen), "no choice is written before every player has chosen"
    assert st_.vars["mise"] == {0: 2, 1: 0, 2: 1}
    decisions = [ev for ev in e.events if ev["kind"] == "decision"]
    assert len({ev["state"] for ev in decisions}) == 1, "each chooses from the same state: nothing leaks"
    assert [ev["options"] for ev in decisions] == [["0", "1", "2", "3"], ["0", "1"]], "Joueur 2's only option is forced"
    reveal = [ev for ev in e.events if ev["kind"] == "reveal"]
    assert reveal == [{"kind": "reveal", "value": "Joueur 1 : 2, Joueur 2 : 0, Joueur 3 : 1", "to": None}]


def test_each_chooses_misuse(tmp_path):
    result = checked(tmp_path, GAME + """
var mise[Player]: Int = 0 public
var seule: Int = 0 public
var nom[Player]: Bool = false public
procedure partie() {
  choose premier in players at random
  each p in players chooses m in 0..3 into seule
  each p in players chooses m in 0..3 into mise[premier]
  each p in players chooses m in 0..3 into nom[p]
  each p in 3 chooses m in 0..3 where m into mise[p]
}
""")
    assert errors(result) == [
        "E0303: each player's choice needs a cell of its own: index seule by p",
        "E0303: each player's choice needs a cell of its own: index mise by p",
        "E0301: the choices go into nom, which holds Bool, but each is Int",
        "E0301: who chooses should be set of Player, but this is Int",
        "E0301: the condition of the choice should be Bool, but this is Int",
    ]


# ---------------------------------------------------------------- the encoding agrees with the interpreter

EXCHANGES = GAME + """
zone défausse: pile of Carte public
var mise[Player]: Int = 0 public
var pari[Player]: Carte? = none public
card Carte "A" { force: 1 }
card Carte "B" { force: 2 }
card Carte "C" { force: 3 }
card Carte "D" { force: 4 }
card Carte "E" { force: 5 }
action échanger_mains(p: Player, q: Player) "Échanger les mains." { swap main[p] with main[q] }
action échanger_carte(p: Player, c: Carte) "Échanger une carte de sa main avec une de la pioche." {
  choose d in pioche by p
  swap c with d
}
action échanger_ailleurs(p: Player) "Échanger une carte d'une main avec une de la défausse." {
  choose q in players by p
  choose c in main[q] at random
  choose d in défausse by p
  swap c with d
}
action miser(p: Player) "Tout le monde mise." {
  each q in players chooses x in 0..3 where x <= bourse[q] + 1 into mise[q]
  each q in players chooses c in main[q] into pari[q]
}
procedure partie() {
  for p in players { draw 2 from pioche to main[p] }
  move pioche to défausse
  draw 2 from défausse to pioche
  for r in 1..2 {
    for p in players {
      offer p {
        échanger_mains(p, q) for q in players
        échanger_carte(p, c) for c in main[p]
        échanger_ailleurs(p)
        miser(p)
        finish "Passer"
      }
    }
  }
}
"""


_CHECKED: dict = {}


def _exchanges(tmp_path_factory):
    if "exchanges" not in _CHECKED:
        path = tmp_path_factory.mktemp("exchanges") / "jeu.rules"
        path.write_text(EXCHANGES, encoding="utf-8")
        result = check_paths([path])
        assert result.ok, errors(result)
        _CHECKED["exchanges"] = result
    return _CHECKED["exchanges"]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 3), symbolic=st.booleans())
def test_swap_and_each_chooses_encodings_agree_with_the_interpreter(tmp_path_factory, seed, players, symbolic):
    """Every option of a few decision points of a seeded game, run by the interpreter (its inner choices made
    at random and recorded) and encoded with those choices: the same next state (every zone membership and
    var), over the state read as constants or as Z3 constants pinned to it."""
    result = _exchanges(tmp_path_factory)
    e = Engine(result.typed)
    e.recording = False
    rng = random.Random(seed)
    compared = []

    def observe(decision):
        if decision.prompt != "que faire ?" or len(compared) >= 12 or rng.random() < 0.5:
            return
        for k, option in enumerate(decision.options):
            if option[0] != "finish":
                compared.append((option[1], compare(e, option, decision.player, seed + k, symbolic)))
    e.observer = observe
    e.start({"Carte": ["A", "B", "C", "D", "E"]}, players, seed, [RandomAgent(seed + k) for k in range(players)])
    for p in range(players):
        e.st.vars["bourse"][p] = p
    e.call("partie", ())
    assert compared and all(outcome == "same" for _, outcome in compared), compared


# ---------------------------------------------------------------- prose

def test_the_book_says_each_construct(tmp_path):
    result = checked(tmp_path, EXCHANGES)
    prose = Prose(result.typed)
    said = lambda body: " ".join(step.text for step in prose.steps(body, Ctx()))   # noqa: E731
    actions = result.program.actions
    assert "Échanger le contenu" in said(actions["échanger_mains"].body)
    assert "chacun prend la place de l'autre" in said(actions["échanger_carte"].body)
    text = said(actions["miser"].body)
    assert "choisit en secret, sans voir les choix des autres" in text and "révélés ensemble" in text
    reactions = checked(tmp_path, REACTIONS)
    miroir = reactions.program.cards["Miroir"].powers[0]
    assert "son auteur choisit de nouveau" in " ".join(s.text for s in Prose(reactions.typed).steps(miroir.body,
                                                                                                     Ctx(me=True)))


# ---------------------------------------------------------------- the house rules

@functools.cache
def _house():
    result = check_paths([CITADELLES, MIROIR, ENCHÈRES])
    assert result.ok, errors(result)
    return result


def _citadelles(players: int, extra=()):
    result = _house()
    program = result.program
    cards = dict(select(program, program.configurations["Première partie"], players).cards)
    cards["District"] = tuple(dict.fromkeys(cards["District"] + tuple(extra)))
    agents = [ScriptedAgent([]) for _ in range(players)]
    e = Engine(result.typed)
    e.start(cards, players, 0, agents)
    return e, agents


def _give(e, player: int, zone: str, name: str) -> int:
    card = next(c for c in e.instances[e.def_ids[name]] if e.st.where[c][0] == "pioche")
    e.st.put(card, zone, player, "top")
    return card


def test_the_mirror_sends_the_magicienne_back_to_her_choice():
    """spec/maison/miroir.rules: the Magicienne targets the Miroir's owner's hand; the exchange does not happen,
    her power is given back, and she exchanges with another player instead."""
    e, agents = _citadelles(3, ("Miroir",))
    st_ = e.st
    magicienne = e.card("Magicienne")
    st_.put(magicienne, "choisis", 0, "top")
    _give(e, 1, "cité", "Miroir")
    for player, zone in ((0, "main"), (1, "main"), (2, "main")):
        for c in list(st_.zone(zone, player)):
            st_.put(c, "pioche", None, "bottom")
    mine, his, hers = _give(e, 0, "main", "Temple"), _give(e, 1, "main", "Manoir"), _give(e, 2, "main", "Église")
    st_.vars["personnage_actif"] = magicienne
    st_.vars["joueur_actif"] = 0
    agents[0].answers = ["magie (Magicienne)", "échange_des_mains", "Joueur 2",
                         "magie (Magicienne)", "échange_des_mains", "Joueur 3"]
    e.call("suite_du_tour", (0, magicienne))
    assert st_.zone("main", 1) == [his], "the Miroir's owner kept his hand"
    assert st_.zone("main", 0) == [hers] and st_.zone("main", 2) == [mine]
    offers = [labels for prompt, labels, _ in agents[0].seen if prompt == "que faire ?"]
    assert offers == [["magie (Magicienne)", "Terminer son tour"]] * 2, \
        "her power was given back; the second exchange used it (« Terminer son tour » alone is not asked)"
    assert not agents[0].answers
    assert any(ev["kind"] == "retarget" and ev["action"] == "échanger_les_mains" for ev in e.events)


class _Drafting(Exception):
    """The auction is over: the round's procedure has reached the draft's first question."""


def test_the_crown_auction_gives_the_crown_to_the_single_highest_bidder():
    """spec/maison/enchères.rules, played in the round's procedure as the overlay extends it: bids chosen in
    secret, revealed together; the single highest bidder pays and takes the Crown; a tie moves nothing."""
    for bids, crown in (((1, 3, 2), 1), ((2, 2, 0), 0), ((0, 0, 0), 0)):
        e, agents = _citadelles(3)
        e.recording = True
        st_ = e.st
        st_.vars["couronne"] = 0
        st_.vars["trésor"].update({0: 3, 1: 3, 2: 3})
        for agent, bid in zip(agents, bids):
            agent.answers = [str(bid)]

        def observe(decision):
            if type(decision.site).__name__ != "ChooseEach":
                raise _Drafting()
        e.observer = observe
        with pytest.raises(_Drafting):
            e.call("tour_de_jeu", ())
        assert st_.vars["mise"] == dict(enumerate(bids))
        assert st_.vars["couronne"] == crown
        paid = max(bids) if bids.count(max(bids)) == 1 else 0
        assert st_.vars["trésor"] == {p: 3 - (paid if p == crown else 0) for p in range(3)}
        reveals = [ev["value"] for ev in e.events if ev["kind"] == "reveal"]
        assert reveals[0] == ", ".join(f"Joueur {p + 1} : {b}" for p, b in enumerate(bids))
