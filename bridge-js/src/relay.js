// HybridShell relay: runs in the isolated script world "hybridshell" of the top document, at
// document start. It is the only script that can reach native (the `hybridshell` message handler
// lives in this world) and it vouches for the document: location is read here, where the page
// cannot tamper with it. See bridge-js/PROTOCOL.md, "Who runs where" and "Start-up handshake".
;(function () {
'use strict';

if (globalThis.__hybridshellRelay) return;

const UP_EVENT = 'hybridshell:up';
const DOWN_EVENT = 'hybridshell:down';
const PAGE_UP = '[{"t":"page-up"';
const POST_ERROR = '[{"t":"error",';
// The page's last up-frames for the delivery being handled, and its word that every call of it
// has answered (core.js receive).
const UP_ANSWERED_EVENT = 'hybridshell:up-answered';

const window = globalThis;
const CustomEvent = window.CustomEvent;
const session = randomHex(16);
const SESSION_LENGTH = session.length;
const secret = randomHex(16);
let helloSent = false;
// While a delivery is being handled, the page's up-frames go to its collection (the newest open
// one) and return as the delivery's answer instead of being posted (see deliver).
const collections = [];
const COLLECT_TICKS = 4;

function randomHex(byteCount) {
  const bytes = new Uint8Array(byteCount);
  window.crypto.getRandomValues(bytes);
  let hex = '';
  for (const byte of bytes) hex += (byte < 16 ? '0' : '') + byte.toString(16);
  return hex;
}

function sendDown(framesText) {
  try {
    window.dispatchEvent(new CustomEvent(DOWN_EVENT, { detail: framesText }));
  } catch (error) {
    console.error('hybridshell relay: could not deliver down-frames', error);
  }
}

function onUp(event) {
  try {
    const framesText = event.detail;
    if (typeof framesText !== 'string') return;
    if (framesText.startsWith(PAGE_UP)) return onPageUp(framesText);
    if (!helloSent) return;
    if (collections.length > 0) collections[collections.length - 1].push(framesText);
    else post(framesText, false);
  } catch (error) {
    console.error('hybridshell relay: dropped up-frames', error);
  }
}

// Like onUp for the frames; then the delivery being handled is answered. Outside a delivery (a
// page dispatching the event itself) the frames are posted as usual.
function onUpAnswered(event) {
  try {
    const framesText = event.detail;
    if (typeof framesText !== 'string' || !helloSent || framesText.startsWith(PAGE_UP)) return;
    if (collections.length === 0) {
      if (framesText !== '') post(framesText, false);
      return;
    }
    const texts = collections[collections.length - 1];
    if (framesText !== '') texts.push(framesText);
    texts.answered = true;
  } catch (error) {
    console.error('hybridshell relay: dropped up-frames', error);
  }
}

// The first page-up gets the secret (synchronously, before any page script can listen for it
// when both scripts run at document start) and starts the session; repeats are ignored.
function onPageUp(framesText) {
  if (helloSent) return;
  let dialects = [];
  let deliver = false;
  try {
    const pageUp = JSON.parse(framesText)[0];
    const announced = pageUp.dialects;
    if (Array.isArray(announced)) dialects = announced.filter(function (name) { return typeof name === 'string'; });
    deliver = pageUp.deliver === true;
  } catch (error) {
    dialects = [];
  }
  helloSent = true;
  sendDown(JSON.stringify([{ t: 'secret', secret: secret }]));
  const hello = { t: 'hello', url: window.location.href, origin: window.location.origin, secret: secret, dialects: dialects };
  // The page world says it holds the direct delivery's function (a hint, not a proof: native
  // checks the origin and the page the secret on every delivery).
  if (deliver) hello.deliver = true;
  post(JSON.stringify([hello]), true);
}

// The message handler, looked up once it exists: `messageHandlers.<name>` is a named-property
// lookup in WebCore on every access, and the relay posts once per call.
let handler = null;
function nativeHandler() {
  if (handler === null) {
    handler = window.webkit.messageHandlers.hybridshell;
    if (handler === undefined) {
      handler = null;
      throw new Error('the hybridshell message handler is not registered');
    }
  }
  return handler;
}

// The envelope is built around the page's text so payloads are never parsed here.
function post(framesText, isHello) {
  const envelope = '{"v":1,"s":"' + session + '","m":' + framesText + '}';
  let reply;
  try {
    reply = nativeHandler().postMessage(envelope);
  } catch (error) {
    reply = Promise.reject(error);
  }
  Promise.resolve(reply).then(function (answer) {
    onAnswer(answer, framesText, isHello);
  }, function (error) {
    fail(framesText, isHello, 'BRIDGE_RESET', 'native did not take the message: ' + describe(error));
  });
}

function onAnswer(answer, framesText, isHello) {
  if (typeof answer !== 'string' || answer === '[]') return;
  if (answer.startsWith(POST_ERROR)) {
    const refusal = parseRefusal(answer);
    return fail(framesText, isHello, refusal.code, refusal.message);
  }
  sendDown(answer);
}

function parseRefusal(answer) {
  try {
    const frame = JSON.parse(answer)[0];
    return { code: String(frame.code), message: String(frame.message) };
  } catch (error) {
    return { code: 'INVALID_MESSAGE', message: 'native refused the message' };
  }
}

// A post native refused or never took: the handshake becomes `denied`, and each call in it gets
// an error reply, so nothing waits for an answer that will not come.
function fail(framesText, isHello, code, message) {
  if (isHello) return sendDown(JSON.stringify([{ t: 'denied', code: code, message: message }]));
  const e = { code: code, message: message, details: null };
  const replies = callIds(framesText).map(function (id) { return { t: 'reply', id: id, ok: false, e: e }; });
  if (replies.length > 0) sendDown(JSON.stringify(replies));
}

function callIds(framesText) {
  let frames;
  try {
    frames = JSON.parse(framesText);
  } catch (error) {
    return [];
  }
  if (!Array.isArray(frames)) return [];
  return frames.filter(function (frame) {
    return frame !== null && typeof frame === 'object' && frame.t === 'call' && typeof frame.id === 'number';
  }).map(function (frame) { return frame.id; });
}

function describe(error) {
  try {
    return error && typeof error.message === 'string' ? error.message : String(error);
  } catch (e) {
    return 'unknown error';
  }
}

// Native pushes down-frames with `return globalThis.__hybridshellRelay.deliver(m)`, where m is the
// session (32 hex digits) followed by the frames text: one typed argument, as each argument costs
// WebKit a conversion on both sides of the call.
// The answer is false (wrong session), or the up-frames the page sent while handling them ('' for
// none): at once when the page says every call in the delivery has answered (plain values from
// its handlers), else a Promise of them after a few microtask turns, by which a handler that
// answers with an already settled Promise has answered too. Either way those replies ride back on
// the delivery instead of costing a post and its reply.
function deliver(text) {
  if (typeof text !== 'string' || !text.startsWith(session)) return false;
  const framesText = text.slice(SESSION_LENGTH);
  const texts = [];
  collections.push(texts);
  sendDown(framesText);
  if (texts.answered === true) return collected(texts);
  let ticks = Promise.resolve();
  for (let i = 0; i < COLLECT_TICKS; i++) ticks = ticks.then(function () {});
  return ticks.then(function () { return collected(texts); });
}

function collected(texts) {
  collections.splice(collections.indexOf(texts), 1);
  if (texts.length === 0) return '';
  if (texts.length === 1) return texts[0];
  return '[' + texts.map(function (text) { return text.slice(1, -1); }).filter(function (inner) { return inner !== ''; }).join(',') + ']';
}

Object.defineProperty(globalThis, '__hybridshellRelay', { value: Object.freeze({ deliver: deliver }) });
window.addEventListener(UP_EVENT, onUp);
window.addEventListener(UP_ANSWERED_EVENT, onUpAnswered);
sendDown('[{"t":"relay-up"}]');
})();
