import Foundation
import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit

/// Issue 11, items 1 and 2: pages a frame opens with `window.open` get the opener's bridge policy
/// (never one made from their own URL), and no frame can make the shell load a local file, a
/// `data:` or `javascript:` URL for it.
@Suite(.timeLimit(.minutes(2)))
@EngineActor
struct PopupAttackTests {
    @Test(arguments: [
        ("https://a.example/x", "http://127.0.0.1/", true),
        ("http://b.example/", "file:///app/index.html", true),
        ("about:blank", "https://a.example/", true),
        ("", "https://a.example/", true),
        ("file:///etc/passwd", "https://a.example/", false),
        ("FILE:///etc/passwd", "http://a.example/", false),
        ("data:text/html,<script>1</script>", "https://a.example/", false),
        ("javascript:alert(1)", "https://a.example/", false),
        ("app:///index.html", "https://a.example/", false),
        ("app:///other.html", "app:///index.html", true),
        ("file:///app/other.html", "file:///app/index.html", true),
        ("file:///etc/passwd", nil, false),
        ("::nonsense", "https://a.example/", false),
    ] as [(String, String?, Bool)])
    func windowOpenTargets(url: String, opener: String?, allowed: Bool) {
        #expect(NewWindowTarget.allows(url, openedFrom: opener) == allowed)
    }

    /// An opener page on one loopback port embedding a frame from another, which opens a popup.
    private func servers(frameScript: String) async throws -> (FixtureServer, FixtureServer) {
        let app = try await FixtureServer.start()
        let evil = try await FixtureServer.start()
        evil.route("/frame.html") { _ in .text("<!doctype html><script>\(frameScript)</script>", type: "text/html") }
        evil.route("/evil.html") { _ in .text("<!doctype html><title>evil</title><p>evil", type: "text/html") }
        app.route("/index.html") { _ in
            .text("<!doctype html><title>app</title><iframe src='\(evil.url("frame.html"))'></iframe>", type: "text/html")
        }
        return (app, evil)
    }

    @Test func popupFromACrossOriginFrameGetsTheOpenersPolicyNotItsOwn() async throws {
        let (app, evil) = try await servers(frameScript: "window.open(location.origin + '/evil.html')")
        defer { app.stop(); evil.stop() }
        var configuration = ShellConfiguration()
        configuration.poolSize = 0
        configuration.defaults.newWindows = .newPage
        let manager = try PageManager(configuration: configuration)
        let denied = Handoff<String>()
        let opener = try manager.open(WebRoute(app.url("index.html")))
        manager.onPageOpened = { page in
            page.bridge.observe { event in
                if case .denied(_, let origin, _) = event { denied.fulfill(origin) }
                if case .ready(_, let origin, _) = event { denied.fail(ShellError.invalidArgument("the popup's bridge is ready for \(origin)")) }
            }
        }
        #expect(opener.bridge.originPolicy.allows(origin: app.origin))
        let origin = try await denied.value(timeout: .seconds(30), "the popup's denied session")
        #expect(origin == evil.origin)
        #expect(manager.stack.count == 2)
        let popup = try #require(manager.top)
        #expect(!popup.bridge.originPolicy.allows(origin: evil.origin))
        await manager.closeAll()
    }

    @Test func aFrameCannotMakeTheTopViewLoadALocalFile() async throws {
        let (app, evil) = try await servers(frameScript: "window.open('file:///etc/passwd')")
        defer { app.stop(); evil.stop() }
        var configuration = ShellConfiguration()
        configuration.poolSize = 0
        let manager = try PageManager(configuration: configuration)
        let page = try manager.open(WebRoute(app.url("index.html")))
        let requested = PageEventExpectation(page.view) { event -> NewWindowDecision? in
            if case .newWindowRequested(let url, let decision) = event, url.hasPrefix("file:") { return decision }
            return nil
        }
        #expect(try await requested.value(timeout: .seconds(30), "the window.open request") == .deny)
        // Nothing loads after a denied request; the next event loop turn shows the same document.
        #expect(try await page.view.evaluateJavaScript("document.title") == "app")
        #expect(page.view.url?.hasPrefix("http://") == true)
        await manager.closeAll()
    }
}

/// Issue 11, item 2: a `file:` page reads other local files only when the app opts in.
@Suite(.timeLimit(.minutes(2)))
@EngineActor
struct FileAccessTests {
    private func title(allowFileAccess: Bool) async throws -> String {
        var configuration = ShellConfiguration()
        configuration.poolSize = 0
        configuration.allowFileAccess = allowFileAccess
        let manager = try PageManager(configuration: configuration)
        let page = try manager.open(WebRoute(Fixtures.pageURL("security/read-local.html")))
        let settled = PageEventExpectation(page.view) { event -> String? in
            if case .titleChanged(let title) = event, title != "reading" { return title }
            return nil
        }
        let title = try await settled.value(timeout: .seconds(30), "the page's verdict")
        await manager.closeAll()
        return title
    }

    @Test func aFilePageCannotReadOtherLocalFilesByDefault() async throws {
        #expect(try await title(allowFileAccess: false) == "blocked")
    }

    @Test func theAppCanOptIn() async throws {
        #expect(try await title(allowFileAccess: true) == "read")
    }
}
