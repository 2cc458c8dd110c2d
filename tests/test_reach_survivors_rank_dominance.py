"""The ranking's shortcut (checker/solver/unroll_rank.py `_dominance`): where a question Q is asked wherever a point
T is reached, the cases "an earlier question was the last one passed before T" are empty — not asked — and the
implication "T reached ⇒ Q asked" is added to the lemma's facts.

- T's guard the constant true and Q's a term: `tour` first asks, only where p holds 4 coins or more, a question of
  two answers that changes nothing (`if bourse[p] >= 4 { offer p { finish … finish … } }`), then the purchase offer:
  its first question is asked on every path, the first one is not.  No syntactic shortcut there (a constant has no
  conjuncts): Z3 is asked, and answers that T is reached without Q.  Survivor of the targeted reach sample (h181,
  #23): unroll_rank.py:167 `if not is_const(t.guard)` → `if is_const(t.guard)` (`conjuncts(True)`: an
  AttributeError, an internal error).
- A question Z3 proves asked wherever T is reached: `tour` ends with a second offer (`rendre` a lot of the basket to
  the stall).  Each such proof ends the search for the first case, and no case before it is asked.  Survivor #24
  (unroll_rank.py:177 `return True` → `return False`: the proof made, the implication added, then the cases before
  it asked anyway — twice the facts and the questions here, 44 and 230 for 22 and 113; the same bound)."""

from __future__ import annotations

from test_reach_ranking import ONE_A_TURN, _lemma, _ranked

START = "  set achats_du_tour = 0\n"
ASKED_SOMETIMES = ('  if bourse[p] >= 4 {\n    offer p {\n      finish "Attendre"\n      finish "Continuer"\n    }\n'
                   '  }\n')
TURN_END = '    acheter(p, l) for l in étal\n    powers of panier[p]\n    finish "Passer"\n  }\n}'
GIVE_BACK = '\n  offer p {\n    rendre(p, l) for l in panier[p]\n    finish "Finir"\n  }\n}'
RENDRE = '\naction rendre(p: Player, l: Lot) "Rendre un lot à l\'étal." { move l to étal }\n'


def _write(tmp_path, name, text):
    spec = tmp_path / name
    spec.write_text(text, encoding="utf-8")
    return spec


def test_a_point_on_every_path_after_a_question_asked_on_some_leaves_the_permits_bound_proven(tmp_path):
    from checker.solver.formulas import is_const
    text = ONE_A_TURN.read_text(encoding="utf-8")
    assert START in text
    spec = _write(tmp_path, "marché_attente.rules", text.replace(START, START + ASKED_SOMETIMES))
    lemma, _, _ = _lemma(spec)
    guards = [m.choice.reached for m in lemma.marks]
    assert not is_const(guards[0]) and any(is_const(g) and g for g in guards[1:]), guards
    bound, shown = _ranked(spec)
    assert bound == 1 and "achats_du_tour stays at most 1" in shown, shown


def test_a_question_proven_asked_wherever_a_point_is_reached_ends_its_cases(tmp_path, monkeypatch):
    from checker.solver import unroll_rank
    text = ONE_A_TURN.read_text(encoding="utf-8")
    assert TURN_END in text
    spec = _write(tmp_path, "marché_rendu.rules", text.replace(TURN_END, TURN_END[:-2] + GIVE_BACK) + RENDRE)
    proofs, first = [], {}
    dominance = unroll_rank._Ranking._dominance

    def spy_dominance(self, mark, t):
        added = len(self.asked_first)
        answer = dominance(self, mark, t)
        if len(self.asked_first) > added:           # proven by Z3: "wherever t is reached, mark was asked"
            proofs.append(answer)
            if answer:
                first[id(t)] = max(first.get(id(t), -1), mark.marks)
        return answer
    monkeypatch.setattr(unroll_rank._Ranking, "_dominance", spy_dominance)
    bound, shown = _ranked(spec)
    assert bound == 1 and "achats_du_tour stays at most 1" in shown, shown
    assert proofs and all(proofs), proofs          # every implication added is one the cases rely on
    assert first
