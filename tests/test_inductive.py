"""conflicts, *invariant broken* (docs/conflicts.md): each invariant is proven inductive over the moves whose
effect the transition encodes, or a legal move breaking it is found, with a witness the interpreter replays."""

from __future__ import annotations

from pathlib import Path

from checker.conflicts.inductive import move_writes, uncovered_procedures
from checker.conflicts.questions import Search
from checker.front.check import check_paths

GAME = Path("tests/fixtures/good/minimal_game.rules")
HOUSE = Path("tests/fixtures/invariants")


def _search(*paths, players=None) -> Search:
    result = check_paths([Path(p) for p in paths])
    assert result.ok
    return Search(result.typed, players=players)


def test_a_cards_power_breaks_the_house_invariant_and_the_interpreter_confirms():
    search = _search(GAME, HOUSE / "rafle.rules")
    found = search.broken_invariants(only={'"Muscade".rafler'})
    assert [f.kind for f in found] == ["invariant-broken"]
    f = found[0]
    assert f.rules == ('"Muscade".rafler', "deux_lots_au_plus")
    assert "right after the move" in f.message
    assert f.confirmed is True, f.replayed
    assert f.replayed == "after the move, the interpreter finds deux_lots_au_plus broken"
    # the witness: the holder has two lots (the Muscade among them), the stall one more
    assert "Muscade ∈ panier[Joueur 1]" in f.situation and any(s.startswith("choix l : ") for s in f.situation)
    assert search.inductive["deux_lots_au_plus"]["broken"] == ['"Muscade".rafler']


def test_the_same_power_bounded_by_its_requires_is_proven_to_keep_it():
    search = _search(GAME, HOUSE / "rafle_borné.rules")
    assert search.broken_invariants(only={'"Muscade".rafler', '"Poivre noir".flairer'}) == []
    tally = search.inductive["deux_lots_au_plus"]
    assert tally["proven"] == ['"Muscade".rafler']              # it writes a basket: Z3 proves it
    assert tally["unchanged"] == ['"Poivre noir".flairer']      # it writes nothing the invariant reads
    assert tally["broken"] == tally["undecided"] == []


def test_a_break_at_a_decision_inside_the_move_is_found_where_the_interpreter_checks():
    """The basket is as full after the power as before, but not when its holder chooses the lot to put back."""
    search = _search(GAME, HOUSE / "échange.rules")
    found = search.broken_invariants(only={'"Muscade".échanger'})
    assert [f.kind for f in found] == ["invariant-broken"]
    assert "at the decision tests/fixtures/invariants/échange.rules:16:5" in found[0].message
    assert found[0].confirmed is True, found[0].replayed
    assert found[0].replayed.startswith("the interpreter stops: the game broke the invariant deux_lots_au_plus")


def test_the_4th_editions_invariants_read_what_only_the_theatre_and_the_draft_write():
    """The frame of every move of the 4th edition (no Z3): only the Théâtre's power, which does the exchange,
    may write the characters the invariants count (the exchange itself is no move: no `offer` proposes it);
    the rest keep them unchanged.  The procedures of the draft and of the turn write them too, and are listed
    as not covered."""
    search = _search("spec/citadelles")
    from checker.conflicts.inductive import _moves, _reads, _action_parts, _meets
    reads = _reads(search)
    assert set(reads) == {"un_personnage_par_joueur", "deux_personnages_à_deux_ou_trois",
                          "un_personnage_de_chaque_rang"}
    meeting = set()
    for kind, label, decl, _ in _moves(search.p):
        parts = _action_parts(search.p, label) if kind == "action" else decl.body
        if any(_meets(r, move_writes(search, parts)) for r in reads.values()):
            meeting.add(label)
    assert meeting == {'"Théâtre".théâtre_échanger'}
    assert "échanger_son_personnage" not in {label for _, label, _, _ in _moves(search.p)}
    assert "choisir_un_personnage" in uncovered_procedures(search)["un_personnage_de_chaque_rang"]


def _full_questions(search) -> list:
    """The full questions ``search`` asks from now on (their answers), as a list that fills as it goes."""
    asked, solve = [], search.solve

    def counted(*args, **kwargs):
        answer = solve(*args, **kwargs)
        asked.append(answer[0])
        return answer
    search.solve = counted
    return asked


def test_the_theatres_exchange_keeps_the_invariants_at_two_players():
    """Each question is refuted as it is (checker.conflicts.relaxed.Eager): every invariant holding before
    the exchange — without them, a player may hold three characters before it and after it — and no full
    question (a witness's selection, its tightening) is asked."""
    search = _search("spec/citadelles", players=2)
    full = _full_questions(search)
    assert search.broken_invariants(only={'"Théâtre".théâtre_échanger'}) == []
    tally = search.inductive
    assert all(tally[name]["proven"] == ['"Théâtre".théâtre_échanger'] for name in tally)
    assert full == []
    # a budget, not a timing: the per-player split asks two seats of deux_personnages and nine ranks (the
    # invariant of 4 players or more folds to true at 2); 3.5 s CPU when this was written
    assert search.queries <= 11


