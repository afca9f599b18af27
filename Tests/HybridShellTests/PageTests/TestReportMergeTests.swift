import HybridShell
@testable import hybrid_run
import Testing

@Suite("Reading and merging JSON reports (pure)")
struct TestReportMergeTests {
    static let valid = JSONReporter.document(ReportSamples.run).jsonText

    @Test(arguments: [
        ("{", "invalid test report: unexpected end of JSON text at byte 1"),
        ("[]", "invalid test report: the document: expected an object, got an array"),
        ("{}", "invalid test report: tool: missing (expected a string)"),
        (valid.replacingOccurrences(of: #""tool":"hybrid-run""#, with: #""tool":"jest""#),
         #"invalid test report: tool: expected "hybrid-run", got "jest""#),
        (valid.replacingOccurrences(of: #""version":1"#, with: #""version":2"#),
         "invalid test report: version: expected 1 (the report format this hybrid-run reads), got 2"),
        (valid.replacingOccurrences(of: #""shard":{"count":4,"index":1}"#, with: #""shard":"1/4""#),
         #"invalid test report: shard: expected an object or null, got "1/4""#),
        (valid.replacingOccurrences(of: #""status":"skipped""#, with: #""status":"pending""#),
         #"invalid test report: pages[0].tests[2].status: expected one of passed|failed|skipped|todo, got "pending""#),
        (valid.replacingOccurrences(of: #""kind":"assertion""#, with: #""kind":"oops""#),
         #"invalid test report: pages[0].tests[1].failures[0].kind: expected one of assertion|error, got "oops""#),
        (valid.replacingOccurrences(of: #""line":9"#, with: #""line":9.5"#),
         "invalid test report: pages[0].tests[1].console[0].line: expected an integer, got 9.5"),
        (valid.replacingOccurrences(of: #""source":"exception""#, with: #""source":"uncaught""#),
         #"invalid test report: pages[1].console[0].source: expected one of console|exception|rejection, got "uncaught""#),
        (valid.replacingOccurrences(of: #""outcome":"crashed""#, with: #""outcome":"exploded""#),
         #"invalid test report: pages[1].outcome: expected one of completed|noTests|loadFailed|crashed|bridgeUnavailable|frameworkNotStarted|timedOut|cancelled, got "exploded""#),
        (valid.replacingOccurrences(of: #""reason":"the web process crashed""#, with: #""reason":null"#),
         "invalid test report: pages[1].reason: expected a string, got null"),
        (valid.replacingOccurrences(of: #","worker":1}"#, with: "}"),
         "invalid test report: pages[1].worker: missing (expected an integer)"),
        (valid.replacingOccurrences(of: #""flaky":true"#, with: #""flaky":"yes""#),
         #"invalid test report: pages[0].tests[4].flaky: expected true or false, got "yes""#),
    ])
    func rejectsWithThePathOfTheProblem(text: String, message: String) {
        #expect(throws: ShellError.invalidArgument(message)) { try TestReportMerge.decode(text) }
    }

    @Test func mergesShardsIntoOneRunSortedByPage() throws {
        let first = TestRunSummary(pages: [ReportSamples.mathPage, ReportSamples.emptyPage], duration: 500, shard: (index: 1, count: 2))
        let second = TestRunSummary(pages: [ReportSamples.crashedPage, ReportSamples.cancelledPage], duration: 700, shard: (index: 2, count: 2),
                                    interruption: .globalTimeout)
        let decoded = try [first, second].map { try TestReportMerge.decode(JSONReporter.document($0).jsonText) }
        let merged = TestReportMerge.merge(decoded)
        #expect(merged.pages.map(\.page) == ["tests/broken.html", "tests/empty.html", "tests/late.html", "tests/math.html"])
        #expect(merged.duration == 700)
        #expect(merged.shard == nil)
        #expect(merged.interruption == .globalTimeout)
        #expect(!merged.passWithNoTests)
        #expect(merged.count(.passed) == 2 && merged.count(.failed) == 1)
        #expect(merged.exitStatus == .failure)
    }

    @Test func samePageFromTwoShardsKeepsItsOrder() {
        var retried = ReportSamples.mathPage
        retried.attempts = 2
        let merged = TestReportMerge.merge([
            TestRunSummary(pages: [ReportSamples.mathPage], duration: 1, passWithNoTests: true),
            TestRunSummary(pages: [retried, ReportSamples.crashedPage], duration: 2, interruption: .signal, passWithNoTests: true),
            TestRunSummary(pages: [], duration: 3, interruption: .maxFailures(2), passWithNoTests: true),
        ])
        #expect(merged.pages == [ReportSamples.crashedPage, ReportSamples.mathPage, retried])
        #expect(merged.interruption == .signal)
        #expect(merged.passWithNoTests)
        #expect(TestReportMerge.merge([]) == TestRunSummary(pages: [], duration: 0))
    }

    /// Issue 12 item 2: the same shard, or the same run, twice would count its pages twice.
    @Test func refusesTheSameShardOrRunTwiceNamingTheFile() throws {
        var first = TestRunSummary(pages: [ReportSamples.mathPage], duration: 1, shard: (index: 1, count: 2))
        first.runID = "a"
        var again = first
        again.runID = "b"
        #expect(throws: ShellError.invalidArgument("shard-1-again.json is shard 1/2 again (already merged from shard-1.json); merge each shard once")) {
            try TestReportMerge.checkDistinct([first, again], names: ["shard-1.json", "shard-1-again.json"])
        }
        var whole = TestRunSummary(pages: [ReportSamples.mathPage], duration: 1)
        whole.runID = "c"
        #expect(throws: ShellError.invalidArgument("copy.json is the same run as results.json (run c); merge each report once")) {
            try TestReportMerge.checkDistinct([whole, whole], names: ["results.json", "copy.json"])
        }
        var second = first
        second.shard = (index: 2, count: 2)
        second.runID = "d"
        try TestReportMerge.checkDistinct([first, second, whole], names: ["1", "2", "3"])
        // Reports without a run id (older ones) are still told apart by their shard.
        try TestReportMerge.checkDistinct([TestRunSummary(pages: [], duration: 1), TestRunSummary(pages: [], duration: 1)], names: ["x", "y"])
    }
}
