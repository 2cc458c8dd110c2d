"""The Monte-Carlo agent with fewer candidates than options (checker/runtime/montecarlo.py `_ranked`): an option
that aborts (the greedy player's measure cannot value it) ranks below every option that can be valued, so it is
played out last, or not at all.  Survivor of the blind runtime sample h164 (seed 4164), montecarlo.py:214 `IsNot →
Is` (the least value taken over the options that cannot be valued: an agent that raised TypeError at such a
decision)."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.runtime.engine import Engine
from checker.runtime.montecarlo import MonteCarloAgent

from test_runtime_survivors_montecarlo_ranking import CUEILLETTE

# an option offered first that aborts when taken: its `choose` has nothing to choose from
FOUILLE = CUEILLETTE.replace(
    'action attendre(p: Player) "Attendre." {',
    'action fouiller(p: Player) "Fouiller : rien à trouver." {\n'
    '  choose k in filter(k in 1..3 where k > numéro + 5) by p\n'
    '  set joué = true\n'
    '}\n'
    'action attendre(p: Player) "Attendre." {').replace("  offer p {\n", "  offer p {\n    fouiller(p)\n")


@pytest.mark.parametrize("candidates", [1, 2])
def test_an_option_that_aborts_is_ranked_below_the_options_that_can_be_valued(tmp_path, candidates):
    path = tmp_path / "fouille.rules"
    path.write_text(FOUILLE, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.errors]
    engine = Engine(result.typed)
    engine.recording = False
    mc = MonteCarloAgent(1, playouts=2, depth=0, candidates=candidates)
    seen = []

    class First:
        def choose(self, decision):
            if not seen:
                seen.append((decision.labels(), mc.choose(decision)))
            return 1

    engine.play({}, 2, 1, [First(), First()])
    [(labels, chosen)] = seen
    assert len(labels) == 3 and "fouiller" in labels[0].lower()
    assert "cueillir" in labels[chosen].lower()
