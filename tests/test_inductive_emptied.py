"""conflicts, *invariant broken* (docs/conflicts.md, the fan's `partie`): a summarised call keeps what a whole-zone
move establishes — the zones the procedure leaves empty (checker/conflicts/emptied.py, checker/conflicts/loops.py's
`havoc`) —, so a precondition that needs them empty is met right after the summary, as it is after the procedure."""

from __future__ import annotations

from pathlib import Path

import z3

from checker.conflicts.emptied import emptied
from checker.conflicts.inductive import broken_invariants, move_writes
from checker.conflicts.questions import Search
from checker.front.check import check_paths

ROUND = Path("tests/fixtures/emptied/rangement_dans_la_boucle.rules")


def _search(*paths) -> Search:
    result = check_paths([Path(p) for p in paths])
    assert result.ok, result
    return Search(result.typed)


def _emptied(search, name: str) -> frozenset:
    return emptied(search.p, search.p.procedures[name], lambda stmts, **kw: move_writes(search, stmts, **kw))


def test_a_loop_that_summarises_a_put_away_meets_the_precondition_of_the_deal_after_it(monkeypatch):
    """`partie` repeats a round that offers a purchase breaking the invariant, so the round is not summarised in the
    loop: its pass follows the round and summarises the proven `ranger` (every basket moved, whole, to the stall),
    then calls `distribuer`, which requires the baskets empty, then pays the players a hundred times.  The summary
    keeps that the baskets are empty, and the pass stops being followed at the payments (nothing after them in the
    pass, nor after the loop, writes a basket or calls a procedure with a precondition): `partie` is proven.  On
    0d1ce3c, undecided: « distribuer is called where its precondition does not hold », a state no run reaches.
    Without the emptied baskets (the same summary less them), undecided so again; without stopping inside a pass
    (what every invariant reads not known there), undecided at the 200 statements followed of an effect."""
    search = _search(ROUND)
    found = broken_invariants(search, procedures=True)
    assert [(f.kind, f.rules) for f in found] == [("invariant-broken", ("acheter", "deux_lots_au_plus"))], \
        [(f.message, f.unknown) for f in found]
    tally = search.inductive["deux_lots_au_plus"]
    assert sorted(tally["proven"]) == ["distribuer", "manche", "partie", "ranger"], tally
    assert tally["undecided"] == [] and tally["uncovered"] == [], tally

    from checker.conflicts import inductive
    for name, value, why in (("emptied", lambda p, decl, writes: frozenset(), "distribuer is called where its "
                                                                             "precondition"),
                             ("_every_read", lambda search: None, "the encoding follows 200 statements")):
        with monkeypatch.context() as m:
            m.setattr(inductive, name, value)
            search = _search(ROUND)
            found = broken_invariants(search, procedures=True)
        assert [f.rules[0] for f in found if f.kind == "unknown"] == ["partie"], [f.message for f in found]
        assert why in found[-1].unknown, (name, found[-1].unknown)


_SHAPES = """
zone défausse: set of Lot public
zone cave[Player]: set of Lot public

procedure tout_ranger() {
  for p in players { move panier[p] to étal }
  move défausse to étal
  for p in players { move cave[p] to défausse }
}

procedure ranger_puis_rendre(q: Player) {
  for p in players { move panier[p] to étal }
  choose l in étal at random
  move l to panier[q]
}

procedure choisir_puis_ranger() {
  choose l in étal at random
  for p in players { move panier[p] to étal }
}

procedure ranger_les_chers() {
  for p in players { move filter(l in panier[p] where l.prix >= 3) to étal }
}

procedure ranger_puis_offrir(q: Player) {
  for p in players { move panier[p] to étal }
  call tour(q)
}

procedure ranger_puis_distribuer() {
  for p in players { move panier[p] to étal }
  call distribuer()
}
"""


def test_the_zones_a_procedure_leaves_empty_are_those_it_moves_whole_with_nothing_after_bringing_a_card_back(tmp_path):
    """Every cell moved whole to another zone (by seat, or a zone with no index), where nothing before may leave the
    procedure (a `choose` with no option does) and nothing after may move a card back into it (a move, a callee's,
    an `offer`'s moves, which are not followed): only then is the zone said empty."""
    spec = tmp_path / "formes.rules"
    spec.write_text(ROUND.read_text(encoding="utf-8") + _SHAPES, encoding="utf-8")
    search = _search(spec)
    assert _emptied(search, "ranger") == {"panier"}
    assert _emptied(search, "tout_ranger") == {"cave", "panier"}      # défausse: the cellars come into it after
    assert _emptied(search, "ranger_puis_rendre") == frozenset()
    assert _emptied(search, "choisir_puis_ranger") == frozenset()
    assert _emptied(search, "ranger_les_chers") == frozenset()
    assert _emptied(search, "ranger_puis_offrir") == frozenset()
    assert _emptied(search, "ranger_puis_distribuer") == frozenset()
    assert _emptied(search, "distribuer") == frozenset()


def _empty_after(search, name: str) -> list:
    """Z3's answer, per zone ``name`` is said to leave empty, to « a card is in one of its cells in the game after
    ``name``, followed statement by statement, from a well-formed state »."""
    from checker.solver.transition import Transition
    enc = search.encoder()
    t = Transition(enc, lazy_moves=True)
    args, domain = search.params_args(enc, name, search.p.procedures[name].params)
    t.procedure(name, args, True, None)
    answers = []
    for zone in sorted(_emptied(search, name)):
        keys = t.zone_keys(zone, None)
        inside = [z3.And(True if k is None or isinstance(enc.n, int) else enc.n > k, enc.cells.member(zone, k, i))
                  for k in keys for i in enc.kind_instances[enc.zone_kind[zone]]]
        s = z3.Solver()
        s.add(*[f for f in [*domain, *t.constraints, *search.well_formed(enc)] if not isinstance(f, bool)])
        s.add(t.running, z3.Or(inside))
        answers.append((zone, str(s.check())))
    return answers


def test_a_zone_said_empty_is_empty_after_the_procedure_followed_statement_by_statement():
    """The fact is implied by the encoding: after the procedure encoded statement by statement (not summarised),
    from a well-formed state, Z3 finds no card in a cell of a zone said empty — the fixture's put-away and the 4th
    edition's (every player's characters and both discards moved to the pile), which the fan expansion's `partie`
    summarises."""
    assert _empty_after(_search(ROUND), "ranger") == [("panier", "unsat")]
    fan = _search("spec/citadelles", "spec/extension-fan")
    assert [z for z, _ in _empty_after(fan, "ranger_les_personnages")] == ["choisis", "écartés_cachés",
                                                                          "écartés_visibles"]
    assert {a for _, a in _empty_after(fan, "ranger_les_personnages")} == {"unsat"}
