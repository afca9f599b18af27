import Foundation
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
import Testing

/// Issue 11, item 11: reading a post of megabytes must not hold the main loop. A timing
/// comparison, so it runs in the serial (Exclusive) pass of `make test`, where no other suite
/// competes for the two cores and a loaded machine cannot make the loop look stalled.
@Suite("Bridge large posts off the main loop, in real WebKit")
@EngineActor
struct LargePostStallExclusiveTests {
    @Test func readingAHugePostDoesNotHoldTheMainLoop() async throws {
        let fixture = try await LargePostTests().readyFixture()
        defer { fixture.close() }
        // 300 000 cancel frames (~7 MiB, no replies): how long reading them takes on one thread.
        let frames = "[" + (1...300_000).map { #"{"t":"cancel","id":\#($0)}"# }.joined(separator: ",") + "]"
        let text = #"{"v":1,"s":"0123456789abcdef0123456789abcdef","m":"# + frames + "}"
        let started = ContinuousClock.now
        _ = try InboundPost.read(text, maxPayload: 16 << 20, maxDepth: 512)
        let readTime = ContinuousClock.now - started
        let beat = Heartbeat()
        let heartbeat = Task { @EngineActor in
            while beat.running {
                let before = ContinuousClock.now
                try? await Task.sleep(for: .milliseconds(1))
                beat.longestGap = max(beat.longestGap, ContinuousClock.now - before)
            }
        }
        let result = try await fixture.view.callAsyncJavaScript("""
            const parts = [];
            for (let i = 1; i <= 300000; i++) parts.push('{"t":"cancel","id":' + i + '}');
            window.dispatchEvent(new CustomEvent('hybridshell:up', { detail: '[' + parts.join(',') + ']' }));
            return await hybrid.call('echo', 'after');
            """)
        beat.running = false
        await heartbeat.value
        let longestGap = beat.longestGap
        #expect(result == "after")
        // Read on the main loop, the post would hold it at least as long as the read (measured
        // just before, on the same thread); the margin is for a loaded machine.
        #expect(longestGap < readTime, "the main loop stalled \(longestGap) while a read takes \(readTime)")
    }
}

@EngineActor
private final class Heartbeat {
    var running = true
    var longestGap = Duration.zero
}
