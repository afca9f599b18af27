/// What the bridge needs of a page, and all it may touch: the one seam between the bridge and the
/// engine (as WebViewJavascriptBridge's base layer sees only an "evaluate this" function).
/// ``WebView`` implements it over WebKit; tests drive the bridge's sessions, dialects and limits
/// through a recording fake, without WebKit or a display.
@EngineActor
public protocol BridgeEngine: AnyObject {
    /// Receives `postMessage` from scripts in `world`; the reply settles the page's Promise.
    func addScriptMessageReplyHandler(_ name: String, in world: ScriptWorld, _ handler: @escaping (ScriptMessage, ScriptMessageReply) -> Void)
    /// Adds a script to every matching document loaded from now on.
    func addUserScript(_ script: UserScript)
    /// Sees every page event (loads, crashes) synchronously, in order.
    @discardableResult
    func observe(_ observer: @escaping (PageEvent) -> Void) -> ObservationToken
    /// Takes dialogs before the page's dialog policy (dsbridge's synchronous `prompt()` calls).
    func addDialogInterceptor(_ interceptor: @escaping (ScriptDialog, DialogResponder) -> Bool)
    /// Decides navigations before the page's policy (WebViewJavascriptBridge's signalling URLs).
    func addNavigationDecider(_ decider: @escaping (NavigationAction) -> NavigationDecision?)
    /// Evaluates a script in `world` and returns its JSON value.
    func evaluateJavaScript(_ script: String, in world: ScriptWorld, sourceURL: String?) async throws -> JSONValue
    /// Runs an async function body with typed arguments in `world`.
    func callAsyncJavaScript(_ body: String, arguments: [String: JSONValue], in world: ScriptWorld) async throws -> JSONValue
    /// Runs an async function body with string arguments in `world`; its string result.
    func callFunctionReturningString(_ body: String, strings: [String: String], in world: ScriptWorld) async throws -> String?
    /// How dialogs no interceptor takes are answered.
    var dialogPolicy: DialogPolicy { get }
    /// Tells the page's observers of an event the bridge caused (dsbridge's `closePage` asks for
    /// `closeRequested`; a dialog it answered itself).
    func report(_ event: PageEvent)
}
