// Native calling page handlers: a down `call` frame in, an up `reply` (after any `progress`
// frames) out. `send` queues an outbox entry; `limits` gives the current limits. `onCall` says
// whether the call was answered at once (its reply is queued).

function createNativeCalls(handlers, send, limits) {
  function onCall(frame) {
    if (!isId(frame.id)) {
      console.warn('hybridshell: ignored a call frame without a valid id');
      return true;
    }
    const id = frame.id;
    if (typeof frame.h !== 'string') {
      replyError(id, errorObject(ErrorCode.INVALID_MESSAGE, 'call frame without a handler name'));
      return true;
    }
    const invoker = handlers.resolve(frame.h);
    if (!invoker) {
      replyError(id, errorObject(ErrorCode.NOT_FOUND, 'no page handler named "' + frame.h + '"'));
      return true;
    }
    // The state of the call lives in one object, and the settling closures are made only for a
    // handler that answers with a thenable: most answer with a plain value, and a delivery's
    // JavaScript runs once between two IPC messages, cold, where each allocation shows.
    const call = { id: id, done: false };
    const context = {
      args: frame.args === true,
      progress: function (value) { if (!call.done) sendProgress(id, value); },
    };
    let result;
    let thenable;
    try {
      result = invoker(frame.d === undefined ? null : frame.d, context);
      thenable = result !== null && (typeof result === 'object' || typeof result === 'function') &&
        typeof result.then === 'function';
    } catch (thrown) {
      finish(call, false, thrown);
      return true;
    }
    // A plain value answers now, in the delivery's own task (see core.js receive); only a
    // thenable waits for its settlement.
    if (!thenable) {
      finish(call, true, result);
      return true;
    }
    Promise.resolve(result).then(
      function (value) { finish(call, true, value); },
      function (thrown) { finish(call, false, thrown); });
    return false;
  }

  // Answers a call once: with its value, or with the error its handler threw or rejected with.
  function finish(call, ok, outcome) {
    if (call.done) return;
    call.done = true;
    if (ok) replyValue(call.id, outcome);
    else replyError(call.id, errorFromThrown(outcome));
  }

  function replyValue(id, value) {
    let text;
    try {
      text = encodePayload(value, limits().maxDepth);
    } catch (error) {
      return replyError(id, errorObject(error.code, error.message, null));
    }
    send({
      text: Frames.replyOk(id, text),
      tooLarge: function () {
        replyError(id, errorObject(ErrorCode.PAYLOAD_TOO_LARGE, 'reply is larger than ' + limits().maxPayload + ' characters of JSON'));
      },
    });
  }

  function replyError(id, error) {
    send({ text: Frames.replyError(id, error), tooLarge: function () {} });
  }

  function sendProgress(id, value) {
    let text;
    try {
      text = encodePayload(value, limits().maxDepth);
    } catch (error) {
      return console.warn('hybridshell: dropped a progress value: ' + error.message);
    }
    send({ text: Frames.progress(id, text), tooLarge: function () { console.warn('hybridshell: dropped an oversized progress value'); } });
  }

  return { onCall: onCall, replyError: replyError };
}
