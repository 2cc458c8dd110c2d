"""Z3 legality: the moves Z3 finds legal are the interpreter's options; illegal moves are explained by the
rules that forbid them; state and move files are read strictly and bad ones refused plainly.

The large agreement run (10,000+ decision points) is `python bench/legal.py --agreement`; here a
sample of every configuration and player count runs with the suite, and Hypothesis draws states
directly (not only from play-outs).
"""

from __future__ import annotations

import collections
import copy
import functools
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent
from checker.solver.factory import SolverSettings
from checker.solver.legal import Legality, interpreter_moves, interpreter_options, point_of
from checker.solver.scopes import Scopes
from checker.solver.statefile import StateFileError, dump_state, load_move, load_state
from conftest import bundled, run_cli

CASES = sorted((name, n) for name, counts in bundled().configurations.items() for n in counts)


@functools.cache
def scopes() -> Scopes:
    return Scopes(bundled().typed)


def engine() -> Engine:
    e = Engine(bundled().typed)
    e.recording = False
    return e


def play_points(config: str, players: int, seed: int, every: int = 1, limit: int = 10**9):
    """Play a seeded random game; at every ``every``-th decision point compare Z3's legal moves with the
    interpreter's options.  Returns (points compared, disagreements, states dumped)."""
    e, program = engine(), bundled().program
    selection = select(program, program.configurations[config], players)
    compared, disagreements, states = 0, [], []
    seen = 0

    def observe(decision):
        nonlocal compared, seen
        seen += 1
        if compared >= limit:
            raise _Enough()
        if seen % every:
            return
        point = point_of(decision, scopes())
        z3_moves = Legality(e, scopes()).moves(point)
        ours = interpreter_moves(decision)
        compared += 1
        if collections.Counter(z3_moves) != collections.Counter(ours):
            disagreements.append((decision.prompt, str(getattr(decision.site, "span", "")), z3_moves, ours))
        if len(states) < 6 and point.kind != "react":
            states.append(dump_state(e, decision, scopes(), ["spec/citadelles"]))
    e.observer = observe
    try:
        e.play(selection.cards, players, seed, [RandomAgent(seed * 100 + k) for k in range(players)])
    except _Enough:
        pass
    return compared, disagreements, states


class _Enough(Exception):
    """Enough decision points compared: the rest of the game is not played."""


@pytest.mark.parametrize("config,players", CASES)
def test_z3_moves_equal_the_interpreter_options(config, players):
    """« Choix des personnages », « Tour d'un joueur », every power: at sampled decision points of a whole
    game, Z3's set of legal moves is exactly the interpreter's."""
    compared, disagreements, _ = play_points(config, players, seed=players, every=2, limit=40)
    assert compared == 40
    assert not disagreements, disagreements[:3]


# ---------------------------------------------------------------- states drawn directly

@functools.cache
def base_states() -> list[dict]:
    out = []
    for config, players, seed in (("Première partie", 4, 1), ("Violente", 6, 2), ("Bluff", 3, 5)):
        out += play_points(config, players, seed, every=7, limit=30)[2]
    return out


def mutate(state: dict, rng: random.Random) -> dict:
    """Move district cards between hands, cities and the pile, and change everyone's gold."""
    s = copy.deepcopy(state)
    players = [f"Joueur {k + 1}" for k in range(s["players"])]
    s["vars"]["trésor"] = {p: rng.randint(0, 9) for p in players}
    zones = s["zones"]
    hands, cities = zones.setdefault("main", {}), zones.setdefault("cité", {})
    pile = zones.setdefault("pioche", [])
    for _ in range(rng.randint(1, 8)):
        if not pile:
            break
        card = pile.pop(rng.randrange(len(pile)))
        target = rng.choice([hands, cities])
        target.setdefault(rng.choice(players), []).append(card)
    for p in players:
        if cities.get(p) and rng.random() < 0.3:
            pile.append(cities[p].pop())
    return s


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 17), seed=st.integers(0, 10**6))
def test_generated_states_agree(index, seed):
    """States Hypothesis draws (cards and gold redistributed): Z3 and the interpreter, run on the loaded
    state, offer the same moves."""
    states = base_states()
    state = mutate(states[index % len(states)], random.Random(seed))
    e = engine()
    loaded = load_state(e, state, scopes())
    z3_moves = Legality(e, scopes()).moves(loaded.point)
    assert collections.Counter(z3_moves) == collections.Counter(interpreter_options(e, loaded.point))


