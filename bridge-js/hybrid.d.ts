// Types of the page API that HybridShell injects into pages (bridge-js/src/page). Add this file
// to a page project's TypeScript sources; it declares globals, so it has no imports or exports.

declare namespace HybridShell {
  type ErrorCode =
    | 'NOT_FOUND'
    | 'HANDLER_ERROR'
    | 'TIMEOUT'
    | 'BRIDGE_RESET'
    | 'INVALID_MESSAGE'
    | 'PAYLOAD_TOO_LARGE'
    | 'DENIED'
    | 'CANCELLED'
    | 'RATE_LIMITED';

  /** The error shape used everywhere on the wire and in the dialects. */
  interface ErrorObject {
    code: ErrorCode;
    message: string;
    details: unknown;
  }

  /** What `hybrid.call` rejects with; `err.code` tells the cause. */
  interface HybridError extends Error {
    readonly name: 'HybridError';
    code: ErrorCode;
    details: unknown;
    toJSON(): ErrorObject;
  }

  interface HybridErrorConstructor {
    new (code: ErrorCode, message: string, details?: unknown): HybridError;
    readonly prototype: HybridError;
  }

  interface CallOptions {
    /** Milliseconds until the call rejects with TIMEOUT; 0 for none. Default: the `ready` frame's. */
    timeout?: number;
    /** Partial results streamed by the native handler, in order, before the result. */
    onProgress?: (value: any) => void;
  }

  interface HandlerContext {
    /** Streams a partial result to native before the handler's result. */
    progress(value: unknown): void;
  }

  /**
   * A page handler native can call. Its value (or the value its Promise resolves to) is the result;
   * a throw or rejection answers HANDLER_ERROR with the thrown message, or the code of a thrown
   * HybridError.
   */
  type Handler = (data: any, context: HandlerContext) => unknown;

  type LifecycleEvent = 'ready' | 'show' | 'hide' | 'unload';

  interface Hybrid {
    readonly version: string;
    /** Resolves when the bridge is ready; rejects with DENIED when this document may not use it. */
    readonly ready: Promise<void>;
    readonly HybridError: HybridErrorConstructor;
    /** Calls the native handler `name` (may be namespaced: "device.info"). */
    call<T = any>(name: string, data?: unknown, options?: CallOptions): Promise<T>;
    register(name: string, handler: Handler): void;
    unregister(name: string): void;
    /**
     * Events pushed by native, and the lifecycle: `ready` (once, when the bridge is ready; a
     * listener added later runs at once), `show` and `hide` (never twice in a row), `unload`
     * (at most once; also on pagehide).
     */
    on(event: LifecycleEvent | (string & {}), listener: (data: any) => void): void;
    off(event: LifecycleEvent | (string & {}), listener: (data: any) => void): void;
  }

  type ResponseCallback = (responseData: any) => void;
  type WVJBHandler = (data: any, responseCallback: ResponseCallback) => void;

  /** What a WebViewJavascriptBridge responseCallback gets when the call failed. */
  interface WVJBErrorResponse {
    error: ErrorObject;
  }

  /** marcuswestin/WebViewJavascriptBridge, v4 to v6. */
  interface WebViewJavascriptBridge {
    registerHandler(name: string, handler: WVJBHandler): void;
    removeHandler(name: string): void;
    callHandler(name: string, responseCallback?: ResponseCallback): void;
    callHandler(name: string, data: unknown, responseCallback?: ResponseCallback): void;
    /** Runs handlers called by native at once instead of in a setTimeout(0). */
    disableJavscriptAlertBoxSafetyTimeout(): void;
    /** v4: the handler for native calls to names the page never registered. */
    init(defaultHandler: WVJBHandler): void;
    /** v4: calls the native default handler (registered under the name "*"). */
    send(data: unknown, responseCallback?: ResponseCallback): void;
    _fetchQueue(): string;
    _handleMessageFromObjC(messageJSON: string): void;
  }

  interface WxSuccess {
    /** "<path>:ok" */
    errMsg: string;
    /** The result when it is not an object; an object result is spread into this one. */
    data?: any;
    [key: string]: any;
  }

