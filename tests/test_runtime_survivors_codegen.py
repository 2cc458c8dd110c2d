"""The code generator's choices that decide what a call costs and counts (checker/runtime/codegen.py): a quantity
is inlined only where its arguments are each evaluated once and its value needs no range check, an aggregate's
elements are left uncounted against MAX_WORK only when its body scans nothing but zones, and the analysis of
what is static ends on a cycle of quantities (which the checker refuses, E0802, but a tool may compile)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from checker.front.check import check_paths
from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent
from checker.runtime.codegen import Generator, is_cheap, is_static
from checker.runtime.state import SpecRuntimeError
from tests.test_limits import spec

GAME = """
game "Jeu" {
  edition: "test"
  players: 2..4
  flow: partie
}
kind Carte { force: Int in 0..9  start: pioche }
zone pioche: pile of Carte public
counter bourse[Player] public
var niveau: Int = 0
card Carte "A" { force: 1 }
quantity plafond(x: Int): Int = if x > 0 then 1000000000 else 0
quantity plancher(x: Int): Int = if x > 0 then 999999999 else 0
quantity au_plafond(p: Player): Int = plafond(bourse[p]) - plancher(bourse[p])
quantity entre(x: Int): Bool = x > 0 and x < 10
quantity dans_les_bornes(p: Player): Bool = entre(bourse[p] + 1)
quantity boucle_a(x: Int): Int = if x > 0 then boucle_b(x - 1) else 0
quantity boucle_b(x: Int): Int = boucle_a(x)
quantity boucle_c(x: Int): Int = if x > 0 then boucle_d(x - 1) else niveau
quantity boucle_d(x: Int): Int = boucle_c(x)
procedure partie() { stop }
"""


def _without_loop(text: str) -> str:
    """The game without its quantities that call each other in a cycle (the lines that name `boucle`)."""
    return "\n".join(line for line in text.splitlines() if "boucle" not in line)


def _result(tmp_path: Path, text: str):
    path = tmp_path / "jeu.rules"
    path.write_text(text, encoding="utf-8")
    return check_paths([path])


@pytest.fixture
def engine(tmp_path):
    text = _without_loop(GAME)
    result = _result(tmp_path, text)
    assert result.ok, [d.message for d in result.reporter.errors]
    e = Engine(result.typed)
    e.recording = False
    e.start({"Carte": ["A"]}, 2, 0, [None, None])
    return e


def _computed(e: Engine, quantity: str) -> str:
    (source,) = [src for _, src, origin in e.compiler.gen.sources if origin == f"quantity {quantity}, computed"]
    return source


def test_a_quantity_whose_bound_reaches_max_int_itself_is_inlined(engine):
    """`plafond` is at most 1,000,000,000 = MAX_INT: no check of its value can fail, so it is written in its
    caller; the caller's own sum is still checked, and stops the spec past MAX_INT."""
    source = _computed(engine, "au_plafond")
    assert engine.quantity_name("plafond") not in source and engine.quantity_name("plancher") not in source
    assert "1000000000 if" in source and "999999999 if" in source
    engine.st.vars["bourse"] = {0: 3}
    engine.invalidate()
    assert [engine.quantity("au_plafond", (p,)) for p in (0, 1)] == [1, 0]


def test_a_quantity_reading_its_argument_twice_is_called_not_inlined_with_the_argument_written_twice(engine):
    source = _computed(engine, "dans_les_bornes")
    assert engine.quantity_name("entre") in source
    assert source.count("bourse") == 1, source
    engine.st.vars["bourse"] = {0: 8, 1: 9}
    engine.invalidate()
    assert [engine.quantity("dans_les_bornes", (p,)) for p in (0, 1)] == [True, False]


def test_the_static_and_cheap_analyses_end_on_a_cycle_of_quantities(tmp_path):
    """A cycle that reads no state is static (each quantity is then computed from its arguments alone); one that
    reads a var is not; neither is cheap (it has no bounded cost)."""
    result = _result(tmp_path, GAME)
    assert [d.code for d in result.reporter.errors] == ["E0802", "E0802"]
    stub = SimpleNamespace(program=result.program, _heads={})
    assert is_static(stub, "boucle_a") and is_static(stub, "boucle_b")
    assert not is_static(stub, "boucle_c") and not is_static(stub, "boucle_d")
    assert not is_cheap(stub, "boucle_a") and not is_cheap(stub, "boucle_c")
    assert is_static(stub, "plafond") and is_cheap(stub, "plafond")


