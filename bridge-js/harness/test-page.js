// Runs a test page in the test DOM the way `hybrid-run test` loads one in WebKit: console capture,
// the relay and page.js at document start, then the test adapter with its options, then the
// page's scripts, then the load event. A fake native answers the adapter's events and records
// them, interleaved with console messages, in the order they reach it (`transcript`).
//
// The DOM is lenient rather than real (page-dom.js): enough for QUnit, Mocha and Jasmine and
// their HTML reporters to load and run headless.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const scripts = require('../tools/scripts.cjs');
const { Dom, Event } = require('./dom');
const { FakeNative } = require('./native');
const { idle } = require('./clock');
const { ErrorEvent, FakeStorage, fakeDocument, fakeLocation } = require('./page-dom');

const ROOT = scripts.ROOT;
const CONSOLE = scripts.consoleSource();
const CONSOLE_RELAY = scripts.consoleRelaySource();
const RELAY = scripts.relaySource();
const PAGE = scripts.pageSource();
const ADAPTER = scripts.testAdapterSource();
const HANDLER = 'hybridshell.test';
const TEST_FIXTURES = path.join(ROOT, 'pages', 'fixtures', 'test');
const VENDOR = path.join(ROOT, 'pages', 'vendor');

const DEFAULT_OPTIONS = { framework: 'auto', grep: null, grepInvert: false, list: false, testTimeout: null, handler: HANDLER };

// options: the adapter's options (merged over the defaults; `adapter: false` leaves it out);
// scripts: [{code, file}] run in order as the page's own; url; localStorage (a Map shared
// between documents, for retries); native: FakeNative options; deferHello: hold the handshake;
// body, title: the page's markup without its scripts, and its title (see htmlPage); fetch: the
// page's fetch, for pages that ask a server (none by default).
function bootTestPage({ options = {}, scripts: pageScripts = [], url = 'file:///work/pages/fixtures/test/page.html', localStorage, native: nativeOptions, deferHello = false, adapter = true, pageScript = true, body = '', title = '', fetch } = {}) {
  const dom = new Dom({ url: 'https://app.example/' });
  const native = new FakeNative({ allowedOrigins: ['file://', 'https://app.example'], ...nativeOptions });
  const transcript = [];
  const state = { readyState: 'loading', currentScript: null };
  // Re-parsed: the strict reader gives null-prototype objects, which deepStrictEqual tells apart.
  native.handle(HANDLER, (event) => { transcript.push({ kind: 'event', ...JSON.parse(JSON.stringify(event)) }); return null; });
  native.handle('mock.answer', () => ({ answer: 42 }));
  const release = deferHello ? native.deferHello() : null;

  const location = fakeLocation(url);
  const isolated = dom.createWorld('hybridshell', { webkit: native.webkit, location });
  const pageDocument = fakeDocument(state, { body, title });
  const page = dom.createWorld('page', {
    location,
    document: pageDocument,
    localStorage: new FakeStorage(localStorage),
    sessionStorage: new FakeStorage(),
    ErrorEvent,
    setInterval: (fn, ms, ...args) => dom.clock.setTimeout(function repeat() { dom.clock.setTimeout(repeat, ms); fn(...args); }, ms),
    clearInterval: () => {},
    ...(fetch ? { fetch } : {}),
  });
  // Console capture's relay: its own world, sharing the page's document, with the native handler.
  const consoleWorld = dom.createWorld('hybridshell-console', {
    location,
    document: pageDocument,
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
      const filename = thrownIn(error, error && error.hybridFilename ? error.hybridFilename : '');
      const event = new ErrorEvent('error', { message, error, filename });
      event.isTrusted = true;  // the engine's own
      dom.window.dispatch(page, event);
      // An error thrown by onerror itself is reported, never thrown at whoever raised the first.
      if (typeof page.global.onerror === 'function') {
        try {
          page.global.onerror(message, filename, 0, 0, error);
        } catch (again) {
          dom.errors.push(again);
        }
      }
    } finally {
      reporting = false;
    }
  };

  // Scripts are named by URL, as WebKit names them in stacks and error events.
  const run = (world, code, file) => {
    const url = file && file.startsWith('/') ? `file://${file}` : file;
    state.currentScript = url ? { src: url } : null;
    try {
      world.run(code, url);
    } catch (error) {
      if (error && typeof error === 'object') error.hybridFilename = url;
      dom.reportError(error);
    } finally {
      state.currentScript = null;
    }
  };

  consoleWorld.run(CONSOLE_RELAY, 'user-script:console-relay.js');
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
        await idle();
        if (done(env)) return true;
        const due = [...dom.clock.timers.values()].map((timer) => timer.due);
        await dom.clock.tick(due.length > 0 ? Math.max(0, Math.min(...due) - dom.clock.now) : 0);
      }
      return done(env);
    },
  };
  return env;
}

