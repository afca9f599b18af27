// `window.hybrid`, the native API of HybridShell pages (typed in hybrid.d.ts).

function installHybrid(bridge) {
  const hybrid = Object.freeze({
    version: VERSION,
    ready: bridge.ready,
    HybridError: HybridError,
    call: function (name, data, options) { return bridge.call(name, data, options, 'hybrid'); },
    register: function (name, fn) { bridge.handlers.register(name, fn); },
    unregister: function (name) { bridge.handlers.unregister(name); },
    on: function (name, fn) { bridge.events.on(name, fn); },
    off: function (name, fn) { bridge.events.off(name, fn); },
  });
  // Configurable, so a page script with its own top-level `let hybrid` still loads.
  Object.defineProperty(window, 'hybrid', { value: hybrid, enumerable: true, configurable: true });
}
