import HybridShell
/// The whole run: every page in order, and the exit code it earns.
struct TestRunSummary: Sendable, Equatable {
    var pages: [PageTestResult]
    /// Milliseconds from start to end of the run.
    var duration: Double
    /// `(index, count)` of `--shard I/N`, 1-based index.
    var shard: (index: Int, count: Int)?
    /// Why the run stopped before every page ran.
    var interruption: TestRunInterruption?
    var passWithNoTests: Bool
    /// A unique id of the run that produced this summary (JSON `run`), so `--merge` can refuse
    /// the same report twice; nil for merged runs and reports that predate it.
    var runID: String?

    init(pages: [PageTestResult], duration: Double, shard: (index: Int, count: Int)? = nil,
                interruption: TestRunInterruption? = nil, passWithNoTests: Bool = false) {
        self.pages = pages
        self.duration = duration
        self.shard = shard
        self.interruption = interruption
        self.passWithNoTests = passWithNoTests
    }

    static func == (a: TestRunSummary, b: TestRunSummary) -> Bool {
        a.pages == b.pages && a.duration == b.duration && a.shard?.index == b.shard?.index && a.shard?.count == b.shard?.count
            && a.interruption == b.interruption && a.passWithNoTests == b.passWithNoTests && a.runID == b.runID
    }

    var tests: [TestCaseResult] { pages.flatMap(\.tests) }
    func count(_ status: TestStatus) -> Int { pages.reduce(0) { $0 + $1.count(status) } }
    var flakyCount: Int { pages.reduce(0) { $0 + $1.flakyCount } }

    /// The run's counts (``TestRunCounts``), the same in every report.
    var counts: TestRunCounts { TestRunCounts(pages: pages, passWithNoTests: passWithNoTests) }

    /// The line every run ends with: `hybrid-run: 12 passed, 1 failed, 2 skipped`, then any
    /// todo, flaky and pages that could not run, were cancelled or had no tests.
    var summaryLine: String { "hybrid-run: " + counts.text }

    /// The exit code, by the first that applies: 2 a page could not run (load, crash, bridge,
    /// framework) or the run was interrupted by a signal, 3 a timeout (a page's, or
    /// `--global-timeout`), 1 a test failed, 5 no tests (nothing ran, or a page ran none; unless
    /// `passWithNoTests`), 0 otherwise.
    var exitStatus: ExitStatus {
        let outcomes = pages.map(\.outcome)
        let timedOut = outcomes.contains { if case .timedOut = $0 { true } else { false } }
        if interruption == .signal || outcomes.contains(where: { $0.isInfrastructureFailure && !isTimeout($0) }) { return .failure }
        if timedOut || interruption == .globalTimeout { return .timeout }
        if count(.failed) > 0 { return .testsFailed }
        if !passWithNoTests, outcomes.isEmpty || outcomes.contains(.noTests) { return .noTests }
        return .success
    }

    private func isTimeout(_ outcome: PageTestOutcome) -> Bool {
        if case .timedOut = outcome { true } else { false }
    }
}
