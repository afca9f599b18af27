// Failures as the events carry them, {kind, message, stack, actual, expected}, with `actual` and
// `expected` formatted for people. Nothing here may throw, whatever the page threw or compared:
// cycles, getters that throw, proxies, BigInt and symbols all come out as some text.

const MAX_TEXT = 20000;
const ONE_LINE = 80;

function failure(kind, message, stack, actual, expected) {
  return {
    kind: kind,
    message: message,
    stack: typeof stack === 'string' && stack !== '' ? stack : null,
    actual: actual === undefined ? null : actual,
    expected: expected === undefined ? null : expected,
  };
}

// A failure from a thrown (or rejected) value: kind "assertion" for assertion errors (chai's,
// Node's, `hybrid.assert`'s), "error" for anything else.
function failureFrom(thrown, kind) {
  const assertion = isAssertionError(thrown);
  const name = read(thrown, 'name');
  const message = read(thrown, 'message');
  let text;
  if (typeof message === 'string' && isObject(thrown)) {
    text = assertion || typeof name !== 'string' || name === '' ? message : name + ': ' + message;
  } else {
    text = typeof thrown === 'string' ? thrown : formatValue(thrown);
  }
  // Only the values the error has: an assertion without an expected value (rejects() on a
  // Promise that resolved) must not report one of "undefined".
  return failure(kind || (assertion ? 'assertion' : 'error'), text, read(thrown, 'stack'),
    assertion && has(thrown, 'actual') ? formatValue(read(thrown, 'actual')) : null,
    assertion && has(thrown, 'expected') ? formatValue(read(thrown, 'expected')) : null);
}

function isAssertionError(value) {
  const name = read(value, 'name');
  return (typeof name === 'string' && name.indexOf('AssertionError') === 0) || read(value, 'code') === 'ERR_ASSERTION';
}

function isObject(value) {
  return value !== null && (typeof value === 'object' || typeof value === 'function');
}

// value[key] for any value, undefined when reading it throws (a getter, a revoked proxy).
function read(value, key) {
  if (!isObject(value)) return undefined;
  try {
    return value[key];
  } catch (error) {
    return undefined;
  }
}

function has(value, key) {
  if (!isObject(value)) return false;
  try {
    return key in value;
  } catch (error) {
    return false;
  }
}

// JSON for arrays and plain objects (one line when short, indented otherwise), JSON strings for
// strings, and the usual spelling of everything else.
function formatValue(value) {
  let text;
  try {
    text = formatAny(value);
  } catch (error) {
    text = plainText(value);
  }
  return text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) + '\u2026' : text;
}

function formatAny(value) {
  switch (typeof value) {
    case 'undefined': return 'undefined';
    case 'string': return JSON.stringify(value);
    case 'number': return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint': return String(value) + 'n';
    case 'symbol': return value.toString();
    case 'boolean': return String(value);
    case 'function': return functionText(value);
    default: break;
  }
  if (value === null) return 'null';
  const tag = objectToString.call(value);
  if (tag === '[object Error]' || value instanceof Error) return errorText(value);
  if (tag === '[object RegExp]') return String(value);
  if (tag === '[object Date]') return isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (tag === '[object Map]') return 'Map ' + json(Array.from(value.entries()));
  if (tag === '[object Set]') return 'Set ' + json(Array.from(value.values()));
  if (Array.isArray(value) || isPlainObject(value)) return json(value);
  const text = plainText(value);
  return text === '[object Object]' ? json(value) : text;
}

function isPlainObject(value) {
  const prototype = Object.getPrototypeOf(value);
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

function json(value) {
  const line = JSON.stringify(value, jsonReplacer());
  if (line === undefined) return plainText(value);
  return line.length <= ONE_LINE ? line : JSON.stringify(value, jsonReplacer(), 2);
}

// Spells what JSON cannot hold, and cuts cycles: `this` is the object holding `value`, so the
// ancestors of `value` are the stack up to its holder.
function jsonReplacer() {
  const ancestors = [];
  return function (key, value) {
    switch (typeof value) {
      case 'undefined': return '[undefined]';
      case 'bigint': return String(value) + 'n';
      case 'symbol': return '[' + value.toString() + ']';
      case 'function': return '[' + functionText(value).slice(1, -1) + ']';
      case 'number': return isFinite(value) ? value : String(value);
      default: break;
    }
    if (value === null || typeof value !== 'object') return value;
    while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (ancestors.indexOf(value) >= 0) return '[Circular]';
    ancestors.push(value);
    const tag = objectToString.call(value);
    if (tag === '[object Error]') return errorText(value);
    if (tag === '[object RegExp]' || tag === '[object Map]' || tag === '[object Set]') return formatAny(value);
    return value;
  };
}

function functionText(fn) {
  const name = read(fn, 'name');
  return '[Function' + (typeof name === 'string' && name !== '' ? ': ' + name : '') + ']';
}

function errorText(error) {
  const name = read(error, 'name');
  const message = read(error, 'message');
  return (typeof name === 'string' ? name : 'Error') + (typeof message === 'string' && message !== '' ? ': ' + message : '');
}

function plainText(value) {
  try {
    return String(value);
  } catch (error) {
    try {
      return objectToString.call(value);
    } catch (again) {
      return '[unprintable value]';
    }
  }
}
