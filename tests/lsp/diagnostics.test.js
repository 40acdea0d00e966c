// publishDiagnostics: exactly what `flowc check` reports, in UTF-16 positions, with the
// document's version; cleared when the problem is gone; many documents in one server.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { pathToFileURL } = require('node:url');
const { FLOWC, SOURCE, Server, killAll, sample, rangeOf } = require('./client');

test.after(killAll);

// Where diagnostics link to: the build's FLOWC_DOCS_URL (CMakeLists.txt), as SARIF's helpUri.
const DOCS = 'https://github.com/flowc/flowc/blob/main/docs/diagnostics.md';

// The LSP position of byte `offset` of `bytes`: JavaScript strings count UTF-16 units.
function positionOfByte(bytes, offset) {
  const lineStart = bytes.lastIndexOf(0x0a, offset - 1) + 1;
  const line = bytes.subarray(0, lineStart).toString('utf8').split('\n').length - 1;
  return { line, character: bytes.subarray(lineStart, offset).toString('utf8').length };
}

// The LSP range of a location of `flowc check --diagnostics-format json` (a 1-based line, a
// column in code points, a length in bytes).
function rangeOfLocation(bytes, location) {
  let lineStart = 0;
  for (let l = 1; l < location.line; l++) lineStart = bytes.indexOf(0x0a, lineStart) + 1;
  const lineText = bytes.subarray(lineStart).toString('utf8').split('\n')[0];
  const start = lineStart + Buffer.byteLength([...lineText].slice(0, location.column - 1).join(''));
  return { start: positionOfByte(bytes, start), end: positionOfByte(bytes, start + location.length) };
}

// The link of each code that `flowc check` reports for `file`: the helpUri of its rule in the
// SARIF log, which must be the code's section of docs/diagnostics.md.
function helpUris(file) {
  const run = spawnSync(FLOWC, ['check', '--diagnostics-format', 'sarif', file], { encoding: 'utf8' });
  const uris = {};
  for (const rule of JSON.parse(run.stderr).runs[0].tool.driver.rules) {
    assert.match(rule.helpUri, new RegExp(`^https://.*/docs/diagnostics\\.md#${rule.id.toLowerCase()}$`));
    uris[rule.id] = rule.helpUri;
  }
  return uris;
}

// What the server must publish for `file`, from `flowc check`'s JSON diagnostics.
function expectedFromCheck(file, uri) {
  const hrefs = helpUris(file);
  const run = spawnSync(FLOWC, ['check', '--diagnostics-format', 'json', file], { encoding: 'utf8' });
  const bytes = fs.readFileSync(file);
  return JSON.parse(run.stderr).map((d) => {
    let message = d.message;
    const related = [];
    for (const note of d.notes) {
      if (note.line) {
        related.push({ location: { uri, range: rangeOfLocation(bytes, note) }, message: note.message });
      } else {
        message += `\nnote: ${note.message}`;
      }
    }
    if (d.help) message += `\nhelp: ${d.help}`;
    const out = { range: rangeOfLocation(bytes, d), severity: d.severity === 'error' ? 1 : 2,
                  code: d.code, codeDescription: { href: hrefs[d.code] }, source: 'flowc', message };
    if (related.length) out.relatedInformation = related;
    return out;
  });
}

test('every error case and sample: the diagnostics of flowc check, position for position', async () => {
  const server = await Server.start();
  const dirs = ['tests/errors', 'tests/flows', 'samples'];
  // The BOM is not part of a document an editor sends; invalid UTF-8 cannot travel in JSON.
  const skip = new Set(['byte_order_mark.flow', 'invalid_utf8.flow']);
  let compared = 0;
  for (const dir of dirs) {
    for (const name of fs.readdirSync(path.join(SOURCE, dir)).filter((n) => n.endsWith('.flow')).sort()) {
      if (skip.has(name)) continue;
      const file = path.join(SOURCE, dir, name);
      const uri = pathToFileURL(file).href;
      const published = await server.open({ uri, text: fs.readFileSync(file, 'utf8') });
      assert.deepEqual(published.diagnostics, expectedFromCheck(file, uri), file);
      assert.equal(published.version, 1);
      compared++;
    }
  }
  assert.ok(compared > 150, `${compared} files`);
  assert.equal(await server.stop(), 0);
});