def test_a_state_file_reads_back_to_the_same_state():
    for state in base_states()[:6]:
        e = engine()
        loaded = load_state(e, state, scopes())
        again = copy.deepcopy(state)
        e2 = engine()
        loaded2 = load_state(e2, again, scopes())
        assert e.st.vars == e2.st.vars and e.st.where == e2.st.where
        assert sorted(Legality(e, scopes()).moves(loaded.point), key=str) == \
            sorted(Legality(e2, scopes()).moves(loaded2.point), key=str)


# ---------------------------------------------------------------- explanations

def offer_state(**edits) -> tuple[Engine, object]:
    """A state at the turn's offer (« Tour d'un joueur »), with edits applied to the JSON."""
    state = next(s for s in base_states() if s["decision"]["kind"] == "offer")
    state = copy.deepcopy(state)
    for path, value in edits.items():
        where = state
        keys = path.split("/")
        for k in keys[:-1]:
            where = where.setdefault(k, {})
        where[keys[-1]] = value
    e = engine()
    return e, load_state(e, state, scopes())


def test_building_without_the_gold_is_forbidden_by_payer_le_coût():
    """« Bâtir des quartiers » : « en payant à la banque le coût indiqué sur la carte »."""
    e, loaded = offer_state()
    p = loaded.point.player
    name = f"Joueur {p + 1}"
    state_hand = [c for c, (z, i) in e.st.where.items() if z == "main" and i == p]
    card = max(state_hand, key=lambda c: e.card_attrs[e.defs[c]]["cost"])
    cost = e.card_attrs[e.defs[card]]["cost"]
    e, loaded = offer_state(**{f"vars/trésor/{name}": cost - 1, "vars/quartiers_bâtis": 0})
    card = e.card(e.show_card(card)) if e.show_card(card) in e.def_ids else card
    hand = [c for c, (z, i) in e.st.where.items() if z == "main" and i == p and e.defs[c] == e.defs[card]]
    verdict = Legality(e, scopes()).check(loaded.point, ("action", "bâtir", (p, hand[0])), p)
    assert verdict.status == "illegal"
    names = [r.name for r in verdict.reasons]
    assert "payer_le_coût" in names
    reason = verdict.reasons[names.index("payer_le_coût")]
    assert any(c.quote == "en payant à la banque le coût indiqué sur la carte." for c in reason.cites)
    assert str(cost - 1) in [v for _, v in reason.values]


def test_a_card_not_in_hand_is_forbidden_by_bâtir_depuis_la_main():
    e, loaded = offer_state()
    p = loaded.point.player
    elsewhere = next(c for c, (z, i) in e.st.where.items() if z == "pioche")
    verdict = Legality(e, scopes()).check(loaded.point, ("action", "bâtir", (p, elsewhere)), p)
    assert verdict.status == "illegal"
    assert [r.name for r in verdict.reasons] == ["bâtir_depuis_la_main"]
    assert str(verdict.reasons[0].span).startswith("spec/citadelles/01-partie.rules:")


def test_a_legal_build_names_what_offers_it():
    e, loaded = offer_state()
    legal = Legality(e, scopes()).moves(loaded.point)
    builds = [m for m in legal if m[0] == "action"]
    if not builds:
        pytest.skip("no build is possible in this state")
    verdict = Legality(e, scopes()).check(loaded.point, builds[0], loaded.point.player)
    assert verdict.legal and any(r.kind == "from" for r in verdict.reasons)


def test_someone_elses_decision_is_illegal_for_that_reason():
    e, loaded = offer_state()
    other = (loaded.point.player + 1) % e.st.n
    verdict = Legality(e, scopes()).check(loaded.point, ("finish", "Terminer son tour"), other)
    assert verdict.status == "illegal" and verdict.reasons[0].kind == "player"


