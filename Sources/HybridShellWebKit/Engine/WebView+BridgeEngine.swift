import HybridShellCore

/// A web view is the bridge's engine: script messages, user scripts, events, dialogs, navigation
/// decisions and JavaScript calls all go through `WebKitWebView`.
extension WebView: BridgeEngine {
    public func report(_ event: PageEvent) { emit(event) }
}

extension Bridge {
    /// A bridge for the page in `view`.
    public convenience init(view: WebView, configuration: BridgeConfiguration, handlers: BridgeHandlers = BridgeHandlers()) {
        self.init(engine: view, configuration: configuration, handlers: handlers)
    }
}
