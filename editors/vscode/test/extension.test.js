// extension.js against stand-ins for the `vscode` module (which exists only inside VS Code)
// and for vscode-languageclient's LanguageClient: the client it builds starts `<flowc.path> lsp`
// over stdio for the language `flow`, the restart command and a change of flowc.path replace it,
// a server that fails to start is reported with the setting to fix, and deactivate stops it.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const Module = require('node:module');
const path = require('node:path');

const kTransportStdio = 0;

function MakeWorld() {
  const world = {settings: {}, commands: {}, configListeners: [], errors: [], clients: [],
                 failStart: false};
  world.vscode = {
    workspace: {
      getConfiguration: (section) => ({get: (key) => world.settings[`${section}.${key}`]}),
      onDidChangeConfiguration: (listener) => {
        world.configListeners.push(listener);
        return {dispose() {}};
      },
    },
    commands: {
      registerCommand: (id, callback) => {
        world.commands[id] = callback;
        return {dispose() {}};
      },
    },
    window: {showErrorMessage: (message) => world.errors.push(message)},
  };
  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      Object.assign(this, {id, name, serverOptions, clientOptions, state: 'initial'});
      world.clients.push(this);
    }
    async start() {
      if (world.failStart) {
        this.state = 'startFailed';
        throw new Error('spawn flowc ENOENT');
      }
      this.state = 'running';
    }
    isRunning() {
      return this.state === 'running';
    }
    async stop() {
      // As vscode-languageclient 9 does (lib/common/client.js, shutdown()).
      if (this.state !== 'running') throw new Error(`Client is not running: ${this.state}`);
      this.state = 'stopped';
    }
  }
  world.languageclient = {LanguageClient, TransportKind: {stdio: kTransportStdio}};
  return world;
}

// A fresh copy of extension.js that sees `world`'s modules.
function LoadExtension(world) {
  const file = path.resolve(__dirname, '..', 'extension.js');
  delete require.cache[file];
  const load = Module._load;
  Module._load = function(request, ...rest) {
    if (request === 'vscode') return world.vscode;
    if (request === 'vscode-languageclient/node') return world.languageclient;
    return load.call(this, request, ...rest);
  };
  try {
    return require(file);
  } finally {
    Module._load = load;
  }
}

async function Activate(world) {
  const extension = LoadExtension(world);
  const context = {subscriptions: []};
  await extension.activate(context);
  assert.equal(context.subscriptions.length, 2);
  return extension;
}

test('activate starts `flowc lsp` over stdio for flow documents', async () => {
  const world = MakeWorld();
  await Activate(world);
  assert.equal(world.clients.length, 1);
  const [client] = world.clients;
  assert.equal(client.id, 'flowc');  // so that flowc.trace.server applies
  const executable = {command: 'flowc', args: ['lsp'], transport: kTransportStdio};
  assert.deepEqual(client.serverOptions, {run: executable, debug: executable});
  assert.deepEqual(client.clientOptions.documentSelector, [{language: 'flow'}]);
  assert.equal(client.state, 'running');
  assert.deepEqual(world.errors, []);
});

test('flowc.path names the binary, and changing it restarts the server', async () => {
  const world = MakeWorld();
  world.settings['flowc.path'] = '/opt/flowc/bin/flowc';
  await Activate(world);
  assert.equal(world.clients[0].serverOptions.run.command, '/opt/flowc/bin/flowc');

  world.configListeners[0]({affectsConfiguration: (key) => key === 'editor.fontSize'});
  await world.commands['flowc.restartServer'].call(null);  // waits for any restart queued
  assert.equal(world.clients.length, 2, 'an unrelated setting restarted nothing');

  world.settings['flowc.path'] = '/usr/local/bin/flowc';
  world.configListeners[0]({affectsConfiguration: (key) => key === 'flowc.path'});
  await world.commands['flowc.restartServer'].call(null);
  assert.equal(world.clients.length, 4);
  assert.deepEqual(world.clients.map((c) => c.state), ['stopped', 'stopped', 'stopped', 'running']);
  assert.equal(world.clients[2].serverOptions.run.command, '/usr/local/bin/flowc');
});

test('a restart asked for twice at once leaves exactly one server running', async () => {
  const world = MakeWorld();
  await Activate(world);
  await Promise.all([world.commands['flowc.restartServer'](), world.commands['flowc.restartServer']()]);
  assert.deepEqual(world.clients.map((c) => c.state), ['stopped', 'stopped', 'running']);
});

test('a server that cannot start is reported with the setting to fix; restart retries', async () => {
  const world = MakeWorld();
  world.failStart = true;
  const extension = await Activate(world);
  assert.equal(world.errors.length, 1);
  assert.match(world.errors[0], /could not start 'flowc lsp' \(spawn flowc ENOENT\)/);
  assert.match(world.errors[0], /"flowc\.path"/);

  world.failStart = false;
  await world.commands['flowc.restartServer']();
  assert.deepEqual(world.clients.map((c) => c.state), ['startFailed', 'running']);
  await extension.deactivate();
  assert.equal(world.clients[1].state, 'stopped');
});

test('deactivate stops the server', async () => {
  const world = MakeWorld();
  const extension = await Activate(world);
  await extension.deactivate();
  assert.equal(world.clients[0].state, 'stopped');
  await extension.deactivate();  // a second time: nothing left to stop
});
