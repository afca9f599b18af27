// A fake of the Swift side of PROTOCOL.md, in JavaScript: the `hybridshell` message handler
// with its reply channel, pushes through the relay's `deliver`, the dsbridge prompt gate and the
// WebViewJavascriptBridge URL interception. Strict enough that the page and relay scripts are
// held to the rules the Swift side enforces.
'use strict';

const { parseStrict } = require('./strict-json');

// Native refuses an envelope longer than maxPayload plus this much envelope overhead.
const ENVELOPE_SLACK = 1024;
const SESSION = /^[0-9a-f]{32,}$/;

class NativeError extends Error {
  constructor(code, message, details = null) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

class FakeNative {
  constructor(options = {}) {
    this.allowedOrigins = options.allowedOrigins || ['https://app.example'];
    this.limits = { maxPayload: options.maxPayload || 16777216, maxDepth: options.maxDepth || 512 };
    this.timeout = options.timeout || 30000;
    this.handlers = new Map(Object.entries(fixtureHandlers(this)));
    this.sessions = new Map();
    this.session = null;
    this.posts = [];
    // What the page posted to the direct handler, as posted (they also appear in `posts`, under
    // the session id, once admitted).
    this.directPosts = [];
    this.frames = [];
    this.cancelled = [];
    this.prompts = [];
    this.reports = [];
    this.pageProgress = [];
    this.closeRequests = 0;
    this.bridgeLoaded = 0;
    this.rejectPosts = false;
    this.running = new Map();
    this.pageCalls = new Map();
    this.legacyCallbacks = new Map();
    this.nextPageCallId = 1;
    this.outgoing = [];
    this.deliveryAnswers = [];
    // directDelivery: pushes go to the page world's __hybridshellPage when the hello offered it.
    this.directDelivery = false;
    this.directDeliveries = [];
    // Every frames text the page sent up after its hello, in order: posts and delivery answers.
    this.upFrames = [];
    this.onBridgeLoaded = null;
    this.helloGate = null;
  }

  // Holds the answer to the next hello until the returned function is called.
  deferHello() {
    let release;
    this.helloGate = new Promise((resolve) => { release = resolve; });
    return release;
  }

  // The WebKit objects the isolated world sees.
  get webkit() {
    return { messageHandlers: { hybridshell: { postMessage: (text) => this.postMessage(text) } } };
  }

  // The WebKit objects the page world sees when native has the direct handler: posts there must
  // carry the session's secret, and may not say hello (Swift's PostTransport.direct).
  get pageWebkit() {
    return { messageHandlers: { hybridshellDirect: { postMessage: (text) => this.postDirect(text) } } };
  }

  postDirect(text) {
    if (this.rejectPosts) return Promise.reject(new Error('the message handler is gone'));
    this.directPosts.push(text);
    let envelope;
    try {
      envelope = parseStrict(text, { maxDepth: this.limits.maxDepth + 3 });
    } catch (error) {
      return Promise.resolve(postError('INVALID_MESSAGE', error.message));
    }
    const session = [...this.sessions.values()].find((candidate) => envelope && candidate.secret === envelope.s);
    if (!session || session.id !== this.session) return Promise.resolve(postError('BRIDGE_RESET', 'unknown session'));
    if (envelope.m.some((frame) => frame && frame.t === 'hello')) {
      return Promise.resolve(postError('INVALID_MESSAGE', 'hello is only valid from the relay'));
    }
    // From here on as if the relay had posted it under the session id.
    return this.postMessage(JSON.stringify({ v: 1, s: session.id, m: envelope.m }));
  }

  attach({ dom, isolated, page }) {
    this.isolated = isolated;
    this.page = page;
    dom.onPrompt = (message, defaultText) => this.prompt(message, defaultText);
    dom.onNavigate = (url) => this.decidePolicy(url);
  }

  handle(name, fn) {
    this.handlers.set(name, fn);
  }

  get currentSession() {
    return this.session ? this.sessions.get(this.session) : null;
  }

