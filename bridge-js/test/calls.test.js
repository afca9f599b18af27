'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { boot, plain } = require('../harness/boot');

function framesOf(post) {
  return JSON.parse(post).m;
}

function neverAnswers(env) {
  env.native.handle('never', () => new Promise(() => {}));
}

test('a call frame is assembled exactly as PROTOCOL.md shows', async () => {
  const env = boot();
  await env.hybrid.ready;
  await env.hybrid.call('echo', { text: 'hi' }, { timeout: 5000 });
  await env.hybrid.call('echo');
  await env.hybrid.call('echo', () => 1, { timeout: 0 });
  const frames = env.native.posts.slice(1).map((post) => post.slice(post.indexOf('"m":[') + 5, -2));
  assert.deepStrictEqual(frames, [
    '{"t":"call","id":1,"h":"echo","d":{"text":"hi"},"to":5000,"dl":"hybrid"}',
    '{"t":"call","id":2,"h":"echo","d":null,"to":30000,"dl":"hybrid"}',
    '{"t":"call","id":3,"h":"echo","d":null,"dl":"hybrid"}',
  ]);
});

test('calls made before ready go up in one batch, in order, right after ready', async () => {
  const env = boot({ order: 'no-page-script' });
  const release = env.native.deferHello();
  env.injectPage();
  const calls = [
    env.hybrid.call('echo', 'first'),
    env.hybrid.call('fixture.add', { a: 1, b: 2 }),
    new Promise((resolve) => env.window.WebViewJavascriptBridge.callHandler('echo', 'third', resolve)),
  ];
  await env.settle();
  assert.strictEqual(env.native.posts.length, 1, 'only the hello before ready');
  release();
  assert.deepStrictEqual(plain(await Promise.all(calls)), ['first', 3, 'third']);
  assert.strictEqual(env.native.posts.length, 2);
  assert.deepStrictEqual(framesOf(env.native.posts[1]).map((f) => [f.id, f.h, f.dl]),
    [[1, 'echo', 'hybrid'], [2, 'fixture.add', 'hybrid'], [3, 'echo', 'wvjb']]);
});

test('1000 calls in one tick become one post with 1000 frames in order', async () => {
  const env = boot();
  await env.hybrid.ready;
  const calls = [];
  for (let i = 0; i < 1000; i++) calls.push(env.hybrid.call('echo', i));
  const results = await Promise.all(calls);
  assert.strictEqual(env.native.posts.length, 2);
  const frames = framesOf(env.native.posts[1]);
  assert.strictEqual(frames.length, 1000);
  assert.deepStrictEqual(frames.map((f) => f.d), results);
  assert.deepStrictEqual(plain(results), [...Array(1000).keys()]);
});

test('a call without an answer times out and native is told to cancel it', async () => {
  const env = boot();
  neverAnswers(env);
  await env.hybrid.ready;
  const timedOut = assert.rejects(env.hybrid.call('never', null, { timeout: 50 }), { code: 'TIMEOUT', name: 'HybridError' });
  await env.clock.tick(49);
  assert.deepStrictEqual(env.native.cancelled, []);
  await env.clock.tick(1);
  await timedOut;
  assert.deepStrictEqual(env.native.cancelled, [1]);
  assert.strictEqual(env.native.posts.at(-1).includes('{"t":"cancel","id":1}'), true);
});

test('the default deadline comes from the ready frame', async () => {
  const env = boot({ native: { timeout: 1000 } });
  neverAnswers(env);
  await env.hybrid.ready;
  const timedOut = assert.rejects(env.hybrid.call('never'), { code: 'TIMEOUT' });
  assert.strictEqual(framesOf(env.native.posts[1] || '{"m":[]}').length, 0);
  await env.settle();
  assert.strictEqual(framesOf(env.native.posts[1])[0].to, 1000);
  await env.clock.tick(1000);
  await timedOut;
});

test('a call that times out before it was sent is withdrawn, not cancelled', async () => {
  const env = boot({ order: 'no-page-script' });
  const release = env.native.deferHello();
  env.injectPage();
  const timedOut = assert.rejects(env.hybrid.call('echo', 'late', { timeout: 10 }), { code: 'TIMEOUT' });
  await env.clock.tick(10);
  await timedOut;
  const kept = env.hybrid.call('echo', 'kept');
  release();
  assert.strictEqual(await kept, 'kept');
  assert.deepStrictEqual(framesOf(env.native.posts[1]).map((f) => f.d), ['kept']);
  assert.deepStrictEqual(env.native.cancelled, []);
});

