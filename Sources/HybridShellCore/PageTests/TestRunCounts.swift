/// The one counting model every report uses: tests by status, and pages that ran no tests of
/// their own — pages that could not run (load, crash, bridge, framework, timeout), pages
/// cancelled (`--max-failures`, a signal, `--global-timeout`) and pages without tests (unless the
/// run passes with no tests). The summary line, list/dot, TAP, JUnit and JSON report exactly these:
/// TAP and JUnit give each such page one entry of its own (TAP `not ok`/`# SKIP`, JUnit a testcase
/// named after the page), so their totals are ``tests`` + ``pageEntries``.
package struct TestRunCounts: Sendable, Equatable {
    public var passed = 0
    public var failed = 0
    public var skipped = 0
    public var todo = 0
    /// Passed tests that failed in an earlier attempt (also counted in ``passed``).
    public var flaky = 0
    public var pagesCouldNotRun = 0
    public var pagesCancelled = 0
    /// Pages that ran zero tests, when that fails the run (not with `--pass-with-no-tests`).
    public var pagesWithoutTests = 0

    public init(pages: [PageTestResult], passWithNoTests: Bool) {
        for page in pages {
            for test in page.tests {
                switch test.status {
                case .passed: passed += 1
                case .failed: failed += 1
                case .skipped: skipped += 1
                case .todo: todo += 1
                }
                if test.flaky { flaky += 1 }
            }
            switch page.outcome {
            case .completed: break
            case .noTests: if !passWithNoTests { pagesWithoutTests += 1 }
            case .cancelled: pagesCancelled += 1
            case .loadFailed, .crashed, .bridgeUnavailable, .frameworkNotStarted, .timedOut: pagesCouldNotRun += 1
            }
        }
    }

    /// Every test reported.
    public var tests: Int { passed + failed + skipped + todo }
    /// Pages reported as one entry of their own (TAP line, JUnit testcase).
    public var pageEntries: Int { pagesCouldNotRun + pagesCancelled + pagesWithoutTests }

    /// `12 passed, 1 failed, 2 skipped`, then todo, flaky and each kind of page that ran no tests
    /// of its own: `; 1 page could not run; 3 pages cancelled; 1 page without tests`.
    public var text: String {
        var line = "\(passed) passed, \(failed) failed, \(skipped) skipped"
        if todo > 0 { line += ", \(todo) todo" }
        if flaky > 0 { line += " (\(flaky) flaky)" }
        if pagesCouldNotRun > 0 { line += "; \(Self.pages(pagesCouldNotRun)) could not run" }
        if pagesCancelled > 0 { line += "; \(Self.pages(pagesCancelled)) cancelled" }
        if pagesWithoutTests > 0 { line += "; \(Self.pages(pagesWithoutTests)) without tests" }
        return line
    }

    private static func pages(_ count: Int) -> String { "\(count) page\(count == 1 ? "" : "s")" }
}
