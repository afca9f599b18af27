// dsbridge dialect. The page ships dsbridge.js 3.x itself; `window._dswk` makes it call
// prompt("_dsbridge=" + method, argsJSON), and prompt is wrapped here (PROTOCOL.md, "Dialect
// gates"): return values, dsinit and asynchronous calls stay in JavaScript and take the fast path;
// only synchronous calls reach native's prompt handler, carrying this document's secret. That
// includes _dsb.closePage and _dsb.disableJavascriptDialogBlock, synchronous in the original
// too: the page continues only once native has acted on them.
// Native calls to methods registered with dsbridge.js go through window._handleMessageFromNative.

const DS_PREFIX = '_dsbridge=';
const DS_NATIVE_PREFIX = '_hybridshell_ds=';
const DS_OK = '{"code":0,"data":null}';
const DS_SUCCESS_PREFIX = '{"code":0,"data":';
// Stands in for every backslash of the gated prompt's texts, both ways (PROTOCOL.md, "Dialect
// gates"): WebKit turns `\` into a yen sign in prompt texts of Shift_JIS, EUC-JP and ISO-2022-JP
// documents, and JSON escapes are backslashes. JSON text never holds a raw control character.
const PROMPT_BACKSLASH = '\x01';

function installDsbridge(bridge) {
  const originalPrompt = window.prompt;
  const reflectApply = Reflect.apply;
  const awaitingReturn = new Map();
  let nextCallbackId = 1;
  // dsbridge.js calls _dsb.dsinit once the page's first methods are registered; native calls to
  // page methods made before that wait for it, like the original's start-up queue.
  let initialised = false;
  const beforeInit = [];

  window._dswk = true;
  window.prompt = function prompt(message, defaultText) {
    if (typeof message === 'string' && message.slice(0, DS_PREFIX.length) === DS_PREFIX) {
      return answer(message.slice(DS_PREFIX.length), typeof defaultText === 'string' ? defaultText : '{}');
    }
    return reflectApply(originalPrompt, window, arguments);
  };

  function answer(method, argsText) {
    // Most synchronous calls go out without parsing their arguments.
    const special = method.slice(0, 5) === '_dsb.' || argsText.indexOf('"_dscbstub"') >= 0;
    if (!special) return callSync(method, argsText);
    let args;
    try {
      args = JSON.parse(argsText);
    } catch (e) {
      return dsError(ErrorCode.INVALID_MESSAGE, 'dsbridge arguments are not JSON');
    }
    if (args === null || typeof args !== 'object') args = {};
    if (method === '_dsb.returnValue') return acceptReturnValue(args.data);
    if (method === '_dsb.dsinit') {
      markInitialised();
      return DS_OK;
    }
    if (typeof args._dscbstub === 'string') {
      callAsync(method, args.data, args._dscbstub);
      return DS_OK;
    }
    return callSync(method, argsText);
  }

  function callSync(method, argsText) {
    const failure = bridge.failure;
    if (failure) return dsError(failure.code, failure.message);
    if (bridge.secret === null) return dsError(ErrorCode.DENIED, 'the bridge is not available in this document');
    const answered = originalPrompt(DS_NATIVE_PREFIX + bridge.secret + ':' + toPrompt(method), toPrompt(argsText));
    if (typeof answered !== 'string') return dsError(ErrorCode.BRIDGE_RESET, 'native did not answer ' + method);
    const result = fromPrompt(answered);
    if (result.slice(0, DS_SUCCESS_PREFIX.length) !== DS_SUCCESS_PREFIX) logNativeError(method, result);
    return result;
  }

  // Asynchronous calls have no page-side deadline: dsbridge methods may stream for as long as
  // they like (complete=false), as with the original.
  function callAsync(method, data, stub) {
    const options = { timeout: 0, onProgress: function (value) { deliverToStub(stub, value, false); } };
    bridge.call(method, data, options, 'dsbridge').then(function (value) {
      deliverToStub(stub, value, true);
    }, function (error) {
      deliverToStub(stub, dsErrorObject(error.code, error.message), true);
    });
  }

  function acceptReturnValue(returned) {
    if (returned === null || typeof returned !== 'object') return dsError(ErrorCode.INVALID_MESSAGE, 'malformed _dsb.returnValue');
    const waiting = awaitingReturn.get(returned.id);
    if (!waiting) {
      console.warn('dsbridge: return value for unknown call ' + returned.id);
      return DS_OK;
    }
    if (returned.complete === false) {
      waiting.progress(returned.data);
    } else {
      awaitingReturn.delete(returned.id);
      waiting.resolve(returned.data);
    }
    return DS_OK;
  }

  function markInitialised() {
    if (initialised) return;
    initialised = true;
    const waiting = beforeInit.splice(0, beforeInit.length);
    for (const release of waiting) release();
  }

  // Native call `d` is one argument unless the frame says `"args":true` (PROTOCOL.md).
  bridge.handlers.addResolver(dsInvoker);
  bridge.handlers.addFallback(function (name) {
    if (initialised || typeof window._handleMessageFromNative !== 'function') return null;
    return function (data, context) {
      return new Promise(function (resolve) { beforeInit.push(resolve); }).then(function () {
        const invoker = bridge.handlers.resolve(name);
        if (!invoker) throw new HybridError(ErrorCode.NOT_FOUND, 'no page handler named "' + name + '"');
        return invoker(data, context);
      });
    };
  });

  function dsInvoker(name) {
    if (typeof window._handleMessageFromNative !== 'function' || !dsbridgeHasMethod(name)) return null;
    return function (data, context) {
      const args = context.args ? data : [data];
      if (!Array.isArray(args)) throw new HybridError(ErrorCode.INVALID_MESSAGE, '"args" calls need an array');
      const callbackId = nextCallbackId++;
      return new Promise(function (resolve, reject) {
        awaitingReturn.set(callbackId, { resolve: resolve, progress: context.progress });
        try {
          window._handleMessageFromNative({ method: name, callbackId: callbackId, data: JSON.stringify(args) });
        } catch (error) {
          awaitingReturn.delete(callbackId);
          reject(error);
        }
      });
    };
  }
  return true;
}

