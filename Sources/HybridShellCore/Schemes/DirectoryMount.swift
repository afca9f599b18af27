import Foundation

/// A directory served on a custom scheme: `hybrid-run --dir-handler app:./dist` or
/// `dir_handlers = ["app:./dist"]` in a configuration file (like Cog's `--dir-handler=SCHEME:PATH`).
public struct DirectoryMount: Sendable, Equatable {
    public let scheme: String
    /// Absolute and standardised.
    public let path: String

    public init(scheme: String, path: String) {
        self.scheme = scheme.lowercased()
        self.path = path
    }

    /// Parses `SCHEME:PATH`; a relative path is taken from `base` (the current directory for the
    /// flag, the configuration file's directory for the key).
    public init(parsing text: String, relativeTo base: String) throws(ShellError) {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
            throw .invalidArgument("a directory handler is SCHEME:PATH, like app:./dist, not \(JSONValue.quoted(text))")
        }
        let scheme = String(text[..<colon])
        let given = String(text[text.index(after: colon)...])
        guard !given.isEmpty else { throw .invalidArgument("the directory handler \(JSONValue.quoted(text)) names no directory") }
        let absolute = given.hasPrefix("/") ? given : base + "/" + given
        // Checks the scheme name now, with the same rules as registration.
        _ = try SchemeRegistration(scheme: scheme, handler: SchemeHandlerClosure { _ in .error(404, "") })
        self.init(scheme: scheme, path: URL(fileURLWithPath: absolute).standardizedFileURL.path)
    }

    /// The absolute directory a file is in (a configuration file's paths are relative to it).
    public static func directory(containing file: String) -> String {
        URL(fileURLWithPath: file).standardizedFileURL.deletingLastPathComponent().path
    }

    public func registration() throws(ShellError) -> SchemeRegistration {
        var registration = try SchemeRegistration(scheme: scheme, handler: try DirectoryHandler(root: path), security: .app)
        // Media of `scheme:///…` pages plays (the documented form of a directory mount's URLs).
        registration.mediaHosts = [""]
        return registration
    }
}
