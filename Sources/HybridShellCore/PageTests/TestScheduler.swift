/// Hands pages to workers, runs retries, stops at `--max-failures`, and returns every page's
/// result in page order — pages it never ran are `cancelled`, so nothing silently disappears.
@EngineActor
public final class TestScheduler {
    private let pages: [TestPage]
    private let workers: Int
    private let retries: Int
    private let maxFailures: Int?
    private let executor: PageTestExecutor

    /// Called as a page starts and as it finishes (after its retries), for progress and reporters.
    public var onPageStarted: (TestPage, Int) -> Void = { _, _ in }
    public var onPageFinished: (PageTestResult) -> Void = { _ in }

    private var next = 0
    private var results: [PageTestResult?]
    private var failedTests = 0
    package private(set) var interruption: TestRunInterruption?

    public init(pages: [TestPage], workers: Int, retries: Int, maxFailures: Int?, executor: PageTestExecutor) {
        self.pages = pages
        self.workers = max(1, min(workers, max(pages.count, 1)))
        self.retries = max(0, retries)
        self.maxFailures = maxFailures
        self.executor = executor
        results = Array(repeating: nil, count: pages.count)
    }

    /// Runs every page; returns their results in page order.
    public func run() async -> [PageTestResult] {
        let tasks = (0..<workers).map { worker in Task { @EngineActor in await self.work(as: worker) } }
        for task in tasks { await task.value }
        let reason = interruption?.message ?? "not run"
        return pages.indices.map { results[$0] ?? PageTestResult(page: pages[$0].name, url: pages[$0].url, outcome: .cancelled(reason)) }
    }

    /// Stops handing out pages and ends the running ones (`--global-timeout`, a signal).
    package func interrupt(_ reason: TestRunInterruption) {
        guard interruption == nil else { return }
        interruption = reason
        executor.cancelAll(reason: reason.message)
    }

    private func work(as worker: Int) async {
        while interruption == nil, next < pages.count {
            let index = next
            next += 1
            let page = pages[index]
            onPageStarted(page, worker)
            var attempts: [PageTestResult] = []
            repeat {
                attempts.append(await executor.run(page, worker: worker, attempt: attempts.count + 1))
            } while interruption == nil && attempts.count <= retries && PageTestAttempts.shouldRetry(attempts.last!)
            var result = PageTestAttempts.fold(attempts)
            result.worker = worker
            results[index] = result
            onPageFinished(result)
            failedTests += result.count(.failed)
            if let maxFailures, failedTests >= maxFailures, interruption == nil {
                interrupt(.maxFailures(maxFailures))
            }
        }
    }
}
