"""The conflict search on a tiny game (one action whose actor is its *second* argument): each finding's
witness is a decision point of the player who acts — the offer's player, not the action's first player
argument — and a finding with no move (two values for one quantity) is put at the first seat's offer.
Cheap enough to run for every change of the conflict search (bench/mutation.py maps it, unlike the
minutes of tests/test_conflicts.py)."""

from __future__ import annotations

import json

GAME = """game "Dons" { players: 2..3  flow: partie  turn: tour }

counter réserve unlimited
counter bourse[Player] public
var tours: Int = 0

quantity générosité(p: Player): Int = 0

action donner(q: Player, p: Player) "p donne une pièce à q." {
  transfer 1 from bourse[p] to bourse[q]
}

rule pas_sans_pièce { forbid donner(q, p) when bourse[p] < 1 }
rule aux_démunis { permit donner(q, p) when q != p and bourse[q] == 0 }
rule un_peu_généreux { value générosité(p) = 1 when bourse[p] >= 2 }
rule très_généreux { value générosité(p) = 2 when bourse[p] >= 3 }

procedure partie() {
  for p in players { transfer 2 from réserve to bourse[p] }
  repeat {
    for p in players { call tour(p) }
    set tours = tours + 1
  } until tours >= 3
}
procedure tour(p: Player) {
  offer p { donner(q, p) for q in players  finish "Passer" }
}
"""


def test_a_witness_is_put_at_the_offer_of_the_player_who_acts(tmp_path, capsys):
    from checker.cli import main
    game = tmp_path / "dons.rules"
    game.write_text(GAME, encoding="utf-8")
    code = main(["conflicts", str(game), "--workers", "1", "--json"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    findings = {f["kind"]: f for f in json.loads(out)["findings"]}
    assert code == 1 and set(findings) == {"contradiction", "competing-values"}, findings
    gift = findings["contradiction"]
    assert gift["rules"] == ["aux_démunis", "pas_sans_pièce"]
    move, state = gift["move"], gift["witness"]
    giver, receiver = move["args"][1], move["args"][0]
    assert giver != receiver, "aux_démunis: a gift to someone else"
    # the offer is p's (offer p { donner(q, p) … }): the giver decides, not the action's first player
    assert move["player"] == giver and state["decision"]["player"] == giver
    assert state["decision"]["names"] == {"p": giver}
    assert state["vars"]["bourse"][giver] == 0 and state["vars"]["bourse"][receiver] == 0
    values = findings["competing-values"]
    assert values["rules"] == ["un_peu_généreux", "très_généreux"] and values["move"] is None
    assert values["witness"]["decision"]["player"] == "Joueur 1", "no move: the first seat's offer"
    assert max(values["witness"]["vars"]["bourse"].values()) >= 3


def test_a_witness_is_judged_on_the_search_s_own_engine_whose_game_is_then_as_before(tmp_path):
    """The interpreter that re-judges a contradiction's witness is the search's engine (no second engine
    compiled): after it, the engine's game is started again on every card at the largest player count, so what
    the search asks next is encoded as on a fresh search's engine, and finds the same."""
    from checker.conflicts.questions import Search
    from checker.front.check import check_paths
    game = tmp_path / "dons.rules"
    game.write_text(GAME, encoding="utf-8")
    result = check_paths([game])
    assert result.ok
    search = Search(result.typed)
    gift, = search.contradictions()
    assert gift.confirmed is True and gift.witness["players"] == 2      # loaded at 2 players …
    assert search._judge is None                                         # … into the search's own engine
    fresh = Search(result.typed)
    assert search.engine.setup == fresh.engine.setup and search.engine.st.n == search.high == 3
    assert search.engine.st.vars == fresh.engine.st.vars
    assert [(f.kind, f.rules, f.witness) for f in search.competing_values()] == \
        [(f.kind, f.rules, f.witness) for f in fresh.competing_values()]
