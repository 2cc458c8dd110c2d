"""`rulebook legal` on a move a permission allows and a prohibition forbids, the prohibition winning by a precedence:
the note names the precedence, its place, and quotes the rulebook sentence it cites
(checker/solver/command.py `_overruled_note`).  Written for the survivor command.py:203 `0 → 1` of the blind solver
sample h169 (bench/results/mutation-2026-11-29-h169.txt): no test printed this note (tests/test_solver.py reads the
same verdict from Legality, not the command's text); the mutant quotes a second sentence the precedence does not
have — `legal` stops with an internal error."""

from __future__ import annotations

from test_legal_explanations import _échevin_state, _write
from test_solver import run


def test_a_move_the_winning_prohibition_forbids_quotes_the_precedence_that_settles_it(capsys, tmp_path):
    """Joueur 1 (the Roi, with the Échevin's signed warrant) confiscates the Temple#2 of his hand while Joueur 2's
    city holds a Temple and a Carrière: the Carrière permits the duplicate, the Échevin's rule forbids it and wins
    (« Quelques précisions sur les Merveilles »)."""
    state_file, move = _write(tmp_path, _échevin_state(), {"player": "Joueur 1", "action": "confisquer",
                                                            "args": ["Joueur 2", "Temple#2"]})
    code, out, err = run(capsys, "legal", state_file, move)
    assert code == 1, out + err
    note = next(line for line in out.splitlines() if "carrière_doublons permits it" in line)
    assert note.startswith("  note: carrière_doublons permits it, but échevin_pas_de_doublon wins (the precedence at ")
    assert "21-merveilles.rules:196" in note
    quote = out.splitlines()[out.splitlines().index(note) + 1]
    assert quote.strip() == ("« mais ne peut pas utiliser l'Échevin, le Diplomate ou le Capitaine pour acquérir des "
                             "quartiers identiques. »")
