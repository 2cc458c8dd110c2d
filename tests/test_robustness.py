"""Robustness: `rulebook check` never shows a Python traceback, whatever it is given.

The contract: exit code 0 (clean), 1 (errors in the spec), 2 (bad command line); 3 means an
internal error and must never happen on user input.  Every problem with the input is a
diagnostic ``file:line:col: error[CODE]: message``.

Most tests call ``checker.cli.main`` in-process; a few run ``python -m checker`` to prove that
nothing reaches the terminal as a traceback.  Bugs found are pinned by ``xfail(strict=True)``
tests while they are open; each bug found so far is fixed and its test now asserts the fix.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from checker.cli import main
from conftest import ROOT, SPEC

MINIMAL = ROOT / "tests" / "fixtures" / "good" / "minimal_game.rules"

# A diagnostic's first line, in the human and the short formats.
DIAGNOSTIC = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning)"
                        r"\[(?P<code>[EW]\d{4})\]: (?P<message>.+)$", re.MULTILINE)
SHORT_LINE = re.compile(r"^[^:]+:\d+:\d+: (error|warning)\[[EW]\d{4}\]: .+$")

PROPERTY = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


# ---------------------------------------------------------------- helpers


@pytest.fixture
def work(tmp_path, monkeypatch, _run_from_root):
    """Run in tmp_path, so that diagnostics name files exactly as the test gave them."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys, *argv) -> tuple[int, str, str]:
    """Run the CLI in-process; the result must be a documented exit code and no traceback."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out and "Traceback" not in err, err or out
    assert code != 3, f"internal error on user input: {err.strip()}"
    assert code in (0, 1, 2), code
    return code, out, err


def check(capsys, *paths, fmt: str | None = None) -> tuple[int, str, str]:
    args = ["check", *paths] + (["--format", fmt] if fmt else [])
    code, out, err = run(capsys, *args)
    assert code in (0, 1), f"check returned {code}: {err}"
    return code, out, err


def diagnostics(text: str) -> list[dict]:
    return [m.groupdict() for m in DIAGNOSTIC.finditer(text)]


def assert_error(text: str, file: str, code: str | None = None) -> dict:
    """An error line naming ``file`` (and carrying ``code``) is in ``text``; return it."""
    found = [d for d in diagnostics(text) if d["severity"] == "error" and d["file"] == file
             and (code is None or d["code"] == code)]
    assert found, f"no error{' ' + code if code else ''} for {file!r} in:\n{text[:2000]}"
    return found[0]


def write(path: Path, data: bytes | str) -> Path:
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


# ---------------------------------------------------------------- file contents


def test_empty_file_is_an_error_not_a_crash(work, capsys):
    write(work / "empty.rules", b"")
    code, out, _ = check(capsys, "empty.rules")
    assert code == 1
    assert "error[E0202]" in out  # the spec declares no game


def test_random_binary_bytes(work, capsys):
    data = random.Random(1234).randbytes(4096)
    write(work / "noise.rules", data)
    code, out, _ = check(capsys, "noise.rules")
    assert code == 1
    assert_error(out, "noise.rules", "E0001")


def test_nul_byte_is_located(work, capsys):
    write(work / "nul.rules", b'game "g" {\n  players:\x00 2..4\n}\n')
    code, out, _ = check(capsys, "nul.rules")
    assert code == 1
    d = assert_error(out, "nul.rules", "E0001")
    assert (d["line"], d["col"]) == ("2", "11")
    assert "NUL" in d["message"]


def test_latin1_bytes_are_not_utf8(work, capsys):
    write(work / "latin1.rules", 'game "Café" {\n}\n'.encode("latin-1"))
    code, out, _ = check(capsys, "latin1.rules")
    assert code == 1
    d = assert_error(out, "latin1.rules", "E0001")
    assert (d["line"], d["col"]) == ("1", "10")
    assert "UTF-8" in d["message"] and "0xe9" in d["message"]


def test_utf8_bom_is_accepted(work, capsys):
    write(work / "bom.rules", b"\xef\xbb\xbf" + MINIMAL.read_bytes())
    code, out, _ = check(capsys, "bom.rules")
    assert code == 0, out


def test_crlf_line_endings_are_accepted(work, capsys):
    text = MINIMAL.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    write(work / "crlf.rules", text)
    code, out, _ = check(capsys, "crlf.rules")
    assert code == 0, out


def test_crlf_errors_point_at_the_same_place_as_lf(work, capsys):
    bad = MINIMAL.read_text(encoding="utf-8") + "\nquantity oups(): Int = inconnu\n"
    write(work / "lf.rules", bad)
    write(work / "crlf.rules", bad.replace("\n", "\r\n"))
    _, lf, _ = check(capsys, "lf.rules")
    _, crlf, _ = check(capsys, "crlf.rules")

    def where(text, f):
        return [(d["line"], d["col"], d["code"]) for d in diagnostics(text) if d["file"] == f]
    assert where(lf, "lf.rules") and where(lf, "lf.rules") == where(crlf, "crlf.rules")
    assert "\r" not in crlf


def test_one_megabyte_single_line(work, capsys):
    write(work / "long.rules", "rule " + "x" * 1_000_000 + "\n")
    code, out, _ = check(capsys, "long.rules")
    assert code == 1
    assert_error(out, "long.rules", "E0103")


@pytest.mark.parametrize("opening,closing", [("(", ")"), ("[", "]"), ("{", "}")], ids=["parens", "brackets", "braces"])
@pytest.mark.parametrize("balanced", [True, False], ids=["balanced", "unbalanced"])
def test_5000_nested_brackets(work, capsys, opening, closing, balanced):
    inner = opening * 5000 + "1" + (closing * 5000 if balanced else "")
    text = MINIMAL.read_text(encoding="utf-8") + f"\nquantity profond(): Int = {inner}\n"
    write(work / "deep.rules", text)
    code, out, _ = check(capsys, "deep.rules")
    assert code == 1
    assert_error(out, "deep.rules", "E0104")


def test_5000_nested_brackets_without_anything_else(work, capsys):
    write(work / "deep.rules", "(" * 5000)
    code, out, _ = check(capsys, "deep.rules")
    assert code == 1
    assert_error(out, "deep.rules", "E0104")


# Chains that nest without brackets: `not not not …`, `1 + 1 + …`, `if … then … else if …`,
# `x.a.a.a…`, and `if … { } else if … { }` statements.
def _chain(kind: str, n: int) -> str:
    head = 'game "g" {\n  players: 2..4\n  flow: p\n}\n'
    if kind == "if-statements":
        return head + "procedure p() { " + "if true { stop } else " * n + "{ stop } }\n"
    expr, type_ = {
        "not": ("not " * n + "true", "Bool"),
        "minus": ("- " * n + "1", "Int"),
        "plus": (" + ".join(["1"] * n), "Int"),
        "or": (" or ".join(["true"] * n), "Bool"),
        "if-then-else": ("if true then 1 else " * n + "1", "Int"),
        "attributes": ("x" + ".a" * n, "Int"),
    }[kind]
    return head + "procedure p() { stop }\n" + f"quantity q(): {type_} = {expr}\n"


@pytest.mark.parametrize("kind", ["not", "plus", "if-then-else", "if-statements"])
def test_long_unbracketed_chains_are_diagnostics(work, capsys, kind):
    failures = []
    for n in (300, 350, 400, 450, 500, 600, 1000, 5000):
        write(work / "chain.rules", _chain(kind, n))
        code = main(["check", "-q", "--format", "short", "chain.rules"])
        out, err = capsys.readouterr()
        if code not in (0, 1) or "Traceback" in out + err:
            failures.append((n, code, err.strip()[:120]))
    assert not failures, failures


def test_short_unbracketed_chains_check(work, capsys):
    for kind in ("not", "minus", "plus", "or", "if-then-else", "attributes", "if-statements"):
        write(work / "chain.rules", _chain(kind, 100))
        check(capsys, "chain.rules")


def test_huge_integer_literal(work, capsys):
    write(work / "big.rules", MINIMAL.read_text(encoding="utf-8") + "\nquantity gros(): Int = " + "7" * 5000 + "\n")
    check(capsys, "big.rules")


def test_attribute_of_a_card_of_an_undeclared_kind(work, capsys):
    write(work / "kind.rules", 'game "g" {\n  players: 2..4\n  flow: p\n}\nzone z: set of Truc public\n'
                               'procedure p() { for x in z { log "{0}", x.prix } }\n')
    code, out, _ = check(capsys, "kind.rules")
    assert_error(out, "kind.rules", "E0202")


@pytest.mark.parametrize("where", ["game", "configuration"])
def test_huge_player_count_range(work, capsys, where):
    text = MINIMAL.read_text(encoding="utf-8")
    at = text.index("players: 2..4") if where == "game" else text.rindex("players: 2..4")
    text = text[:at] + "players: 2..99999999999999999999" + text[at + len("players: 2..4"):]
    write(work / "range.rules", text)
    check(capsys, "range.rules")


# ---------------------------------------------------------------- paths


def test_directory_without_rules_files(work, capsys):
    (work / "vide").mkdir()
    (work / "vide" / "notes.txt").write_text("pas de règles ici")
    code, out, _ = check(capsys, "vide")
    assert code == 1
    assert_error(out, "vide", "E0002")


def test_directory_named_like_a_rules_file(work, capsys):
    (work / "x.rules").mkdir()
    code, out, _ = check(capsys, "x.rules")
    assert code == 1
    assert_error(out, "x.rules")


def test_directory_named_like_a_rules_file_inside_a_spec(work, capsys):
    spec = work / "spec"
    spec.mkdir()
    shutil.copy(MINIMAL, spec / "jeu.rules")
    (spec / "sous.rules").mkdir()
    code, out, _ = check(capsys, "spec")
    assert code == 0, out


def test_nonexistent_path(work, capsys):
    code, out, _ = check(capsys, "absent.rules")
    assert code == 1
    assert_error(out, "absent.rules", "E0001")


def test_nonexistent_overlay_with_a_good_spec(work, capsys):
    shutil.copy(MINIMAL, work / "jeu.rules")
    code, out, _ = check(capsys, "jeu.rules", "absent.rules")
    assert code == 1
    assert_error(out, "absent.rules", "E0001")


def test_dev_null(work, capsys):
    code, out, _ = check(capsys, os.devnull)
    assert code == 1
    assert_error(out, os.devnull, "E0001")  # a device is not a regular file


def test_symlink_loop(work, capsys):
    os.symlink("b.rules", work / "a.rules")
    os.symlink("a.rules", work / "b.rules")
    code, out, _ = check(capsys, "a.rules")
    assert code == 1
    assert_error(out, "a.rules", "E0001")


def test_symlink_loop_inside_a_spec_directory(work, capsys):
    spec = work / "spec"
    spec.mkdir()
    shutil.copy(MINIMAL, spec / "jeu.rules")
    os.symlink("b.rules", spec / "a.rules")
    os.symlink("a.rules", spec / "b.rules")
    os.symlink(".", spec / "boucle")  # a directory loop too
    code, _, _ = check(capsys, "spec")
    assert code in (0, 1)


def test_dangling_symlink(work, capsys):
    os.symlink("nulle-part.rules", work / "lien.rules")
    code, out, _ = check(capsys, "lien.rules")
    assert code == 1
    assert_error(out, "lien.rules", "E0001")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can read any file")
def test_unreadable_file(work, capsys):
    path = shutil.copy(MINIMAL, work / "secret.rules")
    os.chmod(path, 0)
    try:
        code, out, _ = check(capsys, "secret.rules")
    finally:
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
    assert code == 1
    assert_error(out, "secret.rules", "E0001")


def _reader_waits(fifo: Path) -> bool:
    """Whether a process has ``fifo`` open for reading: with no writer, it is blocked in open() (a writer's
    non-blocking open succeeds only then; ``read_regular`` refuses a FIFO it is named before opening it)."""
    import errno
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            return False
        raise
    os.close(fd)                # the reader reads an empty file and goes on: the test fails without waiting
    return True


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("cache", [
    "off",
    "on",
])
def test_fifo_without_writer_does_not_hang(tmp_path, cache):
    """`rulebook check FIFO` says the file is not a regular one and never opens it.  Under load the command's
    start alone can take seconds, so the hang is not told by a short timeout: the FIFO is watched for a reader
    (a command blocked in open()) while the command runs; a long timeout stays for any other hang."""
    import time
    fifo = tmp_path / "tube.rules"
    os.mkfifo(fifo)
    env = {**os.environ, "RULEBOOK_CACHE": "0"} if cache == "off" else {
        **os.environ, "RULEBOOK_CACHE": "1", "RULEBOOK_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.Popen([sys.executable, "-m", "checker", "check", str(fifo)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    blocked, deadline = False, time.monotonic() + 120
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            blocked = _reader_waits(fifo) or blocked          # each open it unblocks: the command ends
            time.sleep(0.05)
        out, err = proc.communicate(timeout=max(1.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("rulebook check hangs on a FIFO (for 120 s, not in open())")
    assert not blocked, "rulebook check opened the FIFO and waited for a writer"
    assert proc.returncode == 1 and "Traceback" not in out + err
    assert "is not a regular file" in out + err, out + err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_in_a_spec_directory_is_skipped(work, capsys):
    """A directory's FIFOs are not .rules files to read (they would block)."""
    spec = work / "spec"
    spec.mkdir()
    shutil.copy(MINIMAL, spec / "jeu.rules")
    os.mkfifo(spec / "tube.rules")
    code, out, _ = check(capsys, "spec")
    assert code == 0, out


