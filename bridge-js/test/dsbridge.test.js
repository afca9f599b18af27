'use strict';

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const { boot, plain } = require('../harness/boot');

const DSBRIDGE = fs.readFileSync(require.resolve('../../pages/fixtures/bridge/lib/dsbridge-compat.js'), 'utf8');

async function ready(options = {}) {
  const env = boot({ ...options, content: (world) => world.run(DSBRIDGE) });
  await env.hybrid.ready;
  return { env, ds: env.window.dsBridge, secret: JSON.parse(env.native.posts[0]).m[0].secret };
}

function nativePrompts(env) {
  return env.native.prompts.map((p) => [p.message, p.defaultText]);
}

function callFrames(env) {
  return env.native.posts.slice(1).flatMap((post) => JSON.parse(post).m).filter((f) => f.t === 'call');
}

test('page.js sets window._dswk so dsbridge.js uses prompt', async () => {
  const { env } = await ready();
  assert.strictEqual(env.window._dswk, true);
});

test('a synchronous call reaches native through the prompt gate with the secret', async () => {
  const { env, ds, secret } = await ready();
  assert.strictEqual(ds.call('echo', 'sync'), 'sync');
  assert.strictEqual(ds.call('fixture.add', { a: 1, b: 2 }), 3);
  assert.deepStrictEqual(nativePrompts(env), [
    [`_hybridshell_ds=${secret}:echo`, '{"data":"sync"}'],
    [`_hybridshell_ds=${secret}:fixture.add`, '{"data":{"a":1,"b":2}}'],
  ]);
});

test("a synchronous call's backslashes travel as U+0001 both ways, so a Shift_JIS page's yen signs cannot take their place", async () => {
  const { env, ds, secret } = await ready();
  const value = 'quote " backslash \\ newline \n \u2028 \ud800 \u0001';
  assert.strictEqual(ds.call('echo', value), value);
  const [[message, defaultText]] = nativePrompts(env);
  assert.strictEqual(message, `_hybridshell_ds=${secret}:echo`);
  assert.strictEqual(defaultText, JSON.stringify({ data: value }).split('\\').join('\u0001'));
  assert.ok(!defaultText.includes('\\') && !env.native.prompts[0].answer.includes('\\'), 'no backslash on the wire');
  assert.strictEqual(ds.call('ech\\o', 1), null, 'a backslash in the method name travels too');
  assert.strictEqual(nativePrompts(env)[1][0], `_hybridshell_ds=${secret}:ech\u0001o`);
});

test('hasNativeMethod asks native synchronously', async () => {
  const { env, ds, secret } = await ready();
  assert.strictEqual(ds.hasNativeMethod('echo'), true);
  assert.strictEqual(ds.hasNativeMethod('no.such.method'), false);
  assert.deepStrictEqual(nativePrompts(env)[0], [`_hybridshell_ds=${secret}:_dsb.hasNativeMethod`, '{"data":{"name":"echo","type":"all"}}']);
});

test('an asynchronous call takes the fast path and its callback is removed after the result', async () => {
  const { env, ds } = await ready();
  const result = await new Promise((resolve) => ds.call('echo', { msg: 'async' }, resolve));
  assert.deepStrictEqual(plain(result), { msg: 'async' });
  assert.deepStrictEqual(nativePrompts(env), []);
  const [frame] = callFrames(env);
  assert.deepStrictEqual([frame.h, plain(frame.d), frame.dl, 'to' in frame], ['echo', { msg: 'async' }, 'dsbridge', false]);
  assert.strictEqual('dscb0' in env.window, false);
});

test('progress results call the callback without removing it; the last one removes it', async () => {
  const { env, ds } = await ready();
  const seen = [];
  const stub = `dscb${env.window.dscb}`;
  await new Promise((resolve) => ds.call('fixture.slow', (value) => {
    seen.push({ value: plain(value), stubPresent: stub in env.window });
    if (value === 'done') resolve();
  }));
  assert.deepStrictEqual(seen, [
    { value: { step: 1 }, stubPresent: true },
    { value: { step: 2 }, stubPresent: true },
    { value: 'done', stubPresent: true },
  ]);
  assert.strictEqual(stub in env.window, false);
});

test('native calls page methods through _handleMessageFromNative and _dsb.returnValue stays in JavaScript', async () => {
  const { env, ds } = await ready();
  ds.register('add', (left, right) => left + right);
  ds.register('text', { upper: (value) => value.toUpperCase() });
  ds.registerAsyn('countdown', (from, callback) => {
    for (let i = from; i > 0; i--) callback(i, false);
    callback('liftoff');
  });
  ds.registerAsyn('math', { twice: (n, callback) => callback(n * 2) });
  await env.clock.tick(0);  // dsbridge.js sends _dsb.dsinit
  assert.strictEqual(await env.native.callPage('add', [2, 3], { args: true }), 5);
  assert.strictEqual(await env.native.callPage('text.upper', 'ds'), 'DS');
  const progress = [];
  assert.strictEqual(await env.native.callPage('countdown', [3], { args: true, onProgress: (v) => progress.push(v) }), 'liftoff');
  assert.deepStrictEqual(progress, [3, 2, 1]);
  assert.strictEqual(await env.native.callPage('math.twice', 21), 42);
  assert.strictEqual(await env.native.callPage('_hasJavascriptMethod', ['text.upper', 'all'], { args: true }), true);
  await assert.rejects(env.native.callPage('text.missing', 1), { code: 'NOT_FOUND' });
  await assert.rejects(env.native.callPage('toString', 1), { code: 'NOT_FOUND' });
  assert.deepStrictEqual(nativePrompts(env), [], 'no return value went to native prompt');
});

