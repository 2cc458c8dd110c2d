"""What the generated code spares itself per decision (issue 21): hoist.loop_lines writes the any/all of a test
read only for its truth (a legality test, a power's `requires`, a procedure's precondition, a rule's head in a
quantity) as loops, nested ones too; a procedure's precondition is tested inline over its arguments; the holder of
a card's place is one dict.get of a per-game table.  Each gives what it replaced: the same truth, the same
elements tested in the same order, the same games."""

from __future__ import annotations

import random

import pytest

from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent
from checker.runtime.hoist import loop_lines
from tests.conftest import bundled

SHAPES = [
    "any(any(see(a * 7 + b) % 3 == 0 for b in bs[a]) for a in xs)",
    "(any(see(x) % 4 == 1 for x in xs) if c else False) and (a != b)",
    "a and all(len(bs[x]) == 0 for x in xs) and t > 0",
    "not any(see(x) for x in xs if x > 1) or all(see(y) for y in ys)",
    "(a or all(see(x) < 3 for x in xs)) and any(see(y) for y in ys)",
    "all(any(see(x + y) > 4 for y in ys) for x in xs if x != 2)",
]


def _names(r: random.Random) -> dict:
    return {"xs": [r.randrange(5) for _ in range(r.randrange(4))], "ys": [r.randrange(6) for _ in range(r.randrange(3))],
            "bs": {i: [r.randrange(5) for _ in range(r.randrange(3))] for i in range(5)},
            "a": r.randrange(2), "b": r.randrange(2), "c": r.randrange(2), "t": r.randrange(-1, 2)}


@pytest.mark.parametrize("source", SHAPES)
def test_the_loops_give_the_truth_of_the_source_testing_the_same_elements(source):
    lines = loop_lines("_t", source)
    assert lines is not None and not any("any(" in line or "all(" in line for line in lines), lines
    for seed in range(400):
        names = _names(random.Random(seed))
        seen: list = []
        expected = bool(eval(source, {**names, "see": lambda v: seen.append(v) or v}))
        seen_by_loops: list = []
        scope = {**names, "see": lambda v: seen_by_loops.append(v) or v}
        exec("\n".join(lines), scope)
        assert scope["_t"] is expected and seen_by_loops == seen, (names, lines)


@pytest.mark.parametrize("source", ["a + b", "x > 1 and y", "any(xs)", "sum(x for x in xs) > 1",
                                    "any(x for x in xs for y in ys)", "any((m := x) for x in xs)"])
def test_a_test_without_a_generator_it_can_loop_over_stays_as_it_is(source):
    assert loop_lines("_t", source) is None


@pytest.fixture(scope="module")
def engine():
    return Engine(bundled().typed)


def _source(engine: Engine, origin: str) -> str:
    [found] = [src for _, src, o in engine.compiler.gen.sources if o == origin]
    return found


def test_a_precondition_is_tested_inline_and_the_draft_s_all_is_a_loop(engine):
    src = _source(engine, "procedure choix_des_personnages")
    assert "E.unmet('choix_des_personnages')" in src and "E.entering" not in src, src
    assert "all(" not in src.split("try:")[0], "the precondition's all(…) is a loop"


def test_the_condottiere_s_requires_and_the_cardinal_s_legality_have_no_generator(engine):
    allowed = _source(engine, "whether action bâtir_avec_l_aide_de is allowed")
    assert "any(" not in allowed and "for _x_" in allowed
    requires = [src for _, src, o in engine.compiler.gen.sources
                if o.startswith("expression at spec/citadelles/11-personnages-5-9.rules") and "_Adtruireparl" in src]
    assert requires and all("any(" not in src for src in requires)


def test_a_controller_reads_the_holder_of_a_card_from_a_table(engine):
    src = _source(engine, "quantity détenteur, computed")
    assert "THE_HOLDERS(" not in src and "_holder_" in src and ".get(st.where.get(" in src, src


def _game(engine: Engine, players: int, seed: int):
    program = engine.program
    cards = select(program, program.configurations["Violente"], players).cards
    game = engine.play(cards, players, seed, [RandomAgent(seed * 100 + i) for i in range(players)])
    return game.scores, game.events, list(engine.choices)


def test_the_holders_tables_follow_the_seats_of_each_game():
    """A game of 6 after one of 4 on the same engine: the tables refilled for 6 seats (else the holders of the
    fifth and sixth seats' characters would be nobody), the same game as on a fresh engine."""
    reused = Engine(bundled().typed)
    _game(reused, 4, 1)
    assert _game(reused, 6, 2) == _game(Engine(bundled().typed), 6, 2)
    assert _game(reused, 3, 5) == _game(Engine(bundled().typed), 3, 5)


def test_a_rules_valued_quantity_is_its_default_inline_where_no_rule_applies(engine):
    """compte_dans_le_permis (1, or 0 for a card its rules name) in the legality of bâtir: the call only where a
    rule applies."""
    allowed = _source(engine, "whether action bâtir is allowed")
    assert "(1 if not (" in allowed and "else _Qcomptedansl" in allowed, allowed


def test_a_loop_over_a_tuple_nothing_changes_does_not_copy_it(engine):
    src = _source(engine, "procedure appel")
    assert "= HOLDERS_OF(" in src and "tuple(HOLDERS_OF(" not in src and "tuple(E.sel_index" not in src, src