def test_carrière_does_not_let_the_échevin_confiscate_a_duplicate():
    """« Quelques précisions sur les Merveilles », Carrière : « mais ne peut pas utiliser l'Échevin … pour
    acquérir des quartiers identiques. »  The Carrière's permission does not lift the Échevin's prohibition;
    the rulebook's precedence says so, and the verdict names the Échevin's rule."""
    program = bundled().program
    e = engine()
    chars = ["Assassin", "Voleur", "Magicienne", "Roi", "Évêque", "Marchande", "Architecte", "Condottiere"]
    chars[1] = "Échevin" if "Échevin" in program.cards else chars[1]
    base = next(s for s in base_states() if s["decision"]["kind"] == "offer")
    state = copy.deepcopy(base)
    state["selection"]["Character"] = chars
    if "Carrière" not in state["selection"]["District"]:
        state["selection"]["District"].append("Carrière")
    temple = "Temple"
    state["zones"] = {"cité": {"Joueur 2": ["Carrière", temple]}, "main": {"Joueur 1": [f"{temple}#2"]},
                      "choisis": {"Joueur 2": ["Échevin"], "Joueur 1": ["Roi"]}}
    state["vars"] = {"trésor": {"Joueur 1": 5, "Joueur 2": 5}, "personnage_actif": "Roi",
                     "joueur_actif": "Joueur 1", "mandat": {"Roi": "signé"}, "construction_payée": True,
                     "constructions_payées": 1}
    state["decision"] = {"kind": "offer", "at": "01-partie.rules:240:3", "player": "Joueur 1",
                         "names": {"p": "Joueur 1", "c": "Roi"}}
    loaded = load_state(e, state, scopes())
    verdict = Legality(e, scopes()).check(loaded.point, ("action", "confisquer", (1, e.card(temple))), None)
    assert not verdict.offered and verdict.status == "illegal"
    assert [r.name for r in verdict.reasons] == ["échevin_pas_de_doublon"]
    # the Carrière permits it; the verdict says which rule wins, and that a precedence decides it
    assert [(p, f, c.status, c.winner) for p, f, c in verdict.overruled] == [
        ("carrière_doublons", "échevin_pas_de_doublon", "settled", "échevin_pas_de_doublon")]


def test_an_undecided_query_is_reported_as_unknown_with_z3s_reason():
    e, loaded = offer_state()
    tight = Legality(e, scopes(), SolverSettings(rlimit=1))
    move = next(m for m in Legality(e, scopes()).moves(loaded.point))
    verdict = tight.check(loaded.point, move, loaded.point.player)
    assert verdict.status in ("unknown", "legal")       # a trivial query may be decided before any resource is used
    if verdict.status == "unknown":
        assert verdict.unknown


# ---------------------------------------------------------------- bad input

def _loaded_state():
    return copy.deepcopy(next(s for s in base_states() if s["decision"]["kind"] == "offer"))


@pytest.mark.parametrize("edit,path,words", [
    (lambda s: s["vars"].__setitem__("trésor", {"Joueur 1": -2}), "vars/trésor/Joueur 1", "negative"),
    (lambda s: s["zones"].setdefault("cité", {}).setdefault("Joueur 1", []).append(
        s["zones"]["pioche"][0]) or s["zones"].setdefault("main", {}).setdefault("Joueur 2", []).append(
        s["zones"]["pioche"][0]), "zones/main/Joueur 2", "one place"),
    (lambda s: s["zones"].setdefault("main", {}).setdefault("Joueur 1", []).append("Tempel"),
     "zones/main/Joueur 1", 'did you mean "Temple"'),
    (lambda s: s["zones"].setdefault("main", {}).setdefault("Joueur 1", []).append("Tempel#2"),  # a copy's label
     "zones/main/Joueur 1", 'unknown card "Tempel#2"; did you mean "Temple#2"'),
    (lambda s: s["vars"].__setitem__("trèsor", {}), "vars/trèsor", "did you mean trésor"),
    (lambda s: s["vars"].__setitem__("couronne", "Joueur 9"), "vars/couronne", "no Joueur 9"),
    (lambda s: s.__setitem__("players", 11), "players", "2 to 8"),
    (lambda s: s["decision"].__setitem__("at", "01-partie.rules:999:3"), "decision/at", "no offer"),
    (lambda s: s["decision"]["names"].__setitem__("q", "Joueur 1"), "decision/names/q", "no such name"),
    (lambda s: s["selection"]["Character"].append("Magiciene"), "selection/Character", 'did you mean "Magicienne"'),
    (lambda s: s.pop("decision"), "(the file)", "'decision' is a required property"),
])
def test_a_bad_state_is_refused_naming_the_field(edit, path, words):
    state = _loaded_state()
    edit(state)
    with pytest.raises(StateFileError) as err:
        load_state(engine(), state, scopes())
    assert any(p.startswith(path) and words in m for p, m in err.value.problems), err.value.problems


