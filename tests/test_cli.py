"""The command line's conventions (docs/cli.md): one table of exit codes, `--json` as one document on the
standard output (failures too), colour and progress only on a terminal, `--version`, completion scripts,
and `rulebook configs` with the reasons a configuration refuses a player count."""

from __future__ import annotations

import io
import json
import re
import sys

from checker.base import terminal
from checker.cli import EXIT_CODES, main
from conftest import ROOT


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_every_exit_code_is_in_the_documented_table():
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| (\d+) \| (.+) \|$", page, re.MULTILINE))
    assert sorted(map(int, table)) == sorted(EXIT_CODES)


def test_version_and_completion(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and re.fullmatch(r"rulebook \S+\n", out)
    for shell in ("bash", "zsh"):
        code, out, _ = run(capsys, "completion", shell)
        assert code == 0 and "--color" in out
        for command in ("configs", "conflicts", "diff", "eval", "score", "apply"):
            assert command in out, command
    code, _, err = run(capsys, "completion", "fish")
    assert code == 2 and "invalid choice" in err


def test_every_command_follows_the_conventions():
    """--color, the exit codes in its help, --json when it has one; and a line in docs/cli.md."""
    from checker.cli import _parser
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    parser, handlers = _parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    assert {"diff", "eval", "score", "apply", "configs", "play"} <= set(commands)
    assert set(handlers) == set(commands), "every command has its handler (each feature's add_parsers returns them)"
    for name, command in commands.items():
        assert f"| `rulebook {name}" in page, f"{name} is not in the table of docs/cli.md"
        if name in ("completion", "lsp"):
            continue
        options = {o for a in command._actions for o in a.option_strings}
        assert "--color" in options and "--json" in options, name
        assert "130 interrupted" in command.format_help().replace("\n", " "), name


def test_json_is_one_document_even_when_the_command_fails(capsys, tmp_path):
    code, out, err = run(capsys, "legal", str(tmp_path / "absent.json"), str(tmp_path / "m.json"), "--json")
    document = json.loads(out)
    assert code == 2 and document == {"command": "legal", "ok": False, "exit_code": 2, "error": err.strip()}
    assert "absent.json" in document["error"]
    code, out, _ = run(capsys, "configs", "spec/citadelles", "--players", "deux", "--json")
    assert code == 2 and json.loads(out)["exit_code"] == 2, "a bad command line too"


def test_an_internal_error_and_an_interrupt_have_their_codes(capsys, monkeypatch):
    import checker.front.command

    def boom(args):
        raise RuntimeError("a bug")
    monkeypatch.setattr(checker.front.command, "configs_command", boom)
    code, out, err = run(capsys, "configs", "spec/citadelles", "--json")
    assert code == 3 and "internal error (RuntimeError: a bug)" in err
    assert json.loads(out)["exit_code"] == 3

    def interrupted(args):
        raise KeyboardInterrupt
    monkeypatch.setattr(checker.front.command, "configs_command", interrupted)
    code, _, err = run(capsys, "configs", "spec/citadelles")
    assert code == 130 and "interrupted" in err


def test_a_spec_with_errors_is_exit_code_1_for_every_command(capsys, tmp_path):
    broken = tmp_path / "cassée.rules"
    broken.write_text('game "X" { players: 2..3 }\nvar v: Inconnu = 0\n', encoding="utf-8")
    for argv in (["check", str(broken)], ["configs", str(broken)], ["conflicts", str(broken)],
                 ["play", str(broken), "-n", "2", "-c", "x"]):
        code, out, err = run(capsys, *argv, "--color", "never")
        assert code == 1, (argv, err)
        assert "unknown type 'Inconnu'" in out


def test_colour_only_on_a_terminal_and_never_with_no_color(capsys, monkeypatch, tmp_path):
    broken = tmp_path / "cassée.rules"
    broken.write_text('game "X" { players: 2..3 }\nvar v: Inconnu = 0\n', encoding="utf-8")
    _, out, _ = run(capsys, "check", str(broken), "--color", "always")
    assert "\x1b[" in out
    _, out, _ = run(capsys, "check", str(broken))
    assert "\x1b[" not in out, "auto: not a terminal here"

    class Tty(io.StringIO):
        def isatty(self):
            return True
    terminal.set_color("auto")
    assert terminal.colored(Tty())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not terminal.colored(Tty())
    terminal.set_color("always")
    assert terminal.colored(Tty())
    terminal.set_color("auto")


def test_progress_is_drawn_on_a_terminal_only(monkeypatch):
    update, close = terminal.progress(10, "game")
    assert update(3) is None and close() is None           # stderr is not a terminal here: nothing drawn

    class Tty(io.StringIO):
        def isatty(self):
            return True
    screen = Tty()
    monkeypatch.setattr(sys, "stderr", screen)
    update, close = terminal.progress(10, "game")
    update(4)
    close()
    assert "0/10" in screen.getvalue() and "game" in screen.getvalue(), "a bar was drawn on the terminal"


def test_play_json_on_stdout_is_a_log_that_replays(capsys, tmp_path):
    code, out, err = run(capsys, "play", "spec/citadelles", "-n", "4", "-c", "Première partie", "-s", "2", "-q", "--json")
    assert code == 0 and "Vainqueur" in err, "the human output goes to stderr"
    log = tmp_path / "partie.json"
    log.write_text(out, encoding="utf-8")
    code, out, err = run(capsys, "replay", str(log), "--json")
    document = json.loads(out)
    assert code == 0 and document["same"] and document["decisions"] > 50 and "replay ok" in err


def test_configs_lists_counts_cards_and_why_a_count_is_refused(capsys):
    code, out, _ = run(capsys, "configs", "spec/citadelles", "-n", "3")
    assert code == 0
    assert "Première partie — 2, 4–7 players" in out
    assert ("not at 3 players: its players field allows 2, 4–7; at 3 players its cards would break: À 3 ou 8 "
            "joueurs, il faut un personnage de rang 9 — count(c in selected(Character) where c.rank == 9) is 0, "
            "required == 1") in out
    assert re.search(r"Bluff — 2–8 players\n  Character \(9\): .*Artiste", out)
    code, out, _ = run(capsys, "configs", "spec/citadelles", "-c", "Confrontation", "--json")
    config = json.loads(out)["configurations"][0]
    assert config["players"] == [2, 3, 4, 5, 6, 7, 8]
    assert [s["players"] for s in config["selections"]] == [[2], [3, 8], [4, 5, 6, 7]]
    assert "Roi" in config["selections"][0]["cards"]["Character"], "at 2 players the Empereur is replaced"
    code, _, err = run(capsys, "configs", "spec/citadelles", "-c", "Blufff")
    assert code == 2 and 'did you mean "Bluff"' in err
    code, _, err = run(capsys, "configs", "spec/citadelles", "-n", "9")
    assert code == 2 and "the game is for 2–8 players, not 9" in err


def test_configs_of_the_second_game(capsys):
    code, out, _ = run(capsys, "configs", "spec/carcassonne")
    assert code == 0 and "Jeu de base — 2–4 players" in out and "Tuile (34, 75 copies)" in out


def test_simulate_json_on_stdout(capsys):
    code, out, err = run(capsys, "simulate", "spec/citadelles", "-n", "2", "-j", "1", "--json")
    document = json.loads(out)
    assert code == 0 and document["command"] == "simulate" and document["ok"] and "games on" in err


def test_the_command_line_imports_what_a_command_runs_only_when_it_runs():
    """Building `rulebook`'s parsers (every command does, --help included) imports no grammar, solver, interpreter,
    property tester or package metadata: each feature's command.py imports those in its handlers."""
    import os
    import subprocess
    probe = ("import sys, checker.cli\nchecker.cli._parser()\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('lark', 'z3', 'hypothesis') or m in "
             "('importlib.metadata', 'checker.front.check', 'checker.runtime', 'checker.prose', 'checker.human')))")
    out = subprocess.run([sys.executable, "-c", probe], env={**os.environ, "PYTHONPATH": str(ROOT)},
                         capture_output=True, text=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
