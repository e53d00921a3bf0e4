// The VS Code side of `cardgame lsp`: start the server for .cardgame files (docs/editors.md).
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("cardgame").get("server.path") || "cardgame";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "cardgame",
    "cardgame",
    { run: server, debug: server },
    { documentSelector: [{ language: "cardgame" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
