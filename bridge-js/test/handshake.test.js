'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { boot, plain, PAGE } = require('../harness/boot');

function envelopes(native) {
  return native.posts.map((text) => JSON.parse(text));
}

for (const order of ['relay-first', 'page-first', 'dynamic']) {
  test(`handshake completes when ${order}`, async () => {
    const env = boot({ order });
    await env.hybrid.ready;
    const [hello, ...rest] = envelopes(env.native);
    assert.strictEqual(rest.length, 0);
    assert.strictEqual(hello.v, 1);
    assert.match(hello.s, /^[0-9a-f]{32}$/);
    assert.strictEqual(hello.m.length, 1);
    const frame = hello.m[0];
    assert.deepStrictEqual(Object.keys(frame), ['t', 'url', 'origin', 'secret', 'dialects', 'deliver']);
    assert.strictEqual(frame.deliver, true);
    assert.strictEqual(frame.url, 'https://app.example/index.html');
    assert.strictEqual(frame.origin, 'https://app.example');
    assert.match(frame.secret, /^[0-9a-f]{32}$/);
    assert.notStrictEqual(frame.secret, hello.s);
    assert.deepStrictEqual(frame.dialects, ['hybrid', 'wvjb', 'dsbridge', 'wx']);
    assert.strictEqual(await env.hybrid.call('echo', 'after handshake'), 'after handshake');
    assert.deepStrictEqual(env.dom.errors, []);
  });
}

test('each document gets its own random session and secret', async () => {
  const first = boot();
  const second = boot();
  await Promise.all([first.hybrid.ready, second.hybrid.ready]);
  const [a, b] = [first, second].map((env) => JSON.parse(env.native.posts[0]));
  assert.notStrictEqual(a.s, b.s);
  assert.notStrictEqual(a.m[0].secret, b.m[0].secret);
});

test('a second injection of page.js is a no-op', async () => {
  const env = boot();
  const { hybrid, WebViewJavascriptBridge, wx, prompt } = env.window;
  env.injectPage();
  await env.hybrid.ready;
  assert.strictEqual(env.window.hybrid, hybrid);
  assert.strictEqual(env.window.WebViewJavascriptBridge, WebViewJavascriptBridge);
  assert.strictEqual(env.window.wx, wx);
  assert.strictEqual(env.window.prompt, prompt);
  assert.strictEqual(await env.hybrid.call('echo', 1), 1);
  assert.strictEqual(env.native.posts.length, 2, 'one hello and one call');
});

test('a second run of relay.js is a no-op', async () => {
  const env = boot();
  const relay = env.isolated.global.__hybridshellRelay;
  env.runRelay();
  await env.hybrid.ready;
  assert.strictEqual(env.isolated.global.__hybridshellRelay, relay);
  assert.strictEqual(env.native.sessions.size, 1);
});

test('page.js works when injected after the page has loaded', async () => {
  const env = boot({ order: 'dynamic', content: (world) => world.run('window.loaded = true;') });
  assert.strictEqual(env.window.loaded, true);
  assert.strictEqual(await env.hybrid.call('fixture.add', { a: 1, b: 2 }), 3);
});

test('nothing but the public objects reaches the page globals', () => {
  const env = boot({ order: 'no-page-script' });
  const before = new Set(Object.getOwnPropertyNames(env.window));
  env.injectPage();
  const added = Object.getOwnPropertyNames(env.window).filter((name) => !before.has(name)).sort();
  assert.deepStrictEqual(added, ['KGJSBridge', 'WebViewJavascriptBridge', '__hybridshellPage', '_dswk', 'hybrid', 'wx']);
  const descriptor = Object.getOwnPropertyDescriptor(env.window, '__hybridshellPage');
  assert.strictEqual(descriptor.writable || descriptor.configurable || descriptor.enumerable, false, 'fixed for the document');
  assert.ok(Object.isFrozen(descriptor.value));
  assert.strictEqual(typeof PAGE, 'string');
});

test('the relay adds nothing to the isolated world but __hybridshellRelay', () => {
  const env = boot({ order: 'no-relay' });
  const before = new Set(Object.getOwnPropertyNames(env.isolated.global));
  env.runRelay();
  const added = Object.getOwnPropertyNames(env.isolated.global).filter((name) => !before.has(name));
  assert.deepStrictEqual(added, ['__hybridshellRelay']);
});

test('the relay delivers only to its own session', async () => {
  const env = boot();
  await env.hybrid.ready;
  const relay = env.isolated.global.__hybridshellRelay;
  const events = [];
  env.hybrid.on('ping', (data) => events.push(data));
  assert.strictEqual(relay.deliver('ffffffffffffffffffffffffffffffff' + '[{"t":"event","n":"ping","d":1}]'), false);
  assert.strictEqual(typeof relay.deliver(env.native.session + '[{"t":"event","n":"ping","d":2}]').then, 'function');
  assert.strictEqual(relay.deliver(env.native.session.slice(1) + '[{"t":"event","n":"ping","d":3}]'), false);
  assert.strictEqual(relay.deliver(42), false);
  assert.strictEqual(relay.deliver([env.native.session + '[]']), false, 'only a string');
  assert.deepStrictEqual(events, [2]);
});

