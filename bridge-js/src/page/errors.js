// Error objects `{code, message, details}` and the HybridError class that carries them.

const ErrorCode = Object.freeze({
  NOT_FOUND: 'NOT_FOUND',
  HANDLER_ERROR: 'HANDLER_ERROR',
  TIMEOUT: 'TIMEOUT',
  BRIDGE_RESET: 'BRIDGE_RESET',
  INVALID_MESSAGE: 'INVALID_MESSAGE',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  DENIED: 'DENIED',
  CANCELLED: 'CANCELLED',
  RATE_LIMITED: 'RATE_LIMITED',
});

class HybridError extends Error {
  constructor(code, message, details) {
    super(message);
    this.name = 'HybridError';
    this.code = code;
    this.details = details === undefined ? null : details;
  }

  toJSON() {
    return errorObject(this.code, this.message, this.details);
  }
}

function errorObject(code, message, details) {
  return { code: code, message: String(message), details: details === undefined ? null : details };
}

// An `e` member of a reply frame, trusted only as far as its shape.
function errorFromWire(e) {
  const valid = e !== null && typeof e === 'object' && typeof e.code === 'string';
  if (!valid) return new HybridError(ErrorCode.INVALID_MESSAGE, 'malformed error in reply');
  return new HybridError(e.code, typeof e.message === 'string' ? e.message : '', e.details);
}

// What a page handler threw, as an error object for native. Duck-typed, because the thrown
// value may come from another realm (an iframe) or not be an Error at all.
function errorFromThrown(thrown) {
  const isObject = thrown !== null && (typeof thrown === 'object' || typeof thrown === 'function');
  const message = isObject && typeof thrown.message === 'string' ? thrown.message : describe(thrown);
  if (isObject && thrown.name === 'HybridError' && hasOwn.call(ErrorCode, thrown.code)) {
    return errorObject(thrown.code, message, thrown.details);
  }
  return errorObject(ErrorCode.HANDLER_ERROR, message, null);
}

function describe(value) {
  try {
    return String(value);
  } catch (e) {
    return 'unprintable error';
  }
}

function asHybridError(error) {
  return new HybridError(error.code, error.message, error.details);
}
