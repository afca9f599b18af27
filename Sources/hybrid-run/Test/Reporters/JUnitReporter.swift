import HybridShell
/// A JUnit XML report, written when the run ends, in the shape Jenkins and GitLab read.
///
/// ```xml
/// <?xml version="1.0" encoding="UTF-8"?>
/// <testsuites name="hybrid-run" tests="5" failures="1" errors="0" skipped="2" time="0.250">
///   <testsuite name="tests/math.html" tests="5" failures="1" errors="0" skipped="2" time="0.120" file="tests/math.html">
///     <properties>
///       <property name="url" value="file:///…/tests/math.html"/>
///       <property name="framework" value="qunit"/>
///     </properties>
///     <testcase classname="tests/math.html › Math" name="divides" time="0.003" file="tests/math.html">
///       <failure message="expected 1 to equal 2" type="AssertionError">expected 1 to equal 2
/// expected: 2
/// actual: 1
/// divides@file:///…/math.html:10:5</failure>
///       <system-out>[[ATTACHMENT|test-results/math-divides.png]]</system-out>
///     </testcase>
///     …
///   </testsuite>
/// </testsuites>
/// ```
///
/// - One `<testsuite>` per page (named after it, with a `file` attribute); a test's `classname`
///   is the page followed by its suites, joined with ` › `. Times are seconds with 3 decimals.
/// - A failed test gets one `<failure type="AssertionError">`, or one `<error>` when any of its
///   failures is an exception (its `type` is the error's name, `TypeError`, when the message
///   starts with one, else `Error`); the element's text describes every failure.
/// - Skipped tests get `<skipped/>`, todo tests `<skipped message="todo"/>`.
/// - `<system-out>` holds the test's console lines, a note for a flaky test (which also gets
///   `<properties>` `flaky` and `attempts`), and `[[ATTACHMENT|path]]` for its screenshot (the
///   Jenkins attachments convention, which GitLab reads too). A page's own console lines go to
///   its testsuite's `<system-out>`.
/// - Counts follow ``TestRunCounts``: every test, plus one testcase for each page that ran no
///   tests of its own, named after the page (as Surefire names a class-level failure after the
///   class, and as TAP gives it one line): `<error message="reason" type="crashed">` (the
///   outcome's name) with the page's screenshot for a page that could not run; the same with
///   `type="noTests"` for a page without tests (unless the run passes with no tests, then the
///   testsuite is just empty); `<skipped message="cancelled: reason"/>` for a cancelled page. No
///   other testcase or testsuite is made up, so `tests` is the summary's tests plus those pages.
/// - Retries (`--retries`), as Maven Surefire writes reruns: a flaky test (failed, then passed)
///   gets one `<flakyFailure>` (or `<flakyError>` for a thrown error) per failed attempt, a test
///   that failed every attempt one `<rerunFailure>` (`<rerunError>`) per earlier attempt, each
///   with that attempt's message and `type` and a `<stackTrace>`.
/// - No `timestamp` or `hostname`: the report depends only on the results.
@EngineActor
final class JUnitReporter: DocumentReporter {
    let output: ReportOutput

    init(output: ReportOutput) {
        self.output = output
    }

    nonisolated static func text(of summary: TestRunSummary) -> String { JUnitReporter.document(summary) }

    /// The whole XML document, without a final newline.
    nonisolated static func document(_ summary: TestRunSummary) -> String {
        let suites = summary.pages.map { Suite(page: $0, passWithNoTests: summary.passWithNoTests) }
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        lines.append("<testsuites name=\"hybrid-run\"" + counts(suites.flatMap(\.cases)) + " time=\"\(seconds(summary.duration))\">")
        for suite in suites { lines += suite.lines }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n")
    }

