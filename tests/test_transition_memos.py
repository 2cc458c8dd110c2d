"""The encoder's memos kept across an effect's writes (checker/solver/memo.py): a statement that writes a cell
drops the memos that read it, and only those; the others are reused.  The same effect encoded twice — with
the memos kept, and with every memo dropped at each write (as before they were kept) — must give the same
transition: the same cells written, to the same terms (Z3 shares equal terms, so "the same" is `eq`), the same
failures with the same conditions, the same constraints and choices, the same `only(…)` notes and elements
spent; and it builds fewer legality terms.

The moves are the 4th edition's that build most legality terms: the Condottiere's destruction (its `requires`
asks `can` of every district of every city, before the power is used and after), and building a district (a
transfer, then the reactions to `quartier_payé` and `quartier_bâti`), as the effect-failure search encodes them."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from checker.conflicts.effects import encode_effect
from checker.front.types import PLAYER
from checker.solver.encode import Encoder, is_const
from checker.solver.transition import Transition
from conftest import ROOT


@functools.cache
def _search():
    import os
    from checker.conflicts.questions import Search
    from checker.front.check import check_paths
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        result = check_paths([Path("spec/citadelles")])
    finally:
        os.chdir(here)
    assert result.ok
    return Search(result.typed, None)


def _encode(label: str, keep: bool) -> tuple[Encoder, Transition]:
    search = _search()
    enc = search.encoder()
    enc.memos.keep = keep
    decl = card = None
    if label.startswith('"'):
        name, power = label[1:].split('".')
        card = search.p.cards[name]
        decl = next(x for x in card.powers if x.name == power)
    t = encode_effect(search, enc, label, decl, card)[2]
    return enc, t


def _same(a, b) -> bool:
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if is_const(a) or is_const(b):
        return is_const(a) and is_const(b) and a == b
    return a.eq(b)


@pytest.mark.parametrize("label,shared", [('"Condottiere".détruire_un_quartier', True), ("bâtir", False)])
def test_kept_memos_give_the_transition_that_dropping_them_all_gives(label, shared, monkeypatch):
    enc_all, all_ = _encode(label, keep=False)
    asked = []          # each time a rule's condition is asked, with the memos kept
    applies = Encoder.applies
    monkeypatch.setattr(Encoder, "applies", lambda self, *args: asked.append(args) or applies(self, *args))
    enc_kept, kept = _encode(label, keep=True)
    assert set(all_.store.writes) == set(kept.store.writes)
    assert all(_same(all_.store.writes[k], kept.store.writes[k]) for k in all_.store.writes)
    assert len(all_.store.moves) == len(kept.store.moves) and all(
        _same(list(a[0].values()), list(b[0].values())) and a[1:4] == b[1:4] and _same(a[4], b[4])
        for a, b in zip(all_.store.moves, kept.store.moves))
    assert [(f.span, f.reason, f.constraints) for f in all_.failures] == \
        [(f.span, f.reason, f.constraints) for f in kept.failures] and all_.failures
    assert all(_same(a.when, b.when) for a, b in zip(all_.failures, kept.failures))
    assert _same(all_.constraints, kept.constraints)
    assert [(c.span, c.var) for c in all_.choices] == [(c.span, c.var) for c in kept.choices]
    assert all(_same(a.reached, b.reached) for a, b in zip(all_.choices, kept.choices))
    assert _same(enc_all.defined, enc_kept.defined)
    assert enc_all.spent == enc_kept.spent
    assert [(w, s) for _, w, s in all_.cuts] == [(w, s) for _, w, s in kept.cuts]
    # fewer legality terms built; each rule's condition built once for the arguments it reads
    assert enc_kept.memos.built["legal"] < enc_all.memos.built["legal"]
    # (the Condottiere's `can` over every district of every city asks the same conditions again and again)
    assert 0 < enc_kept.memos.built["rules"] < len(asked) if shared else enc_kept.memos.built["rules"] == len(asked)


def test_a_memo_that_read_a_written_cell_is_built_again_and_the_others_are_kept():
    """Every quantity of one player, read for Joueur 1; a counter some of them read written: those are built
    again when read (their memos are gone), the others are the same memos, and a legality term that reads it goes
    too."""
    search = _search()
    enc = search.encoder()
    p = search.p
    names = [n for n, d in p.quantities.items() if [enc.resolve(x.type) for x in d.params] == [PLAYER]]
    for name in names:
        enc.quantity(name, (0,))
    reads = {n: enc.memos.quantities[(n, ((0,),))].reads for n in names}
    t = Transition(enc)         # a store over the state: the memos made so far hold over it
    written = "trésor"
    readers = [q for q in names if ("var", written) in reads[q]]
    others = [q for q in names if ("var", written) not in reads[q]]
    assert readers and others, reads
    kept = {q: enc.memos.quantities[(q, ((0,),))] for q in names}
    t.store.write(("var", written, 0), 7, True)
    t.forget()
    assert not [q for q in readers if (q, ((0,),)) in enc.memos.quantities]
    assert all(enc.memos.quantities[(q, ((0,),))] is kept[q] for q in others)
    now = {q: enc.quantity(q, (0,)) for q in names}
    enc.memos.keep = False      # every memo dropped: each term built again from the store
    t.forget()
    again = {q: enc.quantity(q, (0,)) for q in names}
    assert all(_same(now[q], again[q]) for q in names)
    assert any(not _same(now[q], kept[q].value) for q in readers)      # the write is read
    enc.memos.keep = True
    # a legality term that reads the counter goes too (and one that reads nothing written stays)
    stays = {}
    for name in ("bâtir", "assassiner"):
        args, _ = search.action_args(enc, name)
        enc.legality(name, args)
        key = (name, tuple(enc.key(a) for a in args))
        entry = enc.memos.legal[key]
        t.store.write(("var", written, 1), 3, True)
        t.forget()
        stays[name] = key in enc.memos.legal
        assert stays[name] == (("var", written) not in entry.reads)
    assert stays == {"bâtir": False, "assassiner": True}


def test_a_power_that_reads_a_city_at_a_chosen_player_after_moving_cards_gets_the_city_as_it_is_then():
    """The Poudrière's power chooses a player and reads his city (a zone at a symbolic index, memoised), then
    destroys cards of it and reacts: the memo of the city at that index read the zone, and a move out of it drops
    it.  (It once noted nothing — its zone's read went to the memo using it — and was reused after the move:
    the transition differed from the one built without memos, and `diff` could no longer prove a clarification
    of the Poudrière changes no game.)"""
    _, all_ = _encode('"Poudrière".poudrière_exploser', keep=False)
    enc_kept, kept = _encode('"Poudrière".poudrière_exploser', keep=True)
    assert set(all_.store.writes) == set(kept.store.writes)
    assert all(_same(all_.store.writes[k], kept.store.writes[k]) for k in all_.store.writes)
    assert len(all_.store.moves) == len(kept.store.moves) and all(
        _same(list(a[0].values()), list(b[0].values())) and a[1:4] == b[1:4] and _same(a[4], b[4])
        for a, b in zip(all_.store.moves, kept.store.moves))
    assert all(_same(a.when, b.when) for a, b in zip(all_.failures, kept.failures)) and all_.failures
    at_index = [e for (zone, _), e in enc_kept._zones.items() if zone == "cité"]
    assert all(("in", "cité") in e.reads for e in at_index)
