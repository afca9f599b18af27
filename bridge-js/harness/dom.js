// A tiny DOM for the bridge tests: one window shared by several script worlds (node:vm
// contexts), like WebKit's page world and the isolated "hybridshell" world. Scripts in each
// world have their own globals; events dispatched on window reach listeners in every world, and
// an event's detail crosses into another world only when it is a string.
'use strict';

const vm = require('node:vm');
const crypto = require('node:crypto');
const { Clock } = require('./clock');

class Event {
  constructor(type, init) {
    this.type = String(type);
    this.bubbles = Boolean(init && init.bubbles);
    this.defaultPrevented = false;
    this.immediatePropagationStopped = false;
  }
  preventDefault() { this.defaultPrevented = true; }
  stopImmediatePropagation() { this.immediatePropagationStopped = true; }
}

class CustomEvent extends Event {
  constructor(type, init) {
    super(type, init);
    this.detail = init && init.detail !== undefined ? init.detail : null;
  }
}

// Listeners of one event target (window or document), each tagged with its world.
class Target {
  constructor(dom) {
    this.dom = dom;
    this.listeners = [];
  }

  add(world, type, fn, options) {
    if (typeof fn !== 'function') return;
    const capture = options === true || Boolean(options && options.capture);
    if (this.listeners.some((l) => l.world === world && l.type === type && l.fn === fn && l.capture === capture)) return;
    this.listeners.push({ world, type, fn, capture });
  }

  remove(world, type, fn) {
    this.listeners = this.listeners.filter((l) => !(l.world === world && l.type === type && l.fn === fn));
  }

  // Like the real DOM, a throwing listener is reported and the others still run; at the target,
  // capturing listeners run first, and stopImmediatePropagation ends the dispatch.
  dispatch(fromWorld, event) {
    const ordered = this.listeners.filter((l) => l.capture).concat(this.listeners.filter((l) => !l.capture));
    for (const listener of ordered) {
      if (event.immediatePropagationStopped) break;
      if (listener.type !== event.type || !this.listeners.includes(listener)) continue;
      const seen = listener.world === fromWorld ? event : crossWorld(event);
      try {
        listener.fn.call(null, seen);
      } catch (error) {
        this.dom.reportError(error);
      }
    }
    return !event.defaultPrevented;
  }
}

function crossWorld(event) {
  const copy = new CustomEvent(event.type);
  copy.stopImmediatePropagation = () => event.stopImmediatePropagation();
  copy.detail = typeof event.detail === 'string' ? event.detail : null;
  // An error event's strings and numbers cross; its error object does not.
  for (const key of ['message', 'filename', 'lineno', 'colno', 'isTrusted']) {
    if (event[key] !== undefined) copy[key] = event[key];
  }
  return copy;
}

class Element {
  constructor(dom, tagName) {
    this.dom = dom;
    this.tagName = tagName.toUpperCase();
    this.style = {};
    this.children = [];
    this.parentNode = null;
    this._src = '';
  }

  get src() { return this._src; }

  // Setting an iframe's src starts a navigation, which native sees in decide-policy.
  set src(url) {
    this._src = String(url);
    if (this.tagName === 'IFRAME') this.dom.navigations.push(this._src);
    if (this.tagName === 'IFRAME' && this.dom.onNavigate) this.dom.onNavigate(this._src);
  }

  appendChild(child) {
    child.parentNode = this;
    this.children.push(child);
    return child;
  }

  removeChild(child) {
    const index = this.children.indexOf(child);
    if (index < 0) throw new Error('NotFoundError: not a child');
    this.children.splice(index, 1);
    child.parentNode = null;
    return child;
  }
}

class Dom {
  constructor(options = {}) {
    const url = new URL(options.url || 'https://app.example/index.html');
    this.location = Object.freeze({ href: url.href, origin: url.origin });
    this.clock = new Clock((error) => this.reportError(error));
    this.window = new Target(this);
    this.documentTarget = new Target(this);
    this.logs = [];
    this.errors = [];
    this.navigations = [];
    this.onNavigate = null;
    this.onPrompt = null;
    this.worlds = [];
    // 'loading' while the parser runs (options.parsing); finishParsing() fires DOMContentLoaded.
    this.readyState = options.parsing ? 'loading' : 'complete';
    this.document = this.createDocument();
  }

  createDocument() {
    const dom = this;
    const documentElement = new Element(dom, 'html');
    return {
      documentElement,
      createElement: (tagName) => new Element(dom, tagName),
      get readyState() { return dom.readyState; },
    };
  }

  // The parser reached the end of the document.
  finishParsing() {
    this.readyState = 'interactive';
    this.documentTarget.dispatch(null, new Event('DOMContentLoaded'));
  }

  reportError(error) {
    this.errors.push(error);
  }

  // A new script world. `extras` are added to its globals (e.g. `webkit` in the isolated world).
  createWorld(name, extras = {}) {
    const dom = this;
    const world = { name, logs: [] };
    const consoleFor = (level) => (...args) => {
      const entry = { world: name, level, args, text: args.map(String).join(' ') };
      dom.logs.push(entry);
      if (process.env.BRIDGE_TEST_LOG) process.stderr.write(`[${name}] ${level}: ${entry.text}\n`);
    };
    const document = Object.assign(Object.create(dom.document), {
      addEventListener: (type, fn) => dom.documentTarget.add(world, type, fn),
      removeEventListener: (type, fn) => dom.documentTarget.remove(world, type, fn),
      dispatchEvent: (event) => dom.documentTarget.dispatch(world, event),
    });
    const globals = {
      console: { log: consoleFor('log'), info: consoleFor('info'), warn: consoleFor('warn'), error: consoleFor('error'), debug: consoleFor('debug') },
      document,
      location: dom.location,
      navigator: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 HybridShellTest' },
      setTimeout: (fn, ms, ...args) => dom.clock.setTimeout(fn, ms, args),
      clearTimeout: (id) => dom.clock.clearTimeout(id),
      performance: { now: () => dom.clock.now },
      queueMicrotask: (fn) => queueMicrotask(fn),
      crypto: { getRandomValues: (array) => crypto.randomFillSync(array) },
      Event,
      CustomEvent,
      addEventListener: (type, fn, options) => dom.window.add(world, type, fn, options),
      removeEventListener: (type, fn) => dom.window.remove(world, type, fn),
      dispatchEvent: (event) => dom.window.dispatch(world, event),
      prompt: (message, defaultText) => (dom.onPrompt ? dom.onPrompt(message, defaultText) : null),
      ...extras,
    };
    const context = vm.createContext(globals, { name });
    vm.runInContext('globalThis.window = globalThis; globalThis.self = globalThis;', context);
    world.context = context;
    world.global = vm.runInContext('globalThis', context);
    world.run = (code, filename = `${name}.js`) => vm.runInContext(code, context, { filename });
    this.worlds.push(world);
    return world;
  }

  // The document is going away (navigation, reload, close).
  pagehide() {
    this.window.dispatch(null, new Event('pagehide'));
  }
}

module.exports = { Dom, Event, CustomEvent };
