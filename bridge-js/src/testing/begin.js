function (options) {
// HybridShell test adapter: reports the page's QUnit, Mocha, Jasmine or `hybrid.test` run to
// native as reporter events (bridge-js/README.md, "Test adapter"). Native installs it at
// document start, in the page world of the top frame, after the page script:
//   "(" + BridgeScripts.testAdapter + ")(" + optionsJSON + ");"
// The files of src/testing are concatenated in the order of `testingSources` in
// tools/scripts.cjs; this file opens the function and end.js closes it, so nothing but the
// `hybrid.test` API and the hooks frameworks need reaches the page.
'use strict';

// A second injection into the same document must do nothing.
const INSTALLED = Symbol.for('hybridshell.testing');
if (window[INSTALLED]) return;

// Without the bridge there is nobody to report to; the page runs as it would anywhere.
const bridge = window.hybrid;
if (bridge === null || typeof bridge !== 'object' || typeof bridge.call !== 'function') return;
Object.defineProperty(window, INSTALLED, { value: true });

const SEPARATOR = ' \u203a ';
const FRAMEWORKS = ['qunit', 'mocha', 'jasmine', 'hybrid'];

// Captured now, before page scripts (or fake timers in tests) can replace them.
const setTimeout = window.setTimeout;
const clearTimeout = window.clearTimeout;
const queueMicrotask = window.queueMicrotask;
const console = window.console;
const JSON = window.JSON;
const Promise = window.Promise;
const performance = window.performance;
const hasOwn = Object.prototype.hasOwnProperty;
const objectToString = Object.prototype.toString;

function now() {
  return performance.now();
}

function noop() {}

// A duration in milliseconds with at most one decimal, or 0 for anything that is not one.
function milliseconds(value) {
  return typeof value === 'number' && value >= 0 && value < Infinity ? Math.round(value * 10) / 10 : 0;
}

// Page callbacks and framework internals must never break the adapter's own bookkeeping, nor the
// adapter the page: an exception of ours surfaces later as an ordinary uncaught error.
function guarded(fn) {
  return function () {
    try {
      return fn.apply(this, arguments);
    } catch (error) {
      setTimeout(function () { throw error; }, 0);
      return undefined;
    }
  };
}
