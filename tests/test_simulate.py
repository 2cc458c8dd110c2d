"""`rulebook simulate`: the same statistics on one worker, two workers and a Dask cluster; a card is
credited to the players who had it; two rule sets compared on the same seeds; files never
overwritten; the Monte-Carlo agent plays legal, complete, reproducible games.  A few tens of games
in all."""

from __future__ import annotations

import io
import json
import os
import random
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from checker.cli import main
from checker.front.configurations import select
from checker.runtime import Engine, RandomAgent
from checker.runtime.montecarlo import MonteCarloAgent, determinise
from checker.simulate.stats import compare, holm, wilson
from conftest import bundled

GAMES = "8"
BASE = ["simulate", "spec/citadelles", "-n", GAMES, "-c", "Première partie", "-p", "4", "--agent", "greedy,random"]


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def one_worker(tmp_path_factory):
    folder = tmp_path_factory.mktemp("simulate")
    code, out, _ = run(*BASE, "-j", "1", "--json", str(folder / "a.json"), "--csv", str(folder / "a.csv"))
    assert code == 0
    return json.loads((folder / "a.json").read_text(encoding="utf-8")), out, folder


def test_two_workers_give_the_same_statistics_as_one(one_worker, tmp_path):
    summary, _, _ = one_worker
    code, _, _ = run(*BASE, "-j", "2", "--json", str(tmp_path / "b.json"))
    assert code == 0
    assert json.loads((tmp_path / "b.json").read_text(encoding="utf-8")) == summary


def test_a_dask_cluster_gives_the_same_statistics(one_worker, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=None) as cluster:
        code, out, _ = run(*BASE, "--cluster", cluster.scheduler_address, "--json", str(tmp_path / "c.json"))
    assert code == 0 and "on the cluster " in out
    assert json.loads((tmp_path / "c.json").read_text(encoding="utf-8")) == one_worker[0]