  interface WxFailure {
    /** "<path>:<message>" */
    errMsg: string;
    errCode: ErrorCode;
    details: unknown;
  }

  interface WxInvokeOptions {
    success?: (res: WxSuccess) => void;
    fail?: (res: WxFailure) => void;
    /** The call was CANCELLED. */
    cancel?: (res: WxFailure) => void;
    /** No native handler has that path (NOT_FOUND); without it, `fail` runs. */
    unknown?: (res: WxFailure) => void;
    /** Always, last. */
    complete?: (res: WxSuccess | WxFailure) => void;
    /** Every other member is a parameter sent to native. */
    [param: string]: unknown;
  }

  /** What a subscribeHandler callback gets: native's data (a non-object as `data`) plus `callback`. */
  interface WxSubscription {
    callback(response?: unknown): void;
    [key: string]: any;
  }

  type LifecycleHook = (data?: any) => void;

  /** The `wx` SDK of KGJSBridge pages. Hooks are added by calling them or set by assigning. */
  interface Wx {
    invokeHandler(path: string, options?: WxInvokeOptions): void;
    subscribeHandler(path: string, callback: (data: WxSubscription) => void): void;
    get onReady(): (hook: LifecycleHook) => void;
    set onReady(hook: LifecycleHook);
    get onShow(): (hook: LifecycleHook) => void;
    set onShow(hook: LifecycleHook);
    get onHide(): (hook: LifecycleHook) => void;
    set onHide(hook: LifecycleHook);
    get onUnload(): (hook: LifecycleHook) => void;
    set onUnload(hook: LifecycleHook);
  }

  /** KGJSBridge responses: code 200 ok, -999 cancelled, 404 unknown handler, -1 any other error. */
  interface KGResponse {
    code: 200 | -999 | 404 | -1;
    message: string;
    data: any;
    errorCode?: ErrorCode;
    details?: unknown;
  }

  interface KGJSBridge {
    registerHandler(name: string, handler: WVJBHandler): void;
    callHandler(name: string, responseCallback?: (response: KGResponse) => void): void;
    callHandler(name: string, data: unknown, responseCallback?: (response: KGResponse) => void): void;
    /** Runs a handler the way the original SDK's native did; resolves with its response. */
    _subscribeHandler(messageJSON: string): Promise<unknown>;
  }
}

declare var hybrid: HybridShell.Hybrid;
declare var WebViewJavascriptBridge: HybridShell.WebViewJavascriptBridge;
declare var wx: HybridShell.Wx;
declare var KGJSBridge: HybridShell.KGJSBridge;

interface Window {
  /** v5/v6 pages leave their setup callbacks here before the bridge exists. */
  WVJBCallbacks?: Array<(bridge: HybridShell.WebViewJavascriptBridge) => void>;
}

interface WindowEventMap {
  'hybrid:ready': CustomEvent<null>;
  'hybrid:show': CustomEvent<any>;
  'hybrid:hide': CustomEvent<any>;
  'hybrid:unload': CustomEvent<any>;
}

interface DocumentEventMap {
  /** v4: dispatched on document when the bridge is installed. */
  WebViewJavascriptBridgeReady: Event & { bridge: HybridShell.WebViewJavascriptBridge };
}

// Native modules (docs/modules.md): typed `hybrid.call` overloads for the built-in handlers and
// the `wx.*` functions of bridge-js/src/modules/wx-modules.js. Declaration merging adds them to
// the interfaces above.
declare namespace HybridShell {
  /** `details.reason` of module errors that are not argument errors. */
  type ModuleErrorReason = 'notFound' | 'quota' | 'corrupt' | 'locked' | 'full' | 'io' | 'unknownRoute' | 'urlNotAllowed' | 'noPage' | 'openFailed' | 'network' | 'timeout' | 'tooLarge' | 'cancelled' | 'unavailable' | 'pathNotAllowed' | 'printerNotAllowed' | 'dialogNotAllowed' | 'printFailed';

