// Native calling page handlers: a down `call` frame in, an up `reply` (after any `progress`
// frames) out. `send` queues an outbox entry; `limits` gives the current limits.

function createNativeCalls(handlers, send, limits) {
  function onCall(frame) {
    if (!isId(frame.id)) return console.warn('hybridshell: ignored a call frame without a valid id');
    const id = frame.id;
    if (typeof frame.h !== 'string') return replyError(id, errorObject(ErrorCode.INVALID_MESSAGE, 'call frame without a handler name'));
    const invoker = handlers.resolve(frame.h);
    if (!invoker) return replyError(id, errorObject(ErrorCode.NOT_FOUND, 'no page handler named "' + frame.h + '"'));
    let done = false;
    const context = {
      args: frame.args === true,
      progress: function (value) { if (!done) sendProgress(id, value); },
    };
    const settleWith = function (answer) {
      return function (outcome) {
        if (done) return;
        done = true;
        answer(outcome);
      };
    };
    const succeed = settleWith(function (value) { replyValue(id, value); });
    const fail = settleWith(function (thrown) { replyError(id, errorFromThrown(thrown)); });
    let result;
    try {
      result = invoker(frame.d === undefined ? null : frame.d, context);
    } catch (thrown) {
      return fail(thrown);
    }
    Promise.resolve(result).then(succeed, fail);
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