    /// Milliseconds as seconds with three decimals (`0.012`).
    nonisolated static func seconds(_ milliseconds: Double) -> String {
        let thousandths = ReportText.wholeMilliseconds(milliseconds)
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    fileprivate nonisolated static func counts(_ cases: [Case]) -> String {
        let failures = cases.count { if case .failure = $0.problem { true } else { false } }
        let errors = cases.count { if case .error = $0.problem { true } else { false } }
        let skipped = cases.count { if case .skipped = $0.problem { true } else { false } }
        return " tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\""
    }
}

extension JUnitReporter {
    /// What a testcase holds besides its output.
    fileprivate enum Problem {
        case failure(message: String, type: String, text: String)
        case error(message: String, type: String, text: String)
        case skipped(message: String?)

        var line: String {
            switch self {
            case .failure(let message, let type, let text):
                "<failure message=\"\(XMLText.attribute(message))\" type=\"\(XMLText.attribute(type))\">\(XMLText.text(text))</failure>"
            case .error(let message, let type, let text):
                "<error message=\"\(XMLText.attribute(message))\" type=\"\(XMLText.attribute(type))\">\(XMLText.text(text))</error>"
            case .skipped(nil):
                "<skipped/>"
            case .skipped(let message?):
                "<skipped message=\"\(XMLText.attribute(message))\"/>"
            }
        }
    }

    fileprivate struct Case {
        var classname: String
        var name: String
        var seconds: Double
        var file: String?
        var properties: [(String, String)]
        var problem: Problem?
        var systemOut: [String]
        /// `<flakyFailure>`/`<rerunFailure>`… lines (Surefire's reruns).
        var reruns: [String] = []

        var lines: [String] {
            var attributes = "classname=\"\(XMLText.attribute(classname))\" name=\"\(XMLText.attribute(name))\" time=\"\(JUnitReporter.seconds(seconds))\""
            if let file { attributes += " file=\"\(XMLText.attribute(file))\"" }
            let body = JUnitReporter.propertyLines(properties, indent: "      ") + (problem.map { ["      " + $0.line] } ?? [])
                + reruns.map { "      " + $0 } + JUnitReporter.systemOutLines(systemOut, indent: "      ")
            guard !body.isEmpty else { return ["    <testcase \(attributes)/>"] }
            return ["    <testcase \(attributes)>"] + body + ["    </testcase>"]
        }
    }

