import Foundation
import HybridShell
@testable import hybrid_run
import Testing

/// Issue 12 item 6: one self-contained page per run, that WebKit itself renders with the summary
/// line's counts, and that no test name can inject markup into.
@Suite("HTML reporter")
@EngineActor
struct HTMLReporterTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])

    static var hostile: TestRunSummary {
        let evil = "<script>document.title='owned'</script><img src=x onerror=\"document.title='owned'\">"
        let test = TestCaseResult(name: evil, suite: ["<b>suite</b>"], status: .failed,
                                  failures: [TestFailure(message: evil, stack: "at <anonymous>", actual: "<i>1</i>", expected: "'2' & \"3\"")],
                                  console: [ConsoleMessage(level: .log, source: .consoleAPI, text: evil, url: "", line: 0, column: 0)],
                                  screenshot: "shots/x.png")
        let page = PageTestResult(page: "tests/<evil>.html", url: "file:///t/evil.html", outcome: .completed,
                                  tests: [test, TestCaseResult(name: "ok", status: .passed)])
        return TestRunSummary(pages: [page] + ReportSamples.interruptedRun.pages + [ReportSamples.crashedPage, ReportSamples.emptyPage],
                              duration: 10, interruption: .maxFailures(1))
    }

    @Test func escapesEverythingAndInlinesScreenshots() {
        let html = HTMLReporter.document(Self.hostile) { $0 == "shots/x.png" ? Self.png : nil }
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("<b>suite"))
        #expect(html.contains("&lt;script&gt;document.title=&#39;owned&#39;&lt;/script&gt;"))
        #expect(html.contains("&#39;2&#39; &amp; &quot;3&quot;"))
        #expect(html.contains("src=\"data:image/png;base64,\(Self.png.base64EncodedString())\""))
        // A screenshot that cannot be read is named, not silently dropped.
        #expect(html.contains("test-results/broken.png (not readable)"))
        #expect(!html.contains("<link") && !html.contains("http://") && !html.contains("https://"))
    }

    /// Loaded in a real view: the counts in the DOM are the summary's, every page and test is
    /// there, and the hostile names stayed text (no script ran, no element was injected).
    @Test func rendersInWebKitWithTheSummaryCounts() async throws {
        let summary = Self.hostile
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hybrid-html-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = ReportOutput(.file(directory + "/index.html"))
        let reporter = HTMLReporter(output: output)
        reporter.runStarted(pages: summary.pages.map(\.page), workers: 1)
        for page in summary.pages { reporter.pageFinished(page) }
        try reporter.runFinished(summary)

        let view = try makeView()
        defer { view.close() }
        #expect(try await load(view, URL(fileURLWithPath: directory + "/index.html").absoluteString))
        let seen = try await view.evaluateJavaScript("""
            (() => {
              const count = id => Number(document.getElementById(id).textContent);
              return {
                title: document.title,
                summary: document.getElementById('summary').textContent,
                passed: count('count-passed'), failed: count('count-failed'), skipped: count('count-skipped'),
                todo: count('count-todo'), flaky: count('count-flaky'),
                couldNotRun: count('count-pages-could-not-run'), cancelled: count('count-pages-cancelled'),
                withoutTests: count('count-pages-without-tests'),
                pages: document.querySelectorAll('section.page').length,
                tests: document.querySelectorAll('li.test').length,
                failedTests: document.querySelectorAll('li.test[data-status="failed"]').length,
                scripts: document.scripts.length, images: document.images.length,
                testNames: Array.from(document.querySelectorAll('.test-name')).map(e => e.textContent),
                expected: Array.from(document.querySelectorAll('dd.expected')).map(e => e.textContent),
              };
            })()
            """)
        let counts = summary.counts
        #expect(seen["title"] == "hybrid-run test report")
        #expect(seen["summary"]?.stringValue == summary.summaryLine)
        #expect(seen["passed"]?.intValue == counts.passed)
        #expect(seen["failed"]?.intValue == counts.failed)
        #expect(seen["skipped"]?.intValue == counts.skipped)
        #expect(seen["todo"]?.intValue == counts.todo)
        #expect(seen["flaky"]?.intValue == counts.flaky)
        #expect(seen["couldNotRun"]?.intValue == 1)
        #expect(seen["cancelled"]?.intValue == 1)
        #expect(seen["withoutTests"]?.intValue == 1)
        #expect(seen["pages"]?.intValue == summary.pages.count)
        #expect(seen["tests"]?.intValue == summary.tests.count)
        #expect(seen["failedTests"]?.intValue == counts.failed)
        #expect(seen["scripts"]?.intValue == 0)
        #expect(seen["images"]?.intValue == 0, "no screenshot file exists, so none is inlined")
        #expect(seen["testNames"]?.arrayValue?.first?.stringValue == summary.pages[0].tests[0].fullName)
        #expect(seen["expected"]?.arrayValue?.first?.stringValue == "'2' & \"3\"")
    }
}
