import Foundation
import HybridShell
import Testing

/// Issue 31, item 18: a dsbridge prompt refused because it came from a frame (no session secret)
/// is not logged under the top document's session: WebKit's prompt carries no frame or origin,
/// so the transcript says it is unattributed.
@Suite("Bridge log: refused frame prompts")
@EngineActor
struct FramePromptLogTests {
    @Test func aFramesRefusedDSBridgePromptIsLoggedAsUnattributedNotAsTheTopsSession() async throws {
        let allowed = try await FixtureServer.start(), other = try await FixtureServer.start()
        defer { allowed.stop(); other.stop() }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("frame-prompts-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let fixture = try BridgeFixture(policy: OriginPolicy(patterns: [try OriginPattern(parsing: allowed.origin)]))
        defer { fixture.close() }
        fixture.bridge.handlers.register("fixture.secret") { (input: String) -> String in "secret for \(input)" }
        fixture.bridge.transcript = try BridgeTranscript(path: log)
        fixture.view.load(allowed.url("fixtures/security/top.html?frame=\(other.url("fixtures/security/frame.html"))"))
        let report = try await fixture.report.value(timeout: .seconds(20))
        #expect(report["frames"]?["cross-origin"]?["barePrompt"]?.stringValue?.contains(#""errorCode":"DENIED""#) == true)
        _ = try await fixture.view.evaluateJavaScript("1")

        let entries = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        let topSession = try #require(entries.first { $0["kind"] == "call" && $0["handler"] == "fixture.secret" }?["session"])
        let prompts = entries.filter { $0["kind"] == "dsbridge-sync" }
        // The cross-origin frame's bare prompt and its guessed secret.
        #expect(prompts.count == 2, "\(prompts)")
        for prompt in prompts {
            #expect(prompt["outcome"] == "denied")
            #expect(prompt["session"] == nil, "not the top document's session \(topSession): \(prompt)")
            #expect(prompt["caller"] == "unattributed", "\(prompt)")
            #expect(prompt["handler"] == "fixture.secret")
        }
    }
}
