// Tokenizes flow source with syntaxes/flow.tmLanguage.json through vscode-textmate and
// vscode-oniguruma, the libraries VS Code itself highlights with, so that the tests see the
// scopes an editor would show. Shared by the grammar tests.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const kExtensionDir = path.resolve(__dirname, '..');
const kGrammarPath = path.join(kExtensionDir, 'syntaxes', 'flow.tmLanguage.json');
const kRootScope = 'source.flow';

let grammarPromise = null;

function LoadGrammar() {
  if (grammarPromise) return grammarPromise;
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve('vscode-oniguruma')),
                                         'onig.wasm'));
  const onigLib = oniguruma.loadWASM(wasm.buffer).then(() => ({
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (text) => new oniguruma.OnigString(text),
  }));
  const registry = new vsctm.Registry({
    onigLib,
    loadGrammar: async (scopeName) => {
      if (scopeName !== kRootScope) return null;
      return vsctm.parseRawGrammar(fs.readFileSync(kGrammarPath, 'utf8'), kGrammarPath);
    },
  });
  grammarPromise = registry.loadGrammar(kRootScope);
  return grammarPromise;
}

// Every token of `text`: {line, col (both 1-based, col in UTF-16 units), text, scopes (without
// the root scope)}. Lines split as the lexer does, at \n with an optional \r before it.
async function Tokenize(text) {
  const grammar = await LoadGrammar();
  const tokens = [];
  let stack = vsctm.INITIAL;
  text.split(/\r?\n/).forEach((line, index) => {
    const result = grammar.tokenizeLine(line, stack);
    for (const token of result.tokens) {
      const piece = line.slice(token.startIndex, token.endIndex);
      if (piece === '') continue;
      tokens.push({line: index + 1, col: token.startIndex + 1, text: piece,
                   scopes: token.scopes.filter((scope) => scope !== kRootScope)});
    }
    stack = result.ruleStack;
  });
  return tokens;
}

// The golden form of a file's tokens: one line per token that has a scope of its own (blanks
// that only sit inside a meta region are left out), "LINE:COL<tab>TEXT as JSON<tab>scopes".
function FormatScopes(tokens) {
  const shown = (t) => t.scopes.length > 0 &&
      !(/^\s+$/.test(t.text) && t.scopes.every((scope) => scope.startsWith('meta.')));
  return tokens.filter(shown)
      .map((t) => `${t.line}:${t.col}\t${JSON.stringify(t.text)}\t${t.scopes.join(' ')}\n`)
      .join('');
}

module.exports = {kExtensionDir, kGrammarPath, kRootScope, LoadGrammar, Tokenize, FormatScopes};
