'use strict';
// hybrid.updates (src/page/updates.js) against the fake native: calls, events, and the replay of
// the current state to a listener that came after the event.

const test = require('node:test');
const assert = require('node:assert');
const { boot, plain } = require('../harness/boot');

async function started(status) {
  const env = boot();
  env.native.handle('updates.status', () => status.value);
  env.native.handle('updates.check', () => Object.assign({}, status.value, { checked: true }));
  env.native.handle('updates.apply', () => ({ version: '1.2.0', sequence: 2 }));
  await env.hybrid.ready;
  env.page.run('window.seen = []; window.record = (kind) => (value) => seen.push([kind, value]);');
  return env;
}

const nothing = { appID: 'demo', hasUpdate: false, ready: false, checking: false, checked: false };

test('check, status and apply are calls to the updates module', async () => {
  const env = await started({ value: nothing });
  assert.deepStrictEqual(plain(await env.window.hybrid.updates.check()), Object.assign({}, nothing, { checked: true }));
  assert.deepStrictEqual(plain(await env.window.hybrid.updates.status()), nothing);
  assert.deepStrictEqual(plain(await env.window.hybrid.updates.apply()), { version: '1.2.0', sequence: 2 });
});

test('events reach their listeners: checked always, available only with an update', async () => {
  const env = await started({ value: nothing });
  env.page.run(`for (const kind of ['checked', 'available', 'ready', 'failed']) hybrid.updates.on(kind, record(kind));`);
  await env.settle();
  env.native.emit('updates.checked', { hasUpdate: false });
  env.native.emit('updates.checked', { hasUpdate: true });
  env.native.emit('updates.ready', { appID: 'demo', version: '1.2.0', sequence: 2 });
  env.native.emit('updates.failed', { appID: 'demo', reason: 'cut' });
  await env.settle();
  assert.deepStrictEqual(plain(env.window.seen), [
    ['checked', { hasUpdate: false }], ['checked', { hasUpdate: true }], ['available', { hasUpdate: true }],
    ['ready', { appID: 'demo', version: '1.2.0', sequence: 2 }], ['failed', { appID: 'demo', reason: 'cut' }],
  ]);
});

test('a listener added after the update was ready is told once', async () => {
  const ready = { appID: 'demo', hasUpdate: true, ready: true, checking: false, checked: true, version: '1.2.0', sequence: 2, failure: 'old' };
  const env = await started({ value: ready });
  env.page.run(`for (const kind of ['checked', 'available', 'ready', 'failed']) hybrid.updates.on(kind, record(kind));`);
  await env.settle();
  const kinds = plain(env.window.seen).map((entry) => entry[0]).sort();
  assert.deepStrictEqual(kinds, ['available', 'checked', 'failed', 'ready']);
  assert.deepStrictEqual(plain(env.window.seen).find((entry) => entry[0] === 'ready')[1], { appID: 'demo', version: '1.2.0', sequence: 2 });
});

test('nothing is replayed before a check finished, nor to a removed listener', async () => {
  const env = await started({ value: nothing });
  env.page.run(`
    const gone = record('gone');
    hybrid.updates.on('checked', record('checked'));
    hybrid.updates.on('ready', gone);
    hybrid.updates.off('ready', gone);
  `);
  await env.settle();
  assert.deepStrictEqual(plain(env.window.seen), []);
});

test('wx.getUpdateManager maps to hybrid.updates with WeChat shapes', async () => {
  const env = await started({ value: nothing });
  // The wx.* module facade is added after the bridge script when modules are enabled.
  const fs = require('node:fs');
  const path = require('node:path');
  env.page.run(fs.readFileSync(path.join(__dirname, '..', 'src', 'modules', 'wx-modules.js'), 'utf8'), 'wx-modules.js');
  env.page.run(`
    const manager = wx.getUpdateManager();
    window.same = manager === wx.getUpdateManager();
    manager.onCheckForUpdate(record('check'));
    manager.onUpdateReady(record('ready'));
    manager.onUpdateFailed(record('failed'));
  `);
  await env.settle();
  env.native.emit('updates.checked', { hasUpdate: true, ready: false });
  env.native.emit('updates.ready', { appID: 'demo', version: '1.2.0', sequence: 2 });
  env.native.emit('updates.failed', { appID: 'demo', reason: 'cut' });
  await env.settle();
  assert.strictEqual(env.window.same, true);
  assert.deepStrictEqual(plain(env.window.seen), [['check', { hasUpdate: true }], ['ready', {}], ['failed', { errMsg: 'updateManager:fail cut' }]]);
});

test('on and off refuse unknown kinds', async () => {
  const env = await started({ value: nothing });
  assert.throws(() => env.window.hybrid.updates.on('installed', () => {}), /checked', 'available', 'ready', 'failed/);
  assert.throws(() => env.window.hybrid.updates.on('ready'), { name: 'TypeError' });
});