// Whether dsbridge.js has `name` in its tables: window._dsf (synchronous) and window._dsaf
// (asynchronous) hold plain methods and, under `_obs`, namespace objects ("ns.method").
function dsbridgeHasMethod(name) {
  for (const table of [window._dsf, window._dsaf]) {
    if (table === null || typeof table !== 'object') continue;
    if (name !== '_obs' && hasOwn.call(table, name) && typeof table[name] === 'function') return true;
    const dot = name.lastIndexOf('.');
    const spaces = table._obs;
    if (dot <= 0 || spaces === null || typeof spaces !== 'object' || !hasOwn.call(spaces, name.slice(0, dot))) continue;
    const space = spaces[name.slice(0, dot)];
    const method = name.slice(dot + 1);
    const inherited = method in Object.prototype;
    if (space !== null && typeof space === 'object' && !inherited && typeof space[method] === 'function') return true;
  }
  return false;
}

// A gated prompt's text with every backslash as PROMPT_BACKSLASH, and back. Most texts have none,
// and a search is cheaper than a copy of a large one.
function toPrompt(text) {
  return text.indexOf('\\') < 0 ? text : text.replaceAll('\\', PROMPT_BACKSLASH);
}

function fromPrompt(text) {
  return text.indexOf(PROMPT_BACKSLASH) < 0 ? text : text.replaceAll(PROMPT_BACKSLASH, '\\');
}

function deliverToStub(stub, value, last) {
  respond(window[stub], value);
  if (!last) return;
  try {
    delete window[stub];
  } catch (e) {
    window[stub] = undefined;
  }
}

function logDsError(code, message) {
  console.error('dsbridge: ' + code + ': ' + message);
}

function dsErrorObject(code, message) {
  logDsError(code, message);
  return { code: -1, data: null, errorCode: code, message: message };
}

function dsError(code, message) {
  return JSON.stringify(dsErrorObject(code, message));
}

function logNativeError(method, result) {
  let parsed = null;
  try {
    parsed = JSON.parse(result);
  } catch (e) {
    parsed = null;
  }
  const code = parsed && typeof parsed.errorCode === 'string' ? parsed.errorCode : ErrorCode.INVALID_MESSAGE;
  logDsError(code, parsed && typeof parsed.message === 'string' ? parsed.message : 'unexpected answer to ' + method);
}
