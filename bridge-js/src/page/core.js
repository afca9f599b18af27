// The page side of the bridge: the handshake with the relay, the dispatch of down-frames, and
// the state every dialect shares (calls, page handlers, events, lifecycle).

function createBridge() {
  const channel = createChannel(receive);
  const outbox = createOutbox(sendUp);
  const calls = createCalls(outbox);
  const handlers = createPageHandlers();
  const nativeCalls = createNativeCalls(handlers, send, function () { return limits; });
  const events = createEvents();
  const lifecycle = createLifecycle(events);
  const dialects = ['hybrid'];
  let phase = 'connecting';
  let failure = null;
  let secret = null;
  let limits = DEFAULT_LIMITS;
  let settleReady = null;
  let deliverInstalled = false;
  const ready = new Promise(function (resolve, reject) { settleReady = { resolve: resolve, reject: reject }; });
  // Callers of `ready` still see a rejection; this only keeps a denied page's console quiet.
  ready.catch(function () {});

  function start() {
    deliverInstalled = installDeliver();
    channel.listen();
    window.addEventListener('pagehide', onPageHide);
    announce();
  }

  // Up-frames go straight to native once the session is ready and this document has its secret;
  // before that (and where native has no direct handler) through the relay.
  function sendUp(framesText, callIds) {
    if (phase === 'ready' && secret !== null && channel.canSendDirect) channel.sendDirect(secret, framesText, callIds);
    else channel.send(framesText);
  }

  function announce() {
    channel.send(Frames.pageUp(dialects, deliverInstalled));
  }

  // Native's down-frames straight into the page world (bridge-js/PROTOCOL.md, "The direct
  // delivery"): native's function body checks the document's origin, this checks that the
  // delivery is for this document's session (its secret), so nothing meant for one document is
  // handled by another. `text` is the secret followed by the frames text (folded into one
  // argument beside native's origin: WebKit converts each on both sides). The answer is what a
  // relay delivery answers: the up-frames that answer its calls at once ('' for none; the rest
  // leave as posts), or false for another document's.
  function deliver(text) {
    if (secret === null || typeof text !== 'string' || text.slice(0, secret.length) !== secret) return false;
    const frames = downFrames(text.slice(secret.length));
    if (frames === null) return '';
    let answer = '';
    receive(frames, function (text) { answer = text; });
    return answer;
  }

  // The one global native calls into; fixed now, at document start, so no page script can put
  // its own in its place for this document (a page script that got there first keeps it, and
  // this document uses the relay).
  function installDeliver() {
    try {
      Object.defineProperty(window, DELIVER_GLOBAL, { value: Object.freeze({ deliver: deliver }) });
      return true;
    } catch (error) {
      return false;
    }
  }

  // `answerTo` takes the answering up-frames of a direct delivery (see deliver).
  function receive(frames, answerTo) {
    outbox.newTask();
    // A delivery of native calls that all answered at once sends its replies now, the last of
    // them as UP_ANSWERED_EVENT, so the relay can hand them back as the delivery's result without
    // waiting for microtask turns (see relay.js deliver). Anything else (events, replies, a
    // handler that returned a Promise) leaves its frames to the outbox's usual turn.
    let answered = frames.length > 0;
    outbox.hold();
    try {
      for (const frame of frames) {
        try {
          const isCall = frame !== null && typeof frame === 'object' && frame.t === 'call' && phase === 'ready';
          if (isCall) {
            if (!nativeCalls.onCall(frame)) answered = false;
          } else {
            answered = false;
            dispatch(frame);
          }
        } catch (error) {
          answered = false;
          console.error('hybridshell: failed to handle a down-frame', error);
        }
      }
      if (answered) outbox.flushNow(answerTo === undefined ? channel.sendAnswered : answerTo);
    } finally {
      outbox.release();
    }
  }

  function dispatch(frame) {
    if (frame === null || typeof frame !== 'object') return console.warn('hybridshell: ignored a malformed down-frame');
    switch (frame.t) {
      case 'relay-up': return phase === 'connecting' ? announce() : undefined;
      case 'secret': return onSecret(frame);
      case 'ready': return onReady(frame);
      case 'denied': return onDenied(frame);
      case 'reply': return isId(frame.id) ? calls.onReply(frame) : warnMalformed(frame);
      case 'progress': return isId(frame.id) ? calls.onProgress(frame) : warnMalformed(frame);
      case 'call': return phase === 'ready' ? nativeCalls.onCall(frame) : undefined;
      case 'event': return onEvent(frame);
      default: return onUnknown(frame);
    }
  }

  function onSecret(frame) {
    if (secret === null && typeof frame.secret === 'string') secret = frame.secret;
  }

  function onReady(frame) {
    if (phase !== 'connecting') return;
    const given = frame.limits !== null && typeof frame.limits === 'object' ? frame.limits : {};
    limits = {
      maxPayload: positive(given.maxPayload, DEFAULT_LIMITS.maxPayload),
      maxDepth: positive(given.maxDepth, DEFAULT_LIMITS.maxDepth),
    };
    calls.configure({ timeout: positive(frame.timeout, DEFAULT_TIMEOUT), maxDepth: limits.maxDepth });
    phase = 'ready';
    settleReady.resolve();
    lifecycle.markReady();
    outbox.open(limits);
  }

  // Only an answer to the handshake; a stray one later changes nothing.
  function onDenied(frame) {
    if (phase !== 'connecting') return;
    fail(typeof frame.code === 'string' ? frame.code : ErrorCode.DENIED,
      typeof frame.message === 'string' ? frame.message : 'this document may not use the bridge');
  }

  function fail(code, message) {
    if (phase === 'failed') return;
    phase = 'failed';
    failure = errorObject(code, message, null);
    settleReady.reject(asHybridError(failure));
    calls.failAll(failure);
    outbox.close();
  }

  // unload handlers run first, and whatever they sent leaves at once: a microtask would be too
  // late, the bridge closes right after and the document goes.
  function onPageHide() {
    lifecycle.unload(null);
    outbox.flushNow();
    fail(ErrorCode.BRIDGE_RESET, 'the document is going away');
  }

  function onEvent(frame) {
    if (typeof frame.n !== 'string') return console.warn('hybridshell: ignored an event frame without a name');
    const data = frame.d === undefined ? null : frame.d;
    if (frame.n === 'ready') return console.warn('hybridshell: ignored a native "ready" event (ready is local)');
    if (LIFECYCLE_EVENTS.indexOf(frame.n) >= 0) return lifecycle.onNativeEvent(frame.n, data);
    events.emit(frame.n, data);
  }

  function onUnknown(frame) {
    const message = 'unknown frame type ' + JSON.stringify(frame.t);
    if (isId(frame.id)) return nativeCalls.replyError(frame.id, errorObject(ErrorCode.INVALID_MESSAGE, message));
    console.warn('hybridshell: ignored a down-frame of ' + message);
  }

  function warnMalformed(frame) {
    console.warn('hybridshell: ignored a malformed ' + frame.t + ' frame');
  }

  function send(entry) {
    if (phase === 'ready') outbox.push(entry);
  }

  return {
    start: start,
    dialects: dialects,
    ready: ready,
    handlers: handlers,
    events: events,
    lifecycle: lifecycle,
    call: function (name, data, options, dialect) { return calls.call(name, data, options || {}, dialect); },
    // Sends what is queued now instead of in a microtask (a no-op before ready and after failure).
    flush: function () { outbox.flushNow(); },
    get secret() { return secret; },
    // The error object every call now fails with, or null while the bridge can still work.
    get failure() { return failure; },
  };
}

function isId(value) {
  return typeof value === 'number' && value >= 1 && Math.floor(value) === value;
}

function positive(value, fallback) {
  return typeof value === 'number' && value > 0 ? value : fallback;
}
