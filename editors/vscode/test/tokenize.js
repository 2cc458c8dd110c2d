// Tokenizes files with the extension's TextMate grammar, as VS Code does (vscode-textmate and
// the Oniguruma regex engine), and prints the tokens as JSON: one list per file, one entry per
// line, each token as [start, end, scope] (the innermost scope; "" for plain text).
// Used by tests/test_editor.py when `npm install` has been run in editors/vscode.
//   node test/tokenize.js FILE...
"use strict";

const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const wasm = fs.readFileSync(path.join(path.dirname(require.resolve("vscode-oniguruma")), "onig.wasm"));
const onigLib = oniguruma.loadWASM(wasm.buffer).then(() => ({
  createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
  createOnigString: (text) => new oniguruma.OnigString(text),
}));
const grammarPath = path.join(__dirname, "..", "syntaxes", "rules.tmLanguage.json");
const registry = new vsctm.Registry({
  onigLib,
  loadGrammar: async (scopeName) =>
    scopeName === "source.rules"
      ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath)
      : null,
});

registry.loadGrammar("source.rules").then((grammar) => {
  const out = [];
  for (const file of process.argv.slice(2)) {
    let state = vsctm.INITIAL;
    const lines = [];
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      const result = grammar.tokenizeLine(line, state);
      lines.push(result.tokens.map((t) => {
        const inner = t.scopes[t.scopes.length - 1];
        return [t.startIndex, Math.min(t.endIndex, line.length), inner === "source.rules" ? "" : inner];
      }));
      state = result.ruleStack;
    }
    out.push(lines);
  }
  process.stdout.write(JSON.stringify(out));
});
