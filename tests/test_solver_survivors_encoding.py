"""The Z3 encoding's own counts and refusals (checker/solver/encode.py), on a tiny game: a range of constants
counts each of its integers once against the encoding's limit (`spent`), and a card name with two copies is
refused where a physical card is needed (`is`), naming its copies.  Survivors of the blind mutation sample -e
(encode.py:691, a range counted as b + a + 1 elements; encode.py:252, two copies taken for one)."""

from __future__ import annotations

import pytest

from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine
from checker.solver.encode import Encoder, Unsupported

GAME = """\
game "Doubles" { players: 2..2  flow: partie }

kind Carte { valeur: Int in 1..4  copies: Int = 1  start: pioche }
zone pioche: pile of Carte public

action jouer(p: Player, c: Carte) "Jouer une carte." { move c to pioche }

rule somme { forbid jouer(p, c) when sum(k in 5..9: k) > 40 }
rule comptée { forbid jouer(p, c) when sum(k in 1..count(c2 in pioche): k) > 40 }
rule la_double { forbid jouer(p, c) when c is "Double" }
rule la_simple { forbid jouer(p, c) when c is "Simple" }

card Carte "Simple" { valeur: 1 }
card Carte "Double" { valeur: 2  copies: 2 }

procedure partie() { }

configuration "Tout" { include Carte: "Simple", "Double" }
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("doubles") / "doubles.rules"
    path.write_text(GAME, encoding="utf-8")
    result = check_paths([path])
    assert result.ok, result.reporter.sorted()
    e = Engine(result.typed)
    e.recording = False
    selection = select(result.program, result.program.configurations["Tout"], 2)
    e.start(selection.cards, 2, 1, [None, None])
    return result, e


def _when(game, name: str, enc: Encoder):
    result, e = game
    rule = result.program.rules[name]
    head = rule.heads[0]
    card = e.st.zone("pioche")[0]
    return enc.expr(head.when, enc.rule_env(rule, head, (0, card)))


def test_a_range_of_constants_counts_its_integers_once_against_the_limit(game):
    """`sum(k in 5..9: k) > 40`: 5 + 6 + 7 + 8 + 9 = 35, false; the range is 5 integers, the sum ranges over
    them once more: 10 elements spent."""
    enc = Encoder(game[1], concrete=True)
    before = enc.spent
    assert _when(game, "somme", enc) is False
    assert enc.spent - before == 10


def test_a_range_whose_bounds_the_state_decides_counts_the_proved_bounds_integers_once(game):
    """`1..count(c2 in pioche)` on a symbolic state: its upper bound is a Z3 term, and the range is encoded over
    the integers the checker proved it may hold (front/bounds.py: 1..3, the three cards), each guarded by the
    state's bounds — 3 elements spent beyond the count's own.  Survivor of the blind solver sample h171 (seed
    7171): encode.py:708 `hi - lo + 1` → `hi - lo + 2` (one more element counted against the limit: a question
    refused as too large sooner); no test of the set counted it."""
    import z3
    from checker.front import ast
    result, e = game
    rule = result.program.rules["comptée"]
    head = rule.heads[0]
    rng = head.when.left.coll                 # sum(k in 1..count(c2 in pioche): k) > 40
    assert isinstance(rng, ast.Binary) and rng.op == ".."
    assert result.typed.ranges[id(rng)] == (1, 3)
    enc = Encoder(e, concrete=False)
    env = enc.rule_env(rule, head, (0, e.st.zone("pioche")[0]))
    before = enc.spent
    enc.expr(rng.right, env)                  # the count alone
    alone = enc.spent - before
    before = enc.spent
    values = enc.expr(rng, env)
    assert [k for _, k in values] == [1, 2, 3] and all(isinstance(g, z3.BoolRef) for g, _ in values)
    assert enc.spent - before - alone == 3


def test_a_card_name_with_two_copies_is_refused_where_a_physical_card_is_needed(game):
    enc = Encoder(game[1], concrete=True)
    _when(game, "la_simple", enc)        # one copy: its physical card
    with pytest.raises(Unsupported) as err:
        _when(game, "la_double", enc)
    assert '"Double" has 2 copies: `is` compares physical cards, not a card\'s name' in str(err.value)


@pytest.mark.parametrize("modulus", [1, 2, 4, 4096])
def test_a_remainder_of_a_value_not_known_takes_every_value_below_its_modulus(game, modulus):
    """`x % m` (a `rotate` of a value whose values are not known) is one of 0 .. m-1, m = 1 included (always 0);
    Z3's own value of the term is not asked."""
    import z3
    from checker.solver.shapes import known
    enc = Encoder(game[1], concrete=True)
    assert known(enc, z3.Int("r") % modulus) == tuple(range(modulus))
    assert known(enc, z3.Int("r") % 4097) is None       # past MAX_COMBINATIONS (4,096): not enumerated
    assert known(enc, z3.Int("r") % 0) is None          # no remainder: not "no value"


