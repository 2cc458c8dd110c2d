"""The invariant search asks the game's round and turn procedures (docs/conflicts.md, *Invariants broken*): entering
one moves the turn or round counter, which the encoding follows as the interpreter does — the powers limited to
once per round (turn) are usable again (checker/solver/counters.py) —, a path is followed only while what can
still run on it writes what the invariants read, and the calls of procedures already proven that only move cards
are summarised (checker/conflicts/inductive.py)."""

from __future__ import annotations

from checker.conflicts.inductive import broken_invariants
from checker.conflicts.questions import Search
from checker.front.check import check_paths

_MARKET = """
game "Marché des manches" {
  edition: "test"
  players: 2..4
  flow: partie
  round: manche
  turn: tour
}

kind Lot {
  prix: Int in 1..5
  controller: acheteur
  start: étal
}

zone étal: pile of Lot public
zone panier[Player]: set of Lot public
counter bourse[Player] public
counter réserve unlimited
var manches: Int = 0

quantity acheteur(l: Lot): Player? = the(p in players where l in panier[p])

window ouverture()

action acheter(p: Player, l: Lot) "Acheter un lot de l'étal." {
  transfer 1 from bourse[p] to réserve
  move l to panier[p]
}

card Lot "Safran d'Iran" { prix: 5 }
card Lot "Poivre noir" { prix: 2 }
card Lot "Cannelle" { prix: 1 }

invariant deux_lots_au_plus {
  require all(p in players: count(l in panier[p]) <= 2)
  message "Un panier tient deux lots au plus."
}

procedure partie() {
  repeat {
    call manche()
  } until manches >= 3
}
"""

# the round empties the baskets, deals one lot to each (a precondition: the baskets are empty), opens a window to
# which the Muscade's holder may glean a lot (once per round, with room in the basket), then plays the turns,
# whose offers' moves are moves of their own and whose statements write no basket
_ROUND = _MARKET + """
card Lot "Muscade" {
  prix: 3
  power glaner "Prendre un lot de l'étal à l'ouverture." {
    when ouverture()
    limit once per round
    requires count(l in panier[me]) < 2
    choose l in étal
    move l to panier[me]
  }
}

procedure vider() {
  for p in players { move panier[p] to étal }
}

procedure distribuer() requires all(p in players: count(l in panier[p]) == 0) {
  for p in players {
    choose l in étal at random
    move l to panier[p]
  }
}

procedure manche() {
  call vider()
  call distribuer()
  signal ouverture()
  for p in players { call tour(p) }
  set manches = manches + 1
}

procedure tour(p: Player) {
  transfer 1 from réserve to bourse[p]
  offer p {
    acheter(p, l) for l in étal
    finish "Passer"
  }
}
"""

# with one lot at most in each basket, the window opens before the turns and again in each turn: the Muscade's
# holder gleans before the turns and in its turn (limited once per turn: a new turn, a new use), a third lot
_TURNS = _MARKET + """
card Lot "Muscade" {
  prix: 3
  power glaner "Prendre un lot de l'étal à l'ouverture." {
    when ouverture()
    limit once per turn
    choose l in étal
    move l to panier[me]
  }
}

procedure manche() {
  set manches = manches + 1
}

procedure marché() requires all(p in players: count(l in panier[p]) <= 1) {
  signal ouverture()
  for p in players { call tour(p) }
}

procedure tour(p: Player) {
  signal ouverture()
  offer p {
    finish "Passer"
  }
}
"""


def _search(tmp_path, text: str) -> Search:
    spec = tmp_path / "marché.rules"
    spec.write_text(text, encoding="utf-8")
    result = check_paths([spec])
    assert result.ok, result
    return Search(result.typed)


def test_the_round_procedure_is_proven_to_keep_the_invariant(tmp_path):
    """The round procedure was undecided (« calling manche moves the turn or round counters, which are not
    encoded »): it is proven now — the round's entry makes the once-per-round power usable, the turns write no
    basket (not followed)."""
    search = _search(tmp_path, _ROUND)
    found = broken_invariants(search, only={"manche", "vider", "distribuer"}, procedures=True)
    assert found == [], [(f.message, f.unknown) for f in found]
    tally = search.inductive["deux_lots_au_plus"]
    assert sorted(tally["proven"]) == ["distribuer", "manche", "vider"], tally
    assert tally["undecided"] == [] and "manche" not in tally["uncovered"], tally


