"""The question over the counts (checker/solver/unroll_counted.py `Counted.constraints`): after a summary's havoc a
cell holds between 0 and EVERY card of its kind — a basket may end up with all of them.  On the counted fixture of
tests/test_reach_counted.py with two lots only: over two rounds a player buys both (one purchase a turn, a role a
round), so "a basket holds two lots" is reached, and the search must never say proved (the counts have a model: the
full question is asked).  Survivor of the targeted mutation sample h181 (seed 181) of the reach machinery:
unroll_counted.py:213 `x <= size[key]` → `x < size[key]` (a basket never full: two lots "proved" unreachable)."""

from __future__ import annotations

from test_reach_counted import SPEC, _reach

TWELVE = ('"Safran", "Poivre", "Cannelle", "Muscade", "Girofle", "Cumin", "Vanille", "Anis", "Curcuma", "Sumac", '
          '"Cardamome", "Gingembre"')


def test_a_basket_that_takes_every_lot_of_the_kind_is_never_proved_out_of_reach(tmp_path, capsys, monkeypatch):
    text = SPEC.read_text(encoding="utf-8")
    assert TWELVE in text
    text = text.replace(TWELVE, '"Safran", "Poivre"')
    for name in ("Cannelle", "Muscade", "Girofle", "Cumin", "Vanille", "Anis", "Curcuma", "Sumac", "Cardamome",
                 "Gingembre"):
        line = f'card Lot "{name}" {{ prix: 1 }}\n'
        assert line in text
        text = text.replace(line, "")
    spec = tmp_path / "marché_à_deux_lots.rules"
    spec.write_text(text, encoding="utf-8")
    code, out = _reach(capsys, spec, "any(p in players: count(l in panier[p]) >= 2)", 2, monkeypatch)
    assert out["status"] != "proved" and code != 1, out
    assert out["counted"].startswith("over the counts of panier: a model"), out["counted"]
