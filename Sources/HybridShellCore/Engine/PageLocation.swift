import Foundation

/// Turns what a user typed after `--url` into a URL WebKit can load: a web address, a `file:`,
/// `about:` or `data:` URL, or a path to a local file (relative to the current directory).
public enum PageLocation {
    public static let supportedSchemes = ["http", "https", "file", "about", "data"]

    public enum FileKind: Sendable { case file, directory }

    /// The process's working directory, against which relative page paths resolve.
    public static var currentDirectory: String { FileManager.default.currentDirectoryPath }

    /// - Parameter fileKind: what exists at a path (nil: nothing); injected so tests need no disk.
    /// - Parameter customSchemes: schemes registered on the web context (`app` for `app:///index.html`).
    public static func resolve(_ input: String, currentDirectory: String,
                               fileKind: (String) -> FileKind? = PageLocation.fileKindOnDisk,
                               customSchemes: [String] = []) throws(ShellError) -> String {
        let trimmed = input.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidArgument("the page address is empty") }
        guard !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .invalidURL(trimmed, reason: "it contains control characters")
        }
        if let scheme = scheme(of: trimmed) {
            if customSchemes.contains(scheme) { return try resolveCustom(trimmed) }
            return try resolveURL(trimmed, scheme: scheme, fileKind: fileKind)
        }
        // A path may carry ?query or #fragment (pages read their parameters from location).
        var (pathPart, suffix) = (trimmed, "")
        if let mark = trimmed.firstIndex(where: { $0 == "?" || $0 == "#" }),
           fileKind(absolute(trimmed, currentDirectory)) == nil {
            (pathPart, suffix) = (String(trimmed[..<mark]), String(trimmed[mark...]))
        }
        let standardized = URL(fileURLWithPath: absolute(pathPart, currentDirectory)).standardizedFileURL.path
        return try fileURL(for: standardized, typed: pathPart, fileKind: fileKind) + encodedSuffix(suffix)
    }

    private static func absolute(_ path: String, _ currentDirectory: String) -> String {
        path.hasPrefix("/") ? path : currentDirectory + "/" + path
    }

    private static func encodedSuffix(_ suffix: String) -> String {
        suffix.addingPercentEncoding(withAllowedCharacters: CharacterSet.urlQueryAllowed.union(.urlFragmentAllowed).union(CharacterSet(charactersIn: "#"))) ?? suffix
    }

    /// The scheme, when the input is written as a URL (`scheme:` followed by `//`, or one of the
    /// schemes that never have an authority).
    private static func scheme(of input: String) -> String? {
        guard let colon = input.firstIndex(of: ":") else { return nil }
        let scheme = input[..<colon].lowercased()
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first),
              scheme.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return nil }
        let rest = input[input.index(after: colon)...]
        if rest.hasPrefix("//") || ["about", "data", "javascript", "mailto", "blob"].contains(scheme) { return scheme }
        return nil
    }

    private static func resolveURL(_ input: String, scheme: String, fileKind: (String) -> FileKind?) throws(ShellError) -> String {
        guard supportedSchemes.contains(scheme) else {
            throw .invalidURL(input, reason: "unsupported scheme '\(scheme)' (use one of: \(supportedSchemes.joined(separator: ", ")))")
        }
        guard let url = URL(string: input) else { throw .invalidURL(input, reason: "it is not a well-formed URL") }
        switch scheme {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else { throw .invalidURL(input, reason: "it has no host") }
            if let port = url.port, !(1...65535).contains(port) { throw .invalidURL(input, reason: "port \(port) is out of range") }
            return canonicalWebAddress(url)
        case "file":
            guard url.host == nil || url.host == "" || url.host == "localhost" else {
                throw .invalidURL(input, reason: "file URLs on another host are not supported")
            }
            let suffix = (url.query.map { "?" + $0 } ?? "") + (url.fragment.map { "#" + $0 } ?? "")
            return try fileURL(for: url.path, typed: input, fileKind: fileKind) + suffix
        default:
            return input
        }
    }

    /// The URL with its scheme and host in lower case, as WebKit will report it (`HTTP://Example.org/`
    /// loads as `http://example.org/`): a kiosk's allow-list and the bridge's origin checks compare
    /// against what WebKit reports, and an upper-case home matched nothing (`http.request` too: URLSession
    /// refused an upper-case scheme).
    static func canonicalWebAddress(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.scheme = components.scheme?.lowercased()
        if let host = components.percentEncodedHost { components.percentEncodedHost = host.lowercased() }
        return components.string ?? url.absoluteString
    }

    /// A URL of a scheme registered on the context: well-formed is all we can check.
    private static func resolveCustom(_ input: String) throws(ShellError) -> String {
        guard let url = URL(string: input), url.scheme != nil else { throw .invalidURL(input, reason: "it is not a well-formed URL") }
        return input
    }

    private static func fileURL(for path: String, typed: String, fileKind: (String) -> FileKind?) throws(ShellError) -> String {
        switch fileKind(path) {
        case .file?:
            return URL(fileURLWithPath: path).absoluteString
        case .directory?:
            let index = path.hasSuffix("/") ? path + "index.html" : path + "/index.html"
            guard fileKind(index) == .file else {
                throw .fileNotFound("\(path) is a directory without an index.html")
            }
            return URL(fileURLWithPath: index).absoluteString
        case nil:
            let hint = looksLikeWebAddress(typed) ? " (for a web address, include the scheme: http://\(typed))" : ""
            throw .fileNotFound(path + hint)
        }
    }

    /// `example.org`, `localhost:8080/x`: a host (with a dot or a port) where a path was expected.
    private static func looksLikeWebAddress(_ typed: String) -> Bool {
        guard !typed.hasPrefix("/"), !typed.hasPrefix("."), !typed.contains("://") else { return false }
        let host = typed.split(separator: "/", omittingEmptySubsequences: false).first ?? ""
        if host.contains(":") { return true }
        let pageExtensions = [".html", ".htm", ".xhtml", ".svg", ".txt", ".json"]
        return host.contains(".") && !pageExtensions.contains { host.lowercased().hasSuffix($0) }
    }

    public static func fileKindOnDisk(_ path: String) -> FileKind? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        return isDirectory.boolValue ? .directory : .file
    }
}
