// Runs a fixture page of pages/fixtures/bridge in the test DOM: its scripts in document order
// (inline, or `src` relative to the page), as the page's own content.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { boot } = require('./boot');

const FIXTURES = path.resolve(__dirname, '..', '..', 'pages', 'fixtures', 'bridge');
const SCRIPT = /<script(\s[^>]*)?>([\s\S]*?)<\/script>/g;

function pageHtml(name) {
  return fs.readFileSync(path.join(FIXTURES, name), 'utf8');
}

function pageScripts(name, html = pageHtml(name)) {
  const file = path.join(FIXTURES, name);
  const scripts = [];
  for (const match of html.matchAll(SCRIPT)) {
    const src = /\ssrc="([^"]+)"/.exec(match[1] || '');
    if (src) scripts.push({ file: path.join(path.dirname(file), src[1]), code: fs.readFileSync(path.join(path.dirname(file), src[1]), 'utf8') });
    else scripts.push({ file: `${name} (inline)`, code: match[2] });
  }
  return scripts;
}

// Whether the page declares an encoding in which WebKit shows a backslash as a yen sign.
function yenEncoding(html) {
  return /<meta charset="(shift_jis|euc-jp|iso-2022-jp)">/i.test(html);
}

// What WebCore's Chrome::runJavaScriptPrompt does in such a document: the message, the default
// text and the answer pass through displayStringModifiedByEncoding, every `\` becoming U+00A5.
function showBackslashAsYen(dom) {
  const yen = (text) => (typeof text === 'string' ? text.split('\\').join('\u00a5') : text);
  const prompt = dom.onPrompt;
  dom.onPrompt = (message, defaultText) => yen(prompt(yen(message), yen(defaultText)));
}

// Boots the page and lets it run until it reports to `fixture.done`, advancing fake time one
// timer at a time; `afterLoad(env)` runs once the page's scripts have run (native's load events).
async function runFixture(name, { order = 'relay-first', afterLoad, maxTurns = 200 } = {}) {
  const html = pageHtml(name);
  const scripts = pageScripts(name, html);
  // At document start the page's scripts run while the document is being parsed; a late
  // injection (dynamic) comes after parsing.
  const env = boot({
    order,
    parsing: order !== 'dynamic',
    content: (world) => { for (const script of scripts) world.run(script.code, script.file); },
  });
  if (yenEncoding(html)) showBackslashAsYen(env.dom);
  if (env.dom.readyState === 'loading') env.dom.finishParsing();
  if (afterLoad) await afterLoad(env);
  for (let turn = 0; turn < maxTurns && env.native.reports.length === 0; turn++) {
    await env.clock.tick(env.clock.pending > 0 ? 1 : 0);
  }
  return { env, report: env.native.reports[0] };
}

module.exports = { runFixture, pageScripts, FIXTURES };
