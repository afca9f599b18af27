'use strict';

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const { boot } = require('../harness/boot');

const DSBRIDGE = fs.readFileSync(require.resolve('../../pages/fixtures/bridge/lib/dsbridge-compat.js'), 'utf8');

const SAMPLES = {
  quotes: '"\'`',
  backslashes: '\\ \\\\ \\u0041 \\n \\',
  scriptClose: '</script><!-- --><script>',
  lineSeparators: 'a\u2028b\u2029c',
  loneSurrogates: '\uD800 \uDBFF \uDC00 \uDFFF \uDC00\uD800',
  nul: 'a\u0000b\u0000',
  controls: '\u0001\b\f\n\r\t\u001f\u007f',
  emoji: '\uD83D\uDC69\u200D\uD83D\uDCBB \uD83C\uDDEF\uD83C\uDDF5',
  nonCharacters: '\uFFFE\uFFFF\uFEFF',
};

// Each dialect's way of asking native to echo a value.
const DIALECTS = {
  hybrid: (env, value) => env.hybrid.call('echo', value),
  pageHandler: (env, value) => env.native.callPage('page.echo', value),
  wvjb: (env, value) => new Promise((resolve) => env.window.WebViewJavascriptBridge.callHandler('echo', value, resolve)),
  dsbridgeSync: async (env, value) => env.window.dsBridge.call('echo', value),
  dsbridgeAsync: (env, value) => new Promise((resolve) => env.window.dsBridge.call('echo', value, resolve)),
  wx: (env, value) => new Promise((resolve) => env.window.wx.invokeHandler('echo', { value, success: (res) => resolve(res.value) })),
};

async function ready() {
  const env = boot({ content: (world) => world.run(DSBRIDGE) });
  await env.hybrid.ready;
  env.hybrid.register('page.echo', (value) => value);
  return env;
}

for (const [dialect, echo] of Object.entries(DIALECTS)) {
  test(`strings survive byte-exact through ${dialect}`, async () => {
    const env = await ready();
    for (const [name, value] of Object.entries(SAMPLES)) {
      const back = await echo(env, value);
      assert.strictEqual(back, value, `${name} changed`);
    }
    const all = Object.values(SAMPLES).join('|');
    assert.strictEqual(await echo(env, { [all]: [all] }).then((o) => o[all][0]), all, 'as a key and in an array');
  });
}

test('lone surrogates travel escaped, so every message is well-formed UTF-16', async () => {
  const env = await ready();
  await env.hybrid.call('echo', SAMPLES.loneSurrogates);
  const post = env.native.posts.at(-1);
  assert.ok(post.includes('"\\ud800 \\udbff \\udc00 \\udfff \\udc00\\ud800"'), post);
  assert.doesNotMatch(post, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
});

test('a 10 MB string survives both ways', async () => {
  const env = await ready();
  const big = 'x'.repeat(10 * 1024 * 1024 - 4) + '\u2028\uD800\u0000"';
  assert.strictEqual(await env.hybrid.call('echo', big), big);
  assert.strictEqual(await env.native.callPage('page.echo', big), big);
});
