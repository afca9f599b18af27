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
