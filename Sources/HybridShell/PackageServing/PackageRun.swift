import Foundation
import HybridShellCore
import HybridShellWebKit

/// Installed offline packages wired into one shell: the store served on `app://<app-id>/` from a
/// data directory, the preset installed at start, the app opened, and the store's events.
///
/// What an app that embeds HybridShell calls to serve its signed package (`hybrid-run --package`
/// is a thin layer over it): ``prepare(_:shell:route:)`` before the ``PageManager`` is made (it
/// registers the scheme, a WebKit URI-scheme handler, and the path-map web-process extension),
/// then ``start(route:)`` once the loop runs, and ``finish()`` at the end.
public struct PackageRun: Sendable {
    /// Why a package run cannot be set up or started.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// A package or preset was asked for, but the shell keeps no data directory.
        case needsDataDirectory
        /// A preset was given without a key to verify it with.
        case presetNeedsTrustedKey
        /// An update URL was given without a key to verify the index and packages with.
        case updateNeedsTrustedKey
        /// A package was asked for without a key: installed files are checked against their
        /// signature before they are served, so without one nothing would be.
        case packageNeedsTrustedKey
        /// The installed version's kept archive does not verify (tampered, or installed before
        /// archives were kept).
        case unsigned(app: String, reason: String)
        /// A trusted key file could not be read.
        case unreadableTrustedKeys(String)
        /// The app to open is not installed in the store.
        case notInstalled(app: String, store: String)
        /// The package scheme could not be registered (a directory handler on `app:` that fails).
        case registration(ShellError)

        public var description: String {
            switch self {
            case .needsDataDirectory: return "a package or preset needs a data directory (the packages live in DATA-DIR/packages)"
            case .presetNeedsTrustedKey: return "a preset needs a trusted key"
            case .updateNeedsTrustedKey: return "an update URL needs a trusted key: the update index and packages are checked against their signature"
            case .packageNeedsTrustedKey: return "a package needs a trusted key: installed packages are checked against their signature"
            case .unsigned(let app, let reason): return "the package \(app) cannot be opened as signed: \(reason)"
            case .unreadableTrustedKeys(let why): return why
            case .notInstalled(let app, let store): return "the package \(app) is not installed in \(store)"
            case .registration(let error): return error.description
            }
        }
    }

    public let serving: PackageServing
    public let store: PackageStore
    /// The store's events, forwarded to whoever prints or handles them.
    public let events: PackageEventSink
    /// The private copy of the path-map extension, removed by ``finish()``.
    public let extensionDirectory: String?
    /// The update manager for pages, when an update URL is configured: ``start(route:)`` starts its
    /// checks; the `updates` module (``ModuleHost/BuiltinOptions/updates``) shows it to pages.
    public let updates: PackageUpdates?

    /// Registers the package scheme on `shell` when it keeps a data directory, maps installed
    /// packages for online pages (path-map mode) and makes `route` accept `app:` URLs. Nil when
    /// there is no data directory and neither a package nor a preset was asked for.
    public static func prepare(_ serving: PackageServing, shell: inout ShellConfiguration, route: inout WebRoute) throws(Failure) -> PackageRun? {
        guard case .persistent(let dataDirectory) = shell.storage else {
            if serving.package != nil || serving.preset != nil || serving.updateURL != nil { throw .needsDataDirectory }
            return nil
        }
        if serving.preset != nil, serving.trustedKeys.isEmpty { throw .presetNeedsTrustedKey }
        if serving.package != nil, serving.trustedKeys.isEmpty { throw .packageNeedsTrustedKey }
        if serving.updateURL != nil, serving.trustedKeys.isEmpty { throw .updateNeedsTrustedKey }
        let events = PackageEventSink()
        let keys: TrustedKeys
        do {
            // Without a key nothing verifies, so no package is served (500 and a packageFailed event).
            keys = serving.trustedKeys.isEmpty ? try TrustedKeys([PackageSigningKey().publicKey])
                : try TrustedKeys(files: serving.trustedKeys.map { URL(fileURLWithPath: $0) })
        } catch {
            throw .unreadableTrustedKeys("\(error)")
        }
        let store = PackageStore(directory: PackageServing.storeDirectory(dataDirectory: dataDirectory), trust: keys,
                                 observer: { events.send($0) })
        // Path-map mode: online pages get the installed packages' mapped resources (relative keys
        // are taken from the opened page's URL). The rewrite happens in the web process after the
        // request's CORS checks, so `fetch` of a mapped URL needs no CORS grant on app:
        // (PathMapCommandLineTests.aMappedFileIsFetchableAndTheExtensionDirectoryIsRemoved).
        let online = try? route.request().url
        let map = serving.trustedKeys.isEmpty ? [:] : PathMapExtension.map(store.signedList(), onlineBase: online.flatMap(URL.init(string:)))
        let extensionDirectory = map.isEmpty ? nil : PathMapExtension.installedDirectory()
        if let extensionDirectory { shell.context.webExtensions = (extensionDirectory, map) }
        let handler: PackageSchemeHandler
        do { handler = try PackageServing.register(store, in: &shell, pathMap: map) } catch { throw .registration(error) }
        if !route.customSchemes.contains(PackageServing.scheme) { route.customSchemes.append(PackageServing.scheme) }
        let updates = serving.updateURL.map {
            PackageUpdates(store: store, url: $0, interval: serving.updateInterval ?? PackageServing.defaultUpdateInterval,
                           report: serving.reportURL, events: events, handler: handler)
        }
        return PackageRun(serving: serving, store: store, events: events, extensionDirectory: extensionDirectory, updates: updates)
    }

    /// Removes what the run made outside the data directory (the extension's private directory).
    public func finish() {
        if let extensionDirectory { try? FileManager.default.removeItem(atPath: extensionDirectory) }
    }

    /// Installs the preset (a failure is an event and a report; the installed version stays) and
    /// points `route` at the opened app's active entry page.
    public func start(route: WebRoute) async throws(Failure) -> WebRoute {
        if let preset = serving.preset {
            await store.applyPreset(file: URL(fileURLWithPath: preset), appVersion: Self.presetMarker(preset), report: serving.reportURL)
        }
        // The check at start runs in the background: the page opens with what is installed.
        if let updates { await updates.start() }
        guard let app = serving.package else { return route }
        guard let found = store.installed(app) ?? store.list().first(where: { $0.appID.lowercased() == app.lowercased() }) else {
            throw .notInstalled(app: app, store: store.directory.path)
        }
        // The entry page is the signed manifest's, not whatever the manifest.json on disk says now.
        let installed: InstalledPackage
        do throws(PackageError) {
            guard let signed = try store.signedInstalled(found.appID) else { throw .notInstalled("\(app) is not installed") }
            installed = signed
        } catch {
            throw .unsigned(app: app, reason: "\(error)")
        }
        var route = route
        if route.template == (try? PackageServing.rootURL(of: app)) { route.template = PackageServing.entryURL(of: installed) }
        return route
    }

    /// One marker per preset file version (size and modification time): a replaced preset is considered again.
    static func presetMarker(_ path: String) -> String {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return "missing" }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        let modified = Int64(((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0) * 1000)
        return "file-\(size)-\(modified)"
    }
}
