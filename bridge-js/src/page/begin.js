// HybridShell page-world bridge: the `hybrid` API plus the WebViewJavascriptBridge, dsbridge and
// `wx` dialects, all over the relay described in bridge-js/PROTOCOL.md.
//
// The files of src/page are concatenated in the order listed by tools/sources.js. This file
// opens the one function that holds all of them and end.js closes it, so nothing but the
// public objects reaches the page's globals.
;(function (window) {
'use strict';

// A second injection (a reload of the user script, or `injectDynamically` on a page that already
// has it) must do nothing at all.
const INSTALLED = Symbol.for('hybridshell.page');
if (window[INSTALLED]) return;
Object.defineProperty(window, INSTALLED, { value: true });

const VERSION = '1.0.0';
const UP_EVENT = 'hybridshell:up';
const DOWN_EVENT = 'hybridshell:down';
// The last up-frames of a delivery whose calls have all been answered come as this event instead
// of UP_EVENT (see core.js receive): the relay hands them back as the delivery's result at once.
const UP_ANSWERED_EVENT = 'hybridshell:up-answered';
const DEFAULT_LIMITS = Object.freeze({ maxPayload: 16777216, maxDepth: 512 });
const DEFAULT_TIMEOUT = 30000;
// Native's direct deliveries call `<DELIVER_GLOBAL>.deliver(secret + framesText)` (see core.js).
const DELIVER_GLOBAL = '__hybridshellPage';

// Captured now, before page scripts can replace them.
const console = window.console;
const setTimeout = window.setTimeout;
const clearTimeout = window.clearTimeout;
const queueMicrotask = window.queueMicrotask;
const CustomEvent = window.CustomEvent;
const JSON = window.JSON;
const hasOwn = Object.prototype.hasOwnProperty;

// Exceptions thrown by page callbacks surface as ordinary uncaught errors (window.onerror,
// the console) instead of vanishing into a promise chain or breaking the bridge's own work.
function rethrowLater(error) {
  setTimeout(function () { throw error; }, 0);
}

// Calls a page's callback (when it is one) without letting its exception into our code.
function respond(callback, value) {
  if (typeof callback !== 'function') return;
  try {
    callback(value);
  } catch (error) {
    rethrowLater(error);
  }
}
