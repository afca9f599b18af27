/// Where a request to the media relay's loopback listener goes (``SchemeMediaRelay``): its path is
/// `/<token>/<the path on the token's scheme and host>`. Pure: the same `Host`, method and path-shape
/// checks as media shares (``MediaRequestCheck``), then the split into token and path.
public enum MediaRelayCheck {
    public enum Outcome: Sendable, Equatable {
        /// Relay to the scheme and host of `token` (lowercase hex), at `path` (raw, starting with `/`).
        case relay(token: String, path: String)
        case refused(status: Int, reason: String)
    }

    /// - Parameters:
    ///   - path: the request target's path, raw (percent-encoding kept, no normalisation).
    ///   - host: the `Host` header as sent, nil when absent.
    ///   - listenerHost: the listener's own `127.0.0.1:PORT`.
    public static func check(method: String, path: String, host: String?, listenerHost: String) -> Outcome {
        if case .refused(let status, let reason) = MediaRequestCheck.refusal(method: method, path: path, host: host, listenerHost: listenerHost) {
            return .refused(status: status, reason: reason)
        }
        let token = path.dropFirst().prefix { $0 != "/" }
        let rest = path.dropFirst(1 + token.count)
        guard path.hasPrefix("/"), token.count == 32, token.allSatisfy(\.isHexDigit), rest.count > 1 else {
            return .refused(status: 400, reason: "the path \(MediaRelayCheck.redacted(path)) is not /<token>/<path>")
        }
        return .relay(token: token.lowercased(), path: String(rest))
    }

    /// A path for logs: the token shortened so logs cannot be replayed.
    public static func redacted(_ path: String) -> String {
        let token = path.dropFirst().prefix { $0 != "/" }
        guard token.count >= 32 else { return path }
        return "/" + token.prefix(6) + "…" + path.dropFirst(1 + token.count)
    }
}
