"""A ranking's fact skipped only where the state is the same (checker/solver/unroll_rank.py's `_State.same`): the
same members of the watched zones AND the same counter.  Here `tour` has a second offer, after the purchases,
whose only move `compter` adds 5 to the counter `achats_du_tour` and moves no card: from one of its questions to
the next the baskets' members are the same terms, the counter is not.  "achats_du_tour stays at most b at each
step" is false for every b (four questions make 20), and must not be proven.  Survivor of the blind mutation
sample 9171 against the whole suite: unroll_rank.py:79 `a is b` → `a is not b` (the counters never compared:
"achats_du_tour stays at most 1" proven, and added to the lemma's facts)."""

from __future__ import annotations

from test_reach_ranking import ONE_A_TURN, _ranked

TURN_END = '    acheter(p, l) for l in étal\n    powers of panier[p]\n    finish "Passer"\n  }\n}'


def test_a_counter_that_grows_where_no_card_moves_is_not_proven_bounded(tmp_path):
    text = ONE_A_TURN.read_text(encoding="utf-8")
    assert TURN_END in text
    text = text.replace(TURN_END, TURN_END[:-2] + '\n  offer p {\n    compter(p)\n    finish "Finir"\n  }\n}')
    text += '\naction compter(p: Player) "Compter cinq achats." { set achats_du_tour = achats_du_tour + 5 }\n'
    spec = tmp_path / "marché_compté.rules"
    spec.write_text(text, encoding="utf-8")
    assert _ranked(spec) == "achats_du_tour is not proven at most 12 at each step"
