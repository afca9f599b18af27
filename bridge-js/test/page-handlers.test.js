'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { boot, plain } = require('../harness/boot');

async function ready(options) {
  const env = boot(options);
  await env.hybrid.ready;
  return env;
}

function upFrames(env) {
  return env.native.upFrames.flatMap((text) => JSON.parse(text));
}

test('a page handler answers with a value or a Promise', async () => {
  const env = await ready();
  env.hybrid.register('page.square', (n) => n * n);
  env.hybrid.register('device.info', () => Promise.resolve({ model: 'test' }));
  env.hybrid.register('page.nothing', () => undefined);
  assert.strictEqual(await env.native.callPage('page.square', 9), 81);
  assert.deepStrictEqual(plain(await env.native.callPage('device.info')), { model: 'test' });
  assert.strictEqual(await env.native.callPage('page.nothing'), null);
});

test('a throwing or rejecting page handler answers HANDLER_ERROR with its message', async () => {
  const env = await ready();
  env.hybrid.register('page.throws', () => { throw new Error('broken'); });
  env.hybrid.register('page.rejects', () => Promise.reject(new Error('rejected')));
  env.hybrid.register('page.throwsString', () => { throw 'plain string'; });
  await assert.rejects(env.native.callPage('page.throws'), { code: 'HANDLER_ERROR', message: 'broken' });
  await assert.rejects(env.native.callPage('page.rejects'), { code: 'HANDLER_ERROR', message: 'rejected' });
  await assert.rejects(env.native.callPage('page.throwsString'), { code: 'HANDLER_ERROR', message: 'plain string' });
});

test('a page handler may fail with a HybridError code of its own', async () => {
  const env = await ready();
  env.hybrid.register('page.cancels', () => {
    throw new env.hybrid.HybridError('CANCELLED', 'user closed the sheet', { step: 2 });
  });
  const error = await env.native.callPage('page.cancels').catch((e) => e);
  assert.deepStrictEqual([error.code, error.message, plain(error.details)], ['CANCELLED', 'user closed the sheet', { step: 2 }]);
});

test('a missing page handler answers NOT_FOUND; unregister removes one', async () => {
  const env = await ready();
  await assert.rejects(env.native.callPage('page.missing'), { code: 'NOT_FOUND' });
  env.hybrid.register('page.once', () => 1);
  assert.strictEqual(await env.native.callPage('page.once'), 1);
  env.hybrid.unregister('page.once');
  await assert.rejects(env.native.callPage('page.once'), { code: 'NOT_FOUND' });
});

test('register refuses what is not a name and a function', async () => {
  const env = await ready();
  assert.throws(() => env.hybrid.register('', () => 1), { name: 'TypeError' });
  assert.throws(() => env.hybrid.register('page.x', 'not a function'), { name: 'TypeError' });
});

test('a page handler streams progress before its result', async () => {
  const env = await ready();
  env.hybrid.register('page.download', async (data, context) => {
    context.progress({ percent: 50 });
    await null;
    context.progress({ percent: 100 });
    return 'saved';
  });
  const seen = [];
  const result = await env.native.callPage('page.download', null, { onProgress: (value) => seen.push(value) });
  assert.strictEqual(result, 'saved');
  assert.deepStrictEqual(plain(seen), [{ percent: 50 }, { percent: 100 }]);
});

test('a page handler result JSON cannot encode answers INVALID_MESSAGE', async () => {
  const env = await ready();
  env.hybrid.register('page.bigint', () => 10n);
  await assert.rejects(env.native.callPage('page.bigint'), { code: 'INVALID_MESSAGE' });
});

test('an oversized page handler result answers PAYLOAD_TOO_LARGE', async () => {
  const env = await ready({ native: { maxPayload: 1000 } });
  env.hybrid.register('page.big', () => 'x'.repeat(2000));
  await assert.rejects(env.native.callPage('page.big'), { code: 'PAYLOAD_TOO_LARGE' });
});

test('native calls with "args" hand the argument list over as it is', async () => {
  const env = await ready();
  env.hybrid.register('page.args', (data) => data);
  assert.deepStrictEqual(await env.native.callPage('page.args', [1, 2], { args: true }).then(plain), [1, 2]);
});

test('replies to native calls use the frame shapes of PROTOCOL.md', async () => {
  const env = await ready();
  env.hybrid.register('page.ok', () => ({ fine: true }));
  env.hybrid.register('page.bad', () => { throw new Error('nope'); });
  await env.native.callPage('page.ok');
  await env.native.callPage('page.bad').catch(() => {});
  const texts = env.native.upFrames.map((text) => text.slice(1, -1));
  assert.deepStrictEqual(texts, [
    '{"t":"reply","id":1,"ok":true,"d":{"fine":true}}',
    '{"t":"reply","id":2,"ok":false,"e":{"code":"HANDLER_ERROR","message":"nope","details":null}}',
  ]);
});

