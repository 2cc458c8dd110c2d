"""The interpreter plays complete games from the bundled spec (issue 3, first part).

Invariants checked after every game: every physical card is in exactly one zone, no
counter is negative, one player holds the crown, the game ended in a bounded number of
rounds; and the same seed gives the same game.
"""

from __future__ import annotations

import collections
import functools

import pytest

from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent
from conftest import bundled


@functools.cache
def engine() -> Engine:
    return Engine(bundled().typed)


def play(config: str, players: int, seed: int, record: bool = False):
    e = engine()
    e.recording = record
    program = bundled().program
    selection = select(program, program.configurations[config], players)
    result = e.play(selection.cards, players, seed, [RandomAgent(seed * 100 + i) for i in range(players)])
    return e, selection, result


CASES = [(config, players) for config in ("Première partie", "Développement", "Confrontation", "Tranquille",
                                          "Bluff", "Combinaisons", "Violente")
         for players in (2, 3, 5, 8) if players in bundled().configurations[config]]


@pytest.mark.parametrize("config, players", CASES, ids=lambda x: str(x))
def test_a_complete_game_keeps_its_invariants(config, players):
    e, selection, result = play(config, players, seed=players)
    st = e.st
    expected = sum((e.card_attrs[e.def_ids[name]].get("copies") or 1)
                   for names in selection.cards.values() for name in names)
    in_zones = sum(len(z) if isinstance(z, list) else sum(len(x) for x in z.values()) for z in st.zones.values())
    assert in_zones == len(e.defs) == expected == len(st.where)
    for name, var in bundled().program.vars.items():
        if var.counter and not var.unlimited:
            values = st.vars[name].values() if isinstance(st.vars[name], dict) else [st.vars[name]]
            assert all(v >= 0 for v in values), name
    assert st.vars["couronne"] in range(players)
    assert 1 <= result.rounds <= 40
    assert set(result.scores) == set(range(players)) and result.winners


def test_same_seed_same_game():
    first = play("Bluff", 4, seed=11, record=True)[2].events
    again = play("Bluff", 4, seed=11, record=True)[2].events
    other = play("Bluff", 4, seed=12, record=True)[2].events
    assert first == again
    assert first != other
    assert any(e["kind"] == "decision" for e in first) and any(e["kind"] == "round" for e in first)


def test_every_character_and_merveille_is_used_across_the_configurations():
    used = collections.Counter()
    for config, players in CASES:
        e, _, result = play(config, players, seed=1, record=True)
        used.update(ev["card"] for ev in result.events if ev["kind"] == "power")
    program = bundled().program
    with_powers = {c.name for c in program.cards.values() if c.powers}
    never = sorted(with_powers - set(used))
    # a few powers only fire in rare situations; the list is reported, and must stay short
    assert len(never) <= 2, never


# ---------------------------------------------------------------- rulebook play

