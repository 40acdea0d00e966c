// The TextMate grammar, tokenized by vscode-textmate + vscode-oniguruma (VS Code's own
// tokenizer): exact scopes of chosen tokens of the samples, a golden file of every sample's
// scopes (test/golden/NAME.scopes; refresh with FLOWC_UPDATE_GOLDENS=1, then review the diff),
// and the lexical hard cases of grammar/FlowLexer.g4 (a # in a string, escaped quotes,
// references against braces, raw strings over lines, unterminated strings).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const {kExtensionDir, Tokenize, FormatScopes} = require('./tokenize.js');

const kRepo = path.resolve(kExtensionDir, '..', '..');
const kGoldenDir = path.join(__dirname, 'golden');
const kUpdate = process.env.FLOWC_UPDATE_GOLDENS === '1';

function FlowFiles() {
  const files = [];
  for (const dir of ['samples', path.join('tests', 'flows')]) {
    for (const name of fs.readdirSync(path.join(kRepo, dir)).sort()) {
      if (name.endsWith('.flow')) files.push(path.join(kRepo, dir, name));
    }
  }
  return files;
}

// The scopes of the `nth` token on `line` (1-based) whose text is exactly `text`.
function ScopesOf(tokens, line, text, nth = 0) {
  const found = tokens.filter((t) => t.line === line && t.text === text);
  assert.ok(found.length > nth,
            `no token ${JSON.stringify(text)} #${nth} on line ${line}; the line has ` +
                JSON.stringify(tokens.filter((t) => t.line === line).map((t) => t.text)));
  return found[nth].scopes;
}

// Asserts each [line, text, scopes] (scopes: the full list below source.flow, space-separated).
function AssertScopes(tokens, table) {
  for (const [line, text, expected, nth] of table) {
    assert.equal(ScopesOf(tokens, line, text, nth).join(' '), expected,
                 `line ${line}, ${JSON.stringify(text)}`);
  }
}

async function TokenizeFile(relative) {
  return Tokenize(fs.readFileSync(path.join(kRepo, relative), 'utf8'));
}

const S = 'string.quoted.double.flow';
const R = 'string.quoted.triple.flow';
const REF = 'meta.embedded.reference.flow';
const DEC = 'meta.decorator.flow';
const NEXT = 'meta.next.flow';
const C = 'comment.line.number-sign.flow';

test('every sample and test flow has a golden file of its scopes, and matches it', async () => {
  const files = FlowFiles();
  assert.ok(files.length >= 20, `only ${files.length} flow files found under ${kRepo}`);
  const names = files.map((f) => path.basename(f, '.flow'));
  assert.equal(new Set(names).size, names.length, 'two flow files share a golden name');
  fs.mkdirSync(kGoldenDir, {recursive: true});
  for (const file of files) {
    const golden = path.join(kGoldenDir, path.basename(file, '.flow') + '.scopes');
    const actual = FormatScopes(await Tokenize(fs.readFileSync(file, 'utf8')));
    if (kUpdate) fs.writeFileSync(golden, actual);
    assert.ok(fs.existsSync(golden), `${golden} is missing: run with FLOWC_UPDATE_GOLDENS=1`);
    assert.equal(actual, fs.readFileSync(golden, 'utf8'), `${path.relative(kRepo, file)}`);
  }
  const stale = fs.readdirSync(kGoldenDir).filter(
      (g) => g.endsWith('.scopes') && !names.includes(path.basename(g, '.scopes')));
  assert.deepEqual(stale, [], 'golden files of flows that no longer exist');
});

test('samples compile, so no token of theirs is invalid, and every line is covered', async () => {
  for (const file of FlowFiles()) {
    const text = fs.readFileSync(file, 'utf8');
    const tokens = await Tokenize(text);
    const invalid = tokens.filter((t) => t.scopes.some((s) => s.startsWith('invalid.')));
    assert.deepEqual(invalid, [], path.relative(kRepo, file));
    const lines = text.split(/\r?\n/);
    lines.forEach((line, i) => {
      const covered = tokens.filter((t) => t.line === i + 1).map((t) => t.text).join('');
      assert.equal(covered, line, `${path.relative(kRepo, file)}:${i + 1}`);
    });
  }
});

