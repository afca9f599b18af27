'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { boot, plain } = require('../harness/boot');

// The setup snippets pages copy from the WebViewJavascriptBridge README.
const SETUP_V6 = `
  function setupWebViewJavascriptBridge(callback) {
    if (window.WebViewJavascriptBridge) { return callback(WebViewJavascriptBridge); }
    if (window.WVJBCallbacks) { return window.WVJBCallbacks.push(callback); }
    window.WVJBCallbacks = [callback];
    var WVJBIframe = document.createElement('iframe');
    WVJBIframe.style.display = 'none';
    WVJBIframe.src = '__SCHEME__://__BRIDGE_LOADED__';
    document.documentElement.appendChild(WVJBIframe);
    setTimeout(function() { document.documentElement.removeChild(WVJBIframe) }, 0);
  }
  window.setups = [];
  setupWebViewJavascriptBridge(function(bridge) { setups.push(bridge === window.WebViewJavascriptBridge); });
  setupWebViewJavascriptBridge(function(bridge) { setups.push('second'); });
`;

const CONNECT_V4 = `
  window.connected = [];
  function connectWebViewJavascriptBridge(callback) {
    if (window.WebViewJavascriptBridge) {
      callback(WebViewJavascriptBridge);
    } else {
      document.addEventListener('WebViewJavascriptBridgeReady', function(event) { callback(event.bridge); }, false);
    }
  }
  connectWebViewJavascriptBridge(function(bridge) { connected.push(bridge === window.WebViewJavascriptBridge); });
`;

async function ready(options) {
  const env = boot(options);
  await env.hybrid.ready;
  return { env, bridge: env.window.WebViewJavascriptBridge };
}

function lastFrames(env) {
  return JSON.parse(env.native.posts.at(-1)).m;
}

for (const scheme of ['https', 'wvjbscheme']) {
  test(`v5/v6 bootstrap through ${scheme}://__BRIDGE_LOADED__ calls and clears WVJBCallbacks`, async () => {
    const env = boot({ order: 'dynamic', content: (world) => world.run(SETUP_V6.replace('__SCHEME__', scheme)) });
    assert.deepStrictEqual(env.dom.navigations, [`${scheme}://__BRIDGE_LOADED__`]);
    assert.strictEqual(env.native.bridgeLoaded, 1);
    assert.deepStrictEqual([...env.window.setups], []);
    await env.clock.tick(0);
    assert.deepStrictEqual([...env.window.setups], [true, 'second']);
    assert.strictEqual(env.window.WVJBCallbacks, undefined);
  });
}

test('v5/v6 setup finds the bridge at once when page.js ran at document start', () => {
  const env = boot({ content: (world) => world.run(SETUP_V6.replace('__SCHEME__', 'https')) });
  assert.deepStrictEqual([...env.window.setups], [true, 'second']);
  assert.deepStrictEqual(env.dom.navigations, []);
});

test('v4 pages get the WebViewJavascriptBridgeReady event with event.bridge', () => {
  const env = boot({ order: 'dynamic', content: (world) => world.run(CONNECT_V4) });
  assert.deepStrictEqual([...env.window.connected], [true]);
});

test('callHandler in its three forms calls native through the fast path', async () => {
  const { env, bridge } = await ready();
  const responses = [];
  bridge.callHandler('echo', { n: 1 }, (response) => responses.push(plain(response)));
  bridge.callHandler('echo', (response) => responses.push(response));
  bridge.callHandler('echo');
  await env.settle();
  assert.deepStrictEqual(responses, [{ n: 1 }, null]);
  assert.deepStrictEqual(lastFrames(env).map((f) => [f.h, f.d, f.dl]), [['echo', { n: 1 }, 'wvjb'], ['echo', null, 'wvjb'], ['echo', null, 'wvjb']]);
});

test('an error reply is logged and handed to the responseCallback as {error}', async () => {
  const { env, bridge } = await ready();
  const response = await new Promise((resolve) => bridge.callHandler('fixture.fail', {}, resolve));
  assert.deepStrictEqual(plain(response), { error: { code: 'HANDLER_ERROR', message: 'fixture failure', details: null } });
  bridge.callHandler('no.such.handler', {});
  await env.settle();
  assert.deepStrictEqual(env.logs('error'), [
    'WebViewJavascriptBridge: HANDLER_ERROR: fixture failure',
    'WebViewJavascriptBridge: NOT_FOUND: no native handler named "no.such.handler"',
  ]);
});

test('handlers registered for native run in a setTimeout(0), as in the original', async () => {
  const { env, bridge } = await ready();
  let ran = false;
  bridge.registerHandler('page.greet', (data, responseCallback) => {
    ran = true;
    responseCallback('hi ' + data.name);
  });
  const result = env.native.callPage('page.greet', { name: 'native' });
  await env.settle();
  assert.strictEqual(ran, false);
  await env.clock.tick(0);
  assert.strictEqual(await result, 'hi native');
});

test('disableJavscriptAlertBoxSafetyTimeout dispatches handlers at once', async () => {
  const { env, bridge } = await ready();
  await env.clock.tick(0);
  bridge.disableJavscriptAlertBoxSafetyTimeout();
  bridge.registerHandler('page.now', (data, responseCallback) => responseCallback(data + 1));
  assert.strictEqual(await env.native.callPage('page.now', 1), 2, 'answered without advancing time');
  // No timer is left: the outbox counts posts per task without one.
  assert.strictEqual(env.clock.pending, 0);
});

