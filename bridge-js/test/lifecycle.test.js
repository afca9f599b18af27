'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { boot } = require('../harness/boot');

// Records every lifecycle delivery the page can observe, in order, as "<channel>:<name>".
function recorder(world) {
  world.run(`
    window.seen = [];
    for (const name of ['ready', 'show', 'hide', 'unload']) {
      hybrid.on(name, (data) => seen.push('on:' + name + (data === null || data === undefined ? '' : '=' + JSON.stringify(data))));
      window.addEventListener('hybrid:' + name, (event) => seen.push('dom:' + name));
    }
    wx.onReady(() => seen.push('wx:ready'));
    wx.onShow(() => seen.push('wx:show'));
    wx.onHide(() => seen.push('wx:hide'));
    wx.onUnload(() => seen.push('wx:unload'));
  `);
}

async function started() {
  const env = boot({ content: recorder });
  await env.hybrid.ready;
  return env;
}

function onlyOn(env) {
  return [...env.window.seen].filter((entry) => entry.startsWith('on:'));
}

test('ready fires once the handshake completes, on every channel', async () => {
  const env = await started();
  assert.deepStrictEqual([...env.window.seen], ['on:ready', 'dom:ready', 'wx:ready']);
});

test('show and hide reach hybrid.on, DOM events and wx hooks with their data', async () => {
  const env = await started();
  env.native.emit('show', { reason: 'foreground' });
  await env.settle();
  assert.deepStrictEqual([...env.window.seen].slice(3), ['on:show={"reason":"foreground"}', 'dom:show', 'wx:show']);
  env.page.run('window.addEventListener("hybrid:hide", (event) => { window.hideDetail = event.detail; });');
  env.native.emit('hide', { reason: 'background' });
  await env.settle();
  assert.strictEqual(env.window.hideDetail.reason, 'background');
});

test('a show that arrives before ready waits for it', async () => {
  const env = boot({ order: 'no-page-script', content: undefined });
  const release = env.native.deferHello();
  env.injectPage();
  recorder(env.page);
  await env.settle();
  env.native.deliver('[{"t":"event","n":"show","d":null}]');
  assert.deepStrictEqual([...env.window.seen], []);
  release();
  await env.hybrid.ready;
  await env.settle();
  assert.deepStrictEqual(onlyOn(env), ['on:ready', 'on:show']);
});

test('a show is not delivered twice without a hide in between', async () => {
  const env = await started();
  for (const name of ['show', 'show', 'hide', 'hide', 'show', 'show']) env.native.emit(name);
  await env.settle();
  assert.deepStrictEqual(onlyOn(env), ['on:ready', 'on:show', 'on:hide', 'on:show']);
});

test('unload fires once: native unload, then pagehide', async () => {
  const env = await started();
  env.native.emit('unload');
  await env.settle();
  env.dom.pagehide();
  env.native.emit('show');
  await env.settle();
  assert.deepStrictEqual(onlyOn(env), ['on:ready', 'on:unload']);
  assert.strictEqual(env.window.seen.filter((entry) => entry.endsWith(':unload')).length, 3);
});

test('unload fires once: pagehide, then a late native unload', async () => {
  const env = await started();
  env.dom.pagehide();
  env.native.deliver('[{"t":"event","n":"unload","d":null},{"t":"event","n":"show","d":null}]');
  await env.settle();
  assert.deepStrictEqual(onlyOn(env), ['on:ready', 'on:unload']);
});

test('native cannot fire ready: it is local', async () => {
  const env = await started();
  env.native.emit('ready');
  await env.settle();
  assert.deepStrictEqual(onlyOn(env), ['on:ready']);
  assert.ok(env.logs('warn').some((line) => line.includes('ready is local')));
});

test('a ready listener added after ready still runs, once', async () => {
  const env = await started();
  env.page.run(`
    window.late = [];
    hybrid.on('ready', () => late.push('on'));
    wx.onReady(() => late.push('wx'));
    wx.onReady = () => late.push('assigned');
  `);
  await env.settle();
  assert.deepStrictEqual([...env.window.late].sort(), ['assigned', 'on', 'wx']);
});

test('wx hooks may also be assigned, as KGJSBridge pages do', async () => {
  const env = await started();
  env.page.run(`
    window.assigned = [];
    wx.onShow = function () { assigned.push('first'); };
    wx.onShow = function () { assigned.push('second'); };
    wx.onHide = function (data) { assigned.push('hide ' + data.why); };
  `);
  assert.strictEqual(typeof env.window.wx.onShow, 'function', 'reading the hook still gives the registrar');
  env.native.emit('show');
  env.native.emit('hide', { why: 'test' });
  await env.settle();
  assert.deepStrictEqual([...env.window.assigned], ['second', 'hide test']);
});

test('calls made by unload handlers on pagehide still leave the document', async () => {
  const env = await started();
  env.hybrid.on('unload', () => { env.hybrid.call('echo', 'goodbye').catch(() => {}); });
  const postsBefore = env.native.posts.length;
  env.dom.pagehide();
  await env.settle();
  const sent = env.native.posts.slice(postsBefore).join('');
  assert.ok(sent.includes('"d":"goodbye"'), 'the unload handler\'s call was posted');
});
