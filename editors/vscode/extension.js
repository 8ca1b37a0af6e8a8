// The client half of the RBG extension: starts `rbg lsp` (the program named by the
// `rbg.server.path` setting) for .rbg and .sbg files and talks to it on stdio.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("rbg").get("server.path", "rbg");
  const server = { command, args: ["lsp"] };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "rbg" },
      { scheme: "file", language: "sbg" },
      { scheme: "untitled", language: "rbg" },
    ],
  };
  client = new LanguageClient("rbg", "RBG language server", { run: server, debug: server }, clientOptions);
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
