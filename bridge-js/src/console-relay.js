// Console relay, isolated world "hybridshell-console" of every frame, at document start. The
// native handler `hybridshellConsole` lives in this world, so page script can reach it only
// through console.js's DOM event, and every record leaves with `frame`: this frame's own URL,
// read here where page script cannot change it. Uncaught exceptions come from the engine's own
// (trusted) error events seen here; a page cannot make one up. Unhandled rejections are seen here
// too; console.js only forwards console calls.
(function () {
  'use strict';
  var handlers = window.webkit && window.webkit.messageHandlers;
  var channel = handlers && handlers.hybridshellConsole;
  if (!channel) return;
  var post = channel.postMessage.bind(channel);
  var stringify = JSON.stringify;
  var parse = JSON.parse;
  var LEVELS = ['log', 'info', 'warn', 'error', 'debug'];

  function send(level, source, text, url, line, column) {
    try {
      post(stringify({ level: level, source: source, text: text, url: url, line: line, column: column, frame: String(window.location.href) }));
    } catch (e) {
      // Nothing to report to.
    }
  }

  function string(value) {
    return typeof value === 'string' ? value : '';
  }

  function count(value) {
    return typeof value === 'number' && value >= 0 ? Math.floor(value) : 0;
  }

  document.addEventListener('hybridshell:console', function (event) {
    var record;
    try {
      record = parse(event.detail);
    } catch (e) {
      return;
    }
    if (record === null || typeof record !== 'object') return;
    var level = LEVELS.indexOf(record.level) >= 0 ? record.level : 'log';
    var text = string(record.text);
    // Whatever the record claims, it is a console call: exceptions and rejections are seen here.
    send(level, 'console', text, string(record.url), count(record.line), count(record.column));
  }, true);

  window.addEventListener('error', function (event) {
    // Resource load errors are plain Events without a message; synthetic ones are not trusted.
    if (!event || event.isTrusted !== true || typeof event.message !== 'string') return;
    send('error', 'exception', event.message, string(event.filename) || String(window.location.href), count(event.lineno), count(event.colno));
  });

  // WebKit reports unhandled rejections without a source location, and (2.50) dispatches the
  // event untrusted, so a page could fake one for its own frame; it still names that frame.
  window.addEventListener('unhandledrejection', function (event) {
    var reason;
    try {
      reason = String(event.reason);
    } catch (e) {
      reason = Object.prototype.toString.call(event.reason);
    }
    send('error', 'rejection', 'Unhandled Promise Rejection: ' + reason, '', 0, 0);
  });
})();