def test_a_new_turn_makes_a_power_limited_once_per_turn_usable_again_and_the_interpreter_confirms_the_break(
        tmp_path):
    """Entering the turn procedure is encoded as the interpreter does it: the power used before the turns is
    usable again in the turn, and its second lot breaks the invariant (without the reset, the power would be
    used up, and the procedure proven; on 987079d it was undecided: the counters were not encoded).  The break is
    at the first turn's offer; the search goes on past it (the next turns), where the witness may answer the
    window again: the interpreter, stopped at the break, never asks."""
    search = _search(tmp_path, _TURNS)
    found = broken_invariants(search, only={"marché"}, procedures=True)
    assert [(f.kind, f.rules) for f in found] == [("invariant-broken", ("marché", "deux_lots_au_plus"))], \
        [(f.message, f.unknown) for f in found]
    f = found[0]
    assert f.confirmed is True, f.replayed
    assert f.situation.count("choix glaner : oui") >= 2, f.situation
    assert "the interpreter stops: the game broke the invariant deux_lots_au_plus" in f.replayed, f.replayed
    assert search.inductive["deux_lots_au_plus"]["broken"] == ["marché"]


def test_a_summary_that_forgets_what_the_caller_needs_is_asked_again_in_full(tmp_path, monkeypatch):
    """With every proven procedure summarised (the threshold at 0 statements), a summary of `vider` that forgets
    that the baskets are empty after it (the zones it empties not kept: checker/conflicts/emptied.py): `distribuer`'s
    precondition may fail after it, an error met after a summary, so `manche` is asked again with the callees'
    statements — and proven, with no summary kept.  A caller whose answer does not depend on what the summary
    forgets keeps it (`rouvrir`: the baskets emptied, then the once-per-round glean, which checks for room itself).
    With the emptied baskets kept (as the search does), `manche` is proven with both summaries."""
    from checker.conflicts import inductive
    monkeypatch.setattr(inductive, "SUMMARY_STEPS", 0)
    text = _ROUND + """
procedure rouvrir() {
  call vider()
  signal ouverture()
}
"""
    for kept, summarised in ((False, {"rouvrir": ["vider"]}),
                             (True, {"manche": ["distribuer", "vider"], "rouvrir": ["vider"]})):
        with monkeypatch.context() as m:
            if not kept:
                m.setattr(inductive, "emptied", lambda p, decl, writes: frozenset())
            search = _search(tmp_path, text)
            found = broken_invariants(search, only={"manche", "vider", "distribuer", "rouvrir"}, procedures=True)
        assert found == [], [(f.message, f.unknown) for f in found]
        tally = search.inductive["deux_lots_au_plus"]
        assert sorted(tally["proven"]) == ["distribuer", "manche", "rouvrir", "vider"], tally
        assert search.summarised == summarised, search.summarised


def test_a_procedure_question_z3_cannot_decide_stops_at_its_first_undecided_conjunct(tmp_path, monkeypatch):
    """A procedure's invariant is asked one conjunct at a time (one per seat here); when Z3 cannot decide one, the
    procedure is undecided for it and the other conjuncts are not asked (the fan expansion's round asked its 8,
    each undecided after ~50 s of CPU).  Every question is made undecided here: the first conjunct is asked over
    every player count at once, then once per count (watched.per_player_count), and the others not at all."""
    from checker.conflicts.relaxed import Eager
    search = _search(tmp_path, _ROUND)
    asked = []

    def undecided(enc, *formulas, **kw):
        asked.append(formulas)
        return "unknown", None, "not decided (test)"

    monkeypatch.setattr(Eager, "refuted", lambda self, question: False)
    monkeypatch.setattr(search, "solve", undecided)
    found = broken_invariants(search, only={"manche"}, procedures=True)
    assert search.inductive["deux_lots_au_plus"]["undecided"] == ["manche"]
    counts = search.high - search.low + 1
    assert [f.kind for f in found] == ["unknown"] and len(asked) == 1 + counts, (len(asked), [f.message for f in found])
    assert "asked per player count, undecided at" in found[0].unknown
