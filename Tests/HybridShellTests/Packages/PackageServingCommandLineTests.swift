import Foundation
import HybridShellTestSupport
import Testing
@testable import HybridShell
@testable import HybridShellCore
@testable import HybridShellWebKit

/// `hybrid-run --package APP` / `--url app://APP/…` with a data directory, in real WebKit (Xvfb).
@Suite struct PackageServingCommandLineTests {
    /// Logs its URL, its version and whether the bridge works on its origin, then closes.
    static func site(_ version: String) -> [String: String] {
        ["index.html": """
            <!doctype html><meta charset="utf-8"><title>v\(version)</title>
            <script src="js/app.js"></script>
            <script>
              console.log('page ' + location.href + ' version ' + window.version);
              hybrid.call('system.info').then(function (info) {
                console.log('bridge on ' + location.origin + ': ' + info.engine); window.close();
              }, function (error) { console.log('bridge refused on ' + location.origin + ': ' + error.code); window.close(); });
            </script>
            """,
         "js/app.js": "window.version = '\(version)';",
         "other/page.html": "<script>console.log('other page')</script>"]
    }

    static func events(_ run: CommandLineRun) throws -> [JSONValue] {
        try run.stdoutLines.map { try JSONValue(parsing: $0) }
    }

    static func console(_ events: [JSONValue]) -> [String] {
        events.filter { $0["event"]?.stringValue == "console" }.compactMap { $0["text"]?.stringValue }
    }

