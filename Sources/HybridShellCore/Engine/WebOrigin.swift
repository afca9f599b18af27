import Foundation

/// Origins as `location.origin` writes them (`http://host:port`, default ports omitted; `file://`).
package enum WebOrigin {
    static func defaultPort(_ scheme: String) -> Int? {
        ["http": 80, "https": 443, "ws": 80, "wss": 443][scheme]
    }

    static let opaqueSchemes: Set<String> = ["about", "data", "blob", "javascript"]

    /// The origin of a URL, or nil for URLs whose origin is opaque.
    package static func of(_ url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else { return nil }
        if scheme == "file" { return "file://" }
        // Custom schemes (request interception, issue 13): scheme://host[:port], host possibly empty.
        if defaultPort(scheme) == nil {
            guard url.dropFirst(scheme.count).hasPrefix("://"), !opaqueSchemes.contains(scheme) else { return nil }
            let host = components.host?.lowercased() ?? ""
            return "\(scheme)://\(host)\(components.port.map { ":\($0)" } ?? "")"
        }
        guard let host = components.host?.lowercased(), !host.isEmpty else { return nil }
        if let port = components.port, port != defaultPort(scheme) { return "\(scheme)://\(host):\(port)" }
        return "\(scheme)://\(host)"
    }

    package static func parse(_ origin: String) -> (scheme: String, host: String, port: String?)? {
        guard let separator = origin.range(of: "://") else { return nil }
        let scheme = origin[..<separator.lowerBound].lowercased()
        var host = String(origin[separator.upperBound...]).lowercased()
        var port: String?
        if let colon = host.lastIndex(of: ":"), !host.hasSuffix("]") {
            port = String(host[host.index(after: colon)...])
            host = String(host[..<colon])
        }
        return (scheme, host, port)
    }
}
