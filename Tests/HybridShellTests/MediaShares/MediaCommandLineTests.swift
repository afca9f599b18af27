import Foundation
import HybridShellTestSupport
@testable import HybridShell
@testable import HybridShellCore
import Testing

/// Media plays headless in the command's two page modes (no `--window`): `hybrid-run --url` of a
/// directory mount's page (through the media relay) and `hybrid-run test` of a `file:` test page
/// (file URLs play natively; what made them fail headless was the window, see `WebKitView.headlessWindow`).
@Suite("hybrid-run: <video>/<audio> play headless")
struct MediaCommandLineTests {
    @Test func aDirectoryMountsMediaPlaysAndSeeksInAHeadlessRun() async throws {
        let run = try await CommandLineRun.run(["--dir-handler", "media:pages/fixtures/media", "--url", "media:///play.html",
                                                "--exit-after", "close", "--timeout", "60"], deadline: .seconds(90))
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("CONSOLE LOG video media:///clip.webm seeked to 2.5, played to"), "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("CONSOLE LOG audio media:///sound.ogg seeked to 5.0, played to"), "\(run.stdout)\n\(run.stderr)")
    }

    @Test func aPageTestOfAMediaPlayerPassesHeadless() async throws {
        let run = try await CommandLineRun.run(["test", "pages/fixtures/media/test.html", "--reporter", "list"], deadline: .seconds(90))
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stderr.contains("2 passed, 0 failed") || run.stdout.contains("2 passed, 0 failed"), "\(run.stdout)\n\(run.stderr)")
    }

    /// An online page whose media URLs a package maps: the player loads the http URL itself and the
    /// path-map extension answers it from the package; the server never sees the media requests.
    @Test func pathMappedMediaOfAnOnlinePagePlaysFromThePackage() async throws {
        let f = try PackageFixtures()
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let player = try String(contentsOf: Fixtures.page("media/play.js"), encoding: .utf8)
        server.route("/shop/index.html") { _ in
            .text("""
                <!doctype html><video id="video" src="clip.webm" preload="auto" muted></video>
                <audio id="audio" src="sound.ogg" preload="auto"></audio>
                <script>\(player)
                (async () => {
                  try {
                    for (const [id, seekTo] of [['video', 2.5], ['audio', 5]]) {
                      const result = await playAndSeek(document.getElementById(id), seekTo);
                      console.log(`${id} seeked to ${result.afterSeek.toFixed(1)}, played to ${result.playedTo.toFixed(1)}`);
                    }
                  } catch (error) { console.log(`media failed: ${error.message}`); }
                  window.close();
                })();
                </script>
                """, type: "text/html; charset=utf-8")
        }
        let site = f.path("shop-site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        for file in ["index.html", "clip.webm", "sound.ogg"] {
            try FileManager.default.copyItem(at: Fixtures.page("media/\(file)"), to: site.appendingPathComponent(file))
        }
        let options = PackageBuilder.Options(appID: "shop", version: "1", sequence: 1,
                                             pathMap: [server.url("shop/clip.webm"): "clip.webm", server.url("shop/sound.ogg"): "sound.ogg"])
        let (data, _) = try PackageBuilder(key: f.key).pack(directory: site, options: options, base: nil)
        try data.write(to: f.path("shop.zip"))
        try f.store().install(file: f.path("shop.zip"))
        let run = try await CommandLineRun.run(["--url", server.url("shop/index.html"), "--data-dir", f.path("data").path,
                                                "--trust", try f.trustFile(), "--exit-after", "close", "--timeout", "60"],
                                               deadline: .seconds(90))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("CONSOLE LOG video seeked to 2.5, played to"), "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("CONSOLE LOG audio seeked to 5.0, played to"), "\(run.stdout)\n\(run.stderr)")
        #expect(!server.requests.contains { $0.path.hasSuffix(".webm") || $0.path.hasSuffix(".ogg") }, "\(server.requests.map(\.path))")
    }
}