  // ---- the script-message handler -------------------------------------------------------

  postMessage(text) {
    if (this.rejectPosts) return Promise.reject(new Error('the message handler is gone'));
    this.posts.push(text);
    const start = typeof text === 'string' ? text.indexOf('"m":[') : -1;
    if (start >= 0 && !text.includes('"t":"hello"')) this.upFrames.push(text.slice(start + 4, -1));
    return this.answerPost(text);
  }

  answerPost(text) {
    if (typeof text !== 'string') return Promise.resolve(postError('INVALID_MESSAGE', 'a message must be JSON text'));
    if (text.length > this.limits.maxPayload + ENVELOPE_SLACK) {
      return Promise.resolve(postError('PAYLOAD_TOO_LARGE', `message longer than ${this.limits.maxPayload}`));
    }
    let envelope;
    try {
      envelope = parseStrict(text, { maxDepth: this.limits.maxDepth + 3 });
    } catch (error) {
      return Promise.resolve(postError('INVALID_MESSAGE', error.message));
    }
    const keys = Object.keys(envelope || {}).sort().join();
    const wellFormed = envelope !== null && typeof envelope === 'object' && !Array.isArray(envelope) && keys === 'm,s,v' &&
      envelope.v === 1 && typeof envelope.s === 'string' && SESSION.test(envelope.s) && Array.isArray(envelope.m);
    if (!wellFormed) return Promise.resolve(postError('INVALID_MESSAGE', 'not a version 1 envelope'));
    const session = this.sessions.get(envelope.s);
    if (!session) {
      const isHello = envelope.m.length === 1 && envelope.m[0] !== null && envelope.m[0].t === 'hello';
      if (!isHello) return Promise.resolve(postError('BRIDGE_RESET', 'unknown session'));
      const answer = this.hello(envelope.s, envelope.m[0]);
      return this.helloGate ? this.helloGate.then(() => answer) : Promise.resolve(answer);
    }
    if (!session.allowed) return Promise.resolve(postError('DENIED', 'this document may not use the bridge'));
    return this.dispatch(session, envelope.m);
  }

  hello(id, frame) {
    const valid = typeof frame.url === 'string' && typeof frame.origin === 'string' && typeof frame.secret === 'string' &&
      Array.isArray(frame.dialects);
    if (!valid) return postError('INVALID_MESSAGE', 'malformed hello');
    const allowed = this.allowedOrigins.includes(frame.origin);
    this.sessions.set(id, { id, secret: frame.secret, origin: frame.origin, url: frame.url, dialects: frame.dialects, deliver: frame.deliver === true, allowed });
    this.session = id;
    if (!allowed) return JSON.stringify([{ t: 'denied', code: 'DENIED', message: `origin ${frame.origin} may not use the bridge` }]);
    return JSON.stringify([{ t: 'ready', session: id, limits: this.limits, timeout: this.timeout }]);
  }

  // Answers at once with what finishes at once; a post with exactly one call waits for it.
  dispatch(session, frames) {
    const immediate = [];
    const waits = [];
    const singleCall = frames.filter((frame) => frame && frame.t === 'call').length === 1;
    for (const frame of frames) {
      const problem = frameProblem(frame);
      if (problem) {
        if (problem.id !== null) immediate.push(errorReply(problem.id, 'INVALID_MESSAGE', problem.message));
        continue;
      }
      this.frames.push(frame);
      if (frame.t === 'call') {
        const outcome = this.runCall(session, frame);
        if (outcome.reply) immediate.push(outcome.reply);
        else if (singleCall) waits.push(outcome.later);
        else outcome.later.then((reply) => reply && this.push(reply));
      } else if (frame.t === 'reply') {
        this.onPageReply(frame);
      } else if (frame.t === 'progress') {
        this.pageProgress.push(frame);
        const call = this.pageCalls.get(frame.id);
        if (call && call.onProgress) call.onProgress(frame.d);
      } else if (frame.t === 'cancel') {
        this.cancelled.push(frame.id);
        const running = this.running.get(frame.id);
        if (running) running.cancelled = true;
      }
    }
    if (waits.length === 0) return Promise.resolve(JSON.stringify(immediate));
    return Promise.all(waits).then((replies) => JSON.stringify(immediate.concat(replies.filter(Boolean))));
  }