// Where an uncaught error was thrown, as WebKit's ErrorEvent.filename has it: the script of the
// innermost stack frame, else `fallback` (the script that was running).
function thrownIn(error, fallback) {
  const stack = error && typeof error === 'object' && typeof error.stack === 'string' ? error.stack : '';
  const frame = stack.split('\n').find((line) => /^\s+at /.test(line));
  const where = frame && /(?:\(|at )((?:file|user-script):[^()]*?):\d+:\d+\)?$/.exec(frame);
  return where ? where[1] : fallback;
}

function finished(env) {
  return env.events().some((event) => event.event === 'runEnd' || event.event === 'list');
}

// Loads a page, fires load, and runs it until `until(env)` holds (by default: until its runEnd or
// list) or `turns` timer turns passed; `env.reached` says which.
async function runTestPage(settings = {}) {
  const env = bootTestPage(settings);
  env.load();
  env.reached = await env.runUntil(settings.until, settings.turns);
  return env;
}

// runTestPage for pages/fixtures/test/<name>; `search` is the page URL's query.
function runFixturePage(name, { search = '', ...settings } = {}) {
  return runTestPage({ ...htmlPage(path.join(TEST_FIXTURES, name), search), ...settings });
}

// runFixturePage with native's answer to the handshake held back for `hold` ms of fake time after
// the load event, as from a slow native side; `env.held` is the transcript as it was then.
async function runFixturePageSlowHandshake(name, { hold = 100, search = '', ...settings } = {}) {
  const env = bootTestPage({ ...htmlPage(path.join(TEST_FIXTURES, name), search), ...settings, deferHello: true });
  env.load();
  await env.clock.tick(hold);
  env.held = env.transcript.slice();
  env.release();
  env.reached = await env.runUntil(settings.until, settings.turns);
  return env;
}

// The framework files a page made in a test loads, by path under pages/vendor.
function vendorScripts(...names) {
  return names.map((name) => {
    const file = path.join(VENDOR, name);
    return { file, code: fs.readFileSync(file, 'utf8') };
  });
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

// What bootTestPage needs to load an HTML test page: its scripts, its file URL (plus `search`,
// e.g. "?random=false"), its body markup without scripts, and its title.
function htmlPage(file, search = '') {
  const html = fs.readFileSync(file, 'utf8');
  const body = /<body[^>]*>([\s\S]*?)<\/body>/i.exec(html);
  const title = /<title>([\s\S]*?)<\/title>/i.exec(html);
  return {
    scripts: htmlScripts(file),
    url: `file://${file}${search}`,
    body: body ? body[1].replace(SCRIPT, '') : '',
    title: title ? title[1].trim() : '',
  };
}

// Text that must reach native byte for byte in names, messages and console output: quotes,
// backslashes and escape look-alikes, line and paragraph separators, emoji (surrogate pairs, ZWJ,
// flags), control characters, NUL and a lone surrogate.
const AWKWARD = 'quotes "\'` backslashes \\ \\\\ \\u0041 \\n separators a\u2028b\u2029c ' +
  'emoji \uD83D\uDC69\u200D\uD83D\uDCBB \uD83C\uDDEF\uD83C\uDDF5 controls \t\n\u0001 nul \u0000 lone \uD800 end';

// Full names and statuses of the testEnd events, in order.
function results(env) {
  return env.events('testEnd').map((event) => [...event.suite, event.name].join(' \u203a ') + ': ' + event.status);
}

module.exports = {
  bootTestPage, runTestPage, runFixturePage, runFixturePageSlowHandshake, htmlPage, htmlScripts, vendorScripts, results, finished,
  AWKWARD, ROOT, TEST_FIXTURES, HANDLER, ADAPTER, FakeStorage,
};
