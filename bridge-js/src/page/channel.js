// The two DOM events that connect this script to relay.js in the isolated world. Only strings
// cross worlds, so every detail is JSON text of a frames array.

function createChannel(onFrames) {
  function send(framesText) {
    window.dispatchEvent(new CustomEvent(UP_EVENT, { detail: framesText }));
  }

  function receive(event) {
    const text = event.detail;
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

  return {
    send: send,
    sendAnswered: sendAnswered,
    listen: function () { window.addEventListener(DOWN_EVENT, receive); },
  };
}
