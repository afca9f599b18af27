@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
@testable import hybrid_run
import Testing

@Suite("Test pages, globs, shards, filters, reporters, exit codes (pure)")
struct TestRunPlanningTests {
    @Test(arguments: [
        ("tests/*.html", "tests/a.html", true),
        ("tests/*.html", "tests/sub/a.html", false),
        ("tests/**/*.html", "tests/a.html", true),
        ("tests/**/*.html", "tests/x/y/a.html", true),
        ("tests/**/*.html", "tests/.hidden/a.html", false),
        ("tests/*.html", "tests/.a.html", false),
        ("t?sts/[ab].html", "tests/a.html", true),
        ("tests/[!ab].html", "tests/a.html", false),
        ("tests/[a-c]*.html", "tests/cart.html", true),
        ("/abs/**", "/abs/x/y", true),
        ("tests/[.html", "tests/[.html", true),
    ])
    func globs(pattern: String, path: String, matches: Bool) {
        #expect(GlobPattern(pattern).matches(path) == matches)
    }

    @Test func globBaseIsTheFixedPrefix() {
        #expect(GlobPattern("/w/tests/**/*.html").base == "/w/tests")
        #expect(GlobPattern("/*.html").base == "/")
        #expect(GlobPattern("/w/a.html").base == "/w/a.html")
    }

    /// A fake file tree: /w/tests/{b.html, a.html, sub/c.html, sub/d.txt, .git/x.html, node_modules/m.html}.
    var list: TestPageList {
        let files = ["/w/tests/b.html", "/w/tests/a.html", "/w/tests/sub/c.html", "/w/tests/sub/d.txt",
                     "/w/tests/.git/x.html", "/w/tests/node_modules/m.html", "/w/one.html"]
        let directories = ["/w", "/w/tests", "/w/tests/sub", "/w/tests/.git", "/w/tests/node_modules"]
        return TestPageList(workingDirectory: "/w", fileKind: { path in
            files.contains(path) ? .file : directories.contains(path) ? .directory : nil
        }, filesBelow: { directory in
            files.filter { $0.hasPrefix(directory + "/") }.map { String($0.dropFirst(directory.count + 1)) }
        })
    }

    @Test func pagesAreExpandedSortedAndDeduplicated() throws {
        let (pages, warnings) = try list.expand(["tests", "one.html", "tests/a.html", "tests/sub/*.html"])
        #expect(pages.map(\.name) == ["one.html", "tests/a.html", "tests/b.html", "tests/sub/c.html"])
        #expect(pages[0].url == "file:///w/one.html")
        #expect(warnings == [])
        let globbed = try list.expand(["tests/**/*.html", "nothing/*.html", "https://example.org/t.html"])
        #expect(globbed.pages.map(\.name) == ["https://example.org/t.html", "tests/a.html", "tests/b.html", "tests/sub/c.html"])
        #expect(globbed.warnings == ["no test pages match \"nothing/*.html\""])
    }

    @Test func missingPagesAndBadURLsAreUsageErrors() {
        #expect(throws: ShellError.fileNotFound("missing.html")) { try list.expand(["missing.html"]) }
        #expect(throws: ShellError.self) { try list.expand(["ftp://x/y.html"]) }
        #expect(throws: ShellError.invalidArgument("a page argument is empty")) { try list.expand([""]) }
    }

    @Test func shardsSplitDeterministicallyAndCoverEverything() throws {
        let items = Array(1...10)
        let shards = try (1...3).map { try TestShard(parsing: "\($0)/3").select(items) }
        #expect(shards == [[1, 4, 7, 10], [2, 5, 8], [3, 6, 9]])
        for bad in ["0/3", "4/3", "1/0", "x", "1/2/3", "-1/2", ""] {
            #expect(throws: ShellError.self) { try TestShard(parsing: bad) }
        }
    }

