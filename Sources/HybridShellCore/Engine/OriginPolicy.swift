import Foundation

/// Which documents may use the bridge, decided from the origin the document's isolated-world relay
/// reports (a page cannot forge it). By default: the origin of the page the shell opened.
public struct OriginPolicy: Sendable, Equatable {
    public var patterns: [OriginPattern]

    public init(patterns: [OriginPattern]) {
        self.patterns = patterns
    }

    /// The origin of `url` plus `additional` patterns.
    public static func opening(_ url: String, additional: [OriginPattern] = []) -> OriginPolicy {
        let own = WebOrigin.of(url).flatMap { try? OriginPattern(parsing: $0) }
        return OriginPolicy(patterns: (own.map { [$0] } ?? []) + additional)
    }

    /// Every origin except opaque ones (`null`).
    public static let anyOrigin = OriginPolicy(patterns: [OriginPattern.any])

    public func allows(origin: String) -> Bool {
        guard origin != "null", !origin.isEmpty else { return false }
        return patterns.contains { $0.matches(origin) }
    }
}

/// `scheme://host[:port]`, where host may be `*` or `*.example.org` and port `*`; `file://` for
/// local files; `*` for every non-opaque origin.
public struct OriginPattern: Sendable, Equatable, CustomStringConvertible {
    let scheme: String
    let host: String
    let port: String?
    public let description: String

    static let any = OriginPattern(scheme: "*", host: "*", port: "*", description: "*")

    private init(scheme: String, host: String, port: String?, description: String) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.description = description
    }

    public init(parsing text: String) throws(ShellError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "*" { self = .any; return }
        guard let separator = trimmed.range(of: "://") else {
            throw .invalidArgument("origin pattern \(JSONValue.quoted(text)) needs a scheme, like http://127.0.0.1:8000 or https://*.example.org")
        }
        let scheme = trimmed[..<separator.lowerBound].lowercased()
        let rest = String(trimmed[separator.upperBound...])
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else {
            throw .invalidArgument("origin pattern \(JSONValue.quoted(text)) has an invalid scheme")
        }
        if scheme == "file" {
            guard rest.isEmpty else { throw .invalidArgument("a file origin is just file:// (local files have no host), not \(JSONValue.quoted(text))") }
            self.init(scheme: "file", host: "", port: nil, description: "file://")
            return
        }
        guard !rest.contains("/"), !rest.contains("?"), !rest.contains("#"), !rest.contains("@") else {
            throw .invalidArgument("origin pattern \(JSONValue.quoted(text)) must not have a path, query or user (an origin is scheme://host:port)")
        }
        var host = rest.lowercased()
        var port: String?
        if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") {
            let portText = String(host[host.index(after: colon)...])
            guard portText == "*" || (Int(portText).map { (1...65535).contains($0) } ?? false) else {
                throw .invalidArgument("origin pattern \(JSONValue.quoted(text)) has an invalid port \(JSONValue.quoted(portText))")
            }
            port = portText
            host = String(host[..<colon])
        }
        // A custom scheme's page may have no host (app:///index.html has the origin app://).
        guard !host.isEmpty || WebOrigin.defaultPort(scheme) == nil else { throw .invalidArgument("origin pattern \(JSONValue.quoted(text)) has no host") }
        if host.contains("*"), host != "*", !(host.hasPrefix("*.") && !host.dropFirst(2).contains("*")) {
            throw .invalidArgument("origin pattern \(JSONValue.quoted(text)): * may only stand for the whole host or a leading label (*.example.org)")
        }
        // An explicit default port is the same origin as no port.
        if let given = port, given == WebOrigin.defaultPort(scheme).map(String.init) { port = nil }
        self.init(scheme: scheme, host: host, port: port,
                  description: "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")")
    }

    package func matches(_ origin: String) -> Bool {
        if scheme == "*" { return true }
        guard let parsed = WebOrigin.parse(origin), parsed.scheme == scheme else { return false }
        if scheme == "file" { return parsed.host.isEmpty }
        let hostMatches = host == "*" || host == parsed.host
            || (host.hasPrefix("*.") && parsed.host.hasSuffix(String(host.dropFirst(1))))
        let portMatches = port == "*" || port == parsed.port
        return hostMatches && portMatches
    }
}