    func writeTrust(_ f: PackageFixtures) throws -> String {
        let path = f.path("rel.pub").path
        try f.key.publicKey.fileText.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theEntryPageLoadsFromThePackageWithAWorkingBridge() async throws {
        let f = try PackageFixtures()
        try f.store().install(file: try f.pack(try f.site("s1", Self.site("1")), "d1.zip", sequence: 1))
        let trust = try writeTrust(f)
        let run = try await CommandLineRun.run(["--package", "demo", "--data-dir", f.path("data").path, "--trust", trust,
                                                "--exit-after", "close", "--timeout", "20"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("CONSOLE LOG page app://demo/index.html version 1"), "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("CONSOLE LOG bridge on app://demo: WebKitGTK"), "\(run.stdout)\n\(run.stderr)")
        // Any listed page by URL.
        let other = try await CommandLineRun.run(["--url", "app://demo/other/page.html", "--data-dir", f.path("data").path, "--trust", trust,
                                                  "--exit-after", "load"])
        #expect(other.status == 0 && other.stdout.contains("CONSOLE LOG other page"), "\(other.stdout)\n\(other.stderr)")
    }

    @Test func aDirectoryMountOnAppKeepsTheHostlessURLs() async throws {
        let f = try PackageFixtures()
        try f.store().install(file: try f.pack(try f.site("s1", Self.site("1")), "d1.zip", sequence: 1))
        let data = f.path("data").path
        let mounted = try await CommandLineRun.run(["--dir-handler", "app:pages/fixtures/schemes", "--data-dir", data,
                                                    "--url", "app:///bridge.html", "--exit-after", "close", "--timeout", "20"])
        #expect(mounted.status == 0 && mounted.stdout.contains("CONSOLE LOG bridge on app://: WebKitGTK"), "\(mounted.stdout)\n\(mounted.stderr)")
        let packaged = try await CommandLineRun.run(["--dir-handler", "app:pages/fixtures/schemes", "--data-dir", data, "--trust", try writeTrust(f),
                                                     "--package", "demo", "--exit-after", "close", "--timeout", "20"])
        #expect(packaged.status == 0 && packaged.stdout.contains("CONSOLE LOG bridge on app://demo: WebKitGTK"), "\(packaged.stdout)\n\(packaged.stderr)")
    }

    @Test(arguments: [("app://demo/dropped.html", "HTTP 404"), ("app://demo/..%2f..%2fstate.json", "HTTP 403"),
                      ("app://demo/js/%00app.js", "HTTP 403"), ("app://nosuchapp/index.html", "HTTP 404")])
    func unlistedFilesAndTraversalAreRefused(url: String, message: String) async throws {
        let f = try PackageFixtures()
        let installed = try f.store().install(file: try f.pack(try f.site("s1", Self.site("1")), "d1.zip", sequence: 1))
        try Data("<script>console.log('dropped file served')</script>".utf8).write(to: installed.root.appendingPathComponent("dropped.html"))
        let run = try await CommandLineRun.run(["--url", url, "--data-dir", f.path("data").path, "--trust", try writeTrust(f),
                                                "--exit-after", "load", "--timeout", "20"])
        #expect(run.status == 2, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!run.stdout.contains("dropped file served"))
    }

    @Test func aPresetIsInstalledAtStartAndAnUpdateAppliesAtTheNextOpen() async throws {
        let f = try PackageFixtures()
        let trust = try writeTrust(f)
        let d1 = try f.pack(try f.site("s1", Self.site("1")), "d1.zip", sequence: 1)
        let data = f.path("data").path
        let first = try await CommandLineRun.run(["--package", "demo", "--data-dir", data, "--preset", d1.path, "--trust", trust,
                                                  "--print-events", "--exit-after", "close", "--timeout", "20"])
        #expect(first.status == 0, "\(first.stderr)")
        let events = try Self.events(first)
        let installedLine = events.firstIndex { $0["event"]?.stringValue == "packageInstalled" && $0["app"]?.stringValue == "demo" }
        let loadLine = events.firstIndex { $0["event"]?.stringValue == "loadStarted" }
        #expect(installedLine != nil && loadLine != nil && installedLine! < loadLine!, "\(first.stdout)")
        #expect(Self.console(events).contains("page app://demo/index.html version 1"), "\(first.stdout)")

        try f.store().install(file: try f.pack(try f.site("s2", Self.site("2")), "d2.zip", sequence: 2))
        let second = try await CommandLineRun.run(["--package", "demo", "--data-dir", data, "--preset", d1.path, "--trust", trust,
                                                   "--print-events", "--exit-after", "close", "--timeout", "20"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!second.stdout.contains("packageInstalled"), "the older preset must not replace the update")
        #expect(Self.console(try Self.events(second)).contains("page app://demo/index.html version 2"), "\(second.stdout)")
    }

    @Test func aFailedPresetIsAnEventAndAReportAndTheOldVersionStillOpens() async throws {
        let f = try PackageFixtures()
        let trust = try writeTrust(f)
        try f.store().install(file: try f.pack(try f.site("s1", Self.site("1")), "d1.zip", sequence: 1))
        let untrusted = try f.pack(try f.site("s2", Self.site("2")), "evil.zip", sequence: 5, key: f.otherKey)
        let server = try await FixtureServer.start()
        defer { server.stop() }
        server.route("/report") { _ in .text("ok") }
        let run = try await CommandLineRun.run(["--package", "demo", "--data-dir", f.path("data").path, "--preset", untrusted.path,
                                                "--trust", trust, "--report-url", server.url("report"), "--print-events",
                                                "--exit-after", "close", "--timeout", "20"])
        #expect(run.status == 0, "\(run.stderr)")
        let events = try Self.events(run)
        #expect(events.contains { $0["event"]?.stringValue == "packageFailed" && $0["reason"]?.stringValue?.contains("not a trusted key") == true },
                "\(run.stdout)")
        #expect(Self.console(events).contains("page app://demo/index.html version 1"), "\(run.stdout)")
        let report = try #require(server.requests.first { $0.path == "/report" })
        #expect(report.method == "POST")
        let body = try JSONSerialization.jsonObject(with: report.body) as? [String: Any]
        #expect((body?["reason"] as? String)?.contains("not a trusted key") == true, "\(String(decoding: report.body, as: UTF8.self))")
    }

    @Test(arguments: [(["--package", "demo"], 4, "need --data-dir"), (["--package", "a/b", "--data-dir", "DATA"], 4, "only letters"),
                      (["--preset", "p.zip", "--url", "app://demo/", "--data-dir", "DATA"], 4, "needs a trusted key"),
                      (["--report-url", "ftp://x/", "--url", "app://demo/", "--data-dir", "DATA"], 4, "http(s) URL"),
                      (["--package", "demo", "--data-dir", "DATA"], 4, "--package needs a trusted key"),
                      (["--package", "demo", "--data-dir", "DATA", "--trust", "TRUST"], 2, "is not installed")])
    func badPackageArgumentsFailPrecisely(arguments: [String], status: Int32, message: String) async throws {
        let f = try PackageFixtures()
        let trust = try writeTrust(f)
        let run = try await CommandLineRun.run(arguments.map { $0 == "DATA" ? f.path("data").path : $0 == "TRUST" ? trust : $0 }
                                               + ["--exit-after", "load"])
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}

/// Path-map mode: an online page's mapped script comes from the package, with no network request.
@Suite struct PathMapCommandLineTests {
    @Test func aMappedScriptOfAnOnlinePageComesFromThePackage() async throws {
        let f = try PackageFixtures()
        let server = try await FixtureServer.start()
        defer { server.stop() }
        server.route("/shop/index.html") { _ in
            .text("<script src=\"app.js\"></script><script>console.log('script from ' + window.source + ' on ' + location.origin)</script>",
                  type: "text/html; charset=utf-8")
        }
        server.route("/shop/app.js") { _ in .text("window.source = 'network';", type: "text/javascript") }
        let site = try f.site("s1", ["index.html": "<h1>package</h1>", "js/app.js": "window.source = 'package';"])
        let options = PackageBuilder.Options(appID: "shop", version: "1", sequence: 1,
                                             pathMap: [server.url("shop/app.js"): "js/app.js", server.url("shop/index.html"): "index.html"])
        let (data, _) = try PackageBuilder(key: f.key).pack(directory: site, options: options, base: nil)
        try data.write(to: f.path("shop.zip"))
        try f.store().install(file: f.path("shop.zip"))
        let run = try await CommandLineRun.run(["--url", server.url("shop/index.html"), "--data-dir", f.path("data").path,
                                                "--trust", try f.trustFile(), "--exit-after", "load", "--timeout", "20"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("CONSOLE LOG script from package on \(server.origin)"), "\(run.stdout)\n\(run.stderr)")
        #expect(!server.requests.contains { $0.path == "/shop/app.js" }, "the mapped script must not be fetched")
        #expect(server.requests.contains { $0.path == "/shop/index.html" }, "the document stays online")
    }

    /// `fetch` of a mapped URL is rewritten to `app://shop/…`: a cross-origin request the package
    /// scheme allows for the opened page's origin only (CORS). The extension's private directory is
    /// gone when the run ends.
    @Test func aMappedFileIsFetchableAndTheExtensionDirectoryIsRemoved() async throws {
        let f = try PackageFixtures()
        let server = try await FixtureServer.start()
        defer { server.stop() }
        server.route("/shop/index.html") { _ in
            .text("""
                <script>fetch('data.json').then(r => r.json()).then(d => console.log('data from ' + d.source),
                  e => console.log('fetch failed ' + e)).finally(() => window.close())</script>
                """, type: "text/html; charset=utf-8")
        }
        server.route("/shop/data.json") { _ in .text(#"{"source":"network"}"#, type: "application/json") }
        let site = try f.site("s1", ["index.html": "<h1>package</h1>", "data.json": #"{"source":"package"}"#])
        let options = PackageBuilder.Options(appID: "shop", version: "1", sequence: 1, pathMap: [server.url("shop/data.json"): "data.json"])
        let (data, _) = try PackageBuilder(key: f.key).pack(directory: site, options: options, base: nil)
        try data.write(to: f.path("shop.zip"))
        try f.store().install(file: f.path("shop.zip"))
        let temporary = f.path("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        let run = try await CommandLineRun.run(["--url", server.url("shop/index.html"), "--data-dir", f.path("data").path,
                                                "--trust", try f.trustFile(),
                                                "--exit-after", "close", "--timeout", "20"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("CONSOLE LOG data from package"), "\(run.stdout)\n\(run.stderr)")
        #expect(!server.requests.contains { $0.path == "/shop/data.json" }, "the mapped file must not be fetched")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasPrefix("hybridshell-ext-") }
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
