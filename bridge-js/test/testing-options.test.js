'use strict';

// The test adapter's options as native passes them, read defensively, and how the adapter
// installs itself: once per document, and only where the bridge is.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { bootTestPage, runFixturePage, runTestPage, htmlPage, ADAPTER, TEST_FIXTURES } = require('../harness/test-page');
const { outline, protocolProblems } = require('../harness/transcript');

const GREP_PAGE = 'grep/hybrid.html';
const ALL_GREP_TESTS = ['adds an item', 'removes an item', 'pays by card', 'pays by invoice'];

function names(env) {
  return env.events('testEnd').map((event) => event.name);
}

// A fixture page with the adapter installed by `adapterCode` (instead of the harness's own).
function withAdapter(page, adapterCode, settings = {}) {
  const loaded = htmlPage(path.join(TEST_FIXTURES, page));
  return runTestPage({
    ...loaded,
    adapter: false,
    scripts: [{ file: 'user-script:adapter.js', code: adapterCode }, ...loaded.scripts],
    ...settings,
  });
}

test('an invalid grep pattern is reported as an error and matches nothing', async () => {
  const env = await runFixturePage(GREP_PAGE, { options: { grep: { source: '(', flags: '' } } });
  assert.ok(env.reached);
  assert.deepEqual(protocolProblems(env), []);
  const [error, ...others] = env.events('error');
  assert.deepEqual(others, []);
  assert.match(error.message, /^SyntaxError: the grep pattern is not a valid JavaScript RegExp: /);
  assert.deepEqual(outline(env).slice(1), ['loaded hybrid', 'runStart hybrid 0', 'runEnd passed 0/0/0/0']);
});

test('grep ignores the g and y flags, which would make matching depend on the previous test', async () => {
  for (const flags of ['g', 'y', 'gy', 'gi']) {
    const env = await runFixturePage(GREP_PAGE, { options: { grep: { source: flags.includes('y') ? '' : 'a', flags } } });
    assert.deepEqual(names(env), ALL_GREP_TESTS, flags);
  }
});

test('a grep that is not a {source, flags} object means no grep', async () => {
  for (const grep of ['cart', 42, { flags: 'i' }, [], null]) {
    const env = await runFixturePage(GREP_PAGE, { options: { grep } });
    assert.deepEqual(names(env), ALL_GREP_TESTS, JSON.stringify(grep));
    assert.deepEqual(env.events('error'), []);
  }
});

test('grepInvert without a grep changes nothing, and only true turns it on', async () => {
  assert.deepEqual(names(await runFixturePage(GREP_PAGE, { options: { grepInvert: true } })), ALL_GREP_TESTS);
  const notTrue = await runFixturePage(GREP_PAGE, { options: { grep: { source: 'cart', flags: '' }, grepInvert: 'yes' } });
  assert.deepEqual(names(notTrue), ['adds an item', 'removes an item']);
});

test('an unknown framework name means auto-detection', async () => {
  for (const framework of ['bogus', 'QUnit', '', null, 3]) {
    const env = await runFixturePage('qunit/all-pass.html', { options: { framework } });
    assert.ok(env.reached, JSON.stringify(framework));
    assert.equal(env.events('runStart')[0].framework, 'qunit');
  }
});

test('a testTimeout that is not a positive number of milliseconds leaves the framework\'s default', async () => {
  for (const testTimeout of [0, -50, 'soon', Infinity, NaN, null]) {
    const env = await runFixturePage('timeout/hybrid.html', { options: { testTimeout } });
    assert.ok(env.reached, String(testTimeout));
    const [failure] = env.events('testEnd')[0].failures;
    assert.equal(failure.message, 'test timed out after 5000 ms (it returned a Promise that did not settle)', String(testTimeout));
  }
});

test('list must be exactly true', async () => {
  const env = await runFixturePage(GREP_PAGE, { options: { list: 'true' } });
  assert.deepEqual(names(env), ALL_GREP_TESTS);
  assert.deepEqual(env.events('list'), []);
});

test('events go to the handler the options name', async () => {
  const received = [];
  const loaded = htmlPage(path.join(TEST_FIXTURES, 'hybrid/all-pass.html'));
  const env = bootTestPage({ ...loaded, options: { handler: 'custom.reporter' } });
  env.native.handle('custom.reporter', (event) => { received.push(event.event); return null; });
  env.load();
  assert.ok(await env.runUntil(() => received.includes('runEnd')));
  assert.deepEqual(received, ['loaded', 'runStart', 'testStart', 'testEnd', 'testStart', 'testEnd', 'testStart', 'testEnd', 'runEnd']);
  assert.deepEqual(env.events(), [], 'nothing went to the default handler');
});

test('options that are not an object mean the defaults', async () => {
  for (const given of ['null', 'undefined', '"list"', '[]']) {
    const env = await withAdapter(GREP_PAGE, `(${ADAPTER})(${given});`);
    assert.ok(env.reached, given);
    assert.deepEqual(names(env), ALL_GREP_TESTS, given);
  }
});

test('a second injection into the same document does nothing', async () => {
  const options = (extra) => JSON.stringify({ framework: 'auto', grep: null, grepInvert: false, list: false, testTimeout: null, handler: 'hybridshell.test', ...extra });
  const env = await withAdapter(GREP_PAGE, `(${ADAPTER})(${options({})});\n(${ADAPTER})(${options({ list: true })});`);
  assert.ok(env.reached);
  assert.deepEqual(protocolProblems(env), []);
  assert.deepEqual(env.events('loaded').length, 1);
  assert.deepEqual(names(env), ALL_GREP_TESTS);
});

test('without the bridge the adapter does nothing and the page runs as it would anywhere', async () => {
  const qunitDone = (env) => /Tests completed/.test(env.window.document.getElementById('qunit-testresult')?.textContent || '');
  const env = await runFixturePage('qunit/all-pass.html', { pageScript: false, until: qunitDone });
  assert.ok(env.reached, 'QUnit did not finish');
  assert.deepEqual(env.events(), []);
  assert.equal(env.window.hybrid, undefined);
});

test('a page without any test framework only reports that none loaded', async () => {
  const env = await runFixturePage('no-framework.html', { until: (page) => page.events('loaded').length > 0 });
  assert.ok(env.reached);
  await env.clock.tick(10000);
  assert.deepEqual(outline(env), ['console.log this page has no tests', 'loaded ']);
});
