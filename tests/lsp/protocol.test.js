// The life cycle and bad input, as raw bytes on the server's stdin: replies are read with
// vscode-jsonrpc's own reader.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const { FLOWC, rpc } = require('./client');

// Starts `flowc lsp`, writes `chunks` (strings of raw bytes) and returns every message it
// answered with and its exit status, once stdin is closed.
function raw(chunks, { close = true } = {}) {
  const proc = spawn(FLOWC, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const messages = [];
  const reader = new rpc.StreamMessageReader(proc.stdout);
  reader.listen((m) => messages.push(m));
  for (const chunk of chunks) proc.stdin.write(Buffer.from(chunk, 'binary'));
  if (close) proc.stdin.end();
  return new Promise((resolve) => proc.on('close', (code) => resolve({ code, messages })));
}

function frame(message) {
  const body = Buffer.from(typeof message === 'string' ? message : JSON.stringify(message), 'utf8');
  return `Content-Length: ${body.length}\r\n\r\n` + body.toString('binary');
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { capabilities: {} } };
const shutdown = { jsonrpc: '2.0', id: 99, method: 'shutdown' };
const exit = { jsonrpc: '2.0', method: 'exit' };

test('initialize announces UTF-16 positions and every feature', async () => {
  const { code, messages } = await raw([frame(initialize), frame(shutdown), frame(exit)]);
  assert.equal(code, 0);
  assert.deepEqual(messages[0].result.capabilities, {
    positionEncoding: 'utf-16',
    textDocumentSync: { openClose: true, change: 2, save: { includeText: false } },
    hoverProvider: true,
    definitionProvider: true,
    referencesProvider: true,
    documentSymbolProvider: true,
    completionProvider: { triggerCharacters: ['@', '{', '(', ',', ' '] },
    renameProvider: { prepareProvider: true },
    codeActionProvider: { codeActionKinds: ['quickfix'] },
    documentFormattingProvider: true,
  });
  assert.equal(messages[0].result.serverInfo.name, 'flowc');
  assert.deepEqual(messages[1], { jsonrpc: '2.0', id: 99, result: null });
});

test('a request before initialize gets -32002, and the server still initializes', async () => {
  const hover = { jsonrpc: '2.0', id: 7, method: 'textDocument/hover',
                  params: { textDocument: { uri: 'file:///x.flow' }, position: { line: 0, character: 0 } } };
  const { messages } = await raw([frame(hover), frame(initialize), frame(exit)]);
  assert.deepEqual(messages[0], { jsonrpc: '2.0', id: 7, error: {
    code: -32002, message: "the server is not initialized: send 'initialize' first" } });
  assert.ok(messages[1].result.capabilities);
});

test('an unknown method gets -32601; an unknown notification nothing', async () => {
  const { messages } = await raw([
    frame(initialize), frame({ jsonrpc: '2.0', method: 'flowc/nothing', params: {} }),
    frame({ jsonrpc: '2.0', id: 'x', method: 'flowc/nothing' }), frame(shutdown), frame(exit)]);
  assert.deepEqual(messages.slice(1), [
    { jsonrpc: '2.0', id: 'x', error: { code: -32601, message: "unknown method 'flowc/nothing'" } },
    { jsonrpc: '2.0', id: 99, result: null },
  ]);
});

test('a body that is not JSON gets -32700 with id null, and later requests are answered', async () => {
  const { code, messages } = await raw([
    frame(initialize), frame('{"jsonrpc": "2.0", "id": 3, "method": '), frame('\xff\xfe\x00'),
    frame(shutdown), frame(exit)]);
  assert.equal(code, 0);
  const error = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'the message is not JSON' } };
  assert.deepEqual(messages.slice(1), [error, error, { jsonrpc: '2.0', id: 99, result: null }]);
});

test('a message with a bad header is skipped; the next one is answered', async () => {
  const { code, messages } = await raw([
    frame(initialize),
    'Content-Length: twelve\r\n\r\n{"jsonrpc":"2.0","id":5,"method":"shutdown"}',
    'X-Nothing\r\n\r\n',
    frame(shutdown), frame(exit)]);
  assert.equal(code, 0);
  assert.deepEqual(messages.slice(1), [{ jsonrpc: '2.0', id: 99, result: null }]);
});

test('exit without shutdown ends with status 1; the end of input too', async () => {
  assert.equal((await raw([frame(initialize), frame(exit)], { close: false })).code, 1);
  assert.equal((await raw([frame(initialize)])).code, 1);
  assert.equal((await raw(['Content-Length: 5\r\n\r\n{"a"'])).code, 1);  // a message cut short
});

test('requests after shutdown are refused; params of the wrong shape get -32602', async () => {
  const { messages } = await raw([
    frame(initialize),
    frame({ jsonrpc: '2.0', id: 2, method: 'textDocument/rename',
            params: { textDocument: { uri: 'file:///x.flow' }, position: { line: 0, character: 0 }, newName: 3 } }),
    frame(shutdown),
    frame({ jsonrpc: '2.0', id: 4, method: 'textDocument/hover', params: {} }),
    frame(exit)]);
  assert.deepEqual(messages.slice(1), [
    { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'rename needs a newName string' } },
    { jsonrpc: '2.0', id: 99, result: null },
    { jsonrpc: '2.0', id: 4, error: { code: -32600, message: "the server is shut down: only 'exit' is left" } },
  ]);
});
