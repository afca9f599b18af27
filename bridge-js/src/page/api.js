// `window.hybrid`, the native API of HybridShell pages (typed in hybrid.d.ts).

// Not page API: HybridShell's own scripts that run after this one (the test adapter) call
// `hybrid[FLUSH]()` so that what they just sent leaves at once, ahead of console messages (which
// reach native without batching). Non-enumerable, so it is in no listing of `hybrid`.
const FLUSH = Symbol.for('hybridshell.flush');

function installHybrid(bridge) {
  const hybrid = Object.freeze(Object.defineProperty({
    version: VERSION,
    ready: bridge.ready,
    HybridError: HybridError,
    call: function (name, data, options) { return bridge.call(name, data, options, 'hybrid'); },
    register: function (name, fn) { bridge.handlers.register(name, fn); },
    unregister: function (name) { bridge.handlers.unregister(name); },
    on: function (name, fn) { bridge.events.on(name, fn); },
    off: function (name, fn) { bridge.events.off(name, fn); },
    updates: createUpdates(bridge),
    stream: createStreams(bridge),
  }, FLUSH, { value: function () { bridge.flush(); } }));
  // Configurable, so a page script with its own top-level `let hybrid` still loads.
  Object.defineProperty(window, 'hybrid', { value: hybrid, enumerable: true, configurable: true });
}
