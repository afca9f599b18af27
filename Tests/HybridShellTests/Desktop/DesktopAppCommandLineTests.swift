import Foundation
import HybridShell
import HybridShellTestSupport
import Testing

/// `hybrid-run app` on a D-Bus session bus private to the test (the one Tests/fake-notifications.py
/// starts), in real WebKit: one instance per app id, deep links forwarded to it, undeclared schemes
/// refused, the window's geometry kept.
@Suite("hybrid-run app: one instance, deep links, window geometry")
struct DesktopAppCommandLineTests {
    static let id = "org.example.DeepLinks"

    /// An app folder with a page that logs what it is asked to open.
    static func makeApp() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("desktop-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("web"), withIntermediateDirectories: true)
        try """
            id = "\(id)"
            name = "Deep links"
            version = "1.0.0"
            schemes = ["shop"]
            [window]
            width = 640
            height = 480
            """.write(to: folder.appendingPathComponent("app.toml"), atomically: true, encoding: .utf8)
        try """
            <!doctype html><meta charset="utf-8"><title>deep links</title>
            <script>hybrid.on('open', e => console.log('open ' + JSON.stringify(e.urls)));</script>
            """.write(to: folder.appendingPathComponent("web/index.html"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func aSecondLaunchHandsItsDeepLinkToTheRunningAppAndExitsZero() async throws {
        let folder = try Self.makeApp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        let state = data.appendingPathComponent("\(Self.id)/window.json")
        try FileManager.default.createDirectory(at: state.deletingLastPathComponent(), withIntermediateDirectories: true)
        try WindowGeometry(width: 700, height: 500, x: 10, y: 20, maximized: false).write(to: state.path)
        try await FakeNotificationServer.run { bus in
            var variables = ProcessInfo.processInfo.environment
            variables["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            variables["XDG_DATA_HOME"] = data.path
            let environment = variables
            let app = folder.appendingPathComponent("app.toml").path
            let primary = try await CommandLineRun.run(["app", folder.path, "shop://start"], environment: environment) { running in
                // The launch's own deep link arrives once the page has loaded.
                #expect(await running.waitForLine(containing: #"open ["shop://start"]"#) != nil)
                let second = try? await CommandLineRun.run(["app", app, "shop://orders/42"], environment: environment)
                #expect(second?.status == 0)
                #expect(second?.stderr.contains("handed shop://orders/42 to the running \(Self.id)") == true, "\(second?.stderr ?? "")")
                #expect(second?.webKitChildren.isEmpty == true, "the second launch starts no web process")
                #expect(await running.waitForLine(containing: #"open ["shop://orders/42"]"#) != nil)

                let refused = try? await CommandLineRun.run(["app", app, "ftp://files.example/x"], environment: environment)
                #expect(refused?.status == 4)
                #expect(refused?.stderr.contains(#"org.example.DeepLinks does not open ftp: links (its schemes: shop); refused "ftp://files.example/x""#) == true,
                        "\(refused?.stderr ?? "")")
                kill(running.pid, SIGTERM)
            }
            #expect(primary.status == 0, "\(primary.stderr)")
            #expect(primary.stderr.contains("hybrid-run: opened shop://orders/42"), "the Swift callback (DesktopApp.onOpen)")
        }
        // Restored from the file at launch, written back at exit (whole: a temporary file renamed).
        let kept = try #require(WindowGeometry.read(from: state.path))
        #expect(kept.width == 700 && kept.height == 500, "\(kept)")
    }

    @Test func anInstalledAppIsServedFromItsPresetThenFromTheUpdateItFetched() async throws {
        let fixtures = try PackageFixtures()
        try fixtures.pack(try fixtures.site("v3", ["index.html": "<script>console.log('version 3 at ' + location.href)</script>"]),
                          "app.hspkg", sequence: 3, app: Self.id)
        try FileManager.default.createDirectory(at: fixtures.path("out"), withIntermediateDirectories: true)
        let v4 = try fixtures.pack(try fixtures.site("v4", ["index.html": "<script>console.log('version 4 at ' + location.href)</script>"]),
                                   "out/v4.zip", sequence: 4, app: Self.id)
        let (index, signature) = try PackageIndex.make(packages: [v4], expires: nil, key: fixtures.key)
        try index.write(to: fixtures.path("out/index.json"))
        try signature.write(to: fixtures.path("out/index.json.sig"))
        let server = try await FixtureServer.start()
        defer { server.stop() }
        PackageUpdateTests.serve(fixtures.path("out"), on: server, names: ["index.json", "index.json.sig", "v4.zip"])
        try fixtures.key.publicKey.fileText.write(to: fixtures.path("app.pub"), atomically: true, encoding: .utf8)
        try """
            id = "\(Self.id)"
            name = "Deep links"
            version = "1.0.0"
            preset = "app.hspkg"
            trusted_keys = ["app.pub"]
            update_url = "\(server.url("pkg/"))"
            """.write(to: fixtures.path("app.toml"), atomically: true, encoding: .utf8)
        let data = fixtures.path("data")
        let app = fixtures.path("app.toml").path
        try await FakeNotificationServer.run { bus in
            var variables = ProcessInfo.processInfo.environment
            variables["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            variables["XDG_DATA_HOME"] = data.path
            let environment = variables
            // The first launch serves the preset and fetches the update in the background ...
            let first = try await CommandLineRun.run(["app", app], environment: environment) { running in
                #expect(await running.waitForLine(containing: "CONSOLE LOG version 3 at app://org.example.deeplinks/index.html") != nil)
                #expect(await running.waitForLine(containing: "hybrid-run: package.installed \(Self.id) 1.4.0 sequence=4") != nil)
                kill(running.pid, SIGTERM)
            }
            #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
            // ... which the next launch serves.
            let second = try await CommandLineRun.run(["app", app, "--exit-after", "load"], environment: environment)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.contains("CONSOLE LOG version 4 at app://org.example.deeplinks/index.html"), "\(second.stdout)")
        }
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("\(Self.id)/packages").path),
                "the packages live in the app's data directory")
    }
}
