"""`diff` by behaviour when the full question is too large: the small states a witness is searched on
(checker.diff.narrow) — where only a witness both interpreters replay counts, never an `unsat` — and the cut at a
choice whose options are proven the same on both sides (checker.diff.cuts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.diff.narrow import PLAYERS, narrowed, relevant
from checker.diff.pair import Pair, Side
from checker.diff.run import diff_results
from checker.diff.steps import plan
from checker.front.check import check_paths
from checker.solver.factory import SolverSettings

BASE = [Path(__file__).resolve().parent.parent / "spec" / "citadelles"]


@pytest.fixture(scope="module")
def base():
    result = check_paths(BASE)
    assert result.ok
    return Side("a", result, BASE)


def _edited(base, tmp_path, card: str, old: str, new: str):
    """The 4th edition with one text of the card's declaration replaced (an overlay `replace`), checked."""
    decl = base.program.cards[card]
    span = decl.span
    text = "\n".join(base.result.sources.get(span.file).lines()[span.line - 1:span.end_line])
    assert text.count(old) == 1
    overlay = tmp_path / "edit.rules"
    overlay.write_text(f'overlay "Edit" on "Citadelles"\nreplace {text.replace(old, new)}\n', encoding="utf-8")
    result = check_paths(BASE + [overlay])
    assert result.ok, [d.message for d in result.reporter.errors]
    return result, BASE + [overlay]


def _diff(base, tmp_path, card: str, old: str, new: str):
    result, paths = _edited(base, tmp_path, card, old, new)
    return diff_results(base, BASE, result, paths, causes=1, minimise=False, first=True)


def test_the_cards_an_exchange_may_meet(base):
    """The Diplomate's exchange asks `can échanger` (rank 8: the Donjon's and the Évêque's protections) and whether a
    city is complete (the Monument counts twice); a district with neither rule nor power is not among them."""
    [power] = [pw for pw in base.program.cards["Diplomate"].powers if pw.name == "échanger_un_quartier"]
    cards = relevant(base.program, [power])
    assert {"Monument", "Donjon", "Évêque"} <= cards
    assert "Taverne" not in cards and "Marchande" not in cards


def test_the_small_states_hold_fewer_cards_and_players(base, tmp_path):
    result, paths = _edited(base, tmp_path, "Diplomate", "    call vérifier_fin_de_partie()\n", "")
    pair = Pair(base, Side("b", result, paths), SolverSettings(incremental=True), 1, False)
    [move] = [m for m in plan(pair).moves if m.subject == 'power "Diplomate".échanger_un_quartier']
    small = narrowed(pair, move)
    E = pair.a.engine
    kept = {E.def_names[E.defs[i]] for insts in small.universe.values() for i in insts}
    assert {"Diplomate", "Monument", "Donjon", "Évêque"} <= kept
    assert sum(len(x) for x in small.universe.values()) < sum(len(x) for x in E.selected.values()) / 3
    assert small.high == min(pair.high, PLAYERS) and pair.universe is None
    enc_a, _ = small.encoders()
    assert len(enc_a.seats) == small.high and len(enc_a.kind_instances["District"]) < len(E.selected["District"])


def test_a_change_too_large_to_encode_stays_undecided_when_small_states_show_nothing(base, tmp_path):
    """The exchange's payment written `+ 0`: too large to encode whole, and no witness on the small states (there,
    both sides do the same) — which proves nothing of the full question: undecided, never equivalent."""
    result = _diff(base, tmp_path, "Diplomate", "transfer coût_de_l_échange(me, d, q, x) from",
                   "transfer coût_de_l_échange(me, d, q, x) + 0 from")
    assert result.status == "undecided"
    [found] = [d for d in result.undecided if d.subject == 'power "Diplomate".échanger_un_quartier']
    assert "200,000 elements" in found.message and "nor found on the states of" in found.message


def test_a_target_filter_that_changes_the_options_is_not_cut(base, tmp_path):
    """The Poudrière's target filter made narrower (its cost at most 2): the options differ, so they are not cut —
    a target offered in A only, which both interpreters replay."""
    result = _diff(base, tmp_path, "Poudrière", "where cible != this and can détruire(me, q, cible)",
                   "where cible != this and can détruire(me, q, cible) and cible.cost <= 2")
    assert result.status == "different"
    [found] = [d for d in result.behavioural if d.kind == "effect"]
    assert found.sides.get("offered") == "a" and found.confirmed is True