test('a late reply after a timeout is ignored', async () => {
  const env = boot();
  let answer;
  env.native.handle('slowly', () => new Promise((resolve) => { answer = resolve; }));
  await env.hybrid.ready;
  const timedOut = assert.rejects(env.hybrid.call('slowly', null, { timeout: 5 }), { code: 'TIMEOUT' });
  await env.settle();
  await env.clock.tick(5);
  await timedOut;
  env.native.deliver(JSON.stringify([{ t: 'reply', id: 1, ok: true, d: 'late' }]));
  answer('late');
  await env.settle();
  assert.deepStrictEqual(env.dom.errors, []);
});

test('data longer than maxPayload is refused before sending; the rest of the batch goes', async () => {
  const env = boot({ native: { maxPayload: 1000 } });
  await env.hybrid.ready;
  const tooLarge = env.hybrid.call('echo', 'x'.repeat(1000));
  const small = env.hybrid.call('echo', 'small');
  await assert.rejects(tooLarge, { code: 'PAYLOAD_TOO_LARGE' });
  assert.strictEqual(await small, 'small');
  assert.deepStrictEqual(framesOf(env.native.posts[1]).map((f) => f.d), ['small']);
});

test('17 MiB of data is refused under the default limit', async () => {
  const env = boot();
  await env.hybrid.ready;
  await assert.rejects(env.hybrid.call('echo', 'a'.repeat(17 * 1024 * 1024)), { code: 'PAYLOAD_TOO_LARGE' });
  assert.strictEqual(env.native.posts.length, 1);
});

test('a batch longer than maxPayload is split, keeping the order', async () => {
  const env = boot({ native: { maxPayload: 1000 } });
  await env.hybrid.ready;
  const values = ['a', 'b', 'c', 'd', 'e'].map((letter) => letter.repeat(300));
  const results = await Promise.all(values.map((value) => env.hybrid.call('echo', value)));
  assert.deepStrictEqual(plain(results), values);
  const posts = env.native.posts.slice(1);
  assert.ok(posts.length > 1);
  for (const post of posts) assert.ok(post.length <= 1000 + 100, `post of ${post.length} characters`);
  assert.deepStrictEqual(posts.flatMap((post) => framesOf(post).map((f) => f.d)), values);
});

test('data JSON cannot encode is refused without sending', async () => {
  const env = boot();
  await env.hybrid.ready;
  const cyclic = env.page.run('const o = { name: "loop" }; o.self = o; o');
  const tooDeep = env.page.run('let d = 0; for (let i = 0; i < 513; i++) d = [d]; d');
  const deepEnough = env.page.run('let e = 0; for (let i = 0; i < 512; i++) e = [e]; e');
  const veryDeep = env.page.run('let f = 0; for (let i = 0; i < 100000; i++) f = [f]; f');
  await assert.rejects(env.hybrid.call('echo', tooDeep), { code: 'INVALID_MESSAGE', message: 'data nests deeper than 512 levels' });
  await assert.rejects(env.hybrid.call('echo', veryDeep), { code: 'INVALID_MESSAGE', message: 'data nests deeper than 512 levels' });
  const proto = env.page.run('JSON.parse(\'{"__proto__": {"admin": true}}\')');
  for (const value of [cyclic, 10n, { count: 10n }, tooDeep, proto]) {
    await assert.rejects(env.hybrid.call('echo', value), { code: 'INVALID_MESSAGE' });
  }
  await assert.rejects(env.hybrid.call('', 1), { code: 'INVALID_MESSAGE' });
  await assert.rejects(env.hybrid.call('echo', 1, { timeout: -1 }), { code: 'INVALID_MESSAGE' });
  assert.strictEqual(env.native.posts.length, 1);
  assert.deepStrictEqual(plain(await env.hybrid.call('echo', deepEnough)), plain(deepEnough));
  const shared = { leaf: 1 };
  assert.deepStrictEqual(plain(await env.hybrid.call('echo', [shared, shared])), [{ leaf: 1 }, { leaf: 1 }]);
});

test('progress reaches onProgress before the result', async () => {
  const env = boot();
  await env.hybrid.ready;
  const seen = [];
  const result = await env.hybrid.call('fixture.slow', null, { onProgress: (value) => seen.push(plain(value)) });
  seen.push(result);
  assert.deepStrictEqual(seen, [{ step: 1 }, { step: 2 }, 'done']);
});

test('native errors reject with a HybridError carrying code, message and details', async () => {
  const env = boot();
  env.native.handle('detailed', () => {
    const error = new Error('out of paper');
    error.code = 'HANDLER_ERROR';
    error.details = { tray: 2 };
    throw error;
  });
  await env.hybrid.ready;
  const error = await env.hybrid.call('detailed').catch((e) => e);
  assert.ok(error instanceof env.hybrid.HybridError);
  assert.ok(error instanceof env.window.Error);
  assert.strictEqual(error.name, 'HybridError');
  assert.deepStrictEqual([error.code, error.message, plain(error.details)], ['HANDLER_ERROR', 'out of paper', { tray: 2 }]);
  assert.match(error.stack, /HybridError/);
  assert.deepStrictEqual(plain(error), { code: 'HANDLER_ERROR', message: 'out of paper', details: { tray: 2 } });
  await assert.rejects(env.hybrid.call('no.such.handler'), { code: 'NOT_FOUND' });
});

