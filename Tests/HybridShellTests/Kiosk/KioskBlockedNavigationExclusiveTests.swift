import Foundation
import HybridShell
import Testing

/// Blocked navigations and a page's own `about:blank` leave the kiosk as it was: before, each was
/// taken as a failed load of the page on screen (error page, retry every 2 s, for ever).
@Suite("hybrid-run kiosk: navigations that are not load failures", .serialized)
struct KioskBlockedNavigationExclusiveTests {
    @Test func aRedirectOffTheAllowListLeavesThePageAsItWas() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        server.route("/away") { _ in
            FixtureServer.Response(status: 302, headers: ["Location": "https://blocked.invalid/away"], body: Data())
        }
        server.route("/home") { _ in
            .text("""
                <p>home</p><script>
                console.log('home loaded');
                addEventListener('load', () => setTimeout(() => { location.href = '/away'; }, 100));
                </script>
                """, type: "text/html; charset=utf-8")
        }
        let home = server.url("home")
        let run = try await KioskCommandLineExclusiveTests.kiosk(["--url", home]) { kiosk, events in
            #expect(await events.next("loaded")?["url"] == .string(home))
            #expect(await events.next("navigationBlocked")?["url"] == "https://blocked.invalid/away")
            // The page is still there and answers; nothing failed, no error page.
            let status = try await KioskCommandLineExclusiveTests.control("status", kiosk)
            #expect(status["showingErrorPage"] == false, "\(status)")
            // (WebKit's `uri` keeps naming the refused redirect; the document is still home's.)
            _ = try await KioskCommandLineExclusiveTests.control("reload", kiosk)
            let next = await events.next { ["loaded", "loadFailed", "retrying"].contains($0["event"]?.stringValue ?? "") }
            #expect(next?["event"] == "loaded" && next?["url"] == .string(home), "\(String(describing: next))")
            kill(kiosk.pid, SIGTERM)
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(!run.stderr.contains("failed to load"), "stderr: \(run.stderr)")
    }

    @Test func aPagesOwnAboutBlankIsNotAFailedLoad() async throws {
        let page = "pages/fixtures/kiosk/to-blank.html"
        let run = try await KioskCommandLineExclusiveTests.kiosk(["--url", page]) { kiosk, events in
            #expect(await events.next("loaded")?["url"]?.stringValue?.hasSuffix("/to-blank.html") == true)
            let next = await events.next { ["loaded", "loadFailed"].contains($0["event"]?.stringValue ?? "") }
            #expect(next?["event"] == "loaded" && next?["url"] == "about:blank", "\(String(describing: next))")
            let status = try await KioskCommandLineExclusiveTests.control("status", kiosk)
            #expect(status["showingErrorPage"] == false, "\(status)")
            kill(kiosk.pid, SIGTERM)
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(!run.stderr.contains("failed to load"), "stderr: \(run.stderr)")
    }
}
