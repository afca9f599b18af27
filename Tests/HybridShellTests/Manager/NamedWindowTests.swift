import Foundation
import HybridShell
import Testing

/// `--new-windows new-page`: a window a `target=NAME` link opens keeps that name, and the next link
/// to the same name loads in it instead of pushing another page. The opener stays null.
/// (`window.open(url, NAME)` cannot be named: WebKitGTK 2.50.6 does not say the name. WebDriver
/// sessions: Tests/webdriver.)
@Suite("Named windows with the new-page policy")
@EngineActor
struct NamedWindowTests {
    static let page = Fixtures.pageURL("manager/named.html")

    func manager() throws -> PageManager {
        var configuration = ShellConfiguration()
        configuration.poolSize = 0
        configuration.defaults.newWindows = .newPage
        return try PageManager(configuration: configuration)
    }

    func newWindow(_ view: WebView) -> PageEventExpectation<NewWindowDecision> {
        PageEventExpectation(view) { event in
            if case .newWindowRequested(_, let decision) = event { return decision }
            return nil
        }
    }

    func loaded(_ view: WebView, containing text: String) -> PageEventExpectation<Bool> {
        PageEventExpectation(view) { event in
            if case .loadFinished(let url, let ok) = event, url.contains(text) { return ok }
            return nil
        }
    }

    @Test func aTargetNameLinkIsReusedToo() async throws {
        let manager = try manager()
        let opener = try manager.open(WebRoute(Self.page + "?role=opener"))
        _ = try await PageEventExpectation.loadFinished(opener.view).value(timeout: .seconds(30), "the opener")
        let requested = newWindow(opener.view)
        // Watch the popup's load from the moment it is pushed: it can finish loading before this
        // task resumes from the new-window event, and an expectation made then would wait for ever.
        var firstLoad: PageEventExpectation<Bool>?
        manager.onPageOpened = { [self] page in firstLoad = loaded(page.view, containing: "first") }
        _ = try await opener.view.evaluateJavaScript("document.getElementById('results').click(); 0")
        #expect(try await requested.value(timeout: .seconds(30), "the new window") == .newPage)
        let popup = try #require(manager.top)
        #expect(popup !== opener)
        _ = try await try #require(firstLoad).value(timeout: .seconds(30), "the named window")
        #expect(try await popup.view.evaluateJavaScript("window.name") == "results")
        #expect(try await popup.view.evaluateJavaScript("window.opener") == .null)
        let second = loaded(popup.view, containing: "second")
        let again = newWindow(opener.view)
        _ = try await opener.view.evaluateJavaScript("document.getElementById('results-again').click(); 0")
        #expect(try await again.value(timeout: .seconds(30), "the second open") == .newPage)
        _ = try await second.value(timeout: .seconds(30), "the second link in the named window")
        #expect(manager.stack.count == 2)
        #expect(try await popup.view.evaluateJavaScript("window.name") == "results")
        await manager.closeAll()
    }
}
