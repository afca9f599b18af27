'use strict';

// The direct post (channel.js, PROTOCOL.md "The direct post"): once ready, up-frames go to the
// page world's own handler with the document's secret; the handshake and delivery answers stay
// with the relay.

const test = require('node:test');
const assert = require('node:assert');
const { boot, plain } = require('../harness/boot');

function secretOf(env) {
  return env.native.sessions.get(env.native.session).secret;
}

test('once ready, calls are posted to the direct handler with the secret, and answered there', async () => {
  const env = boot({ direct: true });
  await env.hybrid.ready;
  assert.strictEqual(env.native.directPosts.length, 0, 'the hello went through the relay');
  assert.deepStrictEqual(plain(await env.hybrid.call('echo', { text: 'hi \u2028 🦊' })), { text: 'hi \u2028 🦊' });
  assert.deepStrictEqual(plain(await env.hybrid.call('fixture.add', { a: 2, b: 3 })), 5);
  const envelope = JSON.parse(env.native.directPosts[0]);
  assert.deepStrictEqual(Object.keys(envelope), ['v', 's', 'm']);
  assert.strictEqual(envelope.s, secretOf(env));
  assert.notStrictEqual(envelope.s, env.native.session, 'the secret, not the session id');
  assert.deepStrictEqual(envelope.m.map((frame) => [frame.t, frame.h]), [['call', 'echo']]);
});

test('a direct post native refuses as a whole fails its calls with the refusal', async () => {
  const env = boot({ direct: true });
  await env.hybrid.ready;
  env.native.answerPost = () => Promise.resolve('[{"t":"error","code":"BRIDGE_RESET","message":"the session has ended"}]');
  const calls = [env.hybrid.call('echo', 1), env.hybrid.call('echo', 2)];
  for (const call of calls) await assert.rejects(call, { code: 'BRIDGE_RESET', message: 'the session has ended' });
});

test('a direct handler that fails the post fails its calls with BRIDGE_RESET, and later calls work', async () => {
  const env = boot({ direct: true });
  await env.hybrid.ready;
  env.native.rejectPosts = true;
  const calls = [env.hybrid.call('echo', 1), env.hybrid.call('echo', 2)];
  for (const call of calls) await assert.rejects(call, { code: 'BRIDGE_RESET', message: /native did not take the message/ });
  env.native.rejectPosts = false;
  assert.strictEqual(await env.hybrid.call('echo', 3), 3);
});

test('a page script that replaces window.webkit after start-up does not see the posts', async () => {
  const seen = [];
  const env = boot({
    direct: true,
    content(page) {
      page.global.webkit = { messageHandlers: { hybridshellDirect: { postMessage: (text) => { seen.push(text); return Promise.resolve('[]'); } } } };
    },
  });
  await env.hybrid.ready;
  assert.strictEqual(await env.hybrid.call('echo', 'x'), 'x');
  assert.deepStrictEqual(seen, []);
});

test('native calls answered at once still ride back on their delivery', async () => {
  const env = boot({ direct: true });
  await env.hybrid.ready;
  env.hybrid.register('page.square', (n) => n * n);
  assert.strictEqual(await env.native.callPage('page.square', 7), 49);
  assert.strictEqual(env.native.directPosts.length, 0, 'the reply came back as the delivery answer');
});

test('without the direct handler everything goes through the relay', async () => {
  const env = boot();
  await env.hybrid.ready;
  assert.strictEqual(await env.hybrid.call('echo', 1), 1);
  assert.strictEqual(env.native.directPosts.length, 0);
  assert.strictEqual(env.native.posts.length, 2);
});
