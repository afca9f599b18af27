// Starts a document in the test DOM: the relay in the isolated world, page.js in the page world,
// in the order a test asks for, with a fake native behind the relay.
'use strict';

const scripts = require('../tools/scripts.cjs');
const { Dom } = require('./dom');
const { FakeNative } = require('./native');
const { idle } = require('./clock');

const RELAY = scripts.relaySource();
const PAGE = scripts.pageSource();

// order: 'relay-first' | 'page-first' (both at document start), 'dynamic' (page.js injected
// after the page's own scripts ran), 'no-page-script' (the relay alone), 'no-relay' (page.js
// alone, as in a document the relay is not injected into).
// content(world): the page's own scripts, run after document-start scripts.
// direct: native has the page world's direct handler, as the Swift side does.
// parsing: the document is still being parsed (readyState 'loading') until env.dom.finishParsing().
function boot(options = {}) {
  const dom = new Dom({ url: options.url, parsing: options.parsing });
  const native = new FakeNative(options.native);
  const isolated = dom.createWorld('hybridshell', { webkit: native.webkit });
  // direct: the page world also sees native's `hybridshellDirect` handler (channel.js).
  const page = dom.createWorld('page', options.direct ? { webkit: native.pageWebkit } : undefined);
  native.attach({ dom, isolated, page });
  const runRelay = () => isolated.run(RELAY, 'relay.js');
  const injectPage = () => page.run(PAGE, 'page.js');
  const content = () => { if (options.content) options.content(page); };

  const order = options.order || 'relay-first';
  if (order === 'relay-first') {
    runRelay();
    injectPage();
    content();
  } else if (order === 'page-first') {
    injectPage();
    runRelay();
    content();
  } else if (order === 'dynamic') {
    runRelay();
    content();
    injectPage();
  } else if (order === 'no-page-script') {
    runRelay();
    content();
  } else if (order === 'no-relay') {
    injectPage();
    content();
  } else {
    throw new Error(`unknown order ${order}`);
  }

  return {
    dom,
    native,
    page,
    isolated,
    window: page.global,
    get hybrid() { return page.global.hybrid; },
    injectPage,
    runRelay,
    settle: idle,
    clock: dom.clock,
    logs: (level) => dom.logs.filter((entry) => !level || entry.level === level).map((entry) => entry.text),
  };
}

// Values from another realm compare equal to plain ones only after a trip through JSON.
function plain(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

module.exports = { boot, plain, RELAY, PAGE };
