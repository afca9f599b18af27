// Runs a test page in the test DOM the way `hybrid-run test` loads one in WebKit: console capture,
// the relay and page.js at document start, then the test adapter with its options, then the
// page's scripts, then the load event. A fake native answers the adapter's events and records
// them, interleaved with console messages, in the order they reach it (`transcript`).
//
// The DOM is lenient rather than real: enough for QUnit, Mocha and Jasmine to load and run
// headless (elements accept any child, querySelector always finds a detached element).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const scripts = require('../tools/scripts.cjs');
const { Dom, Event } = require('./dom');
const { FakeNative } = require('./native');

const ROOT = scripts.ROOT;
const CONSOLE = scripts.consoleSource();
const RELAY = scripts.relaySource();
const PAGE = scripts.pageSource();
const ADAPTER = scripts.testAdapterSource();
const HANDLER = 'hybridshell.test';

const DEFAULT_OPTIONS = { framework: 'auto', grep: null, grepInvert: false, list: false, testTimeout: null, handler: HANDLER };

class ErrorEvent extends Event {
  constructor(type, init = {}) {
    super(type, init);
    this.message = init.message === undefined ? '' : String(init.message);
    this.filename = init.filename || '';
    this.lineno = init.lineno || 0;
    this.colno = init.colno || 0;
    this.error = init.error === undefined ? null : init.error;
  }
}

class FakeElement {
  constructor(tagName) {
    this.tagName = String(tagName).toUpperCase();
    this.nodeName = this.tagName;
    this.nodeType = 1;
    this.childNodes = [];
    this.parentNode = null;
    this.style = {};
    this.attributes = {};
    this.className = '';
    this.id = '';
    this.innerHTML = '';
    this.textContent = '';
    this.value = '';
    const classes = new Set();
    this.classList = { add: (...names) => names.forEach((n) => classes.add(n)), remove: (...names) => names.forEach((n) => classes.delete(n)), contains: (n) => classes.has(n), toggle: (n) => (classes.has(n) ? classes.delete(n) : classes.add(n)) };
  }

  get children() { return this.childNodes; }
  get firstChild() { return this.childNodes[0] || null; }
  get lastChild() { return this.childNodes[this.childNodes.length - 1] || null; }
  appendChild(child) {
    if (child && typeof child === 'object') {
      child.parentNode = this;
      this.childNodes.push(child);
    }
    return child;
  }
  insertBefore(child) { return this.appendChild(child); }
  removeChild(child) {
    this.childNodes = this.childNodes.filter((node) => node !== child);
    return child;
  }
  setAttribute(name, value) { this.attributes[name] = String(value); }
  getAttribute(name) { return Object.prototype.hasOwnProperty.call(this.attributes, name) ? this.attributes[name] : null; }
  removeAttribute(name) { delete this.attributes[name]; }
  addEventListener() {}
  removeEventListener() {}
  querySelector() { return new FakeElement('div'); }
  querySelectorAll() { return []; }
  getElementsByTagName() { return []; }
  getElementsByClassName() { return []; }
}

class FakeStorage {
  constructor(map = new Map()) { this.map = map; }
  get length() { return this.map.size; }
  key(index) { return [...this.map.keys()][index] ?? null; }
  getItem(key) { return this.map.has(String(key)) ? this.map.get(String(key)) : null; }
  setItem(key, value) { this.map.set(String(key), String(value)); }
  removeItem(key) { this.map.delete(String(key)); }
  clear() { this.map.clear(); }
}

function fakeDocument(state) {
  const documentElement = new FakeElement('html');
  const head = documentElement.appendChild(new FakeElement('head'));
  const body = documentElement.appendChild(new FakeElement('body'));
  let listeners = [];
  return {
    documentElement,
    head,
    body,
    get readyState() { return state.readyState; },
    get currentScript() { return state.currentScript; },
    createElement: (tagName) => new FakeElement(tagName),
    createTextNode: (text) => ({ nodeType: 3, textContent: String(text), nodeValue: String(text) }),
    createDocumentFragment: () => new FakeElement('#fragment'),
    getElementById: () => null,
    getElementsByTagName: () => [],
    getElementsByClassName: () => [],
    querySelector: () => null,
    querySelectorAll: () => [],
    addEventListener: (type, fn) => listeners.push({ type, fn }),
    removeEventListener: (type, fn) => { listeners = listeners.filter((l) => l.type !== type || l.fn !== fn); },
    dispatchEvent: (event) => {
      for (const listener of listeners.filter((l) => l.type === event.type)) listener.fn(event);
      return true;
    },
  };
}

function fakeLocation(href) {
  const url = new URL(href);
  return Object.freeze({
    href: url.href, origin: url.protocol === 'file:' ? 'file://' : url.origin, protocol: url.protocol, host: url.host, hostname: url.hostname,
    port: url.port, pathname: url.pathname, search: url.search, hash: url.hash, toString: () => url.href,
  });
}