test('nightly_train.flow: keywords, decorators, arguments, types, values', async () => {
  const tokens = await TokenizeFile('samples/nightly_train.flow');
  AssertScopes(tokens, [
    [1, '#', `${C} punctuation.definition.comment.flow`],
    [2, '@', `${DEC} punctuation.definition.decorator.flow`],
    [2, 'schedule', `${DEC} entity.name.function.decorator.flow`],
    [2, 'cron', `${DEC} variable.parameter.flow`],
    [2, '=', `${DEC} keyword.operator.assignment.flow`],
    [2, '0 3 * * *', `${DEC} ${S}`],
    [2, ')', `${DEC} punctuation.section.parens.end.flow`],
    [4, 'flow', 'storage.type.flow.flow'],
    [4, 'nightly_train', 'entity.name.type.flow.flow'],
    [4, '{', 'punctuation.section.braces.begin.flow'],
    [5, 'param', 'storage.type.param.flow'],
    [5, 'epochs', 'variable.other.constant.param.flow'],
    [5, ':', 'punctuation.separator.type.flow'],
    [5, 'int', 'support.type.flow'],
    [5, '3', 'constant.numeric.flow'],
    [6, 'list', 'support.type.flow'],
    [6, '[', 'punctuation.section.brackets.begin.flow'],
    [8, 'step', 'storage.type.step.flow'],
    [8, 'start', 'entity.name.function.step.flow'],
    [9, 'run', 'keyword.control.run.flow'],
    [9, 'python prep.py --epochs ', S],
    [9, '{{', `${S} ${REF} punctuation.definition.template-expression.begin.flow`],
    [9, 'epochs', `${S} ${REF} variable.other.reference.flow`],
    [9, '}}', `${S} ${REF} punctuation.definition.template-expression.end.flow`],
    [10, 'next', `${NEXT} keyword.control.next.flow`],
    [10, 'train', `${NEXT} entity.name.function.step.flow`],
    [10, ',', `${NEXT} punctuation.separator.comma.flow`],
    [10, 'evaluate', `${NEXT} entity.name.function.step.flow`],
    [14, 'trainium', `${DEC} variable.parameter.flow`],
    [14, '16', `${DEC} constant.numeric.flow`],
    [19, 'image', `${DEC} variable.parameter.flow`],
    [24, '{', `${DEC} punctuation.section.braces.begin.flow`],
    [24, 'FI_PROVIDER', `${DEC} ${S}`],
    [24, ':', `${DEC} punctuation.separator.key-value.flow`],
    [32, 'score', `${NEXT} entity.name.function.step.flow`],
    [32, 'foreach', `${NEXT} keyword.control.foreach.flow`],
    [32, 'shards', `${NEXT} variable.other.param.flow`],
  ]);
});

test('branch_eval.flow: escapes, a raw string over lines, booleans', async () => {
  const tokens = await TokenizeFile('samples/branch_eval.flow');
  AssertScopes(tokens, [
    [4, ' (publish_eval); a raw """...""" run string spanning lines with backslashes,', C],
    [35, '\\"', `${S} constant.character.escape.flow`],
    [35, '\\\\', `${S} constant.character.escape.flow`],
    [35, '\\n', `${S} constant.character.escape.flow`],
    [35, '\\u{e9}', `${S} constant.character.escape.flow`],
    [35, '\\t', `${S} constant.character.escape.flow`],
    [59, 'run', 'keyword.control.run.flow'],
    [59, '"""', `${R} punctuation.definition.string.begin.flow`],
    [59, 'set -eu', R],
    [60, 'python -m eval.shadow_compare \\', R],
    [62, '  --candidate "s3://acme-eval/', R],
    [62, 'run_id', `${R} ${REF} variable.other.reference.flow`],
    [64, 'awk -F\'\\t\' \'{ printf "%-12s %s\\n", $1, $2 }\' /tmp/compare.tsv', R],
    [65, 'echo "C:\\reports\\shadow (windows share) -> \\"quoted\\" $HOME"', R],
    [66, '"""', `${R} punctuation.definition.string.end.flow`],
    [67, 'next', `${NEXT} keyword.control.next.flow`],
  ]);
});

// The lexical hard cases, each as a small document.
test('a # inside a string or a raw string is not a comment; after code it is', async () => {
  const tokens = await Tokenize([
    'run "echo # not a comment" # a comment',
    'run """a # b',
    '# still raw " and \\" and ""',
    '"""  # after raw',
    'param p: str = "#"#c',
  ].join('\n'));
  AssertScopes(tokens, [
    [1, 'echo # not a comment', S],
    [1, '#', `${C} punctuation.definition.comment.flow`],
    [1, ' a comment', C],
    [2, 'a # b', R],
    [3, '# still raw " and \\" and ""', R],
    [4, '"""', `${R} punctuation.definition.string.end.flow`],
    [4, '#', `${C} punctuation.definition.comment.flow`],
    [5, '#', S],
    [5, '#', `${C} punctuation.definition.comment.flow`, 1],
    [5, 'c', C],
  ]);
  assert.equal(tokens.filter((t) => t.line === 5 && t.text === '#').length, 2);
});

test('escaped quotes and backslashes keep the string open exactly as long as the lexer', async () => {
  const tokens = await Tokenize([
    'run "a \\"quoted\\" # b" x',
    'run "ends in a backslash \\\\" # c',
    'run "\\q \\u{zz} \\u{1F680}"',
  ].join('\n'));
  AssertScopes(tokens, [
    [1, '\\"', `${S} constant.character.escape.flow`, 0],
    [1, '\\"', `${S} constant.character.escape.flow`, 1],
    [1, ' # b', S],
    [1, '"', `${S} punctuation.definition.string.end.flow`, 1],
    [1, 'x', 'variable.other.flow'],
    [2, '\\\\', `${S} constant.character.escape.flow`],
    [2, '"', `${S} punctuation.definition.string.end.flow`, 1],
    [2, ' c', C],
    [3, '\\q', `${S} invalid.illegal.unknown-escape.flow`],
    [3, '\\u', `${S} invalid.illegal.unknown-escape.flow`],
    [3, '{zz} ', S],
    [3, '\\u{1F680}', `${S} constant.character.escape.flow`],
  ]);
});