def test_a_constant_is_made_with_the_sorts_its_context_made_once(monkeypatch):
    """terms.py's `mk_const`: `z3.Bool(name)` or `z3.Int(name)` without a sort object made per call — the context's
    Bool and Int sorts are made once and kept with it; ten constants, one Bool sort made.  Survivor of the blind
    mutation sample -l (terms.py:101 `_sorts[0]` → `_sorts[1]`: the context never kept, both sorts made again at
    every call; the constants the same)."""
    import z3

    from checker.solver import terms
    expected = [z3.Bool(f"b{i}") if i % 2 == 0 else z3.Int(f"b{i}") for i in range(10)]
    made = []
    real = z3.BoolSort
    monkeypatch.setattr(z3, "BoolSort", lambda ctx=None: made.append(ctx) or real(ctx))
    monkeypatch.setattr(terms, "_sorts", [None, None, None])
    constants = [terms.mk_const(f"b{i}", i % 2 == 0) for i in range(10)]
    assert all(c.eq(e) for c, e in zip(constants, expected))
    assert [z3.is_bool(c) for c in constants] == [i % 2 == 0 for i in range(10)]
    assert made == [z3.main_ctx()]


def test_a_term_over_values_whose_domains_are_known_takes_each_combinations_value(game):
    """shapes.py's `known` on `3 * r + s` (r in 0..3, s in 0..1, their domains registered as the search registers a
    rotation's): each combination substituted and simplified, 0 .. 10 — what a `step`, a `connected` or an index
    needs to range over; an unknown term (no domain) has none.  Survivor of the blind solver sample h171 (seed
    7171): shapes.py:202 `in` → `not in` (`_constants` stops at its first term: no constant found, so no term
    over them is known — such a value refused where it is needed, or a search left undecided)."""
    import z3
    from checker.solver.shapes import known
    enc = Encoder(game[1], concrete=True)
    r, s = z3.Int("r"), z3.Int("s")
    enc.domains[r.get_id()] = (0, 1, 2, 3)
    enc.domains[s.get_id()] = (0, 1)
    assert sorted(known(enc, 3 * r + s)) == [0, 1, 3, 4, 6, 7, 9, 10]
    assert sorted(known(enc, z3.If(r + r == 2, 1, 0) + s * 0)) == [0, 1]     # r twice: one constant, one domain
    assert known(enc, 3 * z3.Int("u")) is None


def test_a_term_over_exactly_max_combinations_values_is_still_evaluated(game):
    """`known` evaluates a term over symbolic values up to MAX_COMBINATIONS combinations of their domains, that many
    included (64 × 64 = 4096: each of 0 .. 4095), and gives up past it (65 × 64).  Survivor of the blind solver
    sample 9171 (the lead, s24): shapes.py:181 `size > MAX_COMBINATIONS` → `>=` (a term at the limit left unknown)."""
    import z3
    from checker.solver.shapes import MAX_COMBINATIONS, known
    assert MAX_COMBINATIONS == 64 * 64
    enc = Encoder(game[1], concrete=True)
    r, s, u = z3.Int("r"), z3.Int("s"), z3.Int("u")
    enc.domains[r.get_id()] = tuple(range(64))
    enc.domains[s.get_id()] = tuple(range(64))
    enc.domains[u.get_id()] = tuple(range(65))
    assert sorted(known(enc, 64 * r + s)) == list(range(4096))
    assert known(enc, 64 * u + s) is None
