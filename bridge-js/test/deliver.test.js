'use strict';

// The direct delivery (core.js deliver, PROTOCOL.md "The direct delivery"): native's down-frames
// go straight to the page world's __hybridshellPage.deliver(secret + framesText), which handles
// them only for this document's secret and answers like the relay's deliver.

const test = require('node:test');
const assert = require('node:assert');
const { boot, plain } = require('../harness/boot');

function secretOf(env) {
  return env.native.sessions.get(env.native.session).secret;
}

async function directEnv(options = {}) {
  const env = boot({ direct: true, ...options });
  await env.hybrid.ready;
  env.native.directDelivery = true;
  return env;
}

test('the hello offers the direct delivery, and native calls answered at once come back as its answer', async () => {
  const env = await directEnv();
  assert.strictEqual(env.native.sessions.get(env.native.session).deliver, true);
  env.hybrid.register('page.echo', (value) => value);
  const nasty = { text: 'quote " \u2028 🦊', list: [1, null, true] };
  assert.deepStrictEqual(plain(await env.native.callPage('page.echo', nasty)), nasty);
  assert.strictEqual(env.native.directDeliveries.length, 1, 'through the page world, not the relay');
  const answer = JSON.parse(env.native.deliveryAnswers[0]);
  assert.deepStrictEqual(answer.map((frame) => [frame.t, frame.ok]), [['reply', true]]);
  assert.strictEqual(env.native.directPosts.length, 0, 'the reply rode back on the delivery');
});

test('a delivery for another secret is refused before anything in it runs', async () => {
  const env = await directEnv();
  const seen = [];
  env.hybrid.on('ping', (data) => seen.push(data));
  env.hybrid.register('page.spy', (value) => { seen.push('spy ' + value); return value; });
  const secret = secretOf(env);
  const deliver = env.window.__hybridshellPage.deliver;
  const frames = '[{"t":"event","n":"ping","d":1},{"t":"call","id":9,"h":"page.spy","d":2}]';
  assert.strictEqual(deliver('f'.repeat(32) + frames), false);
  assert.strictEqual(deliver(secret.slice(1) + '0' + frames), false, 'one digit off');
  assert.strictEqual(deliver(env.native.session + frames), false, 'the session id is not the secret');
  assert.strictEqual(deliver(secret.slice(0, 31)), false, 'too short');
  assert.strictEqual(deliver(frames), false);
  assert.strictEqual(deliver(undefined), false);
  assert.strictEqual(deliver({ toString: () => secret + frames }), false, 'only a string');
  await env.settle();
  assert.deepStrictEqual(seen, []);
  assert.deepStrictEqual(env.native.directPosts, [], 'nothing answered a refused delivery');
  assert.strictEqual(typeof deliver(secret + '[{"t":"event","n":"ping","d":3}]'), 'string');
  await env.settle();
  assert.deepStrictEqual(seen, [3]);
});

test('events and a handler that answers later: the answer is empty and the reply is posted', async () => {
  const env = await directEnv();
  env.hybrid.register('page.later', (value) => new Promise((resolve) => setTimeout(() => resolve(value * 2), 0)));
  const events = [];
  env.hybrid.on('news', (data) => events.push(data));
  const deliver = env.window.__hybridshellPage.deliver;
  assert.strictEqual(deliver(secretOf(env) + '[{"t":"event","n":"news","d":"a"}]'), '');
  assert.strictEqual(await env.native.callPage('page.later', 21), 42);
  assert.deepStrictEqual(events, ['a']);
  assert.strictEqual(env.native.directPosts.length, 1, 'the late reply went as a post');
  assert.strictEqual(deliver(secretOf(env) + 'not json'), '');
  assert.strictEqual(deliver(secretOf(env) + '{"t":"event"}'), '', 'not an array');
});

test('a page script that took __hybridshellPage first keeps it, and the document uses the relay', async () => {
  const env = boot({
    direct: true,
    order: 'dynamic',
    content: (world) => world.run("Object.defineProperty(window, '__hybridshellPage', { value: { deliver: function () { window.stolen = arguments; } } });"),
  });
  await env.hybrid.ready;
  env.native.directDelivery = true;
  assert.strictEqual(env.native.sessions.get(env.native.session).deliver, false, 'the hello did not offer it');
  env.hybrid.register('page.echo', (value) => value);
  assert.strictEqual(await env.native.callPage('page.echo', 'via relay'), 'via relay');
  assert.strictEqual(env.native.directDeliveries.length, 0);
  assert.strictEqual(env.window.stolen, undefined);
});

test('the function is fixed for the document: page scripts cannot replace or wrap it', async () => {
  const env = await directEnv();
  const original = env.window.__hybridshellPage;
  env.page.run("try { window.__hybridshellPage = { deliver: function () { window.stolen = true; } }; } catch (e) {}");
  env.page.run("try { delete window.__hybridshellPage; } catch (e) {}");
  env.page.run("try { window.__hybridshellPage.deliver = function () { window.stolen = true; }; } catch (e) {}");
  assert.strictEqual(env.window.__hybridshellPage, original);
  env.hybrid.register('page.echo', (value) => value);
  assert.strictEqual(await env.native.callPage('page.echo', 'still ours'), 'still ours');
  assert.strictEqual(env.window.stolen, undefined);
});
