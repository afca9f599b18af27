'use strict';

// The test adapter with QUnit 1.23 (pages/vendor/qunit.js): the fixture pages of
// pages/fixtures/test run in the test DOM as `hybrid-run test` loads them, and the reporter
// events native receives are checked in order.
const test = require('node:test');
const assert = require('node:assert/strict');
const { runFixturePage, runFixturePageSlowHandshake, runTestPage, vendorScripts, AWKWARD } = require('../harness/test-page');
const { outline, protocolProblems } = require('../harness/transcript');

function ended(env, name) {
  const event = env.events('testEnd').find((entry) => entry.name === name);
  assert.ok(event, `no testEnd for "${name}" in ${JSON.stringify(outline(env))}`);
  return event;
}

async function finishedRun(page, settings) {
  const env = await runFixturePage(page, settings);
  assert.ok(env.reached, `no runEnd within the deadline: ${JSON.stringify(outline(env))}`);
  assert.deepEqual(protocolProblems(env), []);
  return env;
}

test('qunit/suite.html reports every test in order, with console output inside its test', async () => {
  const env = await finishedRun('qunit/suite.html');
  assert.deepEqual(outline(env), [
    'loaded qunit',
    'runStart qunit 6',
    'start math › adds',
    'console.log adding 1 + 1',
    'end math › adds: passed',
    'start math › subtracts wrongly',
    'end math › subtracts wrongly: failed',
    'start math › divides by zero',
    'end math › divides by zero: skipped',
    'start math › waits for a timer',
    'end math › waits for a timer: passed',
    'start math › throws',
    'end math › throws: failed',
    'start strings › case › upper-cases',
    'end strings › case › upper-cases: passed',
    'runEnd failed 3/2/1/0',
  ]);
  const start = env.events('runStart')[0];
  assert.equal(start.version, '1.23.1');
  const end = env.events('runEnd')[0];
  assert.deepEqual(end.counts, { passed: 3, failed: 2, skipped: 1, todo: 0 });
  assert.deepEqual(end.failures, []);
  assert.deepEqual(env.dom.errors, []);
});

test('a failed QUnit assertion carries its message, actual and expected', async () => {
  const env = await finishedRun('qunit/suite.html');
  const [failure, ...others] = ended(env, 'subtracts wrongly').failures;
  assert.deepEqual(others, []);
  assert.equal(failure.kind, 'assertion');
  assert.equal(failure.message, 'five minus three');
  assert.equal(failure.actual, '2');
  assert.equal(failure.expected, '3');
  assert.match(failure.stack, /suite\.html/);
});

