'use strict';

// The test adapter's own `hybrid.test` API and `hybrid.assert`: the fixture pages of
// pages/fixtures/test run in the test DOM as `hybrid-run test` loads them, and the reporter
// events native receives are checked in order.
const test = require('node:test');
const assert = require('node:assert/strict');
const { bootTestPage, runFixturePage, runFixturePageSlowHandshake, runTestPage, vendorScripts, AWKWARD } = require('../harness/test-page');
const { outline, protocolProblems } = require('../harness/transcript');

const SUITE = [
  'loaded hybrid',
  'runStart hybrid 7',
  'start formats a price',
  'console.log formatting 3.5',
  'end formats a price: passed',
  'start formats a negative price',
  'end formats a negative price: failed',
  'end formats in yen: skipped',
  'end formats in bitcoin: todo',
  'start cart › loads the saved cart',
  'end cart › loads the saved cart: passed',
  'start cart › rejects an unknown item',
  'end cart › rejects an unknown item: passed',
  'start throws on a broken price',
  'end throws on a broken price: failed',
  'runEnd failed 3/2/1/1',
];

function ended(env, name) {
  const event = env.events('testEnd').find((entry) => entry.name === name);
  assert.ok(event, `no testEnd for "${name}" in ${JSON.stringify(outline(env))}`);
  return event;
}

function onlyFailure(env, name) {
  const event = ended(env, name);
  assert.equal(event.status, 'failed');
  assert.equal(event.failures.length, 1, JSON.stringify(event.failures));
  return event.failures[0];
}

async function finishedRun(page, settings) {
  const env = await runFixturePage(page, settings);
  assert.ok(env.reached, `no runEnd within the deadline: ${JSON.stringify(outline(env))}`);
  assert.deepEqual(protocolProblems(env), []);
  return env;
}

// A page made here: `code` as its one inline script.
async function hybridPage(code, settings = {}) {
  const env = await runTestPage({ scripts: [{ file: '/fixtures/hybrid-inline.html#inline', code }], ...settings });
  assert.ok(env.reached, `no runEnd or list: ${JSON.stringify(outline(env))}`);
  assert.deepEqual(protocolProblems(env), []);
  return env;
}

test('hybrid/suite.html reports every test in order, with console output inside its test', async () => {
  const env = await finishedRun('hybrid/suite.html');
  assert.deepEqual(outline(env), SUITE);
  assert.equal(env.events('runStart')[0].version, env.window.hybrid.version);
  assert.deepEqual(env.events('runEnd')[0].counts, { passed: 3, failed: 2, skipped: 1, todo: 1 });
  assert.deepEqual(env.dom.errors, []);
});

test('a failed hybrid.assert carries its message, actual and expected', async () => {
  const env = await finishedRun('hybrid/suite.html');
  const failure = onlyFailure(env, 'formats a negative price');
  assert.equal(failure.kind, 'assertion');
  assert.equal(failure.message, 'negative prices go in parentheses');
  assert.equal(failure.actual, '"-1.00 EUR"');
  assert.equal(failure.expected, '"(1.00 EUR)"');
  assert.match(failure.stack, /^AssertionError: negative prices go in parentheses\n/);
});

test('an exception in a hybrid test is a failure of kind error with the error\'s name', async () => {
  const env = await finishedRun('hybrid/suite.html');
  const failure = onlyFailure(env, 'throws on a broken price');
  assert.equal(failure.kind, 'error');
  assert.equal(failure.message, "TypeError: Cannot read properties of undefined (reading 'value')");
  assert.equal(failure.actual, null);
  assert.equal(failure.expected, null);
});

test('an async hybrid test ends when its Promise settles; skip and todo end without starting', async () => {
  const env = await finishedRun('hybrid/suite.html');
  const saved = ended(env, 'loads the saved cart');
  assert.equal(saved.status, 'passed');
  assert.deepEqual(saved.suite, ['cart']);
  assert.equal(saved.duration, 20, 'the test lasted its 20 ms timer (fake time)');
  assert.deepEqual(ended(env, 'formats in yen').failures, []);
  assert.equal(env.events('testStart').filter((event) => event.name === 'formats in yen' || event.name === 'formats in bitcoin').length, 0);
});