    fileprivate struct Suite {
        var name: String
        var file: String?
        var seconds: Double
        var properties: [(String, String)]
        var cases: [Case]
        var systemOut: [String]

        init(name: String, file: String?, seconds: Double, properties: [(String, String)], cases: [Case], systemOut: [String]) {
            self.name = name
            self.file = file
            self.seconds = seconds
            self.properties = properties
            self.cases = cases
            self.systemOut = systemOut
        }

        init(page: PageTestResult, passWithNoTests: Bool) {
            var properties = [("url", page.url)]
            if let framework = page.framework { properties.append(("framework", framework)) }
            if page.attempts > 1 { properties.append(("attempts", String(page.attempts))) }
            var cases = page.tests.map { Suite.testcase($0, page: page.page) }
            var systemOut = page.console.map(\.miniBrowserLine)
            var pageProblem: Problem?
            switch page.outcome {
            case .completed: break
            case .noTests:
                if !passWithNoTests {
                    pageProblem = .error(message: page.outcome.reason ?? "", type: page.outcome.name, text: page.outcome.reason ?? "")
                }
            case .cancelled(let reason):
                pageProblem = .skipped(message: "cancelled: " + reason)
            case .loadFailed(let reason), .crashed(let reason), .bridgeUnavailable(let reason),
                 .frameworkNotStarted(let reason), .timedOut(let reason):
                pageProblem = .error(message: reason, type: page.outcome.name, text: reason)
            }
            let attachment = page.screenshot.map { ["[[ATTACHMENT|\($0)]]"] } ?? []
            if let pageProblem {
                cases.append(Case(classname: page.page, name: page.page, seconds: page.duration, file: page.page, properties: [],
                                  problem: pageProblem, systemOut: attachment))
            } else {
                systemOut += attachment
            }
            self.init(name: page.page, file: page.page, seconds: page.duration, properties: properties, cases: cases, systemOut: systemOut)
        }

        private static func testcase(_ test: TestCaseResult, page: String) -> Case {
            var properties: [(String, String)] = []
            var systemOut = test.console.map(\.miniBrowserLine)
            if test.flaky {
                properties = [("flaky", "true"), ("attempts", String(test.attempts))]
                systemOut.append("[flaky] failed at first, passed on attempt \(test.attempts)")
            }
            if let screenshot = test.screenshot { systemOut.append("[[ATTACHMENT|\(screenshot)]]") }
            let problem: Problem?
            switch test.status {
            case .passed: problem = nil
            case .skipped: problem = .skipped(message: nil)
            case .todo: problem = .skipped(message: "todo")
            case .failed: problem = failureProblem(test.failures)
            }
            var testcase = Case(classname: ([page] + test.suite).joined(separator: " › "), name: test.name, seconds: test.duration, file: page,
                                properties: properties, problem: problem, systemOut: systemOut)
            switch test.status {
            case .passed: testcase.reruns = test.earlierFailures.map { rerun($0, flaky: true) }
            case .failed: testcase.reruns = test.earlierFailures.map { rerun($0, flaky: false) }
            case .skipped, .todo: break
            }
            return testcase
        }

        /// `<flakyFailure message="…" type="AssertionError"><stackTrace>…</stackTrace></flakyFailure>`,
        /// or `flakyError`, `rerunFailure`, `rerunError`.
        private static func rerun(_ failure: TestFailure, flaky: Bool) -> String {
            let element = (flaky ? "flaky" : "rerun") + (failure.kind == .error ? "Error" : "Failure")
            let type = failure.kind == .error ? errorName(failure.message) ?? "Error" : "AssertionError"
            return "<\(element) message=\"\(XMLText.attribute(failure.message))\" type=\"\(XMLText.attribute(type))\">"
                + "<stackTrace>\(XMLText.text(describe(failure)))</stackTrace></\(element)>"
        }

        private static func failureProblem(_ failures: [TestFailure]) -> Problem {
            let text = failures.map(describe).joined(separator: "\n\n")
            if let error = failures.first(where: { $0.kind == .error }) {
                return .error(message: error.message, type: errorName(error.message) ?? "Error", text: text)
            }
            return .failure(message: failures.first?.message ?? "failed", type: "AssertionError", text: text)
        }

        private static func describe(_ failure: TestFailure) -> String {
            var lines = [failure.message]
            if let expected = failure.expected { lines.append("expected: " + expected) }
            if let actual = failure.actual { lines.append("actual: " + actual) }
            if let stack = failure.stack { lines.append(stack) }
            return lines.joined(separator: "\n")
        }

        /// `TypeError` for `TypeError: x is undefined`: a leading identifier ending in `Error` or
        /// `Exception`, followed by a colon.
        private static func errorName(_ message: String) -> String? {
            guard let colon = message.firstIndex(of: ":") else { return nil }
            let name = message[..<colon]
            guard name.hasSuffix("Error") || name.hasSuffix("Exception"),
                  name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "$" })
            else { return nil }
            return String(name)
        }

        var lines: [String] {
            var attributes = "name=\"\(XMLText.attribute(name))\"" + JUnitReporter.counts(cases) + " time=\"\(JUnitReporter.seconds(seconds))\""
            if let file { attributes += " file=\"\(XMLText.attribute(file))\"" }
            let body = JUnitReporter.propertyLines(properties, indent: "    ") + cases.flatMap(\.lines) + JUnitReporter.systemOutLines(systemOut, indent: "    ")
            guard !body.isEmpty else { return ["  <testsuite \(attributes)/>"] }
            return ["  <testsuite \(attributes)>"] + body + ["  </testsuite>"]
        }
    }

    fileprivate nonisolated static func propertyLines(_ properties: [(String, String)], indent: String) -> [String] {
        guard !properties.isEmpty else { return [] }
        return [indent + "<properties>"]
            + properties.map { indent + "  <property name=\"\(XMLText.attribute($0.0))\" value=\"\(XMLText.attribute($0.1))\"/>" }
            + [indent + "</properties>"]
    }

    fileprivate nonisolated static func systemOutLines(_ lines: [String], indent: String) -> [String] {
        guard !lines.isEmpty else { return [] }
        return [indent + "<system-out>" + XMLText.text(lines.joined(separator: "\n")) + "</system-out>"]
    }
}
