// The JSON that native accepts (PROTOCOL.md): RFC 8259 syntax only (no trailing commas, no
// trailing text), no duplicate keys, no "__proto__" key, containers nested at most `maxDepth`
// deep. Used by the fake native so the tests hold the page to the same rules as the Swift side.
'use strict';

class StrictJsonError extends Error {
  constructor(message, offset) {
    super(`${message} at offset ${offset}`);
    this.offset = offset;
  }
}

function parseStrict(text, { maxDepth = Infinity } = {}) {
  let pos = 0;

  const fail = (message) => { throw new StrictJsonError(message, pos); };
  const skipSpace = () => {
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      pos++;
    }
  };

  function value(depth) {
    skipSpace();
    const c = text[pos];
    if (c === '{') return object(depth + 1);
    if (c === '[') return array(depth + 1);
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    for (const [word, result] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return result;
      }
    }
    return fail('unexpected character');
  }

  function object(depth) {
    if (depth > maxDepth) fail(`nesting deeper than ${maxDepth}`);
    pos++;
    const result = Object.create(null);
    const keys = new Set();
    skipSpace();
    if (text[pos] === '}') { pos++; return result; }
    for (;;) {
      skipSpace();
      if (text[pos] !== '"') fail('expected a key');
      const key = string();
      if (keys.has(key)) fail(`duplicate key ${JSON.stringify(key)}`);
      if (key === '__proto__') fail('"__proto__" key');
      keys.add(key);
      skipSpace();
      if (text[pos] !== ':') fail('expected ":"');
      pos++;
      result[key] = value(depth);
      skipSpace();
      if (text[pos] === ',') { pos++; continue; }
      if (text[pos] === '}') { pos++; return result; }
      fail('expected "," or "}"');
    }
  }

  function array(depth) {
    if (depth > maxDepth) fail(`nesting deeper than ${maxDepth}`);
    pos++;
    const result = [];
    skipSpace();
    if (text[pos] === ']') { pos++; return result; }
    for (;;) {
      result.push(value(depth));
      skipSpace();
      if (text[pos] === ',') { pos++; continue; }
      if (text[pos] === ']') { pos++; return result; }
      fail('expected "," or "]"');
    }
  }

  function string() {
    const start = pos;
    pos++;
    for (;;) {
      const quote = text.indexOf('"', pos);
      if (quote < 0) fail('unterminated string');
      let backslashes = 0;
      for (let i = quote - 1; i > start && text[i] === '\\'; i--) backslashes++;
      pos = quote + 1;
      if (backslashes % 2 === 0) break;
    }
    // JSON.parse of a lone string literal is exactly as strict as RFC 8259 about escapes and
    // control characters.
    try {
      return JSON.parse(text.slice(start, pos));
    } catch (error) {
      return fail('bad string');
    }
  }

  function number() {
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(pos, pos + 400));
    if (!match) fail('bad number');
    pos += match[0].length;
    return Number(match[0]);
  }

  const result = value(0);
  skipSpace();
  if (pos !== text.length) fail('text after the value');
  return result;
}

module.exports = { parseStrict, StrictJsonError };
