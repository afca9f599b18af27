// Frameworks arrive as `<script src>` tags after document start and announce themselves by
// assigning a global (`window.QUnit = …`). An accessor on window catches that assignment, turns
// back into the plain data property the framework meant to create, and hands the value to the
// hook before any page script can use it. Reading the global before it is assigned gives
// undefined, as it would without the accessor.

// Calls `hook(value, script)` once, with the first value assigned to window[name] and the
// script element that assigned it (null when unknown).
function whenGlobal(name, hook) {
  const existing = Object.getOwnPropertyDescriptor(window, name);
  if (existing !== undefined) {
    // Injected late (after the framework loaded), or the name is taken: hook what is there.
    if ('value' in existing && existing.value !== undefined) hook(existing.value, null);
    if (!existing.configurable || 'value' in existing && existing.value !== undefined) return;
  }
  Object.defineProperty(window, name, {
    configurable: true,
    enumerable: true,
    get: function () { return undefined; },
    set: function (value) {
      Object.defineProperty(window, name, { value: value, writable: true, enumerable: true, configurable: true });
      hook(value, currentScript());
    },
  });
}

function currentScript() {
  try {
    return window.document.currentScript || null;
  } catch (error) {
    return null;
  }
}