@pytest.mark.parametrize("aggregate, counted", [
    ("count(l in étal where l in gardés)", True),               # a membership in cards that are not a zone
    ("count(l in étal where l in panier[p])", False),           # … in a zone
])
def test_a_membership_in_what_is_not_a_zone_counts_against_the_work_limit(monkeypatch, tmp_path,
                                                                           aggregate, counted):
    """As tests/test_limits.py's small aggregates: 4,000 aggregates of the 3 cards of the stall; with MAX_WORK
    lowered to 10,000 they pass it only when their elements are counted (the var `gardés` is empty: scanning
    it counts nothing itself)."""
    monkeypatch.setattr("checker.runtime.engine.MAX_WORK", 10_000)   # the generated code's
    monkeypatch.setattr("checker.runtime.spending.MAX_WORK", 10_000)  # Engine.spend's
    added = ("var fait: Bool = false\nvar gardés: set of Lot = {}\n"
             "procedure compter(p: Player) {\n"
             f"  for x in 0..99 {{ for y in 0..39 {{ set tours_joués = {aggregate} }} }}\n}}\n")
    path = spec(tmp_path, "membership", added=added,
                first="for q in players { if not fait { set fait = true\n call compter(q) } }")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    selection = select(result.program, result.program.configurations["Standard"], 2)
    engine = Engine(result.typed)
    if counted:
        with pytest.raises(SpecRuntimeError, match="the limit MAX_WORK"):
            engine.play(selection.cards, 2, 0, [RandomAgent(i) for i in range(2)])
    else:
        assert engine.play(selection.cards, 2, 0, [RandomAgent(i) for i in range(2)]).decisions > 0


@pytest.mark.parametrize("members, counted", [(100, False), (101, True)])
def test_an_aggregate_over_a_set_of_an_enums_values_is_not_counted_up_to_small_members(monkeypatch, tmp_path,
                                                                                       members, counted):
    """codegen.py's ``small_set``: a set of the values of an enum of at most SMALL (100) members holds at most
    that many, so an aggregate over it with a simple body is not counted against MAX_WORK; over a set of an enum of
    101, it is.  As above: 4,000 aggregates of the set's 3 elements pass MAX_WORK lowered to 10,000 only when
    counted."""
    monkeypatch.setattr("checker.runtime.engine.MAX_WORK", 10_000)   # the generated code's
    monkeypatch.setattr("checker.runtime.spending.MAX_WORK", 10_000)  # Engine.spend's
    added = (f"enum Grand {{ {', '.join(f'm{i}' for i in range(members))} }}\n"
             "var fait: Bool = false\nvar gardés: set of Grand = {m0, m1, m2}\n"
             "procedure compter(p: Player) {\n"
             "  for x in 0..99 { for y in 0..39 { set tours_joués = count(k in gardés where k != m1) } }\n}\n")
    path = spec(tmp_path, "small_set", added=added,
                first="for q in players { if not fait { set fait = true\n call compter(q) } }")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    selection = select(result.program, result.program.configurations["Standard"], 2)
    engine = Engine(result.typed)
    engine.recording = False
    if counted:
        with pytest.raises(SpecRuntimeError, match="the limit MAX_WORK"):
            engine.play(selection.cards, 2, 0, [RandomAgent(i) for i in range(2)])
    else:
        assert engine.play(selection.cards, 2, 0, [RandomAgent(i) for i in range(2)]).decisions > 0


def test_a_spec_run_despite_e0301_stops_where_it_reads_an_attribute_of_none(tmp_path):
    """The checker refuses `.force` of a card that may be none (E0301) unless the name was tested against none; a
    tool may still compile and run the spec (as the cycle above): the generated code reads an attribute of a
    name whose type may be none through the engine's reader, which stops with a located error, never a
    KeyError (codegen.py's ``name_may_be_none``)."""
    text = _without_loop(GAME).replace(
        "procedure partie() { stop }",
        "var favori: Carte? = none\nprocedure partie() {\n  set niveau = 1\n  set niveau = favori.force\n}")
    result = _result(tmp_path, text)
    assert [d.code for d in result.reporter.errors] == ["E0301"]
    e = Engine(result.typed)
    e.recording = False
    with pytest.raises(SpecRuntimeError, match=r"^reading \.force of none$") as caught:
        e.play({"Carte": ["A"]}, 2, 0, [RandomAgent(0), RandomAgent(1)])
    span = caught.value.span
    assert (span.line, span.column) == (text.splitlines().index("  set niveau = favori.force") + 1, 16)
    assert e.st.vars["niveau"] == 1


