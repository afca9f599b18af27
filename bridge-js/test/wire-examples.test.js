'use strict';

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const { boot, plain } = require('../harness/boot');
const { FakeNative } = require('../harness/native');
const { parseStrict } = require('../harness/strict-json');

const examples = JSON.parse(fs.readFileSync(require.resolve('../wire-examples.json'), 'utf8'));
const DSBRIDGE = fs.readFileSync(require.resolve('../../pages/fixtures/bridge/lib/dsbridge-compat.js'), 'utf8');
const valid = (name) => examples.valid.find((example) => example.name === name);

function textOf(example) {
  if (example.text !== undefined) return example.text;
  const { prefix, repeat, count, suffix } = example.generate;
  return prefix + repeat.repeat(count) + suffix;
}

// `expected` may hold "*" where an error message is free text.
function assertMatches(actual, expected, where) {
  if (expected === '*') return assert.strictEqual(typeof actual, 'string', where);
  if (expected === null || typeof expected !== 'object') return assert.strictEqual(actual, expected, where);
  assert.strictEqual(Array.isArray(actual), Array.isArray(expected), where);
  assert.deepStrictEqual(Object.keys(actual).sort(), Object.keys(expected).sort(), where);
  for (const key of Object.keys(expected)) assertMatches(actual[key], expected[key], `${where}.${key}`);
}

async function nativeAfterHello() {
  // The examples are written for their own limits, not the defaults.
  const native = new FakeNative({ maxDepth: examples.limits.maxDepth, maxPayload: examples.limits.maxPayload });
  const answer = await native.answerPost(valid('hello').text);
  assertMatches(JSON.parse(answer), valid('hello').answer, 'hello');
  return native;
}

test('the examples file has the documented structure', () => {
  assert.ok(Array.isArray(examples._comment));
  assert.match(examples.session, /^[0-9a-f]{32}$/);
  const names = [...examples.valid, ...examples.invalid, ...examples.dsbridgePrompts].map((e) => e.name);
  assert.strictEqual(new Set(names).size, names.length, 'names are unique');
  for (const example of examples.valid) {
    assert.ok(['up', 'down'].includes(example.direction), example.name);
    assert.strictEqual(typeof example.text, 'string', example.name);
  }
  for (const example of examples.invalid) {
    assert.ok((example.text === undefined) !== (example.generate === undefined), example.name);
    assert.ok(['post', 'frame'].includes(example.scope), example.name);
    assert.ok(example.scope === 'post' || example.id === null || Number.isInteger(example.id), example.name);
  }
});

test('every valid example is JSON native accepts', () => {
  for (const example of examples.valid) {
    const value = parseStrict(example.text, { maxDepth: examples.limits.maxDepth + 3 });
    if (example.direction === 'up') assert.strictEqual(value.s, examples.session, example.name);
    else assert.ok(Array.isArray(value), example.name);
  }
});

test('native answers each valid up example as given', async () => {
  const native = await nativeAfterHello();
  for (const example of examples.valid.filter((e) => e.direction === 'up' && e.name !== 'hello')) {
    const answer = JSON.parse(await native.answerPost(example.text));
    assertMatches(plain(answer), example.answer, example.name);
  }
});

test('native refuses each invalid example with its code and scope', async () => {
  for (const example of examples.invalid) {
    const native = await nativeAfterHello();
    const answer = plain(JSON.parse(await native.answerPost(textOf(example))));
    if (example.scope === 'post') {
      assert.deepStrictEqual(answer.map((f) => [f.t, f.code]), [['error', example.code]], example.name);
    } else if (example.id === null) {
      assert.deepStrictEqual(answer, [], example.name);
    } else {
      assert.deepStrictEqual(answer.map((f) => [f.t, f.id, f.ok, f.e.code]), [['reply', example.id, false, example.code]], example.name);
    }
  }
});