test('an exception in a QUnit test is a failure of kind error', async () => {
  const env = await finishedRun('qunit/suite.html');
  const event = ended(env, 'throws');
  assert.equal(event.status, 'failed');
  assert.equal(event.failures.length, 1);
  const [failure] = event.failures;
  assert.equal(failure.kind, 'error');
  assert.match(failure.message, /^Died on test #1\b/);
  assert.ok(failure.message.endsWith("Cannot read properties of null (reading 'name')"), failure.message);
  assert.equal(failure.actual, null);
  assert.equal(failure.expected, null);
});

test('an async QUnit test ends only after its timer fired', async () => {
  const env = await finishedRun('qunit/suite.html');
  const names = env.events('testEnd').map((event) => event.name);
  const async = ended(env, 'waits for a timer');
  assert.equal(async.status, 'passed');
  assert.deepEqual(async.failures, []);
  assert.ok(names.indexOf('waits for a timer') < names.indexOf('throws'), 'tests run one after another');
  assert.ok(env.clock.now >= 20, `the 20 ms timer never ran (fake time ${env.clock.now})`);
});

test('qunit/all-pass.html passes', async () => {
  const env = await finishedRun('qunit/all-pass.html');
  assert.deepEqual(outline(env), [
    'loaded qunit',
    'runStart qunit 2',
    'start array › push adds an element',
    'end array › push adds an element: passed',
    'start array › indexOf finds an element',
    'end array › indexOf finds an element: passed',
    'runEnd passed 2/0/0/0',
  ]);
});

test('qunit/no-tests.html runs and ends with nothing in it', async () => {
  const env = await finishedRun('qunit/no-tests.html');
  assert.deepEqual(outline(env), ['loaded qunit', 'runStart qunit 0', 'runEnd passed 0/0/0/0']);
});

test('grep keeps the tests whose full name matches, before QUnit registers them', async () => {
  const env = await finishedRun('grep/qunit.html', { options: { grep: { source: 'checkout › pays', flags: '' } } });
  assert.deepEqual(outline(env), [
    'loaded qunit',
    'runStart qunit 2',
    'start checkout › pays by card',
    'end checkout › pays by card: passed',
    'start checkout › pays by invoice',
    'end checkout › pays by invoice: passed',
    'runEnd passed 2/0/0/0',
  ]);
});

test('grep honours its flags and grepInvert keeps the tests that do not match', async () => {
  const env = await finishedRun('grep/qunit.html', { options: { grep: { source: '^CART ', flags: 'ig' }, grepInvert: true } });
  assert.deepEqual(env.events('testEnd').map((event) => event.name), ['pays by card', 'pays by invoice']);
  assert.equal(env.events('runStart')[0].total, 2);
});

test('list mode names the tests QUnit would run, and runs none of them', async () => {
  const env = await runFixturePage('qunit/suite.html', { options: { list: true } });
  assert.ok(env.reached);
  assert.deepEqual(outline(env), ['loaded qunit', 'list 6']);
  assert.deepEqual(env.events('list')[0].tests, [
    { name: 'adds', suite: ['math'] },
    { name: 'subtracts wrongly', suite: ['math'] },
    { name: 'divides by zero', suite: ['math'] },
    { name: 'waits for a timer', suite: ['math'] },
    { name: 'throws', suite: ['math'] },
    { name: 'upper-cases', suite: ['strings', 'case'] },
  ]);
  assert.deepEqual(env.console(), [], 'no test body ran');
});

test('list mode with grep lists only the matching tests', async () => {
  const env = await runFixturePage('grep/qunit.html', { options: { list: true, grep: { source: 'card', flags: '' } } });
  assert.deepEqual(env.events('list')[0].tests, [{ name: 'pays by card', suite: ['checkout'] }]);
  assert.deepEqual(protocolProblems(env), []);
});

test('with QUnit.only, the run and list mode both have only the first focused test', async () => {
  const scripts = [...vendorScripts('qunit.js'), {
    file: '/fixtures/only.html#inline',
    code: `QUnit.test('before', function (assert) { console.log('before ran'); assert.ok(true); });
      QUnit.only('focused', function (assert) { assert.ok(true); });
      QUnit.only('second focus', function (assert) { assert.ok(true); });
      QUnit.test('after', function (assert) { assert.ok(true); });`,
  }];
  const run = await runTestPage({ scripts, body: '<div id="qunit"></div>' });
  assert.deepEqual(run.events('testEnd').map((event) => `${event.name}: ${event.status}`), ['focused: passed']);
  const listed = await runTestPage({ scripts, body: '<div id="qunit"></div>', options: { list: true } });
  assert.deepEqual(listed.events('list')[0].tests, [{ name: 'focused', suite: [] }]);
  assert.deepEqual(listed.console(), []);
});

test('testTimeout becomes QUnit\'s testTimeout: a Promise that never settles fails, the next test runs', async () => {
  const env = await finishedRun('timeout/qunit.html', { options: { testTimeout: 50 } });
  assert.deepEqual(outline(env), [
    'loaded qunit',
    'runStart qunit 2',
    'start sync › waits for a reply that never comes',
    'end sync › waits for a reply that never comes: failed',
    'start sync › still runs afterwards',
    'end sync › still runs afterwards: passed',
    'runEnd failed 1/1/0/0',
  ]);
  const [timedOut] = ended(env, 'waits for a reply that never comes').failures;
  assert.equal(timedOut.kind, 'error');
  assert.equal(timedOut.message, 'Test timed out');
  assert.ok(env.clock.now >= 50 && env.clock.now < 1000, `timed out at ${env.clock.now} ms`);
});

test('with framework "qunit" the run reports as with auto-detection', async () => {
  const auto = await finishedRun('qunit/suite.html');
  const forced = await finishedRun('qunit/suite.html', { options: { framework: 'qunit' } });
  assert.deepEqual(outline(forced), outline(auto));
});

test('with another framework forced, QUnit still runs but nothing is reported', async () => {
  const qunitDone = (env) => /Tests completed/.test(env.window.document.getElementById('qunit-testresult')?.textContent || '');
  for (const framework of ['mocha', 'jasmine', 'hybrid']) {
    const env = await runFixturePage('qunit/suite.html', { options: { framework }, until: qunitDone });
    assert.ok(env.reached, `QUnit did not finish with framework ${framework}`);
    assert.deepEqual(outline(env), ['loaded qunit', 'console.log adding 1 + 1'], framework);
  }
});

test('QUnit holds its first test until the bridge is ready, so console output stays inside it', async () => {
  const normal = await finishedRun('qunit/suite.html');
  const env = await runFixturePageSlowHandshake('qunit/suite.html');
  assert.deepEqual(env.held, [], 'nothing reaches native before the handshake, and no test body runs');
  assert.ok(env.reached);
  assert.deepEqual(outline(env), outline(normal));
});

test('QUnit\'s global failure (an uncaught error outside any test) is a failed test, grep or not', async () => {
  const scripts = [...vendorScripts('qunit.js'), {
    file: '/fixtures/global-failure.html#inline',
    code: "QUnit.test('fine', function (assert) { assert.ok(true); });\nthrow new Error('the page script broke');",
  }];
  for (const options of [{}, { grep: { source: 'fine', flags: '' } }]) {
    const env = await runTestPage({ scripts, body: '<div id="qunit"></div>', options });
    assert.ok(env.reached);
    assert.deepEqual(protocolProblems(env), []);
    const failed = env.events('testEnd').filter((event) => event.status === 'failed');
    assert.equal(failed.length, 1, JSON.stringify(outline(env)));
    assert.equal(failed[0].name, 'global failure');
    assert.match(failed[0].failures[0].message, /the page script broke/);
    assert.deepEqual(env.events('testEnd').filter((event) => event.name === 'fine').map((event) => event.status), ['passed']);
  }
});

test('names, messages and values survive byte-exact from a QUnit page', async () => {
  // QUnit's HTML reporter URI-encodes module names, which throws on a lone surrogate.
  const name = AWKWARD.replace('\uD800', '');
  const env = await runTestPage({
    scripts: [...vendorScripts('qunit.js'), {
      file: '/fixtures/awkward.html#inline',
      code: `QUnit.module(${JSON.stringify(name)});
        QUnit.test(${JSON.stringify(name)}, function (assert) {
          console.log(${JSON.stringify(AWKWARD)});
          assert.equal(${JSON.stringify(AWKWARD)} + '!', ${JSON.stringify(AWKWARD)}, ${JSON.stringify(AWKWARD)});
        });`,
    }],
    body: '<div id="qunit"></div>',
  });
  assert.ok(env.reached, JSON.stringify(outline(env)));
  const [end] = env.events('testEnd');
  assert.equal(end.name, name);
  assert.deepEqual(end.suite, [name]);
  assert.equal(end.failures[0].message, AWKWARD);
  assert.equal(end.failures[0].actual, JSON.stringify(AWKWARD + '!'));
  assert.equal(end.failures[0].expected, JSON.stringify(AWKWARD));
  assert.deepEqual(env.console(), [AWKWARD]);
});
