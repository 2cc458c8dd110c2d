"""A procedure's precondition (`procedure p(…) requires cond { … }`) where an overlay replaces the procedure and
where people read it (docs/language.md, *Procedures*): a `replace procedure` without `requires` keeps the
replaced one's, `requires true` says it has none, `requires cond` states its own; the player's book says it
before the procedure's steps, and the language server shows it and indexes the names it reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker.front.check import check_paths
from checker.runtime.state import SpecRuntimeError
from conftest import ROOT
from test_language_constructs import GAME, checked, errors, started

CITADELLES = ROOT / "spec" / "citadelles"
PREMIÈRE = ROOT / "spec" / "éditions" / "première-édition"

BASE = GAME + """
card Carte "A" { force: 1 }
card Carte "B" { force: 2 }
card Carte "C" { force: 3 }
card Carte "D" { force: 4 }
procedure donner(p: Player) requires count(c in main[p]) == 0 {
  draw 1 from pioche to main[p]
}
procedure partie() {
  for p in players {
    call donner(p)
  }
}
"""
OVERLAY = 'overlay "Deux dons" on "Jeu"\n'
REQUIRES = next(i for i, line in enumerate(BASE.split("\n"), 1) if "requires" in line)    # its line in 00.rules
TWICE = """
replace procedure partie() {
  for p in players {
    call donner(p)
    call donner(p)
  }
}
"""


# ---------------------------------------------------------------- an overlay's `replace procedure`

def test_a_replacement_without_requires_keeps_the_replaced_ones_precondition(tmp_path):
    result = checked(tmp_path, BASE, OVERLAY + TWICE + """
replace procedure donner(p: Player) {
  draw 1 from pioche to main[p]
}
""")
    assert result.ok, errors(result)
    kept = result.program.procedures["donner"].requires
    assert kept is not None and kept.span.file.endswith("00.rules") and kept.span.line == REQUIRES
    engine, _ = started(result, ["A", "B", "C", "D"], [[], []])
    with pytest.raises(SpecRuntimeError, match="procedure donner is called where its precondition") as err:
        engine.call("partie", ())
    assert err.value.span.file.endswith("00.rules") and err.value.span.line == REQUIRES      # the base's `requires`


def test_requires_true_says_the_replacement_has_none(tmp_path):
    result = checked(tmp_path, BASE, OVERLAY + TWICE + """
replace procedure donner(p: Player) requires true {
  draw 1 from pioche to main[p]
}
""")
    assert result.ok, errors(result)
    assert result.program.procedures["donner"].requires is None
    engine, _ = started(result, ["A", "B", "C", "D"], [[], []])
    engine.call("partie", ())
    assert [len(engine.st.zones["main"][p]) for p in (0, 1)] == [2, 2]


def test_requires_true_that_drops_nothing_is_a_warning(tmp_path):
    result = checked(tmp_path, BASE, OVERLAY + """
replace procedure partie() requires true {
  for p in players {
    call donner(p)
  }
}
""")
    assert result.ok, errors(result)
    [warning] = [d for d in result.reporter.diagnostics if d.code == "W0506"]
    assert "procedure partie it replaces has no precondition" in warning.message
    assert (warning.span.line, warning.span.file.endswith("01.rules")) == (3, True)
    dropped = checked(tmp_path, BASE, OVERLAY + TWICE + """
replace procedure donner(p: Player) requires true {
  draw 1 from pioche to main[p]
}
""")
    assert not [d for d in dropped.reporter.diagnostics if d.code == "W0506"]      # it drops donner's


def test_a_replacement_states_its_own_precondition(tmp_path):
    result = checked(tmp_path, BASE, OVERLAY + TWICE + """
replace procedure donner(p: Player) requires count(c in main[p]) < 2 {
  draw 1 from pioche to main[p]
}
""")
    assert result.ok, errors(result)
    assert result.program.procedures["donner"].requires.span.file.endswith("01.rules")
    engine, _ = started(result, ["A", "B", "C", "D"], [[], []])
    engine.call("partie", ())
    assert [len(engine.st.zones["main"][p]) for p in (0, 1)] == [2, 2]


def test_a_replacement_that_changes_the_parameters_says_what_becomes_of_the_precondition(tmp_path):
    new = """
