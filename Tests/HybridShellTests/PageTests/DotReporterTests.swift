import HybridShell
@testable import hybrid_run
import Testing

@Suite("Dot reporter (pure)")
@EngineActor
struct DotReporterTests {
    @Test func oneCharacterPerTestThenTheFailures() throws {
        let text = try ReportSamples.render(ReportSamples.run) { DotReporter(output: $0) }
        #expect(text == """
            .F,~fEN

            1) tests/math.html › Math › divides
                expected 1 to equal 2
                expected: 2
                actual: 1
                divides@file:///t/math.html:10:5
                global code@file:///t/math.html:20:1
                console:
                  file:///t/math.html:9:3: CONSOLE LOG dividing
                screenshot: test-results/math-divides.png
            2) tests/broken.html — could not run: the web process crashed
                console:
                  file:///t/broken.html:1:7: CONSOLE JS ERROR boom
                screenshot: test-results/broken.png
            3) tests/empty.html (mocha) — no tests

            """)
    }

    @Test func pagesWithoutTestsAreNoFailureWhenTheRunPassesWithNoTests() throws {
        let summary = TestRunSummary(pages: [ReportSamples.emptyPage, ReportSamples.cancelledPage], duration: 1, passWithNoTests: true)
        let text = try ReportSamples.render(summary) { DotReporter(output: $0) }
        #expect(text == "NC\n")
    }

    @Test func wrapsAtEightyColumns() throws {
        let tests = (0..<170).map { TestCaseResult(name: "t\($0)", status: .passed) }
        let first = PageTestResult(page: "a.html", url: "file:///a.html", outcome: .completed, tests: Array(tests[..<75]))
        let second = PageTestResult(page: "b.html", url: "file:///b.html", outcome: .completed, tests: Array(tests[75...]))
        let text = try ReportSamples.render(TestRunSummary(pages: [first, second], duration: 1)) { DotReporter(output: $0) }
        let dots = String(repeating: ".", count: 80)
        #expect(text == dots + "\n" + dots + "\n" + String(repeating: ".", count: 10) + "\n")
        let exact = PageTestResult(page: "a.html", url: "file:///a.html", outcome: .completed, tests: Array(tests[..<80]))
        #expect(try ReportSamples.render(TestRunSummary(pages: [exact], duration: 1)) { DotReporter(output: $0) } == dots + "\n")
    }

    @Test func colourWhenAsked() throws {
        let text = try ReportSamples.render(TestRunSummary(pages: [ReportSamples.mathPage], duration: 1)) { DotReporter(output: $0, useColor: true) }
        #expect(text.hasPrefix("\u{1B}[32m.\u{1B}[0m\u{1B}[31mF\u{1B}[0m\u{1B}[33m,\u{1B}[0m\u{1B}[33m~\u{1B}[0m\u{1B}[33mf\u{1B}[0m\n\n1) "))
        let plain = try ReportSamples.render(ReportSamples.nastyRun) { DotReporter(output: $0, useColor: false) }
        #expect(!plain.contains("\u{1B}"))
    }
}
