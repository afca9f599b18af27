'use strict';
// The wx.* facade over the native modules (src/modules/wx-modules.js), against a fake `hybrid`
// and a fake synchronous transport: WeChat's callback shape, errMsg values, Promises, *Sync forms.

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const SOURCE = fs.readFileSync(path.join(__dirname, '..', 'src', 'modules', 'wx-modules.js'), 'utf8');

class FakeError extends Error {
  constructor(code, message, details) { super(message); this.code = code; this.details = details; }
}

// handlers: name → (data) => result, or throws FakeError.
function load(handlers, existingWx = {}) {
  const calls = [];
  const prompts = [];
  const run = (name, data) => {
    calls.push([name, data]);
    const handler = handlers[name];
    if (!handler) throw new FakeError('NOT_FOUND', 'no native handler named "' + name + '"');
    return handler(data);
  };
  const window = {
    JSON,
    setTimeout,
    wx: existingWx,
    hybrid: {
      call(name, data) {
        try { return Promise.resolve(run(name, data)); } catch (error) { return Promise.reject(error); }
      },
      on() {},
    },
    prompt(message, text) {
      prompts.push([message, JSON.parse(text)]);
      try {
        return JSON.stringify({ code: 0, data: run(message.slice('_dsbridge='.length), JSON.parse(text).data) });
      } catch (error) {
        return JSON.stringify({ code: -1, data: null, errorCode: error.code, message: error.message });
      }
    },
  };
  vm.runInNewContext(SOURCE, { window });
  return { wx: window.wx, calls, prompts };
}

function plain(value) { return JSON.parse(JSON.stringify(value)); }

test('callbacks get WeChat errMsg values: success then complete, fail then complete', async () => {
  const { wx, calls } = load({
    'storage.set': () => null,
    'storage.get': () => { throw new FakeError('HANDLER_ERROR', 'data not found', { reason: 'notFound' }); },
  });
  const seen = [];
  await new Promise((resolve) => wx.setStorage({
    key: 'k', data: { a: 1 },
    success: (res) => seen.push(['success', plain(res)]),
    complete: (res) => { seen.push(['complete', plain(res)]); resolve(); },
  }));
  await new Promise((resolve) => wx.getStorage({
    key: 'nope',
    fail: (res) => seen.push(['fail', plain(res)]),
    complete: (res) => { seen.push(['complete', res.errMsg]); resolve(); },
  }));
  assert.deepStrictEqual(seen, [
    ['success', { errMsg: 'setStorage:ok' }],
    ['complete', { errMsg: 'setStorage:ok' }],
    ['fail', { errMsg: 'getStorage:fail data not found', errCode: 'HANDLER_ERROR', details: { reason: 'notFound' } }],
    ['complete', 'getStorage:fail data not found'],
  ]);
  assert.deepStrictEqual(plain(calls), [['storage.set', { key: 'k', data: { a: 1 } }], ['storage.get', { key: 'nope' }]]);
});

test('without callbacks a function returns a Promise that rejects with the failure', async () => {
  const { wx } = load({ 'storage.info': () => ({ keys: ['a'], currentSize: 1, limitSize: 10240 }) });
  assert.deepStrictEqual(plain(await wx.getStorageInfo()), { keys: ['a'], currentSize: 1, limitSize: 10240, errMsg: 'getStorageInfo:ok' });
  await assert.rejects(wx.getClipboardData(), (failure) => failure.errMsg === 'getClipboardData:fail no native handler named "clipboard.get"');
});

test('the Sync forms go through the synchronous transport and throw "<api>:fail …"', () => {
  const store = new Map();
  const { wx, prompts } = load({
    'storage.set': (data) => { if (data.key === '') throw new FakeError('INVALID_MESSAGE', 'storage.set: key must not be empty'); store.set(data.key, data.data); return null; },
    'storage.get': (data) => ({ data: store.has(data.key) ? store.get(data.key) : data.default }),
  });
  wx.setStorageSync('n', 3);
  assert.strictEqual(wx.getStorageSync('n'), 3);
  assert.strictEqual(wx.getStorageSync('missing'), '');
  assert.throws(() => wx.setStorageSync('', 1), { message: 'setStorageSync:fail storage.set: key must not be empty' });
  assert.deepStrictEqual(prompts[0], ['_dsbridge=storage.set', { data: { key: 'n', data: 3 } }]);
  assert.deepStrictEqual(prompts[1], ['_dsbridge=storage.get', { data: { key: 'n', default: '' } }]);
});

test('only the documented fields reach native, and a page\'s own wx functions are kept', async () => {
  const own = () => 'mine';
  const { wx, calls } = load({ 'navigation.open': (data) => ({ pageId: 2, url: data.url }) }, { navigateTo: own });
  assert.strictEqual(wx.navigateTo, own);
  const { wx: fresh, calls: freshCalls } = load({ 'ui.showToast': () => null });
  await fresh.showToast({ title: 'Saved', icon: 'none', mask: true, duration: 10 });
  assert.deepStrictEqual(plain(freshCalls), [['ui.showToast', { title: 'Saved', icon: 'none', duration: 10 }]]);
  assert.deepStrictEqual(calls, []);
});

test('chooseVideo hands <video> the loopback mediaURL when there is one, else the hybrid-file url', async () => {
  const media = { url: 'hybrid-file://aa/clip.webm', mediaURL: 'http://127.0.0.1:4711/aa/clip.webm', name: 'clip.webm', size: 5 };
  const { wx } = load({ 'files.choose': () => media });
  assert.deepStrictEqual(plain(await wx.chooseVideo()),
    { tempFilePath: media.mediaURL, url: media.url, size: 5, errMsg: 'chooseVideo:ok' });
  const other = { url: 'hybrid-file://bb/notes.txt', name: 'notes.txt', size: 3 };
  const { wx: wx2 } = load({ 'files.choose': () => other });
  assert.deepStrictEqual(plain(await wx2.chooseVideo()),
    { tempFilePath: other.url, url: other.url, size: 3, errMsg: 'chooseVideo:ok' });
});
