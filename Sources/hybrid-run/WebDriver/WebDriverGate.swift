import Foundation
import HybridShell

/// What `hybrid-run webdriver` does with each request before WebKitWebDriver sees it: a pure
/// decision over the request head (and, for a new session, its body); ``WebDriverProxy`` only
/// moves the bytes.
///
/// Why: WebKitWebDriver 2.50.6 accepts `POST /session` with any content type and no `Origin`
/// check, so a `fetch(…, {mode: "no-cors"})` from any web page on the machine can start a session
/// whose `webkitgtk:browserOptions.binary` is any program. WebDriver clients are programs, not
/// pages, so every sign of a browser-made request is refused: an `Origin` header, a `Sec-Fetch-*`
/// header, a body that is not declared JSON (what a no-cors fetch or a form can send), a `Host`
/// that is not loopback (DNS rebinding). A new session always runs ``binary`` with
/// `--automation` and ``arguments``, whatever the client asked for.
struct WebDriverGate: Sendable {
    /// The hybrid-run every session runs (this executable).
    let binary: String
    /// Given to every session after `--automation`: hybrid-run webdriver's own session flags.
    let arguments: [String]
    /// Whether a `binary` a client names is this executable under another path (a symbolic link).
    let isSameExecutable: @Sendable (String) -> Bool
    /// The largest request body forwarded: 64 MiB (a `send_keys` of a large file's text fits).
    var maximumBodyLength = 64 << 20

    /// How to go on with a request whose head was read.
    enum Decision: Equatable {
        /// Send `head` to WebKitWebDriver, then the `bodyLength` bytes of body that follow the
        /// head; when `sendContinue`, first tell the client `100 Continue` (it waits for that
        /// before sending the body). `newSession`: the body is rewritten by ``rewriteNewSession(_:)``
        /// and `head` gets its `Content-Length` after that.
        case forward(head: [UInt8], bodyLength: Int, sendContinue: Bool, newSession: Bool)
        case refuse(WebDriverRefusal)
    }

    func decide(_ head: HTTPMessageHead) -> Decision {
        let (method, target, version) = head.startLine
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { return .refuse(.invalid("unsupported HTTP version \(version)")) }
        if head.fields.contains(where: { $0.name.caseInsensitiveCompare("Origin") == .orderedSame }) {
            return .refuse(.browserMade("the request has an Origin header"))
        }
        if let field = head.fields.first(where: { $0.name.lowercased().hasPrefix("sec-fetch-") }) {
            return .refuse(.browserMade("the request has a \(field.name) header"))
        }
        let hosts = head.values("Host")
        guard hosts.count == 1, let host = hosts.first else { return .refuse(.invalid("a request needs exactly one Host header")) }
        guard Self.isLoopbackHost(host) else {
            return .refuse(.browserMade("the Host header \(JSONValue.quoted(host)) does not name a loopback address (DNS rebinding?)"))
        }
        guard ["GET", "POST", "DELETE"].contains(method) else {
            return .refuse(WebDriverRefusal(status: 405, error: "unknown method", message: "WebDriver has no \(method) commands"))
        }
        guard let segments = Self.pathSegments(target) else {
            return .refuse(.invalid("the request path \(JSONValue.quoted(target)) is not a plain WebDriver path (no %, ?, #, . or .. segments)"))
        }
        if !head.values("Transfer-Encoding").isEmpty {
            return .refuse(.invalid("chunked request bodies are not accepted; send Content-Length"))
        }
        let lengths = head.values("Content-Length")
        guard lengths.count <= 1 else { return .refuse(.invalid("more than one Content-Length header")) }
        var bodyLength = 0
        if let text = lengths.first {
            guard !text.isEmpty, text.utf8.count <= 12, text.utf8.allSatisfy({ (48...57).contains($0) }), let length = Int(text) else {
                return .refuse(.invalid("the Content-Length \(JSONValue.quoted(text)) is not a number"))
            }
            bodyLength = length
        }
        guard bodyLength <= maximumBodyLength else {
            return .refuse(.invalid("the request body has \(bodyLength) bytes; at most \(maximumBodyLength) are accepted", status: 413))
        }
        if bodyLength > 0 {
            let types = head.values("Content-Type")
            guard types.count == 1, let type = types.first, Self.isJSON(type) else {
                let given = types.first.map { "Content-Type \(JSONValue.quoted($0))" } ?? "no Content-Type"
                return .refuse(.browserMade("a request body must be declared application/json, not \(given)"))
            }
        }
        var sendContinue = false
        for expectation in head.values("Expect") {
            guard expectation.lowercased() == "100-continue" else { return .refuse(.invalid("unsupported Expect: \(expectation)")) }
            sendContinue = bodyLength > 0
        }
        let newSession = method == "POST" && segments == ["session"]
        // The body goes with the head at once, so WebKitWebDriver must not wait to say 100 Continue.
        var forwarded = sendContinue ? Self.head(head, without: ["Expect"]) : head.raw
        if newSession { forwarded = Self.head(head, without: ["Expect", "Content-Length"]) }
        return .forward(head: forwarded, bodyLength: bodyLength, sendContinue: sendContinue, newSession: newSession)
    }

