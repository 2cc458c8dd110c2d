"""The VS Code extension (editors/vscode): its TextMate grammar colours a spec as the Pygments lexer does.

The grammar is generated from the lexer's own rules (``checker.front.lexer.textmate_grammar``);
``pytest --update-golden`` rewrites the committed file.  Two checks that it tokenizes
like the lexer, character by character, on every file of the spec and every fixture:

- always: the patterns run under Python's ``re`` with TextMate's rule (at each point, the
  pattern that matches earliest wins, the first one on a tie);
- when ``npm install`` has been run in ``editors/vscode`` and ``node`` is on the PATH:
  VS Code's own engine (vscode-textmate with Oniguruma), which also proves every regex
  compiles there.  Skipped otherwise.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from checker.front.lexer import SCOPES, RulebookLexer, textmate_grammar
from conftest import ROOT, SPEC

EXTENSION = ROOT / "editors" / "vscode"
GRAMMAR = EXTENSION / "syntaxes" / "rules.tmLanguage.json"
SAMPLES = sorted(SPEC.glob("*.rules")) + sorted((ROOT / "spec" / "maison").glob("*.rules")) + \
    sorted((ROOT / "spec" / "carcassonne").glob("*.rules")) + \
    sorted((ROOT / "tests" / "fixtures").glob("*/*.rules"))


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None          # the fixture that is not UTF-8 on purpose


def pygments_scopes(text: str) -> list[list[str | None]]:
    """The TextMate scope the lexer's token gives each character, line by line."""
    flat: list[str | None] = [None] * len(text)
    for index, token, value in RulebookLexer().get_tokens_unprocessed(text):
        flat[index:index + len(value)] = [SCOPES[token]] * len(value)
    out, start = [], 0
    for line in text.split("\n"):
        out.append(flat[start:start + len(line)])
        start += len(line) + 1
    return out


def textmate_scopes(grammar: dict, line: str) -> list[str | None]:
    """TextMate's matching of one line with ``match`` patterns, emulated with ``re``."""
    patterns = [(re.compile(p["match"]), p) for p in grammar["patterns"]]
    scopes: list[str | None] = [None] * len(line)
    pos = 0
    while pos < len(line):
        best = None
        for regex, pattern in patterns:
            m = regex.search(line, pos)
            if m is not None and m.end() > m.start() and (best is None or m.start() < best[0].start()):
                best = (m, pattern)
        if best is None:
            break
        m, pattern = best
        if "name" in pattern:
            scopes[m.start():m.end()] = [pattern["name"]] * (m.end() - m.start())
        for group, capture in pattern.get("captures", {}).items():
            if m.group(int(group)) is not None:
                scopes[m.start(int(group)):m.end(int(group))] = [capture["name"]] * len(m.group(int(group)))
        pos = m.end()
    return scopes


def _mismatches(path: Path, expected: list[list], got: list[list]) -> list[str]:
    text = _text(path).split("\n")
    out = []
    for number, (want, have, line) in enumerate(zip(expected, got, text), start=1):
        for col, (a, b, ch) in enumerate(zip(want, have, line), start=1):
            if not ch.isspace() and a != b:
                out.append(f"{path.name}:{number}:{col}: {ch!r} lexer {a}, grammar {b}")
                break
    return out


def test_the_committed_grammar_is_the_one_generated_from_the_lexer(update_golden: bool):
    generated = json.dumps(textmate_grammar(), ensure_ascii=False, indent=2) + "\n"
    if update_golden:
        GRAMMAR.write_text(generated, encoding="utf-8")
    assert GRAMMAR.read_text(encoding="utf-8") == generated, \
        "the grammar is stale: run `python -m pytest tests/test_editor.py --update-golden`"


@pytest.mark.parametrize("path", [p for p in SAMPLES if _text(p) is not None], ids=lambda p: p.name)
def test_the_grammar_tokenizes_like_the_lexer(path: Path):
    grammar = json.loads(GRAMMAR.read_text(encoding="utf-8"))
    text = _text(path)
    expected = pygments_scopes(text)
    got = [textmate_scopes(grammar, line) for line in text.split("\n")]
    assert _mismatches(path, expected, got) == []


