// Calls from the page to native handlers, from `call` frame to settled Promise.

// Longer delays overflow setTimeout (it would fire at once); they count as "no deadline".
const MAX_TIMER = 2147483647;

function createCalls(outbox) {
  const pending = new Map();
  const deadlines = createDeadlines(expire);
  let nextId = 1;
  let defaultTimeout = DEFAULT_TIMEOUT;
  let maxDepth = DEFAULT_LIMITS.maxDepth;
  let failure = null;

  // options: {timeout, onProgress}; dialect tags the frame for native logs.
  function call(name, data, options, dialect) {
    return new Promise(function (resolve, reject) {
      if (failure) return reject(asHybridError(failure));
      if (typeof name !== 'string' || name === '') {
        return reject(new HybridError(ErrorCode.INVALID_MESSAGE, 'handler name must be a non-empty string'));
      }
      const timeout = options.timeout === undefined ? defaultTimeout : options.timeout;
      if (typeof timeout !== 'number' || !(timeout >= 0)) {
        return reject(new HybridError(ErrorCode.INVALID_MESSAGE, 'timeout must be a number of milliseconds'));
      }
      let dataText;
      try {
        dataText = encodePayload(data, maxDepth);
      } catch (error) {
        return reject(error);
      }
      const id = nextId++;
      const deadline = timeout > 0 && timeout <= MAX_TIMER ? Math.ceil(timeout) : 0;
      pending.set(id, { resolve: resolve, reject: reject, onProgress: options.onProgress });
      if (deadline > 0) deadlines.add(id, deadline);
      outbox.push({
        text: Frames.call(id, name, dataText, deadline, dialect),
        callId: id,
        tooLarge: function () {
          settle(id, null, new HybridError(ErrorCode.PAYLOAD_TOO_LARGE,
            'call data is larger than ' + outbox.maxPayload + ' characters of JSON'));
        },
      });
    });
  }

  function settle(id, value, error) {
    const entry = pending.get(id);
    if (!entry) return false;
    pending.delete(id);
    if (error) entry.reject(error);
    else entry.resolve(value);
    return true;
  }

  function expire(id) {
    if (!pending.has(id)) return;  // settled before its deadline; deadlines are dropped lazily
    if (!settle(id, null, new HybridError(ErrorCode.TIMEOUT, 'no reply within the deadline'))) return;
    if (!outbox.withdraw(id)) outbox.push({ text: Frames.cancel(id), tooLarge: function () {} });
  }

  function onReply(frame) {
    const known = frame.ok === true
      ? settle(frame.id, frame.d === undefined ? null : frame.d, null)
      : settle(frame.id, null, errorFromWire(frame.e));
    if (!known) console.warn('hybridshell: reply for unknown call ' + frame.id);
  }

  function onProgress(frame) {
    const entry = pending.get(frame.id);
    if (!entry || typeof entry.onProgress !== 'function') return;
    try {
      entry.onProgress(frame.d === undefined ? null : frame.d);
    } catch (error) {
      rethrowLater(error);
    }
  }

  // Every pending and future call rejects with `error` (denied, or the document went away).
  function failAll(error) {
    failure = errorObject(error.code, error.message, error.details);
    for (const id of Array.from(pending.keys())) settle(id, null, asHybridError(failure));
  }

  return {
    call: call,
    onReply: onReply,
    onProgress: onProgress,
    failAll: failAll,
    configure: function (ready) {
      defaultTimeout = ready.timeout;
      maxDepth = ready.maxDepth;
    },
  };
}

// Every pending call's deadline behind one timer: arming and clearing a timer per call costs
// more than a call's own work (each is a main-loop source in WebKitGTK). Deadlines are kept in
// order and dropped lazily: a call that settled is just skipped when its time comes.
function createDeadlines(onExpire) {
  const queue = [];  // {at, id}, ascending `at`
  let timer = null;
  let armedAt = Infinity;

  function add(id, ms) {
    const at = performance.now() + ms;
    const entry = { at: at, id: id };
    let index = queue.length;
    while (index > 0 && queue[index - 1].at > at) index--;  // usually appends: deadlines mostly grow
    if (index === queue.length) queue.push(entry);
    else queue.splice(index, 0, entry);
    if (at < armedAt) arm(at);
  }

  function arm(at) {
    if (timer !== null) clearTimeout(timer);
    armedAt = at;
    timer = setTimeout(fire, Math.max(0, at - performance.now()));
  }

  function fire() {
    timer = null;
    armedAt = Infinity;
    const now = performance.now();
    let due = 0;
    while (due < queue.length && queue[due].at <= now) due++;
    const expired = queue.splice(0, due);
    if (queue.length > 0) arm(queue[0].at);
    for (const entry of expired) onExpire(entry.id);
  }

  return { add: add };
}
