import Foundation
import HybridShell
import Testing

/// Every WebKit signal whose default opens a GTK dialog is refused, in a real window under Xvfb:
/// the page sees a cancel and the view reports ``PageEvent/nativeDialogRefused(_:)``. Before, the
/// file chooser, the colour chooser and the print dialog opened over the page (the print dialog in a
/// nested main loop that kept the process from ending).
@Suite("Native GTK dialogs are refused", .serialized)
@EngineActor
struct NativeDialogRefusalTests {
    @Test func printIsRefusedAndPrintReturns() async throws {
        let view = try makeView { $0.window = .visible(title: "print") }
        defer { view.close() }
        let refused = Self.refusal(view)
        let returned = Self.consoleLine(view, "print returned")
        #expect(try await load(view, Fixtures.pageURL("dialogs/print.html")))
        #expect(try await refused.value(timeout: .seconds(30), "the print refusal") == .print)
        _ = try await returned.value(timeout: .seconds(30), "window.print() returning")
    }

    @Test func fileAndColourChoosersAreCancelled() async throws {
        let view = try makeView { $0.window = .visible(title: "choosers"); $0.width = 800; $0.height = 600 }
        defer { view.close() }
        let ready = Self.consoleLine(view, "choosers ready")
        #expect(try await load(view, Fixtures.pageURL("dialogs/choosers.html")))
        _ = try await ready.value(timeout: .seconds(30), "the page")
        try await waitForPaint(view)

        let file = Self.refusal(view)
        let fileClicked = Self.consoleLine(view, "file clicked")
        view.synthesize(.click(button: 1, x: 200, y: 300))
        _ = try await fileClicked.value(timeout: .seconds(30), "the click on the file input")
        #expect(try await file.value(timeout: .seconds(30), "the file chooser refusal") == .fileChooser(multiple: false))

        let colour = Self.refusal(view)
        let colourClicked = Self.consoleLine(view, "color clicked")
        view.synthesize(.click(button: 1, x: 600, y: 300))
        _ = try await colourClicked.value(timeout: .seconds(30), "the click on the colour input")
        #expect(try await colour.value(timeout: .seconds(30), "the colour chooser refusal") == .colorChooser)
    }

    @Test func httpAuthenticationIsCancelledAndTheLoadEnds() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        server.route("/private") { _ in
            var response = FixtureServer.Response.text("<p>no entry</p>", type: "text/html")
            response.status = 401
            response.headers["WWW-Authenticate"] = "Basic realm=\"kiosk\""
            return response
        }
        let view = try makeView()
        defer { view.close() }
        let refused = Self.refusal(view)
        let finished = PageEventExpectation.loadFinished(view)
        view.load(server.url("private"))
        #expect(try await refused.value(timeout: .seconds(30), "the authentication refusal") == .authentication(host: "127.0.0.1"))
        // Cancelled, the challenge ends the load (WebKit reports it failed); no dialog waits for a password.
        _ = try await finished.value(timeout: .seconds(30), "the end of the load")
    }

    private static func refusal(_ view: WebView) -> PageEventExpectation<NativeDialogRequest> {
        PageEventExpectation(view) { event in
            if case .nativeDialogRefused(let request) = event { return request }
            return nil
        }
    }

    private static func consoleLine(_ view: WebView, _ text: String) -> PageEventExpectation<Bool> {
        PageEventExpectation(view) { event in
            if case .console(let message) = event, message.text == text { return true }
            return nil
        }
    }
}