def test_fresh_python_names_are_distinct_whatever_their_hints_end_with(engine):
    """A generated name is its hint (the language name it stands for, cleaned) and a counter: a hint ending in a
    digit must not make the name of another hint, as `a1` with 5 and `a` with 15 both made ``_va15``."""
    g = Generator(engine)           # its counter from 0
    names = [g.fresh(hint) for hint in ("va1", "Qriche1", "attrprix2") for _ in range(20)]
    names += [g.fresh(hint) for hint in ("va", "Qriche", "attrprix", "", "x") for _ in range(300)]
    assert len(set(names)) == len(names)
    assert not set(names) & set(g.ns)


LOCALS = """
game "Jeu" {
  edition: "test"
  players: 2..4
  flow: partie
}
kind Carte { force: Int in 0..9  start: pioche }
zone pioche: pile of Carte public
var vu: Int = 0
card Carte "A" { force: 1 }
procedure partie() {
  let a1 = 1
%s  let a = 2
  set vu = a1 * 10 + a
}
"""


@pytest.mark.parametrize("between", [8, 9, 10])
def test_two_locals_whose_names_differ_by_a_final_digit_keep_their_values(tmp_path, between):
    """`a1` and `a` with 9 locals between them were given one Python name (10, on this build: the counter's
    values depend on what is compiled before): `vu` was 22."""
    text = LOCALS % "".join(f"  let f{i} = 0\n" for i in range(between))
    result = _result(tmp_path, text)
    assert result.ok, [d.message for d in result.reporter.errors]
    e = Engine(result.typed)
    e.recording = False
    e.play({"Carte": ["A"]}, 2, 0, [None, None])
    assert e.st.vars["vu"] == 12


# ---------------------------------------------------------------- sample -k (bench/results/mutation-2026-11-28-k.txt)

def test_a_count_with_no_condition_is_the_collections_length_and_costs_no_work(tmp_path):
    """`count(i in c)` with no `where` is ``len(c)``: nothing is ranged over, so only making the range
    `0..999` counts against MAX_WORK (its 1,000 integers, Engine.range_of); the same count with a condition then
    ranges over them and counts them again (a range is not small: SMALL is 100).  `any(c in pioche)` with no
    condition is a Bool, not the pile's length."""
    text = GAME.replace("procedure partie()", """quantity mille(x: Int): Int = count(i in 0..999)
quantity pairs(x: Int): Int = count(i in 0..999 where i % 2 == x)
quantity non_vide(x: Int): Bool = any(c in pioche)
procedure partie()""")
    text = _without_loop(text)
    result = _result(tmp_path, text)
    assert result.ok, [d.message for d in result.reporter.errors]
    e = Engine(result.typed)
    e.recording = False
    e.start({"Carte": ["A"]}, 2, 0, [None, None])
    e.work = 0
    assert e.quantity("mille", (0,)) == 1000 and e.work == 1000           # the range's integers, made once
    assert e.quantity("pairs", (0,)) == 500 and e.work == 1000 + 2 * 1000  # made, then ranged over
    assert e.quantity("non_vide", (0,)) is True         # `any` with no condition: is c empty? (not its length)


# ---------------------------------------------------------------- sample -n (bench/results/mutation-2026-11-28-n.txt)

def test_a_quantity_is_written_inline_unless_it_would_evaluate_an_argument_twice(tmp_path):
    """Generator.inline: `positif(x)` reads `x` once, so any argument is written in its place; `entre(x)` reads it
    twice, so only a name or a literal is (an expression would be evaluated twice), and the call stays a call.
    The reads are counted over the body and each adjustment: `force_de(c)` reads `c` in its body only (its
    adjustment's condition and amount do not), once in all, so it is inlined whatever its argument."""
    text = _without_loop(GAME).replace("procedure partie()", """quantity positif(x: Int): Bool = x > 0
quantity force_de(c: Carte): Int = c.force
rule renfort { adjust force_de(c) by 2 when niveau > 0 }
procedure partie()""")
    result = _result(tmp_path, text)
    assert result.ok, [d.message for d in result.reporter.errors]
    g = Engine(result.typed).compiler.gen
    once = g.inline("positif", ["(f(y) + 1)"])
    assert once is not None and once.count("f(y)") == 1
    assert g.inline("entre", ["(f(y) + 1)"]) is None
    twice = g.inline("entre", ["y"])
    assert twice is not None and twice.count("y") == 2
    adjusted = g.inline("force_de", ["f(y)"])
    assert adjusted is not None and adjusted.count("f(y)") == 1
