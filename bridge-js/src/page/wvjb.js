// WebViewJavascriptBridge dialect: pages written for marcuswestin/WebViewJavascriptBridge (v4 to
// v6) run unmodified. Their calls take the fast path (tagged dl:"wvjb"); `_fetchQueue` and
// `_handleMessageFromObjC` keep the original message format ({handlerName, data, callbackId} /
// {responseId, responseData}) for native's URL-interception transport.
//
// WVJB has no error channel: a failed call logs `WebViewJavascriptBridge: <code>: <message>` and
// hands the responseCallback {error: {code, message, details}}.

const WVJB_QUEUE_URL = 'https://__wvjb_queue_message__';
const WVJB_DEFAULT_HANDLER = '*';

function installWebViewJavascriptBridge(bridge) {
  if (window.WebViewJavascriptBridge) return false;
  const handlers = new Map();
  let defaultHandler = null;
  // The original delays handlers called from native by a setTimeout(0) so that an alert() in
  // one cannot deadlock the app; disableJavscriptAlertBoxSafetyTimeout() turns that off.
  let dispatchSafely = true;
  let legacyQueue = [];
  let pingFrame = null;

  function callHandler(name, data, responseCallback) {
    if (arguments.length === 2 && typeof data === 'function') {
      responseCallback = data;
      data = null;
    }
    callNative(name, data, responseCallback);
  }

  function callNative(name, data, responseCallback) {
    bridge.call(name, data, {}, 'wvjb').then(function (value) {
      respond(responseCallback, value);
    }, function (error) {
      console.error('WebViewJavascriptBridge: ' + error.code + ': ' + error.message);
      respond(responseCallback, { error: errorObject(error.code, error.message, error.details) });
    });
  }

  function init(messageHandler) {
    if (defaultHandler) console.warn('WebViewJavascriptBridge.init called twice');
    defaultHandler = messageHandler;
  }

  function dispatch(run) {
    if (dispatchSafely) setTimeout(run, 0);
    else run();
  }

  // A page handler as a page-handler invoker: settles when it calls its responseCallback.
  function invoke(handler, data) {
    return new Promise(function (resolve, reject) {
      dispatch(function () {
        let responded = false;
        try {
          handler(data, function (responseData) {
            responded = true;
            resolve(responseData);
          });
        } catch (error) {
          if (responded) rethrowLater(error);
          else reject(error);
        }
      });
    });
  }

  function fetchQueue() {
    const text = JSON.stringify(legacyQueue);
    legacyQueue = [];
    return text;
  }

  function handleMessageFromObjC(messageJSON) {
    dispatch(function () { handleLegacyMessage(messageJSON); });
  }

  function handleLegacyMessage(messageJSON) {
    let message;
    try {
      message = typeof messageJSON === 'string' ? JSON.parse(messageJSON) : messageJSON;
    } catch (e) {
      return console.error('WebViewJavascriptBridge: ' + ErrorCode.INVALID_MESSAGE + ': unparseable message from native');
    }
    if (message === null || typeof message !== 'object') return;
    // Calls from this page never take the legacy path, so no response can be ours.
    if (message.responseId) return console.warn('WebViewJavascriptBridge: no callback for response ' + message.responseId);
    let responded = false;
    const reply = function (responseData) {
      if (responded || !message.callbackId) return;
      responded = true;
      legacyQueue.push({ handlerName: message.handlerName, responseId: message.callbackId, responseData: responseData });
      ping();
    };
    const handler = handlers.get(message.handlerName) || defaultHandler;
    if (!handler) {
      console.warn('WebViewJavascriptBridge: WARNING: no handler for message from ObjC: ' + message.handlerName);
      return reply({ error: errorObject(ErrorCode.NOT_FOUND, 'no page handler named "' + message.handlerName + '"') });
    }
    try {
      handler(message.data, reply);
    } catch (error) {
      const failure = errorFromThrown(error);
      console.error('WebViewJavascriptBridge: ' + failure.code + ': ' + failure.message);
      reply({ error: failure });
    }
  }

  // The hidden-iframe navigation that tells native to call _fetchQueue().
  function ping() {
    const document = window.document;
    if (!pingFrame) {
      pingFrame = document.createElement('iframe');
      pingFrame.style.display = 'none';
      document.documentElement.appendChild(pingFrame);
    }
    pingFrame.src = WVJB_QUEUE_URL;
  }

  bridge.handlers.addResolver(function (name) {
    const handler = handlers.get(name);
    return handler ? function (data) { return invoke(handler, data); } : null;
  });
  bridge.handlers.addFallback(function () {
    const handler = defaultHandler;
    return handler ? function (data) { return invoke(handler, data); } : null;
  });

  const wvjb = {
    registerHandler: function (name, handler) { handlers.set(name, handler); },
    removeHandler: function (name) { handlers.delete(name); },
    callHandler: callHandler,
    disableJavscriptAlertBoxSafetyTimeout: function () { dispatchSafely = false; },
    init: init,
    // v4's send goes to native's default handler (BridgeHandlers.defaultHandlerName).
    send: function (data, responseCallback) { callNative(WVJB_DEFAULT_HANDLER, data, responseCallback); },
    _fetchQueue: fetchQueue,
    _handleMessageFromObjC: handleMessageFromObjC,
  };
  whenParsed(function () {
    // A page that brought its own bridge script meanwhile keeps it.
    if (window.WebViewJavascriptBridge) return;
    window.WebViewJavascriptBridge = wvjb;
    announceWebViewJavascriptBridge(wvjb);
  });
  return true;
}

// The original's global never exists while the page's own scripts run: v4 injected it when the
// page had loaded, v5/v6 when native saw the page's bootstrap request. Pages depend on that (a
// setup call placed before the elements its callback fills; a v4 listener added from <head>), so
// the global appears once the document has been parsed — at DOMContentLoaded, or at once when
// page.js comes later than that — exactly once per document.
function whenParsed(run) {
  const document = window.document;
  if (document.readyState !== 'loading') return run();
  let done = false;
  document.addEventListener('DOMContentLoaded', function () {
    if (done) return;
    done = true;
    run();
  });
}

// v4 pages wait for the WebViewJavascriptBridgeReady event; v5/v6 pages that ran before the
// bridge existed left their callbacks in window.WVJBCallbacks, flushed in a later task.
function announceWebViewJavascriptBridge(wvjb) {
  const readyEvent = new window.Event('WebViewJavascriptBridgeReady');
  readyEvent.bridge = wvjb;
  window.document.dispatchEvent(readyEvent);
  setTimeout(function () {
    const callbacks = window.WVJBCallbacks;
    try {
      delete window.WVJBCallbacks;
    } catch (e) {
      window.WVJBCallbacks = undefined;
    }
    if (!callbacks || typeof callbacks.length !== 'number') return;
    for (let i = 0; i < callbacks.length; i++) respond(callbacks[i], wvjb);
  }, 0);
}
