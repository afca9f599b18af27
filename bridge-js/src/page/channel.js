// The page's ways to native. Down-frames and the handshake go through relay.js in the isolated
// world, by two DOM events (only strings cross worlds, so every detail is JSON text of a frames
// array). Once the bridge is ready, up-frames go straight to the page world's own message handler
// with the document's secret (bridge-js/PROTOCOL.md, "The direct post"): that skips the relay's
// hop, two DOM events and a Promise in another world per call. Without that handler (an older
// native side), they go through the relay as before.

function createChannel(onFrames) {
  // Captured now, at document start, before page scripts could replace `window.webkit`.
  const postDirect = directHandler();

  function send(framesText) {
    window.dispatchEvent(new CustomEvent(UP_EVENT, { detail: framesText }));
  }

  function receive(event) {
    const frames = downFrames(event.detail);
    if (frames !== null) onFrames(frames);
  }

  // The up-frames that answer the delivery being handled, and the word that it is answered
  // ('' when nothing is left to send).
  function sendAnswered(framesText) {
    window.dispatchEvent(new CustomEvent(UP_ANSWERED_EVENT, { detail: framesText }));
  }

  // Posts frames as the session whose secret this is; native's answer comes back here. A post
  // native refuses as a whole (its answer is one `error` frame) or does not take fails its calls,
  // `callIds`, as the relay does for the posts it makes.
  function sendDirect(secret, framesText, callIds) {
    let answer;
    try {
      answer = postDirect('{"v":1,"s":"' + secret + '","m":' + framesText + '}');
    } catch (error) {
      answer = Promise.reject(error);
    }
    Promise.resolve(answer).then(function (text) {
      const frames = downFrames(text);
      if (frames === null || frames.length === 0) return;
      const refusal = frames.length === 1 && frames[0] !== null && typeof frames[0] === 'object' && frames[0].t === 'error';
      if (!refusal) return onFrames(frames);
      failCalls(callIds, String(frames[0].code), String(frames[0].message));
    }, function (error) {
      failCalls(callIds, ErrorCode.BRIDGE_RESET, 'native did not take the message: ' + errorFromThrown(error).message);
    });
  }

  function failCalls(callIds, code, message) {
    const e = { code: code, message: message, details: null };
    if (callIds.length > 0) onFrames(callIds.map(function (id) { return { t: 'reply', id: id, ok: false, e: e }; }));
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

// The frames array a down-event or an answer carries; null (after a warning when it is not JSON)
// for anything else.
function downFrames(text) {
  if (typeof text !== 'string') return null;
  let frames;
  try {
    frames = JSON.parse(text);
  } catch (e) {
    console.warn('hybridshell: dropped unparseable down-frames');
    return null;
  }
  return Array.isArray(frames) ? frames : null;
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