  interface StorageInfo { keys: string[]; currentSize: number; limitSize: number; }
  interface NetworkStatus { isConnected: boolean; networkType: 'none' | 'unknown'; connectivity: 'none' | 'local' | 'limited' | 'portal' | 'full'; source: string; }
  interface ScreenInfo { screenWidth: number; screenHeight: number; pixelRatio: number; windowWidth: number; windowHeight: number; windowMode: 'window' | 'headless'; }
  interface LocaleInfo { language: string; languages: string[]; timeZone: string; }
  interface SystemInfo extends ScreenInfo, LocaleInfo {
    os: 'Linux'; osVersion: string; platform: 'linux'; engine: 'WebKitGTK'; engineVersion: string; userAgent: string;
    appName: string; appVersion: string; shell: 'HybridShell'; shellVersion: string; network: NetworkStatus;
  }
  interface PageInfo { id: number; url: string; title: string | null; isCaller: boolean; }
  interface ModalOptions { title?: string; content: string; showCancel?: boolean; confirmText?: string; cancelText?: string; }

  interface Hybrid {
    call(name: 'storage.set', data: { key: string; data: unknown }, options?: CallOptions): Promise<null>;
    call<T = any>(name: 'storage.get', data: { key: string }, options?: CallOptions): Promise<{ data: T }>;
    call(name: 'storage.remove', data: { key: string }, options?: CallOptions): Promise<null>;
    call(name: 'storage.clear' | 'clipboard.get' | 'navigation.close', data?: null, options?: CallOptions): Promise<any>;
    call(name: 'storage.info', data?: null, options?: CallOptions): Promise<StorageInfo>;
    call(name: 'navigation.open' | 'navigation.replace', data: { url: string }, options?: CallOptions): Promise<{ pageId: number; url: string }>;
    call(name: 'navigation.back', data?: { delta?: number }, options?: CallOptions): Promise<{ closed: number }>;
    call(name: 'navigation.setTitle', data: { title: string }, options?: CallOptions): Promise<null>;
    call(name: 'navigation.pages', data?: null, options?: CallOptions): Promise<PageInfo[]>;
    call(name: 'system.info', data?: null, options?: CallOptions): Promise<SystemInfo>;
    call(name: 'system.locale', data?: null, options?: CallOptions): Promise<LocaleInfo>;
    call(name: 'system.screen', data?: null, options?: CallOptions): Promise<ScreenInfo>;
    call(name: 'system.network', data?: null, options?: CallOptions): Promise<NetworkStatus>;
    call(name: 'clipboard.set', data: { data: string }, options?: CallOptions): Promise<null>;
    call(name: 'ui.showToast', data: { title: string; icon?: 'success' | 'error' | 'loading' | 'none'; duration?: number }, options?: CallOptions): Promise<null>;
    call(name: 'ui.showModal', data: ModalOptions, options?: CallOptions): Promise<{ confirm: boolean; cancel: boolean }>;
    call<T = any>(name: 'http.request', data: HttpRequest, options?: CallOptions): Promise<HttpResponse<T>>;
    /** `url`: hybrid-file:// for fetch/XHR/<img>; `mediaURL` (audio/video only): a loopback http://127.0.0.1 URL that <video>/<audio> play and seek. */
    call(name: 'files.choose', data?: { title?: string }, options?: CallOptions): Promise<{ url: string; name: string; size: number; mediaURL?: string }>;
    call(name: 'files.save', data: { name: string; data: string; encoding?: 'utf8' | 'base64' }, options?: CallOptions): Promise<{ path: string; size: number }>;
    on(event: 'system.networkStatusChange', listener: (status: NetworkStatus) => void): void;
    /** notification module (docs/modules.md): `icon` is a themed icon name, at most 8 actions. */
    call(name: 'notification.show', data: NotificationOptions, options?: CallOptions): Promise<{ id: number }>;
    on(event: 'notification.action', listener: (event: { id: number; action: string }) => void): void;
    on(event: 'notification.closed', listener: (event: { id: number; reason: 'expired' | 'dismissed' | 'closed' | 'undefined' }) => void): void;
    /** print module: a file inside module_settings.print_dirs, a printer of module_settings.printers (silent), or the dialog. */
    call(name: 'print.page', data?: PrintOptions, options?: CallOptions): Promise<PrintResult>;
    /** hybrid-run app: URLs a launch handed to the running app (deep links in its schemes, file:// URIs). */
    on(event: 'open', listener: (event: { urls: string[] }) => void): void;
  }

