"""What the effect-failure search cannot encode is reported as undecided, with its place and reason — never as
safe.  The 4th edition's one such move: the Diplomate's exchange (issue 22)."""

from __future__ import annotations

from checker.base.limits import MAX_ENCODING
from conftest import bundled


def test_the_diplomates_exchange_is_undecided_at_the_limit_of_one_encoding_never_safe():
    """Its `requires` asks `can échanger(me, y, q, z)` of every player q, every district y of q's city and
    every district z of the Diplomate's: 8 × 84 × 84 = 56,448 legality terms, each reading the rules on
    `échanger` and the prohibitions of its tag `rang_8` (the Évêque's ranges over the 27 selected characters).
    The limit of one encoding (200,000 elements) strikes in the `requires`, in the Évêque's rule, after 7,129
    of them; the body's first `choose` asks the same nested `any` again of each district of the Diplomate's
    city (another 56,448), under a negation (no option stops the body), so one symbolic district per
    quantifier would not do there.  Reported as undecided, at the Évêque's rule, with the limit."""
    from checker.conflicts.questions import Search
    search = Search(bundled().typed, None)
    out = search.effect_failures({'"Diplomate".échanger_un_quartier'})
    assert [f.kind for f in out] == ["unknown"], out
    assert '"Diplomate".échanger_un_quartier' in out[0].message
    assert out[0].unknown.startswith("spec/citadelles/11-personnages-5-9.rules:77:51:")
    assert f"more than {MAX_ENCODING:,} elements" in out[0].unknown
