import Foundation
import HybridShellCore
import HybridShellWebKit

/// One worker of a test run: a web view that runs test pages one after another (each page a fresh
/// document in the same view, so a warm page costs a navigation, not a process start). Isolated
/// (``resetState`` set), the view is made to look new between pages: blank document, empty
/// `window.name`, the history it had when new, and its context's website data cleared. It feeds a
/// ``PageTestMonitor`` with everything the view, the bridge and the page's adapter report, arms
/// the monitor's next deadline, and gives the view up when its web process crashed or hung.
@EngineActor
final class PageTestWorker {
    final class Run {
        let page: TestPage
        let attempt: Int
        let started = ContinuousClock.now
        var monitor: PageTestMonitor
        /// The view started loading this run's page: what commits before that is the document
        /// of an earlier page (one that navigated away) and must not count as this page's.
        var loading = false
        var committed = false
        /// The page got a view (a run without one is not tried again).
        var hadView = false
        var continuation: CheckedContinuation<Void, Never>?
        var pageScreenshot: String?
        /// What the worker itself has to say about this run (shown as console warnings).
        var notes: [String] = []
        /// Screenshots still being written; the page's result waits for them (a framework with
        /// synchronous hooks may end its run while the picture of its last failure is taken).
        var pendingScreenshots = 0
        var screenshotsWritten: CheckedContinuation<Void, Never>?

        init(page: TestPage, attempt: Int, monitor: PageTestMonitor) {
            self.page = page
            self.attempt = attempt
            self.monitor = monitor
        }
    }

    let index: Int
    let settings: Settings
    private let takeView: () async throws(ShellError) -> ViewPool.Entry
    private var entry: ViewPool.Entry?
    private var tokens: [ObservationToken] = []
    private var current: Run?
    /// The run was cancelled while this page ran: a page is not tried again after that.
    private var cancelled = false
    private var timer: LoopTimer?

    init(index: Int, settings: Settings, takeView: @escaping () async throws(ShellError) -> ViewPool.Entry) {
        self.index = index
        self.settings = settings
        self.takeView = takeView
    }

    /// Isolated mode: empties the worker's own context (cookies, storage, IndexedDB, caches,
    /// service workers) after a page.
    /// The argument: keep the in-memory resource cache (the page was a `file:` URL).
    var resetState: ((Bool) async -> Void)?
    /// Isolated mode: the history of the current view when it was new.
    var blankHistory: SavedHistory?

    /// The session the worker's page talks through, to route the adapter's calls.
    var sessionID: String? { entry?.bridge.currentSession?.id }

    // MARK: Running a page

    func run(_ page: TestPage, attempt: Int) async -> PageTestResult {
        cancelled = false
        var run = await runOnce(page, attempt: attempt, notes: [])
        // No document of the page had arrived, so the page did not end its web process: WebKit can
        // hand a fresh view a spare process that died unnoticed. Up to two more tries, each in a fresh view.
        for _ in 0..<2 {
            guard !cancelled, case .crashed(let reason)? = run.monitor.outcome, run.hadView, !run.committed else { break }
            run = await runOnce(page, attempt: attempt, notes: run.notes + ["\(reason) before the page loaded; ran it again in a fresh view"])
        }
        return result(of: run)
    }