  interface NotificationOptions { title: string; body?: string; icon?: string; actions?: { id: string; label: string }[]; }
  interface PrintOptions { printer?: string; file?: string; silent?: boolean; }
  /** What was printed where; `headless` when a printer was only simulated (page tests). */
  interface PrintResult { printer: string; file?: string; url: string | null; headless?: boolean; }

  interface HttpRequest {
    url: string;
    method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS';
    headers?: Record<string, string>;
    /** A string is sent as it is; anything else as JSON. */
    data?: unknown;
    /** Milliseconds, 1…120000 (default 30000). */
    timeout?: number;
    responseType?: 'json' | 'text' | 'file';
  }
  /** `data` inline, or for responseType 'file' and bodies over the inline limit (16 MB) `tempFilePath`, a hybrid-file:// URL, and `size`. */
  interface HttpResponse<T = any> { statusCode: number; headers: Record<string, string>; data?: T; tempFilePath?: string; size?: number; }

  /** What success/complete get: the result plus `errMsg` ("setStorage:ok"). */
  type WxResult<T = {}> = T & { errMsg: string };
  /** What fail/complete get on failure: `errMsg` is "<api>:fail <reason>". */
  interface WxFailure { errMsg: string; errCode: ErrorCode; details: unknown; }
  /** WeChat's callback options; without success/fail/complete the function returns a Promise. */
  type WxOptions<A, T = {}> = A & {
    success?: (result: WxResult<T>) => void;
    fail?: (failure: WxFailure) => void;
    complete?: (result: WxResult<T> | WxFailure) => void;
  };
  type WxApi<A, T = {}> = {
    (options: WxOptions<A, T> & ({ success: any } | { fail: any } | { complete: any })): void;
    (options?: A): Promise<WxResult<T>>;
  };

  interface Wx {
    setStorage: WxApi<{ key: string; data: unknown }>;
    getStorage: WxApi<{ key: string }, { data: any }>;
    removeStorage: WxApi<{ key: string }>;
    clearStorage: WxApi<{}>;
    getStorageInfo: WxApi<{}, StorageInfo>;
    setStorageSync(key: string, data: unknown): void;
    /** '' when the key is not there, as WeChat. */
    getStorageSync(key: string): any;
    removeStorageSync(key: string): void;
    clearStorageSync(): void;
    getStorageInfoSync(): StorageInfo;
    navigateTo: WxApi<{ url: string }, { pageId: number; url: string }>;
    redirectTo: WxApi<{ url: string }, { pageId: number; url: string }>;
    navigateBack: WxApi<{ delta?: number }, { closed: number }>;
    setNavigationBarTitle: WxApi<{ title: string }>;
    getSystemInfo: WxApi<{}, SystemInfo>;
    getSystemInfoSync(): SystemInfo;
    getNetworkType: WxApi<{}, { networkType: NetworkStatus['networkType']; isConnected: boolean }>;
    onNetworkStatusChange(callback: (status: { isConnected: boolean; networkType: NetworkStatus['networkType'] }) => void): void;
    request: WxApi<{ url: string; method?: HttpRequest['method']; header?: Record<string, string>; data?: unknown; timeout?: number; dataType?: 'json' | 'text' },
      { data: any; statusCode: number; header: Record<string, string> }>;
    chooseImage: WxApi<{}, { tempFilePaths: string[]; tempFiles: Array<{ path: string; size: number }> }>;
    /** `tempFilePath`: the playable loopback URL for <video src> (the hybrid-file:// `url` when none); `url`: the hybrid-file:// URL. */
    chooseVideo: WxApi<{}, { tempFilePath: string; url: string; size: number }>;
    downloadFile: WxApi<{ url: string; header?: Record<string, string>; timeout?: number }, { tempFilePath: string; statusCode: number; header: Record<string, string> }>;
    setClipboardData: WxApi<{ data: string }>;
    getClipboardData: WxApi<{}, { data: string }>;
    showToast: WxApi<{ title: string; icon?: 'success' | 'error' | 'loading' | 'none'; duration?: number }>;
    showModal: WxApi<ModalOptions, { confirm: boolean; cancel: boolean }>;
  }
}

