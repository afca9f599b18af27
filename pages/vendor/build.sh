#!/usr/bin/env bash
# Fills pages/vendor/ with the test frameworks the fixture pages under pages/fixtures/test load,
# all from Debian packages (README.md here lists them). Safe to run again: every output is
# rewritten from its source. Fails with the name of the Debian package that is missing.
set -euo pipefail

vendor="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
nodejs=/usr/share/nodejs
jasmine_core="$nodejs/jasmine-core/lib/jasmine-core"

missing() {
  echo "pages/vendor/build.sh: $1 is missing: install the Debian package $2 (apt-get install $2)" >&2
  exit 1
}

# need FILE PACKAGE: FILE must exist, PACKAGE provides it.
need() {
  [[ -e "$1" ]] || missing "$1" "$2"
}

copy() {
  need "$1" "$3"
  install -m 0644 "$1" "$2"
}

# QUnit 1.23 and chai, as Debian ships them for browsers.
copy /usr/share/javascript/qunit/qunit.js "$vendor/qunit.js" libjs-qunit
copy /usr/share/javascript/qunit/qunit.css "$vendor/qunit.css" libjs-qunit
copy /usr/share/javascript/chai/chai.js "$vendor/chai.js" libjs-chai

# Jasmine 4.5's standalone files and its example specs (Player and Song).
mkdir -p "$vendor/jasmine" "$vendor/jasmine-examples/spec" "$vendor/jasmine-examples/src"
for file in jasmine.js jasmine-html.js boot0.js boot1.js jasmine.css; do
  copy "$jasmine_core/$file" "$vendor/jasmine/$file" node-jasmine
done
for file in spec/PlayerSpec.js spec/SpecHelper.js src/Player.js src/Song.js; do
  copy "$jasmine_core/example/$file" "$vendor/jasmine-examples/$file" node-jasmine
done

# Mocha 10.1 for browsers: Debian ships only the Node.js package, so bundle its browser entry
# (what upstream's mocha.js is built from) with the Node.js built-ins it needs replaced by
# Debian's browser polyfills.
command -v esbuild >/dev/null || missing esbuild esbuild
need "$nodejs/mocha/browser-entry.js" mocha
need "$nodejs/mocha/mocha.css" mocha
need "$nodejs/buffer/index.js" node-buffer
need "$nodejs/events/package.json" node-events
need "$nodejs/util/package.json" node-util
need "$nodejs/process/browser.js" node-process
need "$nodejs/stream-browserify/index.js" node-stream-browserify
need "$nodejs/os-browserify/browser.js" node-os-browserify
need "$nodejs/tty-browserify/index.js" node-tty-browserify
need "$nodejs/browser-stdout/index.js" node-browser-stdout

version="$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$nodejs/mocha/package.json" | head -n 1)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# `process` and `Buffer` are globals in Node.js; the bundle gets Debian's browser versions.
cat > "$work/globals.js" <<'JS'
export { default as process } from 'process/browser.js';
export { Buffer } from 'buffer/';
JS
NODE_PATH="$nodejs" esbuild "$nodejs/mocha/browser-entry.js" \
  --bundle --platform=browser --format=iife --log-level=warning \
  --alias:stream=stream-browserify --alias:os=os-browserify/browser --alias:tty=tty-browserify \
  --alias:buffer=buffer/ \
  --inject:"$work/globals.js" --define:global=globalThis \
  --banner:js="// Mocha $version for browsers, bundled by pages/vendor/build.sh from Debian's mocha package (MIT; see /usr/share/doc/mocha/copyright)." \
  --outfile="$work/mocha.js"
install -m 0644 "$work/mocha.js" "$vendor/mocha.js"
copy "$nodejs/mocha/mocha.css" "$vendor/mocha.css" mocha

echo "pages/vendor: qunit.js, chai.js, jasmine/, jasmine-examples/, mocha.js (mocha $version) are ready"
