// The page world's document for test pages: a small element tree, just enough for the HTML
// reporters of QUnit, Mocha and Jasmine to draw into it headless. `innerHTML` parses simple
// markup (tags, attributes, text, entities) into elements, so a reporter finds what it just wrote
// with getElementById, getElementsByTagName or querySelector (simple selectors: tag, #id,
// .class, [attr], [attr=value], descendant and child combinators; anything else throws, so a
// page that needs more shows up as a harness error rather than as a silent mismatch).
'use strict';

const { Event } = require('./dom');

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

class FakeText {
  constructor(text) {
    this.nodeType = 3;
    this.nodeName = '#text';
    this.parentNode = null;
    this.nodeValue = String(text);
  }

  get textContent() { return this.nodeValue; }
  set textContent(text) { this.nodeValue = String(text); }
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
    this.value = '';
    const classes = () => new Set(this.className.split(/\s+/).filter(Boolean));
    const write = (set) => { this.className = [...set].join(' '); };
    this.classList = {
      add: (...names) => { const set = classes(); names.forEach((n) => set.add(n)); write(set); },
      remove: (...names) => { const set = classes(); names.forEach((n) => set.delete(n)); write(set); },
      contains: (name) => classes().has(name),
      toggle: (name) => { const set = classes(); const had = set.delete(name); if (!had) set.add(name); write(set); return !had; },
    };
  }

  get id() { return this.attributes.id || ''; }
  set id(value) { this.attributes.id = String(value); }
  get className() { return this.attributes.class || ''; }
  set className(value) { this.attributes.class = String(value); }

  get children() { return this.childNodes.filter((node) => node.nodeType === 1); }
  get firstChild() { return this.childNodes[0] || null; }
  get lastChild() { return this.childNodes[this.childNodes.length - 1] || null; }
  get nextSibling() { return sibling(this, 1); }
  get previousSibling() { return sibling(this, -1); }

  get textContent() { return this.childNodes.map((node) => node.textContent).join(''); }
  set textContent(text) { this.replaceChildren(new FakeText(text)); }
  get innerText() { return this.textContent; }
  set innerText(text) { this.textContent = text; }
  get innerHTML() { return this.childNodes.map(serialize).join(''); }
  set innerHTML(markup) { this.replaceChildren(...parseHtml(String(markup))); }

  appendChild(child) { return this.insertBefore(child, null); }
  insertBefore(child, reference) {
    if (!child || typeof child !== 'object') return child;
    const nodes = child.nodeName === '#FRAGMENT' ? child.childNodes.slice() : [child];
    for (const node of nodes) {
      if (node.parentNode) node.parentNode.removeChild(node);
      node.parentNode = this;
      const at = reference ? this.childNodes.indexOf(reference) : -1;
      if (at < 0) this.childNodes.push(node);
      else this.childNodes.splice(at, 0, node);
    }
    return child;
  }
  removeChild(child) {
    this.childNodes = this.childNodes.filter((node) => node !== child);
    if (child && typeof child === 'object') child.parentNode = null;
    return child;
  }
  replaceChildren(...nodes) {
    for (const node of this.childNodes) node.parentNode = null;
    this.childNodes = [];
    for (const node of nodes) this.appendChild(node);
  }
  setAttribute(name, value) { this.attributes[String(name).toLowerCase()] = String(value); }
  getAttribute(name) { const key = String(name).toLowerCase(); return Object.prototype.hasOwnProperty.call(this.attributes, key) ? this.attributes[key] : null; }
  removeAttribute(name) { delete this.attributes[String(name).toLowerCase()]; }
  addEventListener() {}
  removeEventListener() {}
  querySelector(selector) { return this.querySelectorAll(selector)[0] || null; }
  querySelectorAll(selector) { return select(this, selector); }
  getElementsByTagName(name) {
    const wanted = String(name).toUpperCase();
    return descendants(this).filter((element) => wanted === '*' || element.tagName === wanted);
  }
  getElementsByClassName(name) {
    const wanted = String(name).split(/\s+/).filter(Boolean);
    return descendants(this).filter((element) => wanted.every((n) => element.classList.contains(n)));
  }
}

function sibling(node, step) {
  const parent = node.parentNode;
  if (!parent) return null;
  return parent.childNodes[parent.childNodes.indexOf(node) + step] || null;
}

function descendants(root) {
  const found = [];
  for (const node of root.childNodes) {
    if (node.nodeType !== 1) continue;
    found.push(node);
    found.push(...descendants(node));
  }
  return found;
}

// ---- selectors ----------------------------------------------------------------------------