test('the page and relay produce the up examples byte for byte', async () => {
  const env = boot({ content: (world) => world.run(DSBRIDGE) });
  await env.hybrid.ready;
  const hello = JSON.parse(env.native.posts[0]);
  const normalise = (text) => text.split(hello.s).join(examples.session).split(hello.m[0].secret).join(examples.secret);
  const w = env.window;

  await env.hybrid.call('echo', { text: 'hi' });
  await Promise.all([
    new Promise((resolve) => w.WebViewJavascriptBridge.callHandler('echo', 'v', resolve)),
    new Promise((resolve) => w.dsBridge.call('fixture.add', { a: 1, b: 2 }, resolve)),
    new Promise((resolve) => w.wx.invokeHandler('nope', { complete: resolve })),
  ]);
  await env.hybrid.call('fixture.fail').catch(() => {});
  const nasty = JSON.parse(valid('call with awkward strings').text).m[0].d;
  await env.hybrid.call('echo', nasty);
  await env.hybrid.call('echo', env.page.run('let d = 0; for (let i = 0; i < 64; i++) d = [d]; d'));

  const produced = env.native.posts.map(normalise);
  const expected = ['hello', 'call', 'calls from three dialects in one batch', 'call that fails', 'call with awkward strings', 'data nested 64 deep'];
  assert.deepStrictEqual(produced.filter((post) => !post.includes('_dsb.dsinit')), expected.map((name) => valid(name).text));
});

test('the page acts on the down examples', async () => {
  const env = boot({ content: (world) => world.run(DSBRIDGE) });
  env.native.handle('never', () => new Promise(() => {}));
  await env.hybrid.ready;
  const seen = [];
  env.hybrid.on('show', () => seen.push('show'));
  env.hybrid.on('battery', (data) => seen.push(plain(data)));
  env.hybrid.register('page.square', (n) => n * n);
  env.window.dsBridge.register('add', (left, right) => left + right);
  const calls = [1, 2, 3, 4, 5].map(() => env.hybrid.call('never', null, {
    onProgress: (value) => seen.push(['progress', plain(value)]),
  }));
  await env.settle();
  for (const name of ['reply', 'error reply', 'progress', 'native calls a page handler',
    'native calls a dsbridge method with an argument list', 'lifecycle event', 'custom event', 'ready', 'denied']) {
    env.native.deliver(valid(name).text);
  }
  assert.deepStrictEqual(plain(await calls[0]), { text: 'hi' });
  await assert.rejects(calls[3], { code: 'NOT_FOUND', message: 'no native handler named "nope"' });
  await env.settle();
  const answers = env.native.upFrames.slice(1).flatMap((text) => JSON.parse(text)).filter((f) => f.t === 'reply');
  assert.deepStrictEqual(answers.map((f) => [f.id, f.d]), [[1, 81], [2, 5]]);
  assert.deepStrictEqual(seen, [['progress', { step: 1 }], 'show', { level: 0.5 }]);
  assert.strictEqual(await env.hybrid.call('echo', 'still working after stray ready/denied'), 'still working after stray ready/denied');
});

test('a refused post fails the calls in it with the refusal code', async () => {
  const env = boot();
  await env.hybrid.ready;
  env.native.answerPost = () => Promise.resolve(valid('post refused').text);
  await assert.rejects(env.hybrid.call('echo', 1), { code: 'INVALID_MESSAGE' });
});

test('native answers the dsbridge prompt examples', async () => {
  const native = await nativeAfterHello();
  for (const example of examples.dsbridgePrompts) {
    const answer = native.prompt(example.message, example.defaultText);
    if (example.answer !== undefined) assert.strictEqual(answer, example.answer, example.name);
    // Backslashes travel as U+0001 on this gate: the error's JSON reads once they are back.
    else assert.deepStrictEqual(Object.assign(JSON.parse(answer.split('\u0001').join('\\')), { message: '*' }), { code: -1, data: null, errorCode: example.errorCode, message: '*' }, example.name);
  }
});

test('native answers the WebViewJavascriptBridge legacy queue example', async () => {
  const env = boot({
    content: (world) => {
      world.global.queueText = examples.wvjbLegacy.fetchQueue;
      world.run(`
        window.received = [];
        window.WebViewJavascriptBridge = {
          _fetchQueue: function () { return queueText; },
          _handleMessageFromObjC: function (json) { received.push(json); },
        };
      `);
    },
  });
  await env.hybrid.ready;
  const frame = env.window.document.createElement('iframe');
  frame.src = 'https://__wvjb_queue_message__';
  await env.settle();
  const received = [...env.window.received].map((json) => JSON.parse(json));
  const expected = examples.wvjbLegacy.responses.map((json) => JSON.parse(json));
  expected[1].responseData.error.message = '*';
  assertMatches(received, expected, 'responses');
});
