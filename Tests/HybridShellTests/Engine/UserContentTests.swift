import Foundation
import HybridShell
import Testing

@Suite("User agent and user scripts")
@EngineActor
struct UserContentTests {
    @Test func userAgentSuffixReachesNavigatorAndTheServer() async throws {
        let server = try await FixtureServer.start()
        let view = try makeView { $0.userAgent = .appending("MyApp/1.2") }
        defer { view.close() }
        #expect(try await load(view, server.url("fixtures/engine/frames.html")))
        let navigatorAgent = try #require(try await view.evaluateJavaScript("navigator.userAgent").stringValue)
        #expect(navigatorAgent.hasSuffix(" MyApp/1.2"))
        #expect(navigatorAgent.contains("AppleWebKit"))
        #expect(view.userAgent == navigatorAgent)
        let requests = server.requests
        let page = try #require(requests.first { $0.path == "/fixtures/engine/frames.html" })
        #expect(page.headers["user-agent"] == navigatorAgent)
        server.stop()
    }

    @Test func customUserAgentReplacesTheDefault() async throws {
        let server = try await FixtureServer.start()
        let view = try makeView { $0.userAgent = .custom("Kiosk/7 (test)") }
        defer { view.close() }
        #expect(try await load(view, server.url("fixtures/engine/frames.html")))
        #expect(try await view.evaluateJavaScript("navigator.userAgent") == "Kiosk/7 (test)")
        #expect(server.requests.first?.headers["user-agent"] == "Kiosk/7 (test)")
        server.stop()
    }

    @Test func userAgentWithControlCharactersIsRejected() throws {
        #expect(throws: ShellError.self) { _ = try makeView { $0.userAgent = .custom("Bad\r\nX-Injected: 1") } }
        #expect(throws: ShellError.self) { _ = try makeView { $0.userAgent = .appending("Über/1") } }
    }

    /// The shell's own blank (page tests load it between pages) runs no user script.
    @Test func theInternalBlankRunsNoUserScript() async throws {
        let view = try makeView()
        defer { view.close() }
        view.addUserScript(UserScript(source: "window.userScriptRan = true;"))
        try await loadHTML(view, "<title>page</title>")
        #expect(try await view.evaluateJavaScript("window.userScriptRan === true") == true)
        let finished = PageEventExpectation.loadFinished(view)
        view.loadInternalBlank(html: "<!doctype html><title>blank</title>")
        #expect(try await finished.value(timeout: .seconds(90), "the internal blank's load"))
        #expect(view.url == WebView.internalBlankURL)
        #expect(try await view.evaluateJavaScript("[document.title, location.href, window.userScriptRan === undefined]")
                == ["blank", .string(WebView.internalBlankURL), true])
    }

    @Test func scriptsRunAtTheRequestedTimeAndFrames() async throws {
        // The test reads a file: iframe's document from its parent, which needs file access
        // (without it every file is its own origin).
        let view = try makeView { $0.allowsFileAccessFromFileURLs = true }
        defer { view.close() }
        view.addUserScript(UserScript(source: "window.startSawBody = document.body !== null;", injectionTime: .documentStart))
        view.addUserScript(UserScript(source: "window.endSawBody = document.body !== null;", injectionTime: .documentEnd))
        view.addUserScript(UserScript(source: "window.everyFrame = true;", frames: .allFrames))
        view.addUserScript(UserScript(source: "window.topOnly = true;", frames: .topFrameOnly))
        view.addUserScript(UserScript(source: "window.isolatedOnly = true;", world: .isolated("probe")))
        #expect(try await load(view, Fixtures.pageURL("engine/frames.html")))
        _ = try await view.callAsyncJavaScript("""
            const frame = document.getElementById('child');
            if (frame.contentDocument.readyState !== 'complete') await new Promise(r => frame.onload = r);
            """)
        let report = try await view.evaluateJavaScript("""
            const child = document.getElementById('child').contentWindow;
            ({start: window.startSawBody, end: window.endSawBody, top: window.everyFrame === true && window.topOnly === true,
              childEvery: child.everyFrame === true, childTop: child.topOnly === true, isolatedLeak: window.isolatedOnly === true})
            """)
        #expect(report == ["start": false, "end": true, "top": true, "childEvery": true, "childTop": false, "isolatedLeak": false])
        #expect(try await view.evaluateJavaScript("window.isolatedOnly", in: .isolated("probe")) == true)
    }
}
