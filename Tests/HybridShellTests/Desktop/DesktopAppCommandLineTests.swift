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

    @Test func anInstalledAppIsServedFromItsPresetPackageUnderItsDataDirectory() async throws {
        let fixtures = try PackageFixtures()
        let site = try fixtures.site("site", ["index.html": "<script>console.log('installed ' + location.href)</script>"])
        try fixtures.pack(site, "app.hspkg", sequence: 3, app: Self.id)
        try fixtures.key.publicKey.fileText.write(to: fixtures.path("app.pub"), atomically: true, encoding: .utf8)
        try """
            id = "\(Self.id)"
            name = "Deep links"
            version = "1.0.0"
            preset = "app.hspkg"
            trusted_keys = ["app.pub"]
            """.write(to: fixtures.path("app.toml"), atomically: true, encoding: .utf8)
        let data = fixtures.path("data")
        try await FakeNotificationServer.run { bus in
            var variables = ProcessInfo.processInfo.environment
            variables["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            variables["XDG_DATA_HOME"] = data.path
            let run = try await CommandLineRun.run(["app", fixtures.path("app.toml").path, "--exit-after", "load"], environment: variables)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("CONSOLE LOG installed app://org.example.deeplinks/index.html"), "\(run.stdout)")
        }
        let store = data.appendingPathComponent("\(Self.id)/packages").path
        #expect(FileManager.default.fileExists(atPath: store), "the preset was installed into the app's data directory")
    }
}