    /// The new-session request to send instead: `head` (from ``decide(_:)``, without a length)
    /// with the rewritten body and its `Content-Length`.
    func newSessionRequest(head: [UInt8], body: [UInt8]) -> Result<[UInt8], WebDriverRefusal> {
        rewriteNewSession(body).map { rewritten in
            var request = Array(head.dropLast(2))
            request += Array("Content-Length: \(rewritten.count)\r\n\r\n".utf8)
            return request + rewritten
        }
    }

    /// `host[:port]` naming this machine: `localhost`, an IPv4 address in 127.0.0.0/8 or `[::1]`.
    static func isLoopbackHost(_ field: String) -> Bool {
        var host = Substring(field.lowercased())
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || Self.isPort(rest.dropFirst()) && rest.first == ":" else { return false }
            return host[host.index(after: host.startIndex)..<close] == "::1"
        }
        if let colon = host.firstIndex(of: ":") {
            guard isPort(host[host.index(after: colon)...]) else { return false }
            host = host[..<colon]
        }
        if host == "localhost" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.first == "127" else { return false }
        return octets.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.utf8.allSatisfy { (48...57).contains($0) } && Int($0)! <= 255 }
    }

    private static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 5 && text.utf8.allSatisfy { (48...57).contains($0) }
    }

    /// The non-empty segments of an origin-form target, as WebKitWebDriver splits it; nil for a
    /// target it might read otherwise (percent-escapes, a query, `.` segments).
    static func pathSegments(_ target: String) -> [Substring]? {
        guard target.hasPrefix("/") else { return nil }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/:@!$&'()*+,;=".utf8)
        guard target.utf8.allSatisfy(allowed.contains) else { return nil }
        let segments = target.split(separator: "/")
        guard !segments.contains(where: { $0 == "." || $0 == ".." }) else { return nil }
        return segments
    }

    /// `application/json`, with parameters or none.
    static func isJSON(_ contentType: String) -> Bool {
        let media = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return media.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }

    /// The head's bytes without the fields named `names`, other lines unchanged.
    private static func head(_ head: HTTPMessageHead, without names: [String]) -> [UInt8] {
        var lines = String(decoding: head.raw, as: UTF8.self).components(separatedBy: "\r\n")
        lines = lines.enumerated().filter { index, line in
            guard index > 0, let colon = line.firstIndex(of: ":") else { return true }
            return !names.contains { String(line[..<colon]).caseInsensitiveCompare($0) == .orderedSame }
        }.map(\.element)
        return Array(lines.joined(separator: "\r\n").utf8)
    }
}