def _play_cli(capsys, *argv):
    from checker.cli import main
    code = main(["play", "spec/citadelles", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_play_prints_a_french_log_and_the_winner(capsys, tmp_path):
    log = tmp_path / "game.json"
    code, out, _ = _play_cli(capsys, "--players", "4", "--seed", "3", "--config", "Première partie",
                             "--json", str(log))
    assert code == 0
    assert "=== Tour 1 ===" in out and "Scores : Joueur 1" in out and "Vainqueur : Joueur" in out
    import json
    record = json.loads(log.read_text(encoding="utf-8"))
    assert record["players"] == 4 and record["seed"] == 3
    decisions = [e for e in record["events"] if e["kind"] == "decision"]
    assert decisions and all(0 <= d["chosen"] < len(d["options"]) for d in decisions)
    code2, again, _ = _play_cli(capsys, "--players", "4", "--seed", "3", "--config", "Première partie")
    assert again == out, "the same seed prints the same game"


def test_play_refuses_what_the_rules_forbid(capsys):
    code, _, err = _play_cli(capsys, "--players", "3", "--config", "Première partie")
    assert code == 2 and "its players field allows 2, 4–7" in err
    assert "À 3 ou 8 joueurs, il faut un personnage de rang 9 — count(c in selected(Character) where c.rank == 9) " \
           "is 0, required == 1" in err, "the constraint the selection would break, and what breaks it"
    code, _, err = _play_cli(capsys, "--players", "4", "--config", "Premiere partie")
    assert code == 2 and 'did you mean "Première partie"' in err


# ---------------------------------------------------------------- agents and what they may see

def test_an_agent_sees_only_what_its_player_may_see():
    from checker.runtime.agents import RandomAgent as Random

    views = []

    class Watcher(Random):
        def choose(self, decision):
            if len(views) < 40:
                views.append((decision.player, decision.view))
            return super().choose(decision)

    e = engine()
    e.recording = False
    program = bundled().program
    selection = select(program, program.configurations["Première partie"], 4)
    e.play(selection.cards, 4, 5, [Watcher(i) for i in range(4)])
    assert views
    for player, view in views:
        hands = view["zones"]["main"]
        for seat, cards in hands.items():
            assert isinstance(cards, list) == (seat == player), "a hand is seen only by its owner"
        assert isinstance(view["zones"]["pioche"], int), "the draw pile is secret: only its size is seen"
        assert set(view["vars"]["trésor"]) <= set(range(4)), "gold is public"
        assert "menace" not in view["vars"] and "mandat" not in view["vars"], "face-down tokens are secret"


def test_the_greedy_builder_beats_random_players():
    from checker.runtime.agents import GreedyAgent

    e = engine()
    e.recording = False
    program = bundled().program
    selection = select(program, program.configurations["Première partie"], 4)
    wins = 0
    for seed in range(40):
        agents = [GreedyAgent(seed)] + [RandomAgent(seed * 10 + i) for i in range(1, 4)]
        wins += 0 in e.play(selection.cards, 4, seed, agents).winners
    assert wins >= 14, f"the greedy seat won {wins} of 40 games (a random seat wins about 10)"


def test_play_with_cards_added_and_removed_and_greedy_players(capsys, tmp_path):
    log = tmp_path / "g.json"
    code, out, _ = _play_cli(capsys, "-n", "4", "-s", "2", "-c", "Première partie", "--remove", "Forge, Tripot",
                             "--add", "Musée, Parc", "--agent", "greedy", "--json", str(log), "-q")
    assert code == 0 and "Vainqueur" in out
    import json
    record = json.loads(log.read_text(encoding="utf-8"))
    assert "Musée" in record["selection"]["District"] and "Forge" not in record["selection"]["District"]
    from checker.cli import main
    assert main(["replay", str(log)]) == 0
    assert "replay ok" in capsys.readouterr().out


def test_play_judges_an_edited_selection_by_the_rules(capsys):
    code, _, err = _play_cli(capsys, "-n", "4", "-c", "Première partie", "--remove", "Roi", "--add", "Reine")
    assert code == 2 and "La Reine ne doit pas être utilisée" in err
    code, _, err = _play_cli(capsys, "-n", "4", "-c", "Première partie", "--add", "Musee")
    assert code == 2 and 'did you mean "Musée"' in err
    code, _, err = _play_cli(capsys, "-n", "4", "-c", "Première partie", "--remove", "Musée")
    assert code == 2 and "is not in configuration" in err


def test_a_house_rule_overlay_changes_the_game_played(capsys, tmp_path):
    """The overlay 'Partie rapide' completes a city at 6 districts: games end sooner, and replay."""
    from checker.cli import main
    import json
    rounds = {}
    for label, extra in (("base", []), ("rapide", ["tests/fixtures/good/overlay_partie_rapide.rules"])):
        total = 0
        for seed in range(6):
            log = tmp_path / f"{label}{seed}.json"
            assert main(["play", "spec/citadelles", *extra, "-n", "4", "-s", str(seed), "-c", "Première partie",
                         "-q", "--json", str(log)]) == 0
            events = json.loads(log.read_text(encoding="utf-8"))["events"]
            total += max(e["number"] for e in events if e["kind"] == "round")
        rounds[label] = total
        assert main(["replay", str(log)]) == 0
    capsys.readouterr()
    assert rounds["rapide"] < rounds["base"]


def test_a_card_name_as_an_index_means_its_single_copy_in_the_game(tmp_path):
    """`assassiné["Roi"]` (or `interrompu[this]` in a card's rule) reads the marker of the Roi in play."""
    from pathlib import Path
    from checker.front.check import check_paths
    from checker.runtime.state import SpecRuntimeError

    house = tmp_path / "maison.rules"
    house.write_text('rule roi_mort { forbid bâtir(p, d) when assassiné["Roi"] }\n'
                     'rule temple_embelli { forbid bâtir(p, d) when embellissement["Temple"] > 0 }\n',
                     encoding="utf-8")
    checked = check_paths([Path("spec/citadelles"), house])
    assert checked.ok, [d.message for d in checked.reporter.diagnostics]
    e = Engine(checked.typed)
    program = checked.program
    selection = select(program, program.configurations["Première partie"], 4)
    st = e.start(selection.cards, 4, 0, [RandomAgent(i) for i in range(4)])
    palais = e.card("Palais")
    st.put(palais, "main", 0, "top")
    st.put(e.card("Voleur"), "choisis", 0, "top")
    st.vars["personnage_actif"] = e.card("Voleur")
    st.vars["trésor"][0] = 9
    e.rules_for["bâtir"] = [h for h in e.rules_for["bâtir"] if h[0] != "temple_embelli"]
    assert e.legal("bâtir", (0, palais))[0]
    st.vars["assassiné"][e.card("Roi")] = True
    assert e.legal("bâtir", (0, palais))[1] == ["roi_mort"]
    e2 = Engine(checked.typed)
    st2 = e2.start(selection.cards, 4, 0, [RandomAgent(i) for i in range(4)])
    st2.put(e2.card("Palais"), "main", 0, "top")
    st2.put(e2.card("Voleur"), "choisis", 0, "top")
    st2.vars["personnage_actif"] = e2.card("Voleur")
    st2.vars["trésor"][0] = 9
    with pytest.raises(SpecRuntimeError, match="Temple.*3 copies"):
        e2.allowed("bâtir", (0, e2.card("Palais")))


def _slow_offer(e, site, env) -> list:
    """The options an offer's actions should list, found rule by rule (``Engine.legal``, which reads each
    rule's condition alone) over every binding of the offer's `for`s, evaluated one at a time."""
    from checker.front import ast
    from checker.runtime.codegen import Scope

    gen, found = e.compiler.gen, []

    def value(expr, local):
        return gen.env_function(expr, Scope({}, True, frozenset(local)))(local)

    def bind(item, depth, local):
        if depth == len(item.binders):
            args = tuple(value(a, local) for a in item.args)
            if e.legal(item.action, args)[0]:
                found.append(("action", item.action, args))
            return
        var, coll = item.binders[depth]
        for x in tuple(value(coll, local)):
            bind(item, depth + 1, {**local, var: x})

    for item in site.items:
        if isinstance(item, ast.OfferAction):
            bind(item, 0, dict(env))
    return found


@pytest.mark.parametrize("players, seed", [(4, 0), (4, 1), (6, 2), (3, 3)])
def test_the_compiled_legality_tests_agree_with_the_rules_read_one_by_one(players, seed):
    """The generated code inlines and reorders nothing that changes a result: at every offer of a game, the
    actions offered are exactly those the rules, read one by one, allow; and a cached quantity is the
    quantity computed again."""
    from checker.front import ast

    e = Engine(bundled().typed)
    e.recording = False
    checked = {"offers": 0}

    def observe(decision):
        if isinstance(decision.site, ast.Offer):
            offered = [o for o in decision.options if o[0] == "action"]
            assert offered == _slow_offer(e, decision.site, decision.env)
            for option in offered:
                assert e.allowed(option[1], option[2])
            checked["offers"] += 1
        for p in range(players):
            assert e.quantity(e.score, (p,)) == e._quantity(e.score, (p,))

    e.observer = observe
    program = bundled().program
    selection = select(program, program.configurations["Violente"], players)
    e.play(selection.cards, players, seed, [RandomAgent(seed * 100 + i) for i in range(players)])
    assert checked["offers"] > 10