test('hybrid/all-pass.html passes', async () => {
  const env = await finishedRun('hybrid/all-pass.html');
  assert.deepEqual(outline(env), [
    'loaded hybrid',
    'runStart hybrid 3',
    'start adds',
    'end adds: passed',
    'start parses JSON',
    'end parses JSON: passed',
    'start throws on bad JSON',
    'end throws on bad JSON: passed',
    'runEnd passed 3/0/0/0',
  ]);
});

test('hybrid/no-tests.html: done() without tests is an empty, passed run', async () => {
  const env = await finishedRun('hybrid/no-tests.html');
  assert.deepEqual(outline(env), ['loaded hybrid', 'runStart hybrid 0', 'runEnd passed 0/0/0/0']);
});

test('hybrid/auto-end.html: without done() the run takes tests from every script and ends after load', async () => {
  const env = await finishedRun('hybrid/auto-end.html');
  assert.deepEqual(outline(env), [
    'loaded hybrid',
    'runStart hybrid null',
    'start runs from the first script',
    'end runs from the first script: passed',
    'start runs from a later script',
    'end runs from a later script: passed',
    'runEnd passed 2/0/0/0',
  ]);
});

test('without done() nothing ends before the load event', async () => {
  const env = bootTestPage({ scripts: [{ file: '/fixtures/no-done.html#inline', code: "hybrid.test('t', function () {});" }] });
  await env.clock.tick(10000);
  assert.deepEqual(outline(env), ['runStart hybrid null', 'start t', 'end t: passed']);
  env.load();
  assert.ok(await env.runUntil());
  assert.deepEqual(outline(env).slice(3), ['loaded hybrid', 'runEnd passed 1/0/0/0']);
});

test('a test registered after the run ended is not run, and the page is told why', async () => {
  const env = await hybridPage(`
    hybrid.test('on time', function () {});
    hybrid.test.done();
    window.addEventListener('load', function () {
      setTimeout(function () { hybrid.test('too late', function () { console.log('too late ran'); }); }, 100);
    });`);
  await env.clock.tick(1000);
  assert.deepEqual(env.events('testEnd').map((event) => event.name), ['on time']);
  assert.deepEqual(env.console().filter((text) => /too late/.test(text)).length, 1);
  assert.match(env.console().find((text) => /too late/.test(text)), /^hybrid\.test: "too late" was registered after the run ended/);
});

test('silenceUnloadAfterRun: after the run, the page\'s pagehide and visibilitychange handlers do not run', async () => {
  const code = `
    window.ran = [];
    addEventListener('pagehide', function () { window.ran.push('pagehide'); });
    document.addEventListener('visibilitychange', function () { window.ran.push('visibilitychange'); });
    hybrid.test('t', function () {});
    hybrid.test.done();`;
  const silenced = await hybridPage(code, { options: { silenceUnloadAfterRun: true } });
  silenced.dom.pagehide();
  silenced.window.dispatchEvent(new silenced.window.Event('visibilitychange'));
  assert.deepEqual([...silenced.window.ran], []);
  const plain = await hybridPage(code);
  plain.dom.pagehide();
  assert.deepEqual([...plain.window.ran], ['pagehide']);
});

test('hybrid/bridge.html: tests call native handlers through the bridge', async () => {
  const env = await finishedRun('hybrid/bridge.html');
  assert.deepEqual(outline(env), [
    'loaded hybrid',
    'runStart hybrid 3',
    'start echo returns its input',
    'end echo returns its input: passed',
    'start a mocked handler answers',
    'console.log mock.answer replied {"answer":42}',
    'end a mocked handler answers: passed',
    'start an unknown handler rejects with NOT_FOUND',
    'end an unknown handler rejects with NOT_FOUND: passed',
    'runEnd passed 3/0/0/0',
  ]);
});