test('a range after é and an emoji on the same line is in UTF-16 code units', async () => {
  const server = await Server.start();
  const text = [
    'flow unicode {',
    '  step start {',
    '    run "echo é 😀 {{nope}}"',
    '    next end',
    '  }',
    '  step end { run "echo done" }',
    '}',
    '',
  ].join('\n');
  const uri = 'file:///tmp/flowc-lsp-test/unicode.flow';
  const published = await server.open({ uri, text });
  // é is one UTF-16 unit (two bytes) and 😀 two (four bytes): {{nope}} starts at character
  // 19 (code points: 18, bytes: 21).
  assert.deepEqual(published.diagnostics, [{
    range: { start: { line: 2, character: 19 }, end: { line: 2, character: 27 } },
    severity: 1, code: 'E025', codeDescription: { href: DOCS + '#e025' }, source: 'flowc',
    message: "unknown reference '{{nope}}'\nhelp: declare it with 'param nope' or write '{{item}}' or '{{run_id}}'",
  }]);
  assert.deepEqual(published.diagnostics[0].range, rangeOf(text, '{{nope}}', 0, 8));
  await server.stop();
});

test('edits that introduce an error and remove it: diagnostics published, then cleared', async () => {
  const server = await Server.start();
  const doc = sample('nightly_train.flow');
  assert.deepEqual((await server.open(doc)).diagnostics, []);
  // `next merge` of step collect becomes `next merg`: E014 with a did-you-mean.
  const at = rangeOf(doc.text, 'next merge', 9, 1, 1);
  let published = await server.change(doc.uri, 2, [{ range: at, text: '' }]);
  assert.equal(published.version, 2);
  assert.deepEqual(published.diagnostics, [{
    range: rangeOf(doc.text, 'next merge', 5, 4, 1),
    severity: 1, code: 'E014', codeDescription: { href: DOCS + '#e014' }, source: 'flowc',
    message: "'next' names unknown step 'merg'\nhelp: did you mean 'merge'?",
  }]);
  // A syntax error on top: a brace dropped. Then both mended, the second by a whole-text change.
  published = await server.change(doc.uri, 3, [{ range: rangeOf(doc.text, 'step end {', 9, 1), text: '' }]);
  assert.equal(published.diagnostics.length, 1);
  assert.equal(published.diagnostics[0].code, 'E001');
  published = await server.change(doc.uri, 4, [{ text: doc.text }]);
  assert.deepEqual(published, { uri: doc.uri, version: 4, diagnostics: [] });
  await server.stop();
});

test('several documents at once, each with its own diagnostics; closing one clears it', async () => {
  const server = await Server.start();
  const good = sample('gpu_finetune.flow');
  const bad = { uri: pathToFileURL(path.join(SOURCE, 'tests/errors/many_errors.flow')).href,
                text: fs.readFileSync(path.join(SOURCE, 'tests/errors/many_errors.flow'), 'utf8') };
  const other = sample('branch_eval.flow');
  assert.equal((await server.open(good)).diagnostics.length, 0);
  assert.deepEqual((await server.open(bad)).diagnostics.map((d) => d.code),
                   ['E031', 'E011', 'E014', 'E033', 'E025', 'E039']);
  assert.equal((await server.open(other)).diagnostics.length, 0);
  // The good one breaks; the bad one is untouched.
  const published = await server.change(good.uri, 2, [{ range: rangeOf(good.text, '    gpu=4,', 8, 1), text: '0' }]);
  assert.deepEqual(published.diagnostics.map((d) => d.code), ['E033']);
  assert.equal(server.diagnostics.get(bad.uri).diagnostics.length, 6);
  server.diagnostics.delete(bad.uri);
  await server.connection.sendNotification('textDocument/didClose', { textDocument: { uri: bad.uri } });
  assert.deepEqual(await server.diagnosticsFor(bad.uri), { uri: bad.uri, diagnostics: [] });
  await server.stop();
});

test('@code files are read relative to the document\'s own folder', async () => {
  const server = await Server.start();
  const file = path.join(SOURCE, 'tests/errors/code_missing_file.flow');
  const uri = pathToFileURL(file).href;
  const published = await server.open({ uri, text: fs.readFileSync(file, 'utf8') });
  assert.deepEqual(published.diagnostics, expectedFromCheck(file, uri));
  assert.ok(published.diagnostics.some((d) => /did you mean/.test(d.message)));
  await server.stop();
});
