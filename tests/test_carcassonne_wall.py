"""Carcassonne, la fin du jeu : « Dans tous les cas, on ferme le rempart complètement » — aussi quand aucune
évaluation n'a fait poser la Porte de la Ville (decision fermeture_sans_porte)."""

from __future__ import annotations

import functools
from pathlib import Path

from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine
from checker.runtime.players import make_agent


@functools.cache
def _engine() -> Engine:
    return Engine(check_paths([Path("spec/carcassonne")]).typed)


def test_le_rempart_se_ferme_meme_sans_porte():
    e = _engine()
    cards = select(e.program, e.program.configurations["Jeu de base"], 2).cards
    e.play(cards, 2, 1, [make_agent("random", 1000 + seat) for seat in range(2)])   # seed 1: no gate
    st = e.st
    assert st.vars["porte_posée"] is False, "the game of seed 1 ends without the gate"
    assert any(ev["kind"] == "log" and ev["text"].startswith("Le rempart se ferme") for ev in e.events)
    e.invalidate()
    assert e.quantity("écart", ()) == 0, "the wall goes all round the city"
    assert len(st.zones["enceinte"]) == sum(1 for v in st.vars["muré"].values() if v) > 4
