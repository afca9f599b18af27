// `hybrid.updates`, the update manager for pages (docs/offline-packages.md, "Updates for pages"),
// over the native `updates` module: check(), status(), apply(), and on/off for 'checked' (every
// finished check), 'available' (a check found a newer version), 'ready' (it is installed: apply()
// shows it) and 'failed'. A listener added after such an event is told the current state once
// (WeChat pages register their update callbacks at start-up, often after the start check ended).

const UPDATE_KINDS = ['checked', 'available', 'ready', 'failed'];

function createUpdates(bridge) {
  const listeners = new Map(UPDATE_KINDS.map(function (kind) { return [kind, []]; }));
  let subscribed = false;

  function call(name) {
    return bridge.call(name, null, undefined, 'hybrid');
  }

  function deliver(kind, value) {
    for (const entry of listeners.get(kind).slice()) {
      entry.told = true;
      respond(entry.fn, value);
    }
  }

  function subscribe() {
    if (subscribed) return;
    subscribed = true;
    bridge.events.on('updates.checked', function (status) {
      deliver('checked', status);
      if (status && status.hasUpdate) deliver('available', status);
    });
    bridge.events.on('updates.ready', function (value) { deliver('ready', value); });
    bridge.events.on('updates.failed', function (value) { deliver('failed', value); });
  }

  // What `kind` would have told a listener that came late, from the native status.
  function stateFor(kind, status) {
    if (status === null || typeof status !== 'object') return undefined;
    if (kind === 'checked') return status.checked ? status : undefined;
    if (kind === 'available') return status.hasUpdate ? status : undefined;
    if (kind === 'ready') return status.ready ? { appID: status.appID, version: status.version, sequence: status.sequence } : undefined;
    return status.failure ? { appID: status.appID, reason: status.failure } : undefined;
  }

  function replay(kind, entry) {
    call('updates.status').then(function (status) {
      const value = stateFor(kind, status);
      // Told by an event meanwhile, or removed: nothing to replay.
      if (value === undefined || entry.told || listeners.get(kind).indexOf(entry) < 0) return;
      entry.told = true;
      respond(entry.fn, value);
    }, function () {});
  }

  function checkKind(kind, fn) {
    if (!listeners.has(kind) || typeof fn !== 'function') {
      throw new TypeError("updates.on(kind, fn) needs one of 'checked', 'available', 'ready', 'failed' and a function");
    }
  }

  return Object.freeze({
    check: function () { return call('updates.check'); },
    status: function () { return call('updates.status'); },
    apply: function () { return call('updates.apply'); },
    on: function (kind, fn) {
      checkKind(kind, fn);
      subscribe();
      const entry = { fn: fn, told: false };
      listeners.get(kind).push(entry);
      replay(kind, entry);
    },
    off: function (kind, fn) {
      checkKind(kind, fn);
      const list = listeners.get(kind);
      const index = list.findIndex(function (entry) { return entry.fn === fn; });
      if (index >= 0) list.splice(index, 1);
    },
  });
}