def test_a_power_of_a_character_nobody_holds_is_refused():
    e, loaded = offer_state()
    held = {e.defs[c] for c, (z, _) in e.st.where.items() if z == "choisis"}
    nobody = next(c for c in e.selected["Character"] if e.defs[c] not in held)
    power = e.powers_of[e.defs[nobody]][0].name
    with pytest.raises(StateFileError) as err:
        load_move(loaded, {"player": "Joueur 1", "power": power, "card": e.show_card(nobody)})
    assert err.value.problems[0][0] == "card" and "held by no player" in err.value.problems[0][1]


def test_a_move_with_the_wrong_arguments_is_refused():
    e, loaded = offer_state()
    with pytest.raises(StateFileError) as err:
        load_move(loaded, {"player": "Joueur 1", "action": "bâtir", "args": ["Joueur 1"]})
    assert err.value.problems == [("args", "bâtir takes 2 argument(s), not 1")]
    with pytest.raises(StateFileError) as err:
        load_move(loaded, {"player": "Joueur 1", "action": "bâtr", "args": []})
    assert "did you mean bâtir" in err.value.problems[0][1]


# ---------------------------------------------------------------- the commands

run = run_cli


@pytest.fixture
def state_file(capsys, tmp_path) -> Path:
    path = tmp_path / "etat.json"
    code, _, err = run(capsys, "play", "spec/citadelles", "-n", "4", "-s", "3", "-c", "Première partie", "-q",
                       "--state-at", "49", str(path))
    assert code == 0, err
    return path


def test_moves_then_legal_on_each_move(capsys, tmp_path, state_file):
    code, out, _ = run(capsys, "moves", str(state_file), "--json")
    assert code == 0 and json.loads(out)["exit_code"] == 0
    moves = json.loads(out)["moves"]
    assert moves and all(m["format"] == "rulebook-move/1" for m in moves)
    for i, move in enumerate(moves):
        path = tmp_path / f"coup{i}.json"
        path.write_text(json.dumps(move, ensure_ascii=False), encoding="utf-8")
        code, out, _ = run(capsys, "legal", str(state_file), str(path))
        assert code == 0 and out.startswith("legal:"), out
    code, out, _ = run(capsys, "legal", str(state_file), str(path), "--json")
    verdict = json.loads(out)
    assert (code, verdict["exit_code"], verdict["ok"], verdict["status"]) == (0, 0, True, "legal")


def test_a_move_of_another_player_than_the_one_who_decides_is_illegal_and_names_both(capsys, tmp_path,
                                                                                     state_file):
    state = json.loads(state_file.read_text(encoding="utf-8"))
    decides = int(state["decision"]["player"].split()[-1])
    other = decides % state["players"] + 1
    move = tmp_path / "coup.json"
    move.write_text(json.dumps({"player": f"Joueur {other}", "action": "bâtir",
                                "args": [f"Joueur {other}", state["zones"]["pioche"][0]]}), encoding="utf-8")
    code, out, _ = run(capsys, "legal", str(state_file), str(move), "--json")
    verdict = json.loads(out)
    assert code == 1 and verdict["status"] == "illegal"
    [reason] = verdict["reasons"]
    assert reason["kind"] == "player"
    assert reason["says"] == f"it is Joueur {decides} who decides here, not Joueur {other}", reason


