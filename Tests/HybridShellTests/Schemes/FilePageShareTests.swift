import Foundation
import HybridShell
import Testing

/// What a page loaded from `file://` (without `--allow-file-access`) gets from a share made for
/// its origin `file://` (README, "Pages loaded from file://"): no-cors reads work, `fetch` is
/// refused because it sends `Origin: null`, which sandboxed iframes of any page send too.
@Suite("hybrid-file:// shares from a file:// page")
@EngineActor
struct FilePageShareTests {
    @Test func anImageLoadsButFetchIsRefused() async throws {
        let fixture = try SchemeFixture.shared()
        let view = try WebView(context: fixture.context)
        defer { view.close() }
        #expect(try await load(view, Fixtures.pageURL("schemes/index.html")))
        let url = try fixture.shares.share(file: fixture.root + "/pixel.png", origin: "file://")
        let result = try await view.callAsyncJavaScript("""
            const image = new Image();
            const loaded = await new Promise(resolve => { image.onload = () => resolve(true); image.onerror = () => resolve(false); image.src = url; });
            let fetched;
            try { fetched = (await fetch(url)).status; } catch (error) { fetched = 'refused'; }
            return {origin: location.origin, image: loaded, width: image.naturalWidth, fetch: fetched};
            """, arguments: ["url": .string(url)])
        // location.origin says file://, but requests carry `Origin: null`.
        #expect(result["origin"] == "file://")
        #expect(result["image"] == true, "\(result)")
        #expect(result["width"] == 2)
        #expect(result["fetch"] == "refused", "\(result)")
    }
}
