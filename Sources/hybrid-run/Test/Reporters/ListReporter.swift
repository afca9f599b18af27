import HybridShell
/// The default reporter: a header line per finished page, then one line per test, and under each
/// failed test what went wrong.
///
/// ```
/// tests/math.html (qunit) — 2 passed, 1 failed, 1 skipped, 1 todo in 120 ms
///   ✓ Math › adds (12 ms)
///   ✗ Math › divides (3 ms)
///     expected 1 to equal 2
///     expected: 2
///     actual: 1
///     divides@file:///…/math.html:10:5
///     console:
///       file:///…/math.html:9:3: CONSOLE LOG dividing
///     screenshot: test-results/math-divides.png
///   - Math › later (skipped)
///   ~ Math › someday (todo)
///   ✓ Math › retried (5 ms, flaky, passed on attempt 2)
/// ```
///
/// A page that did not complete shows its own console lines and screenshot under its header.
/// Nothing is written when the run starts or ends: the caller prints the summary line.
@EngineActor
final class ListReporter: TestReporter {
    private let output: ReportOutput
    private let useColor: Bool

    /// - Parameter useColor: green, red and yellow marks (ANSI escapes); never colour when false.
    init(output: ReportOutput, useColor: Bool = false) {
        self.output = output
        self.useColor = useColor
    }

    func runStarted(pages: [String], workers: Int) {}

    func pageFinished(_ result: PageTestResult) {
        output.write(ReportText.header(result))
        if ReportText.showsPageDetails(result) {
            for line in ReportText.pageDetails(result, indent: "  ") { output.write(line) }
        }
        for test in result.tests {
            output.write("  " + line(for: test))
            if test.status == .failed {
                for line in ReportText.failureDetails(test, indent: "    ") { output.write(line) }
            }
        }
    }

    func runFinished(_ summary: TestRunSummary) throws(ShellError) {
        try output.finish()
    }

    private func line(for test: TestCaseResult) -> String {
        let title = ReportText.singleLine(test.fullName)
        let duration = ReportText.milliseconds(test.duration)
        switch test.status {
        case .passed where test.flaky:
            return ANSIColor.yellow.paint("✓", if: useColor) + " \(title) (\(duration), flaky, passed on attempt \(test.attempts))"
        case .passed:
            return ANSIColor.green.paint("✓", if: useColor) + " \(title) (\(duration))"
        case .failed:
            return ANSIColor.red.paint("✗", if: useColor) + " \(title) (\(duration))"
        case .skipped:
            return ANSIColor.yellow.paint("-", if: useColor) + " \(title) (skipped)"
        case .todo:
            return ANSIColor.yellow.paint("~", if: useColor) + " \(title) (todo)"
        }
    }
}
