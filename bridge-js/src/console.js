// Console capture, page world of every frame, at document start before the page's own scripts.
// It forwards console.* calls, with the caller's url:line:column taken
// from the stack, to console-relay.js in the isolated world "hybridshell-console" of the same
// frame (a DOM event on document), then calls the original console method, so nothing changes
// for the page. The relay adds the frame's own URL, which page script cannot forge, and is the
// only one that reports uncaught exceptions and unhandled rejections.
(function () {
  'use strict';
  if (window.__hybridshellConsoleInstalled) return;
  Object.defineProperty(window, '__hybridshellConsoleInstalled', { value: true });

  var EVENT = 'hybridshell:console';
  var target = document;
  var dispatch = target.dispatchEvent.bind(target);
  var Custom = window.CustomEvent;
  var stringify = JSON.stringify;
  var NativeError = Error;
  var locationPattern = /^(.*):(\d+):(\d+)$/;

  // The first stack frame outside HybridShell's own user scripts is the caller.
  function callerLocation() {
    var frames = String(new NativeError().stack || '').split('\n');
    for (var i = 0; i < frames.length; i++) {
      var frame = frames[i];
      var location = frame.slice(frame.lastIndexOf('@') + 1);
      if (location.indexOf('user-script:') === 0) continue;
      var match = locationPattern.exec(location);
      if (match) return { url: match[1], line: +match[2], column: +match[3] };
    }
    return { url: String(window.location.href), line: 0, column: 0 };
  }

  // WebKit prints each argument's string conversion, separated by spaces.
  function text(args) {
    var parts = [];
    for (var i = 0; i < args.length; i++) {
      try { parts.push(String(args[i])); } catch (e) { parts.push(Object.prototype.toString.call(args[i])); }
    }
    return parts.join(' ');
  }

  function send(level, source, message, where) {
    try {
      var record = stringify({ level: level, source: source, text: message, url: where.url, line: where.line, column: where.column });
      dispatch(new Custom(EVENT, { detail: record }));
    } catch (e) {
      // A page that broke JSON or events loses capture, not its console.
    }
  }

  ['log', 'info', 'warn', 'error', 'debug'].forEach(function (level) {
    var original = console[level];
    console[level] = function () {
      send(level, 'console', text(arguments), callerLocation());
      return original.apply(this, arguments);
    };
  });

})();
