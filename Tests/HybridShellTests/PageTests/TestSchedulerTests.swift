@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
@testable import hybrid_run
import Testing

/// A fake executor: each page's attempts return scripted results, and it records what ran where.
@EngineActor
final class ScriptedExecutor: PageTestExecutor {
    var script: [String: [PageTestOutcome]] = [:]
    var statuses: [String: [[TestStatus]]] = [:]
    private(set) var runs: [(page: String, worker: Int, attempt: Int)] = []
    private(set) var cancelled: [String] = []
    /// Pages that wait until cancelled.
    var hanging: Set<String> = []
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func run(_ page: TestPage, worker: Int, attempt: Int) async -> PageTestResult {
        runs.append((page.name, worker, attempt))
        if hanging.contains(page.name) {
            await withCheckedContinuation { waiting.append($0) }
            return PageTestResult(page: page.name, url: page.url, outcome: .cancelled(cancelled.last ?? ""))
        }
        await Task.yield()
        let outcomes = script[page.name] ?? [.completed]
        let outcome = outcomes[min(attempt - 1, outcomes.count - 1)]
        let tests = statuses[page.name].map { $0[min(attempt - 1, $0.count - 1)] } ?? [.passed]
        return PageTestResult(page: page.name, url: page.url, outcome: outcome,
                              tests: tests.enumerated().map { TestCaseResult(name: "t\($0.offset)", status: $0.element) })
    }

    func cancelAll(reason: String) {
        cancelled.append(reason)
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }
}

@Suite("Test scheduler: workers, retries, max failures (fake executor)")
@EngineActor
struct TestSchedulerTests {
    func pages(_ names: String...) -> [TestPage] { names.map { TestPage(name: $0, url: "file:///\($0)") } }

    @Test func resultsComeBackInPageOrderWhateverTheWorkers() async {
        let executor = ScriptedExecutor()
        let scheduler = TestScheduler(pages: pages("a", "b", "c", "d", "e"), workers: 2, retries: 0, maxFailures: nil, executor: executor)
        var finished: [String] = []
        scheduler.onPageFinished = { finished.append($0.page) }
        let results = await scheduler.run()
        #expect(results.map(\.page) == ["a", "b", "c", "d", "e"])
        #expect(Set(executor.runs.map(\.worker)) == [0, 1])
        #expect(finished.sorted() == ["a", "b", "c", "d", "e"])
    }

    @Test func aPageThatPassesOnRetryIsFlaky() async {
        let executor = ScriptedExecutor()
        executor.statuses["a"] = [[.passed, .failed], [.passed, .passed]]
        executor.script["b"] = [.crashed("boom"), .crashed("boom"), .crashed("boom")]
        executor.script["c"] = [.loadFailed("404")]
        let results = await TestScheduler(pages: pages("a", "b", "c"), workers: 1, retries: 2, maxFailures: nil, executor: executor).run()
        #expect(results[0].attempts == 2)
        #expect(results[0].tests.map(\.flaky) == [false, true])
        #expect(results[0].count(.failed) == 0)
        #expect(results[1].attempts == 3)
        #expect(results[1].outcome == .crashed("boom"))
        // A load failure is not retried.
        #expect(results[2].attempts == 1)
        #expect(executor.runs.map(\.page) == ["a", "a", "b", "b", "b", "c"])
    }

    @Test func maxFailuresStopsTheRunAndCancelsTheRest() async {
        let executor = ScriptedExecutor()
        executor.statuses["b"] = [[.failed]]
        executor.hanging = ["c"]
        let scheduler = TestScheduler(pages: pages("a", "b", "c", "d"), workers: 2, retries: 0, maxFailures: 1, executor: executor)
        let results = await scheduler.run()
        #expect(scheduler.interruption == .maxFailures(1))
        #expect(results.map(\.outcome) == [.completed, .completed, .cancelled(TestRunInterruption.maxFailures(1).message),
                                           .cancelled(TestRunInterruption.maxFailures(1).message)])
        #expect(!executor.runs.map(\.page).contains("d"))
        #expect(TestRunSummary(pages: results, duration: 1, interruption: scheduler.interruption).exitStatus == .testsFailed)
    }

    @Test func anInterruptionEndsRunningPages() async {
        let executor = ScriptedExecutor()
        executor.hanging = ["a"]
        let scheduler = TestScheduler(pages: pages("a", "b"), workers: 1, retries: 3, maxFailures: nil, executor: executor)
        Task { @EngineActor in
            while executor.runs.isEmpty { await Task.yield() }
            scheduler.interrupt(.globalTimeout)
        }
        let results = await scheduler.run()
        #expect(results.map(\.page) == ["a", "b"])
        #expect(results[1].outcome == .cancelled(TestRunInterruption.globalTimeout.message))
        #expect(executor.runs.count == 1)
    }
}
