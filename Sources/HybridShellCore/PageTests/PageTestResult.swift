/// Everything one test page produced.
public struct PageTestResult: Sendable, Equatable {
    /// The page as the user named it (a path relative to the working directory, or a URL).
    public var page: String
    /// The URL that was loaded.
    public var url: String
    /// `qunit`, `mocha`, `jasmine` or `hybrid`, when one started.
    public var framework: String?
    public var outcome: PageTestOutcome
    public var tests: [TestCaseResult]
    /// Console messages written outside any test (while loading, between tests).
    public var console: [ConsoleMessage]
    /// Milliseconds from the start of the page's (last) attempt to its end.
    public var duration: Double
    /// How many times the page ran (more than 1 with `--retries`).
    public var attempts: Int
    /// A PNG of the page when it failed without a failing test to attach it to (a timeout).
    public var screenshot: String?
    /// Which worker ran it (0-based), for diagnostics.
    public var worker: Int

    public init(page: String, url: String, framework: String? = nil, outcome: PageTestOutcome, tests: [TestCaseResult] = [],
                console: [ConsoleMessage] = [], duration: Double = 0, attempts: Int = 1, screenshot: String? = nil, worker: Int = 0) {
        self.page = page
        self.url = url
        self.framework = framework
        self.outcome = outcome
        self.tests = tests
        self.console = console
        self.duration = duration
        self.attempts = attempts
        self.screenshot = screenshot
        self.worker = worker
    }

    public func count(_ status: TestStatus) -> Int { tests.count { $0.status == status } }
    public var flakyCount: Int { tests.count { $0.flaky } }
}