def test_the_grammar_tells_keywords_names_and_strings_apart():
    grammar = json.loads(GRAMMAR.read_text(encoding="utf-8"))
    line = 'rule r { forbid bâtir(p, d) when d.cost > trésor[p] and "Roi" in selected(Character) } # fin'
    scopes = textmate_scopes(grammar, line)
    at = {word: scopes[line.index(word)] for word in ("rule", "forbid", "bâtir", "trésor", '"Roi"', "selected",
                                                      "Character", "# fin", ">")}
    assert at == {"rule": "storage.type.declaration.rules", "forbid": "storage.type.declaration.rules",
                  "bâtir": "variable.other.rules", "trésor": "variable.other.rules",
                  '"Roi"': "string.quoted.double.rules", "selected": "support.function.builtin.rules",
                  "Character": "variable.other.rules", "# fin": "comment.line.number-sign.rules",
                  ">": "keyword.operator.rules"}
    assert scopes[line.index("r {")] == "entity.name.function.rules"


def _node_engine() -> str | None:
    node = shutil.which("node")
    installed = (EXTENSION / "node_modules" / "vscode-textmate").is_dir() and \
        (EXTENSION / "node_modules" / "vscode-oniguruma").is_dir()
    return node if node and installed else None


@pytest.mark.skipif(_node_engine() is None, reason="needs node and `npm install` in editors/vscode")
def test_vscode_textmate_with_oniguruma_tokenizes_like_the_lexer():
    paths = [p for p in SAMPLES if _text(p) is not None]
    done = subprocess.run([_node_engine(), "test/tokenize.js", *map(str, paths)], cwd=EXTENSION,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    problems = []
    for path, lines in zip(paths, json.loads(done.stdout)):
        text = _text(path).split("\n")
        got = []
        for line, tokens in zip(text, lines):
            units = _utf16_to_index(line)
            scopes: list[str | None] = [None] * len(line)
            for start, end, scope in tokens:
                scopes[units[start]:units[end]] = [scope or None] * (units[end] - units[start])
            got.append(scopes)
        problems += _mismatches(path, pygments_scopes(_text(path)), got)
    assert problems == []


def _utf16_to_index(line: str) -> dict[int, int]:
    """JavaScript string offsets (UTF-16 units) to Python string offsets."""
    table, units = {0: 0}, 0
    for index, ch in enumerate(line, start=1):
        units += 2 if ord(ch) > 0xFFFF else 1
        table[units] = index
    return table


# ---------------------------------------------------------------- the extension's manifest


def test_the_extension_declares_the_language_the_grammar_and_the_server():
    manifest = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    [language] = manifest["contributes"]["languages"]
    [grammar] = manifest["contributes"]["grammars"]
    assert language["extensions"] == [".rules"] and grammar["language"] == language["id"]
    assert (EXTENSION / grammar["path"]).resolve() == GRAMMAR
    assert grammar["scopeName"] == json.loads(GRAMMAR.read_text(encoding="utf-8"))["scopeName"]
    config = json.loads((EXTENSION / language["configuration"]).read_text(encoding="utf-8"))
    assert config["comments"] == {"lineComment": "#"}
    assert manifest["main"] == "./dist/extension.js", "the bundle vsce packs"
    assert manifest["contributes"]["configuration"]["properties"]["rulebook.command"]["default"] == ["rulebook", "lsp"]
    assert "vscode-languageclient" in manifest["dependencies"]


def test_the_extension_packages_its_bundle_with_a_license():
    """`npx @vscode/vsce package` warns about a missing LICENSE and about an extension that is not bundled
    (node_modules' files packed one by one): the manifest bundles extension.js before packaging, and the
    package leaves out what the bundle is made of."""
    manifest = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    assert "MIT License" in (EXTENSION / "LICENSE").read_text(encoding="utf-8") and manifest["license"] == "MIT"
    bundle = manifest["scripts"]["bundle"]
    assert bundle.startswith("esbuild extension.js --bundle") and f"--outfile={manifest['main'][2:]}" in bundle
    assert manifest["scripts"]["vscode:prepublish"] == "npm run bundle" and "esbuild" in manifest["devDependencies"]
    ignored = (EXTENSION / ".vscodeignore").read_text(encoding="utf-8").split()
    assert {"node_modules/**", "extension.js", "test/**"} <= set(ignored)
    assert "dist/" in (EXTENSION / ".gitignore").read_text(encoding="utf-8").split()


def test_node_modules_are_not_committed():
    listed = subprocess.run(["git", "ls-files", "editors/vscode"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    assert not [f for f in listed.stdout.splitlines() if "node_modules/" in f or f.endswith(".vsix")]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_client_is_valid_javascript():
    done = subprocess.run([shutil.which("node"), "--check", "extension.js"], cwd=EXTENSION, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
