import HybridShell
import Foundation

/// `hybrid-run --url`: opens one page through a ``PageManager``, prints its console (or every
/// event as JSON) and stops according to ``RunOptions/exitAfter``. A crashed web process is
/// reloaded as the crash-recovery policy allows; past that the command fails with exit code 2.
@EngineActor
final class RunCommand {
    private let options: RunOptions
    private let output: OutputLines
    private let errors: OutputLines
    private let started = ContinuousClock.now
    private let outcome = Handoff<RunOutcome>()
    private var manager: PageManager?
    private weak var page: Page?
    private var modules: ModuleHost?
    private var loadFinished = false
    private var callsFinished = true
    private var failedCall: String?
    /// Called with the opened page as it starts loading (`dev` reloads it on file changes).
    var onPage: (@EngineActor (Page) -> Void)?

    init(options: RunOptions, output: OutputLines = .standardOutput, errors: OutputLines = .standardError) {
        self.options = options
        self.output = output
        self.errors = errors
    }

    /// Runs until the exit condition, a failure, a deadline or SIGINT/SIGTERM.
    func run() async -> RunOutcome {
        ShutdownDeadline.onTerminationSignal { [weak self] _ in self?.settle(.success) }
        defer { options.packages?.finish() }
        if let problem = MainLoop.displayError { return .noDisplay(problem) }
        let page: Page
        var route = options.route
        if let packages = options.packages {
            if options.printEvents {
                packages.events.forward { [weak self] event in Task { @EngineActor in self?.print(event.jsonObject) } }
                packages.updates?.observe { [weak self] event in self?.print(event.jsonObject) }
            }
            do { route = try await packages.start(route: route) } catch { return RunOutcome(.failure, PackageRunOptions.message(for: error)) }
        }
        do {
            let manager = try PageManager(configuration: options.shell)
            self.manager = manager
            manager.appName = "hybrid-run"
            if let path = options.bridgeLog { manager.transcript = try BridgeTranscript(path: path) }
            var builtinOptions = ModuleHost.BuiltinOptions()
            builtinOptions.updates = options.packages?.updates
            modules = try ModuleHost.builtins(options.shell.modules, manager: manager, openedURL: try route.request().url,
                                              dataDirectory: options.shell.storage.directory, options: builtinOptions)
            // Mocks replace module handlers of the same name (page tests without real abilities).
            options.mockHandlers?.register(in: manager.handlers)
            manager.onGiveUp = { [weak self] page in
                guard let self else { return }
                if case .failed(let reason) = page.state { self.settle(RunOutcome(.failure, reason)) }
            }
            page = try manager.open(route)
            // Pages opened after it (window.open with --new-windows new-page) print too.
            manager.onPageOpened = { [weak self] opened in
                opened.view.observe { [weak self] event in self?.show(event) }
            }
        } catch {
            return RunOutcome(.usage, "\(error)")
        }
        self.page = page
        onPage?(page)
        page.view.observe { [weak self] event in self?.handle(event) }
        page.observeLifecycle { [weak self] event in self?.lifecycle(event) }
        startCalls(on: page.bridge)
        if case .duration(let duration)? = options.exitAfter { schedule(after: duration, .success) }
        if options.exitAfter == .load || options.exitAfter == .close {
            let timeout = options.timeout ?? (options.exitAfter == .load ? options.route.timeout : nil)
            if let timeout {
                let what = options.exitAfter == .load ? "the page did not finish loading" : "the page did not call window.close()"
                schedule(after: timeout, RunOutcome(.timeout, "\(what) within \(timeout.secondsText)"))
            }
        }
        let result = (try? await outcome.value()) ?? .success
        // The process exits next: a pre-warmed view's web process must not outlive it.
        await manager?.stopWarming()
        options.packages?.updates?.stop()
        return result
    }

    /// Every page's console and events are printed, popups' too; only the opened page's decide
    /// when the run ends.
    private func show(_ event: PageEvent, status: Int? = nil) {
        if options.printEvents {
            var object = event.jsonObject
            // The main document's HTTP status on the events that follow its response.
            if let status, status > 0 {
                switch event {
                case .loadCommitted, .loadFinished: object["status"] = .number(Double(status))
                default: break
                }
            }
            print(object)
        } else if options.printConsole, case .console(let message) = event {
            output.write(message.miniBrowserLine)
        }
    }

    private func handle(_ event: PageEvent) {
        show(event, status: page?.view.httpStatus)
        switch event {
        case .loadFailed(let error) where error.kind != .cancelled:
            settle(RunOutcome(.failure, "failed to load \(error.url): \(error.message)"))
        case .loadFinished(let url, true) where options.exitAfter != nil && !options.allowHTTPErrors && (page?.view.httpStatus ?? 0) >= 400:
            // An error page is a failed load for a run that waits for the page (as in page tests).
            settle(RunOutcome(.failure, "failed to load \(url): HTTP \(page?.view.httpStatus ?? 0) (use --allow-http-errors for pages meant to be error pages)"))
        case .loadFinished(let url, true):
            loadFinished = true
            if options.exitAfter == .load {
                errors.write("hybrid-run: loaded \(url) in \((ContinuousClock.now - started).millisecondsText)")
                finishIfDone()
            }
        case .closeRequested:
            if options.exitAfter == .close {
                errors.write("hybrid-run: the page closed itself after \((ContinuousClock.now - started).millisecondsText)")
            }
            settle(.success)
        default:
            break
        }
    }

    private func lifecycle(_ event: PageLifecycleEvent) {
        if options.printEvents { print(["event": "lifecycle", "name": .string(event.rawValue)]) }
    }

    private func print(_ object: [String: JSONValue]) {
        var object = object
        object["t"] = .number(((ContinuousClock.now - started).milliseconds * 10).rounded() / 10)
        output.write(JSONValue.object(object).jsonText)
    }

    /// `--exit-after load` also waits for the `--call`s.
    private func finishIfDone() {
        guard loadFinished, callsFinished else { return }
        if let failedCall { settle(RunOutcome(.failure, failedCall)) } else { settle(.success) }
    }

    private func startCalls(on bridge: Bridge) {
        guard !options.calls.isEmpty else { return }
        callsFinished = false
        let calls = options.calls
        Task { @EngineActor [weak self] in
            for call in calls {
                let line: [String: JSONValue]
                do {
                    let result = try await bridge.callRaw(call.name, with: call.data)
                    line = ["call": .string(call.name), "ok": true, "result": result.value]
                } catch let error as BridgeError {
                    line = ["call": .string(call.name), "ok": false,
                            "error": ["code": .string(error.code.rawValue), "message": .string(error.message), "details": error.details ?? .null]]
                    if self?.failedCall == nil { self?.failedCall = "the page handler \(call.name) failed: \(error)" }
                } catch {
                    line = ["call": .string(call.name), "ok": false, "error": ["code": "HANDLER_ERROR", "message": .string("\(error)")]]
                }
                self?.output.write(JSONValue.object(line).jsonText)
            }
            self?.callsFinished = true
            self?.finishIfDone()
        }
    }

    private func schedule(after duration: Duration, _ outcome: RunOutcome) {
        timers.append(LoopTimer(after: duration) { [weak self] in self?.settle(outcome) })
    }

    private var timers: [LoopTimer] = []

    private func settle(_ result: RunOutcome) {
        guard !outcome.isSettled else { return }
        ShutdownDeadline.arm(status: result.status, what: "the run ended")
        outcome.fulfill(result)
    }
}
