#!/usr/bin/env bash
# Tests and packages the VS Code extension, offline once its packages are installed:
#   1. npm ci from the lock file, only when node_modules is missing or was installed from
#      another lock file (the network is needed only then);
#   2. the extension's tests (node --test: grammar, client, manifest);
#   3. vsce package into OUT_DIR/flowc-VERSION.vsix, then checks what is inside: the extension
#      and its runtime dependency vscode-languageclient, whole (extension.js is loaded from the
#      unpacked .vsix, with only the `vscode` module stood in for), and nothing only for building.
#
#   editors/vscode/package.sh [OUT_DIR]      (default: build/editors at the repository's top)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "${1:-$here/../../build/editors}" && cd "${1:-$here/../../build/editors}" && pwd)
cd "$here"

lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
stamp=node_modules/.flowc-lock-sha256
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_sum" ]; then
  # --ignore-scripts: no package needs an install script to be tested or packaged, and one
  # (keytar, an optional dependency of vsce used only to publish) would fetch a prebuilt binary.
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  echo "$lock_sum" >"$stamp"
fi

node --test --test-reporter=spec test/*.test.js

version=$(node -p 'require("./package.json").version')
vsix="$out/flowc-$version.vsix"
rm -f "$vsix"
# No repository or LICENSE to declare: the project has neither, so vsce is told not to ask.
npm_config_offline=true npx --no-install vsce package --skip-license --allow-missing-repository \
  --out "$vsix" >/dev/null
contents=$(unzip -l "$vsix")
for file in extension/package.json extension/extension.js extension/readme.md \
            extension/language-configuration.json extension/syntaxes/flow.tmLanguage.json \
            extension/node_modules/vscode-languageclient/node.js \
            extension/node_modules/vscode-languageserver-protocol/package.json \
            extension/node_modules/vscode-jsonrpc/package.json; do
  grep -q " $file\$" <<<"$contents" || { echo "package.sh: $vsix lacks $file" >&2; exit 1; }
done
for unwanted in extension/test/ extension/node_modules/@vscode/vsce/ extension/node_modules/vscode-textmate/; do
  if grep -q " $unwanted" <<<"$contents"; then
    echo "package.sh: $vsix holds $unwanted, which is only for building" >&2
    exit 1
  fi
done
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
unzip -q "$vsix" -d "$unpacked"
node -e '
  const Module = require("node:module");
  const load = Module._load;
  // VS Code provides `vscode`; a class for every name it is asked for is enough to load.
  const vscode = new Proxy({}, {get: (names, name) => names[name] || (names[name] = class {})});
  Module._load = function(request, ...rest) {
    return request === "vscode" ? vscode : load.call(this, request, ...rest);
  };
  const extension = require(process.argv[1]);
  const client = require(require.resolve("vscode-languageclient/node", {paths: [process.argv[1]]}));
  if (typeof extension.activate !== "function" || typeof client.LanguageClient !== "function") {
    throw new Error("the packaged extension does not load");
  }' "$unpacked/extension/extension.js"
echo "package.sh: $vsix ($(wc -c <"$vsix") bytes, $(grep -c ' extension/' <<<"$contents") files)"