def test_the_report_counts_every_game_seat_and_agent(one_worker):
    summary, out, folder = one_worker
    rates = {(r["category"], r["name"]): r for r in summary["rates"]}
    assert summary["played"] == int(GAMES) and summary["failed"] == 0
    assert sum(rates[("seat", f"Joueur {s}")]["wins"] for s in range(1, 5)) == pytest.approx(int(GAMES))
    assert rates[("agent", "greedy")]["trials"] == rates[("agent", "random")]["trials"] == 2 * int(GAMES)
    characters = [r for r in summary["rates"] if r["category"] == "Character"]
    assert len(characters) == 8 and all(r["controller"] == "détenteur" for r in characters)
    # every round each of the 4 players holds a character, so some 4 players had one in every game
    assert sum(r["trials"] for r in characters) >= 4 * int(GAMES)
    # the spec has a lexicon: the report speaks French, kinds and controllers in the lexicon's words
    assert "intervalle de confiance à 95 % (Wilson)" in out and "Par carte : Quartiers" in out
    assert "Par carte : Personnages (joueurs qui l'ont eue : le joueur qui a choisi la carte" in out
    assert "Character" not in out and "détenteur" not in out
    header = (folder / "a.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == "category,name,trials,wins,win_rate,ci_low,ci_high,games,undetermined"


def test_a_player_who_used_a_characters_power_had_that_character(one_worker):
    """Independent of the sampling: the log of game 0 (same seed, same lineup) names who used which
    character's power; each of them must be counted among the players who had that character."""
    summary, _, _ = one_worker
    from checker.runtime.players import make_agent
    from checker.simulate.games import GameRecord, Job, lineup_of, play_chunk, spec_files
    result = bundled()
    selection = select(result.program, result.program.configurations["Première partie"], 4)
    files, roots, digest = spec_files([Path("spec/citadelles")])
    order = tuple((k, tuple(v)) for k, v in selection.cards.items())
    job = Job(files, roots, order, 4, ("greedy", "random", "greedy", "random"), 0, key=digest)
    record: GameRecord = play_chunk((job, 0, 1))[0]
    engine = Engine(result.typed)
    agents = [make_agent(name, seat, 1, 1) for seat, name in enumerate(lineup_of(job, 0))]
    game = engine.play(selection.cards, 4, 0, agents)
    assert game.winners == list(record.winners)
    characters = set(selection.cards["Character"])
    used = {(e["player"], e["card"]) for e in game.events if e["kind"] == "power" and e["card"] in characters}
    assert used
    for player, card in used:
        assert record.had[job.tracked.index(card)] >> player & 1, (player, card)


def test_the_same_rules_on_the_same_seeds_differ_in_nothing(tmp_path):
    code, out, _ = run(*BASE[:3], "4", *BASE[4:], "-j", "1", "--vs", "spec/citadelles", "--csv",
                       str(tmp_path / "vs.csv"))
    assert code == 0
    assert "0 of " in out and "Holm–Bonferroni" in out
    rows = (tmp_path / "vs.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0] == "category,name,a,b,difference,p_value,p_holm,significant"
    assert all(row.endswith(",no") for row in rows[1:])


def test_a_real_difference_is_significant_and_noise_is_not():
    def summary(rate: float, n: int) -> dict:
        return {"rates": [{"category": "seat", "name": "Joueur 1", "trials": n, "wins": rate * n, "rate": rate}],
                "length": {k: {"mean": 10.0, "sd": 1.0, "n": n} for k in ("rounds", "moves")}}
    big = compare(summary(0.25, 2000), summary(0.35, 2000))
    assert big["rows"][0]["significant"] and big["compared"] == 3
    small = compare(summary(0.25, 100), summary(0.27, 100))
    assert not small["rows"][0]["significant"]
    assert holm([0.01, 0.02]) == [0.02, 0.02]
    low, high = wilson(1, 4)
    assert low < 0.25 < high and 0 < low


def test_existing_files_are_kept_without_force(tmp_path):
    target = tmp_path / "résultats.json"
    target.write_text("mine", encoding="utf-8")
    code, _, err = run(*BASE, "-n", "1", "-j", "1", "--json", str(target))
    assert code == 2 and "already exists; add --force" in err
    assert target.read_text(encoding="utf-8") == "mine"
    code, _, _ = run(*BASE, "-n", "1", "-j", "1", "--json", str(target), "--force")
    assert code == 0 and json.loads(target.read_text(encoding="utf-8"))["games"] == 1
    assert [p.name for p in tmp_path.iterdir()] == ["résultats.json"]      # no temporary file left
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask                # as any new file, not private


def test_charts_are_written_as_png(tmp_path):
    pytest.importorskip("matplotlib")
    code, _, err = run(*BASE, "-n", "2", "-j", "1", "--plots", str(tmp_path / "charts"))
    assert code == 0, err
    names = sorted(p.name for p in (tmp_path / "charts").iterdir())
    assert names == ["win-rates-agent.png", "win-rates-character.png", "win-rates-district.png",
                     "win-rates-seat.png"]
    assert all((tmp_path / "charts" / n).read_bytes().startswith(b"\x89PNG") for n in names)


@pytest.mark.parametrize("argv, message", [
    (["--agent", "clever"], "no agent \"clever\""),
    (["-n", "0"], "-n takes 1 to"),
    (["--agent", "random,random,random,random,random"], "5 agents for 4 players"),
    (["-c", "Première partie", "-p", "9"], "is for"),
    (["--cluster", "nonsense"], "a Dask scheduler address such as tcp://host:8786"),
])
def test_bad_options_are_explained(argv, message):
    code, _, err = run("simulate", "spec/citadelles", *argv)
    assert code == 2 and message in err


# ---------------------------------------------------------------- the Monte-Carlo agent

def _game(seed: int):
    result = bundled()
    engine = Engine(result.typed)
    selection = select(result.program, result.program.configurations["Première partie"], 4)
    agent = MonteCarloAgent(seed, playouts=3, depth=40)
    game = engine.play(selection.cards, 4, seed, [agent] + [RandomAgent(seed * 10 + i) for i in range(1, 4)])
    return game, agent


def test_the_monte_carlo_agent_plays_complete_reproducible_games():
    game, agent = _game(3)
    assert game.winners and game.rounds > 1 and agent.played > 0
    again, _ = _game(3)
    assert [e for e in again.events if e["kind"] == "decision"] == [e for e in game.events if e["kind"] == "decision"]
    assert again.scores == game.scores


def test_determinising_keeps_what_the_player_sees_and_every_cells_size():
    result = bundled()
    engine = Engine(result.typed)
    selection = select(result.program, result.program.configurations["Première partie"], 4)
    seen_at = {}

    class Stop(Exception):
        pass

    class Probe:
        def __init__(self):
            self.rng = random.Random(0)

        def choose(self, decision):
            if engine.st.round == 2 and decision.player == 0:
                seen_at["decision"] = decision
                raise Stop()
            return self.rng.randrange(len(decision.options) + (1 if decision.optional else 0))

    with pytest.raises(Stop):
        engine.play(selection.cards, 4, 1, [Probe() for _ in range(4)])
    before = {name: ({k: list(v) for k, v in z.items()} if isinstance(z, dict) else list(z))
              for name, z in engine.st.zones.items()}
    view = engine.view(0)
    moved = determinise(engine, 0, seen_at["decision"], random.Random(5))
    assert moved > 10 and engine.view(0) == view
    changed = False
    for name, zone in engine.st.zones.items():
        for index, cards in (zone.items() if isinstance(zone, dict) else ((None, zone),)):
            old = before[name][index] if index is not None else before[name]
            kinds = sorted(engine.def_kind[engine.st.defs[c]] for c in cards)
            assert kinds == sorted(engine.def_kind[engine.st.defs[c]] for c in old)
            assert all(engine.st.where[c] == (name, index) for c in cards)
            changed |= cards != old
    assert changed
    every = sorted(c for z in engine.st.zones.values() for cs in (z.values() if isinstance(z, dict) else [z])
                   for c in cs)
    assert every == sorted(c for z in before.values() for cs in (z.values() if isinstance(z, dict) else [z])
                           for c in cs)


# ---------------------------------------------------------------- the book's balance pages

def test_a_balance_page_is_drawn_from_a_result_and_says_when_the_rules_changed(one_worker, tmp_path):
    from checker.prose import Lexicon
    from checker.sphinxext.balance import write_balance_pages
    from conftest import ROOT
    summary, _, _ = one_worker
    (tmp_path / "now.json").write_text(json.dumps(summary), encoding="utf-8")
    (tmp_path / "old.json").write_text(json.dumps(dict(summary, spec_digest="0" * 16)), encoding="utf-8")
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    warnings = []
    pages = write_balance_pages(tmp_path, ROOT / "docs", [str(tmp_path / n) for n in ("now.json", "old.json",
                                                                                        "broken.json")],
                                lambda message, where: warnings.append(message),
                                Lexicon.load(ROOT / "docs" / "lexique.toml"))
    assert [p.name for p in pages] == ["now.rst", "old.rst"] and len(warnings) == 1 and "broken.json" in warnings[0]
    now, old = (p.read_text(encoding="utf-8") for p in pages)
    assert "Par carte : Personnages" in now and "Par carte : Quartiers" in now, "kinds in the book's words"
    assert "quand il était le joueur qui a choisi la carte pour" in now
    assert "Character" not in now.replace("win-rates-character", "") and "détenteur" not in now
    assert ".. warning::" not in now and "Les règles ont changé" in old
    assert "rulebook simulate spec/citadelles -n 8 -c 'Première partie' -p 4 --agent greedy,random" in now
    assert ".. image:: now/win-rates-character.png" in now and (tmp_path / "equilibre" / "now" /
                                                                 "win-rates-character.png").is_file()
