/// The rules for a file path inside a package: relative, `/`-separated, no `.`/`..`/empty
/// components, no backslash, NUL or control characters, at most 1 024 bytes and 255 bytes per
/// component (`NAME_MAX`: a longer name verifies but cannot be created on disk). Both the manifest and
/// every archive entry name are held to them, so nothing can land outside the install directory.
enum PackagePath {
    static let maximumLength = 1024
    static let maximumComponentLength = 255

    /// Why `path` is not a safe package path, or nil when it is.
    static func problem(_ path: String) -> String? {
        if path.isEmpty { return "empty name" }
        if path.utf8.count > maximumLength { return "name longer than \(maximumLength) bytes" }
        if path.utf8.contains(0) { return "NUL in name" }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "control character in name" }
        if path.contains("\\") { return "backslash in name (a Windows path separator)" }
        if path.hasPrefix("/") { return "absolute path" }
        if path.unicodeScalars.contains("\u{FFFD}") { return "name is not valid UTF-8" }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        if components.contains("..") { return "parent directory (..) in path" }
        if components.contains(".") { return "current directory (.) in path" }
        if components.contains("") { return path.hasSuffix("/") ? "directory entry" : "empty path component" }
        if let first = components.first, first.count == 2, first.hasSuffix(":") { return "drive letter in path" }
        if components.contains(where: { $0.utf8.count > maximumComponentLength }) {
            return "a path component longer than \(maximumComponentLength) bytes"
        }
        return nil
    }

    /// The key two paths collide under on a case-insensitive file system.
    static func caseFolded(_ path: String) -> String { path.lowercased() }
}
