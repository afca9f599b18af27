'use strict';

// The test adapter with Jasmine 4 (pages/vendor/jasmine): the fixture pages of
// pages/fixtures/test run in the test DOM, jasmine-html included, as `hybrid-run test` loads them,
// and the reporter events native receives are checked in order. Jasmine shuffles specs unless
// the page says otherwise; "?random=false" (read by boot1.js) makes the order the page's.
const test = require('node:test');
const assert = require('node:assert/strict');
const { runFixturePage, runFixturePageSlowHandshake, runTestPage, vendorScripts, AWKWARD } = require('../harness/test-page');
const { outline, protocolProblems } = require('../harness/transcript');

const IN_ORDER = '?random=false';
const JASMINE = ['jasmine/jasmine.js', 'jasmine/jasmine-html.js', 'jasmine/boot0.js', 'jasmine/boot1.js'];

const SUITE = [
  'loaded jasmine',
  'runStart jasmine 8',
  'start Inventory › counts apples',
  'console.log apples: 3',
  'end Inventory › counts apples: passed',
  'start Inventory › lists what is in stock',
  'end Inventory › lists what is in stock: failed',
  'start Inventory › orders more pears',
  'end Inventory › orders more pears: skipped',
  'start Inventory › restocks overnight',
  'end Inventory › restocks overnight: skipped',
  'start Inventory › syncs with the server',
  'end Inventory › syncs with the server: passed',
  'start Inventory › saves after a while',
  'end Inventory › saves after a while: passed',
  'start Inventory › throws on an unknown fruit',
  'end Inventory › throws on an unknown fruit: failed',
  'start Inventory › reports › prints a summary',
  'end Inventory › reports › prints a summary: passed',
  'runEnd failed 4/2/2/0 +1 run failures',
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

// A page made here: Jasmine with its boot files, then `code`, specs in declaration order.
async function jasminePage(code, settings = {}) {
  const env = await runTestPage({
    scripts: [...vendorScripts(...JASMINE), { file: '/fixtures/jasmine-inline.html#inline', code }],
    url: `file:///fixtures/jasmine-inline.html${IN_ORDER}`,
    ...settings,
  });
  assert.ok(env.reached, `no runEnd or list: ${JSON.stringify(outline(env))}`);
  assert.deepEqual(protocolProblems(env), []);
  return env;
}

test('jasmine/suite.html reports every spec in order, with console output inside its spec', async () => {
  const env = await finishedRun('jasmine/suite.html', { search: IN_ORDER });
  assert.deepEqual(outline(env), SUITE);
  assert.equal(env.events('runStart')[0].version, '4.4.0');
  assert.deepEqual(env.events('runEnd')[0].counts, { passed: 4, failed: 2, skipped: 2, todo: 0 });
  assert.deepEqual(env.dom.errors, []);
});

test('in Jasmine\'s random order the same specs are reported, each start followed by its end', async () => {
  const env = await finishedRun('jasmine/suite.html');
  const lines = outline(env);
  assert.deepEqual(lines.slice(0, 2), SUITE.slice(0, 2));
  assert.equal(lines.at(-1), SUITE.at(-1));
  assert.deepEqual([...lines].sort(), [...SUITE].sort());
});

test('a failed Jasmine matcher carries its message, actual and expected', async () => {
  const env = await finishedRun('jasmine/suite.html', { search: IN_ORDER });
  const failure = onlyFailure(env, 'lists what is in stock');
  assert.equal(failure.kind, 'assertion');
  assert.equal(failure.message, "Expected $.length = 1 to equal 2.\nExpected $[1] = undefined to equal 'pears'.");
  assert.equal(failure.actual, '["apples"]');
  assert.equal(failure.expected, '["apples","pears"]');
  assert.match(failure.stack, /suite\.html/);
});

test('an exception in a Jasmine spec is a failure of kind error', async () => {
  const env = await finishedRun('jasmine/suite.html', { search: IN_ORDER });
  const failure = onlyFailure(env, 'throws on an unknown fruit');
  assert.equal(failure.kind, 'error');
  assert.equal(failure.message, "TypeError: Cannot read properties of undefined (reading 'count')");
  assert.equal(failure.actual, null);
  assert.equal(failure.expected, null);
});

test('xit and pending() are skipped; async functions and done callbacks pass once they finish', async () => {
  const env = await finishedRun('jasmine/suite.html', { search: IN_ORDER });
  for (const name of ['orders more pears', 'restocks overnight']) {
    assert.equal(ended(env, name).status, 'skipped', name);
    assert.deepEqual(ended(env, name).failures, [], name);
  }
  assert.equal(ended(env, 'syncs with the server').status, 'passed');
  assert.equal(ended(env, 'saves after a while').status, 'passed');
  assert.ok(env.clock.now >= 20, `the 20 ms timer never ran (fake time ${env.clock.now})`);
});

test('a failing afterAll fails the run, not the specs before it', async () => {
  const env = await finishedRun('jasmine/suite.html', { search: IN_ORDER });
  assert.equal(ended(env, 'prints a summary').status, 'passed');
  const end = env.events('runEnd')[0];
  assert.equal(end.status, 'failed');
  assert.equal(end.failures.length, 1);
  assert.equal(end.failures[0].kind, 'error');
  assert.equal(end.failures[0].message, 'in "Inventory › reports": Error: could not delete the report files');
});

test('a failing beforeAll fails its suite\'s specs and the run; a top-level afterAll fails the run', async () => {
  const env = await jasminePage(`
    describe('b', function () {
      beforeAll(function () { throw new Error('setup broke'); });
      it('one', function () { console.log('one ran'); });
      it('two', function () {});
    });
    describe('c', function () { it('three', function () { expect(1).toBe(1); }); });
    afterAll(function () { throw new Error('top teardown'); });`);
  assert.deepEqual(outline(env), [
    'loaded jasmine',
    'runStart jasmine 3',
    'start b › one',
    'end b › one: failed',
    'start b › two',
    'end b › two: failed',
    'start c › three',
    'end c › three: passed',
    'runEnd failed 1/2/0/0 +2 run failures',
  ]);
  assert.match(onlyFailure(env, 'one').message, /^Not run because a beforeAll function failed/);
  assert.deepEqual(env.events('runEnd')[0].failures.map((failure) => failure.message), ['in "b": Error: setup broke', 'Error: top teardown']);
});

test('uncaught errors, rejections, fail() and several failed matchers in one spec', async () => {
  const env = await jasminePage(`
    describe('u', function () {
      it('throws in a timer', function (done) {
        setTimeout(function () { throw new Error('late boom'); }, 5);
        setTimeout(done, 50);
      });
      it('rejects', function () { return Promise.reject(new Error('nope')); });
      it('fails', function () { fail('on purpose'); });
      it('expects twice', function () { expect(1).toBe(2); expect('a').toEqual('b'); });
    });`);
  assert.deepEqual(outline(env).filter((line) => !line.startsWith('console.')), [
    'loaded jasmine',
    'runStart jasmine 4',
    'start u › throws in a timer',
    'end u › throws in a timer: failed',
    'start u › rejects',
    'end u › rejects: failed',
    'start u › fails',
    'end u › fails: failed',
    'start u › expects twice',
    'end u › expects twice: failed',
    'runEnd failed 0/4/0/0',
  ]);
  assert.match(onlyFailure(env, 'throws in a timer').message, /late boom/);
  assert.equal(onlyFailure(env, 'rejects').message, 'Error: nope');
  const failed = onlyFailure(env, 'fails');
  assert.deepEqual([failed.kind, failed.message], ['error', 'Failed: on purpose']);
  const twice = ended(env, 'expects twice').failures.map((f) => [f.kind, f.message, f.actual, f.expected]);
  assert.deepEqual(twice, [
    ['assertion', 'Expected 1 to be 2.', '1', '2'],
    ['assertion', "Expected 'a' to equal 'b'.", '"a"', '"b"'],
  ]);
});

test('fit and fdescribe: only the focused specs are reported, counted and listed; the run is incomplete', async () => {
  const code = `
    describe('f', function () {
      it('left out', function () { console.log('left out ran'); });
      fit('focused', function () { expect(1).toBe(1); });
    });
    fdescribe('whole', function () {
      it('in a focused suite', function () { expect(2).toBe(2); });
    });
    fdescribe('outer', function () {
      it('gives way', function () { console.log('gives way ran'); });
      fit('inner focus', function () { expect(3).toBe(3); });
    });`;
  const env = await jasminePage(code);
  assert.deepEqual(outline(env), [
    'loaded jasmine',
    'runStart jasmine 3',
    'start f › focused',
    'end f › focused: passed',
    'start whole › in a focused suite',
    'end whole › in a focused suite: passed',
    'start outer › inner focus',
    'end outer › inner focus: passed',
    'runEnd incomplete 3/0/0/0',
  ]);
  const listed = await jasminePage(code, { options: { list: true } });
  assert.deepEqual(listed.events('list')[0].tests, [
    { name: 'focused', suite: ['f'] },
    { name: 'in a focused suite', suite: ['whole'] },
    { name: 'inner focus', suite: ['outer'] },
  ]);
  assert.deepEqual(listed.console(), []);
});

test('jasmine/all-pass.html passes', async () => {
  const env = await finishedRun('jasmine/all-pass.html', { search: IN_ORDER });
  assert.deepEqual(outline(env), [
    'loaded jasmine',
    'runStart jasmine 2',
    'start Math › rounds down',
    'end Math › rounds down: passed',
    'start Math › max › picks the largest',
    'end Math › max › picks the largest: passed',
    'runEnd passed 2/0/0/0',
  ]);
});

test('jasmine/empty.html runs and passes with nothing in it (not incomplete)', async () => {
  const env = await finishedRun('jasmine/empty.html');
  assert.deepEqual(outline(env), ['loaded jasmine', 'runStart jasmine 0', 'runEnd passed 0/0/0/0']);
});

test('jasmine/examples.html (the specs Jasmine ships) passes', async () => {
  const env = await finishedRun('jasmine/examples.html', { search: IN_ORDER });
  assert.equal(env.events('runStart')[0].total, 5);
  assert.deepEqual(env.events('runEnd')[0].counts, { passed: 5, failed: 0, skipped: 0, todo: 0 });
  assert.ok(env.events('testEnd').some((event) => event.suite.join(' › ') === 'Player › when song has been paused'));
});

test('grep keeps the specs whose full name matches; grepInvert the others', async () => {
  const env = await finishedRun('grep/jasmine.html', { options: { grep: { source: 'checkout › pays', flags: '' } } });
  assert.deepEqual(outline(env), [
    'loaded jasmine',
    'runStart jasmine 2',
    'start checkout › pays by card',
    'end checkout › pays by card: passed',
    'start checkout › pays by invoice',
    'end checkout › pays by invoice: passed',
    'runEnd passed 2/0/0/0',
  ]);
  const inverted = await finishedRun('grep/jasmine.html', { options: { grep: { source: 'by card$|^cart › adds', flags: '' }, grepInvert: true } });
  assert.deepEqual(inverted.events('testEnd').map((event) => event.name), ['removes an item', 'pays by invoice']);
  assert.equal(inverted.events('runStart')[0].total, 2);
});

test('list mode names the specs Jasmine would run, and runs none of them', async () => {
  const env = await runFixturePage('jasmine/suite.html', { search: IN_ORDER, options: { list: true } });
  assert.ok(env.reached);
  await env.clock.tick(10000);
  assert.deepEqual(outline(env), ['loaded jasmine', 'list 8']);
  assert.deepEqual(env.events('list')[0].tests.map((entry) => [...entry.suite, entry.name].join(' › ')), [
    'Inventory › counts apples',
    'Inventory › lists what is in stock',
    'Inventory › orders more pears',
    'Inventory › restocks overnight',
    'Inventory › syncs with the server',
    'Inventory › saves after a while',
    'Inventory › throws on an unknown fruit',
    'Inventory › reports › prints a summary',
  ]);
  assert.deepEqual(env.console(), [], 'no spec ran');
});

test('list mode with grep lists only the matching specs', async () => {
  const env = await runFixturePage('grep/jasmine.html', { options: { list: true, grep: { source: 'CARD', flags: 'i' } } });
  assert.deepEqual(env.events('list')[0].tests, [{ name: 'pays by card', suite: ['checkout'] }]);
  assert.deepEqual(protocolProblems(env), []);
});

test('testTimeout becomes jasmine.DEFAULT_TIMEOUT_INTERVAL: a Promise that never settles fails, the next spec runs', async () => {
  const env = await finishedRun('timeout/jasmine.html', { options: { testTimeout: 50 } });
  assert.deepEqual(outline(env), [
    'loaded jasmine',
    'runStart jasmine 2',
    'start sync › waits for a reply that never comes',
    'end sync › waits for a reply that never comes: failed',
    'start sync › still runs afterwards',
    'end sync › still runs afterwards: passed',
    'runEnd failed 1/1/0/0',
  ]);
  assert.match(onlyFailure(env, 'waits for a reply that never comes').message, /^Error: Timeout - Async function did not complete within 50ms/);
  const jasmineDefault = await finishedRun('timeout/jasmine.html');
  assert.match(onlyFailure(jasmineDefault, 'waits for a reply that never comes').message, /within 5000ms/);
});

test('with another framework forced, Jasmine still runs but nothing is reported', async () => {
  const overall = (env) => /2 specs, 0 failures/.test(env.window.document.querySelector('.jasmine-overall-result')?.textContent || '');
  for (const framework of ['qunit', 'mocha', 'hybrid']) {
    const env = await runFixturePage('jasmine/all-pass.html', { options: { framework }, until: overall });
    assert.ok(env.reached, `Jasmine did not finish with framework ${framework}`);
    assert.deepEqual(outline(env), ['loaded jasmine'], framework);
  }
  const forced = await finishedRun('jasmine/all-pass.html', { options: { framework: 'jasmine' } });
  assert.equal(forced.events('runEnd')[0].status, 'passed');
});

test('Jasmine waits for the bridge before its first spec, so console output stays inside it', async () => {
  const env = await runFixturePageSlowHandshake('jasmine/suite.html', { search: IN_ORDER });
  assert.deepEqual(env.held, [], 'nothing reaches native before the handshake, and no spec runs');
  assert.ok(env.reached);
  assert.deepEqual(outline(env), SUITE);
});

test('names, messages and values survive byte-exact from a Jasmine page', async () => {
  // jasmine-html URI-encodes spec names for its links, which throws on a lone surrogate.
  const name = AWKWARD.replace('\uD800', '');
  const text = JSON.stringify(AWKWARD);
  const env = await jasminePage(`
    describe(${JSON.stringify(name)}, function () {
      it(${JSON.stringify(name)}, function () {
        console.log(${text});
        expect(${text} + '!').withContext(${text}).toBe(${text});
      });
      it('fails', function () { fail(${text}); });
      it('throws', function () { throw new Error(${text}); });
    });`);
  const [matcher, failed, thrown] = env.events('testEnd');
  assert.equal(matcher.name, name);
  assert.deepEqual(matcher.suite, [name]);
  assert.equal(matcher.failures[0].kind, 'assertion');
  // Jasmine indents the lines of the matcher's own message under the context.
  assert.ok(matcher.failures[0].message.startsWith(`${AWKWARD}:`), matcher.failures[0].message);
  assert.equal(matcher.failures[0].actual, JSON.stringify(AWKWARD + '!'));
  assert.equal(matcher.failures[0].expected, JSON.stringify(AWKWARD));
  assert.equal(failed.failures[0].message, `Failed: ${AWKWARD}`);
  assert.equal(thrown.failures[0].message, `Error: ${AWKWARD}`);
  assert.deepEqual(env.console(), [AWKWARD]);
});
