// The WeChat-style `wx.*` functions over HybridShell's native modules (docs/modules.md): the
// callback shape ({success, fail, complete}, or a Promise when none is given) and WeChat's errMsg
// values ("setStorage:ok", "getStorage:fail data not found"). The *Sync forms use the synchronous
// transport (dsbridge's prompt, gated by the bridge script). Added after the bridge script, in the
// page world of the top frame; functions a page's own wx already has are kept.
;(function (window) {
  'use strict';
  const hybrid = window.hybrid;
  const wx = window.wx;
  if (!hybrid || typeof hybrid.call !== 'function' || wx === null || typeof wx !== 'object') return;
  const prompt = window.prompt;
  const JSON = window.JSON;

  function respond(callback, value) {
    if (typeof callback !== 'function') return;
    try {
      callback(value);
    } catch (error) {
      window.setTimeout(function () { throw error; }, 0);
    }
  }

  function options(value) {
    return value !== null && typeof value === 'object' ? value : {};
  }

  // One asynchronous wx function: `api` is WeChat's name, `handler` the native one; `args` picks
  // the handler's arguments from the options; `shape` turns the handler's result into WeChat's.
  function asyncApi(api, handler, args, shape) {
    return function (given) {
      const object = options(given);
      const wantsPromise = !('success' in object || 'fail' in object || 'complete' in object);
      const settled = hybrid.call(handler, args(object)).then(function (value) {
        const result = shape ? shape(value) : {};
        result.errMsg = api + ':ok';
        respond(object.success, result);
        respond(object.complete, result);
        return result;
      }, function (error) {
        const result = { errMsg: api + ':fail ' + error.message, errCode: error.code, details: error.details };
        respond(object.fail, result);
        respond(object.complete, result);
        throw result;
      });
      if (wantsPromise) return settled;
      settled.catch(function () {});
      return undefined;
    };
  }

  // One synchronous call: a dsbridge-style prompt the bridge script routes to native.
  function callSync(api, handler, data) {
    const answer = prompt('_dsbridge=' + handler, JSON.stringify({ data: data === undefined ? null : data }));
    let parsed = null;
    try {
      parsed = JSON.parse(answer);
    } catch (e) {
      parsed = null;
    }
    if (parsed === null || typeof parsed !== 'object') throw new Error(api + ':fail native did not answer');
    if (parsed.code !== 0) {
      const error = new Error(api + ':fail ' + parsed.message);
      error.errMsg = error.message;
      error.errCode = parsed.errorCode;
      throw error;
    }
    return parsed.data;
  }

  function key(object) { return { key: object.key }; }
  function none() { return null; }
  function pick(names) {
    return function (object) {
      const picked = {};
      for (const name of names) if (object[name] !== undefined) picked[name] = object[name];
      return picked;
    };
  }
  function same(value) { return Object.assign({}, value); }

  const functions = {
    setStorage: asyncApi('setStorage', 'storage.set', function (o) { return { key: o.key, data: o.data }; }),
    getStorage: asyncApi('getStorage', 'storage.get', key, function (value) { return { data: value.data }; }),
    removeStorage: asyncApi('removeStorage', 'storage.remove', key),
    clearStorage: asyncApi('clearStorage', 'storage.clear', none),
    getStorageInfo: asyncApi('getStorageInfo', 'storage.info', none, same),
    setStorageSync: function (k, data) { callSync('setStorageSync', 'storage.set', { key: k, data: data }); },
    // WeChat answers an empty string for a key that is not there.
    getStorageSync: function (k) { return callSync('getStorageSync', 'storage.get', { key: k, default: '' }).data; },
    removeStorageSync: function (k) { callSync('removeStorageSync', 'storage.remove', { key: k }); },
    clearStorageSync: function () { callSync('clearStorageSync', 'storage.clear', null); },
    getStorageInfoSync: function () { return callSync('getStorageInfoSync', 'storage.info', null); },

    navigateTo: asyncApi('navigateTo', 'navigation.open', pick(['url']), same),
    redirectTo: asyncApi('redirectTo', 'navigation.replace', pick(['url']), same),
    navigateBack: asyncApi('navigateBack', 'navigation.back', pick(['delta']), same),
    setNavigationBarTitle: asyncApi('setNavigationBarTitle', 'navigation.setTitle', pick(['title'])),

    getSystemInfo: asyncApi('getSystemInfo', 'system.info', none, same),
    getSystemInfoSync: function () { return callSync('getSystemInfoSync', 'system.info', null); },
    getNetworkType: asyncApi('getNetworkType', 'system.network', none, function (value) {
      return { networkType: value.networkType, isConnected: value.isConnected };
    }),
    onNetworkStatusChange: function (callback) {
      hybrid.on('system.networkStatusChange', function (value) {
        respond(callback, { isConnected: value.isConnected, networkType: value.networkType });
      });
    },

    // WeChat names headers `header`, both ways.
    request: asyncApi('request', 'http.request', function (o) {
      const picked = pick(['url', 'method', 'data', 'timeout'])(o);
      if (o.header !== undefined) picked.headers = o.header;
      if (o.dataType === 'text') picked.responseType = 'text';
      return picked;
    }, function (value) { return { data: value.data, statusCode: value.statusCode, header: value.headers }; }),

    // A body too large to answer inline comes as tempFilePath (a hybrid-file:// URL), as here.
    downloadFile: asyncApi('downloadFile', 'http.request', function (o) {
      const picked = pick(['url', 'timeout'])(o);
      if (o.header !== undefined) picked.headers = o.header;
      picked.responseType = 'file';
      return picked;
    }, function (value) { return { tempFilePath: value.tempFilePath, statusCode: value.statusCode, header: value.headers }; }),

    // The chosen file as WeChat's chooseImage / chooseVideo report it (one file), as a
    // hybrid-file:// URL the page reads with fetch, <img> or <video>.
    chooseImage: asyncApi('chooseImage', 'files.choose', none, function (value) {
      return { tempFilePaths: [value.url], tempFiles: [{ path: value.url, size: value.size }] };
    }),
    // tempFilePath is the loopback mediaURL when there is one: <video src> plays it (WebKitGTK's
    // media player cannot play hybrid-file://); url stays available for fetch.
    chooseVideo: asyncApi('chooseVideo', 'files.choose', none, function (value) {
      return { tempFilePath: value.mediaURL || value.url, url: value.url, size: value.size };
    }),

    setClipboardData: asyncApi('setClipboardData', 'clipboard.set', pick(['data'])),
    getClipboardData: asyncApi('getClipboardData', 'clipboard.get', none, function (value) { return { data: value.data }; }),

    showToast: asyncApi('showToast', 'ui.showToast', pick(['title', 'icon', 'duration'])),
    showModal: asyncApi('showModal', 'ui.showModal', pick(['title', 'content', 'showCancel', 'confirmText', 'cancelText']), same),
  };
  // WeChat's update manager over hybrid.updates (one per page, as WeChat's is).
  let updateManager = null;
  functions.getUpdateManager = function () {
    const updates = hybrid.updates;
    if (updateManager !== null || !updates) return updateManager;
    updateManager = {
      onCheckForUpdate: function (callback) {
        updates.on('checked', function (status) { respond(callback, { hasUpdate: status.hasUpdate === true }); });
      },
      onUpdateReady: function (callback) { updates.on('ready', function () { respond(callback, {}); }); },
      onUpdateFailed: function (callback) {
        updates.on('failed', function (value) { respond(callback, { errMsg: 'updateManager:fail ' + value.reason }); });
      },
      applyUpdate: function () { updates.apply().catch(function () {}); },
    };
    return updateManager;
  };
  for (const name of Object.keys(functions)) {
    if (!(name in wx)) wx[name] = functions[name];
  }
})(window);
