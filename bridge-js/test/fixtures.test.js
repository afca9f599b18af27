'use strict';

// Runs the fixture pages of pages/fixtures/bridge against the fake native, to prove the pages
// themselves before the Swift tests run them in WebKit.
const test = require('node:test');
const assert = require('node:assert');
const { runFixture } = require('../harness/fixture-page');

// Only the WebViewJavascriptBridge pages wait for the bridge; the others use it as their scripts
// run, so they need page.js at document start (HybridShell's default). The queue page needs the
// session before its first ping, which native ignores otherwise.
const CASES = [
  { page: 'wvjb-v6.html', dialect: 'wvjb', orders: ['relay-first', 'dynamic'] },
  { page: 'wvjb-v5.html', dialect: 'wvjb', orders: ['relay-first', 'dynamic'] },
  { page: 'wvjb-v4.html', dialect: 'wvjb', orders: ['relay-first', 'dynamic'] },
  { page: 'wvjb-queue.html', dialect: 'wvjb-queue', orders: ['relay-first'] },
  { page: 'dsbridge.html', dialect: 'dsbridge', orders: ['relay-first', 'page-first'] },
  { page: 'wx.html', dialect: 'wx', orders: ['relay-first', 'page-first'], show: true },
  { page: 'hybrid.html', dialect: 'hybrid', orders: ['relay-first', 'page-first'] },
  { page: 'unicode.html', dialect: 'unicode', orders: ['relay-first'] },
  { page: 'unicode-shift-jis.html', dialect: 'unicode', orders: ['relay-first'] },
];

for (const { page, dialect, orders, show } of CASES) {
  for (const order of orders) {
    test(`${page} passes every check (${order})`, async () => {
      const afterLoad = show ? async (env) => { await env.hybrid.ready; env.native.emit('show'); } : undefined;
      const { env, report } = await runFixture(page, { order, afterLoad });
      assert.ok(report, `no report; console: ${JSON.stringify(env.logs())}`);
      assert.strictEqual(report.dialect, dialect);
      assert.strictEqual(report.error, undefined);
      const checks = Object.entries(report.checks);
      assert.ok(checks.length > 0);
      assert.deepStrictEqual(checks.filter(([, passed]) => passed !== true), []);
      assert.deepStrictEqual(env.dom.errors, []);
    });
  }
}

test('wvjb-v6.html bootstraps through https://__bridge_loaded__ when page.js comes late', async () => {
  const { env } = await runFixture('wvjb-v6.html', { order: 'dynamic' });
  assert.deepStrictEqual(env.dom.navigations, ['https://__bridge_loaded__']);
});

test('wvjb-v5.html bootstraps through wvjbscheme://__BRIDGE_LOADED__ when page.js comes late', async () => {
  const { env } = await runFixture('wvjb-v5.html', { order: 'dynamic' });
  assert.deepStrictEqual(env.dom.navigations, ['wvjbscheme://__BRIDGE_LOADED__']);
});

test('wvjb-queue.html talks to native only through URL interception', async () => {
  const { env } = await runFixture('wvjb-queue.html');
  const calls = env.native.posts.slice(1).flatMap((post) => JSON.parse(post).m).filter((frame) => frame.t === 'call');
  assert.deepStrictEqual(calls, []);
  assert.ok(env.dom.navigations.every((url) => url === 'https://__wvjb_queue_message__'));
});
