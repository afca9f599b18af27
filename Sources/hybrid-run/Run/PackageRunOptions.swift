import ArgumentParser
import Foundation
import HybridShell
import Synchronization

/// The run command's offline-package flags: open an installed app (`--package`), trust keys,
/// install a preset at start and report failures. Packages are served on `app://<appID>/` from
/// `DATA-DIR/packages` whenever a data directory is given (see docs/offline-packages.md, Serving).
struct PackageRunOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Open the entry page of this installed offline package (needs --data-dir and --trust; served as app://APP-ID/). Example: --package shop --data-dir data --trust release.pub",
        valueName: "app-id"))
    var package: String?

    @Option(name: .long, help: ArgumentHelp("A trusted package public key (.pub), at most two: installed packages are checked against it before they are served, and --preset. Example: --trust release.pub",
                                            valueName: "file"))
    var trust: [String] = []

    @Option(name: .long, help: ArgumentHelp(
        "Before the page opens, install this preset package if it is newer than the installed version (once per preset file). Example: --preset preset.zip --trust release.pub",
        valueName: "file"))
    var preset: String?

    @Option(name: .long, help: ArgumentHelp("POST package failures (JSON with the reason) to this URL. Example: --report-url https://updates.example/report",
                                            valueName: "url"))
    var reportURL: String?

    /// The page when neither --url nor a page argument is given: the app's root, whose entry page
    /// ``PackageRun/start(route:)`` opens once the preset is in.
    func defaultPage(config: String?) throws -> String? {
        guard let app = try package ?? config.map({ try PackageServing.read(ConfigReader(ConfigDocument.load(path: $0))).package }) ?? nil
        else { return nil }
        return try PackageServing.rootURL(of: app)
    }

    /// Registers the package scheme on `shell` when it has a data directory and makes `route`
    /// accept `app:` URLs. Nil when there is no data directory and no package flag or key.
    func apply(to shell: inout ShellConfiguration, route: inout WebRoute, config: String?) throws -> PackageRun? {
        var serving = try config.map { try PackageServing.read(ConfigReader(ConfigDocument.load(path: $0))) } ?? PackageServing()
        if let package { serving.package = package }
        if !trust.isEmpty { serving.trustedKeys = trust.map { URL(fileURLWithPath: $0).standardizedFileURL.path } }
        if let preset { serving.preset = URL(fileURLWithPath: preset).standardizedFileURL.path }
        if let reportURL { serving.reportURL = try PackageServing.reportURL(reportURL) }
        guard case .persistent(let dataDirectory) = shell.storage else {
            if serving.package != nil || serving.preset != nil {
                throw ShellError.invalidArgument("--package and --preset need --data-dir (the packages live in DATA-DIR/packages)")
            }
            return nil
        }
        if serving.preset != nil, serving.trustedKeys.isEmpty {
            throw ShellError.invalidArgument("--preset needs a trusted key: --trust FILE.pub or trusted_keys in the config file")
        }
        if serving.package != nil, serving.trustedKeys.isEmpty {
            throw ShellError.invalidArgument("--package needs a trusted key (--trust FILE.pub or trusted_keys in the config file): installed packages are checked against their signature before they are served")
        }
        let events = PackageEventSink()
        let keys: TrustedKeys
        do {
            // Without a key nothing verifies, so no package is served (500 and a packageFailed event).
            keys = serving.trustedKeys.isEmpty ? try TrustedKeys([PackageSigningKey().publicKey])
                : try TrustedKeys(files: serving.trustedKeys.map { URL(fileURLWithPath: $0) })
        } catch {
            throw ShellError.invalidArgument("\(error)")
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
        try PackageServing.register(store, in: &shell, pathMap: map)
        if !route.customSchemes.contains(PackageServing.scheme) { route.customSchemes.append(PackageServing.scheme) }
        return PackageRun(serving: serving, store: store, events: events, extensionDirectory: extensionDirectory)
    }
}

/// The packages side of one run: the store served from, the preset and app to open, and the
/// events a run prints.
struct PackageRun: Sendable {
    let serving: PackageServing
    let store: PackageStore
    let events: PackageEventSink
    /// The private copy of the path-map extension, removed when the run ends.
    var extensionDirectory: String? = nil

    /// Removes what the run made outside the data directory (the extension's private directory).
    func finish() {
        if let extensionDirectory { try? FileManager.default.removeItem(atPath: extensionDirectory) }
    }

    /// Installs the preset (a failure is an event and a report; the installed version stays) and
    /// points `route` at the opened app's active entry page.
    func start(route: WebRoute) async throws(ShellError) -> WebRoute {
        if let preset = serving.preset {
            await store.applyPreset(file: URL(fileURLWithPath: preset), appVersion: Self.presetMarker(preset), report: serving.reportURL)
        }
        guard let app = serving.package else { return route }
        guard let found = store.installed(app) ?? store.list().first(where: { $0.appID.lowercased() == app.lowercased() }) else {
            throw .invalidArgument("the package \(app) is not installed in \(store.directory.path) (install it with: package install FILE --data-dir …)")
        }
        // The entry page is the signed manifest's, not whatever the manifest.json on disk says now.
        let installed: InstalledPackage
        do throws(PackageError) {
            guard let signed = try store.signedInstalled(found.appID) else { throw .notInstalled("\(app) is not installed") }
            installed = signed
        } catch {
            throw .invalidArgument("the package \(app) cannot be opened as signed: \(error) (reinstall it)")
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

/// Forwards the store's events to whoever prints them (set once the run starts).
final class PackageEventSink: Sendable {
    private let target = Mutex<(@Sendable (PackageEvent) -> Void)?>(nil)

    func forward(to body: @escaping @Sendable (PackageEvent) -> Void) { target.withLock { $0 = body } }
    func send(_ event: PackageEvent) { target.withLock { $0 }?(event) }
}
