// The flowc extension's client: starts `flowc lsp` (the language server inside the compiler's
// own binary) over stdio for every document of the language `flow`, and restarts it on the
// command "Flow: Restart the flowc language server" or when the `flowc.path` setting changes.
// Plain CommonJS, so the extension ships as written with no build step.
'use strict';

const vscode = require('vscode');
const {LanguageClient, TransportKind} = require('vscode-languageclient/node');

// The client id 'flowc' makes vscode-languageclient read the `flowc.trace.server` setting.
const kClientId = 'flowc';
const kClientName = 'flowc language server';

let client = null;
// Starts and stops run one after another: a restart asked for while the server is still
// starting would otherwise find a client that can be neither stopped nor replaced.
let queue = Promise.resolve();

function Serialized(action) {
  queue = queue.then(action, action);
  return queue;
}

function ServerPath() {
  return vscode.workspace.getConfiguration('flowc').get('path') || 'flowc';
}

async function Start() {
  const executable = {command: ServerPath(), args: ['lsp'], transport: TransportKind.stdio};
  client = new LanguageClient(kClientId, kClientName, {run: executable, debug: executable},
                              {documentSelector: [{language: 'flow'}]});
  try {
    await client.start();
  } catch (error) {
    // A missing binary is the common case: name the setting that points at it.
    vscode.window.showErrorMessage(
        `flowc: could not start '${executable.command} lsp' (${error.message || error}); ` +
        'set "flowc.path" to the flowc binary.');
  }
}

async function Stop() {
  const running = client;
  client = null;
  // stop() throws on a client that never got running (its start failed).
  if (running && running.isRunning()) await running.stop();
}

function Restart() {
  return Serialized(async () => {
    await Stop();
    await Start();
  });
}

function activate(context) {
  context.subscriptions.push(
      vscode.commands.registerCommand('flowc.restartServer', Restart),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('flowc.path')) Restart();
      }));
  return Serialized(Start);
}

function deactivate() {
  return Serialized(Stop);
}

module.exports = {activate, deactivate};