replace procedure donner(q: Player) {
  draw 1 from pioche to main[q]
}
replace procedure partie() {
  for p in players {
    call donner(p)
  }
}
"""
    result = checked(tmp_path, BASE, OVERLAY + new)
    [error] = result.reporter.errors
    assert error.code == "E0505" and "changes the parameters (`donner(p: Player)` in the base)" in error.message
    assert (error.span.line, error.span.column) == (3, 1) and error.span.file.endswith("01.rules")
    assert [n.span.line for n in error.notes] == [REQUIRES] and "requires true" in error.hint
    for stated in ("requires true", "requires count(c in main[q]) == 0"):
        fixed = checked(tmp_path, BASE, OVERLAY + new.replace("donner(q: Player) {", f"donner(q: Player) {stated} {{"))
        assert fixed.ok, errors(fixed)


def test_the_first_edition_keeps_the_drafts_preconditions():
    """The first edition replaces three procedures of the draft without `requires`: they keep the 4th edition's
    (the draft starts from the same state), and `rulebook diff` compares them again."""
    program = check_paths([CITADELLES, PREMIÈRE]).program
    for name in ("choix_des_personnages", "choix_à_trois", "choix_standard"):
        proc = program.procedures[name]
        assert "première-édition" in proc.span.file and proc.requires is not None, name
        assert proc.requires.span.file == "spec/citadelles/01-partie.rules", name


# ---------------------------------------------------------------- where people read it

def _draft_steps(text: str, heading: str) -> list[str]:
    """The lines of a player's chapter under a procedure's heading, up to the next heading."""
    lines = text.split("\n")
    start = lines.index(heading) + 2
    end = next((i - 1 for i in range(start + 1, len(lines)) if set(lines[i]) == {"~"}), len(lines))
    return [line for line in lines[start:end] if line]


def test_the_players_book_says_a_procedures_precondition_before_its_steps():
    from checker.sphinxext import Book, render
    lexicon = ROOT / "docs" / "lexique.toml"
    text = render(Book.load([CITADELLES], lexicon), "player-chapter", "draft")
    two = _draft_steps(text, "Choisir les personnages à 2 joueurs")
    assert two[0] == ("Seulement si le nombre de joueurs est 2, un joueur détient la Couronne et pour chaque joueur, "
                      "le nombre de personnages de ce joueur est 0.") and two[1].startswith("#. ")
    assert [line for line in text.split("\n") if line.startswith("Seulement si") and ":rb:" in line] == []
    # the first edition's draft, replaced without `requires`, keeps the 4th edition's: its book says it too
    first = render(Book.load([CITADELLES, PREMIÈRE], lexicon), "player-chapter", "draft")
    assert _draft_steps(first, "Choisir les personnages")[0] == (
        "Seulement si un joueur détient la Couronne et pour chaque joueur, le nombre de personnages de ce joueur "
        "est 0.")


def test_a_hover_shows_the_precondition_and_where_a_kept_one_was_written():
    from checker.lsp.hover import Describer
    from checker.lsp.index import Symbol, build_index
    from checker.prose import Lexicon
    lexicon = Lexicon.load(ROOT / "docs" / "lexique.toml")
    said = "Seulement si un joueur détient la Couronne et pour chaque joueur, le nombre de personnages de ce joueur est 0."
    result = check_paths([CITADELLES])
    index = build_index(result)
    hover = Describer(result, index, lexicon).describe(Symbol("procedure", "choix_des_personnages"))
    assert said in hover.split("\n") and "remplacée" not in hover
    # the names the precondition reads are indexed: a hover and a definition on `couronne` there
    line = (CITADELLES / "01-partie.rules").read_text(encoding="utf-8").split("\n")[102]
    assert line.startswith("procedure choix_des_personnages() requires")
    use = index.at("spec/citadelles/01-partie.rules", 103, line.index("couronne != none") + 2)
    assert use is not None and (use.symbol.kind, use.symbol.name) == ("var", "couronne")
    result = check_paths([CITADELLES, PREMIÈRE])
    hover = Describer(result, build_index(result), lexicon).describe(Symbol("procedure", "choix_des_personnages"))
    assert f"{said} *(précondition de la procédure remplacée, spec/citadelles/01-partie.rules:103)*" \
        in hover.split("\n")
