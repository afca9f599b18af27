import HybridShell
@testable import hybrid_run
import Testing

@Suite("List reporter (pure)")
@EngineActor
struct ListReporterTests {
    @Test func listsEveryTestUnderItsPageHeader() throws {
        let text = try ReportSamples.render(ReportSamples.run) { ListReporter(output: $0) }
        #expect(text == """
            tests/math.html (qunit) — 2 passed, 1 failed, 1 skipped, 1 todo in 120 ms
              ✓ Math › adds (12 ms)
              ✗ Math › divides (3 ms)
                expected 1 to equal 2
                expected: 2
                actual: 1
                divides@file:///t/math.html:10:5
                global code@file:///t/math.html:20:1
                console:
                  file:///t/math.html:9:3: CONSOLE LOG dividing
                screenshot: test-results/math-divides.png
              - Math › later (skipped)
              ~ Math › someday (todo)
              ✓ Math › retried (5 ms, flaky, passed on attempt 2)
            tests/broken.html — could not run: the web process crashed
              console:
                file:///t/broken.html:1:7: CONSOLE JS ERROR boom
              screenshot: test-results/broken.png
            tests/empty.html (mocha) — no tests

            """)
    }

    @Test func cancelledPageSaysWhy() throws {
        let text = try ReportSamples.render(TestRunSummary(pages: [ReportSamples.cancelledPage], duration: 1)) { ListReporter(output: $0) }
        #expect(text == "tests/late.html — cancelled: interrupted by a signal\n")
    }

    @Test func colourOnlyOnMarksAndOnlyWhenAsked() throws {
        let plain = try ReportSamples.render(ReportSamples.run) { ListReporter(output: $0, useColor: false) }
        #expect(!plain.contains("\u{1B}"))
        let coloured = try ReportSamples.render(ReportSamples.run) { ListReporter(output: $0, useColor: true) }
        #expect(coloured.contains("  \u{1B}[32m✓\u{1B}[0m Math › adds (12 ms)\n"))
        #expect(coloured.contains("  \u{1B}[31m✗\u{1B}[0m Math › divides (3 ms)\n"))
        #expect(coloured.contains("  \u{1B}[33m-\u{1B}[0m Math › later (skipped)\n"))
        #expect(coloured.contains("  \u{1B}[33m~\u{1B}[0m Math › someday (todo)\n"))
        #expect(coloured.contains("  \u{1B}[33m✓\u{1B}[0m Math › retried (5 ms, flaky, passed on attempt 2)\n"))
        let stripped = coloured.replacingOccurrences(of: "\u{1B}[32m", with: "").replacingOccurrences(of: "\u{1B}[31m", with: "")
            .replacingOccurrences(of: "\u{1B}[33m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
        #expect(stripped == plain)
    }

    @Test func longStacksAreTrimmedAndTheMessageLineDropped() throws {
        let stack = "AssertionError: nope\n" + (1...10).map { "    at frame\($0) (file:///t/a.js:\($0):1)" }.joined(separator: "\n")
        let test = TestCaseResult(name: "deep", status: .failed, failures: [TestFailure(message: "AssertionError: nope", stack: stack)])
        let page = PageTestResult(page: "a.html", url: "file:///t/a.html", outcome: .completed, tests: [test], duration: 1)
        let text = try ReportSamples.render(TestRunSummary(pages: [page], duration: 1)) { ListReporter(output: $0) }
        #expect(text == """
            a.html — 0 passed, 1 failed, 0 skipped in 1 ms
              ✗ deep (0 ms)
                AssertionError: nope
                at frame1 (file:///t/a.js:1:1)
                at frame2 (file:///t/a.js:2:1)
                at frame3 (file:///t/a.js:3:1)
                at frame4 (file:///t/a.js:4:1)
                … 6 more stack lines

            """)
    }

    @Test func pageTextCannotBreakLinesOrDriveTheTerminal() throws {
        let text = try ReportSamples.render(ReportSamples.nastyRun) { ListReporter(output: $0, useColor: false) }
        let controls = text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
        #expect(controls.isEmpty)
        #expect(!text.contains("\u{2028}") && !text.contains("\u{2029}"))
        #expect(text.contains("  ✗ nul\\u{0}byte › suite 10 › nul\\u{0}byte (10 ms)\n"))
        #expect(text.contains("    bell\\u{7} escape\\u{1B}[31m red\n"))
        // Every line of a multi-line message stays indented under its test.
        #expect(text.contains("    multi\n    line\n      indented\n    \n    after a blank line\n"))
        #expect(text.contains("    expected: multi\n              line\n"))
    }
}
