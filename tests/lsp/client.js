// A client for the tests: starts the real `flowc lsp` ($FLOWC, the built binary) and talks to
// it with vscode-languageserver-protocol, the protocol implementation VS Code itself uses.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const rpc = require('vscode-languageserver-protocol/node');

const FLOWC = process.env.FLOWC || path.join(__dirname, '../../build/flowc');
const SOURCE = process.env.FLOWC_SOURCE_DIR || path.join(__dirname, '../..');

function sample(name) {
  const file = path.join(SOURCE, 'samples', name);
  return { uri: pathToFileURL(file).href, text: fs.readFileSync(file, 'utf8'), file };
}

// The LSP position of the `nth` (from 0) occurrence of `needle` in `text`, moved on by `skip`
// characters. JavaScript strings count UTF-16 code units, as LSP does: an oracle of its own.
function positionOf(text, needle, skip = 0, nth = 0) {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' (#${nth}) is not in the text`);
  }
  at += skip;
  const before = text.slice(0, at);
  const line = before.split('\n').length - 1;
  return { line, character: at - (before.lastIndexOf('\n') + 1) };
}

// The range of `length` characters from positionOf(...).
function rangeOf(text, needle, skip, length, nth = 0) {
  const start = positionOf(text, needle, skip, nth);
  return { start, end: { line: start.line, character: start.character + length } };
}

const running = new Set();

// Kills the servers a failed test left running, so that the test file ends.
function killAll() {
  for (const proc of running) proc.kill();
}

class Server {
  constructor() {
    this.proc = spawn(FLOWC, ['lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
    running.add(this.proc);
    this.proc.on('exit', () => running.delete(this.proc));
    this.exited = new Promise((resolve) => this.proc.on('exit', (code) => resolve(code)));
    this.connection = rpc.createProtocolConnection(
      new rpc.StreamMessageReader(this.proc.stdout), new rpc.StreamMessageWriter(this.proc.stdin));
    this.diagnostics = new Map();  // uri -> the last PublishDiagnosticsParams
    this.waiters = [];
    this.connection.onNotification(rpc.PublishDiagnosticsNotification.type, (params) => {
      this.diagnostics.set(params.uri, params);
      this.waiters = this.waiters.filter((w) => !w(params));
    });
    this.connection.listen();
  }

  static async start() {
    const server = new Server();
    server.initializeResult = await server.connection.sendRequest(rpc.InitializeRequest.type, {
      processId: process.pid, rootUri: null, capabilities: {},
    });
    await server.connection.sendNotification(rpc.InitializedNotification.type, {});
    return server;
  }

  // The next diagnostics published for `uri` at `version` (or the ones already there).
  diagnosticsFor(uri, version) {
    const have = this.diagnostics.get(uri);
    if (have && (version === undefined || have.version === version)) return Promise.resolve(have);
    return new Promise((resolve) => {
      this.waiters.push((p) => {
        if (p.uri !== uri || (version !== undefined && p.version !== version)) return false;
        resolve(p);
        return true;
      });
    });
  }

  async open(doc, version = 1) {
    this.diagnostics.delete(doc.uri);
    await this.connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
      textDocument: { uri: doc.uri, languageId: 'flow', version, text: doc.text },
    });
    return this.diagnosticsFor(doc.uri, version);
  }

  async change(uri, version, contentChanges) {
    await this.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version }, contentChanges,
    });
    return this.diagnosticsFor(uri, version);
  }

  request(type, params) { return this.connection.sendRequest(type, params); }

  async stop() {
    await this.connection.sendRequest(rpc.ShutdownRequest.type);
    await this.connection.sendNotification(rpc.ExitNotification.type);
    const code = await this.exited;
    this.connection.dispose();
    return code;
  }
}

module.exports = { FLOWC, SOURCE, Server, killAll, sample, positionOf, rangeOf, rpc };
