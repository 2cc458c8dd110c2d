"""Every input and output of `legal`, `moves`, `replay`, `play` and `conflicts`: bounded reads of state, move
and log files, the paths a spec or a file may name, outputs that never overwrite without --force and are
written atomically, a standard output that fails, and the state recorder's decision numbers.

The contract of robustness (see test_robustness.py): exit code 0, 1, 2 or 4, never 3, never a traceback;
a bad file is refused with the JSON path of each problem, quoting at most an excerpt of it.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from checker.cli import main
from conftest import ROOT, bundled

CONFIG = "Première partie"


pytestmark = pytest.mark.usefixtures("bundled_checked_once")


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code in (0, 1, 2, 4), f"exit {code}: {err}"
    return code, out, err


def play(capsys, tmp_path: Path, *more, players=4, seed=3) -> tuple[int, str, str]:
    return run(capsys, "play", "spec/citadelles", "-n", players, "-c", CONFIG, "-s", seed, "-q", *more)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    """A real log, a state at an offer and a move there, written by the commands."""
    import contextlib
    import io
    folder = tmp_path_factory.mktemp("documents")
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main(["play", "spec/citadelles", "-n", "4", "-c", CONFIG, "-s", "3", "-q", "--json",
                  str(folder / "log.json"), "--state-at", "49", str(folder / "state.json")])
    finally:
        os.chdir(cwd)
    state = json.loads((folder / "state.json").read_text(encoding="utf-8"))
    player = state["decision"]["player"]
    (folder / "move.json").write_text(json.dumps({"player": player, "finish": "Terminer son tour"}), encoding="utf-8")
    return {"log": folder / "log.json", "state": folder / "state.json", "move": folder / "move.json"}


def command(kind: str, path: Path, files) -> list:
    """The command that reads a file of this kind."""
    return {"state": ["moves", path], "move": ["legal", files["state"], path], "log": ["replay", path]}[kind]


def refused(capsys, kind, path, files, *words) -> str:
    code, out, err = run(capsys, *command(kind, path, files))
    assert code == 2, (code, err)
    for word in words:
        assert word in err, err
    assert len(err) < 2000, f"{len(err)} characters of messages"
    return err


def edited(files, kind: str, tmp_path: Path, change) -> Path:
    doc = json.loads(files[kind].read_text(encoding="utf-8"))
    doc = change(doc) or doc
    path = tmp_path / f"edited-{kind}.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


KINDS = ["state", "move", "log"]


# ---------------------------------------------------------------- reading: bounded, located, short


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("text,words", [
    ("[" * 100_000 + "]" * 100_000, ["nested too deeply"]),
    ("[" * 40 + "]" * 40, ["nested too deeply", "0/0/0"]),
    ('{"x": ' + "9" * 5000 + "}", ["x: 999999999999…", "integer too large"]),
    ('{"x": -9007199254740993}', ["x:", "integer too large"]),
    ('{"x": 1e999}', ["x:", "too large"]),
    ('{"x": NaN}', ["x: NaN is not a JSON number"]),
    ('{"x": 1, "x": 2}', ['the key "x" is given twice']),
    ("[1, 2, 3]", ["is not of type 'object'"]),
    ("", ["not JSON"]),
    ('{"a": ', ["not JSON", "line 1"]),
])
def test_malformed_documents_are_refused_with_their_json_path(capsys, tmp_path, files, kind, text, words):
    path = tmp_path / f"bad.{kind}.json"
    path.write_text(text, encoding="utf-8")
    refused(capsys, kind, path, files, *words)


@pytest.mark.parametrize("kind", KINDS)
def test_bytes_that_are_not_utf8_are_located(capsys, tmp_path, files, kind):
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{\n  "player": "Joueur \xe9"}')
    refused(capsys, kind, path, files, "not valid UTF-8 (byte 0xe9) at line 2, column 21")


@pytest.mark.parametrize("kind", KINDS)
def test_a_50_megabyte_file_is_refused_without_being_echoed(capsys, tmp_path, files, kind):
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.write(b'{"x": "')
        f.write(b"A" * (50 * 2**20))
        f.write(b'"}')
    err = refused(capsys, kind, path, files, "too large", "at most 16.0 MB")
    assert "AAAA" not in err


@pytest.mark.parametrize("kind", KINDS)
def test_a_long_value_is_quoted_as_an_excerpt(capsys, tmp_path, files, kind):
    path = edited(files, kind, tmp_path, lambda d: d.update(players=["A" * 100_000]) if kind != "move"
                  else d.update(player=["A" * 100_000]))
    err = refused(capsys, kind, path, files, "…")
    assert "A" * 100 not in err


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("special", [os.devnull, "/dev/zero", "directory"])
def test_devices_and_directories_are_not_read(capsys, tmp_path, files, kind, special):
    path = tmp_path if special == "directory" else Path(special)
    if not path.exists():
        pytest.skip(f"no {special} here")
    refused(capsys, kind, path, files, "cannot read")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("kind", KINDS)
def test_a_fifo_without_writer_does_not_hang(tmp_path, files, kind):
    fifo = tmp_path / "tube.json"
    os.mkfifo(fifo)
    argv = [str(a) for a in command(kind, fifo, files)]
    try:
        proc = subprocess.run([sys.executable, "-m", "checker", *argv], cwd=ROOT, capture_output=True, text=True,
                              timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail(f"rulebook {argv[0]} hangs on a FIFO")
    assert proc.returncode == 2 and "not a regular file" in proc.stderr and "Traceback" not in proc.stderr


def test_a_float_where_a_count_belongs_is_refused(capsys, tmp_path, files):
    refused(capsys, "state", edited(files, "state", tmp_path, lambda d: d.update(players=4.0)), files,
            "players: 4.0 is not of type 'integer'")
    refused(capsys, "log", edited(files, "log", tmp_path, lambda d: d.update(players=4.0)), files,
            "players: 4.0 is not of type 'integer'")
    refused(capsys, "state", edited(files, "state", tmp_path, lambda d: d["vars"].update(trésor={"Joueur 1": 2.5})),
            files, "vars/trésor/Joueur 1", "whole number")


def test_missing_local_names_of_the_decision_are_refused(capsys, tmp_path, files):
    def drop(doc):
        doc["decision"]["names"] = {}
    err = refused(capsys, "state", edited(files, "state", tmp_path, drop), files, "decision/names", "no value for p")
    assert "internal error" not in err


def test_a_log_of_the_wrong_shape_names_each_place(capsys, tmp_path, files):
    def change(doc):
        first = next(i for i, e in enumerate(doc["events"]) if e["kind"] == "decision")
        doc["events"][first]["chosen"] = 99
        doc["winners"] = [7]
    refused(capsys, "log", edited(files, "log", tmp_path, change), files, "winners/0", "chosen", "99")


def test_the_three_schemas_describe_what_the_commands_write(files):
    from checker.base.documents import schema_problems
    for kind in KINDS:
        assert schema_problems(json.loads(files[kind].read_text(encoding="utf-8")), kind) == []


# ---------------------------------------------------------------- paths


def test_a_state_naming_a_file_that_is_not_a_spec_does_not_read_it(capsys, tmp_path, files):
    secret = tmp_path / "secret.txt"
    secret.write_text("mot de passe : hunter2\n", encoding="utf-8")
    for named in (str(secret), "/etc/passwd", str(tmp_path / "absent")):
        for kind in ("state", "log"):
            code, out, err = run(capsys, *command(kind, edited(files, kind, tmp_path, lambda d: d.update(spec=[named])),
                                               files))
            assert code == 2 and "spec/0" in err, err
            assert "hunter2" not in out + err and "root:" not in out + err


def test_a_spec_path_is_found_next_to_the_file_that_names_it(capsys, tmp_path, files, monkeypatch):
    (tmp_path / "jeu").symlink_to(ROOT / "spec" / "citadelles")
    state = edited(files, "state", tmp_path, lambda d: d.update(spec=["jeu"]))
    elsewhere = tmp_path / "ailleurs"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, err = run(capsys, "moves", state)
    assert code == 0 and "legal move(s)" in out, err


def test_a_spec_directory_too_large_to_walk_is_refused(capsys, tmp_path, files, monkeypatch):
    import checker.front.check
    monkeypatch.setattr(checker.front.check, "MAX_SPEC_ENTRIES", 50)
    many = tmp_path / "grand"
    many.mkdir()
    for i in range(51):
        (many / f"f{i}").touch()
    code, out, err = run(capsys, "moves", edited(files, "state", tmp_path, lambda d: d.update(spec=[str(many)])))
    assert code == 1 and "grand' is too large to be a spec directory (more than 50 files" in out    # a long path is elided


@pytest.mark.parametrize("where", ["../ailleurs/secret.txt", "ABSOLUTE", "lien.txt", "sources/../../ailleurs/secret.txt"])
def test_a_source_outside_the_spec_directory_is_refused_and_not_read(capsys, tmp_path, where, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ailleurs").mkdir()
    secret = tmp_path / "ailleurs" / "secret.txt"
    secret.write_text("Le mot de passe est hunter2.\n", encoding="utf-8")
    spec = tmp_path / "jeu"
    spec.mkdir()
    shutil.copy(ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules", spec / "jeu.rules")
    (spec / "lien.txt").symlink_to(secret)
    path = str(secret) if where == "ABSOLUTE" else where
    (spec / "source.rules").write_text(f'source s "{path}" "?"\n'
                                       f'constraint c {{ cite s "Le mot de passe est hunter3." require true }}\n',
                                       encoding="utf-8")
    code, out, _ = run(capsys, "check", "jeu")
    assert code == 1 and "error[E0403]" in out and "jeu/source.rules:1:1" in out
    assert "hunter" not in out.replace("hunter3", "")          # not read: no "did you mean" quoting it


def test_a_source_inside_the_spec_directory_is_read(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "jeu"
    (spec / "textes").mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules", spec / "jeu.rules")
    (spec / "textes" / "règles.txt").write_text("On joue chacun son tour.\n", encoding="utf-8")
    (spec / "source.rules").write_text('source s "textes/./règles.txt" "?"\n'
                                       'constraint c { cite s "On joue chacun son tour." require true }\n',
                                       encoding="utf-8")
    code, out, _ = run(capsys, "check", "jeu")
    assert code == 0, out


# ---------------------------------------------------------------- outputs


def test_an_existing_output_is_kept_without_force(capsys, tmp_path):
    target = tmp_path / "partie.json"
    target.write_text("mine", encoding="utf-8")
    code, _, err = play(capsys, tmp_path, "--json", target)
    assert code == 2 and "already exists; add --force" in err and target.read_text(encoding="utf-8") == "mine"
    code, _, err = play(capsys, tmp_path, "--state-at", "3", target)
    assert code == 2 and target.read_text(encoding="utf-8") == "mine"
    code, _, err = play(capsys, tmp_path, "--json", target, "--force")
    assert code == 0 and json.loads(target.read_text(encoding="utf-8"))["seed"] == 3


def test_replay_state_at_keeps_an_existing_file_and_the_log(capsys, tmp_path, files):
    target = tmp_path / "etat.json"
    target.write_text("mine", encoding="utf-8")
    code, _, err = run(capsys, "replay", files["log"], "--state-at", "5", target)
    assert code == 2 and "already exists" in err and target.read_text(encoding="utf-8") == "mine"
    log = tmp_path / "log.json"
    shutil.copy(files["log"], log)
    code, _, err = run(capsys, "replay", log, "--state-at", "5", log, "--force")
    assert code == 2 and "is an input of this command" in err
    assert json.loads(log.read_text(encoding="utf-8"))["events"]


@pytest.mark.parametrize("second", ["same", "dotted", "link"])
def test_the_same_output_twice_is_refused_before_any_work(capsys, tmp_path, monkeypatch, second):
    target = tmp_path / "x.json"
    other = {"same": target, "dotted": tmp_path / "." / "x.json", "link": tmp_path / "lien" / "x.json"}[second]
    (tmp_path / "lien").symlink_to(tmp_path)
    import checker.front.command
    monkeypatch.setattr(checker.front.command, "prepare_game", lambda *a, **k: pytest.fail("the game was prepared"))
    code, _, err = play(capsys, tmp_path, "--json", target, "--state-at", "3", other, "--force")
    assert code == 2 and "given twice" in err and not target.exists()


def test_a_failed_write_leaves_the_earlier_file_whole(tmp_path, monkeypatch):
    from checker.base.output import OutputError, write_text
    target = tmp_path / "partie.json"
    target.write_text("earlier", encoding="utf-8")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OutputError, match="No space left on device; the earlier file is unchanged"):
        write_text(target, "new " * 1000, force=True)
    assert target.read_text(encoding="utf-8") == "earlier"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["partie.json"]      # no temporary file left


def test_a_file_created_meanwhile_is_not_overwritten(tmp_path):
    from checker.base.output import OutputError, write_text
    target = tmp_path / "x.json"
    write_text(target, "first")
    with pytest.raises(OutputError, match="already exists"):
        write_text(target, "second")
    assert target.read_text(encoding="utf-8") == "first"
    write_text(target, "second", force=True)
    assert target.read_text(encoding="utf-8") == "second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.json"]


def test_witnesses_are_not_written_over_earlier_ones(capsys, tmp_path, monkeypatch):
    folder = tmp_path / "témoins"
    folder.mkdir()
    (folder / "01-earlier.state.json").write_text("mine", encoding="utf-8")
    import checker.conflicts.questions
    monkeypatch.setattr(checker.conflicts.questions, "Search", lambda *a, **k: pytest.fail("the search ran"))
    code, _, err = run(capsys, "conflicts", "spec/citadelles", "--witnesses", folder)
    assert code == 2 and "already holds 1 file(s)" in err and "--force" in err
    assert (folder / "01-earlier.state.json").read_text(encoding="utf-8") == "mine"
    (tmp_path / "fichier").write_text("", encoding="utf-8")
    code, _, err = run(capsys, "conflicts", "spec/citadelles", "--witnesses", tmp_path / "fichier")
    assert code == 2 and "is not a directory" in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_full_standard_output_is_a_message_not_a_traceback():
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "checker", "check", "spec/citadelles"], cwd=ROOT, stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "cannot write to the standard output (no space left on the device)" in proc.stderr


def test_a_closed_standard_output_is_a_message_not_a_traceback():
    proc = subprocess.run(f"exec {sys.executable} -m checker check spec/citadelles >&-", shell=True, cwd=ROOT,
                          stderr=subprocess.PIPE, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "standard output is closed" in proc.stderr


def test_a_reader_that_goes_away_is_a_message_not_a_traceback():
    proc = subprocess.Popen([sys.executable, "-m", "checker", "check", "spec/citadelles"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()                 # before the command writes anything (it checks the spec first)
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 2
    assert "Traceback" not in err and "Exception ignored" not in err
    assert "cannot write to the standard output (the reader closed the pipe)" in err


# ---------------------------------------------------------------- the recorder and the invariants


def test_state_at_with_the_greedy_agent_is_the_state_the_replay_reaches(capsys, tmp_path):
    log, played, replayed = tmp_path / "partie.json", tmp_path / "a.json", tmp_path / "b.json"
    code, _, err = play(capsys, tmp_path, "--agent", "greedy", "--json", log, "--state-at", "60", played, seed=1)
    assert code == 0, err
    code, _, err = run(capsys, "replay", log, "--state-at", "60", replayed)
    assert code == 0, err
    assert played.read_text(encoding="utf-8") == replayed.read_text(encoding="utf-8")


def test_a_player_with_two_characters_at_four_players_is_refused(capsys, tmp_path, files):
    def second_character(doc):
        zones = doc["zones"]
        holder = next(iter(zones["choisis"]))
        spare = next(c for z in ("écartés_cachés", "écartés_visibles", "paquet") for c in zones.get(z, []))
        for z in ("écartés_cachés", "écartés_visibles", "paquet"):
            if spare in zones.get(z, []):
                zones[z].remove(spare)
        zones["choisis"][holder].append(spare)
    refused(capsys, "state", edited(files, "state", tmp_path, second_character), files,
            "breaks the invariant un_personnage_par_joueur (spec/citadelles/01-partie.rules:",
            "À 4 joueurs ou plus, chaque joueur a au plus un personnage.")


def test_a_spec_that_breaks_its_own_invariant_stops_with_its_location(capsys, tmp_path):
    house = tmp_path / "deux.rules"
    house.write_text('overlay "Deux personnages" on "Citadelles"\n'
                     "replace procedure choisir_un_personnage(p: Player) {\n"
                     "  choose c in paquet by p secretly\n"
                     "  move c to choisis[p]\n"
                     "  draw 1 from paquet to choisis[p]\n"
                     "}\n", encoding="utf-8")
    code, _, err = run(capsys, "play", "spec/citadelles", house, "-n", "5", "-c", CONFIG, "-q")
    assert code == 1
    assert "spec/citadelles/01-partie.rules:" in err and "broke the invariant un_personnage_par_joueur" in err


def test_every_decision_of_a_few_games_keeps_the_invariants(capsys, tmp_path):
    """The engine checks them at each decision: games at 2, 3 and 7 players end normally."""
    for players, config in ((2, "Bluff"), (3, "Violente"), (7, CONFIG)):
        code, _, err = run(capsys, "play", "spec/citadelles", "-n", players, "-c", config, "-q", "-s", 2)
        assert code == 0, err


def test_the_integer_bounds_are_exact():
    from checker.base.documents import MAX_INT, DocumentError, parse_document
    assert parse_document(f"[{MAX_INT}, {-MAX_INT}, 1.5]") == [MAX_INT, -MAX_INT, 1.5]
    for text in (str(MAX_INT + 1), str(-MAX_INT - 1), "1" * 30, "1e400", "-Infinity"):
        with pytest.raises(DocumentError):
            parse_document(text)


@pytest.mark.parametrize("overlay,players,config,more", [
    ("spec/maison/bâtisseuse.rules", 3, "Bluff", ["--add", "Bâtisseuse", "--remove", "Artiste"]),
    ("tests/fixtures/good/overlay_partie_rapide.rules", 4, CONFIG, []),
])
def test_the_last_decisions_of_a_game_with_an_overlay_are_written_and_read_back(capsys, tmp_path, overlay, players,
                                                                                 config, more):
    log = tmp_path / "partie.json"
    code, _, err = run(capsys, "play", "spec/citadelles", overlay, "-n", players, "-c", config, "-s", 1, "-q",
                       "--agent", "greedy", "--json", log, *more)
    assert code == 0, err
    total = sum(e["kind"] == "decision" for e in json.loads(log.read_text(encoding="utf-8"))["events"])
    for n in (total, total - 1, total - 2):
        state = tmp_path / f"etat-{n}.json"
        code, _, err = run(capsys, "replay", log, "--state-at", n, state)
        assert code == 0, err
        code, out, err = run(capsys, "moves", state)
        assert code == 0 and "legal move(s)" in out, err


def test_an_invariant_is_type_checked_and_may_read_the_state(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules", tmp_path / "jeu.rules")
    (tmp_path / "inv.rules").write_text("invariant bourse_bornée { require all(p in players: bourse[p] <= 99) }\n"
                                        "invariant faux { require 3 }\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", "jeu.rules", "inv.rules")
    assert code == 1 and "inv.rules:2:" in out and "an invariant" in out and "inv.rules:1:" not in out


def test_a_name_the_rules_need_and_the_state_leaves_out_is_bad_input(capsys, tmp_path, files, monkeypatch):
    """A name bound on some paths only is not required when the state is read; if the rules then need it, the
    encoding says so: bad input (2), not an internal error."""
    import checker.solver.scopes
    from checker.solver.scopes import Scopes

    class Unbound(Scopes):
        def __init__(self, typed):
            super().__init__(typed)
            self.bound = {}
    monkeypatch.setattr(checker.solver.scopes, "Scopes", Unbound)      # where `legal`'s loader imports it from

    def drop(doc):
        doc["decision"]["names"] = {}
    refused(capsys, "state", edited(files, "state", tmp_path, drop), files, "decision/names: the rules need p",
            "the state gives it no value")
