import HybridShell
/// Receives a test run as it happens. `hybrid-run test --reporter NAME[:PATH]` makes one per
/// flag; streaming reporters (list, dot, tap) write as pages finish, document reporters (junit,
/// json) write everything at the end.
@EngineActor
protocol TestReporter: AnyObject {
    /// Before the first page starts: every page of this run (after sorting and sharding), in order.
    func runStarted(pages: [String], workers: Int)
    /// When a page has finished (after its retries), with all its tests.
    func pageFinished(_ result: PageTestResult)
    /// After the last page: the whole run. Errors writing a file are reported by the caller.
    func runFinished(_ summary: TestRunSummary) throws(ShellError)
}

/// A reporter that writes one document when the run ends (junit, json, html): the file is never
/// half-written, and nothing is shown before the run is over.
protocol DocumentReporter: TestReporter {
    var output: ReportOutput { get }
    /// The whole report as text.
    nonisolated static func text(of summary: TestRunSummary) -> String
}

extension DocumentReporter {
    func runStarted(pages: [String], workers: Int) {}

    func pageFinished(_ result: PageTestResult) {}

    func runFinished(_ summary: TestRunSummary) throws(ShellError) {
        output.write(Self.text(of: summary))
        try output.finish()
    }
}
