// The grammar against the language's lexer: a transcription of grammar/FlowLexer.g4's rules
// (ANTLR's longest match, the first rule on a tie) classifies every character of a document,
// and the scopes vscode-textmate gives each character must say the same class. Run on every
// sample and on thousands of random documents built from the fragments where highlighters go
// wrong (quotes, backslashes, #, braces, keywords glued to numbers). The one difference that a
// line-by-line TextMate grammar cannot avoid is left out: a """ that never closes (the lexer
// then reads "" and a string; the grammar colours the rest of the file as the raw string the
// user is still typing).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const {kExtensionDir, Tokenize} = require('./tokenize.js');

const kRepo = path.resolve(kExtensionDir, '..', '..');
const kKeywords = new Set(['flow', 'step', 'param', 'next', 'foreach', 'run']);
const kConstants = new Set(['true', 'false', 'null']);

// FlowLexer.g4's rules in its order; the class of what each matches.
const kRules = [
  ['punct', /[@(){}[\],:=]/y],
  ['raw', /"""[\s\S]*?"""/y],
  ['string', /"(?:\\[^\r\n]|[^"\\\r\n])*"?/y],
  ['number', /-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y],
  ['ident', /[A-Za-z_][A-Za-z0-9_]*/y],
  ['comment', /#[^\r\n]*/y],
  ['ws', /[ \t\r\n]+/y],
  ['error', /./suy],
];

// The class of every UTF-16 unit of `text`, or null when it holds a """ that never closes.
function LexClasses(text) {
  const classes = new Array(text.length);
  let pos = 0;
  while (pos < text.length) {
    let best = null;
    let length = 0;
    for (const [kind, rule] of kRules) {
      rule.lastIndex = pos;
      const match = rule.exec(text);
      if (match && match[0].length > length) [best, length] = [kind, match[0].length];
    }
    if (best === 'string' && text.startsWith('"""', pos)) return null;
    if (best === 'ident') {
      const word = text.slice(pos, pos + length);
      if (kKeywords.has(word)) best = 'keyword';
      if (kConstants.has(word)) best = 'constant';
    }
    classes.fill(best, pos, pos + length);
    pos += length;
  }
  return classes;
}

// The class a character's scopes stand for (the innermost that decides it).
function ScopeClass(scopes) {
  const has = (prefix) => scopes.some((s) => s.startsWith(prefix));
  if (has('comment.')) return 'comment';
  if (has('string.quoted.triple.')) return 'raw';
  if (has('string.quoted.double.')) return 'string';
  if (has('constant.numeric.')) return 'number';
  if (has('constant.language.')) return 'constant';
  if (has('storage.type.') || has('keyword.control.')) return 'keyword';
  if (has('invalid.illegal.character.')) return 'error';
  if (has('punctuation.') || has('keyword.operator.')) return 'punct';
  if (has('entity.name.') || has('variable.') || has('support.type.')) return 'ident';
  return 'ws';
}

async function GrammarClasses(text) {
  const lineStarts = [0];
  for (let i = 0; i < text.length; ++i) if (text[i] === '\n') lineStarts.push(i + 1);
  const classes = new Array(text.length).fill('ws');  // the newlines no token holds
  for (const token of await Tokenize(text)) {
    const start = lineStarts[token.line - 1] + token.col - 1;
    classes.fill(ScopeClass(token.scopes), start, start + token.text.length);
  }
  return classes;
}

async function AssertSameClasses(text, label) {
  const expected = LexClasses(text);
  if (expected === null) return false;
  const actual = await GrammarClasses(text);
  for (let i = 0; i < text.length; ++i) {
    // A newline is in no TextMate token; the lexer's class of it is the token around it.
    if (text[i] !== '\n' && actual[i] !== expected[i]) {
      const lines = text.slice(0, i).split('\n');
      const where = `${label}:${lines.length}:${lines[lines.length - 1].length + 1}`;
      assert.fail(`${where}: the lexer reads ${JSON.stringify(text[i])} as ${expected[i]}, ` +
                  `the grammar as ${actual[i]}, in the line ` +
                  JSON.stringify(text.split('\n')[lines.length - 1]) +
                  (text.length < 400 ? ` of ${JSON.stringify(text)}` : ''));
    }
  }
  return true;
}

// A small deterministic generator (mulberry32), so that a failure is reproducible.
function Random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const kFragments = [
  '"', '"', '"', '"""', '\\', '\\', '\\"', '\\u{e9}', '\\u{', '#', '{', '{{', '}}', '}', ' ',
  ' ', '\n', '\n', '\t', 'a', 'x_1', 'item', 'step', 'run', 'next', 'foreach', 'flow', 'param',
  'true', 'null', 'falsey', '1', '-', '-2', '.', '0.5', 'e', '1e3', 'E+', '@', '(', ')', '=',
  ',', ':', '[', ']', 'é', '🚀', '$', 'n', 't', 'u',
];

test('the lexer and the grammar classify every character of the samples alike', async () => {
  for (const dir of ['samples', path.join('tests', 'flows')]) {
    for (const name of fs.readdirSync(path.join(kRepo, dir)).filter((n) => n.endsWith('.flow'))) {
      const file = path.join(kRepo, dir, name);
      assert.ok(await AssertSameClasses(fs.readFileSync(file, 'utf8'), file));
    }
  }
});

test('the lexer and the grammar classify random documents alike', async () => {
  const random = Random(20261127);
  let compared = 0;
  for (let n = 0; n < 3000; ++n) {
    const pieces = [];
    const count = 1 + Math.floor(random() * 30);
    for (let i = 0; i < count; ++i) pieces.push(kFragments[Math.floor(random() * kFragments.length)]);
    if (await AssertSameClasses(pieces.join(''), `random document ${n}`)) ++compared;
  }
  // Most documents must really be compared, not skipped as an unclosed """.
  assert.ok(compared > 2000, `only ${compared} of 3000 documents compared`);
});
