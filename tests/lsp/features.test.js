// Hover, navigation, symbols, completion, rename and code actions on the samples, with the
// exact ranges, texts and edits expected.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { spawnSync } = require('node:child_process');
const { FLOWC, SOURCE, Server, killAll, sample, positionOf, rangeOf, rpc } = require('./client');

const nightly = sample('nightly_train.flow');
let server;

test.before(async () => {
  server = await Server.start();
  await server.open(nightly);
});
test.after(async () => {
  const status = await Promise.race([server.stop(), new Promise((r) => setTimeout(r, 5000, 'timeout'))]);
  killAll();
  assert.equal(status, 0);
});

function at(doc, needle, skip = 0, nth = 0) {
  return { textDocument: { uri: doc.uri }, position: positionOf(doc.text, needle, skip, nth) };
}

function markdown(value, range) { return { contents: { kind: 'markdown', value }, range }; }

// The body of the section of docs/decorators.md under `heading`, up to the next heading.
function decoratorsSection(heading) {
  const page = fs.readFileSync(path.join(SOURCE, 'docs', 'decorators.md'), 'utf8');
  const start = page.indexOf(`\n${heading}\n\n`);
  assert.ok(start >= 0, `docs/decorators.md has no '${heading}'`);
  const body = page.slice(start + heading.length + 3);
  return body.slice(0, body.search(/\n##/)).replace(/\n+$/, '');
}

test('hover on a decorator and on an argument: the text of docs/decorators.md', async () => {
  const retry = decoratorsSection('## @retry');
  assert.ok(retry.startsWith('**@retry** (on a step or on the flow)\n\nRetries a failed step.\n\n' +
    '```flow\n'), retry);
  assert.ok(retry.endsWith('Arguments:\n- `times`: integer from 0 to 10, default 3\n' +
    '- `minutes_between_retries`: integer >= 0, default 2'), retry);
  assert.deepEqual(await server.request(rpc.HoverRequest.type, at(nightly, '@retry', 2)),
                   markdown(retry, rangeOf(nightly.text, '@retry', 1, 5)));
  const shm = decoratorsSection('### @kubernetes: shared_memory');
  assert.equal(shm, '**shared_memory** of `@kubernetes`: integer from 1 to 1000000000000\n\n' +
    'A memory-backed /dev/shm of this many MiB.\n\n' +
    'Becomes: an `emptyDir` volume with `medium: Memory` mounted at `/dev/shm`.');
  assert.deepEqual(await server.request(rpc.HoverRequest.type, at(nightly, 'shared_memory=', 3)),
                   markdown(shm, rangeOf(nightly.text, 'shared_memory=', 0, 13)));
});

test('hover on a param, a reference and a built-in reference', async () => {
  assert.deepEqual(await server.request(rpc.HoverRequest.type, at(nightly, '{{epochs}}', 4)), markdown(
    '**param epochs**: int\n\ndefault: `3`', rangeOf(nightly.text, '{{epochs}}', 2, 6)));
  assert.deepEqual(await server.request(rpc.HoverRequest.type, at(nightly, 'param shards', 6)), markdown(
    '**param shards**: list\n\ndefault: `["a", "b", "c"]`', rangeOf(nightly.text, 'param shards', 6, 6)));
  assert.deepEqual(await server.request(rpc.HoverRequest.type, at(nightly, '{{item}}', 3)), markdown(
    '**{{item}}**: the element of the foreach whose body holds this step',
    rangeOf(nightly.text, '{{item}}', 2, 4)));
});

test('hover on a step: its lowered pod and how each target runs it', async () => {
  const hover = await server.request(rpc.HoverRequest.type, at(nightly, 'step train', 6));
  assert.deepEqual(hover.range, rangeOf(nightly.text, 'step train', 5, 5));
  assert.equal(hover.contents.value, TRAIN_POD);
});

test('hover on a step of a TrainJob gang with DRA claims: the claim, and the target that cannot', async () => {
  const doc = sample('trainjob_neuron_gang.flow');
  await server.open(doc);
  const hover = await server.request(rpc.HoverRequest.type, at(doc, 'step train', 6));
  const lines = hover.contents.value.split('\n');
  for (const line of [
    "- DRA claims: `neurons`: 16 x neuron.aws.com (ResourceClaimTemplate `pretrain-neuron-0ee001527b`), " +
      "`device.attributes['neuron.aws.com'].instanceType == 'trn2.48xlarge'`",
    '- limits: `vpc.amazonaws.com/efa: 16`',
    '- argo: a TrainJob of 4 nodes, created by a resource template',
    '- airflow: a TrainJob of 4 nodes, created by the DAG',
    "- jobset: cannot: step 'train' runs as a Kubeflow Trainer TrainJob, which target 'jobset' cannot " +
      'express: the whole flow is one JobSet, and a JobSet cannot hold a TrainJob',
  ]) assert.ok(lines.includes(line), line);
});

test('definition: from a next target to its step, from a reference and a foreach to the param', async () => {
  const merge = { uri: nightly.uri, range: rangeOf(nightly.text, 'step merge', 5, 5) };
  assert.deepEqual(await server.request(rpc.DefinitionRequest.type, at(nightly, 'next merge', 6)), merge);
  assert.deepEqual(await server.request(rpc.DefinitionRequest.type, at(nightly, 'next merge', 10, 1)), merge);
  assert.deepEqual(await server.request(rpc.DefinitionRequest.type, at(nightly, '{{epochs}}', 2)),
                   { uri: nightly.uri, range: rangeOf(nightly.text, 'param epochs', 6, 6) });
  assert.deepEqual(await server.request(rpc.DefinitionRequest.type, at(nightly, 'foreach shards', 9)),
                   { uri: nightly.uri, range: rangeOf(nightly.text, 'param shards', 6, 6) });
  assert.equal(await server.request(rpc.DefinitionRequest.type, at(nightly, 'python prep')), null);
});

test('references of a step and of a param, with and without the declaration', async () => {
  const loc = (needle, skip, length, nth = 0) => ({ uri: nightly.uri, range: rangeOf(nightly.text, needle, skip, length, nth) });
  const merge = [loc('next merge', 5, 5, 0), loc('next merge', 5, 5, 1)];
  assert.deepEqual(await server.request(rpc.ReferencesRequest.type,
    { ...at(nightly, 'step merge', 7), context: { includeDeclaration: true } }),
    [merge[0], merge[1], loc('step merge', 5, 5)]);
  assert.deepEqual(await server.request(rpc.ReferencesRequest.type,
    { ...at(nightly, 'next merge', 5), context: { includeDeclaration: false } }), merge);
  assert.deepEqual(await server.request(rpc.ReferencesRequest.type,
    { ...at(nightly, 'param shards', 7), context: { includeDeclaration: true } }),
    [loc('param shards', 6, 6), loc('foreach shards', 8, 6)]);
});

test('documentSymbol: the flow, its params and steps', async () => {
  const symbols = await server.request(rpc.DocumentSymbolRequest.type, { textDocument: { uri: nightly.uri } });
  assert.equal(symbols.length, 1);
  const flow = symbols[0];
  assert.equal(flow.name, 'nightly_train');
  assert.equal(flow.kind, 2);
  assert.deepEqual(flow.range, { start: { line: 1, character: 0 }, end: positionOf(nightly.text, '\n}', 2) });
  assert.deepEqual(flow.selectionRange, rangeOf(nightly.text, 'flow nightly_train', 5, 13));
  assert.deepEqual(flow.children.map((c) => [c.name, c.kind, c.detail]), [
    ['epochs', 13, 'param: int = 3'], ['shards', 13, 'param: list = ["a", "b", "c"]'],
    ['start', 12, 'step'], ['train', 12, 'step @kubernetes @parallel @retry @timeout @environment'],
    ['evaluate', 12, 'step'], ['score', 12, 'step @kubernetes'], ['collect', 12, 'step'],
    ['merge', 12, 'step'], ['end', 12, 'step'],
  ]);
  const train = flow.children[3];
  assert.deepEqual(train.range, { start: positionOf(nightly.text, '@kubernetes(\n    trainium'),
                                  end: positionOf(nightly.text, 'next merge\n  }', 14) });
  assert.deepEqual(train.selectionRange, rangeOf(nightly.text, 'step train', 5, 5));
});

// Opens the sample as a document of its own, changes it to `marked` (as if typed; `|` marks
// the cursor) and asks for completion there.
async function complete(name, marked) {
  const cursor = marked.indexOf('|');
  const text = marked.slice(0, cursor) + marked.slice(cursor + 1);
  const uri = `file:///tmp/flowc-lsp-test/${name}.flow`;
  await server.open({ uri, text: nightly.text });
  await server.change(uri, 2, [{ text }]);
  const list = await server.request(rpc.CompletionRequest.type,
    { textDocument: { uri }, position: positionOf(text, marked.slice(0, cursor), cursor, 0) });
  return { list, text };
}

const labels = (list) => list.items.map((i) => i.label);

test('completion after @: every decorator, documented', async () => {
  const doc = nightly.text.replace('  step evaluate {', '  @|\n  step evaluate {');
  const { list } = await complete('at', doc);
  assert.deepEqual(labels(list), ['kubernetes', 'resources', 'neuron', 'parallel', 'trainjob', 'queue', 'code',
                                  'retry', 'timeout', 'environment', 'secrets', 'schedule']);
  const retry = list.items.find((item) => item.label === 'retry');
  assert.equal(retry.detail, 'retries a failed step');
  assert.match(retry.documentation.value, /^\*\*@retry\*\* \(on a step or on the flow\)/);
  assert.equal(retry.textEdit.newText, 'retry');
});

test('completion of argument names skips the ones given', async () => {
  const { list, text } = await complete('args',
    nightly.text.replace('@retry(times=2, minutes_between_retries=5)', '@retry(times=2, mi|)'));
  assert.deepEqual(labels(list), ['minutes_between_retries']);
  const item = list.items[0];
  assert.equal(item.detail, 'integer >= 0, default 2');
  assert.deepEqual(item.textEdit, { range: rangeOf(text, 'times=2, mi', 9, 2), newText: 'minutes_between_retries=' });
  const k8s = await complete('k8s', nightly.text.replace('@kubernetes(inferentia=1)', '@kubernetes(inferentia=1, |)'));
  assert.equal(labels(k8s.list).length, 26);
  assert.ok(!labels(k8s.list).includes('inferentia'));
});

test('completion after next and after a comma of a next list', async () => {
  let { list } = await complete('next', nightly.text.replace('next train, evaluate', 'next |'));
  assert.deepEqual(labels(list), ['train', 'evaluate', 'score', 'collect', 'merge', 'end']);
  ({ list } = await complete('comma', nightly.text.replace('next train, evaluate', 'next train, |')));
  assert.deepEqual(labels(list), ['evaluate', 'score', 'collect', 'merge', 'end']);
});

test('completion inside {{ of a run string: params, run_id, item in a foreach body, gang refs in a gang', async () => {
  let { list } = await complete('ref-item', nightly.text.replace('--shard {{item}}', '--shard {{|'));
  assert.deepEqual(labels(list), ['epochs', 'shards', 'run_id', 'item']);
  assert.equal(list.items[0].textEdit.newText, 'epochs}}');
  ({ list } = await complete('ref-gang', nightly.text.replace('"train.py"]', '"train.py", "{{|"]')));
  assert.deepEqual(labels(list), ['epochs', 'shards', 'run_id', 'num_nodes', 'node_index', 'main_addr']);
  ({ list } = await complete('ref-plain', nightly.text.replace('python prep.py --epochs {{epochs}}', 'python prep.py --epochs {{ep|}}')));
  assert.deepEqual(labels(list), ['epochs', 'shards', 'run_id']);
  assert.equal(list.items[0].textEdit.newText, 'epochs');
});

test('rename a step and a param: every reference', async () => {
  const edit = await server.request(rpc.RenameRequest.type, { ...at(nightly, 'next merge', 6), newName: 'combine' });
  const e = (needle, skip, length, nth, newText) => ({ range: rangeOf(nightly.text, needle, skip, length, nth), newText });
  assert.deepEqual(edit, { changes: { [nightly.uri]: [
    e('next merge', 5, 5, 0, 'combine'), e('next merge', 5, 5, 1, 'combine'), e('step merge', 5, 5, 0, 'combine')] } });
  const param = await server.request(rpc.RenameRequest.type, { ...at(nightly, 'param epochs', 7), newName: 'n_epochs' });
  assert.deepEqual(param, { changes: { [nightly.uri]: [
    e('param epochs', 6, 6, 0, 'n_epochs'), e('{{epochs}}', 2, 6, 0, 'n_epochs')] } });
  assert.deepEqual(await server.request(rpc.PrepareRenameRequest.type, at(nightly, 'step score', 6)),
                   { range: rangeOf(nightly.text, 'step score', 5, 5), placeholder: 'score' });
});

test('rename refuses a taken name, a name that is not one, a keyword, and start', async () => {
  const refused = async (params, message) => {
    await assert.rejects(server.request(rpc.RenameRequest.type, params), { code: -32803, message });
  };
  await refused({ ...at(nightly, 'step merge', 6), newName: 'train' }, "a step named 'train' exists already");
  await refused({ ...at(nightly, 'step merge', 6), newName: 'Collect' },
                "step 'collect' has the same Kubernetes name 'collect'");
  await refused({ ...at(nightly, 'step merge', 6), newName: '9lives' },
                "'9lives' is not a name: write letters, digits and '_', not starting with a digit");
  await refused({ ...at(nightly, 'step merge', 6), newName: 'foreach' }, "'foreach' is a keyword");
  await refused({ ...at(nightly, 'param epochs', 7), newName: 'item' },
                "'{{item}}' is a reserved reference and cannot name a param");
  await refused({ ...at(nightly, 'step start', 6), newName: 'begin' }, "'start' is where every flow begins: it cannot be renamed");
  await assert.rejects(server.request(rpc.PrepareRenameRequest.type, at(nightly, 'python prep')),
                       { code: -32803, message: 'only a step or a param can be renamed' });
});

test('code actions: a quick fix for each did-you-mean', async () => {
  const file = path.join(SOURCE, 'tests/errors/many_errors.flow');
  const doc = { uri: pathToFileURL(file).href, text: fs.readFileSync(file, 'utf8') };
  const published = await server.open(doc);
  const actions = await server.request(rpc.CodeActionRequest.type, {
    textDocument: { uri: doc.uri }, range: { start: { line: 0, character: 0 }, end: { line: 99, character: 0 } },
    context: { diagnostics: published.diagnostics } });
  const fix = (title, needle, skip, length, newText, diagnostic) => ({
    title, kind: 'quickfix', isPreferred: true, diagnostics: [diagnostic],
    edit: { changes: { [doc.uri]: [{ range: rangeOf(doc.text, needle, skip, length), newText }] } } });
  const byCode = (code) => published.diagnostics.find((d) => d.code === code);
  assert.deepEqual(actions, [
    fix("Replace with 'image'", 'imge=', 0, 4, 'image', byCode('E031')),
    fix("Replace with 'train'", 'next trian', 5, 5, 'train', byCode('E014')),
    fix("Replace with 'region'", '{{regoin}}', 2, 6, 'region', byCode('E025')),
  ]);
  // A decorator's name keeps its one '@'; a string value stays quoted.
  for (const [name, needle, skip, length, newText] of [
    ['unknown_decorator', '@kubernets(', 1, 9, 'kubernetes'],
    ['enum_value', '"always"', 0, 8, '"Always"']]) {
    const f = path.join(SOURCE, 'tests/errors', `${name}.flow`);
    const d = { uri: pathToFileURL(f).href, text: fs.readFileSync(f, 'utf8') };
    await server.open(d);
    const [first] = await server.request(rpc.CodeActionRequest.type, {
      textDocument: { uri: d.uri }, range: rangeOf(d.text, needle, 1, 0), context: { diagnostics: [] } });
    assert.deepEqual(first.edit.changes[d.uri], [{ range: rangeOf(d.text, needle, skip, length), newText }]);
  }
  // Only the ones the range touches.
  const one = await server.request(rpc.CodeActionRequest.type, {
    textDocument: { uri: doc.uri }, range: rangeOf(doc.text, 'trian', 0, 0), context: { diagnostics: [] } });
  assert.deepEqual(one.map((a) => a.title), ["Replace with 'train'"]);
});

test('a document that does not parse: answers from the last one that did, at the right places', async () => {
  const doc = { uri: 'file:///tmp/flowc-lsp-test/broken.flow', text: nightly.text };
  await server.open(doc);
  // A half-written decorator in the middle: the text no longer parses, and everything after
  // it moved by a line.
  const insert = '  @kubernetes(cpu=\n';
  const broken = nightly.text.replace('  step evaluate {', insert + '  step evaluate {');
  const published = await server.change(doc.uri, 2, [{ range: rangeOf(nightly.text, '  step evaluate {', 0, 0), text: insert }]);
  assert.equal(published.diagnostics[0].code, 'E001');
  const where = (needle, skip, nth = 0) => ({ textDocument: { uri: doc.uri }, position: positionOf(broken, needle, skip, nth) });
  assert.deepEqual(await server.request(rpc.DefinitionRequest.type, where('next collect', 6)),
                   { uri: doc.uri, range: rangeOf(broken, 'step collect', 5, 7) });
  assert.deepEqual(await server.request(rpc.DefinitionRequest.type, where('next train', 6)),
                   { uri: doc.uri, range: rangeOf(broken, 'step train', 5, 5) });
  // The step whose decorators the edit touched keeps its name but loses its whole range.
  const symbols = await server.request(rpc.DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } });
  const evaluate = symbols[0].children.find((s) => s.name === 'evaluate');
  assert.deepEqual(evaluate.selectionRange, rangeOf(broken, 'step evaluate', 5, 8));
  // A name the edit touched has no place: no answer rather than a wrong one.
  const typed = await server.change(doc.uri, 3, [{ range: rangeOf(broken, 'next merge', 10, 0, 1), text: 'x' }]);
  assert.equal(typed.version, 3);
  assert.equal(await server.request(rpc.HoverRequest.type, where('next merge', 7, 1)), null);
  // Completion still knows the steps.
  const list = await server.request(rpc.CompletionRequest.type, where('next train, ', 12));
  assert.ok(list.items.some((i) => i.label === 'merge'));
});

