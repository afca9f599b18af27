import HybridShell
/// One JSON document for the whole run, written when it ends, with every field a merge needs
/// (``TestReportMerge`` reads it back):
///
/// ```
/// {"tool":"hybrid-run","version":1,"run":"<uuid>"|null,"shard":{"index":1,"count":4}|null,
///  "interruption":null|{"kind":"maxFailures","maxFailures":3,"message":"…"},"passWithNoTests":false,
///  "summary":{"pages":N,"passed":N,"failed":N,"skipped":N,"todo":N,"flaky":N,
///             "pagesCouldNotRun":N,"pagesCancelled":N,"pagesWithoutTests":N,"duration":ms,"exitCode":N},
///  "pages":[{"page":"…","url":"…","framework":"…"|null,"outcome":"completed","reason":null|"…",
///            "duration":ms,"attempts":1,"worker":0,"screenshot":null|"…",
///            "console":[{"level":"log","source":"console","text":"…","url":"…","line":1,"column":2}],
///            "tests":[{"name":"…","suite":["…"],"fullName":"…","status":"passed","duration":ms,
///                      "flaky":false,"attempts":1,"screenshot":null,"earlierFailures":[…],
///                      "failures":[{"kind":"assertion","message":"…","stack":null,"actual":null,"expected":null}],
///                      "console":[…]}]}]}
/// ```
///
/// The text is compact, with keys sorted, so the same results always give the same bytes.
/// `summary` (``TestRunCounts``) and `fullName` are derived, for readers; `run` identifies the
/// run, so that `--merge` refuses the same report (or shard) twice; `interruption.kind` is
/// ``TestRunInterruption/name`` and `outcome` is ``PageTestOutcome/name``.
@EngineActor
final class JSONReporter: DocumentReporter {
    /// The `version` this reporter writes and ``TestReportMerge`` reads.
    nonisolated static let formatVersion = 1

    let output: ReportOutput

    init(output: ReportOutput) {
        self.output = output
    }

    nonisolated static func text(of summary: TestRunSummary) -> String { JSONReporter.document(summary).jsonText }

    /// The report as a JSON value.
    nonisolated static func document(_ summary: TestRunSummary) -> JSONValue {
        let counts = summary.counts
        let shard: JSONValue = summary.shard.map { ["index": .number(Double($0.index)), "count": .number(Double($0.count))] } ?? .null
        return [
            "tool": "hybrid-run",
            "version": .number(Double(formatVersion)),
            "run": summary.runID.map(JSONValue.string) ?? .null,
            "shard": shard,
            "interruption": summary.interruption.map(value) ?? .null,
            "passWithNoTests": .bool(summary.passWithNoTests),
            "summary": [
                "pages": .number(Double(summary.pages.count)),
                "passed": .number(Double(counts.passed)),
                "failed": .number(Double(counts.failed)),
                "skipped": .number(Double(counts.skipped)),
                "todo": .number(Double(counts.todo)),
                "flaky": .number(Double(counts.flaky)),
                "pagesCouldNotRun": .number(Double(counts.pagesCouldNotRun)),
                "pagesCancelled": .number(Double(counts.pagesCancelled)),
                "pagesWithoutTests": .number(Double(counts.pagesWithoutTests)),
                "duration": .number(summary.duration),
                "exitCode": .number(Double(summary.exitStatus.rawValue)),
            ],
            "pages": .array(summary.pages.map(value)),
        ]
    }

    private nonisolated static func value(_ interruption: TestRunInterruption) -> JSONValue {
        var members: [String: JSONValue] = ["kind": .string(interruption.name), "message": .string(interruption.message)]
        if case .maxFailures(let count) = interruption { members["maxFailures"] = .number(Double(count)) }
        return .object(members)
    }

    private nonisolated static func value(_ page: PageTestResult) -> JSONValue {
        [
            "page": .string(page.page),
            "url": .string(page.url),
            "framework": page.framework.map(JSONValue.string) ?? .null,
            "outcome": .string(page.outcome.name),
            "reason": page.outcome.reason.map(JSONValue.string) ?? .null,
            "duration": .number(page.duration),
            "attempts": .number(Double(page.attempts)),
            "worker": .number(Double(page.worker)),
            "screenshot": page.screenshot.map(JSONValue.string) ?? .null,
            "console": .array(page.console.map(value)),
            "tests": .array(page.tests.map(value)),
        ]
    }

    private nonisolated static func value(_ test: TestCaseResult) -> JSONValue {
        [
            "name": .string(test.name),
            "suite": .array(test.suite.map(JSONValue.string)),
            "fullName": .string(test.fullName),
            "status": .string(test.status.rawValue),
            "duration": .number(test.duration),
            "flaky": .bool(test.flaky),
            "attempts": .number(Double(test.attempts)),
            "screenshot": test.screenshot.map(JSONValue.string) ?? .null,
            "failures": .array(test.failures.map(value)),
            "earlierFailures": .array(test.earlierFailures.map(value)),
            "console": .array(test.console.map(value)),
        ]
    }

    private nonisolated static func value(_ failure: TestFailure) -> JSONValue {
        [
            "kind": .string(failure.kind.rawValue),
            "message": .string(failure.message),
            "stack": failure.stack.map(JSONValue.string) ?? .null,
            "actual": failure.actual.map(JSONValue.string) ?? .null,
            "expected": failure.expected.map(JSONValue.string) ?? .null,
        ]
    }

    private nonisolated static func value(_ message: ConsoleMessage) -> JSONValue {
        [
            "level": .string(message.level.rawValue),
            "source": .string(message.source.rawValue),
            "text": .string(message.text),
            "url": .string(message.url),
            "line": .number(Double(message.line)),
            "column": .number(Double(message.column)),
        ]
    }
}