# ---------------------------------------------------------------- the command line


@pytest.mark.parametrize("argv", [
    [],
    ["check"],
    ["check", "--format", "bogus", "spec"],
    ["check", "--color", "sometimes", "spec"],
    ["check", "--bogus", "spec"],
    ["bogus"],
    ["--bogus"],
], ids=["no-args", "check-without-spec", "bad-format", "bad-color", "unknown-option", "unknown-command",
        "unknown-global-option"])
def test_usage_errors_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert "usage" in (err + out).lower()


def test_help_exits_0(capsys):
    code, out, _ = run(capsys, "check", "--help")
    assert code == 0 and "usage" in out.lower()


def test_subprocess_no_traceback_on_binary_input(tmp_path):
    write(tmp_path / "noise.rules", random.Random(99).randbytes(2048) + b"\x00")
    write(tmp_path / "latin1.rules", "enum É { a }".encode("latin-1"))
    proc = subprocess.run([sys.executable, "-m", "checker", "check", str(tmp_path / "noise.rules"),
                           str(tmp_path / "latin1.rules"), str(tmp_path / "absent.rules"), str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.stdout.count("error[E0001]") == 3


def test_subprocess_usage_error(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "checker", "check", "--format", "bogus", "x"],
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "usage" in proc.stderr.lower()


def _ascii_terminal(*args) -> subprocess.CompletedProcess:
    """`rulebook check` on a spec with accented names, printing to a terminal that only takes ASCII."""
    return subprocess.run([sys.executable, "-m", "checker", "check", *args, "tests/fixtures/bad/unknown_names.rules"],
                          cwd=ROOT, env={**os.environ, "PYTHONIOENCODING": "ascii"}, capture_output=True, timeout=60)


@pytest.mark.parametrize("fmt", ["human", "short"])
def test_non_utf8_terminal(fmt):
    proc = _ascii_terminal("--format", fmt)
    out, err = proc.stdout.decode("ascii"), proc.stderr.decode("ascii")
    assert "Traceback" not in out + err and "internal error" not in err
    assert proc.returncode == 1
    assert_error(out, "tests/fixtures/bad/unknown_names.rules", "E0202")
    assert "tr\\xe9s" in out  # accents are escaped, not lost


def test_non_utf8_terminal_json():
    proc = _ascii_terminal("--json")
    assert proc.returncode == 1, proc.stderr
    assert json.loads(proc.stdout.decode("ascii"))["ok"] is False


# ---------------------------------------------------------------- output formats


def _bad_spec(work: Path) -> Path:
    """A small spec with errors that all have a location."""
    text = MINIMAL.read_text(encoding="utf-8")
    text += "\nquantity oups(): Int = inconnu + 1\nquantity mauvais(): Bool = 3\nrule { }\n"
    return write(work / "mauvais.rules", text)


def test_json_on_the_bundled_spec(capsys):
    code, out, _ = run(capsys, "check", "--json", SPEC)
    summary = json.loads(out)
    assert code == 0, [d for d in summary["diagnostics"] if d["severity"] == "error"]
    assert {"ok", "counts", "diagnostics"} <= summary.keys()
    assert summary["ok"] is True
    assert summary["counts"]["rules"] > 0


def test_json_on_a_bad_spec(work, capsys):
    _bad_spec(work)
    code, out, _ = run(capsys, "check", "--json", "mauvais.rules")
    summary = json.loads(out)
    assert code == 1
    assert {"ok", "counts", "diagnostics"} <= summary.keys()
    assert summary["ok"] is False
    assert summary["diagnostics"]
    for d in summary["diagnostics"]:
        assert re.fullmatch(r"[EW]\d{4}", d["code"]) and d["severity"] in ("error", "warning") and d["message"]
        assert d["location"]["file"] == "mauvais.rules"


@pytest.mark.parametrize("content", [b"", b"\x00", b"\xff\xfe", b"game {"], ids=["empty", "nul", "not-utf8", "syntax"])
def test_json_is_always_json(work, capsys, content):
    write(work / "f.rules", content)
    code, out, _ = run(capsys, "check", "--json", "f.rules", "absent.rules")
    assert code == 1
    summary = json.loads(out)
    assert summary["ok"] is False and summary["diagnostics"]


def test_short_format_is_one_line_per_diagnostic(work, capsys):
    _bad_spec(work)
    _, out, _ = run(capsys, "check", "--json", "mauvais.rules")
    expected = len(json.loads(out)["diagnostics"])
    code, out, _ = run(capsys, "check", "--format", "short", "--quiet", "mauvais.rules")
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == expected >= 3
    for line in lines:
        assert SHORT_LINE.match(line), line
        assert line.startswith("mauvais.rules:")


def test_short_format_with_the_bundled_spec_and_a_bad_overlay(work, capsys):
    write(work / "maison.rules", 'card District "Tour" {\n  coût: "trois"\n  couleur: inconnue\n}\n')
    code, out, _ = run(capsys, "check", "--format", "short", "-q", SPEC, "maison.rules")
    assert code == 1
    assert out.splitlines()
    for line in out.splitlines():
        assert SHORT_LINE.match(line), line


def test_short_format_lines_all_have_a_location(work, capsys):
    write(work / "vide.rules", "")
    code, out, _ = run(capsys, "check", "--format", "short", "-q", "vide.rules")
    assert code == 1
    for line in out.splitlines():
        assert SHORT_LINE.match(line), line


# ---------------------------------------------------------------- long lines in human output


@pytest.mark.parametrize("text,code", [
    ("rule " + "x" * 1_000_000 + "\n", "E0103"),                          # error at the end of the line
    ("@" + "x" * 1_000_000 + "\n", "E0102"),                              # at the start
    ('game "' + "x" * 500_000 + '" @ ' + "y" * 500_000 + "\n", "E0102"),  # in the middle
    ("\t" * 1_000_000 + "@\n", "E0102"),                                  # tabs before the caret
], ids=["end", "start", "middle", "tabs"])
def test_human_output_cuts_megabyte_lines(work, capsys, text, code):
    write(work / "long.rules", text)
    status, out, _ = check(capsys, "long.rules", fmt="human")
    assert status == 1
    assert_error(out, "long.rules", code)
    longest = max(map(len, out.splitlines()))
    assert longest <= 200, f"a line of {longest} characters"
    caret_lines = [line for line in out.splitlines() if line.strip().startswith("|") and "^" in line]
    assert caret_lines


def test_human_output_cuts_megabyte_names_in_messages(work, capsys):
    write(work / "long.rules", MINIMAL.read_text(encoding="utf-8") + "\nquantity q(): Int = " + "x" * 1_000_000 + "\n")
    _, out, _ = check(capsys, "long.rules")
    assert max(map(len, out.splitlines())) <= 200


# ---------------------------------------------------------------- properties


@PROPERTY
@given(text=st.text())
def test_any_text_is_checked(work, capsys, text):
    write(work / "any.rules", text)
    check(capsys, "any.rules")


@PROPERTY
@given(data=st.binary(max_size=2000))
def test_any_bytes_are_checked(work, capsys, data):
    write(work / "any.rules", data)
    check(capsys, "any.rules", fmt="short")


TOKENS = ["{", "}", "(", ")", "[", "]", '"', '"x"', "..", ",", ":", "=", "==", "->", "#", "\n", ".", "?", "-",
          "+", "*", "/", "%", "<", ">=", "rule", "when", "card", "power", "game", "overlay", "on", "replace",
          "remove", "cite", "decision", "precedence", "over", "configuration", "include", "with", "procedure",
          "quantity", "table", "case", "kind", "enum", "zone", "counter", "var", "action", "window", "constraint",
          "require", "message", "permit", "forbid", "value", "adjust", "by", "overrides", "let", "set", "for",
          "in", "if", "then", "else", "not", "and", "or", "none", "true", "false", "count", "sum", "the", "any",
          "players", "player_count", "selected", "me", "this", "Int", "Bool", "Text", "Player", "of", "pile",
          "0", "1", "-1", "99999999999999999999", "x", "é", "«", "“", "'", "\t", "\r", "\ufeff", "\u2028"]


@PROPERTY
@given(tokens=st.lists(st.one_of(st.sampled_from(TOKENS), st.characters(codec="utf-8")), max_size=80))
def test_any_token_soup_is_checked(work, capsys, tokens):
    write(work / "soup.rules", " ".join(tokens))
    check(capsys, "soup.rules")


SPEC_FILES = sorted(p.name for p in SPEC.glob("*.rules"))
SPEC_TEXTS = {name: (SPEC / name).read_text(encoding="utf-8") for name in SPEC_FILES}


@st.composite
def mutations(draw) -> tuple[str, str, int, int, str]:
    """One random edit of one file of the bundled spec: (file, edit, start, end, inserted text)."""
    name = draw(st.sampled_from(SPEC_FILES))
    n = len(SPEC_TEXTS[name])
    i = draw(st.integers(0, n))
    j = draw(st.integers(i, min(n, i + draw(st.sampled_from([1, 10, 100, 2000])))))
    edit = draw(st.sampled_from(["delete", "duplicate", "insert", "replace"]))
    piece = "" if edit in ("delete", "duplicate") else draw(
        st.one_of(st.sampled_from(TOKENS), st.characters(codec="utf-8"), st.text(max_size=5)))
    return name, edit, i, j, piece


def mutate(mutation: tuple[str, str, int, int, str]) -> str:
    name, edit, i, j, piece = mutation
    text = SPEC_TEXTS[name]
    if edit == "delete":
        return text[:i] + text[j:]
    if edit == "duplicate":
        return text[:j] + text[i:j] + text[j:]
    if edit == "insert":
        return text[:i] + piece + text[i:]
    return text[:i] + piece + text[j:]


def check_or_known_bug(capsys, *paths) -> None:
    """Check the paths: any exit code but 0 or 1 is an internal error, a bug (none is known now)."""
    code = main(["check", "--format", "short", *map(str, paths)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code in (0, 1), (code, err)


@pytest.fixture
def spec_copy(tmp_path) -> Path:
    copy = tmp_path / "citadelles"
    shutil.copytree(SPEC, copy)  # with sources/, which the citations are checked against
    return copy


@pytest.fixture
def reuse_clean_parses(monkeypatch):
    """Parse and lower each unchanged file once per test, not once per example (they are most of a check of
    the spec).  Safe: the AST is immutable, and the passes across files still run on every example."""
    import checker.front.lower
    import checker.front.parse
    parse, lower = checker.front.parse.parse_file, checker.front.lower.lower_trees
    parsed: dict[tuple[str, str], list] = {}
    lowered: dict[int, tuple[list, tuple]] = {}

    def parse_file(source, reporter):
        key = (source.name, source.text)
        if key not in parsed:
            before = len(reporter.diagnostics)
            trees = parse(source, reporter)
            if len(reporter.diagnostics) != before:
                return trees
            parsed[key] = trees
        return parsed[key]

    def lower_trees(file, trees, reporter):
        hit = lowered.get(id(trees))
        if hit is not None and hit[0] is trees:
            return hit[1]
        result = lower(file, trees, reporter)
        if any(trees is t for t in parsed.values()):
            lowered[id(trees)] = (trees, result)
        return result

    monkeypatch.setattr(checker.front.parse, "parse_file", parse_file)     # the check imports them when it runs
    monkeypatch.setattr(checker.front.lower, "lower_trees", lower_trees)


@settings(max_examples=30, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(mutation=mutations())
def test_mutated_spec_is_checked(spec_copy, reuse_clean_parses, capsys, mutation):
    """One edited file checked with the rest of the spec.  No shrinking: an example is already one edit, and
    each costs a check of the whole spec."""
    target = spec_copy / mutation[0]
    write(target, mutate(mutation))
    try:
        check_or_known_bug(capsys, spec_copy)
    finally:
        write(target, SPEC_TEXTS[mutation[0]])


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(mutation=mutations())
def test_mutated_spec_file_alone_is_checked(tmp_path, capsys, mutation):
    """Cheaper than the whole spec, so more edits: one edited file, checked on its own."""
    write(tmp_path / mutation[0], mutate(mutation))
    check_or_known_bug(capsys, tmp_path / mutation[0])
