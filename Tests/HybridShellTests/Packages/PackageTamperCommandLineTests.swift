import Foundation
import HybridShellTestSupport
import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit

extension PackageFixtures {
    /// The fixtures' public key as a `.pub` file, for `--trust`.
    func trustFile() throws -> String {
        let file = path("trusted.pub").path
        try key.publicKey.fileText.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}

/// Issue 31 items 6 and 8 in real WebKit (`hybrid-run` under Xvfb): an installed package is served
/// as signed, not as the disk says now, and only to the app's own pages.
@Suite struct PackageTamperCommandLineTests {
    static let site = [
        "index.html": """
            <!doctype html><meta charset="utf-8">
            <script src="js/app.js"></script>
            <script>
              console.log('app.js ran: ' + (window.appRan === true));
              Promise.all(['js/app.js', 'js/added.js'].map(p => fetch(p).then(r => p + ' ' + r.status, e => p + ' failed')))
                .then(lines => { console.log(lines.join(', ')); window.close(); });
            </script>
            """,
        "js/app.js": "window.appRan = true;",
        "frame.html": "<script>parent.postMessage('framed', '*')</script>",
    ]

    /// A same-length edit of an installed script, and a script added together with its line in the
    /// on-disk manifest.json: neither runs; the edited one is a 500 and a packageFailed event.
    @Test func aTamperedAndAnAddedFileAreRefused() async throws {
        let f = try PackageFixtures()
        let installed = try f.store().install(file: try f.pack(try f.site("s1", Self.site), "d1.zip", sequence: 1))
        let tampered = "window.appRan = !!1 ;"
        #expect(tampered.utf8.count == Self.site["js/app.js"]!.utf8.count)
        try Data(tampered.utf8).write(to: installed.root.appendingPathComponent("js/app.js"))
        let added = "window.added = true;"
        try Data(added.utf8).write(to: installed.root.appendingPathComponent("js/added.js"))
        var manifest = installed.manifest
        manifest.files.append(.init(path: "js/added.js", size: Int64(added.utf8.count), sha256: SHA256Hex.digest(Data(added.utf8))))
        manifest.files.sort { $0.path < $1.path }
        try manifest.canonicalBytes().write(to: installed.root.deletingLastPathComponent().appendingPathComponent("manifest.json"))

        let run = try await CommandLineRun.run(["--package", "demo", "--data-dir", f.path("data").path, "--trust", try f.trustFile(),
                                                "--print-events", "--exit-after", "close", "--timeout", "20"])
        #expect(run.status == 0, "\(run.stderr)")
        let events = try PackageServingCommandLineTests.events(run)
        #expect(PackageServingCommandLineTests.console(events) == ["app.js ran: false", "js/app.js 500, js/added.js 404"], "\(run.stdout)\n\(run.stderr)")
        let failures = events.filter { $0["event"]?.stringValue == "packageFailed" }
        #expect(failures.count == 1 && failures.first?["reason"]?.stringValue?.contains("js/app.js of demo sequence 1 does not match") == true,
                "\(run.stdout)")
    }

    /// An http page that includes the app's script, image and a frame of its page gets none of them.
    @Test func anHTTPPageCannotUseAppContent() async throws {
        let f = try PackageFixtures()
        let site = try f.site("s1", Self.site)
        try Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DwH4QZYAwAR8oH+Rq28akAAAAASUVORK5CYII=")!
            .write(to: site.appendingPathComponent("pixel.png"))
        try f.store().install(file: try f.pack(site, "d1.zip", sequence: 1))
        let server = try await FixtureServer.start()
        defer { server.stop() }
        // Messages are delivered in order: the frame's (sent while it loads) come before the page's
        // own 'end' (sent at its load event, after every subresource and frame finished).
        server.route("/embed.html") { _ in
            .text("""
                <!doctype html><meta charset="utf-8">
                <script>var got = []; addEventListener('message', e => {
                  if (e.data !== 'end') { got.push(e.data); return }
                  console.log('embedded: ' + got.sort().join(', ')); window.close() })</script>
                <script src="app://demo/js/app.js" onload="got.push('script ran ' + (window.appRan === true))" onerror="got.push('script refused')"></script>
                <img src="app://demo/pixel.png" onload="got.push('img loaded')" onerror="got.push('img refused')">
                <iframe src="app://demo/frame.html"></iframe>
                <script>addEventListener('load', () => postMessage('end', '*'))</script>
                """, type: "text/html; charset=utf-8")
        }
        let run = try await CommandLineRun.run(["--url", server.url("embed.html"), "--data-dir", f.path("data").path, "--trust", try f.trustFile(),
                                                "--exit-after", "close", "--timeout", "20"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("CONSOLE LOG embedded: img refused, script refused"), "\(run.stdout)\n\(run.stderr)")
    }
}
