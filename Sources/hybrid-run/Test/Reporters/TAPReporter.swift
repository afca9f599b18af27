import HybridShell
/// TAP version 13 (https://testanything.org/tap-version-13-specification.html), streamed: one
/// test line per test as each page finishes, the plan `1..N` at the end.
///
/// ```
/// TAP version 13
/// ok 1 - tests/math.html › Math › adds
/// not ok 2 - tests/math.html › Math › divides
///   ---
///   message: "expected 1 to equal 2"
///   severity: fail
///   data:
///     expected: "2"
///     actual: "1"
///   stack: |-
///     divides@file:///…/math.html:10:5
///     …
///   at: "tests/math.html"
///   ...
/// ok 3 - tests/math.html › Math › later # SKIP skipped
/// not ok 4 - tests/math.html › Math › someday # TODO
/// not ok 5 - tests/broken.html # could not run
///   ---
///   outcome: "crashed"
///   message: "the web process crashed"
///   severity: fail
///   at: "tests/broken.html"
///   ...
/// 1..5
/// Bail out! tests/broken.html could not run: the web process crashed
/// ```
///
/// - A failed test's block has the first failure's message, `data` (expected, actual) and
///   stack, then `failures` listing each one when there are several, the test's console lines
///   and its screenshot.
/// - A flaky test is `ok`, with a block saying `flaky: true` and its attempts.
/// - A page that could not run is one extra `not ok` line (after any tests it finished) with the
///   outcome's name and reason, its console lines and screenshot; it counts in the plan.
/// - A page with no tests is `not ok N - page # no tests found` (TAP has no way to say "nothing
///   ran" that consumers treat as a failure), or the comment `# page: no tests found` when the run
///   passes with no tests. The plan counts what ``TestRunCounts`` counts: tests, plus one line
///   per page that could not run, was cancelled or had no tests when that fails the run.
/// - A cancelled page is `ok N - page # SKIP cancelled: reason`; the run's interruption makes
///   the report fail through `Bail out!`.
/// - After the plan, `Bail out! reason` when the run was interrupted or a page could not run.
///
/// Descriptions escape `\` as `\\` and `#` as `\#`, and write line breaks as `\n`.
@EngineActor
final class TAPReporter: TestReporter {
    private let output: ReportOutput
    private let passWithNoTests: Bool
    private var number = 0

    /// - Parameter passWithNoTests: report a page without tests as skipped rather than failed
    ///   (`--pass-with-no-tests`).
    init(output: ReportOutput, passWithNoTests: Bool = false) {
        self.output = output
        self.passWithNoTests = passWithNoTests
    }

    func runStarted(pages: [String], workers: Int) {
        output.write("TAP version 13")
    }

    func pageFinished(_ result: PageTestResult) {
        for test in result.tests {
            report(test, page: result.page)
        }
        let page = TAPReporter.description(result.page)
        switch result.outcome {
        case .completed:
            break
        case .noTests where passWithNoTests:
            // Allowed, so not an entry of its own (``TestRunCounts``, as in JUnit): a comment.
            output.write("# " + page + ": no tests found")
        case .noTests:
            testLine("not ok", page + " # no tests found")
        case .cancelled(let reason):
            testLine("ok", page + " # SKIP cancelled: " + TAPReporter.description(reason))
        case .loadFailed, .crashed, .bridgeUnavailable, .frameworkNotStarted, .timedOut:
            testLine("not ok", page + " # could not run")
            var members: [(String, YAMLValue)] = [
                ("outcome", .string(result.outcome.name)),
                ("message", .string(result.outcome.reason ?? "")),
                ("severity", .string("fail")),
                ("at", .string(result.page)),
                ("url", .string(result.url)),
            ]
            if !result.console.isEmpty { members.append(("console", TAPReporter.console(result.console))) }
            if let screenshot = result.screenshot { members.append(("screenshot", .string(screenshot))) }
            diagnostics(members)
        }
    }

    func runFinished(_ summary: TestRunSummary) throws(ShellError) {
        output.write("1..\(number)")
        if let reason = TAPReporter.bailOutReason(summary) {
            output.write("Bail out! " + reason)
        }
        try output.finish()
    }

    private func report(_ test: TestCaseResult, page: String) {
        let title = TAPReporter.description(page + " › " + test.fullName)
        switch test.status {
        case .passed:
            testLine("ok", title)
            if test.flaky { diagnostics([("flaky", .bool(true)), ("attempts", .number(Double(test.attempts)))]) }
        case .skipped:
            testLine("ok", title + " # SKIP skipped")
        case .todo:
            testLine("not ok", title + " # TODO")
        case .failed:
            testLine("not ok", title)
            diagnostics(TAPReporter.failureMembers(test, page: page))
        }
    }

    private func testLine(_ status: String, _ description: String) {
        number += 1
        output.write("\(status) \(number) - \(description)")
    }

    private func diagnostics(_ members: [(String, YAMLValue)]) {
        output.write("  ---")
        for line in YAMLValue.mapping(members).lines(indent: "  ") { output.write(line) }
        output.write("  ...")
    }

    private nonisolated static func failureMembers(_ test: TestCaseResult, page: String) -> [(String, YAMLValue)] {
        var members: [(String, YAMLValue)] = []
        let first = test.failures.first
        members.append(("message", .string(first?.message ?? "failed")))
        members.append(("severity", .string("fail")))
        var data: [(String, YAMLValue)] = []
        if let expected = first?.expected { data.append(("expected", .string(expected))) }
        if let actual = first?.actual { data.append(("actual", .string(actual))) }
        if !data.isEmpty { members.append(("data", .mapping(data))) }
        if let stack = first?.stack { members.append(("stack", .string(stack))) }
        members.append(("at", .string(page)))
        members.append(("duration_ms", .number(test.duration)))
        if test.failures.count > 1 {
            members.append(("failures", .sequence(test.failures.map { failure in
                var fields: [(String, YAMLValue)] = [("kind", .string(failure.kind.rawValue)), ("message", .string(failure.message))]
                if let expected = failure.expected { fields.append(("expected", .string(expected))) }
                if let actual = failure.actual { fields.append(("actual", .string(actual))) }
                if let stack = failure.stack { fields.append(("stack", .string(stack))) }
                return .mapping(fields)
            })))
        }
        if !test.console.isEmpty { members.append(("console", console(test.console))) }
        if let screenshot = test.screenshot { members.append(("screenshot", .string(screenshot))) }
        return members
    }

    private nonisolated static func console(_ messages: [ConsoleMessage]) -> YAMLValue {
        .sequence(messages.map { .string($0.miniBrowserLine) })
    }

    /// Why consumers must stop trusting the results: the interruption, else the pages that could
    /// not run.
    nonisolated static func bailOutReason(_ summary: TestRunSummary) -> String? {
        if let interruption = summary.interruption { return interruption.message }
        let broken = summary.pages.filter { $0.outcome.isInfrastructureFailure }
        guard let first = broken.first else { return nil }
        let reason = description(first.page) + " could not run: " + description(first.outcome.reason ?? first.outcome.name)
        return broken.count == 1 ? reason : "\(broken.count) pages could not run; first: " + reason
    }

    /// A description on one line that cannot start a directive: `\` → `\\`, `#` → `\#`, line
    /// breaks → `\n` or `\r`, other control characters → `\u{1B}`.
    nonisolated static func description(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "#": out += "\\#"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\u{85}", "\u{2028}", "\u{2029}", "\u{0B}", "\u{0C}":
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default:
                if (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value) {
                    out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
