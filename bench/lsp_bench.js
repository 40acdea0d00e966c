// Measures `flowc lsp` as an editor uses it (run by bench/lsp.sh; nothing here is asserted):
//   1. the time from a change of a 2,000-step document to its diagnostics (the client sends
//      didChange and waits for publishDiagnostics of that version), alternately breaking the
//      flow and mending it;
//   2. the server's memory (VmRSS from /proc/PID/status) over 10,000 changes of one
//      document, each waited for, so that each is analysed;
//   3. the memory of one process holding many documents.
// It talks to the real server with vscode-languageserver-protocol, as tests/lsp does.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const rpc = require('../tests/lsp/node_modules/vscode-languageserver-protocol/node');

const [flowc, big, small, ...others] = process.argv.slice(2);

function rssKiB(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
}

// CPU time the server has used, in ms (utime + stime of /proc/PID/stat, in clock ticks of
// 10 ms): on a shared machine the wall time of a change includes the time the server waited
// for a core, its CPU time does not.
function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
}

async function start() {
  const proc = spawn(flowc, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = rpc.createProtocolConnection(
    new rpc.StreamMessageReader(proc.stdout), new rpc.StreamMessageWriter(proc.stdin));
  const waiting = new Map();  // "uri version" -> resolve
  connection.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
    const key = `${p.uri} ${p.version}`;
    if (waiting.has(key)) { waiting.get(key)(p); waiting.delete(key); }
  });
  connection.listen();
  await connection.sendRequest(rpc.InitializeRequest.type, { processId: null, rootUri: null, capabilities: {} });
  const published = (uri, version) => new Promise((resolve) => waiting.set(`${uri} ${version}`, resolve));
  return { proc, connection, published };
}

async function open(server, uri, text) {
  const done = server.published(uri, 1);
  server.connection.sendNotification(rpc.DidOpenTextDocumentNotification.type,
    { textDocument: { uri, languageId: 'flow', version: 1, text } });
  return done;
}

// A change of `text`'s line `line`: its first character becomes `c`.
function edit(uri, version, line, c) {
  return { textDocument: { uri, version },
           contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: 1 } }, text: c }] };
}

async function main() {
  const server = await start();
  const bigText = fs.readFileSync(big, 'utf8');
  const bigUri = 'file://' + path.resolve(big);
  const steps = (bigText.match(/\bstep\s/g) || []).length;
  let t0 = process.hrtime.bigint();
  const first = await open(server, bigUri, bigText);
  const openMs = Number(process.hrtime.bigint() - t0) / 1e6;

  // 1. A line near the end of the flow gets an '@' where its first character was: a syntax
  // error, then the character again: the diagnostics cleared.
  const lines = bigText.split('\n');
  const line = lines.findIndex((l, i) => i > lines.length / 2 && /^\s+run /.test(l));
  const original = lines[line][0];
  const times = [];
  let version = 1;
  const cpuBefore = cpuMs(server.proc.pid);
  for (let i = 0; i < 60; i++) {
    const broken = i % 2 === 0;
    version++;
    const done = server.published(bigUri, version);
    t0 = process.hrtime.bigint();
    server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type,
      edit(bigUri, version, line, broken ? '@' : original));
    const p = await done;
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (broken !== (p.diagnostics.length > 0)) throw new Error(`version ${version}: unexpected diagnostics`);
  }
  const cpuPerChange = (cpuMs(server.proc.pid) - cpuBefore) / times.length;
  const bigRss = rssKiB(server.proc.pid);

  // 2. 10,000 changes of the small document, each analysed; RSS every 1,000.
  const smallText = fs.readFileSync(small, 'utf8');
  const smallUri = 'file://' + path.resolve(small);
  await open(server, smallUri, smallText);
  const smallLines = smallText.split('\n');
  const smallLine = smallLines.findIndex((l) => /^\s+run /.test(l));
  const rss = [rssKiB(server.proc.pid)];
  t0 = process.hrtime.bigint();
  for (let v = 2; v <= 10001; v++) {
    const done = server.published(smallUri, v);
    server.connection.sendNotification(rpc.DidChangeTextDocumentNotification.type,
      edit(smallUri, v, smallLine, v % 2 ? ' ' : '@'));
    await done;
    if ((v - 1) % 1000 === 0) rss.push(rssKiB(server.proc.pid));
  }
  const changesS = Number(process.hrtime.bigint() - t0) / 1e9;

  // 3. Many documents in one process.
  for (const file of others) await open(server, 'file://' + path.resolve(file), fs.readFileSync(file, 'utf8'));
  const manyRss = rssKiB(server.proc.pid);

  await server.connection.sendRequest(rpc.ShutdownRequest.type);
  server.connection.sendNotification(rpc.ExitNotification.type);
  console.log(JSON.stringify({
    steps, bytes: Buffer.byteLength(bigText), open_ms: openMs, first_diagnostics: first.diagnostics.length,
    change_ms: { median: median(times), p90: percentile(times, 0.9), max: Math.max(...times), n: times.length },
    cpu_ms_per_change: cpuPerChange, load_average: fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    rss_after_big_kib: bigRss,
    small: path.basename(small), changes: 10000, changes_s: changesS, rss_every_1000_kib: rss,
    documents: new Set([big, small, ...others].map((f) => path.resolve(f))).size, rss_many_kib: manyRss,
  }));
}

main().catch((e) => { console.error(e); process.exit(1); });
