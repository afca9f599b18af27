import Foundation
import HybridShellTestSupport
import Testing
@testable import HybridShellCore

@Suite struct AppBundleTests {
    func bundle(_ fixtures: PackageFixtures, edit: (String) -> String = { $0 }) throws -> AppBundle {
        let folder = fixtures.path("shop").path
        try AppScaffold(directory: folder, id: "org.example.Shop_App", name: "Shop & Co").write(to: folder)
        let toml = try String(contentsOfFile: folder + "/app.toml", encoding: .utf8)
        try edit(toml).write(toFile: folder + "/app.toml", atomically: true, encoding: .utf8)
        return AppBundle(app: try AppManifest.load(path: folder + "/app.toml"), runner: .init(package: "runner", version: "2.0"),
                         date: Date(timeIntervalSince1970: 1_767_225_600))
    }

    @Test func theTreeHasEveryPieceAndNoPrivateKey() throws {
        let f = try PackageFixtures()
        let bundle = try bundle(f)
        #expect(bundle.debianPackage == "org.example.shop-app" && bundle.fileName == "org.example.Shop_App_0.1.0_amd64.deb")
        let files = try bundle.files(package: Data("zip".utf8), icon: .png([16: Data("a".utf8), 64: Data("b".utf8)]), kiosk: false)
        let paths = files.map(\.path)
        #expect(paths.contains("usr/bin/shop-app") && files.first { $0.path == "usr/bin/shop-app" }?.mode == 0o755)
        for path in ["usr/share/org.example.Shop_App/app.toml", "usr/share/org.example.Shop_App/org.example.Shop_App.zip",
                     "usr/share/org.example.Shop_App/keys/app.pub", "usr/share/org.example.Shop_App/icon.svg",
                     "usr/share/icons/hicolor/16x16/apps/org.example.Shop_App.png", "usr/share/icons/hicolor/64x64/apps/org.example.Shop_App.png",
                     "usr/share/doc/org.example.shop-app/copyright", "DEBIAN/control", "DEBIAN/md5sums"] {
            #expect(paths.contains(path), "\(path)")
        }
        #expect(!files.contains { String(decoding: $0.data, as: UTF8.self).contains("ed25519-private") })
        let text = { (path: String) in String(decoding: files.first { $0.path == path }!.data, as: UTF8.self) }
        #expect(text("usr/share/applications/org.example.Shop_App.desktop").contains("\nExec=shop-app %u\n"))
        #expect(text("usr/share/applications/org.example.Shop_App.desktop").contains("\nMimeType=x-scheme-handler/shop-app;\n"))
        #expect(text("usr/share/metainfo/org.example.Shop_App.metainfo.xml").contains("<name>Shop &amp; Co</name>"))
        #expect(text("usr/share/org.example.Shop_App/app.toml").hasPrefix("# Installed by runner bundle"))
        let control = text("DEBIAN/control")
        #expect(control.contains("\nDepends: runner (>= 2.0)\n") && control.contains("\nVersion: 0.1.0\n"))
        #expect(control.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(control)")
        #expect(text("DEBIAN/md5sums").split(separator: "\n").count == files.count - 2)
    }

    @Test func whatABundleNeedsIsChecked() throws {
        let f = try PackageFixtures()
        #expect(throws: ShellError.self) { try bundle(f) { $0.replacingOccurrences(of: "license = \"MIT\"\n", with: "") }.check() }
        let g = try PackageFixtures()
        #expect(throws: ShellError.self) { try bundle(g) { $0.replacingOccurrences(of: "trusted_keys = [\"keys/app.pub\"]\n", with: "") }.check() }
        let h = try PackageFixtures()
        let noSchemes = try bundle(h) { $0.replacingOccurrences(of: "schemes = [\"shop-app\"]\n", with: "") }
        #expect(!noSchemes.desktopEntry.contains("MimeType"))
    }

    @Test(arguments: [("1.2.3", 1_002_003), ("0.1.0", 1000), ("2", 2_000_000), ("1.0~rc1", 1_000_000), ("0.0", nil), ("1.2000", nil)] as [(String, Int64?)])
    func sequencesComeFromTheVersion(version: String, sequence: Int64?) {
        #expect(AppBundle.sequence(for: version) == sequence)
    }
}
