import Foundation
import HybridShellCore
import HybridShellWebKit

/// Serving installed offline packages to pages: where the store is, which keys it trusts, the
/// preset shipped with the app, the app to open and where failures are reported. Read from a
/// shell configuration file (`trusted_keys`, `preset`, `package`, `report_url`) and flags.
public struct PackageServing: Sendable, Equatable {
    /// The scheme packages are served on: `app://<appID>/…`.
    public static let scheme = PackageSchemeHandler.scheme
    /// The configuration-file keys this reads (pass them as `extraSections` to ``ShellConfiguration/load(path:extraSections:)``).
    public static let keys: Set<String> = ["trusted_keys", "preset", "package", "report_url", "update_url", "update_interval"]
    /// How often the update manager checks when `update_interval` is not given.
    public static let defaultUpdateInterval = Duration.seconds(3600)
    /// The allowed `update_interval` in seconds (0: only the check at start).
    public static let updateIntervals: ClosedRange<Double> = 0...604_800

    /// Public key files (`.pub`), at most two.
    public var trustedKeys: [String] = []
    /// A preset package installed at start when newer than what is installed.
    public var preset: String?
    /// The app whose entry page to open (`--package`).
    public var package: String?
    /// Failures are POSTed here as JSON (the update server's failure endpoint).
    public var reportURL: URL?
    /// Where the signed update index is (`index.json` + `index.json.sig` under it): checked at
    /// start and every ``updateInterval`` by ``PackageUpdates``.
    public var updateURL: URL?
    /// Time between two update checks (nil: ``defaultUpdateInterval``; zero: only at start).
    public var updateInterval: Duration?

    public init() {}

    /// Reads the keys of a configuration file; paths are relative to the file's directory.
    public static func read(_ reader: ConfigReader) throws(ShellError) -> PackageServing {
        var serving = PackageServing()
        let base = DirectoryMount.directory(containing: reader.document.file)
        serving.trustedKeys = (try reader.strings("trusted_keys") ?? []).map { absolute($0, base) }
        serving.preset = try reader.string("preset").map { absolute($0, base) }
        if let package = try reader.string("package") {
            if let problem = PackageManifest.appIDProblem(package) { throw reader.error("package", "the app id \(problem)") }
            serving.package = package
        }
        if let text = try reader.string("report_url") {
            do throws(ShellError) { serving.reportURL = try reportURL(text) } catch { throw reader.error("report_url", error.description) }
        }
        if let text = try reader.string("update_url") {
            do throws(ShellError) { serving.updateURL = try updateURL(text, relativeTo: base) } catch { throw reader.error("update_url", error.description) }
        }
        serving.updateInterval = try reader.seconds("update_interval", in: updateIntervals)
        return serving
    }

    /// The update index's base: an http(s) URL, or a local mirror (a `file:` URL or a path, relative
    /// to `base`); a precise error otherwise.
    public static func updateURL(_ text: String, relativeTo base: String = PageLocation.currentDirectory) throws(ShellError) -> URL {
        if !text.contains("://") { return URL(fileURLWithPath: absolute(text, base), isDirectory: true) }
        guard let url = URL(string: text), ["http", "https", "file"].contains(url.scheme?.lowercased() ?? ""),
              url.scheme?.lowercased() == "file" || url.host != nil else {
            throw .invalidArgument("the update URL must be an http(s) or file URL (where index.json and index.json.sig are), not \(JSONValue.quoted(text))")
        }
        return url
    }

    /// `--update-interval SECONDS`: a duration in ``updateIntervals``.
    public static func updateInterval(_ seconds: Double) throws(ShellError) -> Duration {
        guard updateIntervals.contains(seconds) else {
            throw .invalidArgument("the update interval must be 0 (only at start) to \(Int(updateIntervals.upperBound)) seconds, not \(seconds)")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// An http(s) URL for failure reports, or a precise error.
    public static func reportURL(_ text: String) throws(ShellError) -> URL {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw .invalidArgument("the report URL must be an http(s) URL, not \(JSONValue.quoted(text))")
        }
        return url
    }

    /// `app://<appID>/` for the app's entry page (the handler answers `/` with the entry).
    public static func rootURL(of appID: String) throws(ShellError) -> String {
        if let problem = PackageManifest.appIDProblem(appID) {
            throw .invalidArgument("the app id \(JSONValue.quoted(appID)) \(problem)")
        }
        return "\(scheme)://\(appID.lowercased())/"
    }

    /// `app://<appID>/<entry>`: the page URL of the app's active entry page.
    public static func entryURL(of package: InstalledPackage, path file: String? = nil) -> String {
        let path = (file ?? package.entry).split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0) }
        return "\(scheme)://\(package.appID.lowercased())/" + path.joined(separator: "/")
    }

    /// The store of a data directory (`DIR/packages`), as the package commands use it.
    public static func storeDirectory(dataDirectory: String) -> URL {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("packages")
    }

    /// `configuration` with the package scheme registered on its context. A directory mounted on
    /// the same scheme (`--dir-handler app:DIR`) keeps answering host-less `app:///…` URLs.
    /// `pathMap` (``PathMapExtension/map(_:onlineBase:)``) names the files other origins may load.
    @discardableResult
    public static func register(_ store: PackageStore, in configuration: inout ShellConfiguration,
                                pathMap: [String: String] = [:]) throws(ShellError) -> PackageSchemeHandler {
        var fallback: (any URLSchemeHandler)?
        if let index = configuration.dirHandlers.firstIndex(where: { $0.scheme == scheme }) {
            fallback = try DirectoryHandler(root: configuration.dirHandlers[index].path)
            configuration.dirHandlers.remove(at: index)
        }
        let handler = PackageSchemeHandler(store: store, fallback: fallback, pathMap: pathMap)
        var registration = try SchemeRegistration(scheme: scheme, handler: handler, security: .app)
        // Each installed app's pages play its own media (and a directory mount's, `app:///…`).
        registration.mediaHosts = Array(Set(store.list().map { $0.appID.lowercased() })).sorted() + (fallback == nil ? [] : [""])
        configuration.context.schemes.append(registration)
        return handler
    }

    static func absolute(_ path: String, _ base: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: base + "/" + path).standardizedFileURL.path
    }
}