def test_legal_explains_an_illegal_build(capsys, tmp_path, state_file):
    state = json.loads(state_file.read_text(encoding="utf-8"))
    player = state["decision"]["player"]
    pile_card = next(c for c in state["zones"]["pioche"] if "#" not in c)
    move = tmp_path / "coup.json"
    move.write_text(json.dumps({"player": player, "action": "bâtir", "args": [player, pile_card + "#9"]}),
                    encoding="utf-8")
    code, _, err = run(capsys, "legal", str(state_file), str(move))
    assert code == 2 and "args/1" in err
    state["vars"]["trésor"] = {player: 0}
    state_file.write_text(json.dumps(state, ensure_ascii=False), encoding="utf-8")
    hand = state["zones"]["main"][player]
    move.write_text(json.dumps({"player": player, "action": "bâtir", "args": [player, hand[0]]}), encoding="utf-8")
    code, out, _ = run(capsys, "legal", str(state_file), str(move), "--json")
    verdict = json.loads(out)
    costs = {c.name: a.value.value for c in bundled().program.cards.values() for a in c.attrs if a.name == "cost"}
    if costs[hand[0].split("#")[0]] == 0:
        pytest.skip("a district that costs nothing")
    assert code == 1 and verdict["status"] == "illegal"
    assert verdict["exit_code"] == 1 and verdict["ok"] is False
    assert verdict["reasons"][0]["kind"] == "forbid"
    assert verdict["reasons"][0]["at"].startswith("spec/citadelles/")
    assert verdict["reasons"][0]["cites"]


@pytest.mark.parametrize("content,words", [
    ("{", "not JSON"),
    ("[]", "is not of type 'object'"),
    ('{"format": "rulebook-state/1"}', "required property"),
])
def test_bad_state_files_exit_2_without_traceback(capsys, tmp_path, content, words):
    path = tmp_path / "etat.json"
    path.write_text(content, encoding="utf-8")
    code, _, err = run(capsys, "moves", str(path), "--spec", "spec/citadelles")
    assert code == 2 and words in err


def test_a_missing_state_file_is_said_plainly(capsys, tmp_path):
    code, _, err = run(capsys, "moves", str(tmp_path / "nope.json"))
    assert code == 2 and "cannot read" in err


def test_state_at_beyond_the_game_is_refused(capsys, tmp_path):
    code, _, err = run(capsys, "play", "spec/citadelles", "-n", "4", "-s", "3", "-c", "Première partie", "-q",
                       "--state-at", "100000", str(tmp_path / "x.json"))
    assert code == 2 and "there is no decision 100000" in err


def test_the_c_api_builders_make_z3pys_terms():
    """solver/terms.py builds terms through Z3's C API for speed: each must be the very term z3py makes (Z3
    shares equal terms, so ``eq`` is identity), or the witnesses would change with the builder."""
    import z3
    from checker.solver.terms import mk_and, mk_atmost, mk_if, mk_implies, mk_or
    a, b, c = z3.Bools("a b c")
    x, y = z3.Ints("x y")
    assert mk_implies(a, b).eq(z3.Implies(a, b)) and not mk_implies(a, b).eq(z3.Implies(b, a))
    assert mk_atmost([a, b, c], 1).eq(z3.AtMost(a, b, c, 1)) and not mk_atmost([a, b, c], 2).eq(z3.AtMost(a, b, c, 1))
    assert mk_and([a, b]).eq(z3.And(a, b)) and mk_or([a, c]).eq(z3.Or(a, c))
    assert mk_if(a, x, 3).eq(z3.If(a, x, 3)) and mk_if(a, b, c).eq(z3.If(a, b, c))
    s = z3.Solver()
    s.add(mk_atmost([a, b, c], 1), a, mk_implies(a, b))
    assert s.check() == z3.unsat