const COMPOUND = /^(\*|[a-zA-Z][\w-]*)?((?:#[\w-]+|\.[\w-]+|\[[\w-]+(?:=(?:"[^"]*"|'[^']*'|[\w-]+))?\])*)$/;
const PART = /#([\w-]+)|\.([\w-]+)|\[([\w-]+)(?:=(?:"([^"]*)"|'([^']*)'|([\w-]+)))?\]/g;

// The descendants of `root` that match `selector`, in document order.
function select(root, selector) {
  const groups = String(selector).split(',').map(parseSelector);
  return descendants(root).filter((element) => groups.some((steps) => matches(element, steps, steps.length - 1)));
}

// [{combinator, test}], left to right; combinator joins a step to the one before it.
function parseSelector(text) {
  const tokens = text.trim().replace(/\s*>\s*/g, ' > ').split(/\s+/);
  const steps = [];
  let combinator = ' ';
  for (const token of tokens) {
    if (token === '>') { combinator = '>'; continue; }
    const compound = COMPOUND.exec(token);
    if (!compound || token === '') throw new Error(`page-dom: unsupported selector ${JSON.stringify(text)}`);
    const tag = compound[1] && compound[1] !== '*' ? compound[1].toUpperCase() : null;
    const parts = [...compound[2].matchAll(PART)];
    const test = (element) => (tag === null || element.tagName === tag) && parts.every(([, id, className, name, double, single, bare]) => {
      if (id !== undefined) return element.id === id;
      if (className !== undefined) return element.classList.contains(className);
      const value = element.getAttribute(name);
      const wanted = double ?? single ?? bare;
      return value !== null && (wanted === undefined || value === wanted);
    });
    steps.push({ combinator, test });
    combinator = ' ';
  }
  return steps;
}

function matches(element, steps, index) {
  if (!element || element.nodeType !== 1 || !steps[index].test(element)) return false;
  if (index === 0) return true;
  if (steps[index].combinator === '>') return matches(element.parentNode, steps, index - 1);
  for (let ancestor = element.parentNode; ancestor; ancestor = ancestor.parentNode) {
    if (matches(ancestor, steps, index - 1)) return true;
  }
  return false;
}

// ---- markup -------------------------------------------------------------------------------

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const TOKEN = /<!--[\s\S]*?-->|<!doctype[^>]*>|<\/([a-zA-Z][\w-]*)\s*>|<([a-zA-Z][\w-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>|[^<]+|</gi;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

// The nodes of `markup`, parsed the simple way: no implied end tags, stray end tags ignored.
function parseHtml(markup) {
  const root = new FakeElement('#fragment');
  const open = [root];
  for (const match of markup.matchAll(TOKEN)) {
    const top = open[open.length - 1];
    const [token, endTag, startTag, attributes, selfClosing] = match;
    if (token.startsWith('<!')) continue;
    if (endTag) {
      const at = open.map((element) => element.tagName).lastIndexOf(endTag.toUpperCase());
      if (at > 0) open.length = at;
    } else if (startTag) {
      const element = new FakeElement(startTag);
      for (const [, name, double, single, bare] of (attributes || '').matchAll(ATTRIBUTE)) {
        element.setAttribute(name, decode(double ?? single ?? bare ?? ''));
      }
      top.appendChild(element);
      if (!selfClosing && !VOID.has(element.tagName.toLowerCase())) open.push(element);
    } else {
      top.appendChild(new FakeText(decode(token)));
    }
  }
  return root.childNodes.slice();
}

function decode(text) {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, name) => {
    if (name[0] === '#') return String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
    return ENTITIES[name.toLowerCase()] ?? entity;
  });
}

function serialize(node) {
  if (node.nodeType === 3) return node.nodeValue.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const tag = node.tagName.toLowerCase();
  const attributes = Object.entries(node.attributes).map(([name, value]) => ` ${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`).join('');
  if (VOID.has(tag)) return `<${tag}${attributes}>`;
  return `<${tag}${attributes}>${node.childNodes.map(serialize).join('')}</${tag}>`;
}

// ---- document, storage, location ------------------------------------------------------------

class FakeStorage {
  constructor(map = new Map()) { this.map = map; }
  get length() { return this.map.size; }
  key(index) { return [...this.map.keys()][index] ?? null; }
  getItem(key) { return this.map.has(String(key)) ? this.map.get(String(key)) : null; }
  setItem(key, value) { this.map.set(String(key), String(value)); }
  removeItem(key) { this.map.delete(String(key)); }
  clear() { this.map.clear(); }
}

// state: {readyState, currentScript}, read live; body: the page's markup (scripts left out).
function fakeDocument(state, { title = '', body = '' } = {}) {
  const documentElement = new FakeElement('html');
  const head = documentElement.appendChild(new FakeElement('head'));
  const bodyElement = documentElement.appendChild(new FakeElement('body'));
  bodyElement.innerHTML = body;
  let listeners = [];
  return {
    documentElement,
    head,
    body: bodyElement,
    title,
    get readyState() { return state.readyState; },
    get currentScript() { return state.currentScript; },
    createElement: (tagName) => new FakeElement(tagName),
    createTextNode: (text) => new FakeText(text),
    createDocumentFragment: () => new FakeElement('#fragment'),
    getElementById: (id) => descendants(documentElement).find((element) => element.id === String(id)) || null,
    getElementsByTagName: (name) => documentElement.getElementsByTagName(name),
    getElementsByClassName: (name) => documentElement.getElementsByClassName(name),
    querySelector: (selector) => documentElement.querySelector(selector),
    querySelectorAll: (selector) => documentElement.querySelectorAll(selector),
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

module.exports = { ErrorEvent, FakeElement, FakeText, FakeStorage, fakeDocument, fakeLocation, parseHtml };