    private func runOnce(_ page: TestPage, attempt: Int, notes: [String]) async -> Run {
        let run = Run(page: page, attempt: attempt,
                      monitor: PageTestMonitor(limits: settings.limits, screenshots: settings.screenshots,
                                               requestedFramework: settings.requestedFramework, now: .now))
        run.notes = notes
        let entry: ViewPool.Entry
        do {
            entry = try await currentEntry()
        } catch {
            _ = run.monitor.handle(.crashed("no web view for the page: \(error)"), at: .now)
            return run
        }
        run.hadView = true
        if resetState != nil, blankHistory == nil {
            // The history a new view has (one blank document), put back after every page.
            if entry.view.url != "about:blank" { _ = await loadBlank(entry.view) }
            blankHistory = entry.view.savedHistory()
        }
        entry.bridge.originPolicy = .opening(page.url, additional: settings.additionalOrigins)
        current = run
        // Shown before the load is sent, so the page's document starts visible.
        if settings.hideWhileBlank { entry.view.setVisible(true) }
        entry.view.load(page.url)
        arm(run)
        if !run.monitor.isFinished {
            await withCheckedContinuation { run.continuation = $0 }
        }
        timer?.cancel()
        current = nil
        if run.pendingScreenshots > 0 {
            await withCheckedContinuation { run.screenshotsWritten = $0 }
        }
        await settle(run, in: entry)
        if let resetState {
            // The next page starts as if it were the first: a blank document (no timer of this
            // page can write after the clear), no window.name, a new view's history, empty storage.
            if self.entry?.view === entry.view, !(await blank(entry.view)) { replaceView(entry) }
            // Files do not change during a run, so their in-memory copies cannot tell one page from
            // another; dropping them would make every page re-read and re-compile (measured: about
            // a third of a warm page's time). Pages from a server get every cache cleared.
            await resetState(page.url.hasPrefix("file:"))
        }
        return run
    }

    /// Ends the running page, if any, as `cancelled`.
    func cancel(reason: String) {
        cancelled = true
        guard let run = current else { return }
        apply(run.monitor.cancel(reason), to: run)
    }

    /// Destroys the view.
    func close() {
        tokens.removeAll()
        entry?.view.close()
        entry = nil
    }

    private func currentEntry() async throws(ShellError) -> ViewPool.Entry {
        if let entry, !entry.view.isClosed { return entry }
        let fresh = try await takeView()
        entry = fresh
        blankHistory = nil
        tokens = [
            fresh.view.observe { [weak self] event in self?.pageEvent(event) },
            fresh.bridge.observe { [weak self] event in self?.bridgeEvent(event) },
        ]
        return fresh
    }

    /// After a page: a hung page gets its picture taken if it can, then its web process is killed
    /// and the view replaced; a crashed view is replaced too. A finished page's view runs the next.
    private func settle(_ run: Run, in entry: ViewPool.Entry) async {
        switch run.monitor.outcome {
        case .timedOut?, .cancelled?:
            if case .timedOut? = run.monitor.outcome, settings.screenshots != .off {
                let path = screenshotPath(for: run, name: "page")
                if await snapshot(entry.view, to: path, within: .seconds(2)) { run.pageScreenshot = path }
            }
            replaceView(entry)
        case .crashed?:
            replaceView(entry)
        default:
            // A page that navigated away leaves a foreign document whose late messages (console,
            // stale replies) would land in the next page's record; a fresh view cannot mix them up.
            // (Isolated, every page gets a fresh view anyway.)
            if resetState == nil, PageTestWorker.withoutFragment(entry.view.url) != PageTestWorker.withoutFragment(run.page.url) {
                replaceView(entry)
            }
        }
    }

    private func replaceView(_ dead: ViewPool.Entry) {
        tokens.removeAll()
        dead.view.terminateWebProcess()
        dead.view.close()
        if entry?.view === dead.view { entry = nil }
    }

    private func result(of run: Run) -> PageTestResult {
        let monitor = run.monitor
        var tests = monitor.tests
        if !monitor.listed.isEmpty {
            tests = monitor.listed.map { TestCaseResult(name: $0.name, suite: $0.suite, status: .skipped) }
        }
        var console = monitor.console
        for note in run.notes + monitor.notes {
            console.append(ConsoleMessage(level: .warn, source: .consoleAPI, text: "\(settings.runnerName): \(note)", url: "", line: 0, column: 0))
        }
        return PageTestResult(page: run.page.name, url: run.page.url, framework: monitor.framework, outcome: monitor.outcome ?? .cancelled("not finished"),
                              tests: tests, console: console, duration: (ContinuousClock.now - run.started).milliseconds,
                              attempts: run.attempt, screenshot: run.pageScreenshot, worker: index)
    }

