import Foundation
import HybridShell
import Testing

@Suite("Console capture matches WebKit's MiniBrowser output")
@EngineActor
struct ConsoleCaptureTests {
    @Test func consoleMessagesAndErrorsArriveInMiniBrowserFormat() async throws {
        // Without file access WebKit gives every file: document an opaque origin and reports its
        // uncaught errors as "Script error."; see WebViewConfiguration.allowsFileAccessFromFileURLs.
        let view = try makeView { $0.allowsFileAccessFromFileURLs = true }
        defer { view.close() }
        let recorder = EventRecorder(view)
        let iframeLogged = PageEventExpectation(view) { event -> Bool? in
            if case .console(let message) = event, message.text == "from iframe" { return true }
            return nil
        }
        let url = Fixtures.pageURL("engine/console.html")
        _ = try await load(view, url)
        _ = try await iframeLogged.value(timeout: .seconds(30), "the iframe's console message")

        // The same lines MiniBrowser --enable-write-console-messages-to-stdout=true prints for this page.
        let expected = [
            "\(url):5:12: CONSOLE LOG hello 1 [object Object]",
            "\(url):6:13: CONSOLE WARN careful",
            "\(url):7:36: CONSOLE ERROR from nested",
            "\(url):9:13: CONSOLE INFO info line",
            "\(url):10:14: CONSOLE DEBUG debug line",
            "\(url):14:32: CONSOLE JS ERROR Error: boom",
            "CONSOLE JS ERROR Unhandled Promise Rejection: Error: nobody caught me",
        ]
        let lines = recorder.consoleLines
        #expect(Set(lines.filter { !$0.hasPrefix("about:srcdoc") }) == Set(expected))
        // MiniBrowser prints about:srcdoc:1:20. Inside a file: page JavaScriptCore hides the srcdoc
        // script's frame from stacks (its origin is opaque), so only the URL and text are certain.
        let iframeLines = lines.filter { $0.hasPrefix("about:srcdoc") }
        #expect(iframeLines.count == 1)
        #expect(iframeLines.first?.hasSuffix(": CONSOLE LOG from iframe") == true)
        #expect(lines.count == expected.count + 1)
    }

    @Test func captureCanBeTurnedOff() async throws {
        let view = try makeView { $0.capturesConsole = false }
        defer { view.close() }
        let recorder = EventRecorder(view)
        try await loadHTML(view, "<script>console.log('quiet')</script>")
        _ = try await view.evaluateJavaScript("console.log('still quiet'); 1")
        #expect(recorder.consoleLines.isEmpty)
    }
}