  runCall(session, frame) {
    const handler = this.handlers.get(frame.h);
    if (!handler) return { reply: errorReply(frame.id, 'NOT_FOUND', `no native handler named "${frame.h}"`) };
    const state = { cancelled: false };
    const context = {
      session,
      native: this,
      progress: (value) => { if (!state.cancelled) this.push({ t: 'progress', id: frame.id, d: value }); },
      callPage: (name, data, options) => this.callPage(name, data, options),
      get cancelled() { return state.cancelled; },
    };
    let result;
    try {
      result = handler(frame.d, context);
    } catch (error) {
      return { reply: thrownReply(frame.id, error) };
    }
    if (!result || typeof result.then !== 'function') return { reply: okReply(frame.id, result) };
    this.running.set(frame.id, state);
    const later = Promise.resolve(result).then((value) => okReply(frame.id, value), (error) => thrownReply(frame.id, error))
      .then((reply) => {
        this.running.delete(frame.id);
        return state.cancelled ? null : reply;
      });
    return { later };
  }

  onPageReply(frame) {
    const call = this.pageCalls.get(frame.id);
    if (!call) return;
    this.pageCalls.delete(frame.id);
    if (frame.ok) call.resolve(frame.d);
    else call.reject(new NativeError(frame.e.code, frame.e.message, frame.e.details));
  }

  // ---- pushes -------------------------------------------------------------------------------

  // Coalesced per turn, like native's deliveries per main-loop iteration.
  push(frame) {
    this.outgoing.push(frame);
    if (this.outgoing.length === 1) queueMicrotask(() => this.flush());
  }

  flush() {
    const frames = this.outgoing;
    this.outgoing = [];
    if (frames.length === 0) return;
    const session = this.sessions.get(this.session);
    // Like Swift's Bridge.flush: straight into the page world when its hello offered that.
    if (this.directDelivery && session && session.deliver) this.deliverDirect(JSON.stringify(frames));
    else this.deliver(JSON.stringify(frames));
  }

  // The relay answers a delivery with the up-frames the page sent while handling it; native
  // handles them as it handles a post, pushing what a post would have answered.
  deliver(framesText, session = this.session) {
    return this.handleDeliveryAnswer(this.isolated.global.__hybridshellRelay.deliver(session + framesText), session);
  }

  // The direct delivery (PROTOCOL.md): the page world's own function, named by the secret.
  deliverDirect(framesText, secret = this.sessions.get(this.session).secret) {
    this.directDeliveries.push(framesText);
    return this.handleDeliveryAnswer(this.page.global.__hybridshellPage.deliver(secret + framesText), this.session);
  }

  handleDeliveryAnswer(answer, session) {
    // The answer is the text itself when every call answered at once, else a Promise of it.
    const handle = (text) => {
      if (typeof text !== 'string' || text === '') return;
      this.deliveryAnswers.push(text);
      this.upFrames.push(text);
      this.answerPost('{"v":1,"s":"' + session + '","m":' + text + '}').then((reply) => {
        for (const frame of JSON.parse(reply)) if (frame.t !== 'error') this.push(frame);
      });
    };
    if (answer && typeof answer.then === 'function') answer.then(handle);
    else handle(answer);
    return answer;
  }

  callPage(name, data, options = {}) {
    const id = this.nextPageCallId++;
    return new Promise((resolve, reject) => {
      this.pageCalls.set(id, { resolve, reject, onProgress: options.onProgress });
      const frame = { t: 'call', id, h: name, d: data === undefined ? null : data };
      if (options.args) frame.args = true;
      this.push(frame);
    });
  }

  emit(name, data = null) {
    this.push({ t: 'event', n: name, d: data });
  }

