// The flowc extension's client: starts `flowc lsp` (the language server inside the compiler's
// own binary) over stdio for every document of the language `flow`, and restarts it on the
// command "Flow: Restart the flowc language server" or when the `flowc.path` setting changes.
// Plain CommonJS, so the extension ships as written with no build step.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

// The client id 'flowc' makes vscode-languageclient read the `flowc.trace.server` setting.
const kClientId = 'flowc';
const kClientName = 'flowc language server';

let client = null;

function CreateClient() {
  const command = vscode.workspace.getConfiguration('flowc').get('path') || 'flowc';
  const executable = { command, args: ['lsp'], transport: TransportKind.stdio };
  const serverOptions = { run: executable, debug: executable };
  const clientOptions = { documentSelector: [{ language: 'flow' }] };
  return new LanguageClient(kClientId, kClientName, serverOptions, clientOptions);
}

async function Start() {
  client = CreateClient();
  try {
    await client.start();
  } catch (error) {
    // A missing binary is the common case: say which setting names it.
    const command = vscode.workspace.getConfiguration('flowc').get('path') || 'flowc';
    vscode.window.showErrorMessage(
        `flowc: could not start '${command} lsp' (${error.message || error}); ` +
        'set "flowc.path" to the flowc binary.');
  }
}

async function Stop() {
  const running = client;
  client = null;
  if (running) await running.stop();
}

async function Restart() {
  await Stop();
  await Start();
}

async function activate(context) {
  context.subscriptions.push(
      vscode.commands.registerCommand('flowc.restartServer', Restart),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('flowc.path')) return Restart();
        return undefined;
      }));
  await Start();
}

function deactivate() {
  return Stop();
}

module.exports = { activate, deactivate };