// [name, test body, expected failure: null, or [kind, message, actual, expected]]
const ASSERTIONS = [
  ['ok passes', 'assert.ok(1)', null],
  ['ok fails', 'assert.ok(0)', ['assertion', 'expected 0 to be truthy', '0', 'true']],
  ['equal passes', "assert.equal('a', 'a')", null],
  ['equal is strict', "assert.equal(1, '1')", ['assertion', 'expected 1 to equal "1"', '1', '"1"']],
  ['notEqual fails', 'assert.notEqual(2, 2)', ['assertion', 'expected 2 not to equal 2', '2', '2']],
  ['deepEqual passes', 'assert.deepEqual({ a: [1, NaN, new Date(5)], m: new Map([[1, new Set([2])]]) }, { a: [1, NaN, new Date(5)], m: new Map([[1, new Set([2])]]) })', null],
  ['deepEqual compares cycles', 'var a = { n: 1 }; a.self = a; var b = { n: 1 }; b.self = b; assert.deepEqual(a, b)', null],
  ['deepEqual fails', 'assert.deepEqual({ a: [1, 2] }, { a: [1, 3] })', ['assertion', 'expected values to be deeply equal', '{"a":[1,2]}', '{"a":[1,3]}']],
  ['deepEqual tells prototypes apart', 'assert.deepEqual([1], { 0: 1 })', ['assertion', 'expected values to be deeply equal', '[1]', '{"0":1}']],
  ['notDeepEqual fails', "assert.notDeepEqual(new Set(['x']), new Set(['x']), 'sets match')", ['assertion', 'sets match', 'Set ["x"]', 'Set ["x"]']],
  ['throws passes with a RegExp', "assert.throws(function () { throw new RangeError('too big'); }, /too big/)", null],
  ['throws passes with a class', "assert.throws(function () { throw new RangeError('too big'); }, RangeError)", null],
  ['throws fails without a throw', "assert.throws(function () {}, 'it must throw')", ['assertion', 'it must throw', null, null]],
  ['throws fails on the wrong error', "assert.throws(function () { throw new TypeError('bad'); }, RangeError)", ['assertion', 'the thrown error did not match', 'TypeError: bad', '[Function: RangeError]']],
  ['rejects passes with a predicate', "return assert.rejects(Promise.reject({ code: 'X' }), function (e) { return e.code === 'X'; })", null],
  ['rejects fails on a resolved Promise', 'return assert.rejects(Promise.resolve(7))', ['assertion', 'expected the promise to reject, it resolved with 7', '7', null]],
  ['fail fails', "assert.fail('never here')", ['assertion', 'never here', null, null]],
  ['a thrown string is an error', "throw 'just text'", ['error', 'just text', null, null]],
  ['a rejected Promise is an error', "return Promise.reject(new SyntaxError('bad input'))", ['error', 'SyntaxError: bad input', null, null]],
];

test('hybrid.assert: each assertion passes or fails with its message, actual and expected', async () => {
  const code = ASSERTIONS.map(([name, body]) => `hybrid.test(${JSON.stringify(name)}, function () { var assert = hybrid.assert; ${body}; });`).join('\n');
  const env = await hybridPage(`${code}\nhybrid.test.done();`);
  assert.equal(env.events('testEnd').length, ASSERTIONS.length);
  for (const [name, , expected] of ASSERTIONS) {
    const event = ended(env, name);
    if (expected === null) {
      assert.equal(event.status, 'passed', `${name}: ${JSON.stringify(event.failures)}`);
      continue;
    }
    const [failure] = event.failures;
    assert.deepEqual([event.status, event.failures.length], ['failed', 1], name);
    assert.deepEqual([failure.kind, failure.message, failure.actual, failure.expected], expected, name);
  }
});

