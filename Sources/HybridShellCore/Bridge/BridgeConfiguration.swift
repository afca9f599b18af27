/// How a ``Bridge`` behaves. The defaults are the ones the protocol documents.
public struct BridgeConfiguration: Sendable {
    public enum Injection: String, Sendable, Equatable, SettingChoice {
        /// The bridge exists before the page's own scripts run (the default).
        case documentStart = "document-start"
        /// The bridge is added when the page has loaded (for pages that bootstrap their bridge themselves); legacy
        /// WebViewJavascriptBridge pages bootstrap through `https://__bridge_loaded__` then.
        case afterLoad = "after-load"
    }

    /// Which documents get a working bridge.
    public var originPolicy: OriginPolicy
    public var injection: Injection = .documentStart
    /// The deadline for calls that give none: page calls to native and native calls to the page.
    public var defaultTimeout: Duration = .seconds(30)
    /// The longest payload (in UTF-16 code units, JavaScript's `length`), 16 MiB by default.
    public var maxPayload = 16 << 20
    /// The deepest nesting of a payload's data (the envelope does not count), in every dialect:
    /// 512 levels by default, as iOS's `JSONSerialization` takes. `[]` is one level.
    public var maxDepth = 512
    /// The most page → native calls one document may have in flight (waiting for their turn in a
    /// large post, or running asynchronously); calls beyond it fail at once with `RATE_LIMITED`.
    public var maxInFlight = 10_000
    /// The longest a post's frames are dispatched in one go before the rest waits until the main
    /// loop has handled the events already pending (WebKit's messages and timers, drawing), so
    /// other events (console, lifecycle, timers) are never held up for long.
    public var dispatchSlice: Duration = .milliseconds(8)

    public init(originPolicy: OriginPolicy) {
        self.originPolicy = originPolicy
    }
}
