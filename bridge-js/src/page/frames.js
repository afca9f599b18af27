// Up-frames assembled as text around payloads that are already JSON, so no payload is ever
// encoded twice. Key order follows PROTOCOL.md.

const Frames = {
  pageUp: function (dialects, deliver) {
    const frame = { t: 'page-up', dialects: dialects };
    if (deliver) frame.deliver = true;
    return JSON.stringify([frame]);
  },
  call: function (id, name, dataText, timeout, dialect) {
    const deadline = timeout > 0 && timeout !== Infinity ? ',"to":' + timeout : '';
    return '{"t":"call","id":' + id + ',"h":' + JSON.stringify(name) + ',"d":' + dataText + deadline +
      ',"dl":"' + dialect + '"}';
  },
  replyOk: function (id, dataText) {
    return '{"t":"reply","id":' + id + ',"ok":true,"d":' + dataText + '}';
  },
  replyError: function (id, error) {
    return '{"t":"reply","id":' + id + ',"ok":false,"e":' + encodeErrorObject(error) + '}';
  },
  progress: function (id, dataText) {
    return '{"t":"progress","id":' + id + ',"d":' + dataText + '}';
  },
  cancel: function (id) {
    return '{"t":"cancel","id":' + id + '}';
  },
};

// Details a page handler attached to its error may not be encodable; the code and message are
// what matter, so they survive alone.
function encodeErrorObject(error) {
  try {
    return JSON.stringify(errorObject(error.code, error.message, error.details));
  } catch (e) {
    return JSON.stringify(errorObject(error.code, error.message, null));
  }
}
