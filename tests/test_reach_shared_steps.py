"""The steps' questions (checker/solver/unroll_step.py) shared by lemmas that ask them up to a renaming of their cells
(checker/reach/summary.py, `_Answers`): on the 4th edition the step of the Voleur's turn was built and asked again,
the same question up to the character's cells, for four other characters (some 57 s each, while each lemma
unrolled: before its own questions were found to be the Voleur's).  The market of tests/fixtures/shared_steps/, a
turn a `Moment`: Matin's and Soir's turns ask the same step questions; where Soir's permit differs, they do not,
and nothing is shared (a shared answer there would prove a false bound)."""

from __future__ import annotations

from pathlib import Path

from test_reach_ranking import _reach, _unknown_for_p

FIXTURES = Path(__file__).parent / "fixtures" / "shared_steps"
SAME = FIXTURES / "marché_par_moment.rules"
SOIR_DOUBLE = FIXTURES / "marché_soir_double.rules"
THREE_LOTS = "tours_joués == 0 and count(l in panier[Joueur 1]) >= 3"
KEEP = ["--keep", "achats_du_tour,tours_joués,bourse,étal,réserve,permis_du_tour"]


def _stepped(capsys, monkeypatch, spec):
    """The summarised round with every bound question of the owner's basket unknown (the step proves the owner's
    bound, as on the 4th edition) and the lemmas' own renaming off (each lemma asks its step, as when the step is
    asked while the lemma unrolls): (exit code, the JSON, how many solvers the step made)."""
    import checker.reach.summary as summary
    import checker.solver.unroll_step as unroll_step
    _unknown_for_p(monkeypatch)
    monkeypatch.setattr(summary._Shape, "renames_to", lambda self, other: False)
    made = []
    real = unroll_step.make_solver

    def counting(*args, **kw):
        made.append(1)
        return real(*args, **kw)
    monkeypatch.setattr(unroll_step, "make_solver", counting)
    code, s = _reach(capsys, spec, THREE_LOTS, "--rounds", "1", "--summarise", "tour", *KEEP)
    return code, s, len(made)


def test_a_step_whose_questions_are_anothers_up_to_its_cards_cells_has_its_answers(capsys, monkeypatch):
    """Soir's step is Matin's with the moment's cells exchanged: its questions are answered by Matin's, none asked
    (a version that asked them made 8 solvers, not 4); both bounds 1, and the round proved as the plain search
    proves it."""
    plain, p = _reach(capsys, SAME, THREE_LOTS, "--within", "8")
    assert (plain, p["status"]) == (1, "proved"), p
    code, s, made = _stepped(capsys, monkeypatch, SAME)
    assert (code, s["status"]) == (1, "proved"), s
    matin, soir = s["lemmas"]
    assert "at most 1 for p" in matin and "at most 1 for p" in soir, s["lemmas"]
    assert "own bound by one question" in matin and "answered as a step's asked before" not in matin, matin
    assert "(0 questions; 1 answered as a step's asked before, its cells renamed)" in soir, soir
    assert made == 4, made          # Matin's step ("grows", the permit 0 and 1, the arrivals); Soir's: none


def test_a_step_whose_permit_differs_asks_its_own_questions(capsys, monkeypatch):
    """Soir's permit is two purchases: its step's questions are not Matin's renamed (a constant differs), so they are
    asked — its bound is 2, not Matin's 1 — and the round is not proved: Joueur 1 does put three lots in his basket
    in the first round (the plain search reaches it)."""
    plain, p = _reach(capsys, SOIR_DOUBLE, THREE_LOTS, "--within", "8")
    assert (plain, p["status"]) == (0, "reached"), p
    code, s, made = _stepped(capsys, monkeypatch, SOIR_DOUBLE)
    assert (code, s["status"]) == (4, "undecided"), s
    matin, soir = s["lemmas"]
    assert "at most 1 for p" in matin and "at most 2 for p" in soir, s["lemmas"]
    assert "answered as a step's asked before" not in soir, soir
    assert made > 2, made


def test_where_the_lemma_built_its_step_the_owners_bound_is_asked_of_it_first(capsys, monkeypatch):
    """The lemma's unrolling built the step (to bound its offer's questions): the owner's bound is asked of it first,
    no question "more than b arrived for p" (on the 4th edition those ended satisfiable or unknown, 10 to 70 s each,
    before the step was tried); the bound and the answer are the same.  A version that asked them first fails here."""
    import sys

    import checker.reach.summary as summary
    mine = []
    real = summary.run

    def run(solver, *assumptions):
        frame = sys._getframe(1).f_locals
        if frame.get("mine") is True:
            mine.append(frame["b"])
        return real(solver, *assumptions)
    monkeypatch.setattr(summary, "run", run)
    code, s = _reach(capsys, SAME, THREE_LOTS, "--rounds", "1", "--summarise", "tour", *KEEP)
    assert (code, s["status"]) == (1, "proved"), s
    matin = s["lemmas"][0]
    assert "at most 1 for p, 0 for another player" in matin and "own bound by one question, asked first" in matin, matin
    assert mine == [], mine
