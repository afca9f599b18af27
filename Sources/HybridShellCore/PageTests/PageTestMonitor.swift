/// Decides how one test page's run ends, from what happens to it: load and crash events, the
/// bridge's handshake, the adapter's reporter events, console messages and deadlines. Pure and
/// clock-driven (`now` is passed in), so every exit path is a table test.
package struct PageTestMonitor {
    package enum Input: Equatable {
        /// A document of the page committed (redirects commit more than one).
        case committed(url: String)
        case loadFinished
        case loadFailed(String)
        case crashed(String)
        case bridgeReady
        case bridgeDenied(String)
        case event(PageTestEvent)
        case console(ConsoleMessage)
    }

    package enum Action: Equatable {
        case finish(PageTestOutcome)
        /// Take a PNG for `tests[index]` before the page goes on.
        case screenshot(testIndex: Int)
    }

    let limits: PageTestLimits
    let screenshots: ScreenshotMode
    private let started: ContinuousClock.Instant

    package private(set) var outcome: PageTestOutcome?
    package private(set) var framework: String?
    package private(set) var tests: [TestCaseResult] = []
    /// Console messages outside any test.
    package private(set) var console: [ConsoleMessage] = []
    /// List mode: the tests the page would run.
    package private(set) var listed: [(name: String, suite: [String])] = []
    package private(set) var notes: [String] = []

    private var committedDocuments = 0
    /// A document of the page has committed (later ones are redirects or navigations away).
    package var hasCommitted: Bool { committedDocuments > 0 }
    private var loadedAt: ContinuousClock.Instant?
    private var frameworksAtLoad: [String]?
    private var bridgeReady = false
    private var lastActivity: ContinuousClock.Instant
    private var running: (name: String, suite: [String], since: ContinuousClock.Instant, console: [ConsoleMessage])?
    private var firstUncaughtError: ConsoleMessage?
    private var errorAfterLoad: ContinuousClock.Instant?

    /// The framework `--framework` asked for; nil when detected.
    let requestedFramework: String?

    package init(limits: PageTestLimits, screenshots: ScreenshotMode = .onlyOnFailure, requestedFramework: String? = nil,
         now: ContinuousClock.Instant) {
        self.limits = limits
        self.screenshots = screenshots
        self.requestedFramework = requestedFramework
        self.started = now
        self.lastActivity = now
    }

    package var isFinished: Bool { outcome != nil }
    private var runStarted: Bool { framework != nil }

    // MARK: Inputs

    package mutating func handle(_ input: Input, at now: ContinuousClock.Instant) -> [Action] {
        guard outcome == nil else { return [] }
        if case .console = input {} else { lastActivity = now }
        switch input {
        case .committed(let url):
            committedDocuments += 1
            // A second document while tests run means the page went away under them; before
            // that it is a redirect to the real test page.
            if runStarted, committedDocuments > 1 {
                return finish(.bridgeUnavailable("the page navigated away to \(url) before its tests finished"),
                              failRunning: "the page navigated away")
            }
            return []
        case .loadFinished:
            if loadedAt == nil { loadedAt = now }
            return []
        case .loadFailed(let message):
            return finish(.loadFailed(message))
        case .crashed(let message):
            return finish(.crashed(message), failRunning: message)
        case .bridgeReady:
            bridgeReady = true
            return []
        case .bridgeDenied(let message):
            return finish(.bridgeUnavailable(message))
        case .console(let message):
            if let current = running {
                running?.console = current.console + [message]
            } else {
                console.append(message)
            }
            if message.source != .consoleAPI, !runStarted {
                if firstUncaughtError == nil { firstUncaughtError = message }
                if loadedAt != nil, errorAfterLoad == nil { errorAfterLoad = now }
            }
            return []
        case .event(let event):
            return handle(event, at: now)
        }
    }

    private mutating func handle(_ event: PageTestEvent, at now: ContinuousClock.Instant) -> [Action] {
        switch event {
        case .loaded(let frameworks):
            frameworksAtLoad = frameworks
            if firstUncaughtError != nil, errorAfterLoad == nil { errorAfterLoad = now }
            return []
        case .runStart(let name, _, _):
            if framework == nil { framework = name }
            return []
        case .testStart(let name, let suite):
            if framework == nil { framework = "unknown" }
            running = (name, suite, now, [])
            return []
        case .testEnd(let name, let suite, let status, let duration, let failures):
            let console = running.map { $0.name == name && $0.suite == suite ? $0.console : $0.console } ?? []
            running = nil
            var result = TestCaseResult(name: name, suite: suite, status: status, duration: duration, failures: failures, console: console)
            if status == .failed, failures.isEmpty {
                result.failures = [TestFailure(kind: .error, message: "the test failed without saying why")]
            }
            tests.append(result)
            let wantsScreenshot = screenshots == .on || (screenshots == .onlyOnFailure && status == .failed)
            return wantsScreenshot ? [.screenshot(testIndex: tests.count - 1)] : []
        case .runEnd(_, _, let counts, let failures):
            let reported = tests.count
            if !failures.isEmpty {
                tests.append(TestCaseResult(name: "(outside any test)", status: .failed, failures: failures))
            }
            if let counts, counts.total != reported {
                notes.append("the framework counted \(counts.total) tests but reported \(reported)")
            }
            return finish(tests.isEmpty ? .noTests : .completed)
        case .list(let tests):
            listed = tests
            return finish(tests.isEmpty ? .noTests : .completed)
        case .error(let message, let stack):
            if !runStarted {
                return finish(.frameworkNotStarted("the test framework failed to start: \(message)"))
            }
            tests.append(TestCaseResult(name: "(framework error)", status: .failed,
                                        failures: [TestFailure(kind: .error, message: message, stack: stack)]))
            return []
        }
    }

    /// Ends the page as `cancelled` (`--max-failures`, `--global-timeout`, a signal).
    package mutating func cancel(_ reason: String) -> [Action] {
        guard outcome == nil else { return [] }
        return finish(.cancelled(reason))
    }

    /// Records a screenshot taken for a test.
    package mutating func attach(screenshot path: String, toTest index: Int) {
        if tests.indices.contains(index) { tests[index].screenshot = path }
    }

    // MARK: Deadlines

    private enum Deadline {
        case idle, page, test, bridge, noFramework, frameworkStart
    }

    private var deadlines: [(Deadline, ContinuousClock.Instant)] {
        var list: [(Deadline, ContinuousClock.Instant)] = [(.idle, lastActivity + limits.idle)]
        if let page = limits.page { list.append((.page, started + page)) }
        if let test = limits.test, let running { list.append((.test, running.since + test)) }
        if let loadedAt, !bridgeReady { list.append((.bridge, loadedAt + limits.bridge)) }
        if !runStarted, let frameworks = frameworksAtLoad {
            if frameworks.isEmpty || requestedFramework.map({ !frameworks.contains($0) }) == true, let loadedAt {
                list.append((.noFramework, loadedAt + limits.noFramework))
            } else if let errorAfterLoad {
                list.append((.frameworkStart, errorAfterLoad + limits.startAfterError))
            }
        }
        return list
    }

    /// When ``expire(at:)`` should run next; nil once finished.
    package var nextDeadline: ContinuousClock.Instant? {
        outcome == nil ? deadlines.map(\.1).min() : nil
    }

    /// Ends the page if a deadline has passed by `now`.
    package mutating func expire(at now: ContinuousClock.Instant) -> [Action] {
        guard outcome == nil, let (deadline, _) = deadlines.filter({ $0.1 <= now }).min(by: { $0.1 < $1.1 }) else { return [] }
        switch deadline {
        case .idle:
            if runStarted {
                let during = running.map { " while \(JSONValue.quoted(TestCaseResult(name: $0.name, suite: $0.suite, status: .failed).fullName)) ran" } ?? ""
                return finish(.timedOut("no test event for \(limits.idle.secondsText)\(during); the page seems hung"),
                              failRunning: "timed out: no test event for \(limits.idle.secondsText)")
            }
            if loadedAt == nil {
                return finish(.timedOut("the page did not finish loading within \(limits.idle.secondsText)"))
            }
            return finish(.frameworkNotStarted(notStartedReason(waited: limits.idle)))
        case .page:
            return finish(.timedOut("the page did not finish within \(limits.page!.secondsText) (--page-timeout)"),
                          failRunning: "timed out: the page took longer than \(limits.page!.secondsText)")
        case .test:
            let name = running.map { TestCaseResult(name: $0.name, suite: $0.suite, status: .failed).fullName } ?? ""
            return finish(.timedOut("the test \(JSONValue.quoted(name)) did not finish within \(limits.test!.secondsText)"),
                          failRunning: "timed out after \(limits.test!.secondsText)")
        case .bridge:
            return finish(.bridgeUnavailable("the bridge never connected (no handshake \(limits.bridge.secondsText) after load)"))
        case .noFramework, .frameworkStart:
            return finish(.frameworkNotStarted(notStartedReason(waited: nil)))
        }
    }

    private func notStartedReason(waited: Duration?) -> String {
        var reason: String
        if let requested = requestedFramework, let frameworks = frameworksAtLoad, !frameworks.contains(requested) {
            let found = frameworks.isEmpty ? "no test framework" : frameworks.joined(separator: ", ")
            return "--framework \(requested): the page has no \(requested) tests (it has \(found))"
        }
        if let frameworks = frameworksAtLoad, !frameworks.isEmpty {
            reason = "\(frameworks.joined(separator: ", ")) was loaded but never started"
            if let waited { reason += " within \(waited.secondsText)" }
        } else {
            reason = "no test framework started: the page has no QUnit, Mocha, Jasmine or hybrid.test tests"
        }
        if let error = firstUncaughtError {
            reason += "; the page threw: \(error.text)"
            if !error.url.isEmpty { reason += " (\(error.url):\(error.line))" }
        } else if frameworksAtLoad?.isEmpty == false, waited != nil {
            reason += " (does the page start it, e.g. mocha.run()?)"
        }
        return reason
    }

    // MARK: Finishing

    private mutating func finish(_ outcome: PageTestOutcome, failRunning reason: String? = nil) -> [Action] {
        if let reason, let current = running {
            tests.append(TestCaseResult(name: current.name, suite: current.suite, status: .failed,
                                        failures: [TestFailure(kind: .error, message: reason)], console: current.console))
            running = nil
        }
        self.outcome = outcome
        return [.finish(outcome)]
    }
}
