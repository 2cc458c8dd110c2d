"""Every command stays bounded on a hostile spec (docs/language.md, « Limits »): what can be decided when
the spec is checked is an error then (a range larger than the limit, recursion, an index with no end);
the rest stops the run with a located error that names the limit.  Each hostile spec is the minimal game
(tests/fixtures/good/minimal_game.rules) with one construct added; every run is a subprocess the test
harness kills after TIMEOUT seconds, so a hang fails the test instead of stalling the suite (nothing
here measures time)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from checker.front.check import check_paths
from conftest import ROOT

BASE = (ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules").read_text(encoding="utf-8")
FLOW = "procedure partie() {\n  shuffle étal\n"
OFFER = "        acheter(p, l) for l in étal\n"
TIMEOUT = 120


def spec(tmp_path: Path, name: str, *, added: str = "", first: str = "", offered: str = "") -> Path:
    """The minimal game with declarations ``added``, statements ``first`` at the start of its flow, and
    ``offered`` items in its offer."""
    assert FLOW in BASE and OFFER in BASE
    text = BASE.replace(FLOW, f"procedure partie() {{\n  {first}\n  shuffle étal\n") if first else BASE
    text = text.replace(OFFER, OFFER + offered) + "\n" + added
    path = tmp_path / f"{name}.rules"
    path.write_text(text, encoding="utf-8")
    return path


def rulebook(*argv, env: dict | None = None, prelude: str = "") -> subprocess.CompletedProcess:
    """Run the command line in a subprocess, killed after TIMEOUT seconds (a hang fails the test)."""
    code = f"{prelude}\nfrom checker.cli import main\nraise SystemExit(main({list(map(str, argv))!r}))"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT,
                          cwd=ROOT, env={**__import__("os").environ, **(env or {})})


def errors(path: Path) -> list:
    result = check_paths([path])
    return [d for d in result.reporter.sorted() if d.severity.value == "error"]


# ---------------------------------------------------------------- checked: ranges

@pytest.mark.parametrize("name,added,first,line", [
    ("sum_over_a_huge_range", "quantity énorme(): Int = sum(x in 0..100000000: x)", "", "énorme"),
    ("for_over_a_huge_range", "", "for x in 0..1000000000 { set tours_joués = x }", "0..1000000000"),
    ("range_up_to_a_var", "", "for x in 1..tours_joués { set tours_joués = x }", "1..tours_joués"),
    ("range_up_to_a_parameter", "procedure compter(n: Int) { for x in 0..n { set tours_joués = x } }", "",
     "0..n"),
    ("range_up_to_a_growing_local", "", "let n = 1\n repeat { set n = n * 2 } until n > 100\n"
                                        " for x in 0..n { set tours_joués = x }", "0..n"),
    ("range_up_to_a_local_set_again", "", "let n = 1\n set n = tours_joués\n for x in 0..n { set tours_joués = x }",
     "0..n"),
    ("range_of_a_product", "", "for x in 0..count(l in étal) * 1000 { set tours_joués = x }", "count"),
    ("range_in_a_rule", "rule grande { forbid acheter(p, l) when bourse[p] in (0..bourse[p] * 2) }", "",
     "bourse[p] * 2"),
])
def test_a_range_that_may_exceed_the_limit_is_an_error_when_checked(tmp_path, name, added, first, line):
    path = spec(tmp_path, name, added=added, first=first)
    found = errors(path)
    assert [d.code for d in found] == ["E0801"], [d.message for d in found]
    assert "a range may hold at most 1,000" in found[0].message
    assert line in path.read_text(encoding="utf-8").split("\n")[found[0].span.line - 1]


@pytest.mark.parametrize("first", [
    "for x in 1..least(tours_joués, 50) { set tours_joués = x }",     # bounded by least(…)
    "for x in 0..count(l in étal) { set tours_joués = x }",           # by the cards of a kind
    "for x in 1..player_count * 10 { set tours_joués = x }",          # by the player counts
    "for l in étal { for x in 0..l.prix { set tours_joués = x } }",   # by the cards' attributes
])
def test_a_range_bounded_by_what_the_rules_state_is_accepted(tmp_path, first):
    assert errors(spec(tmp_path, "bounded", first=first)) == []


def test_a_range_bounded_by_the_rows_and_columns_of_a_grid_is_accepted(tmp_path):
    """row and column of any cell are bounded by the grid (a parameter's cell too)."""
    grid = "enum Sens { nord, est, sud, ouest }\ngrid Case 9 by 9 directions Sens\n"
    first = "for x in 0..écart(center(Case)) { set tours_joués = x }"
    bounded = spec(tmp_path, "grid", added=grid + "quantity écart(x: Case): Int = column(x) + row(x) + 8",
                   first=first)
    assert errors(bounded) == []
    unbounded = spec(tmp_path, "grid_times", added=grid + "quantity écart(x: Case): Int = column(x) * tours_joués",
                     first=first)
    assert [d.code for d in errors(unbounded)] == ["E0801"]


# ---------------------------------------------------------------- checked: recursion and indexes

@pytest.mark.parametrize("name,added,words", [
    ("procedures", "procedure a() { call b() }\nprocedure b() { call a() }", "procedure a → procedure b"),
    ("an_action", 'action sauter(p: Player) "x" { do sauter(p) }', "action sauter → action sauter"),
    ("quantities", "quantity q1(p: Player): Int = q2(p) + 1\nquantity q2(p: Player): Int = q1(p)",
     "quantity q1 → quantity q2"),
    ("can", 'action sauter(p: Player) "x"\nrule r { forbid sauter(p) when can sauter(p) }', "`can sauter`"),
    ("an_offer", 'action jouer(p: Player) "x" { offer p { jouer(p) finish "Passer" } }', "action jouer"),
    ("a_signal", 'window w(p: Player) "w"\ncard Lot "Muscade" { épice: safran prix: 1 '
                 'power écho "x" { when w(p) limit unlimited signal w(p) } }', "window w"),
])
def test_recursion_is_an_error_when_checked(tmp_path, name, added, words):
    found = errors(spec(tmp_path, name, added=added))
    assert [d.code for d in found] == ["E0802"] and words in found[0].message, [d.message for d in found]


def test_a_signal_cycle_through_a_power_limited_once_per_game_is_bounded(tmp_path):
    added = ('window w(p: Player) "w"\ncard Lot "Muscade" { épice: safran prix: 1 '
             'power écho "x" { when w(p) limit once per game signal w(p) } }')
    assert errors(spec(tmp_path, "limited", added=added)) == []


def test_a_var_indexed_by_int_is_an_error(tmp_path):
    found = errors(spec(tmp_path, "index", added="var scores[Int]: Int = 0"))
    assert [d.code for d in found] == ["E0803"]


# ---------------------------------------------------------------- at run time: `play` stops, located

@pytest.mark.parametrize("name,first,offered,words", [
    ("nested_loops", "for x in 0..999 { for y in 0..999 { for z in 0..999 { set tours_joués = 0 } } }", "",
     "the limit MAX_WORK"),
    ("nested_aggregates", "set tours_joués = sum(x in 0..999: sum(y in 0..999: sum(z in 0..999: 1)))", "",
     "the limit MAX_WORK"),
    ("nested_repeats", "let k = 0\n repeat { set k = 0\n repeat { set k = k + 1 } until k >= 9999 } "
                       "until tours_joués > 5", "", "the limit MAX_WORK"),
    ("an_endless_repeat", "repeat { set tours_joués = 0 } until tours_joués > 5", "", "the limit of one repeat"),
    ("a_growing_integer", "repeat { set tours_joués = tours_joués * 1000 + 1 } until tours_joués < 0", "",
     "the limit of an integer"),
    ("a_growing_counter", "for p in players { repeat { transfer 1000000 from réserve to bourse[p] } "
                          "until tours_joués > 0 }", "", "the limit of an integer"),
    ("an_offer_of_a_million_options", "", "        acheter(p, l) for l in étal for x in 0..999 for y in 0..999\n",
     "the limit of one decision point"),
])
def test_play_stops_at_a_limit_with_a_located_error(tmp_path, name, first, offered, words):
    path = spec(tmp_path, name, first=first, offered=offered)
    assert errors(path) == []
    run = rulebook("play", path, "-n", "2", "-c", "Standard", "-q")
    assert run.returncode == 1, run.stderr
    assert words in run.stderr and f"{path.name}:" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("name,first", [
    ("a_huge_draw", "for p in players { draw 1000000000 from étal to panier[p] }"),
    ("a_subset_of_a_large_range", "for p in players { choose xs subset of 0..999 size 0..3 by p\n"
                                  " set tours_joués = count(x in xs) }"),
])
def test_large_counts_that_are_bounded_by_the_cards_or_the_choice_play_through(tmp_path, name, first):
    """`draw n` moves at most the cards of the pile; a subset is chosen one element at a time, each pick one
    decision among at most the collection's elements."""
    path = spec(tmp_path, name, first=first)
    run = rulebook("play", path, "-n", "2", "-c", "Standard", "-q")
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("aggregate, counted", [
    ("count(k in Couleur where k == a)", False),                # an enum's members
    ("count(q in players where q != q)", False),                # the players
    ("count(l in étal where l.prix > 0)", False),               # the cards of a zone
    ("count(l in étal where l in étal)", False),                # … whose body looks for a card in a zone
    ("count(k in Couleur where zéro() == 0)", True),            # a body that calls a quantity
    ("count(k in Couleur where any(l in étal where l.prix > 0))", True),   # … or holds an aggregate
    ("count(k in Couleur where tours_joués in (0..3))", True),  # … or a range
    ("count(q in players where q in seats_from(q))", True),     # … or looks in what is not a zone
    ("sum(x in 0..4: x + y)", True),                            # a range
    ("count(k in Cent where k == m0)", False),                  # SMALL (100) elements at most
    ("count(k in CentUn where k == n0)", True),                 # … not one more
    ("count(l in panier[p] where l.prix > 0)", False),          # the cards of a player's zone
    ("count(l in chers() where l.prix > 0)", True),             # cards a quantity gives (not a zone)
])
def test_a_small_aggregate_with_a_simple_body_does_not_count_against_the_work_limit(monkeypatch, tmp_path,
                                                                                    aggregate, counted):
    """An aggregate over at most SMALL (100) elements (the players, an enum, the cards of a zone) whose body does
    bounded work costs a bounded multiple of the loop around it: its elements are not counted against
    MAX_WORK; any other aggregate's are.  With the limit lowered to 10,000, about 4,100 loop iterations play
    through, and counting the 3 to 101 elements of each of the 4,000 aggregates would pass the limit."""
    monkeypatch.setattr("checker.runtime.engine.MAX_WORK", 10_000)   # the generated code's
    monkeypatch.setattr("checker.runtime.spending.MAX_WORK", 10_000)  # Engine.spend's
    added = ("enum Couleur { a, b, c, d, e }\nquantity zéro(): Int = 0\n"
             "quantity chers(): set of Lot = filter(l in étal where l.prix > 0)\n"
             f"enum Cent {{ {', '.join(f'm{i}' for i in range(100))} }}\n"
             f"enum CentUn {{ {', '.join(f'n{i}' for i in range(101))} }}\n")
    fill = "  for l in étal { move l to panier[p] }\n" if "panier" in aggregate else ""
    added += ("var fait: Bool = false\n"
              f"procedure compter(p: Player) {{\n{fill}"
              f"  for x in 0..99 {{ for y in 0..39 {{ set tours_joués = {aggregate} }} }}\n}}\n")
    path = spec(tmp_path, "small_aggregates", added=added,       # the loops run once, for the first player
                first="for q in players { if not fait { set fait = true\n call compter(q) } }")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    from checker.runtime.state import SpecRuntimeError
    from checker.front.configurations import select
    from checker.runtime import Engine, RandomAgent
    selection = select(result.program, result.program.configurations["Standard"], 4)
    engine = Engine(result.typed)
    if counted:
        with pytest.raises(SpecRuntimeError, match="the limit MAX_WORK"):
            engine.play(selection.cards, 4, 0, [RandomAgent(i) for i in range(4)])
    else:
        played = engine.play(selection.cards, 4, 0, [RandomAgent(i) for i in range(4)])
        assert played.decisions > 0     # played on past the loops, in this process (the mutation map sees it)


# ---------------------------------------------------------------- `moves`, `legal`, `conflicts`

def test_moves_stops_at_its_limit_and_says_so(tmp_path):
    """A decision point with more legal moves than `rulebook moves` lists (the limit lowered to 50 in the
    subprocess, to keep the test short) is undecided, exit 4, never a truncated list."""
    action = 'action miser(p: Player, x: Int, y: Int) "Miser." { set tours_joués = x + y }'
    (tmp_path / "small").mkdir()
    (tmp_path / "large").mkdir()        # the same file name, the offer at the same place: the state fits both
    small = spec(tmp_path / "small", "jeu", added=action,
                 offered="        miser(p, x, y) for x in 0..1 for y in 0..1\n")
    state = tmp_path / "state.json"
    assert rulebook("play", small, "-n", "2", "-c", "Standard", "-q", "--state-at", "1", state).returncode == 0
    large = spec(tmp_path / "large", "jeu", added=action,
                 offered="        miser(p, x, y) for x in 0..9 for y in 0..9\n")
    run = rulebook("moves", state, "--spec", large, prelude="import checker.solver.legal as L; L.MAX_MOVES = 50")
    assert run.returncode == 4 and "more than 50 legal moves" in run.stdout, run.stdout + run.stderr
    move = tmp_path / "move.json"
    move.write_text(json.dumps({"player": "Joueur 1", "action": "miser", "args": ["Joueur 1", 7, 3]}))
    run = rulebook("legal", state, move, "--spec", large)
    assert run.returncode == 0 and run.stdout.startswith("legal: miser(Joueur 1, 7, 3)"), run.stdout + run.stderr


def test_conflicts_reports_a_question_too_large_to_encode_as_undecided(tmp_path):
    rule = ("rule lourde { forbid acheter(p, l) when sum(x in 0..999: sum(y in 0..999: if x == y then 1 else 0))"
            " > bourse[p] }")
    path = spec(tmp_path, "heavy", added=rule)
    run = rulebook("conflicts", path)
    assert run.returncode == 4, run.stdout + run.stderr
    assert "the limit of one Z3 encoding" in run.stdout and "lourde" in run.stdout


def test_the_work_limit_counts_from_zero_at_the_start_of_a_game(monkeypatch, tmp_path):
    """MAX_WORK is inclusive and the count starts at 0 when a game starts: a game whose set-up ranges over
    exactly MAX_WORK elements before its first decision plays; one element fewer allowed stops it."""
    from checker.runtime import Engine, RandomAgent
    from checker.runtime.state import SpecRuntimeError
    path = spec(tmp_path, "work", first="for x in 1..100 { set tours_joués = 0 }")
    result = check_paths([path])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    spent = []              # the work counted when the first decision comes (generated loops count it inline)
    real = Engine.decide

    def decide(self, *args, **options):
        if self.decisions == 0:
            spent.append(self.work)
        return real(self, *args, **options)
    monkeypatch.setattr(Engine, "decide", decide)
    cards = {"Lot": ["Safran d'Iran", "Poivre noir", "Cannelle"]}

    def play():
        spent.clear()
        return Engine(result.typed).play(cards, 2, 0, [RandomAgent(0), RandomAgent(1)])
    play()
    before_first_decision = sum(spent)
    assert before_first_decision >= 100, spent
    monkeypatch.setattr("checker.runtime.engine.MAX_WORK", before_first_decision)   # the generated code's
    monkeypatch.setattr("checker.runtime.spending.MAX_WORK", before_first_decision)  # Engine.spend's
    assert play().decisions > 0
    monkeypatch.setattr("checker.runtime.engine.MAX_WORK", before_first_decision - 1)   # the generated code's
    monkeypatch.setattr("checker.runtime.spending.MAX_WORK", before_first_decision - 1)  # Engine.spend's
    with pytest.raises(SpecRuntimeError, match="the limit MAX_WORK"):
        play()


def test_the_log_limit_counts_each_entry_and_each_option_listed(monkeypatch, tmp_path):
    """MAX_LOG bounds one game's log: its entries and the options they list, counted as they are written
    (inclusive); a game whose log holds exactly that many plays, one fewer allowed stops it."""
    from checker.runtime import Engine, RandomAgent
    from checker.runtime.state import SpecRuntimeError
    result = check_paths([spec(tmp_path, "log")])
    assert result.ok, [d.message for d in result.reporter.diagnostics]
    cards = {"Lot": ["Safran d'Iran", "Poivre noir", "Cannelle"]}

    def play():
        return Engine(result.typed).play(cards, 2, 0, [RandomAgent(0), RandomAgent(1)])
    events = play().events
    size = len(events) + sum(len(e.get("options") or ()) for e in events)
    assert size > len(events), "some entries list options"
    monkeypatch.setattr("checker.runtime.engine.MAX_LOG", size)
    assert len(play().events) == len(events)
    monkeypatch.setattr("checker.runtime.engine.MAX_LOG", size - 1)
    with pytest.raises(SpecRuntimeError, match="the game's log grew past"):
        play()
    # wherever the log passes its limit (a decision, a power, a `reveal`, a `log`), the error names that line
    for limit in range(size):
        monkeypatch.setattr("checker.runtime.engine.MAX_LOG", limit)
        with pytest.raises(SpecRuntimeError) as caught:
            play()
        assert caught.value.span is not None and caught.value.span.file.endswith("log.rules"), limit


def test_the_log_limit_is_located_at_a_round_too(monkeypatch):
    """A round's entry is the round procedure's: the error names its line, not only the message."""
    from checker.front.configurations import select
    from checker.runtime import Engine, RandomAgent
    from checker.runtime.state import SpecRuntimeError
    result = check_paths([ROOT / "spec" / "citadelles"])
    program = result.typed.program
    cards = select(program, next(iter(program.configurations.values())), 4).cards
    play = lambda: Engine(result.typed).play(cards, 4, 0, [RandomAgent(i) for i in range(4)])  # noqa: E731
    events = play().events
    first = next(i for i, e in enumerate(events) if e["kind"] == "round")
    monkeypatch.setattr("checker.runtime.engine.MAX_LOG",
                        first + sum(len(e.get("options") or ()) for e in events[:first]))
    with pytest.raises(SpecRuntimeError, match="the game's log grew past") as caught:
        play()
    rounds = [d.span for d in program.procedures.values() if d.span == caught.value.span]
    assert rounds and "citadelles" in rounds[0].file, caught.value.span
