// Console capture: runs in the page world of every frame at document start, before the page's
// own scripts. It forwards console.* calls, uncaught errors and unhandled rejections to the
// native handler `hybridshellConsole`, with the caller's url:line:column taken from the stack,
// and then calls the original console method, so nothing changes for the page.
(function () {
  'use strict';
  var handlers = window.webkit && window.webkit.messageHandlers;
  var channel = handlers && handlers.hybridshellConsole;
  if (!channel || window.__hybridshellConsoleInstalled) return;
  Object.defineProperty(window, '__hybridshellConsoleInstalled', { value: true });

  var post = channel.postMessage.bind(channel);
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
      post(stringify({ level: level, source: source, text: message, url: where.url, line: where.line, column: where.column }));
    } catch (e) {
      // A page that broke JSON or postMessage loses capture, not its console.
    }
  }

  ['log', 'info', 'warn', 'error', 'debug'].forEach(function (level) {
    var original = console[level];
    console[level] = function () {
      send(level, 'console', text(arguments), callerLocation());
      return original.apply(this, arguments);
    };
  });

  window.addEventListener('error', function (event) {
    if (!event || !(event instanceof ErrorEvent)) return;  // resource load errors carry no message
    send('error', 'exception', String(event.message), {
      url: String(event.filename || window.location.href), line: event.lineno | 0, column: event.colno | 0
    });
  });

  // WebKit reports unhandled rejections without a source location.
  window.addEventListener('unhandledrejection', function (event) {
    send('error', 'rejection', 'Unhandled Promise Rejection: ' + text([event.reason]), { url: '', line: 0, column: 0 });
  });
})();
