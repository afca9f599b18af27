import Foundation
import HybridShellCore
import HybridShellWebKit

/// The update manager for pages (WeChat's `wx.getUpdateManager()`, `hybrid.updates`): checks the
/// signed update index at `update_url` at start and every `update_interval`, downloads, verifies
/// and installs newer versions in the background through the ``PackageStore``, and tells its
/// observers (the `updates` module, which tells pages; `--print-events`) what happened. An installed
/// version is active for the next document load (the next start); a page shows it at once with
/// `apply()`. The decisions are ``PackageUpdateTracker``'s; this adapter runs the checks.
@EngineActor
public final class PackageUpdates {
    public let store: PackageStore
    /// The base URL of `index.json` and `index.json.sig`.
    public let url: URL
    /// Time between checks; zero or nil: only when started and when asked.
    public let interval: Duration?
    /// Failures are also POSTed here (``PackageStore/update(from:downloader:report:progress:)``).
    public let report: URL?
    /// What the package scheme handler pinned per page: the version a page's document came from.
    public let handler: PackageSchemeHandler?
    public private(set) var tracker = PackageUpdateTracker()
    private let downloader: any PackageDownloader
    private let events: PackageEventSink
    private var observers: [(PackageUpdateEvent) -> Void] = []
    /// Settled when the running check knows the index (verified, or unusable).
    private var indexKnown: Handoff<Void>?
    private var timer: LoopTimer?
    private var started = false
    private var listening = false
    /// Each app's active sequence when the manager was made: the version a page whose document the
    /// handler did not pin (another origin's page) is taken to run.
    private let launched: [String: Int64]

    /// `events` is the store's event sink (the store made with `observer: { events.send($0) }`):
    /// its `checked` event tells pages of an update before the download starts.
    public nonisolated init(store: PackageStore, url: URL, interval: Duration?, report: URL? = nil, events: PackageEventSink,
                            handler: PackageSchemeHandler? = nil, downloader: any PackageDownloader = URLSessionPackageDownloader()) {
        self.store = store
        self.url = url
        self.interval = interval
        self.report = report
        self.events = events
        self.handler = handler
        self.downloader = downloader
        launched = Dictionary(store.list().map { ($0.appID, $0.sequence) }) { a, _ in a }
    }

    /// Calls `body` with every later event, on the engine's loop.
    public func observe(_ body: @escaping (PackageUpdateEvent) -> Void) {
        observers.append(body)
    }

    /// Checks now, then every ``interval`` (counted from the end of each check). Once.
    public func start() {
        guard !started else { return }
        started = true
        if !listening {
            listening = true
            listenToStore()
        }
        Task { await check() }
    }

    private func listenToStore() {
        let url = url.absoluteString
        events.listen { [weak self] event in
            guard case .checked(let source, let available) = event, source == url else { return }
            Task { @EngineActor in self?.indexVerified(available) }
        }
    }

    /// Stops the periodic checks (a running one finishes).
    public func stop() {
        timer?.cancel()
        timer = nil
        started = false
    }

    /// Checks now, or joins the running check; returns once the index is known (verified, or
    /// refused), not after the downloads: their end is a `ready` or `failed` event.
    public func check() async {
        if tracker.begin() {
            indexKnown = Handoff()
            let store = store, url = url, report = report, downloader = downloader
            Task { @EngineActor [weak self] in
                let outcome: Result<[PackageUpdateResult], PackageError>
                do throws(PackageError) {
                    outcome = .success(try await store.update(from: url, downloader: downloader, report: report))
                } catch {
                    outcome = .failure(error)
                }
                self?.finish(outcome)
            }
        }
        try? await indexKnown?.value()
    }

    /// What a page of `appID` whose view is `view` is told (its document's version against the installed one).
    public func status(appID: String, view: WebView?) -> PackageUpdateStatus {
        tracker.status(appID: appID, pageSequence: pageSequence(appID: appID, view: view), installed: installed(appID))
    }

    /// The sequence of `appID` the document in `view` came from.
    public func pageSequence(appID: String, view: WebView?) -> Int64 {
        view.flatMap { handler?.pinnedVersion(page: $0.schemePageID, host: appID)?.sequence } ?? launched[appID] ?? 0
    }

    /// The installed app whose id is `host` (app ids may have capitals; URL hosts do not).
    public func appID(host: String) -> String? {
        if let exact = store.installed(host) { return exact.appID }
        let matches = store.list().filter { $0.appID.lowercased() == host.lowercased() }
        return matches.count == 1 ? matches[0].appID : nil
    }

    /// Records that a page applied the update (for observers; the caller reloads the page).
    public func noteApplied(appID: String, sequence: Int64) {
        send([.applied(appID: appID, sequence: sequence)])
    }

    private func installed(_ appID: String) -> PackageUpdateTracker.Installed? {
        store.installed(appID).map { .init(version: $0.version, sequence: $0.sequence) }
    }

    private func indexVerified(_ available: [String]) {
        send(tracker.indexVerified(available: available))
        indexKnown?.fulfill(())
    }

    private func finish(_ outcome: Result<[PackageUpdateResult], PackageError>) {
        send(tracker.finished(outcome))
        indexKnown?.fulfill(())
        timer?.cancel()
        if started, let interval, interval > .zero {
            timer = LoopTimer(after: interval) { [weak self] in Task { await self?.check() } }
        }
    }

    private func send(_ made: [PackageUpdateEvent]) {
        for event in made {
            for observer in observers { observer(event) }
        }
    }
}
