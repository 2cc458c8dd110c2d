"""`rulebook play --human`: a person plays one seat at the terminal, in the book's French.

The words come from the spec and docs/lexique.toml (never from a card's name in the code): the question says
what is chosen, options show cards with their attributes and actions with their cost, identical options are
offered once, the table shows what the seat may see (and nothing it may not), `?` explains, `q` leaves."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from checker.front import ast
from checker.front.configurations import select
from checker.human import Table, Words, find_lexicon
from checker.human.agent import HumanAgent, HumanQuit
from checker.human.board import board
from checker.runtime import Engine
from checker.runtime.engine import Decision
from conftest import ROOT, bundled

CONFIG = "Première partie"
SPEC_IDENTIFIERS = re.compile(r"choisir_un_personnage|recevoir_des_ressources|choisir [a-z]\b|\(\d+/\d+\.\.\d+\)|"
                              r"bâtir\(|que faire \?")


def run(capsys, monkeypatch, stdin: str, *argv):
    from checker.cli import main
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def engine_at_start(players: int = 4, seed: int = 0) -> tuple[Engine, Words]:
    """A Citadelles game set up and dealt (mise_en_place played), Joueur 1 reading."""
    result = bundled()
    engine = Engine(result.typed)
    selection = select(result.program, result.program.configurations[CONFIG], players)
    engine.start(selection.cards, players, seed, [None] * players)
    engine.call("mise_en_place", ())
    return engine, Words(engine, find_lexicon([ROOT / "spec" / "citadelles"]), 0)


def offer_site(engine: Engine) -> ast.Offer:
    return next(s for s in engine.program.procedures["suite_du_tour"].body if isinstance(s, ast.Offer))


def test_a_first_game_reads_in_french_with_help_and_quits_cleanly(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "?\n? 1\nmauvais\nq\n",
                         "play", "spec/citadelles", "-n", "4", "-c", CONFIG, "--human", "1")
    assert code == 130 and "Partie interrompue" in err
    assert "Choisissez un personnage parmi les cartes Personnage à choisir (en secret)" in out
    assert re.search(r"^  1\. \w+ \(rang \d\)$", out, re.MULTILINE), "a character option shows its rank"
    assert "Le livret : « " in out, "help quotes the rulebook's sentences of the powers"
    assert "« mauvais » n'est pas un choix" in out
    # the table: the crown, the face-up discards, the hand with costs and types, the others' hands as numbers
    assert "Le détenteur de la Couronne : Joueur" in out
    assert "Les personnages écartés face visible : " in out
    assert re.search(r"main : \w[^;]* — \d+ pièces? d'or, (Noble|Religieux|Commerçant|Militaire|Merveille)", out)
    assert re.search(r"Joueur 2 — trésor : 2 pièces d'or · main : 4 cartes", out)
    assert not re.search(r" : 0 (personnage|carte)", out), "none of the hidden cards reads « aucun », as the visible ones"
    assert not SPEC_IDENTIFIERS.search(out), SPEC_IDENTIFIERS.search(out)


def test_a_whole_game_by_a_person_is_a_replayable_game(capsys, monkeypatch, tmp_path):
    log = tmp_path / "h.json"
    code, out, err = run(capsys, monkeypatch, "1\n" * 3000, "play", "spec/citadelles", "-n", "4", "-c", CONFIG,
                         "-s", "5", "--human", "2", "--json", str(log))
    assert code == 0, err
    assert "Que voulez-vous faire ?" in out and "Vainqueur : " in out
    assert re.search(r"Bâtir « [^»]+ » \(\d+ pièces? d'or\)", out), "an action shows its cost"
    assert not SPEC_IDENTIFIERS.search(out), SPEC_IDENTIFIERS.search(out)
    # the others' secret choices are told as facts, never with what was chosen
    assert "Joueur 1 choisit en secret." in out
    assert not re.search(r"Joueur [134] choisit [^:\n]*en secret\)? : ", out)
    from checker.cli import main
    assert main(["replay", str(log)]) == 0


def test_two_copies_of_a_card_are_one_option_unless_they_differ():
    engine, words = engine_at_start()
    taverns = engine.instances[engine.def_ids["Taverne"]][:2]
    palace = engine.instances[engine.def_ids["Palais"]][0]
    options = [("action", "bâtir", (0, taverns[0])), ("action", "bâtir", (0, palace)),
               ("action", "bâtir", (0, taverns[1]))]
    for card in (*taverns, palace):
        engine.st.put(card, "main", 0, "top")
    decision = Decision(0, "que faire ?", options, engine.show_option, engine=engine, site=offer_site(engine))
    agent = HumanAgent(words=words)
    question, entries = agent.menu(decision)
    assert question == "Que voulez-vous faire ?"
    assert entries == [("Bâtir « Taverne » (1 pièce d'or)", [0, 2]), ("Bâtir « Palais » (5 pièces d'or)", [1])]
    engine.st.vars["embellissement"][taverns[1]] = 1          # now the second Taverne is not like the first
    _, entries = agent.menu(decision)
    assert [indices for _, indices in entries] == [[0], [1], [2]]


def test_an_action_costs_what_its_body_transfers_now():
    engine, words = engine_at_start()
    palace = engine.instances[engine.def_ids["Palais"]][0]
    assert words.costs("bâtir", (0, palace)) == ["5 pièces d'or"]
    assert words.card(palace) == "Palais — 5 pièces d'or, Noble"
    assert words.card(engine.instances[engine.def_ids["Roi"]][0]) == "Roi (rang 4)"


def test_the_table_shows_what_the_seat_may_see_and_no_more():
    engine, words = engine_at_start()
    engine.call("ranger_les_personnages", ())
    engine.st.vars["couronne"] = 2
    lines = "\n".join(board(words))
    own = [engine.show_card(c) for c in engine.st.zones["main"][0]]
    other = [engine.show_card(c) for c in engine.st.zones["main"][1]]
    assert all(name in lines for name in own)
    assert "Le détenteur de la Couronne : Joueur 3" in lines
    hidden = [name for name in other if name not in own and f" {name}" in lines]
    assert not hidden, f"another player's hand is shown: {hidden}"
    assert "Joueur 2 — trésor : 2 pièces d'or · main : 4 cartes" in lines


def test_without_a_lexicon_identifiers_are_read_as_words():
    engine, _ = engine_at_start()
    words = Words(engine, None, 0)
    palace = engine.instances[engine.def_ids["Palais"]][0]
    assert words.card(palace) == "Palais (Noble, cost 5)"
    assert words.offered(("action", "bâtir", (0, palace))) == "Bâtir « Palais » (−5 trésor)"


def test_a_person_can_ask_for_help_and_see_the_table_again():
    engine, words = engine_at_start()
    said: list[str] = []
    answers = iter(["? 2", "v", "2"])
    table = Table(engine, words.lex, 0, output=said.append, input=lambda _: next(answers))
    options = [("action", "bâtir", (0, c)) for c in engine.st.zones["main"][0][:2]] + [("finish", "Terminer son tour")]
    decision = Decision(0, "que faire ?", options, engine.show_option, engine=engine, site=offer_site(engine))
    assert table.agent.choose(decision) == 1
    text = "\n".join(said)
    assert "Poser un quartier de sa main dans sa cité en payant son coût." in text, "help gives the action's doc"
    assert text.count("Vous (Joueur 1) — ") == 2, "the table before the question, and again on « v »"


def test_carcassonne_is_playable_with_a_map(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "1\n1\n1\nq\n", "play", "spec/carcassonne", "-n", "2", "-c",
                         "Jeu de base", "--human", "1")
    assert code == 130, err
    assert "Grille Case (ligne, colonne) :" in out and "+ : case proposée" in out
    assert re.search(r"Poser « [^»]+ » en \(-?\d+, -?\d+\), tournée de \d quart", out)
    assert "Placer un Bonhomme sur" in out


def test_the_terminal_program_end_to_end(tmp_path):
    """The installed program, its input a pipe: a few decisions, help, then « q »."""
    proc = subprocess.run([sys.executable, "-m", "checker", "play", "spec/citadelles", "-n", "4", "-c", CONFIG,
                           "-s", "1", "--human", "1"], input="1\n?\n1\n1\n1\nq\n", capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 130 and "Partie interrompue" in proc.stderr and "Traceback" not in proc.stderr
    assert "Choisissez une ressource" in proc.stdout and "Pièces (2 pièces d'or)" in proc.stdout


def test_a_person_who_leaves_at_any_prompt_raises_human_quit():
    engine, words = engine_at_start()
    decision = Decision(0, "que faire ?", [("finish", "Terminer son tour"), ("finish", "x")], engine.show_option,
                        engine=engine, site=offer_site(engine))
    for ending in ("q", "quitter", EOFError(), KeyboardInterrupt()):
        def read(_prompt, ending=ending):
            if isinstance(ending, BaseException):
                raise ending
            return ending
        with pytest.raises(HumanQuit):
            HumanAgent(input=read, output=lambda *_: None, words=words).choose(decision)


def test_the_end_of_input_leaves_the_game_and_piped_answers_are_echoed(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "\n1\n", "play", "spec/citadelles", "-n", "4", "-c", CONFIG,
                         "--human", "1")
    assert code == 130 and "Partie interrompue" in err
    assert "q quitter) : \nTapez un nombre de 1 à 4 (? pour l'aide, q pour quitter).\n" in out, "an empty answer"
    assert "q quitter) : 1\n" in out, "an answer read from a pipe is printed after its prompt"


def test_ctrl_c_at_a_prompt_ends_the_program_with_130(tmp_path):
    import os
    import signal
    proc = subprocess.Popen([sys.executable, "-m", "checker", "play", "spec/citadelles", "-n", "4", "-c", CONFIG,
                             "--human", "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        seen = ""
        while "Votre choix" not in seen:          # the first question is on the screen
            chunk = proc.stdout.read(1)
            assert chunk, proc.stderr.read()
            seen += chunk
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130 and "Partie interrompue" in err and "Traceback" not in err