test('events reach hybrid.on listeners until they are removed', async () => {
  const env = await ready();
  const seen = [];
  const listener = (data) => seen.push(plain(data));
  env.hybrid.on('battery', listener);
  env.native.emit('battery', { level: 0.5 });
  await env.settle();
  env.hybrid.off('battery', listener);
  env.native.emit('battery', { level: 0.4 });
  await env.settle();
  assert.deepStrictEqual(seen, [{ level: 0.5 }]);
});

test('a throwing listener does not stop the others and surfaces as an uncaught error', async () => {
  const env = await ready();
  const seen = [];
  env.hybrid.on('tick', () => { throw new Error('listener bug'); });
  env.hybrid.on('tick', (data) => seen.push(data));
  env.native.emit('tick', 1);
  await env.settle();
  assert.deepStrictEqual(seen, [1]);
  await env.clock.tick(0);
  assert.deepStrictEqual(env.dom.errors.map((e) => e.message), ['listener bug']);
});

test('an unknown down-frame is answered INVALID_MESSAGE when it has an id, logged otherwise', async () => {
  const env = await ready();
  env.native.deliver('[{"t":"teleport","id":5},{"t":"teleport"},null]');
  await env.settle();
  const [reply] = upFrames(env);
  assert.deepStrictEqual([reply.t, reply.id, reply.ok, reply.e.code], ['reply', 5, false, 'INVALID_MESSAGE']);
  assert.ok(env.logs('warn').some((line) => line.includes('unknown frame type "teleport"')));
  assert.deepStrictEqual(env.dom.errors, []);
});

test('a native call without a handler name is answered INVALID_MESSAGE', async () => {
  const env = await ready();
  env.native.deliver('[{"t":"call","id":3,"d":1}]');
  await env.settle();
  const [reply] = upFrames(env);
  assert.deepStrictEqual([reply.id, reply.e.code], [3, 'INVALID_MESSAGE']);
});

test('a delivery whose calls all answer with plain values returns its replies at once; a Promise answer waits', async () => {
  const env = await ready();
  env.hybrid.register('page.square', (n) => n * n);
  env.hybrid.register('page.later', (n) => Promise.resolve(n + 1));
  const relay = env.native.isolated.global.__hybridshellRelay;
  const session = env.native.session;
  const now = relay.deliver(session + JSON.stringify([{ t: 'call', id: 901, h: 'page.square', d: 7 }, { t: 'call', id: 902, h: 'page.missing', d: 0 }]));
  assert.strictEqual(typeof now, 'string', 'plain answers come back without a Promise');
  assert.deepStrictEqual(plain(JSON.parse(now)).map((frame) => [frame.t, frame.id, frame.ok]), [['reply', 901, true], ['reply', 902, false]]);
  assert.strictEqual(JSON.parse(now)[0].d, 49);
  const later = relay.deliver(session + JSON.stringify([{ t: 'call', id: 903, h: 'page.later', d: 1 }]));
  assert.strictEqual(typeof later.then, 'function', 'a Promise answer keeps the delivery open');
  assert.deepStrictEqual(plain(JSON.parse(await later)), [{ t: 'reply', id: 903, ok: true, d: 2 }]);
  // An event in the delivery keeps it open too (its handlers may answer within a few turns).
  const withEvent = relay.deliver(session + JSON.stringify([{ t: 'call', id: 904, h: 'page.square', d: 2 }, { t: 'event', n: 'x', d: null }]));
  assert.strictEqual(typeof withEvent.then, 'function');
  assert.strictEqual(JSON.parse(await withEvent)[0].d, 4);
  // The page's "answered" word is for the relay only: native never sees it.
  await env.clock.tick(0);
  assert.ok(!env.native.posts.some((text) => text.includes('delivery-answered')), env.native.posts.join('\n'));
});

test('an answered delivery costs the page one up-event, and a forged "answered" event is only a post', async () => {
  const env = await ready();
  env.hybrid.register('page.square', (n) => n * n);
  const relay = env.native.isolated.global.__hybridshellRelay;
  const seen = [];
  for (const type of ['hybridshell:up', 'hybridshell:up-answered']) {
    env.isolated.global.addEventListener(type, (event) => seen.push([type, event.detail]));
  }
  const now = relay.deliver(env.native.session + JSON.stringify([{ t: 'call', id: 911, h: 'page.square', d: 3 }]));
  assert.strictEqual(typeof now, 'string');
  assert.deepStrictEqual(seen.map(([type]) => type), ['hybridshell:up-answered'], 'the replies and the word travel together');
  assert.strictEqual(seen[0][1], now);
  // The page may dispatch the event itself: outside a delivery its frames are posted like any
  // others (native checks them), and a page-up through it is ignored.
  const before = env.native.posts.length;
  env.window.dispatchEvent(new env.window.CustomEvent('hybridshell:up-answered', { detail: '[{"t":"page-up","dialects":[]}]' }));
  env.window.dispatchEvent(new env.window.CustomEvent('hybridshell:up-answered', { detail: '[{"t":"cancel","id":5}]' }));
  await env.settle();
  assert.deepStrictEqual(env.native.posts.slice(before).map((text) => JSON.parse(text).m), [[{ t: 'cancel', id: 5 }]]);
});
