import HybridShell
@testable import hybrid_run
import Testing

@Suite("JSON reporter (pure)")
@EngineActor
struct JSONReporterTests {
    @Test func writesOneCompactDocumentWithSortedKeys() throws {
        let page = PageTestResult(
            page: "a.html", url: "file:///a.html", framework: "hybrid", outcome: .completed,
            tests: [TestCaseResult(name: "t", suite: ["S"], status: .failed, duration: 1.5, failures: [TestFailure(message: "m", actual: "1")])],
            console: [ConsoleMessage(level: .info, source: .consoleAPI, text: "hi", url: "file:///a.html", line: 1, column: 2)],
            duration: 10, worker: 1)
        let text = try ReportSamples.render(TestRunSummary(pages: [page], duration: 12, interruption: .maxFailures(1))) { JSONReporter(output: $0) }
        #expect(text == #"""
            {"interruption":{"kind":"maxFailures","maxFailures":1,"message":"stopped after 1 failed test (--max-failures)"},\#
            "pages":[{"attempts":1,"console":[{"column":2,"level":"info","line":1,"source":"console","text":"hi","url":"file:///a.html"}],\#
            "duration":10,"framework":"hybrid","outcome":"completed","page":"a.html","reason":null,"screenshot":null,\#
            "tests":[{"attempts":1,"console":[],"duration":1.5,"earlierFailures":[],"failures":[{"actual":"1","expected":null,"kind":"assertion","message":"m","stack":null}],\#
            "flaky":false,"fullName":"S › t","name":"t","screenshot":null,"status":"failed","suite":["S"]}],"url":"file:///a.html","worker":1}],\#
            "passWithNoTests":false,"run":null,"shard":null,\#
            "summary":{"duration":12,"exitCode":1,"failed":1,"flaky":0,"pages":1,"pagesCancelled":0,"pagesCouldNotRun":0,"pagesWithoutTests":0,\#
            "passed":0,"skipped":0,"todo":0},\#
            "tool":"hybrid-run","version":1}

            """#)
    }

    @Test(arguments: [("run", ReportSamples.run), ("interrupted", ReportSamples.interruptedRun), ("nasty", ReportSamples.nastyRun)])
    func roundTripsByteForByte(name: String, summary: TestRunSummary) throws {
        let text = try ReportSamples.render(summary) { JSONReporter(output: $0) }
        #expect(text.hasSuffix("}\n"))
        let decoded = try TestReportMerge.decode(text)
        #expect(decoded == summary)
        #expect(JSONReporter.document(decoded).jsonText + "\n" == text)
    }

    /// Issue 12 item 2: the JSON summary carries the summary line's counts, pages included.
    @Test func summaryCountsPagesLikeTheSummaryLine() throws {
        var summary = ReportSamples.interruptedRun
        summary.runID = "run-1"
        let document = JSONReporter.document(summary)
        #expect(document["run"] == "run-1")
        #expect(document["summary"]?["pagesCancelled"] == 1)
        #expect(document["summary"]?["passed"] == 2)
        #expect(summary.summaryLine == "hybrid-run: 2 passed, 1 failed, 1 skipped, 1 todo (1 flaky); 1 page cancelled")
        #expect(try TestReportMerge.decode(document.jsonText).runID == "run-1")
    }

    @Test func earlierFailuresRoundTrip() throws {
        let test = TestCaseResult(name: "t", status: .passed, flaky: true, attempts: 2,
                                  earlierFailures: [TestFailure(kind: .error, message: "TypeError: x", stack: "s@a.js:1:1")])
        let summary = TestRunSummary(pages: [PageTestResult(page: "a.html", url: "file:///a.html", outcome: .completed, tests: [test])], duration: 1)
        #expect(try TestReportMerge.decode(JSONReporter.document(summary).jsonText) == summary)
    }

    @Test func hostileStringsAreEscapedNotMangled() throws {
        let text = JSONReporter.document(ReportSamples.nastyRun).jsonText
        #expect(text.contains(#""text":"nul\u0000byte""#))
        #expect(text.contains(#"separators\u2028line\u2029paragraph"#))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{2028}" || $0 == "\u{2029}" })
        #expect(text.contains("emoji 🦊 👩‍👩‍👧 é"))
        #expect(text.contains(#""outcome":"timedOut""#))
        #expect(text.contains(#""interruption":{"kind":"maxFailures","maxFailures":3,"#))
        #expect(text.contains(#""shard":{"count":2,"index":2}"#))
    }
}
