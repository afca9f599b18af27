import HybridShellCore
import HybridShellWebKit

/// Where a kiosk may navigate: the home page, `about:` documents, and URLs matching the profile's
/// patterns (`*` = any run of characters). With no patterns, the home's own origin (for a local
/// home: its directory and below).
public struct KioskAllowList: Sendable, Equatable {
    public let home: String
    public let patterns: [String]

    public init(home: String, patterns: [String]) {
        self.home = home
        self.patterns = patterns.isEmpty ? [Self.defaultPattern(for: home)] : patterns
    }

    public func allows(_ url: String) -> Bool {
        if url == home || url.hasPrefix("about:") { return true }
        return patterns.contains { URLPattern.matches($0, url) }
    }

    static func defaultPattern(for home: String) -> String {
        if home.hasPrefix("file://") {
            let path = home.split(separator: "?", maxSplits: 1)[0].split(separator: "#", maxSplits: 1)[0]
            guard let slash = path.lastIndex(of: "/") else { return home }
            return String(path[...slash]) + "*"
        }
        guard let schemeEnd = home.range(of: "://") else { return home }
        let rest = home[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return String(home[..<schemeEnd.upperBound]) + authority + "/*"
    }
}