def test_the_c_api_equalities_comparisons_negations_and_mixed_choices_are_z3pys():
    """mk_eq (either side a Python int, or two terms), mk_cmp, mk_arith (``+``, ``-``), mk_not and mk_if with a Python bool on one side
    (solver/terms.py, which EQ, NOT and the encoder's comparisons use) make the very term z3py makes —
    with a Python int on the left, z3py's reflected comparison, as Python asks it — and what they do not
    build themselves (a Real, a Python bool against a term) goes through z3py."""
    import z3
    from checker.solver.formulas import EQ, NOT
    from checker.solver.terms import mk_arith, mk_cmp, mk_eq, mk_if, mk_not
    a, b = z3.Bools("a b")
    x, y, r = z3.Int("x"), z3.Int("y"), z3.Real("r")
    assert mk_eq(3, x).eq(3 == x) and mk_eq(3, x).eq(x == 3) and not mk_eq(3, x).eq(x == 4)
    assert mk_eq(x, y).eq(x == y) and not mk_eq(x, y).eq(y == x) and mk_eq(a, b).eq(a == b)
    assert mk_eq(x, r).eq(x == r) and mk_eq(a, True).eq(a == True) and mk_eq(x, None) is False  # noqa: E712
    assert EQ(2, x).eq(x == 2) and EQ(2, 2) is True and EQ(x, (1, 2)) is False
    for op, py in (("<", lambda p, q: p < q), ("<=", lambda p, q: p <= q), (">", lambda p, q: p > q),
                   (">=", lambda p, q: p >= q)):
        for p, q in ((x, 3), (3, x), (x, y), (x, r), (r, 2)):
            assert mk_cmp(op, p, q).eq(py(p, q)), (op, p, q)
        assert mk_cmp(op, 1, 2) is py(1, 2)
    assert not mk_cmp("<", 3, x).eq(x < 3) and mk_cmp("<", 3, x).eq(x > 3)
    assert mk_not(a).eq(z3.Not(a)) and NOT(a).eq(z3.Not(a)) and NOT(True) is False
    for c, d in ((True, b), (b, False), (False, a)):
        assert mk_if(a, c, d).eq(z3.If(a, c, d)), (c, d)
    assert not mk_if(a, True, b).eq(z3.If(a, b, True))
    for p, q in ((x, 3), (3, x), (x, y), (x, r), (2, 3), (x, a)):
        assert (mk_arith("+", p, q) == p + q) if isinstance(p + q, int) else mk_arith("+", p, q).eq(p + q), (p, q)
        assert (mk_arith("-", p, q) == p - q) if isinstance(p - q, int) else mk_arith("-", p, q).eq(p - q), (p, q)
    assert not mk_arith("-", 3, x).eq(x - 3) and not mk_arith("+", 3, x).eq(x + 3)


def test_a_choice_between_records_is_made_field_by_field_and_a_record_or_none_is_refused():
    """ITE (solver/formulas.py) on records: one term per field; a constant condition picks a side as it is; a
    record on one side and none (or a number) on the other cannot be encoded field by field: said so."""
    import z3
    from checker.solver.formulas import Unsupported
    from checker.solver.formulas import ITE
    c, x = z3.Bool("c"), z3.Int("x")
    both = ITE(c, (x, 2), (3, 4))
    assert isinstance(both, tuple) and both[0].eq(z3.If(c, x, 3)) and both[1].eq(z3.If(c, 2, 4))
    assert ITE(True, (x, 2), 0) == (x, 2) and ITE(False, 0, (1, 2)) == (1, 2)
    for a, b in (((x, 2), 0), (-1, (x, 2))):
        with pytest.raises(Unsupported, match="a record or none"):
            ITE(c, a, b)


def test_the_c_api_constants_equalities_counts_and_assertions_are_z3pys():
    """mk_const, mk_eq, count_true_in and assert_all (solver/terms.py) do what z3py's Bool/Int, ``==``,
    ``sum(is_true(model.eval(t, True)))`` and ``Solver.add`` do: the same terms, the same counts, the same
    assertions (a Python bool or another sort goes through z3py)."""
    import z3
    from checker.solver.terms import assert_all, count_true_in, mk_const, mk_eq
    a, x = mk_const("a ∈ b[Joueur 1]", True), mk_const("trésor[Joueur 2]", False)
    assert a.eq(z3.Bool("a ∈ b[Joueur 1]")) and x.eq(z3.Int("trésor[Joueur 2]")) and not x.eq(z3.Int("a"))
    assert mk_eq(x, -3).eq(x == -3) and mk_eq(x, 0).eq(x == 0) and mk_eq(a, True).eq(a == True)  # noqa: E712
    b, c = z3.Bools("b c")
    s = z3.Solver()
    assert_all(s, [a, z3.Not(b), True, mk_eq(x, 4)])
    assert [str(f) for f in s.assertions()] == ["a ∈ b[Joueur 1]", "Not(b)", "True", "trésor[Joueur 2] == 4"]
    assert s.check() == z3.sat
    m = s.model()
    terms = [a, b, c, z3.Or(a, b)]
    assert count_true_in(m, terms) == 2 == sum(z3.is_true(m.eval(t, True)) for t in terms)
