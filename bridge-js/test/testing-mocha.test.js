'use strict';

// The test adapter with Mocha 10 and chai (pages/vendor): the fixture pages of
// pages/fixtures/test run in the test DOM, Mocha's HTML reporter included, as `hybrid-run test`
// loads them, and the reporter events native receives are checked in order.
const test = require('node:test');
const assert = require('node:assert/strict');
const { runFixturePage, runFixturePageSlowHandshake, runTestPage, vendorScripts, AWKWARD } = require('../harness/test-page');
const { outline, protocolProblems } = require('../harness/transcript');

const SUITE = [
  'loaded mocha',
  'runStart mocha 9',
  'start cart › starts empty',
  'console.log cart is []',
  'end cart › starts empty: passed',
  'start cart › totals the prices',
  'end cart › totals the prices: failed',
  'start cart › keeps items in order',
  'end cart › keeps items in order: failed',
  'end cart › applies coupons: skipped',
  'start cart › saves after a while',
  'end cart › saves after a while: passed',
  'start cart › loads from a promise',
  'end cart › loads from a promise: passed',
  'start cart › throws on a missing item',
  'end cart › throws on a missing item: failed',
  'start cart › discounts › "before all" hook for "takes 10% off"',
  'end cart › discounts › "before all" hook for "takes 10% off": failed',
  'start cart › checkout › pays',
  'end cart › checkout › pays: passed',
  'start cart › checkout › "after all" hook for "pays"',
  'end cart › checkout › "after all" hook for "pays": failed',
  'runEnd failed 4/5/1/0',
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

// A page made here: chai and Mocha, then `code` between mocha.setup('bdd') and mocha.run().
function mochaPage(code, settings = {}) {
  return runTestPage({
    scripts: [...vendorScripts('chai.js', 'mocha.js'), { file: '/fixtures/mocha-inline.html#inline', code: `mocha.setup('bdd');\n${code}\nmocha.run();` }],
    body: '<div id="mocha"></div>',
    ...settings,
  });
}

test('mocha/suite.html reports every test and hook failure in order, with console output inside its test', async () => {
  const env = await finishedRun('mocha/suite.html');
  assert.deepEqual(outline(env), SUITE);
  assert.equal(env.events('runStart')[0].version, '10.1.0');
  const end = env.events('runEnd')[0];
  assert.deepEqual(end.counts, { passed: 4, failed: 5, skipped: 1, todo: 0 });
  assert.deepEqual(end.failures, []);
  assert.deepEqual(env.dom.errors, []);
});

test('a failed chai assertion carries actual and expected as the test saw them, not as Mocha\'s reporter rewrote them', async () => {
  const env = await finishedRun('mocha/suite.html');
  const total = onlyFailure(env, 'totals the prices');
  assert.deepEqual([total.kind, total.message, total.actual, total.expected], ['assertion', 'expected 7 to equal 8', '7', '8']);
  const order = onlyFailure(env, 'keeps items in order');
  assert.equal(order.kind, 'assertion');
  assert.equal(order.message, "expected [ 'a', 'b' ] to deeply equal [ 'b', 'a' ]");
  assert.equal(order.actual, '["a","b"]');
  assert.equal(order.expected, '["b","a"]');
  assert.match(order.stack, /suite\.html/);
});

test('an exception in a Mocha test is a failure of kind error with the error\'s name', async () => {
  const env = await finishedRun('mocha/suite.html');
  const failure = onlyFailure(env, 'throws on a missing item');
  assert.equal(failure.kind, 'error');
  assert.equal(failure.message, "TypeError: Cannot read properties of undefined (reading 'price')");
  assert.equal(failure.actual, null);
  assert.equal(failure.expected, null);
});

test('done-callback and Promise tests pass once they finish', async () => {
  const env = await finishedRun('mocha/suite.html');
  assert.equal(ended(env, 'saves after a while').status, 'passed');
  assert.equal(ended(env, 'loads from a promise').status, 'passed');
  assert.ok(env.clock.now >= 20, `the 20 ms timer never ran (fake time ${env.clock.now})`);
});

test('a failing before-all hook is a failed test of its own, and its suite\'s tests are not reported', async () => {
  const env = await finishedRun('mocha/suite.html');
  const hook = ended(env, '"before all" hook for "takes 10% off"');
  assert.deepEqual(hook.suite, ['cart', 'discounts']);
  assert.equal(hook.failures.length, 1);
  assert.equal(hook.failures[0].kind, 'error');
  assert.equal(hook.failures[0].message, 'Error: the discount service is down');
  assert.equal(env.events().filter((event) => event.name === 'takes 10% off').length, 0);
});

test('a failing after-all hook is a failed test after the tests it followed', async () => {
  const env = await finishedRun('mocha/suite.html');
  assert.equal(ended(env, 'pays').status, 'passed');
  const hook = ended(env, '"after all" hook for "pays"');
  assert.deepEqual(hook.suite, ['cart', 'checkout']);
  assert.equal(hook.failures[0].message, 'Error: could not close the session');
});

test('a failing beforeEach fails its test; a failing afterEach, after its test ended, is a failed test of its own', async () => {
  const env = await mochaPage(`
    describe('a', function () {
      beforeEach(function () { if (this.currentTest.title === 'second') throw new Error('setup broke'); });
      it('first', function () {});
      it('second', function () { console.log('second ran'); });
      it('third', function () {});
    });
    describe('b', function () {
      afterEach(function () { throw new Error('teardown broke'); });
      it('one', function () {});
      it('two', function () {});
    });`);
  assert.ok(env.reached);
  assert.deepEqual(protocolProblems(env), []);
  assert.deepEqual(outline(env), [
    'loaded mocha',
    'runStart mocha 5',
    'start a › first',
    'end a › first: passed',
    'start a › second',
    'end a › second: failed',
    'start b › one',
    'end b › one: passed',
    'start b › "after each" hook for "one"',
    'end b › "after each" hook for "one": failed',
    'runEnd failed 2/2/0/0',
  ]);
  assert.equal(onlyFailure(env, 'second').message, '"before each" hook for "second": Error: setup broke');
  assert.equal(onlyFailure(env, '"after each" hook for "one"').message, 'Error: teardown broke');
});

test('a retried test is one test: its attempts\' output inside it, one testEnd', async () => {
  const env = await mochaPage(`
    var attempts = 0;
    describe('flaky', function () {
      this.retries(2);
      it('passes on the third attempt', function () {
        attempts++;
        console.log('attempt ' + attempts);
        if (attempts < 3) throw new Error('attempt ' + attempts);
      });
      it('never passes', function () { throw new Error('always'); });
    });`);
  assert.ok(env.reached);
  assert.deepEqual(protocolProblems(env), []);
  assert.deepEqual(outline(env), [
    'loaded mocha',
    'runStart mocha 2',
    'start flaky › passes on the third attempt',
    'console.log attempt 1',
    'console.log attempt 2',
    'console.log attempt 3',
    'end flaky › passes on the third attempt: passed',
    'start flaky › never passes',
    'end flaky › never passes: failed',
    'runEnd failed 1/1/0/0',
  ]);
  assert.deepEqual(ended(env, 'passes on the third attempt').failures, []);
  assert.equal(onlyFailure(env, 'never passes').message, 'Error: always');
});

test('this.skip() and describe.skip are skipped tests; it.only leaves the others out', async () => {
  const env = await mochaPage(`
    describe('s', function () {
      it('skips itself', function () { console.log('before skip'); this.skip(); });
      describe.skip('later', function () { it('not now', function () {}); });
      it('runs', function () {});
    });`);
  assert.deepEqual(protocolProblems(env), []);
  assert.deepEqual(outline(env), [
    'loaded mocha',
    'runStart mocha 3',
    'start s › skips itself',
    'console.log before skip',
    'end s › skips itself: skipped',
    'start s › runs',
    'end s › runs: passed',
    'end s › later › not now: skipped',
    'runEnd passed 1/0/2/0',
  ]);
  const only = await mochaPage("describe('o', function () { it('left out', function () {}); it.only('focused', function () {}); });");
  assert.deepEqual(outline(only).slice(2), ['start o › focused', 'end o › focused: passed', 'runEnd passed 1/0/0/0']);
});

test('an uncaught error during a test fails it; a failure after a test ended fails the run', async () => {
  const env = await mochaPage(`
    describe('u', function () {
      it('throws in a timer', function (done) {
        setTimeout(function () { throw new Error('late boom'); }, 5);
        setTimeout(done, 50);
      });
      it('calls done twice', function (done) { done(); setTimeout(function () { done(); }, 1); });
      it('after', function (done) { setTimeout(done, 10); });
    });`);
  assert.ok(env.reached);
  assert.deepEqual(protocolProblems(env), []);
  assert.deepEqual(outline(env).filter((line) => !line.startsWith('console.')), [
    'loaded mocha',
    'runStart mocha 3',
    'start u › throws in a timer',
    'end u › throws in a timer: failed',
    'start u › calls done twice',
    'end u › calls done twice: passed',
    'start u › after',
    'end u › after: passed',
    'runEnd failed 2/1/0/0 +1 run failures',
  ]);
  assert.match(onlyFailure(env, 'throws in a timer').message, /late boom/);
  const [late] = env.events('runEnd')[0].failures;
  assert.equal(late.kind, 'error');
  assert.match(late.message, /^u › calls done twice: Error: done\(\) called multiple times/);
});

test('mocha/all-pass.html passes', async () => {
  const env = await finishedRun('mocha/all-pass.html');
  assert.deepEqual(outline(env), [
    'loaded mocha',
    'runStart mocha 2',
    'start String › #trim() › removes surrounding spaces',
    'end String › #trim() › removes surrounding spaces: passed',
    'start String › #split() › splits on a separator',
    'end String › #split() › splits on a separator: passed',
    'runEnd passed 2/0/0/0',
  ]);
});

test('mocha/empty.html runs and ends with nothing in it', async () => {
  const env = await finishedRun('mocha/empty.html');
  assert.deepEqual(outline(env), ['loaded mocha', 'runStart mocha 0', 'runEnd passed 0/0/0/0']);
});

test('mocha/not-started.html: Mocha is loaded but never runs, so only `loaded` is sent', async () => {
  const env = await runFixturePage('mocha/not-started.html', { until: (page) => page.events('loaded').length > 0 });
  assert.ok(env.reached);
  await env.clock.tick(10000);
  assert.deepEqual(outline(env), ['loaded mocha']);
});

test('mocha/describe-throws.html: an error in the page\'s own describe is not a framework error', async () => {
  const env = await runFixturePage('mocha/describe-throws.html', { until: (page) => page.events('loaded').length > 0 });
  assert.ok(env.reached);
  await env.clock.tick(10000);
  assert.deepEqual(outline(env), ['console.error TypeError: window.loadSettings is not a function', 'loaded mocha']);
});

test('mocha/bad-reporter.html: Mocha throwing while it is set up is one `error` event', async () => {
  const env = await runFixturePage('mocha/bad-reporter.html', { until: (page) => page.events('loaded').length > 0 });
  assert.ok(env.reached);
  await env.clock.tick(10000);
  const lines = outline(env);
  assert.equal(lines.length, 3, JSON.stringify(lines));
  assert.match(lines[0], /^console\.error TypeError: /);
  assert.equal(lines[1], `error ${lines[0].slice('console.error '.length)}`);
  assert.equal(lines[2], 'loaded mocha');
  assert.match(env.events('error')[0].stack, /mocha\.js/);
});

test('grep keeps the tests whose full name matches; grepInvert the others', async () => {
  const env = await finishedRun('grep/mocha.html', { options: { grep: { source: 'checkout › pays', flags: '' } } });
  assert.deepEqual(outline(env), [
    'loaded mocha',
    'runStart mocha 2',
    'start checkout › pays by card',
    'end checkout › pays by card: passed',
    'start checkout › pays by invoice',
    'end checkout › pays by invoice: passed',
    'runEnd passed 2/0/0/0',
  ]);
  const inverted = await finishedRun('grep/mocha.html', { options: { grep: { source: 'by card$|^cart › adds', flags: '' }, grepInvert: true } });
  assert.deepEqual(inverted.events('testEnd').map((event) => event.name), ['removes an item', 'pays by invoice']);
});

test('list mode names the tests Mocha would run, and runs no test or hook', async () => {
  const env = await runFixturePage('mocha/suite.html', { options: { list: true } });
  assert.ok(env.reached);
  await env.clock.tick(10000);
  assert.deepEqual(outline(env), ['list 9', 'loaded mocha']);
  assert.deepEqual(env.events('list')[0].tests.map((entry) => [...entry.suite, entry.name].join(' › ')), [
    'cart › starts empty',
    'cart › totals the prices',
    'cart › keeps items in order',
    'cart › applies coupons',
    'cart › saves after a while',
    'cart › loads from a promise',
    'cart › throws on a missing item',
    'cart › discounts › takes 10% off',
    'cart › checkout › pays',
  ]);
  assert.deepEqual(env.console(), [], 'no test body or hook ran');
});

test('list mode with grep lists only the matching tests', async () => {
  const env = await runFixturePage('grep/mocha.html', { options: { list: true, grep: { source: 'CARD', flags: 'i' } } });
  assert.deepEqual(env.events('list')[0].tests, [{ name: 'pays by card', suite: ['checkout'] }]);
  assert.deepEqual(protocolProblems(env), []);
});

test('testTimeout becomes Mocha\'s timeout: a Promise that never settles fails, the next test runs', async () => {
  const env = await finishedRun('timeout/mocha.html', { options: { testTimeout: 50 } });
  assert.deepEqual(outline(env), [
    'loaded mocha',
    'runStart mocha 2',
    'start sync › waits for a reply that never comes',
    'end sync › waits for a reply that never comes: failed',
    'start sync › still runs afterwards',
    'end sync › still runs afterwards: passed',
    'runEnd failed 1/1/0/0',
  ]);
  assert.match(onlyFailure(env, 'waits for a reply that never comes').message, /^Error: Timeout of 50ms exceeded\./);
  const mochaDefault = await finishedRun('timeout/mocha.html');
  assert.match(onlyFailure(mochaDefault, 'waits for a reply that never comes').message, /^Error: Timeout of 2000ms exceeded\./);
});

test('with another framework forced, Mocha still runs but nothing is reported', async () => {
  const passes = (env) => env.window.document.querySelector('#mocha-stats .passes em')?.textContent === '2';
  for (const framework of ['qunit', 'jasmine', 'hybrid']) {
    const env = await runFixturePage('mocha/all-pass.html', { options: { framework }, until: passes });
    assert.ok(env.reached, `Mocha did not finish with framework ${framework}`);
    assert.deepEqual(outline(env), ['loaded mocha'], framework);
  }
  const forced = await finishedRun('mocha/all-pass.html', { options: { framework: 'mocha' } });
  assert.equal(forced.events('runEnd')[0].status, 'passed');
});

test('Mocha waits for the bridge before its first test, so console output stays inside it', async () => {
  const env = await runFixturePageSlowHandshake('mocha/suite.html');
  assert.deepEqual(env.held, [], 'nothing reaches native before the handshake, and no test body runs');
  assert.ok(env.reached);
  assert.deepEqual(outline(env), SUITE);
});

test('names, messages and values survive byte-exact from a Mocha page', async () => {
  // Mocha's HTML reporter URI-encodes titles, which throws on a lone surrogate.
  const name = JSON.stringify(AWKWARD.replace('\uD800', ''));
  const text = JSON.stringify(AWKWARD);
  const env = await mochaPage(`
    describe(${name}, function () {
      it(${name}, function () {
        console.log(${text});
        throw new chai.AssertionError(${text}, { actual: ${text} + '!', expected: ${text} });
      });
      it('throws', function () { throw new Error(${text}); });
    });`);
  assert.ok(env.reached, JSON.stringify(outline(env)));
  const [assertion, thrown] = env.events('testEnd');
  assert.equal(assertion.name, JSON.parse(name));
  assert.deepEqual(assertion.suite, [JSON.parse(name)]);
  assert.equal(assertion.failures[0].kind, 'assertion');
  assert.equal(assertion.failures[0].message, AWKWARD);
  assert.equal(assertion.failures[0].actual, JSON.stringify(AWKWARD + '!'));
  assert.equal(assertion.failures[0].expected, JSON.stringify(AWKWARD));
  assert.equal(thrown.failures[0].message, `Error: ${AWKWARD}`);
  assert.deepEqual(env.console(), [AWKWARD]);
});
