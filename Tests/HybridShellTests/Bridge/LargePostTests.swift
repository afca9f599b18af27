import Foundation
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit
import Testing

/// Issue 11, item 11: a post of megabytes (hundreds of thousands of frames a page can hand the
/// relay in one go) is read off the main-loop thread, in its place among the session's posts.
@Suite("Bridge large posts, in real WebKit")
@EngineActor
struct LargePostTests {
    func readyFixture() async throws -> BridgeFixture {
        let fixture = try BridgeFixture(policy: OriginPolicy(patterns: [try OriginPattern(parsing: "http://localhost")]))
        let ready = Handoff<Bool>()
        fixture.bridge.observe { if case .ready = $0 { ready.fulfill(true) } }
        try await loadHTML(fixture.view, "<p>large posts</p>")
        _ = try await ready.value()
        return fixture
    }

    @Test func aLargeEchoComesBackWholeAndBeforeTheSmallCallPostedAfterIt() async throws {
        let fixture = try await readyFixture()
        defer { fixture.close() }
        let result = try await fixture.view.callAsyncJavaScript("""
            const big = 'abcdefgh'.repeat(3 << 17);  // 3 MiB: read on another thread
            const order = [];
            const first = hybrid.call('echo', big).then(v => { order.push('big'); return v; });
            await null; await null;  // the outbox's next flush: a post of its own
            const second = hybrid.call('echo', 'small').then(v => { order.push('small'); return v; });
            const [back, small] = await Promise.all([first, second]);
            return order.join(',') + ':' + (back === big) + ':' + small;
            """)
        #expect(result == "big,small:true:small")
    }

    @Test func aMalformedLargePostIsRefusedAndTheNextCallStillWorks() async throws {
        let fixture = try await readyFixture()
        defer { fixture.close() }
        // The page's own channel, bypassing hybrid.call: 3 MiB of frames text that is not JSON.
        let result = try await fixture.view.callAsyncJavaScript("""
            window.dispatchEvent(new CustomEvent('hybridshell:up', { detail: '[' + ' '.repeat(3 << 20) + '{' }));
            return await hybrid.call('echo', 'after');
            """)
        #expect(result == "after")
    }
}