test('{{references}} in strings, literal braces everywhere else', async () => {
  const tokens = await Tokenize([
    '@environment(vars={"A": "{{ main_addr }}:1 {x} {{{item}}} {{ 1 }} {{a b}}"})',
    'run """{{run_id}} { }"""',
  ].join('\n'));
  AssertScopes(tokens, [
    [1, '{', `${DEC} punctuation.section.braces.begin.flow`],
    [1, '}', `${DEC} punctuation.section.braces.end.flow`],
    [1, '{{', `${DEC} ${S} ${REF} punctuation.definition.template-expression.begin.flow`, 0],
    [1, 'main_addr', `${DEC} ${S} ${REF} variable.other.reference.flow`],
    [1, ':1 {x} {', `${DEC} ${S}`],
    [1, 'item', `${DEC} ${S} ${REF} variable.other.reference.flow`],
    [1, '} {{ 1 }} {{a b}}', `${DEC} ${S}`],
    [2, 'run_id', `${R} ${REF} variable.other.reference.flow`],
    [2, ' { }', R],
  ]);
});

test('an unterminated string ends at the end of its line', async () => {
  const tokens = await Tokenize([
    'run "no closing quote # here',
    'next end # a comment again',
    'run "ends in \\',
    'step s {',
  ].join('\n'));
  AssertScopes(tokens, [
    [1, 'no closing quote # here', S],
    [2, 'next', `${NEXT} keyword.control.next.flow`],
    [2, 'end', `${NEXT} entity.name.function.step.flow`],
    [2, '#', `${NEXT} ${C} punctuation.definition.comment.flow`],
    [3, 'ends in ', S],
    [3, '\\', 'invalid.illegal.character.flow'],
    [4, 'step', 'storage.type.step.flow'],
  ]);
});

test('raw strings end at the first """, and """ is not an empty string', async () => {
  const tokens = await Tokenize([
    'run """a""""',
    'run """""" x',
    'run "" "a"',
  ].join('\n'));
  AssertScopes(tokens, [
    [1, 'a', R],
    [1, '"', `${S} punctuation.definition.string.begin.flow`],
    [2, '"""', `${R} punctuation.definition.string.begin.flow`],
    [2, '"""', `${R} punctuation.definition.string.end.flow`, 1],
    [2, 'x', 'variable.other.flow'],
    [3, '"', `${S} punctuation.definition.string.begin.flow`, 0],
    [3, '"', `${S} punctuation.definition.string.end.flow`, 1],
    [3, 'a', S],
  ]);
});

test('numbers, constants, keywords against identifiers, bad characters', async () => {
  const tokens = await Tokenize([
    '@k(a=-1, b=0.5, c=1e3, d=2.5E-7, e=true, f=false, g=null, h=trueish)',
    'steps stepx runner nexts 1.5.3 $ -',
    'next a,',
    '  b foreach [1]',
  ].join('\n'));
  AssertScopes(tokens, [
    [1, '-1', `${DEC} constant.numeric.flow`],
    [1, '0.5', `${DEC} constant.numeric.flow`],
    [1, '1e3', `${DEC} constant.numeric.flow`],
    [1, '2.5E-7', `${DEC} constant.numeric.flow`],
    [1, 'true', `${DEC} constant.language.boolean.flow`],
    [1, 'false', `${DEC} constant.language.boolean.flow`],
    [1, 'null', `${DEC} constant.language.null.flow`],
    [1, 'trueish', `${DEC} variable.other.flow`],
    [2, 'steps', 'variable.other.flow'],
    [2, 'stepx', 'variable.other.flow'],
    [2, 'runner', 'variable.other.flow'],
    [2, 'nexts', 'variable.other.flow'],
    [2, '1.5', 'constant.numeric.flow'],
    [2, '.', 'invalid.illegal.character.flow'],
    [2, '3', 'constant.numeric.flow'],
    [2, '$', 'invalid.illegal.character.flow'],
    [2, '-', 'invalid.illegal.character.flow'],
    [3, 'a', `${NEXT} entity.name.function.step.flow`],
    [4, 'b', `${NEXT} entity.name.function.step.flow`],
    [4, 'foreach', `${NEXT} keyword.control.foreach.flow`],
    [4, '[', 'punctuation.section.brackets.begin.flow'],
    [4, '1', 'constant.numeric.flow'],
  ]);
});

test('a decorator missing its ) ends at the next keyword, not at the end of the file', async () => {
  const tokens = await Tokenize([
    '@kubernetes(cpu=1,',
    'step a {',
    '  run "x"',
    '}',
  ].join('\n'));
  AssertScopes(tokens, [
    [1, 'cpu', `${DEC} variable.parameter.flow`],
    [2, 'step', 'storage.type.step.flow'],
    [2, 'a', 'entity.name.function.step.flow'],
    [3, 'run', 'keyword.control.run.flow'],
  ]);
});