    @Test func reporterChoices() throws {
        #expect(try ReporterChoice(parsing: "tap", outputDirectory: nil) == ReporterChoice(kind: .tap, destination: .standardOutput))
        // Issue 12 item 4: without a path a reporter writes to stdout, --output or not.
        #expect(try ReporterChoice(parsing: "junit", outputDirectory: "out") == ReporterChoice(kind: .junit, destination: .standardOutput))
        #expect(try ReporterChoice(parsing: "tap", outputDirectory: "out") == ReporterChoice(kind: .tap, destination: .standardOutput))
        #expect(try ReporterChoice(parsing: "html", outputDirectory: nil) == ReporterChoice(kind: .html, destination: .file("test-results/html/index.html")))
        #expect(try ReporterChoice(parsing: "html", outputDirectory: "out") == ReporterChoice(kind: .html, destination: .file("out/html/index.html")))
        #expect(try ReporterChoice(parsing: "html:site", outputDirectory: "out") == ReporterChoice(kind: .html, destination: .file("site/index.html")))
        #expect(throws: ShellError.self) { try ReporterChoice(parsing: "html:-", outputDirectory: nil) }
        #expect(try ReporterChoice(parsing: "list", outputDirectory: "out") == ReporterChoice(kind: .list, destination: .standardOutput))
        #expect(try ReporterChoice(parsing: "json:r.json", outputDirectory: "out") == ReporterChoice(kind: .json, destination: .file("r.json")))
        #expect(try ReporterChoice(parsing: "json:-", outputDirectory: "out") == ReporterChoice(kind: .json, destination: .standardOutput))
        #expect(throws: ShellError.self) { try ReporterChoice(parsing: "xml", outputDirectory: nil) }
        #expect(throws: ShellError.self) { try ReporterChoice(parsing: "junit:", outputDirectory: nil) }
        #expect(throws: ShellError.self) {
            try ReporterChoice.validate([ReporterChoice(kind: .tap, destination: .standardOutput), ReporterChoice(kind: .list, destination: .standardOutput)])
        }
        #expect(throws: ShellError.self) {
            try ReporterChoice.validate([ReporterChoice(kind: .tap, destination: .file("x")), ReporterChoice(kind: .json, destination: .file("x"))])
        }
    }

    func page(_ outcome: PageTestOutcome, _ statuses: [TestStatus] = []) -> PageTestResult {
        PageTestResult(page: "p", url: "file:///p", outcome: outcome, tests: statuses.enumerated().map { TestCaseResult(name: "t\($0.offset)", status: $0.element) })
    }

    /// 2 infrastructure > 3 timeout > 1 failed > 5 no tests > 0.
    @Test func exitCodesNeverReportAFalseGreen() {
        func status(_ pages: [PageTestResult], interruption: TestRunInterruption? = nil, passWithNoTests: Bool = false) -> hybrid_run.ExitStatus {
            TestRunSummary(pages: pages, duration: 1, interruption: interruption, passWithNoTests: passWithNoTests).exitStatus
        }
        #expect(status([page(.completed, [.passed, .skipped, .todo])]) == .success)
        #expect(status([page(.completed, [.passed, .failed])]) == .testsFailed)
        #expect(status([page(.completed, [.passed]), page(.noTests)]) == .noTests)
        #expect(status([page(.completed, [.passed]), page(.noTests)], passWithNoTests: true) == .success)
        #expect(status([]) == .noTests)
        #expect(status([], passWithNoTests: true) == .success)
        #expect(status([page(.completed, [.failed]), page(.timedOut("hung"))]) == .timeout)
        #expect(status([page(.timedOut("hung")), page(.crashed("x"))]) == .failure)
        #expect(status([page(.frameworkNotStarted("x"))]) == .failure)
        #expect(status([page(.bridgeUnavailable("x"))]) == .failure)
        #expect(status([page(.loadFailed("x"))]) == .failure)
        #expect(status([page(.completed, [.passed])], interruption: .globalTimeout) == .timeout)
        #expect(status([page(.completed, [.passed])], interruption: .signal) == .failure)
        #expect(status([page(.completed, [.failed]), page(.cancelled("stopped"))], interruption: .maxFailures(1)) == .testsFailed)
    }

    @Test func summaryLine() {
        var flaky = TestCaseResult(name: "f", status: .passed)
        flaky.flaky = true
        let summary = TestRunSummary(pages: [
            PageTestResult(page: "a", url: "", outcome: .completed,
                           tests: [flaky, TestCaseResult(name: "x", status: .failed), TestCaseResult(name: "s", status: .skipped),
                                   TestCaseResult(name: "t", status: .todo)]),
            page(.crashed("boom")),
        ], duration: 5)
        #expect(summary.summaryLine == "hybrid-run: 1 passed, 1 failed, 1 skipped, 1 todo (1 flaky); 1 page could not run")
        #expect(TestRunSummary(pages: [], duration: 0).summaryLine == "hybrid-run: 0 passed, 0 failed, 0 skipped")
        // Issue 12 item 2: cancelled pages and pages without tests are counted too.
        let stopped = TestRunSummary(pages: [page(.completed, [.failed]), page(.cancelled("stopped")), page(.cancelled("stopped")), page(.noTests)],
                                     duration: 1, interruption: .maxFailures(1))
        #expect(stopped.summaryLine == "hybrid-run: 0 passed, 1 failed, 0 skipped; 2 pages cancelled; 1 page without tests")
        var passing = stopped
        passing.passWithNoTests = true
        #expect(passing.summaryLine == "hybrid-run: 0 passed, 1 failed, 0 skipped; 2 pages cancelled")
    }
}
