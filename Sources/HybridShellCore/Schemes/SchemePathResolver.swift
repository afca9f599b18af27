import Foundation

/// Maps the raw path of a scheme request to a file under a root directory, refusing everything
/// that could leave it. Pure: the file system is reached only through the injected closures.
///
/// WebKit removes literal `.`/`..` segments before a handler sees the path, but `..%2f`, `%00`,
/// `//` and backslashes arrive raw, so the path is checked segment by segment before *and* after
/// percent-decoding, and the final file's real path (symlinks resolved) must stay under the root.
public struct SchemePathResolver: Sendable {
    public enum Resolution: Sendable, Equatable {
        /// A regular file: its real path.
        case file(String)
        /// Nothing there (404).
        case notFound
        /// A path that tries to leave the root or names something hidden (403), with the reason.
        case forbidden(String)
    }

    public enum Kind: Sendable { case file, directory }

    /// The root's real path (symlinks resolved).
    public let root: String
    let realPath: @Sendable (String) -> String?
    let kind: @Sendable (String) -> Kind?

    public init(root: String, realPath: @escaping @Sendable (String) -> String? = SchemePathResolver.realPathOnDisk,
                kind: @escaping @Sendable (String) -> Kind? = SchemePathResolver.kindOnDisk) {
        let resolved = realPath(root) ?? root
        self.root = resolved.count > 1 && resolved.hasSuffix("/") ? String(resolved.dropLast()) : resolved
        self.realPath = realPath
        self.kind = kind
    }

    /// The decoded segments of `rawPath`, or why it is refused. An empty list is the root.
    public static func segments(of rawPath: String) -> Result<[String], Refusal> {
        guard rawPath.hasPrefix("/") else { return .failure(Refusal("the path must start with /")) }
        guard !rawPath.contains("\\") else { return .failure(Refusal("backslash in path")) }
        if rawPath.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return .failure(Refusal("control character in path"))
        }
        var pieces = rawPath.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if pieces.last == "" { pieces.removeLast() }  // a trailing slash names the directory
        var decoded: [String] = []
        for piece in pieces {
            guard !piece.isEmpty else { return .failure(Refusal("empty segment (//) in path")) }
            guard let segment = piece.removingPercentEncoding else { return .failure(Refusal("invalid percent-encoding in path")) }
            if segment.contains("/") || segment.contains("\\") { return .failure(Refusal("encoded slash or backslash in path")) }
            if segment.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                return .failure(Refusal("encoded control character (such as %00) in path"))
            }
            if segment == "." || segment == ".." { return .failure(Refusal("dot-segment in path")) }
            if segment.hasPrefix(".") { return .failure(Refusal("hidden file in path")) }
            decoded.append(segment)
        }
        return .success(decoded)
    }

    /// Resolves a request path; directories answer with their `index.html`.
    public func resolve(_ rawPath: String) -> Resolution {
        let segments: [String]
        switch Self.segments(of: rawPath) {
        case .failure(let refusal): return .forbidden(refusal.reason)
        case .success(let value): segments = value
        }
        var candidate = ([root == "/" ? "" : root] + segments).joined(separator: "/")
        if segments.isEmpty { candidate = root }
        guard let real = realPath(candidate) else { return .notFound }
        guard isInsideRoot(real) else { return .forbidden("the path leaves the root through a symbolic link") }
        switch kind(real) {
        case .file?:
            return .file(real)
        case .directory?:
            guard let index = realPath(real + "/index.html") else { return .notFound }
            guard isInsideRoot(index) else { return .forbidden("the index leaves the root through a symbolic link") }
            return kind(index) == .file ? .file(index) : .notFound
        case nil:
            return .notFound
        }
    }

    private func isInsideRoot(_ real: String) -> Bool {
        real == root || real.hasPrefix(root == "/" ? "/" : root + "/")
    }

    public struct Refusal: Error, Sendable, Equatable {
        public let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    public static let realPathOnDisk: @Sendable (String) -> String? = { path in
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    public static let kindOnDisk: @Sendable (String) -> Kind? = { path in
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return nil
        }
    }
}
