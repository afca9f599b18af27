import HybridShell
import Testing

/// Issue 11, item 4: console lines carry the URL of the frame that printed them; a cross-origin
/// frame cannot print, or raise an exception, in the top page's name.
@Suite("Console lines cannot be forged, in real WebKit")
@EngineActor
struct ConsoleForgeryTests {
    @Test func crossOriginFrameCannotPrintOrRaiseInTheTopPagesName() async throws {
        let top = try await FixtureServer.start(), other = try await FixtureServer.start()
        defer { top.stop(); other.stop() }
        let view = try makeView()
        defer { view.close() }
        let recorder = EventRecorder(view)
        let done = PageEventExpectation(view) { event -> Bool? in
            if case .console(let message) = event, message.text == "TOP-DONE" { return true }
            return nil
        }
        let frameException = PageEventExpectation(view) { event -> Bool? in
            if case .console(let message) = event, message.text.contains("FRAME-REAL-EXCEPTION") { return true }
            return nil
        }
        let frameURL = other.url("fixtures/security/console-frame.html")
        view.load(top.url("fixtures/security/console-top.html?frame=\(frameURL)"))
        _ = try await done.value(timeout: .seconds(30))
        _ = try await frameException.value(timeout: .seconds(30), "the frame's real exception")
        let messages = recorder.events.compactMap { event -> ConsoleMessage? in
            if case .console(let message) = event { return message }
            return nil
        }
        let fromFrame = messages.filter { $0.text.contains("FRAME-") || $0.text.contains("FORGED-") }
        #expect(fromFrame.contains { $0.text == "FRAME-GENUINE" })
        #expect(fromFrame.contains { $0.source == .uncaughtException && $0.text.contains("FRAME-REAL-EXCEPTION") })
        for message in fromFrame {
            #expect(message.frameURL == frameURL, "\(message.text) came from \(message.frameURL)")
            #expect(!message.url.hasPrefix(top.origin), "\(message.text) printed as \(message.miniBrowserLine)")
        }
        let forged = messages.filter { $0.text.contains("FORGED") }
        #expect(!forged.contains { $0.text == "FORGED-DIRECT" }, "the console handler is out of the page world's reach")
        #expect(!forged.contains { $0.text == "FORGED-ERROR-EVENT" }, "a synthetic error event is not an exception")
        #expect(forged.allSatisfy { $0.source == .consoleAPI }, "forged: \(forged.map { "\($0.source) \($0.text)" })")
        let genuine = try #require(messages.first { $0.text == "TOP-GENUINE" })
        #expect(genuine.url.hasPrefix(top.origin))
        #expect(genuine.frameURL.hasPrefix(top.origin))
    }
}
