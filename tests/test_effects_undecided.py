"""What the effect-failure search cannot encode exactly is asked again, or reported as undecided with its place and
reason — never as safe.  The 4th edition's one such move: the Diplomate's exchange (issue 22)."""

from __future__ import annotations

import pytest

from checker.base.limits import MAX_ENCODING
from checker.solver.encode import Unsupported
from conftest import bundled


def test_the_diplomates_exchange_passes_the_limit_spelled_out_and_is_proved_with_one_unknown_per_quantifier():
    """Its `requires` asks `can échanger(me, y, q, z)` of every player q, every district y of q's city and
    every district z of the Diplomate's: 8 × 84 × 84 = 56,448 legality terms, each reading the rules on
    `échanger` and the prohibitions of its tag `rang_8` (the Évêque's ranges over the 27 selected characters).
    The limit of one encoding (200,000 elements) strikes in the `requires`, in the Évêque's rule, after 7,129
    of them.  With one unknown per quantifier (checker/conflicts/instances.py) the effect is 3,332 elements, and
    every question is refuted: no failure, proved (it was reported undecided, at the Évêque's rule)."""
    from checker.conflicts.effects import encode_effect
    from checker.conflicts.questions import Search
    search = Search(bundled().typed, None)
    card = search.p.cards["Diplomate"]
    power = next(pw for pw in card.powers if pw.name == "échanger_un_quartier")
    with pytest.raises(Unsupported) as exc:
        encode_effect(search, search.encoder(), power.name, power, card)
    assert exc.value.located().startswith("spec/citadelles/11-personnages-5-9.rules:77:51:")
    assert f"more than {MAX_ENCODING:,} elements" in exc.value.located()
    assert search.effect_failures({'"Diplomate".échanger_un_quartier'}) == []
