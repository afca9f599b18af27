import Foundation
import HybridShell
import Testing

extension PageTestCommandLineTests {
    /// Issue 12 items 4 and 6: a reporter without a path writes to stdout, `reporter:PATH` a file,
    /// and every file written is named on stderr; the HTML report is one self-contained file.
    @Suite("hybrid-run test: where reports go")
    struct PageTestReporterOutputTests {
        static let page = "pages/fixtures/test/hybrid/all-pass.html"

        @Test func tapWithoutAPathWritesToStdoutAndTheSummaryGoesToStderr() async throws {
            let run = try await PageTestRun.run([Self.page, "--reporter", "tap", "--screenshot", "off"], jsonReport: false)
            defer { run.cleanUp() }
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.command.stdoutLines.first == "TAP version 13")
            #expect(run.command.stdoutLines.last == "1..3")
            #expect(run.stderr.contains("hybrid-run: 3 passed, 0 failed, 0 skipped"))
            #expect(!FileManager.default.fileExists(atPath: run.output + "/results.tap"))
        }

        @Test func everyReportFileIsNamedOnStderr() async throws {
            let run = try await PageTestRun.run([Self.page, "--reporter", "junit:{output}/j.xml", "--reporter", "html:{output}/site",
                                                 "--reporter", "dot", "--screenshot", "off"])
            defer { run.cleanUp() }
            #expect(run.status == 0, "stderr: \(run.stderr)")
            for (kind, path) in [("junit", "/j.xml"), ("html", "/site/index.html"), ("json", "/results.json")] {
                #expect(run.stderr.contains("hybrid-run: wrote the \(kind) report to \(run.output + path)\n"), "stderr: \(run.stderr)")
                #expect(FileManager.default.fileExists(atPath: run.output + path))
            }
            #expect(run.summaryLine == "hybrid-run: 3 passed, 0 failed, 0 skipped")
        }

        @Test func htmlWithoutADirectoryGoesUnderOutput() async throws {
            let run = try await PageTestRun.run(["pages/fixtures/test/hybrid/suite.html", "--reporter", "html"], jsonReport: false)
            defer { run.cleanUp() }
            let html = try String(contentsOfFile: run.output + "/html/index.html", encoding: .utf8)
            #expect(html.hasPrefix("<!DOCTYPE html>"))
            // The failed tests' screenshots are inline, not links to files next to it.
            #expect(html.contains("src=\"data:image/png;base64,"))
            #expect(run.stderr.contains("hybrid-run: wrote the html report to \(run.output)/html/index.html"))
        }
    }
}
