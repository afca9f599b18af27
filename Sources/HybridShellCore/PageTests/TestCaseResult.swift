/// One test of a page, after every attempt.
public struct TestCaseResult: Sendable, Equatable {
    public var name: String
    /// The enclosing suites or modules, outermost first.
    public var suite: [String]
    public var status: TestStatus
    /// Milliseconds the test ran (its last attempt).
    public var duration: Double
    public var failures: [TestFailure]
    /// Console messages the page wrote while this test ran (its last attempt).
    public var console: [ConsoleMessage]
    /// Failed at first, passed on a retry (`--retries`).
    public var flaky: Bool
    /// How many times the page ran until this result (1 without retries).
    public var attempts: Int
    /// A PNG of the page taken when the test failed, when screenshots are on.
    public var screenshot: String?
    /// With `--retries`: the first failure of each earlier attempt in which this test failed,
    /// oldest first (JUnit `<flakyFailure>`/`<rerunFailure>`).
    public var earlierFailures: [TestFailure]

    public init(name: String, suite: [String] = [], status: TestStatus, duration: Double = 0, failures: [TestFailure] = [],
                console: [ConsoleMessage] = [], flaky: Bool = false, attempts: Int = 1, screenshot: String? = nil,
                earlierFailures: [TestFailure] = []) {
        self.earlierFailures = earlierFailures
        self.name = name
        self.suite = suite
        self.status = status
        self.duration = duration
        self.failures = failures
        self.console = console
        self.flaky = flaky
        self.attempts = attempts
        self.screenshot = screenshot
    }

    /// Suites and name joined with " › ", the title `--grep` matches and reporters print.
    public var fullName: String { (suite + [name]).joined(separator: " › ") }
}