// The update manager for pages (docs/offline-packages.md, "Updates for pages"): `hybrid.updates`
// over the `updates` module, and WeChat's `wx.getUpdateManager()` over it.
declare namespace HybridShell {
  /** What a page of an installed package is told about its app's updates. */
  interface UpdateStatus {
    appID: string;
    /** A version newer than this page's is offered by the last index or installed. */
    hasUpdate: boolean;
    /** A newer version is installed: `apply()` shows it. */
    ready: boolean;
    checking: boolean;
    /** A check has finished in this run. */
    checked: boolean;
    /** The installed version `apply()` shows (when ready). */
    version?: string;
    sequence?: number;
    /** The last failure (a cut download, an index signed by an unknown key…). */
    failure?: string;
  }
  interface UpdateReady { appID: string; version: string; sequence: number; }
  interface UpdateFailure { appID: string; reason: string; }

  interface Updates {
    /** Checks the signed index now (or joins the running check); resolves once the index is known, before any download. */
    check(): Promise<UpdateStatus>;
    status(): Promise<UpdateStatus>;
    /** Reloads this page into the installed newer version's entry page; HANDLER_ERROR (reason notReady) when there is none. */
    apply(): Promise<{ version: string; sequence: number }>;
    /** A listener added after such an event is told the current state once. */
    on(kind: 'checked' | 'available', listener: (status: UpdateStatus) => void): void;
    on(kind: 'ready', listener: (ready: UpdateReady) => void): void;
    on(kind: 'failed', listener: (failure: UpdateFailure) => void): void;
    off(kind: 'checked' | 'available' | 'ready' | 'failed', listener: (value: any) => void): void;
  }

  interface Hybrid {
    readonly updates: Updates;
  }

  /** WeChat's UpdateManager. */
  interface UpdateManager {
    onCheckForUpdate(callback: (result: { hasUpdate: boolean }) => void): void;
    onUpdateReady(callback: () => void): void;
    onUpdateFailed(callback: (result: { errMsg: string }) => void): void;
    applyUpdate(): void;
  }

  interface Wx {
    getUpdateManager(): UpdateManager;
  }
}

// Binary streams between the page and native (docs/streams.md): `hybrid.stream(name, options)`.
declare namespace HybridShell {
  interface StreamOptions {
    /** 'read' (default): native → page; 'write': page → native; 'duplex': both. */
    mode?: 'read' | 'write' | 'duplex';
    /** Any JSON, handed to the native handler (`ByteStream.data`). */
    data?: unknown;
  }

  interface ByteStreams {
    /** Resolves once native accepted the stream; rejects NOT_FOUND (no such name), DENIED, … (the streams error the same way). */
    opened: Promise<void>;
    /** Bytes native writes (modes read, duplex); errors with the native failure, BRIDGE_RESET when the stream ended with its document. */
    readable?: ReadableStream<Uint8Array>;
    /** Bytes to native (modes write, duplex): ArrayBuffer, TypedArray or DataView chunks; write() waits while native has not taken what came before. */
    writable?: WritableStream<BufferSource>;
  }

  interface Hybrid {
    stream(name: string, options?: StreamOptions & { mode?: 'read' }): ByteStreams & { readable: ReadableStream<Uint8Array> };
    stream(name: string, options: StreamOptions & { mode: 'write' }): ByteStreams & { writable: WritableStream<BufferSource> };
    stream(name: string, options: StreamOptions & { mode: 'duplex' }): ByteStreams & { readable: ReadableStream<Uint8Array>; writable: WritableStream<BufferSource> };
  }
}