    // MARK: Inputs

    private func pageEvent(_ event: PageEvent) {
        guard let run = current else { return }
        let now = ContinuousClock.now
        switch event {
        case .loadStarted(let url) where PageTestWorker.withoutFragment(url) == PageTestWorker.withoutFragment(run.page.url):
            run.loading = true
        case .loadCommitted(let url) where run.loading:
            run.committed = true
            // WebKit shows an error document as a successful load; for a test page it is not one.
            if !run.monitor.hasCommitted, let status = entry?.view.httpStatus, status >= 400 {
                apply(run.monitor.handle(.loadFailed("failed to load \(url): the server answered HTTP \(status)"), at: now), to: run)
                return
            }
            apply(run.monitor.handle(.committed(url: url), at: now), to: run)
        case .loadFinished(_, true) where run.committed:
            apply(run.monitor.handle(.loadFinished, at: now), to: run)
        case .loadFailed(let error) where error.kind != .cancelled:
            apply(run.monitor.handle(.loadFailed("failed to load \(error.url): \(error.message)"), at: now), to: run)
        case .webProcessTerminated(let reason) where reason != .terminatedByAPI:
            let what = reason == .exceededMemoryLimit ? "the web process exceeded its memory limit" : "the web process crashed"
            apply(run.monitor.handle(.crashed(what), at: now), to: run)
        case .console(let message) where run.committed:
            apply(run.monitor.handle(.console(message), at: now), to: run)
        case .nativeDialogRefused(let request):
            run.notes.append("the page asked for \(request.summary); refused (a test run never shows one)")
        default:
            break
        }
    }

    private func bridgeEvent(_ event: BridgeEvent) {
        guard let run = current, run.committed else { return }
        switch event {
        case .ready:
            apply(run.monitor.handle(.bridgeReady, at: .now), to: run)
        case .denied(_, let origin, let url):
            apply(run.monitor.handle(.bridgeDenied("the bridge refused the page's origin \(origin) (\(url)); add it with --allow-origin"), at: .now),
                  to: run)
        case .ended:
            break
        }
    }

    /// A reporter event from the page's adapter. Answers once any screenshot it asked for is on
    /// disk, so a framework that waits for the answer is pictured at its failure.
    func receive(_ event: PageTestEvent) async {
        guard let run = current, run.committed, !run.monitor.isFinished else { return }
        let actions = run.monitor.handle(.event(event), at: .now)
        apply(actions, to: run)
        for case .screenshot(let testIndex) in actions {
            guard let view = entry?.view else { continue }
            let test = run.monitor.tests[testIndex]
            let path = screenshotPath(for: run, name: String(format: "%03d-", testIndex + 1) + test.fullName)
            run.pendingScreenshots += 1
            if await snapshot(view, to: path, within: .seconds(5)) {
                run.monitor.attach(screenshot: path, toTest: testIndex)
            }
            run.pendingScreenshots -= 1
            if run.pendingScreenshots == 0 {
                run.screenshotsWritten?.resume()
                run.screenshotsWritten = nil
            }
        }
    }

    private func apply(_ actions: [PageTestMonitor.Action], to run: Run) {
        if actions.contains(where: { if case .finish = $0 { true } else { false } }) {
            run.continuation?.resume()
            run.continuation = nil
            return
        }
        if current === run { arm(run) }
    }

    private func arm(_ run: Run) {
        timer?.cancel()
        guard let deadline = run.monitor.nextDeadline else { return }
        timer = LoopTimer(after: max(.zero, deadline - .now)) { [weak self, weak run] in
            guard let self, let run, self.current === run else { return }
            self.apply(run.monitor.expire(at: .now), to: run)
        }
    }
}