  // ---- the dsbridge prompt gate ---------------------------------------------------------

  prompt(message, defaultText) {
    const answer = this.answerPrompt(String(message), defaultText);
    this.prompts.push({ message, defaultText, answer });
    return answer;
  }

  answerPrompt(message, argsText) {
    const gated = /^_hybridshell_ds=([^:]*):(.*)$/s.exec(message);
    if (gated) {
      // Every backslash of the gated prompt's texts travels as U+0001, both ways (PROTOCOL.md).
      const session = this.currentSession;
      if (!session || !session.allowed || session.secret !== gated[1]) return toPrompt(dsAnswerError('DENIED', 'wrong or missing document secret'));
      return toPrompt(this.syncCall(session, fromPrompt(gated[2]), argsText === undefined || argsText === null ? argsText : fromPrompt(String(argsText))));
    }
    if (message.startsWith('_dsbridge=')) return dsAnswerError('DENIED', 'dsbridge prompt without the document secret');
    return null;
  }

  syncCall(session, method, argsText) {
    let args;
    try {
      args = parseStrict(argsText || '{}', { maxDepth: this.limits.maxDepth + 1 });
    } catch (error) {
      return dsAnswerError('INVALID_MESSAGE', error.message);
    }
    const handler = this.handlers.get(method);
    if (!handler) return dsAnswerError('NOT_FOUND', `no native handler named "${method}"`);
    let result;
    try {
      result = handler(args.data === undefined ? null : args.data, { session, native: this, sync: true, progress() {} });
    } catch (error) {
      return dsAnswerError(typeof error.code === 'string' ? error.code : 'HANDLER_ERROR', error.message);
    }
    if (result && typeof result.then === 'function') return dsAnswerError('HANDLER_ERROR', `${method} is not synchronous`);
    return '{"code":0,"data":' + JSON.stringify(result === undefined ? null : result) + '}';
  }

  // ---- WebViewJavascriptBridge URL interception -------------------------------------------

  decidePolicy(url) {
    let parsed;
    try {
      parsed = new URL(url);
    } catch {
      return;
    }
    const scheme = parsed.protocol.slice(0, -1).toLowerCase();
    const host = parsed.hostname.toLowerCase();
    if (scheme !== 'https' && scheme !== 'wvjbscheme') return;
    if (host === '__bridge_loaded__') {
      this.bridgeLoaded++;
      if (this.onBridgeLoaded) this.onBridgeLoaded();
    } else if (host === '__wvjb_queue_message__') {
      queueMicrotask(() => this.flushWvjbQueue());
    }
  }

  // Handles the fetched messages one after another, so responses keep the queue's order.
  async flushWvjbQueue() {
    const session = this.currentSession;
    if (!session || !session.allowed) return;
    const queue = JSON.parse(this.page.run('WebViewJavascriptBridge._fetchQueue()') || '[]');
    for (const message of queue) {
      if (message.responseId) {
        const callback = this.legacyCallbacks.get(message.responseId);
        this.legacyCallbacks.delete(message.responseId);
        if (callback) callback(message.responseData);
        continue;
      }
      const responseData = await this.runLegacy(session, message);
      if (message.callbackId) {
        const reply = JSON.stringify({ responseId: message.callbackId, responseData });
        this.page.global.WebViewJavascriptBridge._handleMessageFromObjC(reply);
      }
    }
  }

  // WebViewJavascriptBridge has no error channel: errors go as responseData {error}.
  async runLegacy(session, message) {
    const handler = this.handlers.get(message.handlerName);
    if (!handler) return { error: { code: 'NOT_FOUND', message: `no native handler named "${message.handlerName}"`, details: null } };
    try {
      const value = await handler(message.data === undefined ? null : message.data, { session, native: this, progress() {} });
      return value === undefined ? null : value;
    } catch (error) {
      return { error: errorObject(error) };
    }
  }

