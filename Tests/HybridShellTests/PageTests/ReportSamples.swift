import Foundation
import HybridShell
@testable import hybrid_run

/// Results the reporter tests share: a page with every kind of test, a crashed page, a page
/// without tests, a cancelled page, and the same shapes filled with hostile strings.
enum ReportSamples {
    static let log = ConsoleMessage(level: .log, source: .consoleAPI, text: "dividing", url: "file:///t/math.html", line: 9, column: 3)

    static let mathPage = PageTestResult(
        page: "tests/math.html", url: "file:///t/math.html", framework: "qunit", outcome: .completed,
        tests: [
            TestCaseResult(name: "adds", suite: ["Math"], status: .passed, duration: 12),
            TestCaseResult(
                name: "divides", suite: ["Math"], status: .failed, duration: 3.4,
                failures: [
                    TestFailure(message: "expected 1 to equal 2", stack: "divides@file:///t/math.html:10:5\nglobal code@file:///t/math.html:20:1",
                                actual: "1", expected: "2"),
                ],
                console: [log], screenshot: "test-results/math-divides.png"),
            TestCaseResult(name: "later", suite: ["Math"], status: .skipped),
            TestCaseResult(name: "someday", suite: ["Math"], status: .todo),
            TestCaseResult(name: "retried", suite: ["Math"], status: .passed, duration: 5, flaky: true, attempts: 2),
        ],
        duration: 120)

    static let crashedPage = PageTestResult(
        page: "tests/broken.html", url: "file:///t/broken.html", outcome: .crashed("the web process crashed"),
        console: [ConsoleMessage(level: .error, source: .uncaughtException, text: "boom", url: "file:///t/broken.html", line: 1, column: 7)],
        duration: 40, screenshot: "test-results/broken.png", worker: 1)

    static let emptyPage = PageTestResult(page: "tests/empty.html", url: "file:///t/empty.html", framework: "mocha", outcome: .noTests, duration: 8)

    static let cancelledPage = PageTestResult(page: "tests/late.html", url: "file:///t/late.html", outcome: .cancelled("interrupted by a signal"))

    /// Three pages: completed with a failure, crashed, no tests.
    static let run = TestRunSummary(pages: [mathPage, crashedPage, emptyPage], duration: 250.5, shard: (index: 1, count: 4))

    static let interruptedRun = TestRunSummary(pages: [mathPage, cancelledPage], duration: 300, interruption: .signal)

    /// Strings that break naive YAML, XML, TAP or terminal output.
    static let nastyStrings: [String] = [
        "double \"quotes\" and 'single'",
        "back\\slash \\n is not a newline\\",
        "# not a directive",
        "key: value # comment",
        "multi\nline\n  indented\n\nafter a blank line",
        "ends with a newline\n",
        "\nstarts with a newline",
        "  leading spaces",
        "trailing spaces  ",
        "crlf\r\nline",
        "nul\u{0}byte",
        "bell\u{7} escape\u{1B}[31m red",
        "separators\u{2028}line\u{2029}paragraph\u{85}next line",
        "emoji 🦊 👩‍👩‍👧 é",
        "- leading dash",
        "--- document start",
        "...",
        "[flow] {map} &anchor *alias !tag %directive @at `backtick` | >",
        "<xml> & \"attr\" 'apos' ]]> &amp;",
        "\u{FEFF}bom \u{FFFE} \u{FFFF} nonchars",
        "",
        "\ttab first",
        "yes",
        "null",
        "123",
        "~",
        "del\u{7F} c1\u{9F}",
        "multi\nline with \"quotes\" and # and \\ and : colons",
    ]

    static let nastyMessage = ConsoleMessage(level: .warn, source: .consoleAPI, text: nastyStrings.joined(separator: "|"),
                                             url: "file:///t/nasty #1.html", line: 1, column: 2)

    /// One failed test per nasty string, using it everywhere a string goes.
    static let nastyPage = PageTestResult(
        page: "tests/nasty #1.html", url: "file:///t/nasty%20%231.html", framework: "hybrid", outcome: .completed,
        tests: nastyStrings.enumerated().map { index, text in
            TestCaseResult(
                name: text, suite: [text, "suite \(index)"], status: .failed, duration: Double(index) + 0.25,
                failures: [
                    TestFailure(message: text, stack: text, actual: text, expected: text),
                    TestFailure(kind: .error, message: "TypeError: " + text, stack: nil),
                ],
                console: [ConsoleMessage(level: .error, source: .consoleAPI, text: text, url: "file:///t/nasty.html", line: index, column: 1)],
                screenshot: "shots/\(index) \(text).png")
        } + [
            TestCaseResult(name: "skip \u{0} # SKIP", status: .skipped),
            TestCaseResult(name: "todo \n # TODO", status: .todo),
            TestCaseResult(name: "flaky \"#\"", status: .passed, flaky: true, attempts: 3),
        ],
        console: [nastyMessage], duration: 12.345, attempts: 2, screenshot: nil, worker: 3)

    static let nastyCrash = PageTestResult(
        page: "tests/crash\n#2.html", url: "file:///t/crash.html", outcome: .timedOut(nastyStrings.joined(separator: "\n")),
        console: [nastyMessage], duration: 30000, screenshot: "shots/crash \u{0}.png")

    static let nastyRun = TestRunSummary(pages: [nastyPage, nastyCrash], duration: 31000.125, shard: (index: 2, count: 2),
                                         interruption: .maxFailures(3))

    /// What a reporter writes for `summary`, fed page by page as the runner would, through a
    /// file destination (which also collects what would go to standard output).
    @EngineActor
    static func render(_ summary: TestRunSummary, _ makeReporter: (ReportOutput) -> any TestReporter) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-report-\(UUID().uuidString)/report.txt").path
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let reporter = makeReporter(ReportOutput(.file(path)))
        reporter.runStarted(pages: summary.pages.map(\.page), workers: 2)
        for page in summary.pages { reporter.pageFinished(page) }
        try reporter.runFinished(summary)
        return try String(contentsOfFile: path, encoding: .utf8)
    }
}
