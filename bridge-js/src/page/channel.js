// The page's ways to native. Down-frames and the handshake go through relay.js in the isolated
// world, by two DOM events (only strings cross worlds, so every detail is JSON text of a frames
// array). Once the bridge is ready, up-frames go straight to the page world's own message handler
// with the document's secret (bridge-js/PROTOCOL.md, "The direct post"): that skips the relay's
// hop, two DOM events and a Promise in another world per call. Without that handler (an older
// native side), they go through the relay as before.

// Native's refusal of a whole post starts so (the relay reads its answers the same way).
const POST_REFUSAL = '[{"t":"error",';

function createChannel(onFrames) {
  // Captured now, at document start, before page scripts could replace `window.webkit`.
  const postDirect = directHandler();

  function send(framesText) {
    window.dispatchEvent(new CustomEvent(UP_EVENT, { detail: framesText }));
  }

  function receive(event) {
    receiveText(event.detail);
  }

  function receiveText(text) {
    if (typeof text !== 'string') return;
    let frames;
    try {
      frames = JSON.parse(text);
    } catch (e) {
      console.warn('hybridshell: dropped unparseable down-frames');
      return;
    }
    if (Array.isArray(frames)) onFrames(frames);
  }

  // The up-frames that answer the delivery being handled, and the word that it is answered
  // ('' when nothing is left to send).
  function sendAnswered(framesText) {
    window.dispatchEvent(new CustomEvent(UP_ANSWERED_EVENT, { detail: framesText }));
  }

  // Posts frames as the session whose secret this is; native's answer comes back here, and a
  // refused or failed post fails its calls, as the relay does for the posts it makes.
  function sendDirect(secret, framesText) {
    let answer;
    try {
      answer = postDirect('{"v":1,"s":"' + secret + '","m":' + framesText + '}');
    } catch (error) {
      answer = Promise.reject(error);
    }
    Promise.resolve(answer).then(function (text) {
      if (typeof text !== 'string' || text === '[]') return;
      if (text.slice(0, POST_REFUSAL.length) !== POST_REFUSAL) return receiveText(text);
      const refusal = readRefusal(text);
      failCalls(framesText, refusal.code, refusal.message);
    }, function (error) {
      failCalls(framesText, ErrorCode.BRIDGE_RESET, 'native did not take the message: ' + describeError(error));
    });
  }

  function failCalls(framesText, code, message) {
    const e = { code: code, message: message, details: null };
    const replies = callIdsIn(framesText).map(function (id) { return { t: 'reply', id: id, ok: false, e: e }; });
    if (replies.length > 0) onFrames(replies);
  }

  return {
    send: send,
    sendAnswered: sendAnswered,
    sendDirect: sendDirect,
    // Whether up-frames can go straight to native (see the top of this file).
    get canSendDirect() { return postDirect !== null; },
    listen: function () { window.addEventListener(DOWN_EVENT, receive); },
  };
}

function directHandler() {
  try {
    const handlers = window.webkit && window.webkit.messageHandlers;
    const handler = handlers && handlers.hybridshellDirect;
    return handler && typeof handler.postMessage === 'function' ? handler.postMessage.bind(handler) : null;
  } catch (error) {
    return null;
  }
}

function readRefusal(text) {
  try {
    const frame = JSON.parse(text)[0];
    return { code: String(frame.code), message: String(frame.message) };
  } catch (error) {
    return { code: ErrorCode.INVALID_MESSAGE, message: 'native refused the message' };
  }
}

// The ids of the call frames in a frames text the page itself made.
function callIdsIn(framesText) {
  let frames;
  try {
    frames = JSON.parse(framesText);
  } catch (error) {
    return [];
  }
  if (!Array.isArray(frames)) return [];
  return frames.filter(function (frame) {
    return frame !== null && typeof frame === 'object' && frame.t === 'call' && isId(frame.id);
  }).map(function (frame) { return frame.id; });
}

function describeError(error) {
  try {
    return error && typeof error.message === 'string' ? error.message : String(error);
  } catch (e) {
    return 'unknown error';
  }
}
