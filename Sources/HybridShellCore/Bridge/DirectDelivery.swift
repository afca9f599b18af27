/// Native's down-frames straight into the page world: `__hybridshellPage.deliver(secret + frames)`
/// (bridge-js/PROTOCOL.md, "The direct delivery") instead of the relay's `deliver` and its two DOM
/// events between the worlds, which cost a native → page call more than the rest of its
/// JavaScript. The answer is the same as the relay's.
///
/// Why no other document can take a delivery: WebKit runs the function in whatever document the
/// view shows when the call arrives there. The body first compares that document's origin with
/// the session's through `location`, which no page script can replace (`location` and its members
/// are unforgeable, and a global `let location` is a SyntaxError), using nothing but `!==`; a
/// document of another origin gets `false` and never sees the frames or the secret. The page
/// script then takes the delivery only with its own document's secret, so another document of the
/// same origin handles nothing meant for this one (`window`, unlike `globalThis`, is unforgeable
/// too, and page.js fixed `__hybridshellPage` on it before any page script ran). Opaque origins
/// ("null") are all alike, so those sessions keep the relay, as does a document whose page
/// script could not fix `__hybridshellPage` (its hello does not offer the delivery).
enum DirectDelivery {
    /// `o` is the session's origin, `m` its secret followed by the frames text.
    static let body = "if (location.origin !== o) return false; return window.__hybridshellPage.deliver(m);"

    /// Whether a session of `origin` may get direct deliveries (if its hello offered them).
    static func serves(origin: String) -> Bool {
        !origin.isEmpty && origin != "null"
    }

    static func arguments(origin: String, secret: String, frames: String) -> [String: String] {
        ["o": origin, "m": secret + frames]
    }
}
