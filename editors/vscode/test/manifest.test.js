// The extension's declarations: package.json, language-configuration.json and the grammar are
// valid and name one another consistently, every dependency is pinned to the version the lock
// file installs, and the grammar has no rule that is never used or refers to nothing.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const oniguruma = require('vscode-oniguruma');
const {kExtensionDir, kGrammarPath, LoadGrammar} = require('./tokenize.js');

function ReadJson(relative) {
  return JSON.parse(fs.readFileSync(path.join(kExtensionDir, relative), 'utf8'));
}

const manifest = ReadJson('package.json');

test('package.json declares the language, its grammar, settings and command', () => {
  assert.equal(manifest.name, 'flowc');
  assert.equal(manifest.publisher, 'flowc');
  assert.ok(manifest.displayName);
  assert.match(manifest.version, /^\d+\.\d+\.\d+$/);
  assert.match(manifest.engines.vscode, /^\^\d+\.\d+\.\d+$/);
  assert.ok(fs.existsSync(path.join(kExtensionDir, manifest.main)), manifest.main);
  assert.deepEqual(manifest.activationEvents, ['onLanguage:flow']);

  const [language] = manifest.contributes.languages;
  assert.equal(manifest.contributes.languages.length, 1);
  assert.equal(language.id, 'flow');
  assert.deepEqual(language.extensions, ['.flow']);
  assert.ok(fs.existsSync(path.join(kExtensionDir, language.configuration)));

  const [grammar] = manifest.contributes.grammars;
  assert.equal(grammar.language, 'flow');
  assert.equal(path.resolve(kExtensionDir, grammar.path), kGrammarPath);
  assert.equal(grammar.scopeName, ReadJson(grammar.path).scopeName);

  const settings = manifest.contributes.configuration.properties;
  assert.deepEqual(Object.keys(settings).sort(), ['flowc.path', 'flowc.trace.server']);
  assert.equal(settings['flowc.path'].type, 'string');
  assert.equal(settings['flowc.path'].default, 'flowc');
  assert.deepEqual(settings['flowc.trace.server'].enum, ['off', 'messages', 'verbose']);
  assert.equal(settings['flowc.trace.server'].default, 'off');

  const extension = fs.readFileSync(path.join(kExtensionDir, manifest.main), 'utf8');
  for (const {command} of manifest.contributes.commands) {
    assert.ok(extension.includes(`'${command}'`), `${command} is not registered`);
  }
});

test('the READMEs install the .vsix that package.sh builds, of this version', () => {
  const vsix = `build/editors/flowc-${manifest.version}.vsix`;
  for (const readme of ['README.md', path.join('..', '..', 'docs', 'editors.md')]) {
    const text = fs.readFileSync(path.join(kExtensionDir, readme), 'utf8');
    assert.ok(text.includes(`code --install-extension ${vsix}`), `${readme} installs ${vsix}`);
  }
  assert.match(fs.readFileSync(path.join(kExtensionDir, 'package.sh'), 'utf8'),
               /--out "\$out\/flowc-\$version\.vsix"|vsix="\$out\/flowc-\$version\.vsix"/);
});

test('dependencies are pinned exactly and the lock file installs those versions', () => {
  const lock = ReadJson('package-lock.json');
  assert.equal(lock.name, manifest.name);
  for (const kind of ['dependencies', 'devDependencies']) {
    assert.deepEqual(lock.packages[''][kind], manifest[kind], kind);
    for (const [name, version] of Object.entries(manifest[kind])) {
      assert.match(version, /^\d+\.\d+\.\d+$/, `${name}@${version} is not an exact version`);
      assert.equal(lock.packages[`node_modules/${name}`].version, version, name);
    }
  }
  // The client library's own floor for VS Code must not be above the extension's.
  const floor = (range) => range.replace(/^\^/, '').split('.').map(Number);
  const client = lock.packages['node_modules/vscode-languageclient'];
  const [ours, theirs] = [floor(manifest.engines.vscode), floor(client.engines.vscode)];
  assert.ok(ours[0] > theirs[0] || (ours[0] === theirs[0] && ours[1] >= theirs[1]),
            `engines.vscode ${manifest.engines.vscode} < ${client.engines.vscode}`);
});

test('language-configuration.json: # comments, brackets, closing pairs outside strings', () => {
  const config = ReadJson('language-configuration.json');
  assert.deepEqual(config.comments, {lineComment: '#'});
  const brackets = [['{', '}'], ['[', ']'], ['(', ')']];
  assert.deepEqual(config.brackets, brackets);
  assert.deepEqual(config.surroundingPairs, [...brackets, ['"', '"']]);
  assert.deepEqual(config.autoClosingPairs.map((p) => [p.open, p.close]), [...brackets, ['"', '"']]);
  for (const pair of config.autoClosingPairs) {
    assert.deepEqual(pair.notIn, ['string', 'comment'], pair.open);
  }
  // VS Code compiles these as JavaScript regular expressions.
  const word = new RegExp(`^(?:${config.wordPattern})$`);
  for (const w of ['train_2', '_x', '-1', '0.5', '1e3']) assert.match(w, word);
  assert.doesNotMatch('a-b', word);
  const increase = new RegExp(config.indentationRules.increaseIndentPattern);
  const decrease = new RegExp(config.indentationRules.decreaseIndentPattern);
  assert.match('  step start {', increase);
  assert.match('@environment(vars={  # a comment', increase);
  assert.doesNotMatch('  run "echo {"', increase);
  assert.match('  }', decrease);
});

test('the grammar: every regex compiles, every include resolves, every rule is used', async () => {
  const grammar = ReadJson(path.relative(kExtensionDir, kGrammarPath));
  assert.equal(grammar.scopeName, 'source.flow');
  await LoadGrammar();  // loads the oniguruma WASM that OnigScanner needs
  const used = new Set();
  const walk = (rule, where) => {
    for (const key of ['match', 'begin', 'end']) {
      if (rule[key] === undefined) continue;
      assert.doesNotThrow(() => new oniguruma.OnigScanner([rule[key]]), `${where}.${key}`);
    }
    for (const key of ['name', 'contentName']) {
      if (rule[key]) assert.match(rule[key], /^[a-z-]+(\.[a-z0-9-]+)*\.flow$/, `${where}.${key}`);
    }
    for (const key of ['captures', 'beginCaptures', 'endCaptures']) {
      for (const [group, capture] of Object.entries(rule[key] || {})) {
        assert.match(capture.name, /\.flow$/, `${where}.${key}.${group}`);
      }
    }
    if (rule.include !== undefined) {
      assert.match(rule.include, /^#/, `${where}: only local includes`);
      const target = rule.include.slice(1);
      assert.ok(grammar.repository[target], `${where} includes the missing rule ${target}`);
      used.add(target);
    }
    (rule.patterns || []).forEach((p, i) => walk(p, `${where}.patterns[${i}]`));
  };
  walk({patterns: grammar.patterns}, 'grammar');
  for (const [name, rule] of Object.entries(grammar.repository)) walk(rule, name);
  assert.deepEqual(Object.keys(grammar.repository).filter((name) => !used.has(name)), []);
});
