import Foundation
import HybridShell
import Testing

@Suite("Load events, titles and failures in a real WebKit view")
@EngineActor
struct LoadEventTests {
    @Test func fileLoadReportsStartCommitFinishInOrder() async throws {
        let view = try makeView()
        defer { view.close() }
        let recorder = EventRecorder(view)
        let titled = PageEventExpectation(view) { $0 == .titleChanged("frames fixture") ? true : nil }
        let url = Fixtures.pageURL("engine/frames.html")
        #expect(try await load(view, url) == true)
        _ = try await titled.value(timeout: .seconds(30), "the title")

        let loads = recorder.events.compactMap { event -> String? in
            switch event {
            case .loadStarted: "started"
            case .loadCommitted: "committed"
            case .loadFinished(_, let succeeded): "finished(\(succeeded))"
            default: nil
            }
        }
        #expect(loads == ["started", "committed", "finished(true)"])
        #expect(recorder.events.contains(.titleChanged("frames fixture")))
        #expect(recorder.events.contains(.progressChanged(1.0)))
        #expect(view.title == "frames fixture")
        #expect(view.url == url)
    }

    @Test func missingFileIsAFailedLoad() async throws {
        let view = try makeView()
        defer { view.close() }
        let failure = PageEventExpectation(view) { event -> LoadError? in
            if case .loadFailed(let error) = event { return error }
            return nil
        }
        let finished = PageEventExpectation.loadFinished(view)
        view.load("file:///nonexistent/hybridshell/missing.html")
        let error = try await failure.value(timeout: .seconds(30))
        #expect(error.url == "file:///nonexistent/hybridshell/missing.html")
        #expect(error.kind == .network)
        #expect(!error.message.isEmpty)
        #expect(try await finished.value(timeout: .seconds(30)) == false)
    }

    @Test func refusedConnectionIsANetworkFailure() async throws {
        let view = try makeView()
        defer { view.close() }
        let failure = PageEventExpectation(view) { event -> LoadError? in
            if case .loadFailed(let error) = event { return error }
            return nil
        }
        view.load("http://127.0.0.1:59999/")
        let error = try await failure.value(timeout: .seconds(30))
        #expect(error.kind == .network)
        #expect(error.message.contains("Connection refused"))
    }

    @Test func blockedPortIsAFailureNotABlankPage() async throws {
        let view = try makeView()
        defer { view.close() }
        let failure = PageEventExpectation(view) { event -> LoadError? in
            if case .loadFailed(let error) = event { return error }
            return nil
        }
        let finished = PageEventExpectation.loadFinished(view)
        view.load("http://127.0.0.1:9/")  // a port WebKit refuses (discard)
        let error = try await failure.value(timeout: .seconds(30))
        #expect(error.kind == .unsupported)
        #expect(try await finished.value(timeout: .seconds(30)) == false)
    }

    @Test func htmlStringLoadsWithBaseURL() async throws {
        let view = try makeView()
        defer { view.close() }
        try await loadHTML(view, "<title>inline</title>", baseURL: "http://example.invalid/dir/")
        #expect(try await view.evaluateJavaScript("document.baseURI") == "http://example.invalid/dir/")
        #expect(try await view.evaluateJavaScript("document.title") == "inline")
    }
}
