import Foundation
import Synchronization
import HybridShellCore
import HybridShellWebKit

/// The built-in native modules of a page-test run (`hybrid-run test --modules …`), each in its
/// deterministic headless mode whatever the window: a private clipboard, the configured file
/// choice, the configured network status, modals answered by policy. Every test page is the app
/// under test, so its origin gets every enabled module (capabilities still deny and grant).
///
/// Isolated runs (``PageTestIsolation/perPage``) give every page its own clipboard and, without a
/// data directory, its own empty storage (keys partitioned by the page's run, in memory); shared
/// runs, or runs with a data directory, key storage by origin as `hybrid-run --url` does. `navigation` is not
/// registered: a test page has no page stack (mock it with `--handlers`). Mock handlers are
/// looked up before the modules, so they replace module handlers of the same name.
@EngineActor
final class PageTestModules {
    let host: ModuleHost
    /// Looked up after the mocks by every view of the run.
    var handlers: BridgeHandlers { host.manager.handlers }
    var shares: FileShares? { host.manager.fileShares }
    var userScripts: [UserScript] { host.manager.userScripts }
    /// Bridge session → the page run it belongs to (`worker.run`), for storage partitions.
    private let partitions = SessionPartitions()
    private var runs: [Int: Int] = [:]
    private let partitioned: Bool

    /// Nil when `configuration` enables no module.
    init?(_ configuration: ModuleConfiguration, dataDirectory: String?, isolation: PageTestIsolation, shares: FileShares?,
          context: WebContext, window: WebViewConfiguration.Window, width: Int, height: Int, appName: String) throws(ShellError) {
        guard !configuration.enabled.isEmpty else { return nil }
        var shell = ShellConfiguration()
        shell.poolSize = 0
        shell.window = window
        shell.width = width
        shell.height = height
        shell.modules = configuration
        shell.fileShares = shares
        // Views are made by the executor; this manager only carries the modules' registry, scripts and shares.
        let manager = try PageManager(configuration: shell, context: context)
        manager.appName = appName
        partitioned = isolation == .perPage
        let partitions = self.partitions
        var partition: (@Sendable (BridgeCall) -> String)?
        if partitioned {
            partition = { call in
                let run: String? = partitions.map.withLock { $0[call.sessionID] }
                return (run ?? "session \(call.sessionID)") + " " + call.origin
            }
        }
        // Storage in a data directory the user gave is shared by the pages, keyed by origin.
        let storagePartition = dataDirectory == nil ? partition : nil
        host = try ModuleHost.builtins(configuration, manager: manager, openedURL: "about:blank", dataDirectory: dataDirectory,
                                       options: .init(headless: true, excluded: [.navigation], storagePartition: storagePartition,
                                                      clipboardPartition: partition, clipboardNeedsVisiblePage: false))
    }

    /// The scheme every context of the run registers so shared files reach the pages.
    static func registrations(for shares: FileShares?) throws(ShellError) -> [SchemeRegistration] {
        guard let shares else { return [] }
        return [try shares.registration()]
    }

    /// A page starts on `worker`: its origin is the app's (trusted), its storage a new partition.
    func begin(_ page: TestPage, worker: Int) {
        runs[worker, default: 0] += 1
        if let origin = WebOrigin.of(page.url), !host.policy.trusted.contains(where: { $0.matches(origin) }),
           let pattern = try? OriginPattern(parsing: origin) {
            host.policy.trusted.append(pattern)
        }
    }

    /// Follows a view's documents: their calls use the storage of the page the worker runs, and
    /// their shared files end with them.
    func attach(_ entry: ViewPool.Entry, worker: Int) {
        _ = entry.bridge.observe { [weak self, shares] event in
            switch event {
            case .ready(let session, _, _), .denied(let session, _, _):
                guard let self, self.partitioned else { return }
                let label = "page \(worker).\(self.runs[worker] ?? 0)"
                self.partitions.map.withLock { $0[session] = label }
            case .ended(let session, _):
                shares?.endSession(session)
                self?.partitions.map.withLock { _ = $0.removeValue(forKey: session) }
            }
        }
    }

    func close() {
        shares?.revokeAll()
    }
}

/// Bridge session → the page run it belongs to, read by storage handlers on any thread.
private final class SessionPartitions: Sendable {
    let map = Mutex<[String: String]>([:])
}
