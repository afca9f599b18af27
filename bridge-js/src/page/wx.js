// The `wx` SDK of the KGJSBridge hybrid framework: wx.invokeHandler / wx.subscribeHandler, the
// wx.onReady/onShow/onHide/onUnload hooks, and window.KGJSBridge. A page that brings its own
// SDK (a window.wx with invokeHandler, or a window.KGJSBridge) keeps it.

const WX_CALLBACK_KEYS = ['success', 'fail', 'cancel', 'unknown', 'complete'];
// KGJSBridge response codes.
const KG_CODE = { ok: 200, cancel: -999, unknown: 404, failure: -1 };

function installWx(bridge) {
  const handlers = new Map();
  bridge.handlers.addResolver(function (name) {
    const handler = handlers.get(name);
    return handler ? function (data) { return invokeWithCallback(handler, data); } : null;
  });
  if (!window.KGJSBridge) window.KGJSBridge = createKGJSBridge(bridge, handlers);

  const existing = window.wx;
  if (existing && typeof existing.invokeHandler === 'function') {
    bridge.lifecycle.observe(function (name, data) { callAssignedHook(existing, name, data); });
    return false;
  }
  const wx = existing !== null && typeof existing === 'object' ? existing : {};
  addMissing(wx, {
    invokeHandler: function (path, options) { invokeHandler(bridge, path, options); },
    subscribeHandler: function (path, callback) {
      handlers.set(path, function (data, respondWith) {
        const payload = data !== null && typeof data === 'object' ? data : data === null ? {} : { data: data };
        payload.callback = respondWith;
        if (typeof callback === 'function') callback(payload);
      });
    },
  });
  installLifecycleHooks(wx, bridge.lifecycle);
  window.wx = wx;
  return true;
}

function invokeHandler(bridge, path, options) {
  const object = options !== null && typeof options === 'object' ? options : {};
  const params = {};
  for (const key of Object.keys(object)) {
    if (WX_CALLBACK_KEYS.indexOf(key) < 0) params[key] = object[key];
  }
  bridge.call(path, params, {}, 'wx').then(function (value) {
    const isRecord = value !== null && typeof value === 'object' && !Array.isArray(value);
    const result = isRecord ? Object.assign({}, value) : { data: value };
    result.errMsg = path + ':ok';
    finish(object, 'success', result);
  }, function (error) {
    const result = { errMsg: path + ':' + error.message, errCode: error.code, details: error.details };
    if (error.code === ErrorCode.CANCELLED) finish(object, 'cancel', result);
    else if (error.code === ErrorCode.NOT_FOUND && typeof object.unknown === 'function') finish(object, 'unknown', result);
    else finish(object, 'fail', result);
  });
}

function finish(object, outcome, result) {
  respond(object[outcome], result);
  respond(object.complete, result);
}

// Each hook works both ways seen in the wild: `wx.onShow(fn)` adds fn, `wx.onShow = fn` sets
// the one assigned hook. A ready hook added after ready runs at once (asynchronously).
function installLifecycleHooks(wx, lifecycle) {
  const added = { ready: [], show: [], hide: [], unload: [] };
  const assigned = {};
  for (const name of LIFECYCLE_EVENTS) {
    if (hookKey(name) in wx) continue;
    const add = function (fn) {
      if (typeof fn !== 'function') return;
      added[name].push(fn);
      if (name === 'ready' && lifecycle.ready) queueMicrotask(function () { respond(fn, undefined); });
    };
    Object.defineProperty(wx, hookKey(name), {
      enumerable: true,
      configurable: true,
      get: function () { return add; },
      set: function (fn) {
        assigned[name] = fn;
        if (name === 'ready' && lifecycle.ready) queueMicrotask(function () { respond(fn, undefined); });
      },
    });
  }
  lifecycle.observe(function (name, data) {
    respond(assigned[name], data);
    for (const fn of added[name].slice()) respond(fn, data);
  });
}

// A page's own wx SDK expects native to call the hooks it assigned.
function callAssignedHook(wx, name, data) {
  const hook = wx[hookKey(name)];
  if (typeof hook === 'function') respond(hook.bind(wx), data);
}

function hookKey(name) {
  return 'on' + name.charAt(0).toUpperCase() + name.slice(1);
}

function addMissing(target, members) {
  for (const key of Object.keys(members)) {
    if (!(key in target)) target[key] = members[key];
  }
}

// A `handler(data, responseCallback)` as a page-handler invoker.
function invokeWithCallback(handler, data) {
  return new Promise(function (resolve) {
    handler(data, resolve);
  });
}

function createKGJSBridge(bridge, handlers) {
  function callHandler(name, data, responseCallback) {
    if (arguments.length === 2 && typeof data === 'function') {
      responseCallback = data;
      data = null;
    }
    bridge.call(name, data, {}, 'wx').then(function (value) {
      respond(responseCallback, { code: KG_CODE.ok, message: 'ok', data: value });
    }, function (error) {
      const code = error.code === ErrorCode.CANCELLED ? KG_CODE.cancel
        : error.code === ErrorCode.NOT_FOUND ? KG_CODE.unknown : KG_CODE.failure;
      respond(responseCallback, { code: code, message: error.message, data: {}, errorCode: error.code, details: error.details });
    });
  }

  // Native's entry point in the original SDK. Here it is only needed by native code that
  // evaluates it directly: it returns a Promise of the handler's response.
  function subscribe(messageJSON) {
    let message;
    try {
      message = typeof messageJSON === 'string' ? JSON.parse(messageJSON) : messageJSON;
    } catch (e) {
      return Promise.resolve({ code: KG_CODE.failure, message: 'invalid message' });
    }
    if (message === null || typeof message !== 'object' || message.responseId) return Promise.resolve(undefined);
    const handler = handlers.get(message.handlerName);
    if (!handler) {
      console.log('JSBridge: WARNING: no handler for message from Native:', message);
      return Promise.resolve({ code: KG_CODE.failure, message: 'No Api:' + message.handlerName + '!' });
    }
    return invokeWithCallback(handler, message.data);
  }

  return {
    registerHandler: function (name, handler) { handlers.set(name, handler); },
    callHandler: callHandler,
    _subscribeHandler: subscribe,
  };
}
