import HybridShell
/// One character per test as pages finish, 80 to a line, then every failure in detail.
///
/// The characters follow Mocha's dot reporter where it has one:
///
/// | char | meaning |
/// |---|---|
/// | `.` | passed |
/// | `f` | passed on a retry (flaky) |
/// | `F` | failed |
/// | `,` | skipped (Mocha's "pending") |
/// | `~` | todo |
/// | `E` | a page that could not run (load, crash, bridge, framework, timeout) |
/// | `N` | a page that found no tests |
/// | `C` | a page that was cancelled |
///
/// At the end: a blank line, then each failed test as `1) page › suite › name` with the list
/// reporter's failure block, and each page that could not run (or found no tests, unless
/// `--pass-with-no-tests`) as `2) page — could not run: reason`. The caller prints the summary.
@EngineActor
final class DotReporter: TestReporter {
    /// Characters per line before wrapping.
    static let lineWidth = 80

    private let output: ReportOutput
    private let useColor: Bool
    private var column = 0

    /// - Parameter useColor: green, red and yellow characters (ANSI escapes); never colour when false.
    init(output: ReportOutput, useColor: Bool = false) {
        self.output = output
        self.useColor = useColor
    }

    func runStarted(pages: [String], workers: Int) {}

    func pageFinished(_ result: PageTestResult) {
        for test in result.tests {
            switch test.status {
            case .passed where test.flaky: put("f", .yellow)
            case .passed: put(".", .green)
            case .failed: put("F", .red)
            case .skipped: put(",", .yellow)
            case .todo: put("~", .yellow)
            }
        }
        switch result.outcome {
        case .completed: break
        case .noTests: put("N", .yellow)
        case .cancelled: put("C", .yellow)
        case .loadFailed, .crashed, .bridgeUnavailable, .frameworkNotStarted, .timedOut: put("E", .red)
        }
    }

    func runFinished(_ summary: TestRunSummary) throws(ShellError) {
        if column > 0 { output.write("") }
        column = 0
        let details = failureDetails(summary)
        if !details.isEmpty {
            output.write("")
            for line in details { output.write(line) }
        }
        try output.finish()
    }

    private func put(_ character: String, _ color: ANSIColor) {
        output.write(fragment: color.paint(character, if: useColor))
        column += 1
        if column == DotReporter.lineWidth {
            output.write("")
            column = 0
        }
    }

    private func failureDetails(_ summary: TestRunSummary) -> [String] {
        var lines: [String] = []
        var number = 0
        for page in summary.pages {
            let pageProblem = page.outcome.isInfrastructureFailure || (page.outcome == .noTests && !summary.passWithNoTests)
            if pageProblem {
                number += 1
                lines.append("\(number)) " + ReportText.header(page))
                lines += ReportText.pageDetails(page, indent: "    ")
            }
            for test in page.tests where test.status == .failed {
                number += 1
                lines.append("\(number)) " + ReportText.singleLine(page.page + " › " + test.fullName))
                lines += ReportText.failureDetails(test, indent: "    ")
            }
        }
        return lines
    }
}