test('an uncaught error while a test runs fails that test; between tests it fails the run', async () => {
  const during = await hybridPage(`
    hybrid.test('waits', function () {
      setTimeout(function () { throw new Error('in a timer'); }, 5);
      return new Promise(function (resolve) { setTimeout(resolve, 10); });
    });
    hybrid.test('next', function () {});
    hybrid.test.done();`);
  assert.equal(onlyFailure(during, 'waits').message, 'Error: in a timer');
  assert.equal(ended(during, 'next').status, 'passed');
  assert.deepEqual(during.events('runEnd')[0].failures, []);

  // Without done() the run stays open until the load event, with no test running.
  const env = bootTestPage({ scripts: [{ file: '/fixtures/between.html#inline', code: `
    hybrid.test('quick', function () {});
    setTimeout(function () { throw new Error('between tests'); }, 5);` }] });
  await env.clock.tick(10);
  env.load();
  assert.ok(await env.runUntil());
  assert.deepEqual(outline(env).filter((line) => !line.startsWith('console.')), [
    'runStart hybrid null',
    'start quick',
    'end quick: passed',
    'loaded hybrid',
    'runEnd failed 1/0/0/0 +1 run failures',
  ]);
  assert.deepEqual(env.events('runEnd')[0].failures.map((failure) => [failure.kind, failure.message]), [['error', 'Error: between tests']]);
});

test('a test\'s timeout option, else testTimeout, else 5 s: a Promise that never settles fails and the next test runs', async () => {
  const env = await finishedRun('timeout/hybrid.html', { options: { testTimeout: 50 } });
  assert.deepEqual(outline(env), [
    'loaded hybrid',
    'runStart hybrid 2',
    'start waits for a reply that never comes',
    'end waits for a reply that never comes: failed',
    'start still runs afterwards',
    'end still runs afterwards: passed',
    'runEnd failed 1/1/0/0',
  ]);
  const failure = onlyFailure(env, 'waits for a reply that never comes');
  assert.deepEqual([failure.kind, failure.message], ['error', 'test timed out after 50 ms (it returned a Promise that did not settle)']);
  assert.equal(ended(env, 'waits for a reply that never comes').duration, 50);
  const byDefault = await finishedRun('timeout/hybrid.html');
  assert.equal(ended(byDefault, 'waits for a reply that never comes').duration, 5000);
  const own = await hybridPage("hybrid.test('own', function () { return new Promise(function () {}); }, { timeout: 30 }); hybrid.test.done();", { options: { testTimeout: 50 } });
  assert.equal(onlyFailure(own, 'own').message, 'test timed out after 30 ms (it returned a Promise that did not settle)');
});

test('grep keeps the tests whose full name matches; grepInvert the others', async () => {
  const env = await finishedRun('grep/hybrid.html', { options: { grep: { source: 'checkout › pays', flags: '' } } });
  assert.deepEqual(outline(env), [
    'loaded hybrid',
    'runStart hybrid 2',
    'start checkout › pays by card',
    'end checkout › pays by card: passed',
    'start checkout › pays by invoice',
    'end checkout › pays by invoice: passed',
    'runEnd passed 2/0/0/0',
  ]);
  const inverted = await finishedRun('grep/hybrid.html', { options: { grep: { source: 'by card$|^cart › adds', flags: '' }, grepInvert: true } });
  assert.deepEqual(inverted.events('testEnd').map((event) => event.name), ['removes an item', 'pays by invoice']);
});

test('list mode names the registered tests and runs none of them', async () => {
  const env = await runFixturePage('hybrid/suite.html', { options: { list: true } });
  assert.ok(env.reached);
  await env.clock.tick(10000);
  assert.deepEqual(outline(env), ['loaded hybrid', 'list 7']);
  assert.deepEqual(env.events('list')[0].tests.map((entry) => [...entry.suite, entry.name].join(' › ')), [
    'formats a price',
    'formats a negative price',
    'formats in yen',
    'formats in bitcoin',
    'cart › loads the saved cart',
    'cart › rejects an unknown item',
    'throws on a broken price',
  ]);
  assert.deepEqual(env.console(), [], 'no test body ran');
  const grepped = await runFixturePage('grep/hybrid.html', { options: { list: true, grep: { source: 'CARD', flags: 'i' } } });
  assert.deepEqual(grepped.events('list')[0].tests, [{ name: 'pays by card', suite: ['checkout'] }]);
});

test('with another framework forced, hybrid.test is not there and nothing is reported', async () => {
  const env = await runFixturePage('hybrid/all-pass.html', { options: { framework: 'qunit' }, until: (page) => page.events('loaded').length > 0 });
  assert.ok(env.reached);
  await env.clock.tick(10000);
  assert.deepEqual(outline(env), ['console.error TypeError: hybrid.test is not a function', 'loaded ']);
  assert.equal(env.window.hybrid.test, undefined);
});

