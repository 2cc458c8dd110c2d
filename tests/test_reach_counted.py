"""`rulebook reach --rounds N --summarise PROC`: CONDITION asked first over the watched zones' counts — an Int per
zone's cell after each summary, bounded by its lemma — before the full question over every card's place
(checker/solver/unroll_counted.py, checker/reach/summary.py `_by_counts`).

The fixture (tests/fixtures/counted/marché_aux_rôles.rules): each round every player takes one of four roles, the
roles are called by rank and the holder of each plays a turn of one purchase (`tour`, summarised).  "A basket holds
three lots within two rounds" is then a count over twelve lots' places after sixteen summarised turns: the full
question took 3.2 million steps for one round and did not end within 300 s for two (0d1ce3c, measured); over the
counts, the rounds' growth included, about 0.5 million steps for one round or two (e0b2612).  Both questions are
given the same steps here (20 million): the full question alone ends unknown (undecided), the counts' are unsat
(proved)."""

from __future__ import annotations

import json

from checker.cli import main
from conftest import ROOT

SPEC = ROOT / "tests" / "fixtures" / "counted" / "marché_aux_rôles.rules"
KEEP = ["--keep", "achats_du_tour,tours_joués,bourse,étal,réserve,rôles,choisis"]
STEPS = 20_000_000


def _reach(capsys, spec, condition, rounds, monkeypatch):
    monkeypatch.setattr("checker.reach.cone.FINAL_RLIMIT", STEPS)
    monkeypatch.setattr("checker.reach.summary.COUNT_RLIMIT", STEPS, raising=False)
    code = main(["reach", str(spec), condition, "--rounds", str(rounds), "--summarise", "tour", *KEEP, "-n", "2",
                 "-s", "1", "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_city_count_after_summarised_turns_is_proved_over_the_counts(capsys, monkeypatch):
    """Two rounds, one role each a round, one purchase a turn: no basket holds three lots.  Proved over the counts
    (each turn's summary: at most one more lot for its player, none for the other), where the full question does not
    end within the same steps."""
    code, out = _reach(capsys, SPEC, "any(p in players: count(l in panier[p]) >= 3)", 2, monkeypatch)
    assert (code, out["status"]) == (1, "proved"), out
    assert out["counted"].startswith("proved over the counts of panier"), out["counted"]
    assert all("at most 1 for p, 0 for another player" in line for line in out["lemmas"]), out["lemmas"]


def test_a_model_over_the_counts_is_no_answer(capsys, monkeypatch):
    """Two lots within two rounds are reached (a purchase a round): the counts have a model, which answers nothing —
    the full question is asked, and it finds the path (undecided, never proved)."""
    code, out = _reach(capsys, SPEC, "any(p in players: count(l in panier[p]) >= 2)", 2, monkeypatch)
    assert (code, out["status"]) == (4, "undecided"), out
    assert "has a path where it holds" in out["reason"], out["reason"]
    assert out["counted"].startswith("over the counts of panier: a model"), out["counted"]


def test_a_lot_put_in_a_basket_outside_the_turns_is_not_counted_away(tmp_path, capsys, monkeypatch):
    """Each round opens with a lot given to every player outside `tour`: no lemma bounds it, so the state after it is
    not read against the counts (its members do not imply the snapshot's), the full question is asked, and two lots
    in one round are found.  Read against the counts regardless, the round would be proved: a wrong proof."""
    text = SPEC.read_text(encoding="utf-8")
    draft = "    for k in 1..4 { call appel(k) }"
    assert draft in text
    spec = tmp_path / "marché_aux_cadeaux.rules"
    spec.write_text(text.replace(draft, "    for p in players {\n      choose l in étal by p\n"
                                        "      move l to panier[p]\n    }\n" + draft), encoding="utf-8")
    code, out = _reach(capsys, spec, "any(p in players: count(l in panier[p]) >= 2)", 1, monkeypatch)
    assert (code, out["status"]) == (4, "undecided"), out
    assert "a card may be put in panier outside a summarised call" in out["counted"], out["counted"]


def test_each_rounds_growth_is_proven_before_the_question(capsys, monkeypatch):
    """Over three rounds, each round's growth is asked first, on that round's havocs only: at most one lot a round
    for every basket at every snapshot of the round (a player holds one role a round) — three facts, then the
    question over the counts is proved."""
    import checker.reach.summary as summary
    found = []
    real = summary._growth

    def growth(*args):
        facts = real(*args)
        found.append(facts)
        return facts
    monkeypatch.setattr(summary, "_growth", growth)
    code, out = _reach(capsys, SPEC, "any(p in players: count(l in panier[p]) >= 4)", 3, monkeypatch)
    assert (code, out["status"]) == (1, "proved"), out
    assert len(found) == 3 and all(facts for facts in found), found
    assert all(str(f).endswith("+ 1") for facts in found for f in facts), found