test('pagehide rejects every pending call with BRIDGE_RESET, and later calls too', async () => {
  const env = boot();
  neverAnswers(env);
  await env.hybrid.ready;
  const pending = [env.hybrid.call('never'), env.hybrid.call('never')];
  await env.settle();
  env.dom.pagehide();
  for (const call of pending) await assert.rejects(call, { code: 'BRIDGE_RESET' });
  await assert.rejects(env.hybrid.call('echo', 1), { code: 'BRIDGE_RESET' });
});

test('pagehide before ready rejects ready with BRIDGE_RESET', async () => {
  const env = boot({ order: 'no-page-script' });
  env.native.deferHello();
  env.injectPage();
  const queued = env.hybrid.call('echo', 1);
  env.dom.pagehide();
  await assert.rejects(env.hybrid.ready, { code: 'BRIDGE_RESET' });
  await assert.rejects(queued, { code: 'BRIDGE_RESET' });
});

test('a reply for an unknown call is logged and ignored', async () => {
  const env = boot();
  await env.hybrid.ready;
  env.native.deliver('[{"t":"reply","id":77,"ok":true,"d":1},{"t":"reply","id":"x","ok":true}]');
  assert.ok(env.logs('warn').some((line) => line.includes('unknown call 77')));
  assert.deepStrictEqual(env.dom.errors, []);
});

// Issue 11, item 11: a flood fired in one tick leaves as posts of at most 1000 frames, in order.
test('calls fired in one tick leave in posts of at most 1000 frames, in order', async () => {
  const env = boot();
  await env.hybrid.ready;
  const before = env.native.posts.length;
  const calls = [];
  for (let i = 0; i < 2500; i++) calls.push(env.hybrid.call('echo', i));
  const values = await Promise.all(calls);
  assert.ok(values.every((value, i) => value === i));
  const posts = env.native.posts.slice(before).map((text) => JSON.parse(text).m);
  assert.deepStrictEqual(posts.map((frames) => frames.length), [1000, 1000, 500]);
  assert.deepStrictEqual(posts.flat().map((frame) => frame.d), values);
});

test('after 64 posts in one task, the rest of the task leaves together in the next', async () => {
  const env = boot();
  await env.hybrid.ready;
  const before = env.native.posts.length;
  // WebKit answers a post through IPC, in a task of its own: hold the fake's answers until the
  // page's task is over, or they would arrive inside it.
  const held = [];
  const answer = env.native.postMessage.bind(env.native);
  env.native.postMessage = (text) => new Promise((resolve) => held.push(() => resolve(answer(text))));
  await env.page.run(`(async () => {
    window.burst = [];
    for (let i = 0; i < 200; i++) { window.burst.push(hybrid.call('echo', i)); await null; }
  })()`);
  assert.strictEqual(held.length, 64, 'one post per call until the burst limit');
  await env.clock.tick(0);
  assert.strictEqual(held.length, 65, 'the rest left as one post from a timer');
  env.native.postMessage = answer;
  for (const release of held) release();
  const values = await Promise.all(env.window.burst);
  assert.ok(values.every((value, i) => value === i));
  assert.strictEqual(env.native.posts.length - before, 65, 'the other 136 calls left as one post');
  // A new task starts counting again: a lone call leaves at once.
  const lone = env.hybrid.call('echo', 'lone');
  await env.settle();
  assert.strictEqual(env.native.posts.length - before, 66);
  assert.strictEqual(await lone, 'lone');
});

test('small payloads take the quick shape check and are refused with the same words as large ones', async () => {
  const env = boot();
  await env.hybrid.ready;
  const cyclic = env.page.run('const o = { name: "loop" }; o.self = o; o');
  const proto = env.page.run('JSON.parse(\'{"a": [1, {"__proto__": 1}]}\')');
  const deepSmall = env.page.run('let d = 0; for (let i = 0; i < 9; i++) d = [d]; d');
  await assert.rejects(env.hybrid.call('echo', cyclic), { code: 'INVALID_MESSAGE', message: 'data contains a cycle' });
  await assert.rejects(env.hybrid.call('echo', proto), { code: 'INVALID_MESSAGE', message: 'data has a "__proto__" key' });
  assert.deepStrictEqual(plain(await env.hybrid.call('echo', { id: 1, m: 'echo', a: [1] })), { id: 1, m: 'echo', a: [1] });
  assert.deepStrictEqual(plain(await env.hybrid.call('echo', deepSmall)), plain(deepSmall));
});
