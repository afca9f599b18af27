import Foundation

/// Who may load `app://<appid>/…`: the app's own pages, and nothing else. Another origin's page
/// could otherwise use an app's files as `<script>`, `<img>` or `<iframe>` (and so learn what is
/// installed, or run the app's code framed under its own page). Pure: ``PackageSchemeHandler``
/// answers a refusal with 403.
///
/// - A main-frame document load is allowed (a navigation to the app is how the app is opened).
/// - Otherwise the requesting page (its top document) must be of the app's origin, and an `Origin`
///   header, when sent, must be the app's origin or `null` (a sandboxed frame of the app).
/// - The one exception is the path map (`PathMapExtension`): a mapped file is allowed for pages of
///   the origin of the online URL it replaces, exactly as mapped.
enum PackageRequestOrigin {
    /// Why the request is refused, or nil when it is allowed.
    /// - Parameters:
    ///   - pageURL: the requesting page's top document (nil: not known, taken as a top-level load).
    ///   - isDocument: the request is the page's main document itself.
    ///   - pathMap: online URL → `app://` URL, as handed to the path-map extension.
    static func refusal(requestURL: String, host: String, pageURL: String?, isDocument: Bool,
                        originHeader: String?, pathMap: [String: String]) -> String? {
        let own = "\(PackageSchemeHandler.scheme)://\(host)"
        let pageOrigin = pageURL.flatMap(origin(of:))
        let requester = originHeader.flatMap { $0 == "null" ? nil : $0 } ?? (isDocument ? nil : pageOrigin)
        if originHeader != nil, originHeader != "null", originHeader != own, !mapped(requestURL, for: originHeader!, pathMap) {
            return "\(own) content is only for \(own) pages, not for \(originHeader!)"
        }
        guard let requester, requester != own else { return nil }
        if mapped(requestURL, for: requester, pathMap) { return nil }
        return "\(own) content is only for \(own) pages, not for a page of \(requester)"
    }

    /// `scheme://host[:port]` of a URL, lower-cased as browsers compare origins.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else { return nil }
        let host = components.host?.lowercased() ?? ""
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }

    private static func mapped(_ requestURL: String, for origin: String, _ pathMap: [String: String]) -> Bool {
        let target = requestURL.prefix { $0 != "#" }
        return pathMap.contains { $0.value == target && Self.origin(of: $0.key) == origin }
    }
}
