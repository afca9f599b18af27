import Foundation
import HybridShell
import Testing

/// Issue 15: a kiosk profile's `modules`, `[[capability]]` and `[module_settings]` give its home
/// the native modules; storage lives in the profile's data_dir and survives a restart.
@Suite("kiosk with native modules in real WebKit", .serialized)
@EngineActor
struct KioskModuleTests {
    static func profile(data: String) throws -> KioskProfile {
        let document = try ConfigDocument.parse("""
            home = "index.html"
            data_dir = "\(data)"
            modules = ["storage", "system"]

            [module_settings]
            network = "offline"

            [kiosk]
            inhibit_screensaver = false
            heartbeat_timeout = \(unhurriedHeartbeat.seconds)
            """, file: "kiosk.toml", format: .toml)
        return try KioskProfile.read(ConfigReader(document), relativeTo: Fixtures.page("kiosk/modules").path)
    }

    /// Starts a kiosk on the profile and returns the home page's report line.
    func report(_ profile: KioskProfile) async throws -> JSONValue {
        let host = try KioskHost(profile: profile)
        let line = Handoff<String>()
        try host.start()
        let view = try #require(host.page?.view)
        view.observe { event in
            if case .console(let message) = event, message.text.hasPrefix("KIOSK-MODULES ") { line.fulfill(String(message.text.dropFirst(14))) }
        }
        // 90 s, as for every first load in the parallel pass (see `load` in Support/Fixtures.swift).
        let text = try await line.value(timeout: .seconds(90), "the kiosk home's module report")
        await host.stop(reason: "test over")
        return try JSONValue(parsing: text)
    }

    @Test func theHomeCallsItsModulesAndStorageSurvivesARestart() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-modules-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let profile = try Self.profile(data: data)
        #expect(profile.shell.modules.enabled == [.storage, .system])
        let first = try await report(profile)
        #expect(first == ["visits": 1, "platform": "linux", "network": "none"], "\(first)")
        let second = try await report(profile)
        #expect(second["visits"] == 2, "storage in the profile's data_dir survives a restart: \(second)")
    }

    @Test func withoutModulesTheHomeGetsNone() async throws {
        var profile = try Self.profile(data: FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-none-\(UUID().uuidString)").path)
        defer { if let directory = profile.shell.storage.directory { try? FileManager.default.removeItem(atPath: directory) } }
        profile.shell.modules = ModuleConfiguration()
        let report = try await report(profile)
        #expect(report["error"] != nil, "no wx storage functions without the module: \(report)")
    }
}
