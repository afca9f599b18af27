// Reporter events to native: each is one `hybrid.call(handler, event)`, sent at once rather than
// in the bridge's next batch, so it reaches native ahead of any console message the page writes
// after it (console capture posts immediately; see PROTOCOL.md, "Batching and ordering").
// Before the bridge is ready, events wait in its queue and leave in order once it is.

function createReporter(api, handler) {
  const flushHook = api[Symbol.for('hybridshell.flush')];
  const flush = typeof flushHook === 'function' ? flushHook : noop;
  const call = api.call;
  const ready = Promise.resolve(api.ready).then(noop, noop);
  let settled = false;
  ready.then(function () { settled = true; });

  // The reply (native answers null once it has handled the event); never rejects: a denied or
  // reset bridge only means nobody is listening any more.
  function send(event) {
    let reply;
    try {
      reply = call(handler, event);
      flush();
    } catch (error) {
      return Promise.resolve(null);
    }
    return Promise.resolve(reply).then(function (value) { return value; }, function () { return null; });
  }

  return {
    send: send,
    // Settles (never rejects) when the bridge handshake has finished, either way.
    ready: ready,
    get isReady() { return settled; },
  };
}
