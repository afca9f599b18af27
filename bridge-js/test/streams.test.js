'use strict';
// hybrid.stream (src/page/streams.js) against the fake native and a fake `fetch` for the
// hybrid-stream: scheme: segments read until 204, chunks coalesced and split, two uploads in
// flight, errors with their code, cancel and abort reaching native.

const test = require('node:test');
const assert = require('node:assert');
const web = require('node:stream/web');
const { boot } = require('../harness/boot');

const URL = 'hybrid-stream://0123456789abcdef0123456789abcdef/';

// A fake hybrid-stream: server. `segments`: the bodies GET …/read answers, then 204.
function fakeScheme(segments, failAt) {
  const seen = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const reply = (status, body) => ({
    status,
    ok: status >= 200 && status < 300,
    body: body === undefined ? null : new web.ReadableStream({ start(c) { c.enqueue(body); c.close(); } }),
    text: async () => (typeof body === 'string' ? body : ''),
  });
  async function fetch(url, init) {
    const method = (init && init.method) || 'GET';
    const path = url.slice(URL.length);
    seen.push(method + ' ' + path + (init && init.body ? ' ' + init.body.byteLength : ''));
    if (method === 'GET') {
      if (failAt !== undefined && seen.length > failAt) return reply(500, JSON.stringify({ code: 'HANDLER_ERROR', message: 'disk gone' }));
      const next = segments.shift();
      return next === undefined ? reply(204) : reply(200, next);
    }
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    inFlight -= 1;
    return reply(204);
  }
  return { fetch, seen, maxInFlight: () => maxInFlight };
}

async function started(scheme) {
  const env = boot({ order: 'no-page-script', content: undefined });
  Object.assign(env.window, { fetch: scheme.fetch, ReadableStream: web.ReadableStream, WritableStream: web.WritableStream, AbortController });
  env.injectPage();
  env.native.handle('stream.open', (data) => {
    if (data.name === 'missing') throw new (require('../harness/native').NativeError)('NOT_FOUND', 'no native stream is named "missing"');
    return { url: URL, mode: data.mode };
  });
  await env.hybrid.ready;
  return env;
}

async function readAll(readable) {
  const reader = readable.getReader();
  const parts = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return parts;
    parts.push(Array.from(value));
  }
}

test('a readable reads segment after segment until native has finished (204)', async () => {
  const scheme = fakeScheme([new Uint8Array([1, 2]), new Uint8Array([3])]);
  const env = await started(scheme);
  const stream = env.hybrid.stream('source', { data: { size: 3 } });
  assert.strictEqual(stream.writable, undefined);
  assert.deepStrictEqual(await readAll(stream.readable), [[1, 2], [3]]);
  assert.deepStrictEqual(scheme.seen, ['GET read', 'GET read', 'GET read']);
});

test('a native failure errors the readable with its code and message', async () => {
  const scheme = fakeScheme([new Uint8Array([1])], 1);
  const env = await started(scheme);
  await assert.rejects(readAll(env.hybrid.stream('source').readable), (error) => error.code === 'HANDLER_ERROR' && error.message === 'disk gone');
});

test('an unknown name rejects opened and errors the stream with NOT_FOUND', async () => {
  const env = await started(fakeScheme([]));
  const stream = env.hybrid.stream('missing');
  await assert.rejects(stream.opened, (error) => error.code === 'NOT_FOUND');
  await assert.rejects(readAll(stream.readable), (error) => error.code === 'NOT_FOUND');
});

test('a writable coalesces small chunks, splits large ones, keeps two uploads in flight, then closes', async () => {
  const scheme = fakeScheme([]);
  const env = await started(scheme);
  env.window.stream = env.hybrid.stream('sink', { mode: 'write' });
  await env.window.eval(`(async () => {
    const writer = stream.writable.getWriter();
    await writer.write(new Uint8Array(10));
    await writer.write(new Uint8Array(20).buffer);
    await writer.write(new Uint8Array(9 << 20));
    for (let i = 0; i < 8; i++) await writer.write(new DataView(new ArrayBuffer(512 << 10)));
    await writer.close();
  })()`);
  assert.deepStrictEqual(scheme.seen, [
    'POST write?seq=0 30', 'POST write?seq=1 4194304', 'POST write?seq=2 4194304', 'POST write?seq=3 1048576',
    'POST write?seq=4 4194304', 'POST close',
  ]);
  assert.strictEqual(scheme.maxInFlight(), 2);
});

test('cancel and abort reach native; bad chunks and modes are refused', async () => {
  const scheme = fakeScheme([new Uint8Array([1])]);
  const env = await started(scheme);
  const { readable, writable } = env.hybrid.stream('echo', { mode: 'duplex' });
  await readable.cancel();
  await writable.abort();
  assert.deepStrictEqual(scheme.seen.filter((line) => line !== 'GET read'), ['POST cancel', 'POST abort']);
  await assert.rejects(env.hybrid.stream('sink', { mode: 'write' }).writable.getWriter().write('text'), { name: 'TypeError' });
  assert.throws(() => env.hybrid.stream('x', { mode: 'both' }), { name: 'TypeError' });
});
