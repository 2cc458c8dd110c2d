"""The French play log shows each logged value by its type (checker/runtime/showing.py), on a tiny game: a
negative Int is a number even where a card's definition has that number inside the engine (definitions are
-1, -2, …), a non-empty set of cards is their names, an empty one "rien", enum values their names, and a Text
option is shown as its text (checker/human/words.py hands Int and Text values to Engine.show).  Written for
the survivors of the blind runtime sample (bench/results/mutation-2026-11-28-f.txt)."""

from __future__ import annotations

from checker.front.check import check_paths
from checker.runtime import Engine
from conftest import run_cli

GAME = """
game "Montre" {
  edition: "test"
  players: 2..4
  flow: partie
}
enum Couleur { rouge, bleu }
kind Carte { couleur: Couleur  start: pioche }
card Carte "Rubis" { couleur: rouge }
card Carte "Saphir" { couleur: bleu }
zone pioche: pile of Carte public
zone main[Player]: set of Carte public
var rang: Int = 0
var bilan[Player]: Int = 0
procedure partie() {
  for p in players {
    set rang = rang + 1
    set bilan[p] = 0 - rang
    if rang == 1 { draw 2 from pioche to main[p] }
  }
  for p in players {
    log "{0} : bilan {1}, main {2}, couleurs {3}", p, bilan[p], main[p], collect(c in main[p]: c.couleur)
  }
  for p in filter(q in players where bilan[q] == 0 - 1) {
    choose côté in {"pile", "face"} by p
    log "{0} dit {1}", p, côté
  }
  log "en positif : {0}", filter(p in players where bilan[p] > 0)
  log "rangs : {0} et {1}", rang, 0 - rang
}
configuration "Standard" { players: 2..4  include Carte: "Rubis", "Saphir" }
"""


def test_the_play_log_shows_negative_numbers_card_names_and_empty_sets_by_their_type(capsys, tmp_path):
    spec = tmp_path / "montre.rules"
    spec.write_text(GAME, encoding="utf-8")
    code, out, err = run_cli(capsys, "play", str(spec), "-n", "2", "-s", "1")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[:8] == [
        "Montre — Standard, 2 joueurs, graine 1",
        "  Joueur 1 : bilan -1, main Saphir, Rubis, couleurs bleu, rouge",
        "  Joueur 2 : bilan -2, main rien, couleurs rien",
        "  Joueur 1 choisit une option : Face",
        "  Joueur 1 dit face",
        "  en positif : rien",
        "  rangs : 2 et -2",
        "",
    ], out


def test_kind_copies_counts_the_physical_cards_of_that_kind_only(tmp_path):
    """``Engine.kind_copies`` (what the code generator asks to know whether a loop over a kind's cards is small
    enough not to count against MAX_WORK): every copy of every card of the kind, and no card of another kind."""
    text = """
game "Jeu" {
  edition: "test"
  players: 2..4
  flow: partie
}
kind Carte {
  force: Int in 0..9
  copies: Int = 1
  start: pioche
}
kind Jeton {
  start: réserve
}
zone pioche: pile of Carte public
zone réserve: pile of Jeton public
card Carte "A" { force: 1  copies: 3 }
card Carte "B" { force: 2 }
card Jeton "Rond" { }
card Jeton "Carré" { }
card Jeton "Triangle" { }
card Jeton "Étoile" { }
card Jeton "Croix" { }
procedure partie() { stop }
"""
    path = tmp_path / "jeu.rules"
    path.write_text(text, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    e = Engine(result.typed)
    assert (e.kind_copies("Carte"), e.kind_copies("Jeton")) == (4, 5)