test('removeHandler, throwing handlers and unknown names answer errors', async () => {
  const { env, bridge } = await ready();
  bridge.disableJavscriptAlertBoxSafetyTimeout();
  bridge.registerHandler('page.gone', (data, responseCallback) => responseCallback(1));
  bridge.removeHandler('page.gone');
  bridge.registerHandler('page.throws', () => { throw new Error('handler bug'); });
  await assert.rejects(env.native.callPage('page.gone'), { code: 'NOT_FOUND' });
  await assert.rejects(env.native.callPage('page.throws'), { code: 'HANDLER_ERROR', message: 'handler bug' });
});

test('v4 init sets the handler for names the page never registered; send calls the default handler "*"', async () => {
  const { env, bridge } = await ready();
  bridge.disableJavscriptAlertBoxSafetyTimeout();
  bridge.registerHandler('page.known', (data, responseCallback) => responseCallback('known'));
  bridge.init((message, responseCallback) => responseCallback({ byDefault: message }));
  assert.deepStrictEqual(plain(await env.native.callPage('page.other', 'x')), { byDefault: 'x' });
  assert.strictEqual(await env.native.callPage('page.known'), 'known');
  const sent = await new Promise((resolve) => bridge.send({ hello: 1 }, resolve));
  assert.deepStrictEqual(plain(sent), { hello: 1 });
  assert.deepStrictEqual(lastFrames(env).map((f) => [f.h, f.dl]), [['*', 'wvjb']]);
});

test('_handleMessageFromObjC and _fetchQueue speak the original message format', async () => {
  const { env, bridge } = await ready();
  bridge.registerHandler('page.legacy', (data, responseCallback) => responseCallback({ got: data }));
  const response = env.native.callPageLegacy('page.legacy', 'hello');
  await env.clock.tick(0);
  assert.deepStrictEqual(plain(await response), { got: 'hello' });
  assert.deepStrictEqual(env.dom.navigations, ['https://__wvjb_queue_message__']);
  assert.strictEqual(bridge._fetchQueue(), '[]');

  bridge.disableJavscriptAlertBoxSafetyTimeout();
  bridge._handleMessageFromObjC(JSON.stringify({ handlerName: 'page.legacy', data: 2, callbackId: 'objc_cb_9' }));
  assert.deepStrictEqual(JSON.parse(bridge._fetchQueue()), [{ handlerName: 'page.legacy', responseId: 'objc_cb_9', responseData: { got: 2 } }]);
  bridge._handleMessageFromObjC(JSON.stringify({ handlerName: 'page.missing', data: 1, callbackId: 'objc_cb_10' }));
  assert.strictEqual(JSON.parse(bridge._fetchQueue())[0].responseData.error.code, 'NOT_FOUND');
  bridge._handleMessageFromObjC(JSON.stringify({ responseId: 'unknown', responseData: 1 }));
  bridge._handleMessageFromObjC('not json');
  assert.deepStrictEqual(env.dom.errors, []);
});

test('a page that brings its own WebViewJavascriptBridge keeps it', async () => {
  const env = boot({ order: 'dynamic', content: (world) => world.run('window.WebViewJavascriptBridge = { mine: true };') });
  await env.hybrid.ready;
  assert.strictEqual(env.window.WebViewJavascriptBridge.mine, true);
  const frame = JSON.parse(env.native.posts[0]).m[0];
  assert.deepStrictEqual(frame.dialects, ['hybrid', 'dsbridge', 'wx']);
});

// Issue 11, item 9: the original's global never exists while the page's own scripts run.
test('at document start a v6 setup that precedes its elements is called back only after parsing, in a later task', async () => {
  const env = boot({
    parsing: true,
    content: (world) => world.run(SETUP_V6.replace('__SCHEME__', 'https') + `
      window.sawGlobalWhileParsing = Boolean(window.WebViewJavascriptBridge);
    `),
  });
  assert.strictEqual(env.window.sawGlobalWhileParsing, false, 'no global while the page parses');
  assert.deepStrictEqual(env.dom.navigations, ['https://__BRIDGE_LOADED__'], 'the page made its bootstrap request');
  await env.clock.tick(0);
  assert.deepStrictEqual([...env.window.setups], [], 'nothing is called back before the document is parsed');
  env.dom.finishParsing();
  assert.strictEqual(typeof env.window.WebViewJavascriptBridge, 'object', 'the global exists once parsed');
  assert.deepStrictEqual([...env.window.setups], [], 'WVJBCallbacks wait for a later task');
  await env.clock.tick(0);
  assert.deepStrictEqual([...env.window.setups], [true, 'second']);
  assert.strictEqual(env.window.WVJBCallbacks, undefined);
});

test('at document start a v4 page listening from <head> gets WebViewJavascriptBridgeReady once, with event.bridge', async () => {
  const env = boot({ parsing: true, content: (world) => world.run(CONNECT_V4) });
  assert.deepStrictEqual([...env.window.connected], [], 'not during parsing');
  env.dom.finishParsing();
  assert.deepStrictEqual([...env.window.connected], [true]);
  env.dom.documentTarget.dispatch(null, new env.window.Event('DOMContentLoaded'));
  await env.clock.tick(0);
  assert.deepStrictEqual([...env.window.connected], [true], 'exactly once per document');
});

test('a page that defines its own WebViewJavascriptBridge while parsing keeps it', async () => {
  const env = boot({ parsing: true, content: (world) => world.run('window.WebViewJavascriptBridge = { mine: true };') });
  env.dom.finishParsing();
  await env.hybrid.ready;
  assert.strictEqual(env.window.WebViewJavascriptBridge.mine, true);
});

test('send without a native default handler fails with NOT_FOUND', async () => {
  const { env, bridge } = await ready();
  env.native.handlers.delete('*');
  const response = await new Promise((resolve) => bridge.send('x', resolve));
  assert.strictEqual(plain(response).error.code, 'NOT_FOUND');
});
