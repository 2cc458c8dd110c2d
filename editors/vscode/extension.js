// The Rulebook extension: starts `rulebook lsp` and lets it serve every .rules file.
// Plain JavaScript for Node; `npx @vscode/vsce package` bundles it with its library into dist/extension.js
// (esbuild, the `vscode:prepublish` script) and packs the bundle.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("rulebook");
  const [command, ...args] = settings.get("command", ["rulebook", "lsp"]);
  const serverOptions = { command, args, options: { cwd: workspaceFolder() } };
  const clientOptions = {
    documentSelector: [{ scheme: "file", language: "rules" }],
    initializationOptions: {
      baseSpec: settings.get("baseSpec", ""),
      lexicon: settings.get("lexicon", ""),
      debounceMs: settings.get("debounceMs", 150),
    },
    synchronize: {
      // a spec changed on disk (a checkout, another editor) is checked again
      fileEvents: vscode.workspace.createFileSystemWatcher("**/{*.rules,rulebook.toml}"),
    },
  };
  client = new LanguageClient("rulebook", "Rulebook", serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("rulebook")) {
        vscode.window.showInformationMessage("Rulebook: reload the window to use the new settings.");
      }
    })
  );
  return client.start().catch((error) => {
    vscode.window.showErrorMessage(
      `Rulebook: cannot start \`${[command, ...args].join(" ")}\` (${error.message}). ` +
        "Install it with pip install 'rulebook[lsp]', or set rulebook.command."
    );
  });
}

function workspaceFolder() {
  const folders = vscode.workspace.workspaceFolders;
  return folders && folders.length > 0 ? folders[0].uri.fsPath : undefined;
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