test('relay and page ignore events whose detail is not a string', async () => {
  const env = boot();
  await env.hybrid.ready;
  const posts = env.native.posts.length;
  env.page.run(`
    window.dispatchEvent(new CustomEvent('hybridshell:up', { detail: { t: 'call' } }));
    window.dispatchEvent(new CustomEvent('hybridshell:down', { detail: [{ t: 'event', n: 'x' }] }));
    window.dispatchEvent(new CustomEvent('hybridshell:down', { detail: 'not json' }));
  `);
  await env.settle();
  assert.strictEqual(env.native.posts.length, posts);
  assert.deepStrictEqual(env.dom.errors, []);
});

test('a denied document rejects ready and every call with DENIED, without posting', async () => {
  const env = boot({ native: { allowedOrigins: ['https://other.example'] } });
  const early = env.hybrid.call('echo', 'queued before the answer');
  await assert.rejects(env.hybrid.ready, (error) => error.code === 'DENIED' && error instanceof env.hybrid.HybridError);
  await assert.rejects(early, { code: 'DENIED' });
  await assert.rejects(env.hybrid.call('echo', 'later'), { code: 'DENIED' });
  assert.strictEqual(env.native.posts.length, 1, 'only the hello');
});

test('a denied document gets DENIED in every dialect', async () => {
  const env = boot({
    native: { allowedOrigins: [] },
    content: (world) => world.run(require('node:fs').readFileSync(require.resolve('../../pages/fixtures/bridge/lib/dsbridge-compat.js'), 'utf8')),
  });
  await assert.rejects(env.hybrid.ready, { code: 'DENIED' });
  const seen = {};
  env.window.WebViewJavascriptBridge.callHandler('echo', 1, (response) => { seen.wvjb = plain(response); });
  seen.dsbridgeSync = env.window.dsBridge.call('echo', 1);
  env.window.dsBridge.call('echo', 1, (response) => { seen.dsbridgeAsync = plain(response); });
  env.window.wx.invokeHandler('echo', { fail: (res) => { seen.wx = plain(res); } });
  env.window.KGJSBridge.callHandler('echo', 1, (res) => { seen.kg = res.code; });
  await env.settle();
  assert.strictEqual(seen.wvjb.error.code, 'DENIED');
  assert.strictEqual(seen.dsbridgeSync, null);
  assert.deepStrictEqual({ code: seen.dsbridgeAsync.code, errorCode: seen.dsbridgeAsync.errorCode }, { code: -1, errorCode: 'DENIED' });
  assert.strictEqual(seen.wx.errCode, 'DENIED');
  assert.strictEqual(seen.kg, -1);
  assert.deepStrictEqual(env.native.prompts.filter((p) => p.message.startsWith('_hybridshell_ds=')), [], 'no prompt reached native');
  assert.ok(env.logs('error').some((line) => line.startsWith('WebViewJavascriptBridge: DENIED')));
  assert.ok(env.logs('error').some((line) => line.startsWith('dsbridge: DENIED')));
});

test('a hello the message handler refuses ends the handshake with BRIDGE_RESET', async () => {
  const env = boot({ order: 'no-page-script' });
  env.native.rejectPosts = true;
  env.injectPage();
  await assert.rejects(env.hybrid.ready, { code: 'BRIDGE_RESET' });
});

test('calls in a post the message handler refuses get BRIDGE_RESET', async () => {
  const env = boot();
  await env.hybrid.ready;
  env.native.rejectPosts = true;
  const calls = [env.hybrid.call('echo', 1), env.hybrid.call('echo', 2)];
  for (const call of calls) await assert.rejects(call, { code: 'BRIDGE_RESET' });
  env.native.rejectPosts = false;
  assert.strictEqual(await env.hybrid.call('echo', 3), 3);
});

test('calls in a post native refuses as a whole get the refusal code', async () => {
  const env = boot();
  await env.hybrid.ready;
  env.native.answerPost = () => Promise.resolve('[{"t":"error","code":"INVALID_MESSAGE","message":"refused"}]');
  const calls = [env.hybrid.call('echo', 1), env.hybrid.call('echo', 2)];
  for (const call of calls) await assert.rejects(call, { code: 'INVALID_MESSAGE', message: 'refused' });
});

test('without a relay, calls fail at their deadline and nothing is posted', async () => {
  const env = boot({ order: 'no-relay' });
  const timedOut = assert.rejects(env.hybrid.call('echo', 1, { timeout: 100 }), { code: 'TIMEOUT' });
  await env.clock.tick(100);
  await timedOut;
  assert.strictEqual(env.native.posts.length, 0);
});
