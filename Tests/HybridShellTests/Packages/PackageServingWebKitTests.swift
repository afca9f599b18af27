import Foundation
import HybridShellTestSupport
import HybridShell
import Testing

/// The package handler in a real web context: origin, secure context, and an update that applies at
/// the next document load of an open page.
@Suite("Packages served on app://<appID>/ in real WebKit")
@EngineActor
struct PackageServingWebKitTests {
    /// One context per process (WebKit contexts are kept for the process); its store is emptied per test.
    static let fixtures = try! PackageFixtures()
    static var context: WebContext?

    static func shared() throws -> (WebContext, PackageStore) {
        let store = fixtures.store()
        if let context { return (context, store) }
        let made = try WebContext(schemes: [SchemeRegistration(scheme: "app", handler: PackageSchemeHandler(store: store))])
        context = made
        return (made, store)
    }

    static func site(_ version: String) -> [String: String] {
        ["index.html": "<!doctype html><script src=\"js/app.js\"></script><h1>v\(version)</h1>",
         "js/app.js": "window.version = '\(version)';"]
    }

    @Test func anOpenPageKeepsItsVersionUntilItsNextDocumentLoad() async throws {
        let (context, store) = try Self.shared()
        let f = Self.fixtures
        try? store.remove("live")
        try store.install(file: try f.pack(try f.site("live1", Self.site("1")), "live1.zip", sequence: 1, app: "live"))
        let view = try WebView(context: context)
        defer { view.close() }
        #expect(try await load(view, "app://live/index.html"))
        let first = try await view.callAsyncJavaScript("return {origin: location.origin, secure: window.isSecureContext, version: window.version}")
        #expect(first == ["origin": "app://live", "secure": true, "version": "1"])

        try store.install(file: try f.pack(try f.site("live2", Self.site("2")), "live2.zip", sequence: 2, app: "live"))
        let during = try await view.callAsyncJavaScript("return await (await fetch('js/app.js', {cache: 'no-store'})).text()")
        #expect(during == "window.version = '1';", "the open page must not mix versions")

        #expect(try await load(view, "app://live/index.html"))
        let after = try await view.callAsyncJavaScript("return {version: window.version, h1: document.querySelector('h1').textContent}")
        #expect(after == ["version": "2", "h1": "v2"])
    }
}
