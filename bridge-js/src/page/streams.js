// `hybrid.stream(name, options)`: binary streams between the page and a native handler
// (docs/streams.md). The bridge call `stream.open` answers a one-time `hybrid-stream://<token>/`
// URL bound to this document; the bytes then go over fetch, never as JSON: the ReadableStream
// reads `GET …/read` segments (response bodies), the WritableStream sends its chunks as
// `POST …/write?seq=N` request bodies (coalesced up to STREAM_CHUNK, at most two in flight, so a
// page that writes faster than native reads waits).

const STREAM_CHUNK = 4 << 20;
const STREAM_MODES = ['read', 'write', 'duplex'];

function createStreams(bridge) {
  // Captured now, before page scripts can replace them.
  const fetch = window.fetch;
  const ReadableStream = window.ReadableStream;
  const WritableStream = window.WritableStream;
  const AbortController = window.AbortController;
  const Uint8Array = window.Uint8Array;
  const ArrayBuffer = window.ArrayBuffer;

  function request(url, init) {
    return fetch.call(window, url, Object.assign({ cache: 'no-store' }, init));
  }

  // The error a failed stream request carries (the body is `{code, message}`).
  function failure(response) {
    return response.text().then(function (text) {
      let parsed = null;
      try { parsed = JSON.parse(text); } catch (ignored) { parsed = null; }
      if (parsed && typeof parsed.code === 'string') return new HybridError(parsed.code, parsed.message);
      return new HybridError(response.status === 404 || response.status === 410 ? ErrorCode.BRIDGE_RESET : ErrorCode.HANDLER_ERROR,
        'the stream failed: HTTP ' + response.status + ' ' + text.trim());
    });
  }

  function ok(response) {
    if (response.ok) return response;
    return failure(response).then(function (error) { throw error; });
  }

  function bytesOf(chunk) {
    if (chunk instanceof Uint8Array) return chunk;
    if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
    if (chunk && chunk.buffer instanceof ArrayBuffer && typeof chunk.byteLength === 'number') {
      return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
    throw new TypeError('a stream to native takes ArrayBuffer, TypedArray or DataView chunks');
  }

  function readable(opened) {
    let base = null;
    let reader = null;
    let abort = null;
    return new ReadableStream({
      pull: async function (controller) {
        base = base || (await opened).url;
        for (;;) {
          if (reader === null) {
            abort = new AbortController();
            const response = await request(base + 'read', { signal: abort.signal });
            if (response.status === 204) { controller.close(); return; }
            reader = (await ok(response)).body.getReader();
          }
          let next;
          try {
            next = await reader.read();
          } catch (error) {
            reader = null;
            // The body broke (native failed, or the document is going): ask why.
            throw await request(base + 'read').then(ok).then(function () { return error; }, function (why) { return why; });
          }
          if (next.done) { reader = null; continue; }
          controller.enqueue(next.value);
          return;
        }
      },
      cancel: function () {
        if (abort !== null) abort.abort();
        return opened.then(function (stream) { return request(stream.url + 'cancel', { method: 'POST' }); }).then(function () {}, function () {});
      },
    }, { highWaterMark: 0 });
  }

  function writable(opened) {
    let base = null;
    let sequence = 0;
    let pending = [];
    let pendingBytes = 0;
    const inFlight = [];

    async function post(body) {
      const sent = request(base + 'write?seq=' + sequence++, { method: 'POST', body: body }).then(ok);
      sent.catch(function () {});
      inFlight.push(sent);
      if (inFlight.length >= 2) await inFlight.shift();
    }

    async function flush() {
      if (pendingBytes === 0) return;
      let body = pending[0];
      if (pending.length > 1) {
        body = new Uint8Array(pendingBytes);
        let offset = 0;
        for (const part of pending) { body.set(part, offset); offset += part.byteLength; }
      }
      pending = [];
      pendingBytes = 0;
      await post(body);
    }

    return new WritableStream({
      start: async function () { base = (await opened).url; },
      write: async function (chunk) {
        const bytes = bytesOf(chunk);
        if (bytes.byteLength >= STREAM_CHUNK / 4) {
          await flush();
          for (let offset = 0; offset < bytes.byteLength; offset += STREAM_CHUNK) {
            await post(bytes.subarray(offset, offset + STREAM_CHUNK));
          }
          return;
        }
        // Small chunks are copied: the page may reuse its buffer once write() resolved.
        pending.push(bytes.slice());
        pendingBytes += bytes.byteLength;
        if (pendingBytes >= STREAM_CHUNK) await flush();
      },
      close: async function () {
        await flush();
        while (inFlight.length) await inFlight.shift();
        await request(base + 'close', { method: 'POST' }).then(ok);
      },
      abort: function () {
        pending = [];
        pendingBytes = 0;
        return opened.then(function (stream) { return request(stream.url + 'abort', { method: 'POST' }); }).then(function () {}, function () {});
      },
    });
  }

  return function stream(name, options) {
    const given = options !== null && typeof options === 'object' ? options : {};
    const mode = given.mode === undefined ? 'read' : given.mode;
    if (typeof name !== 'string' || STREAM_MODES.indexOf(mode) < 0) {
      throw new TypeError("hybrid.stream(name, {mode}) needs a name and a mode of 'read', 'write' or 'duplex'");
    }
    const opened = bridge.call('stream.open', { name: name, mode: mode, data: given.data === undefined ? null : given.data },
      {}, 'hybrid');
    opened.catch(function () {});
    const result = { opened: opened.then(function () {}) };
    result.opened.catch(function () {});
    if (mode !== 'write') result.readable = readable(opened);
    if (mode !== 'read') result.writable = writable(opened);
    return result;
  };
}
