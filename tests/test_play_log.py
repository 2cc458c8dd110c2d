"""`rulebook play`'s printed log speaks the book's French (as `--human` does): no identifier of the spec,
no call syntax, no engine counter; the JSON log is the engine's, whatever is printed."""

from __future__ import annotations

import json
import re

from checker.cli import main

CONFIG = "Première partie"

# what a reader must never see: a spec identifier (snake_case), a call `bâtir(Joueur 1, …)`, a counter
# `(0/1..1)`; a French plural mark « pièce(s) » is not a call
IDENTIFIER = re.compile(r"\b\w+_\w+\b")
CALL = re.compile(r"\w\((?!s\))")
COUNTER = re.compile(r"\(\d+/\d+\.\.\d+\)")


def _play(capsys, *argv) -> str:
    assert main(["play", "spec/citadelles", "-n", "4", "-s", "3", "-c", CONFIG, *argv]) == 0
    return capsys.readouterr().out


def test_the_plain_log_of_the_readme_example_has_no_identifier(capsys, tmp_path):
    log = tmp_path / "partie.json"
    out = _play(capsys, "--json", str(log))
    lines = out.splitlines()
    assert len(lines) > 100 and "=== Tour 1 ===" in out and "Vainqueur : Joueur" in out
    bad = [line for line in lines if IDENTIFIER.search(line) or CALL.search(line) or COUNTER.search(line)]
    assert not bad, f"{len(bad)} lines show identifiers, e.g. {bad[:3]}"
    assert re.search(r"Joueur \d choisit en secret un personnage .*: \w", out), "secret choices are told"
    assert re.search(r"Joueur \d : Bâtir « .+ » \(\d+ pièces? d'or\)", out), "an action with what it costs"
    # the printed words come from watching the agents; the game itself, and its JSON log, are the same
    quiet = tmp_path / "quiet.json"
    _play(capsys, "-q", "--json", str(quiet))
    assert log.read_bytes() == quiet.read_bytes()
    assert json.loads(log.read_text(encoding="utf-8"))["events"][0]["kind"] in ("round", "decision", "log")


def test_a_power_offered_yes_or_no_is_told_as_a_sentence(capsys):
    """Not « Joueur 3 Utiliser « … » ? — … : Oui »: taken, the power's own line says it (« utilise »);
    declined, « n'utilise pas »."""
    out = _play(capsys)
    assert not [line for line in out.splitlines() if " ? " in line and line.endswith((": Oui", ": Non"))]
    assert "  Joueur 3 utilise « Choisir le type dont la Cour des Miracles compte" in out
    declined = _play(capsys, "-s", "1")          # the seed 1 game: a player declines it
    assert re.search(r"^  Joueur \d n'utilise pas « Choisir le type dont .+ » \(Cour des Miracles\)$", declined, re.M)
