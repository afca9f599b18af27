/// The checks a request to the loopback media listener passes before its share is looked up
/// (``FileShares/mediaURL(for:)``). Pure: the listener's adapter feeds it the request line and the
/// `Host` header and answers a refusal with its status and reason (also logged).
///
/// Order: the `Host` header first (a page on another site that rebinds its DNS name to 127.0.0.1
/// reaches the listener with its own name as `Host`; refusing it keeps the listener out of reach
/// of such pages even if a token leaked), then the method, then the path's shape.
public enum MediaRequestCheck {
    public enum Outcome: Sendable, Equatable {
        /// The request may proceed for this share token (lowercase hex).
        case token(String)
        case refused(status: Int, reason: String)
    }

    /// - Parameters:
    ///   - path: the request target's path, raw (percent-encoding kept, no normalisation).
    ///   - host: the `Host` header as sent, nil when absent.
    ///   - listenerHost: the listener's own `127.0.0.1:PORT`.
    public static func check(method: String, path: String, host: String?, listenerHost: String) -> Outcome {
        if let refusal = refusal(method: method, path: path, host: host, listenerHost: listenerHost) { return refusal }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard path.hasPrefix("/"), segments.count == 2, !segments[1].isEmpty,
              segments[0].count == 32, segments[0].allSatisfy(\.isHexDigit) else {
            return .refused(status: 400, reason: "the path \(path) is not /<token>/<name>")
        }
        return .token(segments[0].lowercased())
    }

    /// The checks every loopback media request passes first (`Host`, method, path shape); nil when
    /// it passes them. Also the media relay's (``MediaRelayCheck``).
    static func refusal(method: String, path: String, host: String?, listenerHost: String) -> Outcome? {
        guard let host, host.lowercased() == listenerHost.lowercased() else {
            return .refused(status: 403, reason: "Host \(host.map { "\"\($0)\"" } ?? "(none)") is not this listener's \(listenerHost) (DNS-rebinding defence)")
        }
        guard method == "GET" || method == "HEAD" else {
            return .refused(status: 405, reason: "method \(method) is not allowed (GET and HEAD only)")
        }
        if let problem = traversal(in: path) {
            return .refused(status: 403, reason: "the path \(path) \(problem)")
        }
        return nil
    }

    /// Why a path looks like it tries to leave its share: dot-segments, encoded separators or
    /// NUL, backslashes, empty segments. Nil when it looks like none of those.
    static func traversal(in path: String) -> String? {
        let lowered = path.lowercased()
        for encoded in ["%2f", "%5c", "%00", "%2e"] where lowered.contains(encoded) {
            return "contains \(encoded)"
        }
        if path.contains("\\") { return "contains a backslash" }
        if path.contains("//") { return "contains an empty segment (//)" }
        if path.split(separator: "/").contains(where: { $0 == "." || $0 == ".." }) { return "contains a dot-segment" }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) { return "contains a control character" }
        return nil
    }
}
