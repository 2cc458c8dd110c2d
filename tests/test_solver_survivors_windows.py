"""The symbolic transition's limit on windows opened inside windows (``max_windows``, the effect-failure
search's): a window opened at the top level after another one closed is at depth 1 again, and a reaction to it
that opens a second window is cut there.  Survivor of the blind mutation sample -h: transition.py:488 (the
count of open windows taken down by 2 when one closes), which no test of the solver set could tell apart.
The game is tests/test_language_constructs.py's cards: the Écu puts a token on itself at `fin`."""

from __future__ import annotations

import pytest

from checker.solver.encode import Encoder
from checker.solver.transition import Transition
from test_language_constructs import CARDS, checked, started

RELAY = CARDS.replace('card Carte "Pierre" { force: 0 }', """window vide(p: Player) "Rien n'y réagit."
window début(p: Player) "Le début."
card Carte "Pierre" { force: 0
  power relance "Relancer" { when début(p)  mandatory  signal fin(p) } }
procedure ouvrir(p: Player) { signal vide(p)  signal début(p) }""")


@pytest.mark.parametrize("limit, cut", [(1, True), (2, False)])
def test_a_window_opened_by_a_reaction_is_cut_at_the_limit_after_a_window_closed(tmp_path, limit, cut):
    result = checked(tmp_path, RELAY)
    e, _ = started(result, ["Écu", "Miroir", "Pierre"], [[], []])
    for name in ("Écu", "Pierre"):
        e.st.put(e.card(name), "main", 0, "top")
    e.invalidate()
    t = Transition(Encoder(e, concrete=True), max_windows=limit)
    t.procedure("ouvrir", (0,))
    assert t.windows == 0
    whats = [what for _when, _span, what in t.cuts]
    if cut:
        assert whats == ["the reactions to fin, a window opened while 1 are open"]
    else:
        assert whats == []
