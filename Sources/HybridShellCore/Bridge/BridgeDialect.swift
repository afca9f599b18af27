/// Which page-side API made a call: HybridShell's own, or one of the compatibility dialects.
public enum BridgeDialect: String, Sendable, Codable, CaseIterable {
    /// `window.hybrid`
    case hybrid
    /// WebViewJavascriptBridge (`setupWebViewJavascriptBridge`, `connectWebViewJavascriptBridge`).
    case wvjb
    /// dsbridge.js 3.x (`dsBridge.call`).
    case dsbridge
    /// The `wx` / KGJSBridge SDK.
    case wx
}
