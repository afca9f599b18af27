// `hybrid.assert`: each assertion throws an AssertionError when it does not hold; the adapter
// reports it as a failure of kind "assertion" with `actual` and `expected` formatted.

class AssertionError extends Error {
  // details: {actual, expected, operator}; `actual`/`expected` only when the assertion has them.
  constructor(message, details) {
    super(message);
    this.name = 'AssertionError';
    const given = details || {};
    if (hasOwn.call(given, 'actual')) this.actual = given.actual;
    if (hasOwn.call(given, 'expected')) this.expected = given.expected;
    this.operator = given.operator || null;
  }
}

function createAssert() {
  function ok(value, message) {
    if (!value) throw new AssertionError(message || 'expected ' + formatValue(value) + ' to be truthy', { actual: value, expected: true, operator: 'ok' });
  }

  function equal(actual, expected, message) {
    if (actual !== expected) {
      throw new AssertionError(message || 'expected ' + formatValue(actual) + ' to equal ' + formatValue(expected), { actual: actual, expected: expected, operator: '===' });
    }
  }

  function notEqual(actual, expected, message) {
    if (actual === expected) {
      throw new AssertionError(message || 'expected ' + formatValue(actual) + ' not to equal ' + formatValue(expected), { actual: actual, expected: expected, operator: '!==' });
    }
  }

  function deepEqual(actual, expected, message) {
    if (!isDeepEqual(actual, expected, [])) {
      throw new AssertionError(message || 'expected values to be deeply equal', { actual: actual, expected: expected, operator: 'deepEqual' });
    }
  }

  function notDeepEqual(actual, expected, message) {
    if (isDeepEqual(actual, expected, [])) {
      throw new AssertionError(message || 'expected values not to be deeply equal', { actual: actual, expected: expected, operator: 'notDeepEqual' });
    }
  }

  // throws(fn, [matcher], [message]); a string second argument is the message.
  function throws(fn, matcher, message) {
    if (typeof matcher === 'string' && message === undefined) return throws(fn, undefined, matcher);
    if (typeof fn !== 'function') throw new TypeError('assert.throws(fn) needs a function');
    let thrown;
    try {
      fn();
    } catch (error) {
      thrown = { value: error };
    }
    if (thrown === undefined) throw new AssertionError(message || 'expected the function to throw', { operator: 'throws' });
    checkThrown(thrown.value, matcher, message, 'throws');
  }

  // rejects(promise or fn returning one, [matcher], [message]): a Promise to await.
  function rejects(subject, matcher, message) {
    if (typeof matcher === 'string' && message === undefined) return rejects(subject, undefined, matcher);
    return Promise.resolve().then(function () {
      return typeof subject === 'function' ? subject() : subject;
    }).then(function (value) {
      throw new AssertionError(message || 'expected the promise to reject, it resolved with ' + formatValue(value), { actual: value, operator: 'rejects' });
    }, function (reason) {
      checkThrown(reason, matcher, message, 'rejects');
    });
  }

  function fail(message) {
    throw new AssertionError(message || 'failed', { operator: 'fail' });
  }

  return Object.freeze({
    ok: ok, equal: equal, notEqual: notEqual, deepEqual: deepEqual, notDeepEqual: notDeepEqual,
    throws: throws, rejects: rejects, fail: fail, AssertionError: AssertionError,
  });
}

// matcher: a RegExp (tested against the error's message and its string form), an Error class
// (instanceof), or a predicate returning true for a match.
function checkThrown(thrown, matcher, message, operator) {
  if (matcher === undefined || matcher === null) return;
  let matches;
  if (matcher instanceof RegExp) {
    const text = read(thrown, 'message');
    matches = matcher.test(plainText(thrown)) || (typeof text === 'string' && matcher.test(text));
  } else if (typeof matcher === 'function' && (matcher === Error || matcher.prototype instanceof Error)) {
    matches = thrown instanceof matcher;
  } else if (typeof matcher === 'function') {
    matches = matcher(thrown) === true;
  } else {
    throw new TypeError('assert.' + operator + ' matcher must be a RegExp, an Error class or a function');
  }
  if (!matches) {
    throw new AssertionError(message || 'the ' + (operator === 'throws' ? 'thrown error' : 'rejection') + ' did not match',
      { actual: thrown, expected: matcher, operator: operator });
  }
}

// Structural equality: same prototype and own enumerable keys, equal values all the way down;
// NaN equals NaN, +0 equals -0; Dates, RegExps, Maps, Sets and boxed primitives by content;
// cycles compare equal where both sides cycle the same way.
function isDeepEqual(a, b, seen) {
  if (a === b || (a !== a && b !== b)) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const tag = objectToString.call(a);
  if (tag !== objectToString.call(b)) return false;
  for (const pair of seen) if (pair[0] === a && pair[1] === b) return true;
  seen.push([a, b]);
  try {
    return sameContent(a, b, tag, seen);
  } finally {
    seen.pop();
  }
}

function sameContent(a, b, tag, seen) {
  switch (tag) {
    case '[object Date]': return isDeepEqual(a.getTime(), b.getTime(), seen);
    case '[object RegExp]': return String(a) === String(b);
    case '[object Number]':
    case '[object String]':
    case '[object Boolean]': if (!isDeepEqual(a.valueOf(), b.valueOf(), seen)) return false; break;
    case '[object Map]': if (!sameMap(a, b, seen)) return false; break;
    case '[object Set]': if (!sameSet(a, b, seen)) return false; break;
    case '[object Error]': if (a.name !== b.name || a.message !== b.message) return false; break;
    default: break;
  }
  if (Array.isArray(a) && a.length !== b.length) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!hasOwn.call(b, key) || !isDeepEqual(a[key], b[key], seen)) return false;
  }
  return true;
}

function sameMap(a, b, seen) {
  if (a.size !== b.size) return false;
  for (const entry of a) {
    if (!b.has(entry[0]) || !isDeepEqual(entry[1], b.get(entry[0]), seen)) return false;
  }
  return true;
}

function sameSet(a, b, seen) {
  if (a.size !== b.size) return false;
  const others = Array.from(b);
  for (const value of a) {
    if (b.has(value)) continue;
    if (!others.some(function (other) { return isDeepEqual(value, other, seen); })) return false;
  }
  return true;
}