test('on a page with QUnit and hybrid.test, the first to start reports unless the options pick one', async () => {
  const scripts = [...vendorScripts('qunit.js'), {
    file: '/fixtures/mixed.html#inline',
    code: "QUnit.test('q', function (assert) { assert.ok(true); });\nif (hybrid.test) hybrid.test('h', function () {});",
  }];
  const lines = async (options) => {
    const env = await runTestPage({ scripts, body: '<div id="qunit"></div>', options });
    assert.ok(env.reached);
    assert.deepEqual(protocolProblems(env), []);
    return outline(env).slice(1);
  };
  const hybridRun = ['runStart hybrid null', 'start h', 'end h: passed', 'runEnd passed 1/0/0/0'];
  assert.deepEqual(await lines({}), hybridRun);
  assert.deepEqual(await lines({ framework: 'hybrid' }), hybridRun);
  assert.deepEqual(await lines({ framework: 'qunit' }), ['runStart qunit 1', 'start q', 'end q: passed', 'runEnd passed 1/0/0/0']);
});

test('retry/index.html fails on its first document and passes on the next one', async () => {
  // The test server counts the attempts (GET attempt), as `hybrid-run test` runs it.
  let attempts = 0;
  const fetch = async () => ({ text: async () => String(++attempts) });
  const first = await finishedRun('retry/index.html', { fetch });
  assert.equal(onlyFailure(first, 'passes on the second attempt').message, 'flaky on purpose: attempt 1');
  assert.equal(attempts, 1);
  const second = await finishedRun('retry/index.html', { fetch });
  assert.deepEqual(outline(second), [
    'loaded hybrid',
    'runStart hybrid 1',
    'start passes on the second attempt',
    'console.log attempt 2',
    'end passes on the second attempt: passed',
    'runEnd passed 1/0/0/0',
  ]);
  assert.equal(attempts, 2);
});

test('navigates-away.html: the page going away mid-test ends that test and the run as incomplete', async () => {
  const env = await runFixturePage('navigates-away.html', { until: (page) => page.events('testStart').length === 2 });
  assert.ok(env.reached);
  env.dom.pagehide();
  await env.clock.tick(0);
  assert.deepEqual(outline(env).filter((line) => !line.startsWith('console.')), [
    'loaded hybrid',
    'runStart hybrid 3',
    'start checks the title',
    'end checks the title: passed',
    'start follows the checkout link',
    'end follows the checkout link: failed',
    'runEnd incomplete 1/1/0/0',
  ]);
  assert.match(onlyFailure(env, 'follows the checkout link').message, /page went away/);
  assert.deepEqual(protocolProblems(env), []);
});

test('hybrid tests wait for the bridge, so console output stays inside its test', async () => {
  const env = await runFixturePageSlowHandshake('hybrid/suite.html');
  assert.deepEqual(env.held, [], 'nothing reaches native before the handshake, and no test body runs');
  assert.ok(env.reached);
  assert.deepEqual(outline(env), SUITE);
});

test('names, messages and values survive byte-exact from hybrid.test', async () => {
  const text = JSON.stringify(AWKWARD);
  const env = await hybridPage(`
    hybrid.test.module(${text}, function () {
      hybrid.test(${text}, function () {
        console.log(${text});
        hybrid.assert.equal(${text} + '!', ${text}, ${text});
      });
      hybrid.test('throws', function () { throw new Error(${text}); });
    });
    hybrid.test.done();`);
  const [assertion, thrown] = env.events('testEnd');
  assert.equal(assertion.name, AWKWARD);
  assert.deepEqual(assertion.suite, [AWKWARD]);
  assert.deepEqual([assertion.failures[0].kind, assertion.failures[0].message], ['assertion', AWKWARD]);
  assert.equal(assertion.failures[0].actual, JSON.stringify(AWKWARD + '!'));
  assert.equal(assertion.failures[0].expected, JSON.stringify(AWKWARD));
  assert.equal(thrown.failures[0].message, `Error: ${AWKWARD}`);
  assert.deepEqual(env.console(), [AWKWARD]);
});
