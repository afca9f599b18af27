/// Runs single attempts of test pages for a ``TestScheduler``: the real one drives WebKit views
/// (``WebKitPageTestExecutor``), unit tests use a fake.
@EngineActor
public protocol PageTestExecutor: AnyObject {
    /// Runs `page` once on worker `worker` (0-based); `attempt` counts from 1.
    func run(_ page: TestPage, worker: Int, attempt: Int) async -> PageTestResult
    /// Ends every running attempt now; each returns with outcome `.cancelled(reason)`.
    func cancelAll(reason: String)
}
