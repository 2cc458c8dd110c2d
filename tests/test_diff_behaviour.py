"""`rulebook diff` compares a changed action, procedure or power by what it does (checker.diff.behaviour):
both sides' statements from the same symbolic state, with the same arguments and the same choices, either
reach the same next state for every state and choice (proven: a change that changes no game), or a witness
shows the values that differ after — and both interpreters, loading the witness and making the move with
its choices, reach those values.  What the encoding cannot cover, and choices that cannot be matched, are
undecided, never equivalent."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from checker.diff import behaviour, replay
from checker.diff.pair import Side
from checker.diff.run import diff_results
from checker.front.check import check_paths
from checker.solver.encode import USE_LABELS
from conftest import ROOT

BASE = [ROOT / "spec" / "citadelles"]
MARKET = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"

MARCHANDE = '''overlay "Variante" on "Citadelles"
replace card Character "Marchande" {
  rank: 6
  gem: Commerçant
  origin: "Citadelles (2000)"
  power revenus_commerçants "1 pièce d'or par quartier Commerçant" {
    transfer revenus(me, Commerçant) from banque to trésor[me]
  }
  power pièce_supplémentaire "1 pièce d'or supplémentaire" {
    transfer AMOUNT from banque to trésor[me]
  }
}
'''

NUTMEG = '''card Lot "Muscade" {
  épice: cannelle
  prix: 1
  power rendre "Rendre un lot à l'étal et reprendre sa mise." {
    requires bourse[me] >= 1
    choose l in panier[me] where l != this
    move l to étal
    transfer 1 from réserve to bourse[me]
  }
}
'''


@pytest.fixture(scope="module")
def citadelles():
    result = check_paths(BASE)
    assert result.ok
    return Side("a", result, BASE)


def _against(base: Side, tmp_path: Path, text: str):
    overlay = tmp_path / "variante.rules"
    overlay.write_text(text, encoding="utf-8")
    other = check_paths(BASE + [overlay])
    assert other.ok, [d.message for d in other.reporter.errors]
    return diff_results(base, BASE, other, BASE + [overlay])


def test_the_marchande_paid_3_minus_2_is_proven_to_change_no_game(citadelles, tmp_path):
    """« Recevez 1 pièce supplémentaire » written `transfer 3 - 2`: the same next state from every state."""
    result = _against(citadelles, tmp_path, MARCHANDE.replace("AMOUNT", "3 - 2"))
    assert result.status == "equivalent", [d.message for d in result.behavioural + result.undecided]
    [change] = result.neutral
    assert change.subject == 'power "Marchande".pièce_supplémentaire'
    assert change.message.endswith("(proven)") and change.sides["proven"]
    assert result.checked["effects"] == 1


def test_another_amount_in_a_power_is_a_difference_both_interpreters_confirm(citadelles, tmp_path):
    result = _against(citadelles, tmp_path, MARCHANDE.replace("AMOUNT", "2"))
    assert result.status == "different"
    [diff] = result.behavioural
    assert diff.kind == "effect" and diff.subject == 'power "Marchande".pièce_supplémentaire'
    [after] = diff.sides["after"]
    assert after["label"].startswith("trésor[Joueur ") and int(after["b"]) == int(after["a"]) + 1
    assert any(line.startswith("Marchande ∈ choisis[Joueur ") for line in diff.situation)
    # the power is unused in the witness (else it would not be offered): no power's use is a line of the situation
    assert not [line for line in diff.situation if line.startswith(tuple(USE_LABELS.values()))], diff.situation
    assert diff.confirmed is True
    assert diff.witness["a"]["players"] == diff.players == 2      # minimised


def _market(tmp_path: Path, a: str, b: str):
    pa, pb = tmp_path / "a.rules", tmp_path / "b.rules"
    pa.write_text(a, encoding="utf-8")
    pb.write_text(b, encoding="utf-8")
    ra, rb = check_paths([MARKET, pa]), check_paths([MARKET, pb])
    assert ra.ok and rb.ok, [d.message for d in ra.reporter.errors + rb.reporter.errors]
    return diff_results(ra, [MARKET, pa], rb, [MARKET, pb])


def test_a_target_filter_removed_is_a_difference_the_interpreters_replay(tmp_path):
    """Without `where l != this`, the card can give itself back: B offers the witness's card, A does not (the
    options are asked before the next states: the cheaper question)."""
    result = _market(tmp_path, NUTMEG, NUTMEG.replace(" where l != this", ""))
    [diff] = result.behavioural
    assert "choix l : Muscade" in diff.situation
    assert diff.sides["offered"] == "b" and "Muscade is an option in B only" in diff.details[0]
    assert diff.confirmed is True
    # the replay can fail: a witness that says the other side offers it is not what the interpreters do
    wrong = copy.deepcopy(diff)
    wrong.sides["offered"] = "a"
    pair = _pair(tmp_path)
    move = next(m for m in behaviour.changed_moves(pair, *_shapers(pair)))
    lot = pair.a.types.resolve(pair.a.program.zones["étal"].kind)
    assert replay.replayed(pair, move, diff, {"l": lot}, diff.sides["choices"]) is True
    assert replay.replayed(pair, move, wrong, {"l": lot}, wrong.sides["choices"]) is False


def _pair(tmp_path: Path):
    from checker.diff.pair import Pair
    ra = check_paths([MARKET, tmp_path / "a.rules"])
    rb = check_paths([MARKET, tmp_path / "b.rules"])
    return Pair(Side("a", ra, []), Side("b", rb, []))


def _shapers(pair):
    from checker.diff.compare import Shaper
    return Shaper(pair.a.program), Shaper(pair.b.program)


def test_an_option_one_side_only_offers_is_a_difference(tmp_path):
    """The choice changes nothing the encoding follows (`reveal`), but B lets the card be chosen: one
    interpreter offers it, the other does not."""
    shown = NUTMEG.replace("    move l to étal\n    transfer 1 from réserve to bourse[me]\n", "    reveal l to me\n")
    result = _market(tmp_path, shown, shown.replace(" where l != this", ""))
    [diff] = result.behavioural
    assert diff.sides["offered"] == "b" and not diff.sides["after"]
    assert "Muscade is an option in B only" in diff.details[0]
    assert diff.confirmed is True


def test_a_limit_once_per_turn_made_once_per_round_is_a_difference_both_interpreters_confirm(tmp_path):
    """The interpreter keeps the turn and the round of a power's last use: a power used in this round but in
    another turn (or in this turn, counted before the round's counter moved) is used up under one limit and not
    the other.  (The encoding once kept one « used up » per power, and proved the two limits the same.)"""
    limited = NUTMEG.replace("    requires bourse", "    limit once per turn\n    requires bourse")
    result = _market(tmp_path, limited, limited.replace("once per turn", "once per round"))
    assert result.status == "different", [d.message for d in result.undecided]
    [diff] = result.behavioural
    assert diff.kind == "effect" and diff.confirmed is True
    [use] = diff.witness["a"]["uses"]
    assert use["power"] == "rendre" and use["turn"] != use["round"]
    # the same limit on both sides, the body rewritten: still proven the same
    same = _market(tmp_path, limited, limited.replace("transfer 1 from", "transfer 3 - 2 from"))
    assert same.status == "equivalent" and [d.sides.get("proven") for d in same.neutral] == [True]


DRAWING = '''card Lot "Muscade" {
  épice: cannelle
  prix: 1
  power piocher "Piocher un lot de l'étal." {
    requires count(l in étal) >= 2
    draw 1 from étal to panier[me]
    transfer AMOUNT from réserve to bourse[me]
  }
}
'''


def test_a_witness_with_a_draw_is_replayed_with_the_drawn_cards_on_top(tmp_path):
    """Which cards a draw takes is an unknown of the encoding: the witness puts them on top of the pile (a state
    file lists a pile from the top down), and both interpreters then draw them — here the card drawn decides
    what B pays."""
    result = _market(tmp_path, DRAWING.replace("AMOUNT", "1"),
                     DRAWING.replace("AMOUNT", "sum(l in panier[me]: l.prix)"))
    [diff] = result.behavioural
    assert diff.kind == "effect" and diff.confirmed is True, diff.sides.get("replay")
    [drawn] = [line for line in diff.situation if line.startswith("choix étal : ")]
    card = drawn.removeprefix("choix étal : {").removesuffix("}")
    for tag in ("a", "b"):
        pile = diff.witness[tag]["zones"]["étal"]
        assert len(pile) >= 2 and pile[0] == card
    # the same witness with another card on top is not what the interpreters reach
    wrong = copy.deepcopy(diff)
    for tag in ("a", "b"):
        pile = wrong.witness[tag]["zones"]["étal"]
        pile.append(pile.pop(0))
    pair = _pair(tmp_path)
    move = next(m for m in behaviour.changed_moves(pair, *_shapers(pair)))
    assert replay.replayed(pair, move, wrong, {}, wrong.sides["choices"]) is False


def test_a_choice_left_to_chance_on_one_side_only_is_a_difference_both_interpreters_confirm(tmp_path):
    """« choose … at random » against a player's choice: the same values, one unknown, so the next states are the
    same for every value — but where both reach the choice with two options or more, chance decides on one side
    and the player on the other.  (The two choices were once « cannot be matched », undecided.)"""
    shown = NUTMEG.replace("    move l to étal\n    transfer 1 from réserve to bourse[me]\n", "    reveal l to me\n")
    result = _market(tmp_path, shown, shown.replace("where l != this", "where l != this at random"))
    assert result.status == "different", [d.message for d in result.undecided]
    [diff] = result.behavioural
    assert diff.sides["chance"] == "b" and "chance decides in B, a player in A" in diff.details[0]
    assert diff.confirmed is True
    # the witness replayed with the choice left to chance on both sides is not confirmed
    pair = _pair(tmp_path)
    move = next(m for m in behaviour.changed_moves(pair, *_shapers(pair)))
    wrong = copy.deepcopy(diff)
    wrong.sides["chance"] = "a"
    lot = pair.a.types.resolve(pair.a.program.zones["étal"].kind)
    assert replay.replayed(pair, move, wrong, {"l": lot}, wrong.sides["choices"]) is False


def test_a_rewritten_body_is_proven_the_same(tmp_path):
    result = _market(tmp_path, NUTMEG, NUTMEG.replace("transfer 1 from", "transfer 3 - 2 from")
                     .replace("where l != this", "where not (l == this)"))
    assert result.status == "equivalent"
    assert [d.sides.get("proven") for d in result.neutral] == [True]


@pytest.mark.parametrize("edit,reason", [
    (("    move l to étal\n", "    repeat {\n      move l to étal\n    } until true\n"),
     "the effect of `Repeat` is not encoded for Z3"),
    (("    choose l in", "    choose k in panier[me]\n    choose l in"),
     "the choices cannot be matched: A chooses l; B chooses k, l"),
    (("move l to étal", "move l to bottom of étal"), "the change touches what the encoding does not follow"),
])
def test_what_cannot_be_compared_is_undecided_never_equivalent(tmp_path, edit, reason):
    result = _market(tmp_path, NUTMEG, NUTMEG.replace(*edit))
    assert result.status == "undecided"
    [undecided] = result.undecided
    assert undecided.subject == 'power "Muscade".rendre' and reason in undecided.message
    # a form the encoding does not cover is not a question too large: it is not asked again on small states
    assert "on the states of" not in undecided.message
    assert not result.neutral, "the change is not listed among those that change no game"


class _Scripted:
    """A pair whose solver answers each part's question from a script: (status at an eighth, status with all)."""

    def __init__(self, answers: dict):
        self.answers, self.asked = answers, []

    def bounds(self, enc_a, enc_b):
        return []

    def solve(self, enc_a, enc_b, *formulas, full=False, fallback=True, **_):
        assert fallback is False, "no part is asked again per player count (minutes on a large body)"
        part = formulas[-1]
        self.asked.append((part, full))
        status = self.answers[part][full]
        return status, ("model" if status == "sat" else None), ("max. resource limit exceeded"
                                                                if status == "unknown" else "")


def test_the_question_asked_part_by_part_is_proven_only_when_every_part_is():
    """Z3 answers a part of the question (a var, a zone's cards…) it would not answer in the whole; the parts
    are asked in turn, each with an eighth of the resources, then those left with all of them: the first
    part with a witness gives it, and the change is proven to change nothing only when every part is unsat."""
    import z3
    x, y, w = z3.Bools("x y w")
    pair = _Scripted({x: ("unsat", "unsat"), y: ("unknown", "unsat"), w: ("unknown", "sat")})
    assert behaviour._solve_parts(pair, None, None, [], [x, y, w])[:2] == ("sat", "model")
    assert pair.asked == [(x, False), (y, False), (w, False), (y, True), (w, True)]
    pair = _Scripted({x: ("unsat", "unsat"), y: ("unknown", "unsat")})
    assert behaviour._solve_parts(pair, None, None, [], [x, y])[0] == "unsat"
    pair = _Scripted({x: ("unsat", "unsat"), y: ("unknown", "unknown")})
    status, _, reason = behaviour._solve_parts(pair, None, None, [], [x, y])
    assert status == "unknown" and "1 of the 1 questions asked with all the resources undecided" in reason
    # past FULL_PARTS parts left, the rest are asked at once with all the resources
    many = z3.Bools("a b c d e f")
    pair = _Scripted({**{v: ("unknown", "unsat") for v in many[:behaviour.FULL_PARTS - 1]},
                      **{v: ("unknown", "unknown") for v in many[behaviour.FULL_PARTS - 1:]}})
    rest = z3.Or(*many[behaviour.FULL_PARTS - 1:])
    pair.answers[rest] = ("unknown", "sat")
    assert behaviour._solve_parts(pair, None, None, [], many)[0] == "sat"
    assert [full for _, full in pair.asked].count(True) == behaviour.FULL_PARTS


GIVING = '''card Lot "Muscade" {
  épice: cannelle
  prix: 1
  power rendre "Rendre des lots à l'étal." {
    choose rendus subset of POOL size LOW..HIGH by me
    move rendus to étal
    transfer AMOUNT from réserve to bourse[me]
  }
}
'''


def _giving(pool="panier[me]", low="1", high="2", amount="count(l in rendus)"):
    return GIVING.replace("POOL", pool).replace("LOW", low).replace("HIGH", high).replace("AMOUNT", amount)


def test_a_subset_with_other_bounds_is_one_choice_whose_options_differ(tmp_path):
    """Up to 2 lots given back, or up to 3: one unknown per lot, shared by both sides, each side's bounds its own
    condition.  Every choice both sides allow leads to the same next state: the difference is a choice of 3 lots,
    which B offers and A does not — both interpreters replay it (A takes 2 and asks no more).  (Such subsets were
    once « made between other bounds », undecided.)"""
    result = _market(tmp_path, _giving(high="2"), _giving(high="3"))
    assert result.status == "different", [d.message for d in result.undecided]
    [diff] = result.behavioural
    assert diff.kind == "effect" and diff.sides["offered"] == "b" and not diff.sides["after"]
    [chosen] = [line for line in diff.situation if line.startswith("choix rendus : ")]
    assert chosen.count(",") == 2, chosen        # three lots
    assert "is an option in B only" in diff.details[0]
    assert diff.confirmed is True
    # the same witness said of A is not what the interpreters do
    wrong = copy.deepcopy(diff)
    wrong.sides["offered"] = "a"
    pair = _pair(tmp_path)
    move = next(m for m in behaviour.changed_moves(pair, *_shapers(pair)))
    lot = pair.a.types.resolve(pair.a.program.zones["étal"].kind)
    spans = {tag: {"rendus": m.decls[0 if tag == "a" else 1].body[0].span} for tag in "ab" for m in [move]}
    assert replay.replayed(pair, move, wrong, {"rendus": lot}, wrong.sides["choices"], None, spans) is False


def test_a_subset_with_other_bounds_and_other_next_states_is_a_difference(tmp_path):
    """At least 1 lot or none: giving none back is B's only; with the bounds of each side's own, the two sides also
    pay otherwise for the same lots — the first part with a witness gives it, and the interpreters confirm."""
    result = _market(tmp_path, _giving(low="1", amount="1"), _giving(low="0", amount="2"))
    assert result.status == "different", [d.message for d in result.undecided]
    [diff] = result.behavioural
    assert diff.kind == "effect" and diff.confirmed is True, diff.sides.get("replay")


def test_a_subset_among_other_pools_is_matched_card_by_card(tmp_path):
    """The lots of one's basket but this one, or all of them: the pools are matched card by card over their union;
    the card itself is an option of B only."""
    result = _market(tmp_path, _giving(pool="filter(l in panier[me] where l != this)", low="0", high="1"),
                     _giving(pool="panier[me]", low="0", high="1"))
    assert result.status == "different", [d.message for d in result.undecided]
    [diff] = result.behavioural
    assert diff.sides["offered"] == "b" and "choix rendus : {Muscade}" in diff.situation, diff.situation
    assert diff.confirmed is True


def test_a_subset_with_the_same_bounds_is_compared_as_before(tmp_path):
    """The same pool and bounds: the subset's constraints bind both sides alike (no option of one side only is
    asked); a rewritten amount is proven the same, another amount is a difference the interpreters confirm."""
    same = _market(tmp_path, _giving(), _giving(amount="count(l in rendus) + 1 - 1"))
    assert same.status == "equivalent" and [d.sides.get("proven") for d in same.neutral] == [True]
    other = _market(tmp_path, _giving(), _giving(amount="1"))
    [diff] = other.behavioural
    assert "offered" not in diff.sides and diff.sides["after"] and diff.confirmed is True


def test_a_subset_whose_greatest_size_is_below_its_least_is_followed_as_the_interpreter_does(tmp_path):
    """`size 1..n - 5`: the interpreter takes at most ``high`` elements — none when it is negative — and goes on.
    The encoding once required 1 ≤ chosen ≤ high there: no next state at all, so a change after the subset was
    « proven » to change no game.  Now the paid amounts differ, with a witness both interpreters confirm."""
    high = "count(l in panier[me]) - 5"
    result = _market(tmp_path, _giving(low="1", high=high, amount="1"), _giving(low="1", high=high, amount="2"))
    assert result.status == "different", [d.message for d in result.neutral + result.undecided]
    [diff] = result.behavioural
    assert diff.sides["after"] and diff.confirmed is True, diff.sides.get("replay")
