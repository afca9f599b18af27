import Foundation
import HybridShellCore
import HybridShellWebKit

/// An installed H5 app running as a desktop app (what `hybrid-run app` runs): one instance per
/// app id (``SingleInstance``, a `GtkApplication`), whose later launches hand their URLs to it;
/// the page gets them as `hybrid.on('open', e => e.urls)` and Swift as ``onOpen``. The window's
/// geometry is restored from the last run, data lives in ``DesktopAppOptions/dataDirectory``, and
/// the installed package is served (``PackageRun``).
///
///     let app = try DesktopApp(options: options)
///     app.onOpen = { urls in print(urls) }
///     guard try await app.start(opening: urls) else { return }   // forwarded to the running one
@EngineActor
public final class DesktopApp {
    public let options: DesktopAppOptions
    /// URLs this instance was asked to open (at launch and by later launches), after the page got them.
    public var onOpen: ([String]) -> Void = { _ in }
    /// The package store's events (the preset installed, updates checked and installed, failures);
    /// any thread. Set before ``start(opening:)``.
    public var onPackageEvent: @Sendable (PackageEvent) -> Void = { _ in }
    public private(set) var manager: PageManager?
    public private(set) var page: Page?
    public private(set) var modules: ModuleHost?
    public private(set) var packages: PackageRun?
    private let instance: SingleInstance
    private var pageLoaded = false
    private var pending: [[String]] = []

    public init(options: DesktopAppOptions) throws(ShellError) {
        self.options = options
        instance = try SingleInstance(id: options.id)
    }

    /// Claims the app id. When another instance holds it, hands `uris` to it and returns false
    /// (the caller exits). Otherwise opens the app's window and returns true; `uris` reach the
    /// page once it has loaded.
    public func start(opening uris: [String]) async throws -> Bool {
        if let problem = MainLoop.displayError { throw ShellError.noDisplay(problem) }
        guard try instance.claim() else {
            try instance.forward(uris)
            return false
        }
        try FileManager.default.createDirectory(atPath: options.dataDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var shell = options.shell
        shell.storage = .persistent(directory: options.dataDirectory)
        var route = options.route
        if let serving = options.serving {
            packages = try PackageRun.prepare(serving, shell: &shell, route: &route)
            packages?.events.forward(to: onPackageEvent)
            if let packages { route = try await packages.start(route: route) }
        }
        let manager = try PageManager(configuration: shell)
        manager.appName = options.name
        self.manager = manager
        modules = try ModuleHost.builtins(shell.modules, manager: manager, openedURL: try route.request().url, dataDirectory: options.dataDirectory)
        let page = try manager.open(route)
        self.page = page
        instance.adopt(page.view)
        if let geometry = WindowGeometry.read(from: options.windowStatePath) { page.view.restoreWindowGeometry(geometry) }
        page.view.observe { [weak self] event in
            guard let self, case .loadFinished(_, true) = event, !self.pageLoaded else { return }
            self.pageLoaded = true
            self.checkForUpdates()
            self.pending.forEach(self.deliver)
            self.pending = []
        }
        instance.onOpen = { [weak self] uris in self?.open(uris) }
        if !uris.isEmpty { open(uris) }
        return true
    }

    /// Once the page has loaded (its launch is not slowed down, and it was served what was installed
    /// at start), fetches the update index: what it installs is served from the next load on.
    /// Failures are the store's events (and reports).
    private func checkForUpdates() {
        guard let store = packages?.store, let updates = options.updateURL else { return }
        let report = options.serving?.reportURL
        Task { _ = try? await store.update(from: updates, report: report) }
    }

    /// Gives the page (`open` event) and ``onOpen`` URLs, and raises the window; before the page
    /// has loaded they wait for it, so its listeners are in place.
    public func open(_ uris: [String]) {
        if let page { instance.present(page.view) }
        guard !uris.isEmpty else { return }
        if pageLoaded { deliver(uris) } else { pending.append(uris) }
    }

    private func deliver(_ uris: [String]) {
        try? page?.bridge.emit("open", data: JSONValue.object(["urls": .array(uris.map(JSONValue.string))]))
        onOpen(uris)
    }

    /// Saves the window's geometry for the next launch and closes the pages.
    public func stop() async {
        if let geometry = page?.view.windowGeometry { try? geometry.write(to: options.windowStatePath) }
        await manager?.closeAll()
        await manager?.stopWarming()
        packages?.finish()
    }
}
