"""The interpreter and the Z3 transition at the edges the statements compare: an integer exactly at the
limit ±MAX_INT (legal) and one past it (a failure), written as a constant and computed from a var, the four
comparisons between equal sides (`<=` and `>=` hold, `<` and `>` do not), a `draw` of 0 cards and of a negative count (nothing is
drawn), read as constants and as Z3 constants pinned to the state.  Random games rarely reach these values,
so an off-by-one in either backend passes the random agreement tests (tests/test_transition.py); here it
fails.  A tiny game (tests/fixtures/good/minimal_game.rules) and a house card of powers, each power compared
once, when first offered."""

from __future__ import annotations

import pytest

from checker.base.limits import MAX_INT
from checker.front.check import check_paths
from checker.runtime import Engine
from conftest import ROOT
from test_transition import compare, encode, run_interpreter

GAME = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"
HOUSE = f"""var compteur: Int = -1
var bord: Int = 0
card Lot "Muscade" {{
  épice: cannelle
  prix: 1
  power au_plafond "…" {{ set compteur = {MAX_INT} }}
  power au_plancher "…" {{ set compteur = 0 - {MAX_INT} }}
  power au_delà "…" {{ set compteur = {MAX_INT + 1} }}
  power en_deçà "…" {{ set compteur = 0 - {MAX_INT} - 1 }}
  power au_plafond_lu "…" {{ set compteur = compteur + {MAX_INT + 1} }}
  power au_plancher_lu "…" {{ set compteur = compteur - {MAX_INT - 1} }}
  power au_delà_lu "…" {{ set compteur = compteur + {MAX_INT + 2} }}
  power en_deçà_lu "…" {{ set compteur = compteur - {MAX_INT} }}
  power comparer_au_bord "…" {{
    if bord <= 0 {{ set compteur = compteur + 10 }}
    if 0 >= bord {{ set compteur = compteur + 100 }}
    if bord < 0 {{ set compteur = compteur + 1000 }}
    if 0 > bord {{ set compteur = compteur + 10000 }}
  }}
  power appels_15 "…" {{ call n2() }}
  power appels_16 "…" {{ call n1() }}
  power piocher_rien "…" {{ draw 0 from étal to panier[me] }}
  power piocher_moins_un "…" {{ draw compteur from étal to panier[me] }}
  power piocher_un "…" {{ draw compteur + 2 from étal to panier[me] }}
}}
""" + "".join(f"procedure n{k}() {{ call n{k + 1}() }}\n" for k in range(1, 16)) + \
    "procedure n16() { set compteur = compteur }\n"
LEGAL = {"au_plafond", "au_plancher", "au_plafond_lu", "au_plancher_lu", "comparer_au_bord", "appels_15",
         "piocher_rien", "piocher_moins_un", "piocher_un"}
BEYOND = {"au_delà", "en_deçà", "au_delà_lu", "en_deçà_lu"}
TOO_DEEP = {"appels_16"}        # a power's body and 16 nested calls: past the 16 bodies the encoding follows
HOUSE_POWERS = LEGAL | BEYOND | TOO_DEEP


class _BuyTheHouseCard:
    """Buys the house card when it is offered, then passes: the game reaches the card's powers at once."""

    def choose(self, decision) -> int:
        for k, option in enumerate(decision.options):
            if option[0] == "action" and option[1] == "acheter":
                return k
        return len(decision.options) - 1


@pytest.fixture(scope="module")
def house_game(tmp_path_factory):
    """The tiny game with the house card, checked once."""
    house = tmp_path_factory.mktemp("maison") / "muscade.rules"
    house.write_text(HOUSE, encoding="utf-8")
    result = check_paths([GAME, house])
    assert result.ok, [d.message for d in result.diagnostics]
    return result.typed


def _first_offers(typed, symbolic: bool) -> dict:
    """Each power of the house card compared with the interpreter at its first offer: {power: outcome}."""
    e = Engine(typed)
    e.recording = False
    outcomes: dict = {}

    def observe(decision):
        for k, option in enumerate(decision.options):
            if option[0] == "power" and option[1].name in HOUSE_POWERS and option[1].name not in outcomes:
                after, _, interpreted = run_interpreter(e, option, decision.player, 1)
                same = compare(e, option, decision.player, 1, symbolic)
                failures = None if same.startswith("undecided") else \
                    [f.reason for f in encode(e, option, decision.player, symbolic).failures]
                outcomes[option[1].name] = (same, interpreted, failures, after[1]["compteur"])
    e.observer = observe
    e.play({"Lot": ["Muscade", "Cannelle", "Poivre noir"]}, 2, 3, [_BuyTheHouseCard(), _BuyTheHouseCard()])
    return outcomes


@pytest.mark.parametrize("symbolic", [False, True], ids=["constants", "pinned"])
def test_integers_at_the_limit_and_draws_of_zero_agree_with_the_interpreter(house_game, symbolic):
    outcomes = _first_offers(house_game, symbolic)
    assert set(outcomes) == HOUSE_POWERS
    for name, (same, *_) in outcomes.items():
        if name in TOO_DEEP:
            assert same.startswith("undecided") and "nested more than 16 deep" in same, (name, same)
        else:
            assert same == "same", (name, same)
    assert outcomes["comparer_au_bord"][3] == -1 + 10 + 100, "0 <= 0 and 0 >= 0 hold, 0 < 0 and 0 > 0 do not"
    # ±MAX_INT itself is an integer: neither backend fails; one past it fails in both (compare holds the
    # encoding's failures, under the state's values, to the interpreter's; read as constants, a failure
    # that cannot happen is not even written)
    for name in LEGAL:
        assert outcomes[name][1] == "done", (name, outcomes[name])
        assert symbolic or outcomes[name][2] == [], (name, outcomes[name])
    for name in BEYOND:
        assert outcomes[name][1].startswith("failure"), (name, outcomes[name])
        assert any("beyond" in reason for reason in outcomes[name][2]), (name, outcomes[name])


def test_neighbours_with_the_player_count_a_z3_term_are_decided():
    """The conflict search's states have every player count at once (``player_count``, a Z3 term): `left(p)`
    read as ``(p + 1) mod player_count`` is not linear, and a question asked without a `push` (Z3's QF_LIA
    solver) came back undecided — "Benchmark contains uninterpreted function symbols" — so the Reine's
    payment after the calls (`voisin_du_rang_4(r, true)`) could not be told safe.  Each neighbour is the
    remainder by each count, and the same number as the interpreter's for every count and seat."""
    import z3

    from checker.conflicts.questions import Search
    from checker.solver.encode import _BUILTIN
    from checker.solver.factory import make_solver, run
    from conftest import bundled
    search = Search(bundled().typed, None)
    enc = search.encoder()
    seat = z3.Int("seat")
    for name, expected in (("left", lambda p, n: (p + 1) % n), ("right", lambda p, n: (p - 1) % n)):
        term = _BUILTIN[name](enc, seat)
        for n in range(search.low, search.high + 1):
            for p in range(n):
                got = z3.simplify(z3.substitute(term, (enc.n, z3.IntVal(n)), (seat, z3.IntVal(p))))
                assert got.as_long() == expected(p, n), (name, n, p)
        s = make_solver()
        s.add(enc.n >= search.low, enc.n <= search.high, seat >= 0, seat < enc.n, term == enc.n - 1)
        assert run(s).status == "sat", (name, run(s).reason)
    assert search.effect_failures({'"Reine".trois_pièces_après_les_appels'}) == []
