'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { boot, plain } = require('../harness/boot');
const { NativeError } = require('../harness/native');

async function ready(options) {
  const env = boot(options);
  env.native.handle('user.cancels', () => { throw new NativeError('CANCELLED', 'user cancelled'); });
  await env.hybrid.ready;
  return { env, wx: env.window.wx };
}

// Runs wx.invokeHandler and records which callbacks ran, in order, with their argument.
function invoke(env, path, params, callbackNames = ['success', 'fail', 'cancel', 'unknown', 'complete']) {
  return new Promise((resolve) => {
    const calls = [];
    const options = { ...params };
    for (const name of callbackNames) {
      options[name] = (res) => {
        calls.push([name, plain(res)]);
        if (name === 'complete') resolve(calls);
      };
    }
    env.window.wx.invokeHandler(path, options);
  });
}

test('success gets the result with errMsg "<path>:ok", then complete', async () => {
  const { env } = await ready();
  assert.deepStrictEqual(await invoke(env, 'echo', { message: 'hi' }), [
    ['success', { message: 'hi', errMsg: 'echo:ok' }],
    ['complete', { message: 'hi', errMsg: 'echo:ok' }],
  ]);
  const frame = JSON.parse(env.native.posts.at(-1)).m[0];
  assert.deepStrictEqual([frame.h, plain(frame.d), frame.dl], ['echo', { message: 'hi' }, 'wx']);
});

test('a result that is not an object arrives as {data}', async () => {
  const { env } = await ready();
  assert.deepStrictEqual((await invoke(env, 'fixture.add', { a: 1, b: 2 }))[0], ['success', { data: 3, errMsg: 'fixture.add:ok' }]);
});

test('a failure goes to fail with errMsg "<path>:<message>"', async () => {
  const { env } = await ready();
  const failure = { errMsg: 'fixture.fail:fixture failure', errCode: 'HANDLER_ERROR', details: null };
  assert.deepStrictEqual(await invoke(env, 'fixture.fail', {}), [['fail', failure], ['complete', failure]]);
});

test('CANCELLED goes to cancel', async () => {
  const { env } = await ready();
  const calls = await invoke(env, 'user.cancels', {});
  assert.deepStrictEqual(calls.map(([name, res]) => [name, res.errCode]), [['cancel', 'CANCELLED'], ['complete', 'CANCELLED']]);
});

test('NOT_FOUND goes to unknown when there is one, to fail otherwise', async () => {
  const { env } = await ready();
  const withUnknown = await invoke(env, 'no.such.api', {});
  assert.deepStrictEqual(withUnknown.map(([name]) => name), ['unknown', 'complete']);
  assert.match(withUnknown[0][1].errMsg, /^no\.such\.api:/);
  const withoutUnknown = await invoke(env, 'no.such.api', {}, ['success', 'fail', 'complete']);
  assert.deepStrictEqual(withoutUnknown.map(([name, res]) => [name, res.errCode]), [['fail', 'NOT_FOUND'], ['complete', 'NOT_FOUND']]);
});

test('complete still runs when a callback throws', async () => {
  const { env, wx } = await ready();
  const completed = await new Promise((resolve) => wx.invokeHandler('echo', {
    success: () => { throw new Error('page bug'); },
    complete: (res) => resolve(res.errMsg),
  }));
  assert.strictEqual(completed, 'echo:ok');
  await env.clock.tick(0);
  assert.deepStrictEqual(env.dom.errors.map((e) => e.message), ['page bug']);
});

test('subscribeHandler answers native through data.callback', async () => {
  const { env, wx } = await ready();
  wx.subscribeHandler('page.ping', (data) => data.callback({ pong: data.n }));
  wx.subscribeHandler('page.wrap', (data) => data.callback(data.data));
  wx.subscribeHandler('page.empty', (data) => data.callback(Object.keys(data)));
  assert.deepStrictEqual(plain(await env.native.callPage('page.ping', { n: 7 })), { pong: 7 });
  assert.strictEqual(await env.native.callPage('page.wrap', 'text'), 'text');
  assert.deepStrictEqual(plain(await env.native.callPage('page.empty', null)), ['callback']);
});

test('KGJSBridge answers with its response codes', async () => {
  const { env } = await ready();
  const kg = env.window.KGJSBridge;
  const call = (name, data) => new Promise((resolve) => kg.callHandler(name, data, (res) => resolve(plain(res))));
  assert.deepStrictEqual(await call('fixture.add', { a: 1, b: 1 }), { code: 200, message: 'ok', data: 2 });
  assert.strictEqual((await call('user.cancels', {})).code, -999);
  assert.strictEqual((await call('no.such.api', {})).code, 404);
  assert.deepStrictEqual(await call('fixture.fail', {}), { code: -1, message: 'fixture failure', data: {}, errorCode: 'HANDLER_ERROR', details: null });
  const twoArguments = await new Promise((resolve) => kg.callHandler('echo', (res) => resolve(res.data)));
  assert.strictEqual(twoArguments, null);

  kg.registerHandler('page.kg', (data, responseCallback) => responseCallback(data * 3));
  assert.strictEqual(await env.native.callPage('page.kg', 3), 9);
  assert.strictEqual(await kg._subscribeHandler('{"handlerName":"page.kg","data":2,"callbackId":"cb_1"}'), 6);
  assert.deepStrictEqual(plain(await kg._subscribeHandler('{"handlerName":"page.none"}')), { code: -1, message: 'No Api:page.none!' });
});

test('a page that brings its own wx SDK keeps it, and its assigned hooks still run', async () => {
  const env = boot({
    order: 'dynamic',
    content: (world) => world.run(`
      window.shown = 0;
      window.wx = { invokeHandler: function () { return 'mine'; } };
      wx.onShow = function () { shown++; };
    `),
  });
  await env.hybrid.ready;
  assert.strictEqual(env.window.wx.invokeHandler(), 'mine');
  env.native.emit('show');
  await env.settle();
  assert.strictEqual(env.window.shown, 1);
  assert.deepStrictEqual(JSON.parse(env.native.posts[0]).m[0].dialects, ['hybrid', 'wvjb', 'dsbridge']);
});

test('a window.wx without invokeHandler is extended, not replaced', async () => {
  const env = boot({ order: 'dynamic', content: (world) => world.run('window.wx = { config: function () { return "sdk"; } };') });
  await env.hybrid.ready;
  assert.strictEqual(env.window.wx.config(), 'sdk');
  assert.strictEqual(typeof env.window.wx.invokeHandler, 'function');
  assert.strictEqual(typeof env.window.wx.onShow, 'function');
});
