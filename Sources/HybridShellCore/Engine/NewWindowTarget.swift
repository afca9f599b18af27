/// Which URLs a page may have opened through `window.open` / `target=_blank`, decided before the
/// shell loads them itself — a load the shell starts bypasses WebKit's own rule against a web page
/// navigating to `file:`, so a frame could otherwise make the top view load a local file.
public enum NewWindowTarget {
    /// Schemes any page may open.
    static let openToAll: Set<String> = ["http", "https"]

    /// Whether a page showing `openerURL` may have `url` opened: http(s) always, `about:blank`
    /// (scripts fill it), and any other scheme (`file:`, `data:`, `javascript:`, custom schemes)
    /// only when the opener's own document has that scheme.
    public static func allows(_ url: String, openedFrom openerURL: String?) -> Bool {
        if url.isEmpty || url == "about:blank" { return true }
        guard let scheme = scheme(of: url) else { return false }
        if openToAll.contains(scheme) { return true }
        return openerURL.flatMap(Self.scheme(of:)) == scheme
    }

    static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon]
        guard let first = scheme.first, first.isLetter,
              scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) else { return nil }
        return scheme.lowercased()
    }
}
