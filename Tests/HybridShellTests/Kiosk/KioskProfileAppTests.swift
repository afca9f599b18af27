import Foundation
import HybridShell
import HybridShellTestSupport
import Testing

@Suite("An app.toml's [kiosk] table, read by the kiosk profile reader (pure)")
struct KioskProfileAppTests {
    func app(_ kiosk: String) throws -> (PackageFixtures, String) {
        let f = try PackageFixtures()
        _ = try f.site("app/web", ["index.html": "<h1>app</h1>"])
        let toml = "id = \"org.example.Lobby\"\nname = \"Lobby\"\nversion = \"1.0\"\nmodules = [\"system\"]\n\n[kiosk]\n" + kiosk
        try Data(toml.utf8).write(to: f.path("app/app.toml"))
        return (f, f.path("app").path)
    }

    @Test func theKioskRunsTheAppWithItsModules() throws {
        let (fixtures, folder) = try app("hide_cursor = \"never\"\nidle_reset = 60\ncontrol_socket = \"ctl.sock\"\n")
        let manifest = try AppManifest.open(folder)
        let profile = try #require(try KioskProfile.app(manifest, home: manifest.entryURL))
        #expect(profile.home == "app://org.example.lobby/index.html")
        #expect(profile.cursor == .visible && profile.idleReset == .seconds(60))
        #expect(profile.controlSocket == manifest.directory + "/ctl.sock")
        #expect(profile.shell.modules.enabled == [.system])
        _ = fixtures
    }

    @Test func anUnknownKioskKeyNamesFileAndLine() throws {
        let (fixtures, folder) = try app("hide_cursor = \"never\"\nteleport = true\n")
        let error = #expect(throws: ShellError.self) { try AppManifest.open(folder) }
        #expect(error?.description.contains("/app/app.toml:8: kiosk.teleport: unknown key") == true, "\(error?.description ?? "")")
        _ = fixtures
    }

    @Test func aFolderWithoutAppTomlIsNamed() throws {
        let f = try PackageFixtures()
        _ = try f.site("empty", ["x": ""])
        #expect(throws: ShellError.invalidArgument("\(f.path("empty").path) has no app.toml")) { try AppManifest.open(f.path("empty").path) }
    }
}