  // Native calling a page handler the legacy way (_handleMessageFromObjC), answered through
  // the page's queue.
  callPageLegacy(handlerName, data) {
    const callbackId = `objc_cb_${this.nextPageCallId++}`;
    return new Promise((resolve) => {
      this.legacyCallbacks.set(callbackId, resolve);
      this.page.global.WebViewJavascriptBridge._handleMessageFromObjC(JSON.stringify({ handlerName, data, callbackId }));
    });
  }
}

function fixtureHandlers(native) {
  return {
    echo: (data) => data,
    'fixture.add': (data) => data.a + data.b,
    'fixture.fail': () => { throw new NativeError('HANDLER_ERROR', 'fixture failure'); },
    'fixture.slow': async (data, context) => {
      await null;
      context.progress({ step: 1 });
      await null;
      context.progress({ step: 2 });
      await null;
      return 'done';
    },
    'fixture.callPage': (data, context) => context.callPage(data.name, data.data, { args: data.args === true }),
    'fixture.done': (data) => { native.reports.push(data); return true; },
    '*': (data) => data,
    '_dsb.hasNativeMethod': (data) => native.handlers.has(data && data.name),
    '_dsb.closePage': () => { native.closeRequests++; return null; },
    '_dsb.disableJavascriptDialogBlock': () => null,
  };
}

// An up-frame native cannot take: {id, message}, id null when it cannot be answered.
function frameProblem(frame) {
  if (frame === null || typeof frame !== 'object' || Array.isArray(frame)) return { id: null, message: 'a frame must be an object' };
  const id = Number.isInteger(frame.id) && frame.id >= 1 ? frame.id : null;
  const has = (key) => Object.prototype.hasOwnProperty.call(frame, key);
  switch (frame.t) {
    case 'call':
      if (id === null) return { id, message: 'call without a valid id' };
      if (typeof frame.h !== 'string' || frame.h === '') return { id, message: 'call without a handler name' };
      if (!has('d')) return { id, message: 'call without data' };
      if (has('to') && !(Number.isInteger(frame.to) && frame.to >= 0)) return { id, message: '"to" must be milliseconds' };
      if (has('dl') && typeof frame.dl !== 'string') return { id, message: '"dl" must be a string' };
      return null;
    // Replies, progress and cancels carry the id of a native call (or of a call already
    // answered), so a malformed one is logged, never answered.
    case 'reply':
      if (id !== null && frame.ok === true && has('d')) return null;
      if (id !== null && frame.ok === false && frame.e && typeof frame.e.code === 'string' && typeof frame.e.message === 'string') return null;
      return { id: null, message: 'malformed reply' };
    case 'progress':
      return id === null || !has('d') ? { id: null, message: 'malformed progress' } : null;
    case 'cancel':
      return id === null ? { id: null, message: 'cancel without a valid id' } : null;
    case 'hello':
      return { id: null, message: 'hello after the session started' };
    default:
      return { id, message: `unknown frame type ${JSON.stringify(frame.t)}` };
  }
}

function errorObject(error) {
  const code = error && typeof error.code === 'string' ? error.code : 'HANDLER_ERROR';
  return { code, message: String(error && error.message), details: error && error.details !== undefined ? error.details : null };
}

function okReply(id, value) {
  return { t: 'reply', id, ok: true, d: value === undefined ? null : value };
}

function errorReply(id, code, message, details = null) {
  return { t: 'reply', id, ok: false, e: { code, message, details } };
}

function thrownReply(id, error) {
  const e = errorObject(error);
  return errorReply(id, e.code, e.message, e.details);
}

function postError(code, message) {
  return JSON.stringify([{ t: 'error', code, message }]);
}

function dsAnswerError(code, message) {
  return JSON.stringify({ code: -1, data: null, errorCode: code, message });
}

function toPrompt(text) {
  return text.split('\\').join('\u0001');
}

function fromPrompt(text) {
  return text.split('\u0001').join('\\');
}

module.exports = { FakeNative, NativeError, frameProblem, ENVELOPE_SLACK };