// `text` with LSP `edits` applied (JavaScript strings index UTF-16 units, as LSP positions do).
function applyEdits(text, edits) {
  const offset = ({ line, character }) => {
    let at = 0;
    for (let l = 0; l < line; l++) at = text.indexOf('\n', at) + 1;
    return at + character;
  };
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const e of sorted) text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
  return text;
}

test('formatting: the edits make flowc fmt\'s output; none when formatted or not parsing', async () => {
  const format = async (name, text) => {
    const uri = `file:///tmp/flowc-lsp-test/${name}.flow`;
    await server.open({ uri, text });
    return server.request(rpc.DocumentFormattingRequest.type,
      { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
  };
  assert.deepEqual(await format('formatted', nightly.text), []);
  const messy = '# r\u00e9sum\u00e9 \ud83d\ude00 of a flow\n' + nightly.text
    .replace('  step start {\n    run', 'step   start{ run')
    .replace('next train, evaluate', 'next train ,evaluate')
    .replace('@retry(times=2, minutes_between_retries=5)', '@retry( times = 2,minutes_between_retries=5 )   # \u00e9\ud83d\ude00');
  const edits = await format('messy', messy);
  const fmt = spawnSync(FLOWC, ['fmt', '-'], { input: messy, encoding: 'utf8' });
  assert.equal(fmt.status, 0);
  assert.equal(applyEdits(messy, edits), fmt.stdout);
  assert.equal(edits.length, 1);
  // The edit starts where the text first differs: the prefix before it is kept.
  assert.deepEqual(edits[0].range.start, positionOf(messy, 'step   start'));
  assert.deepEqual(await format('broken', nightly.text.replace('step end {', 'step end')), []);
});

// The pod of `flowc compile samples/nightly_train.flow --target ir`'s step train.
const TRAIN_POD = [
  '**step train**: its pod, as every target renders it',
  '',
  '- image: `public.ecr.aws/neuron/pytorch-training-neuronx:2.9.0`',
  '- command: `torchrun --nnodes 4 train.py`',
  '- requests: `cpu: 96`, `memory: 480000M`, `ephemeral-storage: 10240M`',
  '- limits: `aws.amazon.com/neuron: 16`, `vpc.amazonaws.com/efa: 16`',
  '- tolerations: `aws.amazon.com/neuron Exists NoSchedule`',
  "- env: `FLOWC_JOBSET_NAME=(metadata.labels['jobset.sigs.k8s.io/jobset-name'])`, `FLOWC_NUM_NODES=4`, " +
    "`FLOWC_NODE_INDEX=(metadata.annotations['batch.kubernetes.io/job-completion-index'])`, " +
    '`FLOWC_MAIN_ADDR=$(FLOWC_JOBSET_NAME)-train-0-0.$(FLOWC_JOBSET_NAME)`, `FI_PROVIDER=efa`',
  '- mounts: `/dev/shm`',
  '- namespace: `ml`',
  '- service account: `flows`',
  '- retry: 2 times, 5 min apart',
  '- timeout: 21600 s',
  '',
  'Targets:',
  '- argo: a JobSet of 4 nodes, created by a resource template',
  '- airflow: a JobSet of 4 nodes, created by the DAG',
  "- jobset: a replicated job of 4 pods in the flow's JobSet, but not this flow: '@schedule' cannot be expressed by target 'jobset'",
].join('\n');
