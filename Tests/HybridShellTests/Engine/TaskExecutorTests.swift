import HybridShell
import Testing

/// `EngineActor.taskExecutor`: a task that prefers the GLib loop runs its nonisolated work and its
/// resumptions there (no hop through Swift's pool), and drives the bridge without deadlocking.
@Suite("The main loop as a task executor")
struct TaskExecutorTests {
    /// Runs wherever the task's executor preference says (Swift's pool without one).
    @concurrent nonisolated static func onLoopThread() async -> Bool { EngineActor.isCurrentThread }

    @Test func nonisolatedWorkOfAPreferringTaskRunsOnTheLoop() async {
        let preferring = await Task(executorPreference: EngineActor.taskExecutor) { await Self.onLoopThread() }.value
        let plain = await Task.detached { await Self.onLoopThread() }.value
        #expect(preferring)
        #expect(!plain)
    }

    @Test func aPreferringTaskSleepsAndVisitsAnotherActor() async {
        actor Counter {
            var count = 0
            func increment() -> Int { count += 1; return count }
        }
        let counter = Counter()
        let result = await Task(executorPreference: EngineActor.taskExecutor) { () -> [Bool] in
            var seen: [Bool] = []
            for _ in 0..<3 {
                try? await Task.sleep(for: .milliseconds(1))
                _ = await counter.increment()
                seen.append(await Self.onLoopThread())
            }
            return seen
        }.value
        #expect(result == [true, true, true])
        #expect(await counter.count == 3)
    }

    @Test @EngineActor func nativeCallsFromAPreferringTaskAnswerInOrder() async throws {
        let fixture = try BridgeFixture(policy: BridgeSessionTests.local)
        defer { fixture.close() }
        fixture.view.load(html: "<script>hybrid.register('page.echo', v => v)</script>", baseURL: "http://localhost/")
        let bridge = fixture.bridge
        let calls = Task(executorPreference: EngineActor.taskExecutor) { try await Self.echo(bridge, times: 300) }
        let answered = Handoff<[Int]>()
        Task { @EngineActor in answered.settle(await calls.result) }
        // A deadlock here (the previous attempt at this preference had one) fails at the deadline.
        #expect(try await answered.value(timeout: .seconds(60), "300 native calls") == Array(0..<300))
    }

    @EngineActor
    static func echo(_ bridge: Bridge, times: Int) async throws -> [Int] {
        var replies: [Int] = []
        for i in 0..<times {
            replies.append(try await bridge.call("page.echo", with: i, as: Int.self))
            #expect(await onLoopThread())
        }
        return replies
    }
}
