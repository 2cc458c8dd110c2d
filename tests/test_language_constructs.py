"""The language constructs the fan expansion needed, each on a tiny game of its own: what they do in
play, and the errors they give.  (The expansion itself is played in tests/test_fan.py.)"""

from __future__ import annotations

from pathlib import Path

from checker.check import check_paths
from checker.runtime import Engine
from checker.runtime.agents import ScriptedAgent

GAME = """
game "Jeu" {
  edition: "test"
  players: 2..4
  flow: partie
}
kind Carte {
  force: Int in 0..9
  controller: porteur
  start: pioche
}
counter banque unlimited
counter bourse[Player] public
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
quantity porteur(c: Carte): Player? = the(p in players where c in main[p])
"""


def checked(tmp_path: Path, *texts: str):
    paths = []
    for i, text in enumerate(texts):
        path = tmp_path / f"{i:02d}.rules"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return check_paths(paths)


def errors(result) -> list[str]:
    return [f"{d.code}: {d.message}" for d in result.reporter.errors]


def started(result, cards: list[str], scripts: list[list[str]]):
    assert result.ok, errors(result)
    e = Engine(result.typed)
    agents = [ScriptedAgent(s) for s in scripts]
    e.start({"Carte": cards}, len(scripts), 0, agents)
    return e, agents


# ---------------------------------------------------------------- powers of a card nobody holds

def test_powers_of_a_card_nobody_holds_are_its_own(tmp_path):
    """`powers of "Absente"` for a card not in the game offers that card's powers, not another's: a card
    named by a literal is its definition, and the offer must not read it as a physical card."""
    result = checked(tmp_path, GAME + """
card Carte "Absente" { force: 1
  power absente_paie "1 pièce" { transfer 1 from banque to bourse[me] } }
card Carte "Présente" { force: 2
  power présente_paie "5 pièces" { transfer 5 from banque to bourse[me] } }
procedure partie() {
  for p in players { offer p { powers of "Absente"  finish "Passer" } }
}
""")
    e, agents = started(result, ["Présente"], [["absente_paie (Absente)", "Passer"], ["Passer"]])
    e.call("partie", ())
    labels = [label for _prompt, labels, _answer in agents[0].seen for label in labels]
    assert "présente_paie (Présente)" not in labels
    assert e.st.vars["bourse"] == {0: 1}