def test_what_the_first_asking_cannot_refute_is_asked_in_full():
    """The Muscade that breaks the cap: its question has a model, so it is asked in full, which finds the
    witness; bounded by its `requires`, it is refuted with no full question."""
    search = _search(GAME, HOUSE / "rafle.rules")
    full = _full_questions(search)
    assert [f.kind for f in search.broken_invariants(only={'"Muscade".rafler'})] == ["invariant-broken"]
    assert full == ["sat"]
    search = _search(GAME, HOUSE / "rafle_borné.rules")
    full = _full_questions(search)
    assert search.broken_invariants(only={'"Muscade".rafler'}) == [] and full == []


def test_conflicts_effects_reports_the_broken_invariant_and_the_tally_as_json(capsys):
    import json
    from checker.cli import main
    code = main(["conflicts", str(GAME), str(HOUSE / "rafle.rules"), "--workers", "1", "--effects", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    broken = [f for f in report["findings"] if f["kind"] == "invariant-broken"]
    assert [f["rules"] for f in broken] == [["acheter", "deux_lots_au_plus"], ['"Muscade".rafler', "deux_lots_au_plus"]]
    assert all(f["confirmed"] for f in broken)
    tally = report["invariants"]["deux_lots_au_plus"]
    assert tally["broken"] == ["acheter", '"Muscade".rafler'] and tally["unchanged"] == ['"Poivre noir".flairer']


def test_the_shards_tallies_merge_into_the_single_process_one():
    from checker.conflicts.parallel import merge_inductive
    first = {"inv": {"unchanged": ["a"], "proven": [], "broken": ["b"], "undecided": [], "uncovered": ["p"]}}
    second = {"inv": {"unchanged": ["c"], "proven": ["d"], "broken": [], "undecided": [], "uncovered": ["p"]}}
    assert merge_inductive([first, second]) == {
        "inv": {"unchanged": ["a", "c"], "proven": ["d"], "broken": ["b"], "undecided": [], "uncovered": ["p"]}}


def test_the_krakens_witness_on_the_unfixed_fan_files_loads_and_the_interpreter_confirms_it():
    """The fan invariant reads `personnages_par_joueur()`, which counts `selected(Character)`: the witness holds
    the selection of characters the search counted — a game's, which the spec's constraints allow, not the whole
    deck — else the interpreter reads another number of characters a player than Z3 did (issue 22)."""
    search = _search("spec/citadelles", "tests/fixtures/fan-unfixed/extension-fan")
    found = search.broken_invariants(only={'"Kraken".enlèvement'})
    assert [(f.kind, f.rules) for f in found] == [("invariant-broken",
                                                   ('"Kraken".enlèvement', "personnages_de_chaque_joueur"))]
    f = found[0]
    assert f.confirmed is True, f.replayed
    assert f.replayed == "after the move, the interpreter finds personnages_de_chaque_joueur broken"
    E = search.engine
    deck = {E.def_names[E.defs[i]] for i in E.selected["Character"]}
    chosen = set(f.witness["selection"]["Character"])
    assert chosen < deck and f.configuration == "", (chosen, f.configuration)
    assert all(c in chosen for cards in f.witness["zones"]["choisis"].values() for c in cards)
    # the Kraken's holder has one character more than the game deals, before the Kraken takes one
    assert any(s.startswith("Kraken ∈ choisis[") for s in f.situation), f.situation


def test_a_procedure_that_fills_a_full_basket_breaks_the_invariant_and_one_that_checks_is_proven():
    """The procedures the flow runs between decisions, asked as moves are (``procedures=True``): run from their
    start on a state that meets every invariant, with any argument."""
    from checker.conflicts.inductive import broken_invariants
    search = _search(GAME, HOUSE / "étrennes.rules")
    found = broken_invariants(search, only={"étrenne", "étrenne_bornée"}, procedures=True)
    tally = search.inductive["deux_lots_au_plus"]
    assert tally["broken"] == ["étrenne"] and tally["proven"] == ["étrenne_bornée"]
    assert tally["uncovered"] == ["étrenne"]            # the proven one is covered now
    assert [(f.kind, f.rules) for f in found] == [("invariant-broken", ("étrenne", "deux_lots_au_plus"))]
    f = found[0]
    assert "the procedure, run from its start, breaks the invariant deux_lots_au_plus" in f.message
    assert f.confirmed is True, f.replayed
    assert f.replayed == "after the move, the interpreter finds deux_lots_au_plus broken"
    assert any(s.startswith("call étrenne(Joueur ") for s in f.situation), f.situation
    # without procedures=True, nothing is asked of them: both are listed as not covered
    plain = _search(GAME, HOUSE / "étrennes.rules")
    assert broken_invariants(plain, only={"étrenne", "étrenne_bornée"}) == []
    assert plain.inductive["deux_lots_au_plus"]["uncovered"] == ["étrenne", "étrenne_bornée"]


def test_a_procedure_kept_only_on_the_paths_that_complete_is_not_proven(tmp_path):
    """A procedure that keeps the invariant wherever it completes, but stops with an error from some state that
    meets every invariant (a table looked up at a key with no row), is undecided with the error's place — not
    proven: its errors are searched by nobody else, and when every state stops it, "kept" would be vacuous (the
    4th edition's `choix_standard`, whose lookup has no row for the 27 characters the search selects)."""
    from checker.conflicts.inductive import broken_invariants
    house = tmp_path / "étrennes_table.rules"
    house.write_text((HOUSE / "étrennes.rules").read_text(encoding="utf-8") + """
table place_de(lots: Int): Int {
  case 0 -> 2
  case 1 -> 1
}

procedure étrenne_tabulée(p: Player) {
  if place_de(count(l in panier[p])) > 0 {
    choose l in étal at random
    move l to panier[p]
  }
}
""", encoding="utf-8")
    search = _search(GAME, house)
    found = broken_invariants(search, only={"étrenne_tabulée", "étrenne_bornée"}, procedures=True)
    tally = search.inductive["deux_lots_au_plus"]
    assert tally["proven"] == ["étrenne_bornée"] and tally["undecided"] == ["étrenne_tabulée"], tally
    [f] = found
    assert f.kind == "unknown" and f.rules == ("étrenne_tabulée", "deux_lots_au_plus")
    assert "on the paths that complete, but from such a state it can stop with an error: table place_de has no " \
           "row" in f.message, f.message


_COUNTED = """
# A fourth lot: a game is set up with three of the four (the game's constraint trois_lots), and a table keyed on
# the selection's size has a row for 3 only.
card Lot "Muscade" { épice: cannelle  prix: 3 }

table place_selon(lots: Int): Int {
  case 3 -> 1
}

procedure étrenne_comptée(p: Player) {
  if place_selon(count(l in selected(Lot))) > 0 and count(l in panier[p]) < 2 {
    choose l in étal at random
    move l to panier[p]
  }
}

procedure étrenne_forcée(p: Player) {
  if place_selon(count(l in selected(Lot))) > 0 {
    choose l in étal at random
    move l to panier[p]
  }
}
"""


def _counted(tmp_path) -> Path:
    house = tmp_path / "étrennes_comptées.rules"
    house.write_text((HOUSE / "étrennes.rules").read_text(encoding="utf-8") + _COUNTED, encoding="utf-8")
    return house


def test_a_procedure_reading_the_selection_is_searched_over_a_games_selection_not_the_whole_deck(tmp_path):
    """`selected(Lot)` in a search is a game's selection: each card behind its *selected* Boolean, the spec's
    constraints on them (three lots of four).  The lookup keyed on its size has a row in every game, so the
    procedure is proven; over the whole deck (four lots, as the searches read it before) it has none, and the
    procedure was undecided (« table place_selon has no row »)."""
    from checker.conflicts.inductive import broken_invariants
    search = _search(GAME, _counted(tmp_path))
    found = broken_invariants(search, only={"étrenne_comptée"}, procedures=True)
    assert found == [], [f.message for f in found]
    assert search.inductive["deux_lots_au_plus"]["proven"] == ["étrenne_comptée"]


def test_a_witness_reading_the_selection_holds_the_selection_the_search_read(tmp_path):
    """The procedure that fills a full basket, behind a lookup keyed on the selection's size: its witness's
    selection is the three lots the model selects (the four of the deck before: the interpreter stopped on the
    lookup, and did not confirm the break), and the lots it places are among them."""
    from checker.conflicts.inductive import broken_invariants
    search = _search(GAME, _counted(tmp_path))
    found = broken_invariants(search, only={"étrenne_forcée"}, procedures=True)
    assert [(f.kind, f.rules) for f in found] == [("invariant-broken", ("étrenne_forcée", "deux_lots_au_plus"))]
    f = found[0]
    assert f.confirmed is True, f.replayed
    chosen = f.witness["selection"]["Lot"]
    assert len(chosen) == 3 and f.configuration == "", (f.witness, f.configuration)
    placed = [card for cards in f.witness["zones"].values()
              for card in (cards if isinstance(cards, list) else [c for v in cards.values() for c in v])]
    assert placed and all(card in chosen for card in placed), (placed, chosen)