// options: the adapter's options (merged over the defaults; `adapter: false` leaves it out);
// scripts: [{code, file}] run in order as the page's own; url; localStorage (a Map shared
// between documents, for retries); native: FakeNative options; deferHello: hold the handshake.
function bootTestPage({ options = {}, scripts: pageScripts = [], url = 'file:///work/pages/fixtures/test/page.html', localStorage, native: nativeOptions, deferHello = false, adapter = true, pageScript = true } = {}) {
  const dom = new Dom({ url: 'https://app.example/' });
  const native = new FakeNative({ allowedOrigins: ['file://', 'https://app.example'], ...nativeOptions });
  const transcript = [];
  const state = { readyState: 'loading', currentScript: null };
  native.handle(HANDLER, (event) => { transcript.push({ kind: 'event', ...event }); return null; });
  native.handle('mock.answer', () => ({ answer: 42 }));
  const release = deferHello ? native.deferHello() : null;

  const location = fakeLocation(url);
  const isolated = dom.createWorld('hybridshell', { webkit: native.webkit, location });
  const page = dom.createWorld('page', {
    location,
    document: fakeDocument(state),
    localStorage: new FakeStorage(localStorage),
    sessionStorage: new FakeStorage(),
    ErrorEvent,
    setInterval: (fn, ms, ...args) => dom.clock.setTimeout(function repeat() { dom.clock.setTimeout(repeat, ms); fn(...args); }, ms),
    clearInterval: () => {},
    webkit: { messageHandlers: { hybridshellConsole: { postMessage: (text) => { const message = JSON.parse(text); transcript.push({ kind: 'console', level: message.level, source: message.source, text: message.text }); } } } },
  });
  native.attach({ dom, isolated, page });

  // Uncaught errors reach window 'error' listeners and window.onerror, as in a browser.
  let reporting = false;
  dom.reportError = (error) => {
    dom.errors.push(error);
    if (reporting) return;
    reporting = true;
    try {
      const message = error && error.message !== undefined ? `${error.name || 'Error'}: ${error.message}` : String(error);
      const filename = error && error.hybridFilename ? error.hybridFilename : '';
      dom.window.dispatch(page, new ErrorEvent('error', { message, error, filename }));
      if (typeof page.global.onerror === 'function') page.global.onerror(message, filename, 0, 0, error);
    } finally {
      reporting = false;
    }
  };

  const run = (world, code, file) => {
    state.currentScript = file ? { src: file.startsWith('/') ? `file://${file}` : file } : null;
    try {
      world.run(code, file);
    } catch (error) {
      if (error && typeof error === 'object') error.hybridFilename = file;
      dom.reportError(error);
    } finally {
      state.currentScript = null;
    }
  };

  page.run(CONSOLE, 'user-script:console.js');
  isolated.run(RELAY, 'user-script:relay.js');
  if (pageScript) page.run(PAGE, 'user-script:page.js');
  if (adapter) page.run(`(${ADAPTER})(${JSON.stringify({ ...DEFAULT_OPTIONS, ...options })});`, 'user-script:adapter.js');
  for (const script of pageScripts) run(page, script.code, script.file);

  const env = {
    dom, native, page, transcript, release,
    window: page.global,
    clock: dom.clock,
    events: (name) => transcript.filter((entry) => entry.kind === 'event' && (!name || entry.event === name)),
    console: () => transcript.filter((entry) => entry.kind === 'console').map((entry) => entry.text),
    run: (code, file = 'inline.js') => run(page, code, file),
    load() {
      state.readyState = 'complete';
      dom.window.dispatch(null, new Event('load'));
      if (typeof page.global.onload === 'function') page.global.onload(new Event('load'));
    },
    // Advances fake time from timer to timer until `done(env)` holds or `maxTurns` passed.
    async runUntil(done = finished, maxTurns = 2000) {
      for (let turn = 0; turn < maxTurns; turn++) {
        if (done(env)) return true;
        const due = [...dom.clock.timers.values()].map((timer) => timer.due);
        await dom.clock.tick(due.length > 0 ? Math.max(0, Math.min(...due) - dom.clock.now) : 0);
      }
      return done(env);
    },
  };
  return env;
}

function finished(env) {
  return env.events().some((event) => event.event === 'runEnd' || event.event === 'list');
}

// Loads a page, fires load, and runs it to its runEnd (or list).
async function runTestPage(settings) {
  const env = bootTestPage(settings);
  env.load();
  await env.runUntil(settings && settings.until);
  return env;
}

// The scripts of an HTML test page, in document order: `src` relative to the page (the vendor
// frameworks from pages/vendor), inline ones as they are.
const SCRIPT = /<script(\s[^>]*)?>([\s\S]*?)<\/script>/g;

function htmlScripts(file) {
  const html = fs.readFileSync(file, 'utf8');
  const found = [];
  for (const match of html.matchAll(SCRIPT)) {
    const src = /\ssrc="([^"]+)"/.exec(match[1] || '');
    if (src) {
      const target = src[1].startsWith('file://') ? new URL(src[1]).pathname : path.resolve(path.dirname(file), src[1]);
      found.push({ file: target, code: fs.readFileSync(target, 'utf8') });
    } else {
      found.push({ file: `${file}#inline`, code: match[2] });
    }
  }
  return found;
}

// Full names and statuses of the testEnd events, in order.
function results(env) {
  return env.events('testEnd').map((event) => [...event.suite, event.name].join(' \u203a ') + ': ' + event.status);
}

module.exports = { bootTestPage, runTestPage, htmlScripts, results, finished, ROOT, HANDLER, ADAPTER, FakeStorage };