test('a page method that throws answers HANDLER_ERROR', async () => {
  const { env, ds } = await ready();
  ds.register('broken', () => { throw new Error('page bug'); });
  await env.clock.tick(0);
  await assert.rejects(env.native.callPage('broken', 1), { code: 'HANDLER_ERROR', message: 'page bug' });
});

test('dsinit is answered in JavaScript; closePage and disableJavascriptDialogBlock are synchronous native calls', async () => {
  const { env, ds, secret } = await ready();
  ds.register('anything', () => 1);
  await env.clock.tick(0);
  ds.disableJavascriptDialogBlock();
  env.window.close();
  assert.strictEqual(env.native.closeRequests, 1, 'native acted before window.close() returned');
  await env.settle();
  assert.deepStrictEqual(nativePrompts(env), [
    [`_hybridshell_ds=${secret}:_dsb.disableJavascriptDialogBlock`, '{"data":{"disable":true}}'],
    [`_hybridshell_ds=${secret}:_dsb.closePage`, '{"data":null}'],
  ]);
  assert.deepStrictEqual(callFrames(env), []);
});

test('failed calls log and return dsbridge error shapes', async () => {
  const { env, ds } = await ready();
  assert.strictEqual(ds.call('no.such.method', 1), null);
  const asyncError = await new Promise((resolve) => ds.call('fixture.fail', {}, resolve));
  assert.deepStrictEqual(plain(asyncError), { code: -1, data: null, errorCode: 'HANDLER_ERROR', message: 'fixture failure' });
  assert.deepStrictEqual(env.logs('error'), [
    'dsbridge: NOT_FOUND: no native handler named "no.such.method"',
    'dsbridge: HANDLER_ERROR: fixture failure',
  ]);
});

test('prompts that are not dsbridge calls pass through unchanged', async () => {
  const { env } = await ready();
  assert.strictEqual(env.window.prompt('Your name?', 'Ada'), null);
  env.window.prompt('Only a message');
  assert.deepStrictEqual(nativePrompts(env), [['Your name?', 'Ada'], ['Only a message', undefined]]);
});

test('a bare _dsbridge= prompt from a world without page.js reaches native unchanged and is denied', async () => {
  const { env } = await ready();
  const frame = env.dom.createWorld('iframe');
  frame.run(DSBRIDGE);
  frame.run('window._dswk = true;');
  assert.strictEqual(frame.global.dsBridge.call('echo', 'from a frame'), null);
  assert.deepStrictEqual(nativePrompts(env), [['_dsbridge=echo', '{"data":"from a frame"}']]);
  assert.strictEqual(JSON.parse(env.native.prompts[0].answer).errorCode, 'DENIED');
});

test('a page cannot forge the gate without the secret', async () => {
  const { env } = await ready();
  const answer = env.window.prompt('_hybridshell_ds=00000000000000000000000000000000:echo', '{"data":1}');
  assert.strictEqual(JSON.parse(answer).errorCode, 'DENIED');
});

test('without a relay, synchronous calls are answered DENIED in JavaScript', async () => {
  const env = boot({ order: 'no-relay', content: (world) => world.run(DSBRIDGE) });
  assert.strictEqual(env.window.dsBridge.call('echo', 1), null);
  assert.deepStrictEqual(nativePrompts(env), []);
  assert.deepStrictEqual(env.logs('error'), ['dsbridge: DENIED: the bridge is not available in this document']);
});

// Issue 11, item 10: the original queues native calls until dsbridge.js's _dsb.dsinit.
test('native calls made before _dsb.dsinit wait for it, then find the page methods', async () => {
  const { env, ds } = await ready();
  let settled = null;
  const early = env.native.callPage('add', [2, 3], { args: true });
  early.then((value) => { settled = value; }, (error) => { settled = error.code; });
  await env.settle();
  assert.strictEqual(settled, null, 'waits while dsbridge.js has not initialised');
  ds.register('add', (left, right) => left + right);
  await env.settle();
  assert.strictEqual(settled, null, 'dsinit comes in a later task');
  await env.clock.tick(0);
  assert.strictEqual(await early, 5);
  await assert.rejects(env.native.callPage('missing', 1), { code: 'NOT_FOUND' }, 'after dsinit unknown names fail at once');
});

test('a page without dsbridge.js answers NOT_FOUND at once', async () => {
  const env = boot();
  await env.hybrid.ready;
  await assert.rejects(env.native.callPage('add', 1), { code: 'NOT_FOUND' });
});
